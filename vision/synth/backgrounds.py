"""Tray surfaces: felt, wood, paper and tray plastic, procedurally textured (float32 BGR, 0..255)."""

from __future__ import annotations

import cv2
import numpy as np

BACKGROUNDS = ("felt", "wood", "paper", "plastic")

_FELT = [(40, 110, 30), (110, 60, 20), (30, 30, 120), (50, 50, 50), (90, 40, 70), (60, 90, 40)]
_WOOD = [(60, 110, 170), (40, 80, 130), (90, 150, 200), (30, 60, 100)]
_PAPER = [(235, 235, 232), (215, 222, 226), (200, 200, 200), (225, 235, 240)]
_PLASTIC = [(180, 180, 180), (45, 45, 45), (150, 150, 140), (120, 90, 60), (200, 200, 205)]


def _smooth_noise(h: int, w: int, cells: int, rng: np.random.Generator) -> np.ndarray:
    grid = rng.standard_normal((max(2, h * cells // max(h, w)), max(2, w * cells // max(h, w)))).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def make_background(kind: str | None, height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """A tray surface of the given kind (random kind when None)."""
    if kind is None:
        kind = BACKGROUNDS[rng.integers(len(BACKGROUNDS))]
    h, w = height, width
    if kind == "felt":
        base = np.asarray(_FELT[rng.integers(len(_FELT))], np.float32) * rng.uniform(0.8, 1.2)
        fibre = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8) * 10
        img = base + fibre[..., None] + _smooth_noise(h, w, 6, rng)[..., None] * 6
    elif kind == "wood":
        base = np.asarray(_WOOD[rng.integers(len(_WOOD))], np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        warp = _smooth_noise(h, w, 4, rng) * rng.uniform(10, 30)
        grain = np.sin((u + warp) * rng.uniform(0.08, 0.25))
        fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.5) * 4
        img = base * (1 + 0.12 * grain[..., None]) + fine[..., None]
    elif kind == "paper":
        base = np.asarray(_PAPER[rng.integers(len(_PAPER))], np.float32)
        fibre = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.7) * 4
        img = base + fibre[..., None] + _smooth_noise(h, w, 3, rng)[..., None] * 3
    elif kind == "plastic":
        base = np.asarray(_PLASTIC[rng.integers(len(_PLASTIC))], np.float32) * rng.uniform(0.85, 1.15)
        speck = (rng.random((h, w)) < 0.002).astype(np.float32) * rng.uniform(-60, 60)
        img = base + cv2.GaussianBlur(speck, (0, 0), 0.6)[..., None] + _smooth_noise(h, w, 2, rng)[..., None] * 4
    else:
        raise ValueError(f"unknown background {kind!r}; choose one of {BACKGROUNDS}")
    return np.clip(img, 0, 255).astype(np.float32)
