"""Tray calibration: what the empty tray looks like and which part of the frame is the tray.

Dice are found as "what differs from the empty tray", so the tray is learnt once (a few frames with no dice) and
kept in the table's data dir as ``tray.json`` (region of interest, colour statistics, noise) beside ``tray.png``
(the background image). Without a calibration the segmenter estimates the background from each frame
(`auto_background`), which is enough on a plain surface: a tray, a table, a felt mat.

>>> import numpy as np
>>> tray = calibrate([np.full((48, 64, 3), 90, np.uint8)] * 3)
>>> tray.roi_mask().shape
(48, 64)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

JSON_NAME = "tray.json"
PNG_NAME = "tray.png"
VERSION = 1


class TrayError(ValueError):
    """A calibration file is missing or wrong; the message names the file and the field."""


@dataclass
class Tray:
    """The empty tray: background image (BGR, full frame), region of interest polygon, per-pixel noise level.

    `die_px` is the side of one die in pixels when known (it makes splitting touching dice more reliable).
    """

    background: np.ndarray
    roi: np.ndarray
    noise: float = 3.0
    die_px: float | None = None
    colour_mean: tuple[float, float, float] = (0.0, 0.0, 0.0)
    colour_std: tuple[float, float, float] = (0.0, 0.0, 0.0)
    _mask: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> tuple[int, int]:
        return self.background.shape[1], self.background.shape[0]

    def roi_mask(self) -> np.ndarray:
        """255 inside the region of interest, 0 outside (cached)."""
        if self._mask is None:
            mask = np.zeros(self.background.shape[:2], np.uint8)
            cv2.fillPoly(mask, [self.roi.astype(np.int32)], 255)
            self._mask = mask
        return self._mask

    def shows_something(self, image: np.ndarray, center: tuple[float, float], side: float) -> bool:
        """Whether the middle of a found die (its central 0.6 x `side` square) lies on the tray and differs from the
        empty tray there: a learned detector's die that is the empty tray's own pattern (a cloth's check, a tile)
        is none. The 90th percentile of the difference counts pips and edges, so a white die on white paper still
        differs; more than 3 x the tray's noise was chosen on the validation surfaces (from 2 to 4 the same)."""
        h, w = image.shape[:2]
        cx, cy = float(center[0]), float(center[1])
        if not (0 <= cx < w and 0 <= cy < h) or self.roi_mask()[int(cy), int(cx)] == 0:
            return False
        half = 0.3 * side
        x0, y0 = max(0, int(cx - half)), max(0, int(cy - half))
        x1, y1 = min(w, int(cx + half) + 1), min(h, int(cy + half) + 1)
        diff = np.abs(image[y0:y1, x0:x1].astype(np.int16) - self.background[y0:y1, x0:x1].astype(np.int16))
        return bool(diff.size) and float(np.percentile(diff.max(axis=2), 90)) > 3 * self.noise

    def fits(self, image: np.ndarray) -> bool:
        return image.shape[:2] == self.background.shape[:2]

    def save(self, data_dir: str | Path) -> Path:
        """Write tray.json and tray.png into `data_dir` (created if needed); returns the JSON path."""
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(data_dir / PNG_NAME), self.background):
            raise TrayError(f"{data_dir / PNG_NAME}: cannot write the background image")
        doc = {
            "version": VERSION,
            "width": self.size[0],
            "height": self.size[1],
            "background": PNG_NAME,
            "roi": self.roi.astype(int).tolist(),
            "noise": round(float(self.noise), 3),
            "die_px": None if self.die_px is None else round(float(self.die_px), 2),
            "colour": {"mean": [round(v, 2) for v in self.colour_mean], "std": [round(v, 2) for v in self.colour_std]},
        }
        path = data_dir / JSON_NAME
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, data_dir: str | Path) -> Tray:
        """Read a calibration saved by `save`; raises TrayError naming the file and field that is wrong."""
        data_dir = Path(data_dir)
        path = data_dir / JSON_NAME if data_dir.is_dir() or not data_dir.suffix else data_dir
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise TrayError(f"{path}: no tray calibration here; run `companion calibrate` first") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise TrayError(f"{path}: not a readable tray calibration ({exc})") from None

        def need(key: str, kind: type | tuple[type, ...]) -> Any:
            if not isinstance(doc, dict) or key not in doc:
                raise TrayError(f"{path}: field {key!r} is missing")
            if not isinstance(doc[key], kind):
                raise TrayError(f"{path}: field {key!r} should be {kind}, not {type(doc[key]).__name__}")
            return doc[key]

        if need("version", int) != VERSION:
            raise TrayError(f"{path}: field 'version' is {doc['version']}, this program reads version {VERSION}")
        width, height = need("width", int), need("height", int)
        png = path.parent / need("background", str)
        background = cv2.imread(str(png), cv2.IMREAD_COLOR)
        if background is None:
            raise TrayError(f"{path}: field 'background' names {png}, which is missing or not an image")
        if background.shape[:2] != (height, width):
            raise TrayError(f"{path}: background {png.name} is {background.shape[1]}x{background.shape[0]}, "
                            f"fields 'width'/'height' say {width}x{height}")
        roi = np.asarray(need("roi", list), dtype=np.float64)
        if roi.ndim != 2 or roi.shape[1] != 2 or len(roi) < 3:
            raise TrayError(f"{path}: field 'roi' should be a list of at least 3 [x, y] points")
        colour = doc.get("colour") or {}
        die_px = doc.get("die_px")
        return cls(background, roi.astype(np.int32), noise=float(need("noise", (int, float))),
                   die_px=float(die_px) if die_px else None,
                   colour_mean=tuple(colour.get("mean", (0, 0, 0))), colour_std=tuple(colour.get("std", (0, 0, 0))))


