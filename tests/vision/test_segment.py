"""Segmentation as stories: a tray with known dice, what the segmenter finds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.segment import SegmentConfig, Segmenter, crop
from vision.synth import render_scene
from vision.tray import calibrate, full_frame_roi

# dice that stand out from their tray (white dice on white paper are a known weakness, see the report)
CASES = [(seed, bg, pal) for seed, (bg, pal) in enumerate(
    [("felt", "blue"), ("wood", "green"), ("paper", "red"), ("plastic", "yellow"), ("felt", "white"),
     ("wood", "blue"), ("paper", "green"), ("plastic", "green")])]


def scene(seed: int, n: int = 6, **kw):
    rng = np.random.default_rng(seed)
    labels = [str(i + 1) for i in rng.integers(0, 6, n)]
    return render_scene(labels, "d6", rng, **kw)


def matches(scene, blobs):
    """(truth dice found, blobs that match no die)."""
    used: set[int] = set()
    found = 0
    for die in scene.dice:
        hits = [k for k, b in enumerate(blobs) if k not in used and math.dist(b.center, die.center) < 0.45 * die.size]
        if hits:
            used.add(hits[0])
            found += 1
    return found, [b for k, b in enumerate(blobs) if k not in used]


@pytest.mark.parametrize("calibrated", [True, False], ids=["calibrated", "automatic"])
@pytest.mark.parametrize("seed,background,palette", CASES)
def test_every_die_is_found_and_none_invented(seed, background, palette, calibrated):
    sc = scene(seed, background=background, palette=palette)
    segmenter = Segmenter(calibrate([sc.empty]) if calibrated else None)
    found, extra = matches(sc, segmenter.find(sc.image))
    assert found == len(sc.dice)
    assert extra == []


def test_boxes_follow_the_die_geometry():
    sc = scene(3, background="plastic", palette="yellow")
    blobs = Segmenter(calibrate([sc.empty])).find(sc.image)
    for die in sc.dice:
        blob = min(blobs, key=lambda b: math.dist(b.center, die.center))
        assert math.dist(blob.center, die.center) < 0.2 * die.size
        assert 0.85 < blob.size / die.size < 1.3
        turn = abs((blob.angle - die.angle + 45) % 90 - 45)  # a square's rotation is known up to 90 degrees
        assert turn < 8


@pytest.mark.parametrize("seed", range(6))
def test_touching_dice_are_split(seed):
    sc = scene(seed + 20, n=4, touching=True, background=["felt", "paper", "plastic"][seed % 3], palette="red")
    blobs = Segmenter(calibrate([sc.empty])).find(sc.image)
    for die in sc.dice[:2]:  # the first two share an edge
        assert sum(math.dist(b.center, die.center) < 0.4 * die.size for b in blobs) == 1


@pytest.mark.parametrize("distractor", ["hand", "shadow", "glare"])
def test_hands_shadows_and_glare_are_not_dice(distractor):
    # counted over 40 scenes rather than pinned to a few: a change in how dice are rendered moves the count of dice
    # found by a die or two, never what a hand, a shadow or glare is taken for
    found = extra = 0
    for seed in range(40):
        sc = scene(seed + 40, n=4, distractors=[distractor], background=["felt", "paper"][seed % 2], palette="blue")
        f, x = matches(sc, Segmenter(calibrate([sc.empty])).find(sc.image))
        found, extra = found + f, extra + len(x)
    assert extra == 0
    assert found >= 155  # of 160


def test_a_die_across_the_edge_of_the_tray_is_partial():
    sc = scene(5, n=6, background="paper", palette="blue")
    h, w = sc.image.shape[:2]
    die = sc.dice[0]
    x = int(die.center[0])  # the region's right edge runs through the first die
    roi = np.array([[0, 0], [x, 0], [x, h - 1], [0, h - 1]])
    tray = calibrate([sc.empty], roi=roi)
    blobs = Segmenter(tray).find(sc.image)
    cut = min(blobs, key=lambda b: math.dist(b.center, die.center))
    assert math.dist(cut.center, die.center) < 0.45 * die.size and cut.partial
    for other in sc.dice[1:]:
        if other.center[0] < x - other.size:
            blob = min(blobs, key=lambda b: math.dist(b.center, other.center))
            assert not blob.partial
        elif other.center[0] > x + other.size:  # outside the tray: not reported at all
            assert all(math.dist(b.center, other.center) > other.size for b in blobs)


def test_a_crop_is_the_die_upright_and_centred():
    sc = scene(8, n=1, background="paper", palette="black", tilt=0.0)
    blob = Segmenter(calibrate([sc.empty])).find(sc.image)[0]
    patch = crop(sc.image, blob, (60, 60))
    dark = patch.mean(axis=2) < 100
    ys, xs = np.nonzero(dark)
    # the black die fills the middle 1/1.2 of the crop, its edges along the crop's axes
    assert abs(xs.mean() - 29.5) < 3 and abs(ys.mean() - 29.5) < 3
    assert dark[5:55, 5:55].mean() > 0.8 * (50 / 60) ** 2 / (50 / 60) ** 2 * 0.9
    assert dark[:, :3].mean() < 0.2 and dark[:3, :].mean() < 0.2


def test_an_empty_tray_has_no_dice():
    sc = scene(9, n=1, background="felt")
    assert Segmenter(calibrate([sc.empty])).find(sc.empty) == []
    assert Segmenter(None, SegmentConfig(die_px=30)).find(sc.empty) == []


def test_full_frame_region_covers_the_frame():
    assert full_frame_roi(64, 48).tolist() == [[0, 0], [63, 0], [63, 47], [0, 47]]


def test_dice_inside_a_dark_rim_are_found():
    """A tray's dark rim seen from above is one ring-shaped blob around every die; the dice inside must count."""
    sc = scene(2, background="paper", palette="red")
    image = sc.image.copy()
    h, w = image.shape[:2]
    die = max(d.size for d in sc.dice)
    xs = [d.center[0] for d in sc.dice]
    ys = [d.center[1] for d in sc.dice]
    x0, y0 = int(max(4, min(xs) - 1.5 * die)), int(max(4, min(ys) - 1.5 * die))
    x1, y1 = int(min(w - 5, max(xs) + 1.5 * die)), int(min(h - 5, max(ys) + 1.5 * die))
    t = max(3, int(0.3 * die))
    image[y0:y0 + t, x0:x1] = image[y1 - t:y1, x0:x1] = 20  # the rim, clear of the frame's edge
    image[y0:y1, x0:x0 + t] = image[y0:y1, x1 - t:x1] = 20
    found, extra = matches(sc, Segmenter().find(image))
    assert found == len(sc.dice)
    assert extra == []
