"""The synthetic renderer: distinct faces per label, deterministic under a seed, scenes whose truth is exact."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.crops import rotated_crop
from vision.synth import (
    UnknownDiceSet,
    get_dice_set,
    register_dice_set,
    render_die,
    render_scene,
    render_table,
)

STILL = dict(die_px=40, palette="white", background="paper", tilt=0.0, angle=0.0, glare=False, hard=False, blur=0.0,
             noise=0.0, jpeg=0, crop="rotated", jitter=False, neighbour=False)


@pytest.mark.parametrize("dice_set", ["d6", "chariot_race"])
def test_every_label_renders_a_visibly_different_face(dice_set):
    labels = get_dice_set(dice_set).labels
    crops = {label: render_die(label, dice_set, np.random.default_rng(7), size=48, **STILL).astype(float)
             for label in labels}
    for a, b in itertools.combinations(labels, 2):
        # same seed and style: only the symbol differs, and it must differ a lot (not a few pixels)
        diff = np.abs(crops[a] - crops[b]).mean(axis=2)
        assert (diff > 60).mean() > 0.02, f"{dice_set}: {a} and {b} look alike"


@pytest.mark.parametrize("palette", get_dice_set("d6").palettes)
def test_every_d6_palette_shows_its_pips(palette):
    # dark marbled dice with red pips were most of the synthetic-only model's errors on real photos: every body
    # colour must carry pips that stand out from it, with every ink it may be printed in
    for seed in range(4):
        one, two = (render_die(label, "d6", np.random.default_rng(seed), size=48, **{**STILL, "palette": palette})
                    .astype(float) for label in ("1", "2"))
        centre = np.abs(one - two)[20:28, 20:28].mean()  # the centre pip of "1", plain body on "2"
        assert centre > 25, f"{palette} (seed {seed}): the pip hardly differs from the body ({centre:.0f})"


def test_some_swirled_dice_carry_thin_pale_streaks():
    # swirled resin dice with hair-thin light folds were the synthetic-only model's commonest misreads on real
    # photos: about half the marbled faces carry such streaks, and they stay thin (never a pale face)
    from vision.synth.faces import _marble

    streaked = 0
    for seed in range(40):
        mix, streaks = _marble(96, np.random.default_rng(seed))
        assert 0 <= mix.min() and mix.max() <= 1 and 0 <= streaks.min() and streaks.max() <= 1
        if streaks.max() > 0.1:
            streaked += 1
            assert (streaks > 0.1).mean() < 0.35
    assert 10 <= streaked <= 30


def test_chariot_race_faces_follow_the_rules_data():
    ds = get_dice_set("chariot_race")
    assert ds.labels == ("drive", "gallop", "steer", "attack", "fortune")
    assert sorted(ds.faces) == sorted(["drive", "gallop", "steer", "steer", "attack", "fortune"])
    assert len({ds.symbols[label] for label in ds.labels}) == len(ds.labels)


@pytest.mark.parametrize("top", get_dice_set("d6").labels)
def test_a_d6_lies_on_the_face_opposite_its_top_and_adjacent_sides_are_never_opposite(top):
    ds = get_dice_set("d6")
    for seed in range(20):
        for varied in (True, False):
            sides, bottom = ds.side_symbols(top, np.random.default_rng(seed), varied)
            faces = [int(s.removeprefix("pips")) for s in sides]
            assert int(bottom.removeprefix("pips")) == 7 - int(top)
            assert sorted(faces + [int(top), 7 - int(top)]) == [1, 2, 3, 4, 5, 6]
            assert all(faces[i] + faces[(i + 1) % 4] != 7 for i in range(4))


def test_a_die_with_no_opposites_known_shows_its_other_faces_as_sides_and_lies_on_none_known():
    sides, bottom = get_dice_set("chariot_race").side_symbols("steer", np.random.default_rng(0))
    assert sorted(sides) == sorted(["wheel", "chevrons", "spear", "star"]) and bottom is None


@pytest.mark.parametrize(("palette", "shows"), [("translucent_clear", True), ("white", False)])
def test_the_face_a_die_lies_on_shows_through_a_translucent_body_only(palette, shows):
    from vision.synth.die import DiePose, paint_die, sample_look
    from vision.synth.effects import sample_lighting

    def painted(bottom: str) -> np.ndarray:
        rng = np.random.default_rng(5)
        image = np.full((80, 80, 3), 128, np.float32)
        look = sample_look(get_dice_set("d6"), "1", rng, palette=palette, glare=False)
        sides = ["pips2", "pips3", "pips5", "pips4"]
        paint_die(image, DiePose((40.0, 40.0), 40.0, 10.0, (2.0, 1.0)), look, "pips1", sides, sample_lighting(rng), rng,
                  bottom)
        return image

    assert (np.abs(painted("pips6") - painted(None)).max() > 20) == shows


def test_render_die_is_deterministic_under_a_seed():
    a = render_die("steer", "chariot_race", np.random.default_rng(3), size=32)
    b = render_die("steer", "chariot_race", np.random.default_rng(3), size=32)
    c = render_die("steer", "chariot_race", np.random.default_rng(4), size=32)
    assert a.shape == (32, 32, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_render_scene_is_deterministic_under_a_seed():
    a = render_scene(["1", "2", "3"], "d6", np.random.default_rng(5), distractors=["hand"])
    b = render_scene(["1", "2", "3"], "d6", np.random.default_rng(5), distractors=["hand"])
    assert np.array_equal(a.image, b.image) and np.array_equal(a.empty, b.empty)
    assert a.dice == b.dice


def test_unknown_labels_and_sets_are_refused_with_the_known_ones():
    with pytest.raises(UnknownDiceSet, match="drive"):
        render_die("7", "chariot_race", np.random.default_rng(0))
    with pytest.raises(UnknownDiceSet, match="d6"):
        render_scene(["1"], "d7", np.random.default_rng(0))
    with pytest.raises(UnknownDiceSet, match="'7'"):
        register_dice_set("misprinted", {"labels": ["1", "6"], "symbols": {"1": "pips1", "6": "pips6"},
                                         "palettes": ["white"], "opposites": [["1", "7"]]})
    with pytest.raises(UnknownDiceSet):
        get_dice_set("misprinted")


def test_a_rotated_crop_of_an_upright_die_is_die_in_the_middle_and_tray_at_the_border():
    crop = render_die("1", "d6", np.random.default_rng(0), size=60, **{**STILL, "palette": "red"})
    b, g, r = (crop[..., i].astype(int) for i in range(3))
    red = (r > 120) & (r > g + 60) & (r > b + 60)
    inner = red[8:52, 8:52]  # the die covers 1/1.2 of the crop: 50 px of 60, centred
    border = np.concatenate([red[:3].ravel(), red[-3:].ravel(), red[:, :3].ravel(), red[:, -3:].ravel()])
    assert inner.mean() > 0.75
    assert border.mean() < 0.05


@pytest.mark.parametrize("seed", range(5))
def test_scene_dice_are_inside_the_image_and_do_not_overlap(seed):
    labels = ["1", "2", "3", "4", "5", "6", "3", "5"]
    scene = render_scene(labels, "d6", np.random.default_rng(seed))
    h, w = scene.image.shape[:2]
    assert [d.label for d in scene.dice] == labels
    for die in scene.dice:
        outline = np.asarray(die.outline)
        assert outline.min() >= 0 and outline[:, 0].max() < w and outline[:, 1].max() < h
        box = np.asarray(die.box)
        np.testing.assert_allclose(box.mean(0), die.center, atol=1e-6)
        np.testing.assert_allclose(np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1), die.size, rtol=1e-6)
        assert 0 <= die.angle < 90
    for a, b in itertools.combinations(scene.dice, 2):
        gap = np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
        assert gap > (a.size + b.size) / 2 * np.sqrt(2), "top faces overlap"


@pytest.mark.parametrize("seed", range(5))
def test_touching_scene_has_a_pair_of_dice_edge_to_edge(seed):
    scene = render_scene(["2", "5", "6"], "d6", np.random.default_rng(seed), touching=True)
    a, b = scene.dice[0], scene.dice[1]
    assert a.angle == pytest.approx(b.angle)
    d = np.subtract(b.center, a.center)
    t = np.deg2rad(a.angle)
    along, across = sorted(abs(v) for v in (d @ [np.cos(t), np.sin(t)], d @ [-np.sin(t), np.cos(t)]))
    assert across == pytest.approx(a.size, rel=1e-6)  # they share an edge line
    assert along <= 0.3 * a.size + 1e-6  # and most of the edge


def test_dice_appear_where_the_scene_says_and_nowhere_else():
    scene = render_scene(["4", "6"], "d6", np.random.default_rng(11), background="felt", tilt=0.0)
    diff = np.abs(scene.image.astype(int) - scene.empty.astype(int)).max(axis=2)
    mask = np.zeros(diff.shape, bool)
    for die in scene.dice:
        crop = rotated_crop(diff.astype(np.uint8), die.center, die.size, die.angle, 32, margin=0.8)
        assert np.median(crop) > 25, "the die is not where the scene says"
        x, y = die.center
        r = int(die.size * 1.5)
        mask[max(0, int(y) - r):int(y) + r, max(0, int(x) - r):int(x) + r] = True
    # away from the dice (and their shadows) only sensor noise differs
    assert np.percentile(diff[~mask], 99) < 30


def test_empty_tray_has_the_same_light_as_the_scene():
    scene = render_scene(["1"], "d6", np.random.default_rng(2))
    assert abs(float(scene.image.mean()) - float(scene.empty.mean())) < 6


def test_distractors_are_drawn_reported_and_not_counted_as_dice():
    scene = render_scene(["1", "2"], "d6", np.random.default_rng(8), distractors=["hand", "shadow", "glare"])
    assert [d.kind for d in scene.distractors] == ["hand", "shadow", "glare"]
    assert len(scene.dice) == 2
    x0, y0, x1, y1 = (int(v) for v in next(d for d in scene.distractors if d.kind == "hand").box)
    region = np.abs(scene.image[y0:y1, x0:x1].astype(int) - scene.empty[y0:y1, x0:x1].astype(int))
    assert region.mean() > 15, "the hand should change the tray where it is reported"


def test_unknown_distractor_is_refused():
    with pytest.raises(ValueError, match="hand"):
        render_scene(["1"], "d6", np.random.default_rng(0), distractors=["cat"])


def test_a_render_through_a_real_cameras_look_is_deterministic_and_not_the_plain_render():
    a = render_die("4", "d6", np.random.default_rng(3), size=32, sensor=True)
    b = render_die("4", "d6", np.random.default_rng(3), size=32, sensor=True)
    plain = render_die("4", "d6", np.random.default_rng(3), size=32)
    assert a.shape == (32, 32, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, plain)


def test_a_scene_through_a_cameras_look_keeps_its_dice_and_shows_them_and_its_empty_tray_through_one_camera():
    plain = render_scene(["4", "6"], "d6", np.random.default_rng(11), background="felt")
    taken = render_scene(["4", "6"], "d6", np.random.default_rng(11), background="felt", sensor=True)
    assert [(d.label, d.center, d.size) for d in taken.dice] == [(d.label, d.center, d.size) for d in plain.dice]
    assert not np.array_equal(taken.image, plain.image)
    assert taken.lighting.noise == 0 and taken.lighting.jpeg == 0  # the camera's own noise and JPEG instead
    # the empty tray shares the camera's white balance and tone: away from the dice the two frames agree
    colour = np.abs(taken.image.reshape(-1, 3).mean(0) - taken.empty.reshape(-1, 3).mean(0))
    assert colour.max() < 6
    table = render_table("d6", np.random.default_rng(11), "pieces", sensor=True)  # a game table too
    assert table.lighting.noise == 0 and table.lighting.jpeg == 0

def test_the_camera_look_tints_grey_light_and_softens_edges_as_asked():
    from dataclasses import replace

    from vision.synth.sensor import develop, sample_sensor

    neutral = replace(sample_sensor(np.random.default_rng(0)), white=(1.0, 1.0, 1.0), gamma=1.0, saturation=1.0,
                      defocus=0.0, motion=0.0, scale=1.0, shot=0.0, read=0.0, chroma=0.0, sharpen=0.0, shade=0.0,
                      jpeg=0)
    edge = np.zeros((32, 32, 3), np.float32)
    edge[:, 16:] = 200.0
    assert np.array_equal(develop(edge, neutral, np.random.default_rng(1)), edge.astype(np.uint8))
    warm = develop(np.full((32, 32, 3), 128, np.float32), replace(neutral, white=(0.8, 1.0, 1.2)),
                   np.random.default_rng(1))
    assert warm[..., 2].mean() > warm[..., 1].mean() > warm[..., 0].mean()  # BGR: red up, blue down
    blurred = develop(edge, replace(neutral, defocus=1.5), np.random.default_rng(1))
    assert 0 < blurred[0, 16, 0] < 200 and 0 < blurred[0, 15, 0] < 200


def test_game_pieces_are_drawn_reported_and_kept_clear_of_the_dice():
    from vision.synth.pieces import PIECES

    scene = render_scene(["1", "2", "3"], "d6", np.random.default_rng(8), distractors=list(PIECES))
    assert sorted(d.kind for d in scene.distractors) == sorted(PIECES)
    assert len(scene.dice) == 3
    for piece in scene.distractors:
        x0, y0, x1, y1 = piece.box
        centre, radius = np.array([(x0 + x1) / 2, (y0 + y1) / 2]), (x1 - x0) / 2
        for die in scene.dice:
            assert np.hypot(*(np.asarray(die.center) - centre)) > radius  # no die lies on a piece
    plain = render_scene(["1", "2", "3"], "d6", np.random.default_rng(8))
    assert not np.array_equal(scene.image, plain.image)


def test_a_game_table_between_rolls_holds_two_to_four_pieces_and_no_die():
    from vision.synth import EMPTY_TABLE
    from vision.synth.pieces import PIECES

    for seed in range(6):
        table = render_table("cubitos", np.random.default_rng(seed), EMPTY_TABLE)
        assert table.dice == []
        assert 2 <= len(table.distractors) <= 4
        assert {d.kind for d in table.distractors} <= set(PIECES)
    with pytest.raises(ValueError, match="unknown table kind"):
        render_table("d6", np.random.default_rng(0), "crowded")
