"""Face textures: one die face (body, rounded corners, bevel, ink symbol) as a premultiplied BGRA float image.

Symbols are drawn with OpenCV at a high resolution and warped onto the die later, so thin strokes survive the
shrink to the 25-45 px a real die covers. The Chariot Race icons are our own (the printed ones are not
available): each meaning gets a shape that stays distinct at low resolution and under 90-degree rotation:
drive = spoked wheel, gallop = double chevron, steer = curved arrow, attack = spear, fortune = five-pointed star.
The Cubitos pictures are our own too (`GLYPHS`): coin = disc with an inner ring, step = footprint, credit = hexagon
token with a hole, sword = upright blade, team = shield, special = the shield inside a ring (the pair RULES.md
section 19 names as confusable). A face's symbol counts and joins them: "coin2" is two coins, "team+coin1" a shield
and a coin, each set smaller on the face.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

SHIFT = 4  # sub-pixel bits for cv2 drawing
ONE = 1 << SHIFT


@dataclass(frozen=True)
class FaceLook:
    """How one die's faces look: shared by all faces of that die."""

    body: tuple[float, float, float]
    ink: tuple[float, float, float]
    marble: tuple[float, float, float] | None
    opacity: float
    corner: float  # corner radius as a fraction of the side
    bevel: float  # how much the rounded edge darkens (0..1)
    pip_radius: float  # fraction of the side
    pip_spread: float  # pip centre offset from the middle, fraction of the side
    stroke: float  # icon stroke scale
    icon_scale: float


def _pt(x: float, y: float) -> tuple[int, int]:
    return (int(round(x * ONE)), int(round(y * ONE)))


PIP_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def _draw_pips(n: int, ink_mask: np.ndarray, look: FaceLook, rng: np.random.Generator) -> None:
    s = ink_mask.shape[0]
    c = s / 2
    spread = look.pip_spread * s
    r = look.pip_radius * s * (1.35 if n == 1 and rng.random() < 0.4 else 1.0)
    for dx, dy in PIP_LAYOUTS[n]:
        cv2.circle(ink_mask, _pt(c + dx * spread, c + dy * spread), int(r * ONE), 1.0, -1, cv2.LINE_AA, SHIFT)


def _thick(look: FaceLook, s: int, k: float) -> int:
    return max(1, int(round(k * s * look.stroke)))


def _wheel(mask: np.ndarray, look: FaceLook, rng: np.random.Generator) -> None:
    s = mask.shape[0]
    c, r = s / 2, 0.3 * s * look.icon_scale
    cv2.circle(mask, _pt(c, c), int(r * ONE), 1.0, _thick(look, s, 0.075), cv2.LINE_AA, SHIFT)
    cv2.circle(mask, _pt(c, c), int(0.075 * s * ONE), 1.0, -1, cv2.LINE_AA, SHIFT)
    start = rng.uniform(0, np.pi / 3)
    for k in range(6):
        a = start + k * np.pi / 3
        cv2.line(mask, _pt(c, c), _pt(c + r * np.cos(a), c + r * np.sin(a)), 1.0, _thick(look, s, 0.045),
                 cv2.LINE_AA, SHIFT)


def _chevrons(mask: np.ndarray, look: FaceLook, rng: np.random.Generator) -> None:
    s = mask.shape[0]
    c, w, h, t = s / 2, 0.3 * s * look.icon_scale, 0.16 * s * look.icon_scale, 0.1 * s * look.stroke
    for oy in (-0.12 * s * look.icon_scale, 0.12 * s * look.icon_scale):
        y = c + oy + 0.04 * s
        pts = [(c - w, y + h / 2), (c, y - h / 2), (c + w, y + h / 2), (c + w, y + h / 2 + t),
               (c, y - h / 2 + t), (c - w, y + h / 2 + t)]
        cv2.fillPoly(mask, [np.array([_pt(x, yy) for x, yy in pts], np.int32)], 1.0, cv2.LINE_AA, SHIFT)


