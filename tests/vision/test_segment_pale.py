"""Hard dice for the automatic segmenter: white dice on white paper, and dice of other colours lying edge to edge.

Each case is a synthetic scene that the segmenter of before (pips only for a white die on paper; touching dice
split by place alone) got wrong.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.segment import Segmenter
from vision.synth import render_scene
from vision.tray import calibrate


def found_and_extra(scene, blobs) -> tuple[int, int]:
    """(dice of the scene with a box centred on them, boxes on no die)."""
    used: set[int] = set()
    for die in scene.dice:
        hits = [k for k, b in enumerate(blobs) if k not in used and math.dist(b.center, die.center) < 0.45 * die.size]
        if hits:
            used.add(hits[0])
    return len(used), len(blobs) - len(used)


@pytest.mark.parametrize("calibrated", [False, True], ids=["automatic", "calibrated"])
@pytest.mark.parametrize("seed", [2, 4, 5, 11, 20, 32])
def test_white_dice_on_white_paper_are_found_whole(seed, calibrated):
    """Only the pips of a white die differ clearly from white paper; its face and edges differ by a few levels."""
    rng = np.random.default_rng(seed)
    sc = render_scene([str(i + 1) for i in rng.integers(0, 6, 5)], "d6", rng, background="paper", palette="white")
    segmenter = Segmenter(calibrate([sc.empty]) if calibrated else None)
    assert found_and_extra(sc, segmenter.find(sc.image)) == (len(sc.dice), 0)


@pytest.mark.parametrize("seed", [13, 18, 29, 31, 33, 35])
def test_touching_dice_of_any_colours_are_each_found(seed):
    rng = np.random.default_rng(seed)
    sc = render_scene([str(i + 1) for i in rng.integers(0, 6, 6)], "d6", rng, touching=True,
                      background=["felt", "wood", "paper", "plastic"][seed % 4])
    assert found_and_extra(sc, Segmenter().find(sc.image)) == (len(sc.dice), 0)


def test_a_die_whose_shadow_spoils_its_square_is_found():
    """A soft shadow joined to a die makes the blob no square; opened by a disc of half a die, the die is one again."""
    rng = np.random.default_rng(5060)
    sc = render_scene([str(i + 1) for i in rng.integers(0, 6, 5)], "d6", rng, background="felt")
    assert found_and_extra(sc, Segmenter().find(sc.image)) == (len(sc.dice), 0)