def full_frame_roi(width: int, height: int) -> np.ndarray:
    return np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.int32)


def find_roi(background: np.ndarray, *, min_fraction: float = 0.5, step: int = 3) -> np.ndarray:
    """The tray floor: the smooth region around the image centre, bounded by the tray's walls.

    A flood fill from the centre that follows gentle changes (lighting gradients, felt, grain) and stops at the
    steps in colour where a wall or the table begins. When nothing like a floor stands out (a plain table filling
    the view) the whole frame is the region. A floor is large and convex: a region that is not (a patch of wood
    grain) is not taken for one.
    """
    h, w = background.shape[:2]
    sw, sh = 160, max(1, round(160 * h / w))
    small = cv2.resize(background, (sw, sh), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 1.5)
    mask = np.zeros((sh + 2, sw + 2), np.uint8)
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
    cv2.floodFill(small, mask, (sw // 2, sh // 2), (0, 0, 0), (step,) * 3, (step,) * 3, flags)
    floor = cv2.morphologyEx(mask[1:-1, 1:-1], cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    fraction = float(np.count_nonzero(floor)) / floor.size
    if fraction < min_fraction or fraction > 0.9:
        return full_frame_roi(w, h)
    contours, _ = cv2.findContours(floor, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline)
    if cv2.contourArea(outline) < 0.92 * cv2.contourArea(hull):
        return full_frame_roi(w, h)
    poly = cv2.approxPolyDP(hull, 2.0, True).reshape(-1, 2).astype(np.float64)
    return np.round(poly * (w / sw)).astype(np.int32)


def calibrate(frames: Sequence[np.ndarray], *, roi: np.ndarray | None = None, die_px: float | None = None) -> Tray:
    """Learn the empty tray from a few frames without dice (median image, noise level, colour, region).

    `roi` overrides the automatic region (points in frame pixels). More frames give a steadier noise estimate.
    """
    if not frames:
        raise ValueError("calibration needs at least one frame of the empty tray")
    stack = np.stack([np.asarray(f) for f in frames])
    if stack.ndim != 4 or stack.shape[3] != 3:
        raise ValueError(f"calibration frames should be HxWx3 BGR images, got shape {stack.shape[1:]}")
    background = np.median(stack, axis=0).astype(np.uint8) if len(frames) > 1 else stack[0].copy()
    if len(frames) > 1:
        noise = float(np.median(np.abs(stack.astype(np.int16) - background).max(axis=3))) * 1.5
    else:
        residual = background.astype(np.int16) - cv2.GaussianBlur(background, (5, 5), 0)
        noise = float(np.median(np.abs(residual).max(axis=2))) * 1.5
    h, w = background.shape[:2]
    region = find_roi(background) if roi is None else np.asarray(roi, np.int32).reshape(-1, 2)
    tray = Tray(background, region, noise=max(noise, 1.0), die_px=die_px)
    lab = cv2.cvtColor(background, cv2.COLOR_BGR2LAB).reshape(-1, 3)[tray.roi_mask().reshape(-1) > 0]
    tray.colour_mean = tuple(float(v) for v in lab.mean(axis=0))
    tray.colour_std = tuple(float(v) for v in lab.std(axis=0))
    if (w, h) != tray.size:  # pragma: no cover - guarded by construction
        raise AssertionError("background size changed")
    return tray


def auto_background(frame: np.ndarray, *, work_width: int = 160) -> np.ndarray:
    """Estimate the empty surface under the dice from the frame itself (no calibration).

    A median filter much wider than a die removes the dice and keeps the slow shading of the surface; it is done
    on a small copy and scaled back up, so it costs about a millisecond.
    """
    h, w = frame.shape[:2]
    sw, sh = work_width, max(1, round(work_width * h / w))
    small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA)
    k = max(3, (min(sw, sh) // 3) | 1)
    bg = cv2.medianBlur(small, min(k, 255))
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
