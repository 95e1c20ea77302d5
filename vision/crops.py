"""Crop geometry shared by segmentation, training, enrolment and evaluation: one die -> one square crop.

CROP CONVENTION: a crop is square, centred on the die's centre, rotated so the die's edges are axis-aligned
(which of the four quarter turns is arbitrary: models are trained invariant to them), its side is
`margin` (1.2) x the die's side length, then resized to the model's input size.
Real-data labels and the detector's boxes are axis-aligned boxes around the whole die; `box_crop` cuts those at
`BOX_MARGIN` x the box side.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_MARGIN = 1.2
BOX_MARGIN = 1.15


def rotated_crop(image: np.ndarray, center: tuple[float, float], side: float, angle: float, out_size: int,
                 margin: float = CROP_MARGIN, quarter_turns: int = 0) -> np.ndarray:
    """Cut the square crop of a die whose edges are rotated by `angle` degrees (image x right, y down).

    The die's corners are `center + R(angle) @ (+-side/2, +-side/2)`; in the crop they are axis-aligned.
    The crop is sampled at the die's native resolution, then shrunk with INTER_AREA (no aliasing).
    """
    native = max(out_size, int(round(side * margin)))
    a = np.deg2rad(angle + 90.0 * quarter_turns)
    step = side * margin / native
    cos, sin = np.cos(a) * step, np.sin(a) * step
    half = native / 2
    # output pixel (u, v) centre -> image point: center + R(a) @ ((u + 0.5 - half) * step, (v + 0.5 - half) * step)
    m = np.array([
        [cos, -sin, center[0] - (cos * (half - 0.5) - sin * (half - 0.5))],
        [sin, cos, center[1] - (sin * (half - 0.5) + cos * (half - 0.5))],
    ])
    crop = cv2.warpAffine(image, m, (native, native), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    if native != out_size:
        crop = cv2.resize(crop, (out_size, out_size), interpolation=cv2.INTER_AREA)
    return crop


def box_crop(image: np.ndarray, box: tuple[float, float, float, float], out_size: int,
             margin: float = BOX_MARGIN) -> np.ndarray:
    """Cut a square, axis-aligned crop around an (x0, y0, x1, y1) box enclosing the whole die."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    return rotated_crop(image, ((x0 + x1) / 2, (y0 + y1) / 2), side, 0.0, out_size, margin=margin)


def corners_crop(image: np.ndarray, corners, out_size: int, margin: float = CROP_MARGIN) -> np.ndarray:
    """Cut a die again from the 4 corners of its rotated box (a `DieReading.box`), by the crop convention.

    The application keeps readings, not blobs; this lets it cut the very crop the classifier saw (teaching the
    companion a die it misread) from a frame and the reading alone.
    """
    pts = np.asarray(corners, np.float64).reshape(4, 2)
    edges = np.roll(pts, -1, axis=0) - pts
    side = float(np.linalg.norm(edges, axis=1).mean())
    angle = float(np.degrees(np.arctan2(edges[0, 1], edges[0, 0])))
    centre = pts.mean(axis=0)
    return rotated_crop(image, (float(centre[0]), float(centre[1])), side, angle, out_size, margin=margin)


def yolo_boxes(label_text: str, width: int, height: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Parse YOLO `cls xc yc w h` lines (normalised) into (cls, (x0, y0, x1, y1)) in pixels."""
    out = []
    for n, line in enumerate(label_text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise ValueError(f"line {n}: expected 'cls xc yc w h', got {line!r}")
        cls = int(parts[0])
        xc, yc, bw, bh = (float(p) for p in parts[1:])
        out.append((cls, ((xc - bw / 2) * width, (yc - bh / 2) * height, (xc + bw / 2) * width,
                          (yc + bh / 2) * height)))
    return out
