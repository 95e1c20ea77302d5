"""Tray surfaces, procedurally textured (float32 BGR, 0..255).

Three families, kept apart on purpose:
- `BACKGROUNDS` (felt, wood, paper, tray plastic) are what the demo camera draws from; training draws from
  `TRAINING_BACKGROUNDS`, which adds "printed": random stripes, grids, dots and blotches in random colours, so
  a model learns that whatever lies around a die is not part of its face (a table's cloth, mat or board is
  never one we rendered); and repeating patterns a die-sized square can hide in -- "plaid" (ginghams and
  tartans of random colours, band widths and scales), "knit" (rows of stitches, fuzzy felt) and "parquet"
  (bricks, planks and mosaics of random shades) -- so a detector learns that a pattern repeating across the
  tray is the tray, not a crowd of dice; and "speckle" (granite, laminate and crumbs: flecks and fibres of a few
  random colours on any ground), so that dots which are no pips are the tray too.
- `VALIDATION_BACKGROUNDS` (denim, terrazzo, linoleum, tiles) are only drawn by the synthetic VALIDATION stream,
  so early stopping and recipe choices reward a model that copes with a surface it was not trained on -- on the
  training surfaces a good model is at 100% and validation cannot tell two models apart.
- `HELD_OUT_BACKGROUNDS` (slate, check tablecloth, cork, marble) are only drawn by the synthetic TEST stream, so a
  model's test figure says how it does on a surface it has never seen, as a table at a game night will be, and
  nothing was chosen by looking at them.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

BACKGROUNDS = ("felt", "wood", "paper", "plastic")
TRAINING_BACKGROUNDS = BACKGROUNDS + ("printed", "plaid", "knit", "parquet", "speckle")
VALIDATION_BACKGROUNDS = ("denim", "terrazzo", "linoleum", "tiles")
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
_DENIM = [(120, 75, 40), (150, 105, 70), (90, 60, 45), (170, 140, 115)]
_TERRAZZO = [(210, 215, 220), (180, 190, 200), (95, 95, 100)]
_CHIPS = [(40, 40, 40), (70, 90, 160), (150, 150, 150), (60, 110, 60), (230, 230, 230), (50, 60, 120)]
_LINO = [(110, 140, 120), (150, 180, 200), (60, 70, 140), (130, 130, 125)]
_TILES = [((235, 235, 235), (150, 150, 150)), ((90, 140, 190), (60, 60, 60)), ((160, 110, 60), (220, 220, 220)),
          ((70, 70, 75), (200, 200, 200))]


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
    elif kind == "denim":  # blue twill: fine diagonal ribs, faded patches
        base = np.asarray(_pick(_DENIM, rng), np.float32) * rng.uniform(0.85, 1.15)
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        ribs = np.sin(u * rng.uniform(1.2, 2.0)) * 9
        fade = 1 + 0.12 * _smooth_noise(h, w, 4, rng)
        img = (base * fade[..., None] + ribs[..., None] + _fine(h, w, 0.6, rng)[..., None] * 6)
    elif kind == "terrazzo":  # cast stone: a pale or dark ground scattered with angular chips of other stones
        img = np.broadcast_to(np.asarray(_pick(_TERRAZZO, rng), np.float32), (h, w, 3)).copy()
        img += _fine(h, w, 0.8, rng)[..., None] * 4
        for _ in range(int(h * w * rng.uniform(0.002, 0.006))):
            centre = rng.uniform(0, 1, 2) * (w, h)
            radius = rng.uniform(1.0, 5.0)
            angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(3, 7))))
            points = centre + np.stack([np.cos(angles), np.sin(angles)], 1) * radius * rng.uniform(0.6, 1.0)
            colour = np.asarray(_pick(_CHIPS, rng), np.float32) * rng.uniform(0.85, 1.15)
            cv2.fillPoly(img, [np.round(points * 4).astype(np.int32)], colour.tolist(), cv2.LINE_AA, shift=2)
    elif kind == "linoleum":  # smooth floor sheet: soft marbled blotches of two shades
        base = np.asarray(_pick(_LINO, rng), np.float32)
        blotch = np.tanh(_smooth_noise(h, w, 7, rng) * 2)
        img = base * (1 + 0.1 * blotch[..., None]) + _smooth_noise(h, w, 20, rng)[..., None] * 3
    elif kind == "tiles":  # glazed square tiles, each a shade apart, in a grid of grout lines
        face, grout = (np.asarray(c, np.float32) for c in _pick(_TILES, rng))
        period, width = rng.uniform(12, 32), rng.uniform(1.0, 2.5)
        theta = rng.uniform(0, np.pi / 2)
        u = (xx * np.cos(theta) + yy * np.sin(theta)) / period + rng.random()
        v = (-xx * np.sin(theta) + yy * np.cos(theta)) / period + rng.random()
        shade = rng.uniform(0.92, 1.08, (64, 64)).astype(np.float32)[np.floor(u).astype(int) % 64,
                                                                       np.floor(v).astype(int) % 64]
        edge = np.minimum(np.minimum(u % 1, 1 - u % 1), np.minimum(v % 1, 1 - v % 1)) * period
        line = np.clip(width - edge, 0, 1)[..., None]
        img = face * shade[..., None] * (1 - line) + grout * line + _fine(h, w, 0.7, rng)[..., None] * 3
    elif kind == "printed":  # training only: a random print, so no particular surface is learnt as "not a face"
        a, b = (rng.uniform(0, 255, 3).astype(np.float32) for _ in range(2))
        style = int(rng.integers(4))
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        v = -xx * np.sin(theta) + yy * np.cos(theta)
        period = rng.uniform(4, 30)
        if style == 0:  # stripes
            mix = (np.sin(u * 2 * np.pi / period) > rng.uniform(-0.6, 0.6)).astype(np.float32)
        elif style == 1:  # grid lines
            mix = ((u % period < period * 0.15) | (v % period < period * 0.15)).astype(np.float32)
        elif style == 2:  # dots
            mix = np.zeros((h, w), np.float32)
            for _ in range(int(h * w / period ** 2)):
                cv2.circle(mix, (int(rng.integers(w)), int(rng.integers(h))), int(rng.integers(1, 5)), 1.0, -1)
        else:  # blotches
            mix = (_smooth_noise(h, w, int(rng.integers(3, 12)), rng) > 0).astype(np.float32)
        mix = cv2.GaussianBlur(mix, (0, 0), rng.uniform(0.4, 1.2))
        img = a + (b - a) * mix[..., None] + _fine(h, w, 0.7, rng)[..., None] * rng.uniform(2, 8)
    elif kind == "plaid":  # training only: ginghams and tartans, any colours, band widths and scales
        colours = [rng.uniform(0, 255, 3).astype(np.float32) for _ in range(3)]
        if rng.random() < 0.5:  # most cloths weave a colour with white or cream
            colours[1] = rng.uniform(190, 255, 3).astype(np.float32)
        theta = rng.uniform(0, np.pi / 2)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        v = -xx * np.sin(theta) + yy * np.cos(theta)
        period = rng.uniform(5, 60)
        duty = rng.uniform(0.2, 0.8)
        cross = ((u / period + rng.random()) % 1 < duty).astype(np.float32)
        down = ((v / (period * rng.uniform(0.7, 1.4)) + rng.random()) % 1 < duty).astype(np.float32)
        mix = (cross + down) / 2  # 0, 0.5 or 1: the two bands cross into a third shade
        img = colours[0] + (colours[1] - colours[0]) * mix[..., None]
        if rng.random() < 0.5:  # a tartan's thin over-stripe in a third colour
            thin = ((u / period + 0.5) % 1 < 0.08) | ((v / period + 0.5) % 1 < 0.08)
            img = np.where(thin[..., None], colours[2], img)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
        weave = np.sin(u * rng.uniform(1.5, 3.0)) * np.sin(v * rng.uniform(1.5, 3.0)) * rng.uniform(0, 8)
        img = img + weave[..., None] + _fine(h, w, 0.7, rng)[..., None] * rng.uniform(1, 5)
    elif kind == "knit":  # training only: rows of V-shaped stitches, or fuzzy felt, in one or two colours
        a, b = (rng.uniform(0, 255, 3).astype(np.float32) for _ in range(2))
        b = a + (b - a) * rng.uniform(0.1, 0.5)
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        v = -xx * np.sin(theta) + yy * np.cos(theta)
        period = rng.uniform(3, 12)
        if rng.random() < 0.6:  # stitches: a chevron per column, a row per period
            col = (u / period) % 1
            stitch = np.abs(np.sin(np.pi * ((v / period) + np.abs(col - 0.5))))
            mix = stitch * (0.6 + 0.4 * np.abs(np.sin(np.pi * u / period)))
        else:  # felt: fibre noise at two scales
            mix = np.tanh(_fine(h, w, rng.uniform(0.6, 1.5), rng) * 3 + _smooth_noise(h, w, 12, rng)) * 0.5 + 0.5
        if rng.random() < 0.4:  # bands of the two colours, as a striped jumper
            mix = np.where((u / (period * rng.integers(3, 9))) % 2 < 1, mix, 1 - mix)
        img = a + (b - a) * mix[..., None] + _fine(h, w, 0.6, rng)[..., None] * rng.uniform(2, 6)
    elif kind == "parquet":  # training only: bricks, planks or a mosaic, each piece its own shade
        base = rng.uniform(0, 255, 3).astype(np.float32)
        joint = rng.uniform(0, 255, 3).astype(np.float32)
        theta = rng.uniform(0, np.pi / 2)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        v = -xx * np.sin(theta) + yy * np.cos(theta)
        pv = rng.uniform(4, 40)
        pu = pv * (rng.uniform(1.5, 5.0) if rng.random() < 0.7 else 1.0)  # bricks or planks, else a mosaic
        row = np.floor(v / pv)
        uu = u / pu + row * (rng.choice([0.5, 0.33, 0.0]) if rng.random() < 0.8 else rng.random())
        col = np.floor(uu)
        spread = rng.uniform(0.05, 0.35)
        shade = rng.uniform(1 - spread, 1 + spread, (97, 97, 3)).astype(np.float32)
        img = base * shade[row.astype(int) % 97, col.astype(int) % 97]
        edge = np.minimum(np.minimum(uu % 1, 1 - uu % 1) * pu, np.minimum(v / pv % 1, 1 - v / pv % 1) * pv)
        line = np.clip(rng.uniform(0.0, 2.0) - edge, 0, 1)[..., None]
        img = img * (1 - line) + joint * line
        if rng.random() < 0.5:  # a wood or stone grain along each piece
            img = img * (1 + 0.08 * np.sin((u + _smooth_noise(h, w, 4, rng) * 15) * rng.uniform(0.1, 0.5)))[..., None]
        img = img + _fine(h, w, 0.7, rng)[..., None] * rng.uniform(1, 5)
    elif kind == "speckle":  # training only: granite, laminate, crumbs: flecks and fibres of a few colours
        ground = rng.uniform(0, 255, 3).astype(np.float32)
        img = ground + _smooth_noise(h, w, int(rng.integers(2, 10)), rng)[..., None] * rng.uniform(2, 12)
        for _ in range(int(rng.integers(1, 4))):  # each layer: one colour, one grain size, one density
            colour = rng.uniform(0, 255, 3).astype(np.float32)
            grain = rng.uniform(0.5, 3.5)
            field = _fine(h, w, grain, rng)
            field /= field.std() + 1e-6
            mask = np.clip((field - rng.uniform(1.2, 2.6)) * rng.uniform(1.5, 4.0), 0, 1)
            img = img * (1 - mask[..., None]) + colour * mask[..., None]
        if rng.random() < 0.3:  # fibres: short straight strokes in any direction
            for _ in range(int(h * w * rng.uniform(0.0005, 0.003))):
                a = rng.uniform(0, 1, 2) * (w, h)
                b = a + rng.uniform(-8, 8, 2)
                cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b),
                         rng.uniform(0, 255, 3).tolist(), 1, cv2.LINE_AA)
        img = img + _fine(h, w, 0.6, rng)[..., None] * rng.uniform(1, 5)
    else:
        known = TRAINING_BACKGROUNDS + VALIDATION_BACKGROUNDS + HELD_OUT_BACKGROUNDS
        raise ValueError(f"unknown background {kind!r}; choose one of {known}")
    return np.clip(img, 0, 255).astype(np.float32)
