"""Draw what the pipeline sees onto a frame: die boxes, labels and confidences, and a status line.

Used for the dashboard's MJPEG view and for debugging replays. Confidence colours follow the dashboard's rule that
low confidence is shown, never hidden: green is sure, amber is worth a glance, red waits for a tap.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import cv2
import numpy as np

GREEN, AMBER, RED, GREY = (60, 200, 60), (0, 190, 255), (40, 40, 230), (170, 170, 170)
SURE, UNSURE = 0.9, 0.6


class Drawable(Protocol):
    label: str
    confidence: float
    box: tuple
    partial: bool


def confidence_colour(confidence: float, *, sure: float = SURE, unsure: float = UNSURE) -> tuple[int, int, int]:
    """BGR: green at or above `sure`, amber at or above `unsure`, red below."""
    return GREEN if confidence >= sure else AMBER if confidence >= unsure else RED


def draw(frame: np.ndarray, dice: Iterable[Drawable], *, status: str | None = None, copy: bool = True) -> np.ndarray:
    """Boxes and 'label 97%' tags for `dice` (DieReading or anything with those fields); `status` top left."""
    out = frame.copy() if copy else frame
    scale = max(0.4, out.shape[0] / 900)
    thick = max(1, round(out.shape[0] / 360))
    for die in dice:
        colour = confidence_colour(die.confidence)
        pts = np.round(np.asarray(die.box, np.float32)).astype(np.int32)
        cv2.polylines(out, [pts], True, GREY if die.partial else colour, thick, cv2.LINE_AA)
        text = f"{die.label} {die.confidence * 100:.0f}%" + (" partial" if die.partial else "")
        x, y = int(pts[:, 0].min()), int(pts[:, 1].min()) - 4
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        y = max(th + 2, y)
        cv2.rectangle(out, (x, y - th - 3), (x + tw + 2, y + 2), colour, -1)
        cv2.putText(out, text, (x + 1, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick, cv2.LINE_AA)
    if status:
        (tw, th), _ = cv2.getTextSize(status, cv2.FONT_HERSHEY_SIMPLEX, scale * 1.2, thick)
        cv2.rectangle(out, (0, 0), (tw + 12, th + 12), (0, 0, 0), -1)
        cv2.putText(out, status, (6, th + 6), cv2.FONT_HERSHEY_SIMPLEX, scale * 1.2, (255, 255, 255), thick,
                    cv2.LINE_AA)
    return out


def to_jpeg(image: np.ndarray, quality: int = 80) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()
