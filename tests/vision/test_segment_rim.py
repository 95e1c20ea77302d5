"""Dice pressed against a tray's rim: the rim is a long band, the dice touching it must still be found."""

from __future__ import annotations

import math

import numpy as np

from vision.segment import Segmenter
from vision.synth import render_scene


def test_a_die_touching_a_dark_rim_is_found():
    rng = np.random.default_rng(2)
    sc = render_scene([str(i + 1) for i in rng.integers(0, 6, 6)], "d6", rng, background="paper", palette="red")
    image = sc.image.copy()
    h, w = image.shape[:2]
    die = sc.dice[0]
    t = max(4, int(0.5 * die.size))
    # a dark rim, thinner than a die and much longer, whose inner edge runs along the first die's side
    x = int(die.center[0] + 0.5 * die.size)
    image[8:h - 8, x:x + t] = 20
    image[8:8 + t, 8:w - 8] = image[h - 8 - t:h - 8, 8:w - 8] = 20
    image[8:h - 8, 8:8 + t] = 20
    blobs = Segmenter().find(image)
    inside = [d for d in sc.dice if d.center[0] < x and min(d.center[1], h - d.center[1]) > 8 + t + d.size]
    assert die in inside
    for d in inside:
        assert sum(math.dist(b.center, d.center) < 0.45 * d.size for b in blobs) == 1, d.center
    assert all(b.center[0] < x for b in blobs)  # nothing made of the rim
