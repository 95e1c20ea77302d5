"""A phone's or webcam's way from light to JPEG: what `effects.camera` leaves out, for renders that look taken.

The plain renderer ends with a mild blur, even grey noise and sometimes JPEG. Dice photographed at a real table
also meet: a lamp's white balance far from neutral, a tone curve and saturation the camera chose, defocus or a
small shake, a sensor smaller than the picture (detail resampled, noise in coarse colour blotches where the
demosaicing spread it), noise that grows with the light, the sharpening phones add (bright halos round dark pips),
a soft shadow edge of a lamp or hand across the view, and JPEG with its colour subsampling, nearly always.
`sample_sensor` draws one such camera; `develop` turns a float BGR scene into the uint8 picture it would deliver.

The crop renderer uses it when a recipe asks (`TrainConfig.sensor`), and `render_scene(sensor=True)` develops whole
frames through it (the rolls `bench/` renders for such a recipe's models; `vision.train_detector --camera-look`).
The ranges are general camera behaviour, not fitted to any photo set, so the renders-only d6 yardstick still sees no
real photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

VERSION = 1  # part of the crop cache key and the cards' renderer name: bump when the look changes


@dataclass(frozen=True)
class Sensor:
    white: tuple[float, float, float]  # white-balance error per BGR channel (warm lamps: blue low, red high)
    gamma: float  # tone curve exponent on 0..1
    saturation: float  # 1 = as rendered
    defocus: float  # disc radius in px (0 = sharp)
    motion: float  # shake length in px (0 = none)
    motion_angle: float  # degrees
    scale: float  # the sensor's resolution against the picture's (< 1: detail resampled up)
    shot: float  # noise growing with the light: sigma = shot * sqrt(level)
    read: float  # noise sigma in grey levels, every pixel alike
    chroma: float  # colour noise sigma at half resolution (blotches, as demosaicing leaves them)
    sharpen: float  # unsharp-mask amount (0 = none)
    shade: float  # darkness of a soft shadow edge across the view (0 = none)
    shade_angle: float  # degrees
    shade_offset: float  # where the edge runs, -0.5..0.5 of the view
    shade_soft: float  # width of the edge, fraction of the view
    jpeg: int  # quality; 0 = none


def sample_sensor(rng: np.random.Generator) -> Sensor:
    """One camera at one table: each effect on for a share of the pictures, in ranges real cameras show."""
    temperature = rng.normal(0, 0.12)  # warm (+) or cool (-) light the auto white balance did not fully undo
    tint = rng.normal(0, 0.04, 3)
    white = (1 - temperature + tint[0], 1 + tint[1], 1 + temperature + tint[2])
    blurred = rng.random()
    return Sensor(
        white=tuple(float(np.clip(w, 0.7, 1.3)) for w in white),
        gamma=float(np.exp(rng.normal(0, 0.15))),
        saturation=float(np.clip(rng.normal(1.0, 0.2), 0.5, 1.5)),
        defocus=float(rng.uniform(0.5, 1.8)) if blurred < 0.25 else 0.0,
        motion=float(rng.uniform(1.0, 3.5)) if 0.25 <= blurred < 0.4 else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        scale=float(rng.uniform(0.5, 1.0)) if rng.random() < 0.5 else 1.0,
        shot=float(rng.uniform(0, 0.6)),
        read=float(rng.uniform(0, 4)),
        chroma=float(rng.uniform(0, 5)) if rng.random() < 0.5 else 0.0,
        sharpen=float(rng.uniform(0.3, 1.2)) if rng.random() < 0.5 else 0.0,
        shade=float(rng.uniform(0.15, 0.5)) if rng.random() < 0.2 else 0.0,
        shade_angle=float(rng.uniform(0, 360)),
        shade_offset=float(rng.uniform(-0.4, 0.4)),
        shade_soft=float(rng.uniform(0.03, 0.3)),
        jpeg=int(rng.integers(45, 96)) if rng.random() < 0.9 else 0,
    )


def _shade(image: np.ndarray, sensor: Sensor) -> np.ndarray:
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.deg2rad(sensor.shade_angle)
    u = ((xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)) / max(h, w) - sensor.shade_offset
    inside = 1 / (1 + np.exp(-u / max(sensor.shade_soft / 4, 1e-3)))
    return image * (1 - sensor.shade * inside)[..., None]


def _blur(image: np.ndarray, sensor: Sensor) -> np.ndarray:
    if sensor.defocus > 0:
        r = sensor.defocus
        k = int(np.ceil(r)) * 2 + 1
        disc = np.zeros((k * 4, k * 4), np.float32)  # drawn 4x finer, so a 0.7 px disc is not a single pixel
        cv2.circle(disc, (k * 2, k * 2), int(round(r * 4)), 1.0, -1, cv2.LINE_AA)
        disc = cv2.resize(disc, (k, k), interpolation=cv2.INTER_AREA)
        image = cv2.filter2D(image, -1, disc / disc.sum(), borderType=cv2.BORDER_REFLECT)
    if sensor.motion > 0:
        k = int(np.ceil(sensor.motion)) * 2 + 1
        line = np.zeros((k * 4, k * 4), np.float32)
        a = np.deg2rad(sensor.motion_angle)
        d = np.array([np.cos(a), np.sin(a)]) * sensor.motion * 2
        c = np.array([k * 2, k * 2])
        cv2.line(line, tuple(np.round(c - d).astype(int)), tuple(np.round(c + d).astype(int)), 1.0, 4, cv2.LINE_AA)
        line = cv2.resize(line, (k, k), interpolation=cv2.INTER_AREA)
        image = cv2.filter2D(image, -1, line / line.sum(), borderType=cv2.BORDER_REFLECT)
    return image


def _noise(image: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    sigma = sensor.read + sensor.shot * np.sqrt(np.clip(image.mean(axis=2, keepdims=True), 0, 255))
    image = image + rng.standard_normal(image.shape).astype(np.float32) * sigma
    if sensor.chroma > 0:
        small = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 3)).astype(np.float32) * sensor.chroma
        small -= small.mean(axis=2, keepdims=True)  # colour only: the grey noise is above
        image = image + cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return image


def tone(colours: np.ndarray, gamma: float, saturation: float) -> np.ndarray:
    """Colours (0..255, channels last) through a tone curve of exponent `gamma`, then `saturation` about their grey."""
    out = 255 * (colours / 255) ** gamma
    grey = out.mean(axis=-1, keepdims=True)
    return grey + (out - grey) * saturation


def develop(image: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    """float32 BGR scene (0..255, lit) -> the uint8 BGR picture this camera would deliver."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    if sensor.shade > 0:
        out = _shade(out, sensor)
    out = out * np.asarray(sensor.white, np.float32)
    out = _blur(out, sensor)
    if sensor.scale < 1:
        small = (max(4, int(round(w * sensor.scale))), max(4, int(round(h * sensor.scale))))
        out = cv2.resize(out, small, interpolation=cv2.INTER_AREA)
    out = _noise(out, sensor, rng)
    out = tone(np.clip(out, 0, 255), sensor.gamma, sensor.saturation)
    if sensor.sharpen > 0:
        out = out + sensor.sharpen * (out - cv2.GaussianBlur(out, (0, 0), 1.0))
    if sensor.scale < 1:
        out = cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if sensor.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, sensor.jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
