"""The camera for Cubitos dice: classes read from the game's dice.json, every face drawn, the shipped model reads
a rendered roll through the whole pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.card import load_card
from vision.classify import Classifier
from vision.pipeline import Pipeline, default_model
from vision.settle import SettleConfig
from vision.sources import EndOfStream, SyntheticSource
from vision.synth import get_dice_set, render_die
from vision.synth.dice_sets import get_palette

DICE_JSON = Path(__file__).resolve().parents[2] / "companion" / "games" / "cubitos" / "data" / "dice.json"
STILL = dict(die_px=40, background="paper", tilt=0.0, angle=0.0, glare=False, hard=False, blur=0.0, noise=0.0,
             jpeg=0, crop="rotated", jitter=False, neighbour=False)


def camera_classes() -> list[str]:
    """'<die id>/<face label>' of every distinct face, in file order (RULES.md section 19)."""
    dice = json.loads(DICE_JSON.read_text(encoding="utf-8"))["dice"]
    return list(dict.fromkeys(f"{die['id']}/{face['label']}" for die in dice for face in die["faces"]))


def test_the_labels_are_the_faces_of_the_games_dice_file():
    assert get_dice_set("cubitos").labels == tuple(camera_classes())
    assert get_dice_set("cubitos").source == "companion/games/cubitos/data/dice.json"


def test_faces_of_one_die_with_the_same_label_are_one_class_drawn_as_either():
    from vision.synth.dice_sets import LABEL_FORMATS

    data = {"dice": [{"id": "red", "colour": "red", "shade": None, "faces": [
        {"label": "team", "team": True, "swords": 1}, {"label": "team", "team": True}, {"label": "coins", "coins": 2},
        {"label": "coins", "coins": 3, "steps": 1}, {"label": "blank"}, {"label": "blank"}]}]}
    spec = LABEL_FORMATS["cubitos_dice"](data, {"red": "cubitos_red"})
    assert spec["labels"] == ["red/team", "red/coins", "red/blank"]
    assert spec["symbols"]["red/coins"] == ["coin2", "coin3+step1"]
    assert spec["symbols"]["red/team"] == ["team"]  # the team symbol carries the red die's sword


def test_each_die_type_has_its_own_body_colour_and_light_grey_is_lighter_than_dark_grey():
    ds = get_dice_set("cubitos")
    dice = json.loads(DICE_JSON.read_text(encoding="utf-8"))["dice"]
    palettes = {die["id"]: {p for f in die["faces"] for p in ds.palettes_for(f"{die['id']}/{f['label']}")}
                for die in dice}
    assert all(len(p) == 1 for p in palettes.values())
    assert len({next(iter(p)) for p in palettes.values()}) == len(dice)
    light, dark = (np.mean(get_palette(next(iter(palettes[x]))).body) for x in ("grey_light", "grey_dark"))
    assert light - dark > 60


def test_a_die_shows_the_other_faces_of_its_own_type_on_its_sides():
    ds = get_dice_set("cubitos")
    assert ds.faces_of("grey_dark/step1") == ("grey_dark/coin1", "grey_dark/step1") + ("grey_dark/blank",) * 4


def test_every_face_is_drawn_and_differs_from_its_dies_blank_face():
    ds = get_dice_set("cubitos")
    for label in ds.labels:
        die = label.split("/")[0]
        crop, blank = (render_die(x, "cubitos", np.random.default_rng(7), size=48, **STILL).astype(float)
                       for x in (label, f"{die}/blank"))
        if label.endswith("/blank"):
            continue
        diff = np.abs(crop - blank).mean(axis=2)
        assert (diff > 50).mean() > 0.04, f"{label} hardly differs from a blank face of its die"


def test_team_and_special_faces_look_different():
    crops = [render_die(f"red/{x}", "cubitos", np.random.default_rng(3), size=48, **STILL).astype(float)
             for x in ("team", "special")]
    assert (np.abs(crops[0] - crops[1]).mean(axis=2) > 60).mean() > 0.03


def test_confusable_pairs_name_dice_and_faces_that_exist():
    ds = get_dice_set("cubitos")
    assert ds.confusable
    for a, b in ds.confusable:
        assert ds.labels_of(a) and ds.labels_of(b), (a, b)


def test_the_shipped_model_has_the_sets_labels_and_its_figures():
    # a dice.json with other faces (the real dice transcribed, CU-5) fails here until the model is trained again
    card = load_card(default_model("cubitos"))
    assert list(card.labels) == camera_classes()
    assert card.dice_set == "cubitos"
    test = card.accuracy["synthetic_test"]
    # a regression floor under the measured 98.1 % by the crop alone, through a real camera's look (white and light
    # grey are the frame's to tell apart, see models/README.md)
    assert test["accuracy"] >= 0.975 and len(test["pairs"]) == len(get_dice_set("cubitos").confusable)


def test_a_rolled_tray_is_read_right_end_to_end_with_the_shipped_model():
    roll = ["grey_light/coin1", "grey_light/blank", "grey_dark/step1", "lead/coin2", "red/team", "white/special",
            "yellow/blank", "brown/team"]
    # found by the classical segmenter: the shipped dice detector was taught that squares without pips are clutter
    # and misses blank faces (models/README.md, Cubitos)
    source = SyntheticSource(dice="cubitos", seed=1, rolls=1, rolling_frames=4, still_frames=12, background="felt")
    source.roll(roll)
    pipeline = Pipeline(source, Classifier.load(default_model("cubitos")), detector=None,
                        settle=SettleConfig(still_seconds=0.2, vote_frames=4))
    readings = []
    with source:
        while True:
            try:
                reading = pipeline.process(source.read())
            except EndOfStream:
                break
            if reading is not None:
                readings.append(reading)
    assert len(readings) == 1
    assert sorted(readings[0].labels) == sorted(roll)


def test_a_roll_naming_a_face_the_dice_do_not_have_is_refused():
    with pytest.raises(ValueError, match="grey_light/step1"):
        SyntheticSource(dice="cubitos").roll(["grey_light/step1"])
