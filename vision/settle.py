"""When is a roll over? Motion detection, a still timer and a vote over the still frames.

`SettleDetector` watches a small grey copy of each frame. Motion (against the previous frame, and against the
first still frame so that a die creeping a pixel per frame still counts) means "rolling". Once the picture has
been still for `still_seconds` and at least `vote_frames` frames, the roll has settled, once; it settles again
only after the next motion.

`Vote` gathers the dice seen in each still frame, follows them by position and gives each die the label most
frames agree on, so one blurred or glared frame does not decide a face. `compare` tells a fresh roll from a nudge:
if some dice of the previous reading are still where they were with the same face, the new reading is a change.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from vision.classify import Prediction
from vision.reading import DieReading
from vision.segment import Blob

ROLLING, SETTLING, SETTLED, STILL = "rolling", "settling", "settled", "still"


@dataclass(frozen=True)
class SettleConfig:
    """`still_seconds`: how long the dice must lie still before a reading (frame time, not wall time).
    `vote_frames`: the fewest still frames voted on. `motion_threshold`: grey levels of change that count as
    motion at a pixel; `motion_fraction`: share of pixels that must move to call the picture moving."""

    still_seconds: float = 0.4
    vote_frames: int = 5
    motion_threshold: float = 20.0
    motion_fraction: float = 0.0015
    work_width: int = 160


class SettleDetector:
    """Frame-by-frame state: rolling -> settling -> settled (once) -> still -> rolling on the next motion."""

    def __init__(self, config: SettleConfig | None = None) -> None:
        self.config = config or SettleConfig()
        self.reset()

    def reset(self) -> None:
        self._prev: np.ndarray | None = None
        self._reference: np.ndarray | None = None
        self._still_since: float | None = None
        self._still_frames = 0
        self._emitted = False
        self.motion = 1.0
        self.state = ROLLING

    def _small(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        ww = min(self.config.work_width, w)
        small = cv2.resize(image, (ww, max(1, round(ww * h / w))), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        return cv2.GaussianBlur(grey, (3, 3), 0)

    def _moving(self, a: np.ndarray, b: np.ndarray) -> float:
        return float(np.count_nonzero(cv2.absdiff(a, b) > self.config.motion_threshold)) / a.size

    def update(self, image: np.ndarray, t: float) -> str:
        """Feed one frame taken at time `t` (seconds); returns the state, SETTLED exactly once per rest."""
        cfg = self.config
        small = self._small(image)
        if self._prev is None or self._prev.shape != small.shape:
            self.motion = 1.0
        else:
            self.motion = self._moving(small, self._prev)
            if self._reference is not None:
                self.motion = max(self.motion, self._moving(small, self._reference))
        self._prev = small
        if self.motion > cfg.motion_fraction or (self._still_since is not None and t < self._still_since):
            self._reference, self._still_since, self._still_frames, self._emitted = small, t, 0, False
            self.state = ROLLING
            return self.state
        self._still_frames += 1
        if self._emitted:
            self.state = STILL
        elif t - self._still_since >= cfg.still_seconds and self._still_frames >= cfg.vote_frames:
            self._emitted = True
            self.state = SETTLED
        else:
            self.state = SETTLING
        return self.state


@dataclass
class _Track:
    blob: Blob
    votes: Counter
    scores: dict[str, float]
    frames: int = 0


class Vote:
    """Dice seen over several still frames, matched by position; each die's label is the majority."""

    def __init__(self, match: float = 0.5) -> None:
        self.match = match
        self.reset()

    def reset(self) -> None:
        self.tracks: list[_Track] = []
        self.frames = 0

    def add(self, dice: list[tuple[Blob, Prediction]]) -> None:
        self.frames += 1
        free = list(range(len(self.tracks)))
        for blob, pred in dice:
            best, best_d = None, self.match * blob.size
            for i in free:
                d = math.dist(blob.center, self.tracks[i].blob.center)
                if d < best_d:
                    best, best_d = i, d
            if best is None:
                track = _Track(blob, Counter(), {})
                self.tracks.append(track)
            else:
                free.remove(best)
                track = self.tracks[best]
                track.blob = blob
            track.frames += 1
            track.votes[pred.label] += 1
            track.scores[pred.label] = track.scores.get(pred.label, 0.0) + pred.confidence
            track.scores[pred.runner_up[0]] = track.scores.get(pred.runner_up[0], 0.0) + pred.runner_up[1]

    def result(self) -> list[DieReading]:
        """Dice seen in more than half the frames, with the majority label (ties go to the higher total score)."""
        out = []
        for tr in self.tracks:
            if tr.frames * 2 <= self.frames:
                continue
            label = max(tr.votes, key=lambda lab: (tr.votes[lab], tr.scores.get(lab, 0.0)))
            others = {k: v for k, v in tr.scores.items() if k != label}
            second = max(others, key=others.get) if others else label
            b = tr.blob
            out.append(DieReading(
                label=label,
                confidence=tr.scores[label] / tr.frames,
                runner_up=(second, others.get(second, 0.0) / tr.frames),
                box=tuple((round(x, 1), round(y, 1)) for x, y in b.box),
                center=(round(b.center[0], 1), round(b.center[1], 1)),
                partial=b.partial,
            ))
        out.sort(key=lambda d: (d.center[1], d.center[0]))
        return out


def compare(previous: list[DieReading] | None, current: list[DieReading], *, match: float = 0.35) -> str:
    """'same' (nothing moved: no new reading), 'change' (some dice stayed put), or 'new' (a fresh roll)."""
    if not previous:
        return "new"
    kept = 0
    for die in current:
        side = math.dist(die.box[0], die.box[1])
        if any(p.label == die.label and math.dist(p.center, die.center) < match * side for p in previous):
            kept += 1
    if kept == len(current) == len(previous):
        return "same"
    return "change" if kept else "new"
