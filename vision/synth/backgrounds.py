"""Tray surfaces, procedurally textured (float32 BGR, 0..255).

Two families, kept apart on purpose:
- `BACKGROUNDS` (felt, wood, paper, tray plastic) are what training and the demo camera draw from.
- `HELD_OUT_BACKGROUNDS` (slate, check tablecloth, cork, marble) are never drawn at random: only the synthetic
  TEST stream asks for them, so a model's test figure says how it does on a surface it has never seen, as a
  table at a game night will be.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

BACKGROUNDS = ("felt", "wood", "paper", "plastic")
HELD_OUT_BACKGROUNDS = ("slate", "cloth", "cork", "marble")

_FELT = [(40, 110, 30), (110, 60, 20), (30, 30, 120), (50, 50, 50), (90, 40, 70), (60, 90, 40)]
_WOOD = [(60, 110, 170), (40, 80, 130), (90, 150, 200), (30, 60, 100)]
_PAPER = [(235, 235, 232), (215, 222, 226), (200, 200, 200), (225, 235, 240)]
_PLASTIC = [(180, 180, 180), (45, 45, 45), (150, 150, 140), (120, 90, 60), (200, 200, 205)]
_SLATE = [(70, 65, 60), (55, 55, 58), (85, 80, 72)]
_CLOTH = [((40, 40, 190), (225, 225, 225)), ((150, 80, 30), (230, 230, 230)), ((40, 120, 40), (210, 230, 230)),
          ((60, 60, 60), (200, 200, 200))]
_CORK = [(80, 130, 175), (70, 115, 160), (95, 145, 190)]
_MARBLE = [(225, 228, 230), (200, 205, 210), (60, 60, 64)]


def _smooth_noise(h: int, w: int, cells: int, rng: np.random.Generator) -> np.ndarray:
    grid = rng.standard_normal((max(2, h * cells // max(h, w)), max(2, w * cells // max(h, w)))).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _fine(h: int, w: int, sigma: float, rng: np.random.Generator) -> np.ndarray:
    return cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), sigma)


def _pick(colours: list, rng: np.random.Generator):
    return colours[int(rng.integers(len(colours)))]


def make_background(kind: str | Sequence[str] | None, height: int, width: int,
                    rng: np.random.Generator) -> np.ndarray:
    """A tray surface: `kind` names one, a sequence picks one of those at random, None picks a training kind."""
    if kind is None:
        kind = BACKGROUNDS
    if not isinstance(kind, str):
        kind = kind[int(rng.integers(len(kind)))]
    h, w = height, width
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        base = np.asarray(_pick(_FELT, rng), np.float32) * rng.uniform(0.8, 1.2)
        img = base + _fine(h, w, 0.8, rng)[..., None] * 10 + _smooth_noise(h, w, 6, rng)[..., None] * 6
    elif kind == "wood":
        base = np.asarray(_pick(_WOOD, rng), np.float32)
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        warp = _smooth_noise(h, w, 4, rng) * rng.uniform(10, 30)
        grain = np.sin((u + warp) * rng.uniform(0.08, 0.25))
        img = base * (1 + 0.12 * grain[..., None]) + _fine(h, w, 1.5, rng)[..., None] * 4
    elif kind == "paper":
        base = np.asarray(_pick(_PAPER, rng), np.float32)
        img = base + _fine(h, w, 0.7, rng)[..., None] * 4 + _smooth_noise(h, w, 3, rng)[..., None] * 3
    elif kind == "plastic":
        base = np.asarray(_pick(_PLASTIC, rng), np.float32) * rng.uniform(0.85, 1.15)
        speck = (rng.random((h, w)) < 0.002).astype(np.float32) * rng.uniform(-60, 60)
        img = base + cv2.GaussianBlur(speck, (0, 0), 0.6)[..., None] + _smooth_noise(h, w, 2, rng)[..., None] * 4
    elif kind == "slate":  # dark stone: cloudy mottling and sharp pale grains
        base = np.asarray(_pick(_SLATE, rng), np.float32) * rng.uniform(0.8, 1.2)
        grains = (rng.random((h, w)) < 0.01).astype(np.float32) * rng.uniform(20, 50)
        img = (base + _smooth_noise(h, w, 8, rng)[..., None] * 9 + _fine(h, w, 0.6, rng)[..., None] * 5
               + cv2.GaussianBlur(grains, (0, 0), 0.5)[..., None])
    elif kind == "cloth":  # a woven check tablecloth: two colours in crossing bands, a fine weave on top
        dark, light = (np.asarray(c, np.float32) for c in _pick(_CLOTH, rng))
        period = rng.uniform(10, 28)
        theta = rng.uniform(0, np.pi / 2)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        v = -xx * np.sin(theta) + yy * np.cos(theta)
        bands = ((np.floor(u / period) % 2) + (np.floor(v / period) % 2)) / 2  # 0, 0.5 or 1
        weave = np.sin(u * 2.2) * np.sin(v * 2.2) * 6
        img = light + (dark - light) * bands[..., None] + weave[..., None] + _fine(h, w, 0.7, rng)[..., None] * 3
    elif kind == "cork":  # warm brown granules of varying size
        base = np.asarray(_pick(_CORK, rng), np.float32) * rng.uniform(0.85, 1.15)
        granules = _fine(h, w, 1.2, rng) * 3 + _fine(h, w, 2.5, rng) * 4
        img = base * (1 + 0.18 * granules[..., None]) + _smooth_noise(h, w, 4, rng)[..., None] * 5
    elif kind == "marble":  # polished stone: pale or dark ground with thin wandering veins
        base = np.asarray(_pick(_MARBLE, rng), np.float32)
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        warp = _smooth_noise(h, w, 3, rng) * rng.uniform(20, 40)
        veins = np.exp(-np.abs(np.sin((u + warp) * rng.uniform(0.03, 0.08))) * 12)
        tone = -70 if base.mean() > 128 else 90
        img = base + veins[..., None] * tone * rng.uniform(0.4, 1.0) + _smooth_noise(h, w, 5, rng)[..., None] * 4
    else:
        raise ValueError(f"unknown background {kind!r}; choose one of {BACKGROUNDS + HELD_OUT_BACKGROUNDS}")
    return np.clip(img, 0, 255).astype(np.float32)
