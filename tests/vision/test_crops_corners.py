"""A die cut again from its reading's box is the crop the classifier saw (teaching keeps these crops)."""

from __future__ import annotations

import numpy as np

from vision.crops import corners_crop, rotated_crop
from vision.synth import render_scene


def test_a_crop_from_the_box_corners_is_the_crop_convention_up_to_a_quarter_turn():
    scene = render_scene(["1", "2", "3", "5"], "d6", np.random.default_rng(11))
    for die in scene.dice:
        expected = rotated_crop(scene.image, die.center, die.size, die.angle, 32).astype(int)
        got = corners_crop(scene.image, die.box, 32).astype(int)
        assert min(np.abs(np.rot90(got, k) - expected).mean() for k in range(4)) < 1.0


def test_the_corners_may_come_in_any_order_around_the_box():
    scene = render_scene(["6"], "d6", np.random.default_rng(12))
    die = scene.dice[0]
    box = np.asarray(die.box)
    a = corners_crop(scene.image, box, 32).astype(int)
    b = corners_crop(scene.image, np.roll(box, 1, axis=0), 32).astype(int)
    c = corners_crop(scene.image, box[::-1], 32).astype(int)
    for other in (b, c):
        assert min(np.abs(np.rot90(other, k) - a).mean() for k in range(4)) < 1.0
