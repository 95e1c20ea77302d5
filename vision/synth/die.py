"""One die on a surface: its pose, its look, its shadow and how it is painted into a float image.

Geometry: `center`, `side` and `angle` describe the TOP face as the camera sees it (the face that is read);
its corners are `center + R(angle) @ (+-side/2, +-side/2)` in image coordinates (x right, y down).
`parallax` shifts the top face away from the base (the camera is above the tray, so a die away from the image
centre shows the side faces that look towards the centre); the visible silhouette is the top face plus those
sides. Painting is supersampled locally so 25-45 px dice keep anti-aliased edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .dice_sets import DiceSet, get_palette
from .effects import Lighting, add_glare
from .faces import FaceLook, draw_symbol, face_texture

TEXTURE = 96
SUPERSAMPLE = 3


@dataclass(frozen=True)
class DiePose:
    center: tuple[float, float]
    side: float
    angle: float  # degrees
    parallax: tuple[float, float] = (0.0, 0.0)  # top face offset from the base, px

    def top_corners(self) -> np.ndarray:
        a = np.deg2rad(self.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        half = self.side / 2
        local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        return local @ rot.T + np.asarray(self.center)

    def base_corners(self) -> np.ndarray:
        return self.top_corners() - np.asarray(self.parallax)

    def silhouette(self) -> np.ndarray:
        """The convex outline (float Nx2) of everything the camera sees of the die."""
        pts = np.vstack([self.top_corners(), self.base_corners()]).astype(np.float32)
        return cv2.convexHull(pts).reshape(-1, 2)

    def radius(self) -> float:
        """Radius of a circle around `center` that holds the whole silhouette."""
        return float(self.side / np.sqrt(2) + np.hypot(*self.parallax))


@dataclass(frozen=True)
class DieLook:
    face: FaceLook
    glare: float  # 0 = none, else strength of a specular spot on the top face
    glare_pos: tuple[float, float]  # in top-face units -0.5..0.5
    quarter: int  # which way up the symbol is drawn (0..3 quarter turns)


def sample_look(dice_set: DiceSet, label: str, rng: np.random.Generator, palette: str | None = None,
                glare: bool | None = None) -> DieLook:
    names = dice_set.palettes_for(label)
    fixed = label in dice_set.label_palettes and palette not in names  # this die type's colour is not a choice
    pal = get_palette(palette if palette is not None and not fixed else names[rng.integers(len(names))])
    lo, hi, noise = pal.spread
    body = np.clip(np.asarray(pal.body, np.float32) * rng.uniform(lo, hi) + rng.normal(0, noise, 3), 0, 255)
    ink = np.asarray(pal.inks[rng.integers(len(pal.inks))], np.float32)
    marble = tuple(float(v) for v in pal.marble) if pal.marble is not None else None
    face = FaceLook(
        body=tuple(float(v) for v in body),
        ink=tuple(float(v) for v in ink),
        marble=marble,
        opacity=pal.opacity,
        corner=float(rng.uniform(0.08, 0.25)),
        bevel=float(rng.uniform(0.1, 0.45)),
        pip_radius=float(rng.uniform(0.08, 0.12)),
        pip_spread=float(rng.uniform(0.22, 0.28)),
        stroke=float(rng.uniform(0.8, 1.2)),
        icon_scale=float(rng.uniform(0.88, 1.08)),
    )
    has_glare = (rng.random() < 0.2) if glare is None else glare
    return DieLook(
        face=face,
        glare=float(rng.uniform(0.3, 0.7)) if has_glare else 0.0,
        glare_pos=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35))),
        quarter=int(rng.integers(4)),
    )


def paint_shadow(image: np.ndarray, pose: DiePose, lighting: Lighting) -> None:
    """Darken the surface where the die blocks the light (in place)."""
    base = pose.base_corners()
    offset = np.asarray(lighting.direction) * lighting.shadow_length * pose.side
    pts = cv2.convexHull(np.vstack([base, base + offset]).astype(np.float32)).reshape(-1, 2)
    x0, y0 = np.floor(pts.min(0) - pose.side).astype(int)
    x1, y1 = np.ceil(pts.max(0) + pose.side).astype(int)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((pts - (x0, y0)) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    sigma = pose.side * (0.04 if lighting.hard else 0.18)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, sigma))
    image[y0:y1, x0:x1] *= (1 - lighting.shadow_opacity * mask)[..., None]


def _over(dst: np.ndarray, src: np.ndarray) -> None:
    """Premultiplied BGRA `src` over `dst`, in place."""
    dst *= 1 - src[..., 3:4]
    dst += src


def _warp_face(tex: np.ndarray, quad: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    s = tex.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    return cv2.warpPerspective(tex, m, (shape[1], shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=(0, 0, 0, 0))


def seen_through(symbol: str, look: FaceLook, rng: np.random.Generator) -> np.ndarray:
    """The ink of the face a translucent die lies on, as the camera sees it through the body: mirrored, softened
    and tinted by the plastic (premultiplied BGRA, ink only: the body in between is the top face's)."""
    size = TEXTURE // 2
    ink = np.ascontiguousarray(draw_symbol(symbol, size, look, rng)[:, ::-1])
    ink = cv2.GaussianBlur(ink, (0, 0), 0.03 * size)
    out = np.empty((size, size, 4), np.float32)
    out[..., :3] = (np.asarray(look.ink, np.float32) * np.asarray(look.body, np.float32) / 255) * ink[..., None]
    out[..., 3] = ink
    return out


def paint_die(image: np.ndarray, pose: DiePose, look: DieLook, top_symbol: str, side_symbols: list[str],
              lighting: Lighting, rng: np.random.Generator, bottom_symbol: str | None = None) -> None:
    """Paint one die (the face it lies on where known and the body lets it show, sides, then top face, then
    glare) into the float32 BGR image, in place. Sides and bottom as `DiceSet.side_symbols` gives them."""
    h, w = image.shape[:2]
    top = pose.top_corners()
    base = pose.base_corners()
    allpts = np.vstack([top, base])
    x0, y0 = np.floor(allpts.min(0)).astype(int) - 2
    x1, y1 = np.ceil(allpts.max(0)).astype(int) + 2
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    ss = SUPERSAMPLE
    ph, pw = (y1 - y0) * ss, (x1 - x0) * ss
    patch = np.zeros((ph, pw, 4), np.float32)

    def local(p: np.ndarray) -> np.ndarray:
        return (p - (x0, y0)) * ss

    if look.face.opacity < 1 and bottom_symbol is not None:
        _over(patch, _warp_face(seen_through(bottom_symbol, look.face, rng), local(base), (ph, pw)))
    light = np.asarray(lighting.direction)
    d = np.asarray(pose.parallax)
    if np.hypot(*d) > 0.02 * pose.side:
        # a side is visible when its outward normal points the way the base lies from the top (-parallax)
        for i in range(4):
            a, b = top[i], top[(i + 1) % 4]
            normal = np.array([b[1] - a[1], -(b[0] - a[0])])
            normal /= np.linalg.norm(normal) + 1e-9
            if normal @ (-d) <= 0:
                continue
            # sides facing away from the light (normal along the light direction) are darker
            shade = 0.62 - 0.22 * float(normal @ light)
            tex = face_texture(side_symbols[i % len(side_symbols)], look.face, rng, TEXTURE // 2)
            tex[..., :3] *= shade
            quad = np.array([a, b, base[(i + 1) % 4], base[i]])
            _over(patch, _warp_face(tex, local(quad), (ph, pw)))
    tex = face_texture(top_symbol, look.face, rng, TEXTURE)
    tex = np.ascontiguousarray(np.rot90(tex, look.quarter))
    top_local = local(top)
    face = _warp_face(tex, top_local, (ph, pw))
    face[..., :3] *= 1.0 + 0.05 * rng.standard_normal()
    _over(patch, face)
    if look.glare > 0:
        gx, gy = look.glare_pos
        rot = top_local[1] - top_local[0], top_local[3] - top_local[0]
        centre = top_local.mean(0) + gx * rot[0] + gy * rot[1]
        glare = np.zeros((ph, pw, 3), np.float32)
        add_glare(glare, (centre[0], centre[1]), (pose.side * ss * 0.12, pose.side * ss * 0.07),
                  float(rng.uniform(0, 180)), look.glare)
        top_mask = np.zeros((ph, pw), np.float32)
        cv2.fillConvexPoly(top_mask, np.round(top_local).astype(np.int32), 1.0)
        patch[..., :3] += glare * 0.85 * top_mask[..., None] * patch[..., 3:4]
    small = cv2.resize(patch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    small = small[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    region = image[cy0:cy1, cx0:cx1]
    region *= 1 - small[..., 3:4]
    region += small[..., :3]
