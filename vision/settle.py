"""When is a roll over? Motion detection, a still timer and a vote over the still frames.

`SettleDetector` watches a small grey copy of each frame. Motion (against the previous frame, and against the
first still frame so that a die creeping a pixel per frame still counts) means "rolling". Once the picture has
been still for `still_seconds` and at least `vote_frames` frames, the roll has settled, once; it settles again
only after the next motion.

`Vote` gathers the dice seen in each still frame, follows them by position and gives each die the label most
frames agree on, so one blurred or glared frame does not decide a face.

`tray_changes` tells what differs between two readings of the tray, from their boxes (not from pixels, so a die's
box wobbling a few pixels between readings is no change): a die moved by more than half its width, turned to
another face, added or taken out. From it, `compare` tells a fresh roll from a nudge (some dice of the previous
reading are still where they were with the same face: the new reading is a change), and `since_read` tells what
became of a roll's dice after they were read: taken out, nudged, or a new roll.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.classify import Prediction
from vision.reading import DieReading, Point
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


HALF = 0.5
"""A die lying less than half its width from where it was read is still there: a box wobbles a few pixels between
readings of the same dice, a nudged die moves by more."""
NUDGE = 1.5
"""A die moved after it was read by at most this many of its widths was nudged; one further away was rolled again
(or was another die)."""

MOVED, TURNED, ADDED, REMOVED = "moved", "turned", "added", "removed"
SAME, TAKEN, NUDGED, NEW = "same", "taken", "nudged", "new"

Placed = tuple[str, Sequence[Point]]
"""A die as the change detector sees it: its face and its box (the four corners of its outline)."""


@dataclass(frozen=True)
class TrayChange:
    """One difference between two readings of the tray. `die` is the die's place in the earlier reading (from 0;
    None for a die added), `was` its face then and `now` its face in the later reading (None for a die taken out);
    `distance` how far it moved, in its widths."""

    kind: str
    die: int | None
    was: str | None
    now: str | None
    distance: float = 0.0


def _centre(box: Sequence[Point]) -> Point:
    return (sum(x for x, _ in box) / len(box), sum(y for _, y in box) / len(box))


def _width(box: Sequence[Point]) -> float:
    return max(1e-6, (math.dist(box[0], box[1]) + math.dist(box[1], box[2])) / 2)


def tray_changes(before: Sequence[Placed], after: Sequence[Placed], *, reach: float = HALF) -> list[TrayChange]:
    """What differs between two readings of the tray, die by die (empty: the same dice where they were).

    Dice are paired nearest first (each die of one reading with at most one of the other). A pair less than
    `reach` of the earlier die's width apart is the same die where it was (turned, if its face differs); a pair
    further apart is a die that moved. Dice left unpaired were taken out or added.

    >>> def die(face, x):
    ...     return face, ((x - 10, 0), (x + 10, 0), (x + 10, 20), (x - 10, 20))
    >>> tray_changes([die("1", 50), die("2", 150)], [die("1", 53), die("2", 148)])
    []
    >>> [(c.kind, c.die, c.was, c.now) for c in tray_changes([die("1", 50), die("2", 150)], [die("5", 50)])]
    [('turned', 0, '1', '5'), ('removed', 1, '2', None)]
    """
    centres = [_centre(box) for _, box in before]
    widths = [_width(box) for _, box in before]
    after_centres = [_centre(box) for _, box in after]
    pairs = sorted((math.dist(centres[i], after_centres[j]) / widths[i], i, j)
                   for i in range(len(before)) for j in range(len(after)))
    paired: dict[int, tuple[int, float]] = {}
    taken: set[int] = set()
    for distance, i, j in pairs:
        if i not in paired and j not in taken:
            paired[i] = (j, distance)
            taken.add(j)
    changes = []
    for i, (face, _) in enumerate(before):
        if i not in paired:
            changes.append(TrayChange(REMOVED, i, face, None))
            continue
        j, distance = paired[i]
        now = after[j][0]
        if distance >= reach:
            changes.append(TrayChange(MOVED, i, face, now, round(distance, 2)))
        elif now != face:
            changes.append(TrayChange(TURNED, i, face, now, round(distance, 2)))
    changes.extend(TrayChange(ADDED, None, None, after[j][0]) for j in range(len(after)) if j not in taken)
    return changes


def placed(dice: Sequence[DieReading]) -> list[Placed]:
    return [(d.label, d.box) for d in dice]


def compare(previous: list[DieReading] | None, current: list[DieReading]) -> str:
    """'same' (nothing moved: no new reading), 'change' (some dice stayed put), or 'new' (a fresh roll)."""
    if not previous:
        return "new"
    changes = tray_changes(placed(previous), placed(current))
    if not changes:
        return "same"
    kept = len(previous) - sum(c.die is not None for c in changes)
    return "change" if kept else "new"


def since_read(read: Sequence[Placed], now: Sequence[Placed]) -> tuple[str, list[TrayChange]]:
    """What became of the dice of a roll that was read (`read`), from the tray as it settled later (`now`), and the
    changes that tell it:

    - SAME: every die lies where it was read, with the face read;
    - TAKEN: dice were taken out (all of them: the tray is empty), the rest lie untouched;
    - NUDGED: no die was added, at least one lies where it was read with its face, and every other one was taken
      out, turned where it lay or moved by at most `NUDGE` of its widths;
    - NEW: anything else, a new roll (dice added, or thrown again: no die kept, or one landed far away).

    A lone die nudged looks like a new roll: nothing in the tray stayed put to tell them apart.
    """
    changes = tray_changes(read, now)
    if not changes:
        return SAME, changes
    kinds = {c.kind for c in changes}
    if kinds == {REMOVED}:
        return TAKEN, changes
    kept = len(read) - sum(c.die is not None for c in changes)
    if ADDED not in kinds and kept and all(c.distance <= NUDGE for c in changes if c.kind == MOVED):
        return NUDGED, changes
    return NEW, changes