def _curved_arrow(mask: np.ndarray, look: FaceLook, rng: np.random.Generator) -> None:
    s = mask.shape[0]
    c, r = s / 2, 0.24 * s * look.icon_scale
    t = _thick(look, s, 0.085)
    cy = c + 0.08 * s
    cv2.ellipse(mask, _pt(c, cy), (int(r * ONE), int(r * ONE)), 0, 180, 360, 1.0, t, cv2.LINE_AA, SHIFT)
    # arrowhead at the right end of the arc, pointing down
    x, y, a = c + r, cy, 0.13 * s * look.icon_scale
    head = [(x - a, y - 0.02 * s), (x + a, y - 0.02 * s), (x, y + a * 1.2)]
    cv2.fillPoly(mask, [np.array([_pt(px, py) for px, py in head], np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    # short tail on the left end
    cv2.line(mask, _pt(c - r, cy), _pt(c - r, cy + 0.1 * s), 1.0, t, cv2.LINE_AA, SHIFT)


def _spear(mask: np.ndarray, look: FaceLook, rng: np.random.Generator) -> None:
    s = mask.shape[0]
    k = look.icon_scale
    x0, y0 = s * (0.5 - 0.3 * k), s * (0.5 + 0.3 * k)
    x1, y1 = s * (0.5 + 0.2 * k), s * (0.5 - 0.2 * k)
    cv2.line(mask, _pt(x0, y0), _pt(x1, y1), 1.0, _thick(look, s, 0.06), cv2.LINE_AA, SHIFT)
    d = np.array([1.0, -1.0]) / np.sqrt(2)
    n = np.array([1.0, 1.0]) / np.sqrt(2)
    tip = np.array([x1, y1]) + d * 0.2 * s * k
    base = np.array([x1, y1]) - d * 0.02 * s
    w = 0.09 * s * k
    head = [base + n * w, tip, base - n * w]
    cv2.fillPoly(mask, [np.array([_pt(*p) for p in head], np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    guard = np.array([x0, y0]) + d * 0.12 * s * k
    cv2.line(mask, _pt(*(guard + n * 0.07 * s)), _pt(*(guard - n * 0.07 * s)), 1.0, _thick(look, s, 0.05),
             cv2.LINE_AA, SHIFT)


def _star(mask: np.ndarray, look: FaceLook, rng: np.random.Generator) -> None:
    """Fortune: a bold five-pointed star (a laurel wreath blurs into a smiley at 30 px)."""
    s = mask.shape[0]
    c, r_out = s / 2, 0.31 * s * look.icon_scale
    r_in = r_out * (0.45 + 0.06 * (look.stroke - 1))
    pts = []
    for k in range(10):
        a = -np.pi / 2 + k * np.pi / 5
        r = r_out if k % 2 == 0 else r_in
        pts.append(_pt(c + r * np.cos(a), c + 0.03 * s + r * np.sin(a)))
    cv2.fillPoly(mask, [np.array(pts, np.int32)], 1.0, cv2.LINE_AA, SHIFT)


def _coin(mask: np.ndarray, cx: float, cy: float, r: float, look: FaceLook) -> None:
    cv2.circle(mask, _pt(cx, cy), int(0.8 * r * ONE), 1.0, -1, cv2.LINE_AA, SHIFT)
    cv2.circle(mask, _pt(cx, cy), int(0.5 * r * ONE), 0.0, max(1, int(0.14 * r * look.stroke)), cv2.LINE_AA, SHIFT)


def _step(mask: np.ndarray, cx: float, cy: float, r: float, look: FaceLook) -> None:
    """A footprint: sole, heel and four toes, pointing up."""
    cv2.ellipse(mask, _pt(cx, cy - 0.05 * r), (int(0.34 * r * ONE), int(0.48 * r * ONE)), -8, 0, 360, 1.0, -1,
                cv2.LINE_AA, SHIFT)
    cv2.ellipse(mask, _pt(cx + 0.04 * r, cy + 0.62 * r), (int(0.27 * r * ONE), int(0.24 * r * ONE)), 0, 0, 360, 1.0,
                -1, cv2.LINE_AA, SHIFT)
    for k, (dx, dy, rr) in enumerate(((-0.3, -0.72, 0.15), (-0.06, -0.86, 0.13), (0.17, -0.8, 0.12),
                                      (0.36, -0.64, 0.1))):
        cv2.circle(mask, _pt(cx + dx * r, cy + dy * r), int(rr * r * ONE * (1.1 if k == 0 else 1.0)), 1.0, -1,
                   cv2.LINE_AA, SHIFT)


def _credit(mask: np.ndarray, cx: float, cy: float, r: float, look: FaceLook) -> None:
    pts = [_pt(cx + 0.82 * r * np.cos(a), cy + 0.82 * r * np.sin(a)) for a in np.arange(6) * np.pi / 3 + np.pi / 6]
    cv2.fillPoly(mask, [np.array(pts, np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    cv2.circle(mask, _pt(cx, cy), int(0.3 * r * ONE), 0.0, -1, cv2.LINE_AA, SHIFT)


def _sword(mask: np.ndarray, cx: float, cy: float, r: float, look: FaceLook) -> None:
    w = max(1, int(0.16 * r * look.stroke))
    blade = [(cx - 0.1 * r, cy + 0.35 * r), (cx - 0.1 * r, cy - 0.7 * r), (cx, cy - 0.92 * r),
             (cx + 0.1 * r, cy - 0.7 * r), (cx + 0.1 * r, cy + 0.35 * r)]
    cv2.fillPoly(mask, [np.array([_pt(x, y) for x, y in blade], np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    cv2.line(mask, _pt(cx - 0.4 * r, cy + 0.38 * r), _pt(cx + 0.4 * r, cy + 0.38 * r), 1.0, w, cv2.LINE_AA, SHIFT)
    cv2.line(mask, _pt(cx, cy + 0.4 * r), _pt(cx, cy + 0.8 * r), 1.0, w, cv2.LINE_AA, SHIFT)
    cv2.circle(mask, _pt(cx, cy + 0.86 * r), int(0.12 * r * ONE), 1.0, -1, cv2.LINE_AA, SHIFT)


def _shield(mask: np.ndarray, cx: float, cy: float, r: float, look: FaceLook) -> None:
    pts = [(cx - 0.7 * r, cy - 0.75 * r), (cx + 0.7 * r, cy - 0.75 * r), (cx + 0.7 * r, cy + 0.05 * r),
           (cx, cy + 0.85 * r), (cx - 0.7 * r, cy + 0.05 * r)]
    cv2.fillPoly(mask, [np.array([_pt(x, y) for x, y in pts], np.int32)], 1.0, cv2.LINE_AA, SHIFT)
    # a bar across the shield, in body colour, so it is not just a blob at 30 px
    cv2.line(mask, _pt(cx - 0.7 * r, cy - 0.22 * r), _pt(cx + 0.7 * r, cy - 0.22 * r), 0.0,
             max(1, int(0.16 * r * look.stroke)), cv2.LINE_AA, SHIFT)


def _special(mask: np.ndarray, cx: float, cy: float, r: float, look: FaceLook) -> None:
    cv2.circle(mask, _pt(cx, cy), int(0.9 * r * ONE), 1.0, max(1, int(0.14 * r * look.stroke)), cv2.LINE_AA, SHIFT)
    _shield(mask, cx, cy + 0.02 * r, 0.62 * r, look)


GLYPHS: dict[str, Callable[[np.ndarray, float, float, float, FaceLook], None]] = {
    "coin": _coin,
    "step": _step,
    "credit": _credit,
    "sword": _sword,
    "team": _shield,
    "special": _special,
}
# where n glyphs of one face sit (centre offsets in face sides) and how big each is (radius in face sides)
GLYPH_LAYOUTS: dict[int, tuple[list[tuple[float, float]], float]] = {
    1: ([(0, 0)], 0.33),
    2: ([(-0.17, -0.17), (0.17, 0.17)], 0.2),
    3: ([(-0.22, -0.22), (0, 0), (0.22, 0.22)], 0.16),
    4: ([(-0.17, -0.17), (0.17, -0.17), (-0.17, 0.17), (0.17, 0.17)], 0.16),
}
_GLYPH = re.compile(r"([a-z]+)(\d*)")


def _draw_glyphs(symbol: str, mask: np.ndarray, look: FaceLook) -> None:
    """Draw "coin2", "team+coin1", ...: every glyph of every part, laid out together on the face."""
    names = []
    for part in symbol.split("+"):
        match = _GLYPH.fullmatch(part)
        if not match or match[1] not in GLYPHS:
            raise KeyError(f"unknown symbol {symbol!r}; known: {symbol_names()}")
        names += [match[1]] * int(match[2] or 1)
    if len(names) not in GLYPH_LAYOUTS:
        raise KeyError(f"symbol {symbol!r}: at most {max(GLYPH_LAYOUTS)} pictures on a face")
    s = mask.shape[0]
    places, radius = GLYPH_LAYOUTS[len(names)]
    for name, (dx, dy) in zip(names, places, strict=True):
        GLYPHS[name](mask, s / 2 + dx * s, s / 2 + dy * s, radius * s * look.icon_scale, look)


ICONS: dict[str, Callable[[np.ndarray, FaceLook, np.random.Generator], None]] = {
    "wheel": _wheel,
    "chevrons": _chevrons,
    "curved_arrow": _curved_arrow,
    "spear": _spear,
    "star": _star,
}


def symbol_names() -> list[str]:
    return sorted(ICONS) + [f"pips{n}" for n in range(1, 7)] + [f"{g}N" for g in sorted(GLYPHS)] + ["blank"]


def draw_symbol(symbol: str, size: int, look: FaceLook, rng: np.random.Generator) -> np.ndarray:
    """The ink coverage (0..1 float32, size x size) of one symbol, centred, upright."""
    mask = np.zeros((size, size), np.float32)
    if symbol.startswith("pips"):
        _draw_pips(int(symbol[4:]), mask, look, rng)
    elif symbol in ICONS:
        ICONS[symbol](mask, look, rng)
    elif symbol != "blank":
        _draw_glyphs(symbol, mask, look)
    return mask


def _marble(size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(mix of the two resin colours, thin pale streaks): swirled dice show bands of two colours and, where the
    resin folded, hair-thin light lines that a classifier must not take for pips or strokes.

    The streaks are made from the same random grid as the bands (no further draws), so giving dice streaks did
    not reshuffle the random stream of every scene rendered after a marbled die."""
    grid = rng.random((5, 5)).astype(np.float32)
    field = cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)
    freq = 6 + 8 * float(grid[4, 4])
    mix = (0.5 + 0.5 * np.sin(field * freq)).astype(np.float32) ** 2
    streaks = np.zeros((size, size), np.float32)
    if grid[0, 0] < 0.5:
        fold = cv2.resize(grid[::-1, ::-1].T.copy(), (size, size), interpolation=cv2.INTER_CUBIC)
        sharp, strength = 8 + 12 * float(grid[1, 3]), 0.2 + 0.4 * float(grid[3, 1])
        streaks = np.exp(-np.abs(np.sin(fold * (8 + 12 * float(grid[2, 2])))) * sharp) * strength
    return mix, streaks.astype(np.float32)


def face_texture(symbol: str, look: FaceLook, rng: np.random.Generator, size: int = 96) -> np.ndarray:
    """A premultiplied BGRA float32 texture of one face; alpha is 0 outside the rounded square."""
    body = np.empty((size, size, 3), np.float32)
    body[:] = look.body
    if look.marble is not None:
        mix, streaks = _marble(size, rng)
        body = body * (1 - mix[..., None]) + np.asarray(look.marble, np.float32) * mix[..., None]
        body += (235 - body) * streaks[..., None]
    shape = np.zeros((size, size), np.uint8)
    rad = max(1, int(look.corner * size))
    cv2.rectangle(shape, (rad, 0), (size - 1 - rad, size - 1), 255, -1)
    cv2.rectangle(shape, (0, rad), (size - 1, size - 1 - rad), 255, -1)
    for cx in (rad, size - 1 - rad):
        for cy in (rad, size - 1 - rad):
            cv2.circle(shape, (cx, cy), rad, 255, -1, cv2.LINE_AA)
    dist = cv2.distanceTransform((shape > 127).astype(np.uint8), cv2.DIST_L2, 3)
    edge = np.clip(dist / (0.12 * size), 0, 1)
    shade = (1 - look.bevel * (1 - edge) ** 2)[..., None]
    ink = draw_symbol(symbol, size, look, rng)[..., None]
    # pips are slightly recessed: a darker ring inside each pip
    colour = body * (1 - ink) + np.asarray(look.ink, np.float32) * ink
    colour *= shade
    alpha_shape = shape.astype(np.float32) / 255
    alpha = alpha_shape * (look.opacity * (1 - ink[..., 0]) + ink[..., 0])
    out = np.empty((size, size, 4), np.float32)
    out[..., :3] = colour * alpha[..., None]
    out[..., 3] = alpha
    return out
