"""Hard dice for the automatic segmenter: white dice on white paper, and dice of other colours lying edge to edge.

The segmenter of before (pips only for a white die on paper; touching dice split by place alone) got these wrong.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.segment import Segmenter
from vision.synth import render_scene
from vision.synth.effects import sample_lighting
from vision.tray import calibrate


def found_and_extra(scene, blobs) -> tuple[int, int]:
    """(dice of the scene with a box centred on them, boxes on no die)."""
    used: set[int] = set()
    for die in scene.dice:
        hits = [k for k, b in enumerate(blobs) if k not in used and math.dist(b.center, die.center) < 0.45 * die.size]
        if hits:
            used.add(hits[0])
    return len(used), len(blobs) - len(used)


SCENES = range(40)
"""Counted over many scenes rather than pinned to a few that pass: a change in how dice are rendered then moves the
count, not the verdict. The segmenter before the pale-dice vote and the split by place and colour (8ea7d17) found
133 of the 200 white dice below (127 calibrated) and 223 of the 240 touching ones."""


def found_in_scenes(make, segmenter) -> tuple[int, int, int]:
    """(dice found, dice, boxes on no die) over `SCENES`."""
    found = dice = extra = 0
    for seed in SCENES:
        sc = make(np.random.default_rng(seed), seed)
        f, x = found_and_extra(sc, segmenter(sc).find(sc.image))
        found, dice, extra = found + f, dice + len(sc.dice), extra + x
    return found, dice, extra


@pytest.mark.parametrize("calibrated", [False, True], ids=["automatic", "calibrated"])
def test_most_white_dice_on_white_paper_are_found_whole(calibrated):
    """Only the pips of a white die differ clearly from white paper; its face and edges differ by a few levels."""
    found, dice, extra = found_in_scenes(
        lambda rng, seed: render_scene([str(i + 1) for i in rng.integers(0, 6, 5)], "d6", rng, background="paper",
                                       palette="white"),
        lambda sc: Segmenter(calibrate([sc.empty]) if calibrated else None))
    assert dice == 200 and found >= 145 and extra <= 4


def test_touching_dice_of_any_colours_are_found_apart_nearly_always():
    found, dice, extra = found_in_scenes(
        lambda rng, seed: render_scene([str(i + 1) for i in rng.integers(0, 6, 6)], "d6", rng, touching=True,
                                       background=["felt", "wood", "paper", "plastic"][seed % 4]),
        lambda sc: Segmenter())
    assert dice == 240 and found >= 227 and extra == 0


def test_dice_whose_soft_shadows_spoil_their_squares_are_found():
    """A soft shadow too deep to pass for shadow joins its die and makes the blob no square; opened by a disc of half
    a die, the die is one again. Without the opening (`open_dice` 0) 115 of these 200 dice are found."""

    def deep_shadows(rng):
        return sample_lighting(rng, hard=False, shadow_length=1.2, shadow_opacity=0.6)

    found, dice, extra = found_in_scenes(
        lambda rng, seed: render_scene([str(i + 1) for i in rng.integers(0, 6, 5)], "d6", rng, background="felt",
                                       lighting=deep_shadows(rng)),
        lambda sc: Segmenter())
    assert dice == 200 and found >= 150 and extra <= 6
