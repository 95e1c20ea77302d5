"""The camera for Automobiles cubes: colours read from the game's cubes.json, every cube drawn in its own colour,
the shipped model reads a rendered draw through the whole pipeline."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np

from vision.card import load_card
from vision.classify import Classifier
from vision.pipeline import Pipeline, default_model
from vision.settle import SettleConfig
from vision.sources import EndOfStream, SyntheticSource
from vision.synth import get_dice_set, render_die

CUBES_JSON = Path(__file__).resolve().parents[2] / "companion" / "games" / "automobiles" / "data" / "cubes.json"
STILL = dict(die_px=40, background="paper", tilt=0.0, angle=0.0, glare=False, hard=False, blur=0.0, noise=0.0,
             jpeg=0, crop="rotated", jitter=False, neighbour=False)


def cubes() -> dict:
    return json.loads(CUBES_JSON.read_text(encoding="utf-8"))


def test_the_labels_are_the_cube_colours_of_the_games_file():
    assert get_dice_set("automobiles").labels == tuple(c["id"] for c in cubes()["cubes"])


def test_the_confusable_pairs_are_the_games_own():
    pairs = get_dice_set("automobiles").confusable
    assert [list(p) for p in pairs] == cubes()["camera"]["confusable_pairs"]


def test_every_cube_is_plain_and_each_colour_differs_from_every_other():
    ds = get_dice_set("automobiles")
    assert all(ds.symbols[x] == ("blank",) for x in ds.labels)
    middle = {x: render_die(x, "automobiles", np.random.default_rng(5), size=48, **STILL)[18:30, 18:30]
              .reshape(-1, 3).astype(float) for x in ds.labels}
    for x in ds.labels:
        assert middle[x].std(axis=0).max() < 12, f"{x}: the top of a cube carries no picture"
    for a, b in itertools.combinations(ds.labels, 2):
        gap = np.abs(middle[a].mean(0) - middle[b].mean(0)).max()
        assert gap > 25, f"{a} and {b} are drawn nearly alike ({gap:.0f})"


def test_the_shipped_model_has_the_sets_labels_and_its_figures():
    # a cubes.json with other cubes fails here until the model is trained again
    card = load_card(default_model("automobiles"))
    assert list(card.labels) == [c["id"] for c in cubes()["cubes"]]
    assert card.dice_set == "automobiles"
    test = card.accuracy["synthetic_test"]
    # a regression floor under the measured 94.4 % by the crop alone, through a real camera's look (the greys are
    # the frame's to tell apart, see models/README.md)
    assert test["accuracy"] >= 0.94 and len(test["pairs"]) == len(cubes()["camera"]["confusable_pairs"])


def test_drawn_cubes_are_read_right_end_to_end_with_the_shipped_model():
    # found by the classical segmenter: the shipped dice detector was taught that squares without pips are clutter
    # and finds almost no plain cubes (models/README.md, Automobiles)
    draw = ["white", "light_grey", "dark_grey", "black", "yellow", "yellow", "red", "brown", "blue"]
    source = SyntheticSource(dice="automobiles", seed=0, rolls=1, rolling_frames=4, still_frames=12,
                             background="wood")
    source.roll(draw)
    pipeline = Pipeline(source, Classifier.load(default_model("automobiles")), detector=None,
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
    assert sorted(readings[0].labels) == sorted(draw)
