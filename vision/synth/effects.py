"""Camera and light: a lighting field, glare, shadows, blur, sensor noise and JPEG artefacts.

`Lighting` is drawn once per scene so that the scene with dice and its empty tray share it, as a real camera
with fixed exposure would see them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Lighting:
    direction: tuple[float, float]  # unit vector in the image plane, from the light towards the scene
    hard: bool  # hard light: crisp, darker shadows; soft: wide and faint
    shadow_length: float  # in die sides
    shadow_opacity: float
    gain: float  # overall exposure
    tint: tuple[float, float, float]  # per-channel white balance
    gradient: float  # brightness change across the image
    vignette: float
    blur: float  # gaussian sigma in px
    noise: float  # sensor noise sigma in grey levels
    jpeg: int  # 0 = none, else the quality


def sample_lighting(rng: np.random.Generator, **override: object) -> Lighting:
    a = rng.uniform(0, 2 * np.pi)
    hard = bool(rng.random() < 0.5)
    values = dict(
        direction=(float(np.cos(a)), float(np.sin(a))),
        hard=hard,
        shadow_length=float(rng.uniform(0.1, 0.6) if hard else rng.uniform(0.05, 0.3)),
        shadow_opacity=float(rng.uniform(0.3, 0.6) if hard else rng.uniform(0.15, 0.35)),
        gain=float(rng.uniform(0.8, 1.1)),
        tint=tuple(float(t) for t in rng.uniform(0.9, 1.1, 3)),
        gradient=float(rng.uniform(0, 0.25)),
        vignette=float(rng.uniform(0, 0.25)),
        blur=float(rng.choice([0.0, rng.uniform(0.3, 1.3)])),
        noise=float(rng.uniform(0, 6)),
        jpeg=int(rng.choice([0, int(rng.integers(40, 95))])),
    )
    values.update(override)
    return Lighting(**values)  # type: ignore[arg-type]


def light_field(lighting: Lighting, height: int, width: int) -> np.ndarray:
    """Multiplicative brightness per pixel and channel (HxWx3 float32)."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    u = ((xx - width / 2) * lighting.direction[0] + (yy - height / 2) * lighting.direction[1]) / max(height, width)
    r2 = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / (max(height, width) / 2) ** 2
    field = lighting.gain * (1 - lighting.gradient * u) * (1 - lighting.vignette * r2 * 0.5)
    return field[..., None] * np.asarray(lighting.tint, np.float32)


def add_glare(image: np.ndarray, center: tuple[float, float], radii: tuple[float, float], angle: float,
              strength: float) -> None:
    """A soft specular spot pushing pixels towards white, in place (float32 image)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.ellipse(mask, (int(center[0]), int(center[1])), (max(1, int(radii[0])), max(1, int(radii[1]))), angle,
                0, 360, 1.0, -1)
    sigma = max(0.6, min(radii) * 0.6)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma) * strength
    image += (255 - image) * np.clip(mask, 0, 1)[..., None]


def camera(image: np.ndarray, lighting: Lighting, rng: np.random.Generator) -> np.ndarray:
    """Blur, noise and JPEG: float32 scene -> BGR uint8 as a camera would deliver it."""
    out = image
    if lighting.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), lighting.blur)
    if lighting.noise > 0:
        out = out + rng.standard_normal(out.shape).astype(np.float32) * lighting.noise
    out = np.clip(out, 0, 255).astype(np.uint8)
    if lighting.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, lighting.jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
