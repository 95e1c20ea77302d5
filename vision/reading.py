"""What the vision pipeline tells the rest of the world: one settled roll, as plain values.

A `DiceReading` is the only thing that crosses from `vision` to the application. It is frozen and made of
tuples, floats and strings so it can be logged, sent over SSE and compared in tests without any OpenCV types.

>>> die = DieReading("5", 0.98, ("6", 0.01), ((0, 0), (10, 0), (10, 10), (0, 10)), (5.0, 5.0))
>>> DiceReading(frame_id=7, time=1.5, change=False, dice=(die,)).labels
('5',)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class DieReading:
    """One die: its face, how sure the classifier is, the next best guess and where it lies in the frame.

    `box` is the rotated rectangle of the die's outline (4 corners, pixels of the full frame); `partial` means the
    die lies partly outside the tray's region of interest, so its face may be cut off or belong to another player.
    """

    label: str
    confidence: float
    runner_up: tuple[str, float]
    box: tuple[Point, Point, Point, Point]
    center: Point
    partial: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "confidence": round(float(self.confidence), 4),
            "runner_up": [self.runner_up[0], round(float(self.runner_up[1]), 4)],
            "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "box": [[round(float(x), 1), round(float(y), 1)] for x, y in self.box],
            "partial": bool(self.partial),
        }


@dataclass(frozen=True)
class DiceReading:
    """The dice of one settled roll.

    `time` is the frame's timestamp in seconds (wall clock for cameras, seconds since the start for replays and
    synthetic sources, so replays read the same every run). `change` is true when this reading amends the previous
    one: some dice stayed where they were and at least one was nudged, turned or added.
    """

    frame_id: int
    time: float
    change: bool
    dice: tuple[DieReading, ...] = field(default_factory=tuple)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(d.label for d in self.dice)

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame_id": self.frame_id,
            "time": round(float(self.time), 3),
            "change": self.change,
            "dice": [d.to_dict() for d in self.dice],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())
