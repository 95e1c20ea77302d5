"""Synthetic dice: single-die training crops (`render_die`) and whole tray scenes (`render_scene`).

>>> import numpy as np
>>> from vision.synth import render_die, render_scene
>>> crop = render_die("steer", "chariot_race", np.random.default_rng(1), size=32)
>>> crop.shape, crop.dtype
((32, 32, 3), dtype('uint8'))
>>> scene = render_scene(["1", "6", "3"], "d6", np.random.default_rng(2), touching=True)
>>> [d.label for d in scene.dice]
['1', '6', '3']

Dice sets (labels, faces, colours) are data: see `dice_sets.json` and `register_dice_set`.
"""

from .dice_sets import (
    DiceSet,
    UnknownDiceSet,
    dice_set_names,
    get_dice_set,
    palette_names,
    register_dice_set,
    register_palette,
)
from .die_crop import CROP_MODES, render_die
from .scene import DISTRACTORS, EMPTY_TABLE, TABLE_KINDS, Scene, SceneDie, SceneDistractor, render_scene, render_table

__all__ = [
    "CROP_MODES",
    "DISTRACTORS",
    "DiceSet",
    "Scene",
    "SceneDie",
    "SceneDistractor",
    "TABLE_KINDS",
    "EMPTY_TABLE",
    "UnknownDiceSet",
    "dice_set_names",
    "get_dice_set",
    "palette_names",
    "register_dice_set",
    "register_palette",
    "render_die",
    "render_scene",
    "render_table",
]
