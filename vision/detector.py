"""The learned dice finder: a small fully-convolutional ONNX model marks every die's centre and box size.

The classical `vision.segment.Segmenter` needs a die to differ from what it learns as the tray; a white die on a
pale tray or two touching dice defeat it. This model (trained by `vision.train_detector` on rendered scenes and
real photos) answers from the die's own look. It sees the frame at `WORK_WIDTH` pixels across and gives, at 1/4
of that, a heat map of die centres (peaks are dice), each die's box size and its centre's offset in the cell.

    detector = Detector.load(DEFAULT_MODEL)        # raises ModelError if missing or unusable
    blobs = detector.find(frame)                   # vision.segment.Blob per die, boxes axis-aligned

A die's Blob is the axis-aligned square around its whole silhouette, as the real training crops were cut
(`vision.crops.box_crop`): the classifier reads it the same way.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import cv2
import numpy as np

from vision.card import ModelError
from vision.crops import BOX_MARGIN, CROP_MARGIN
from vision.segment import Blob

log = logging.getLogger(__name__)

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "dice_detector.onnx"
WORK_WIDTH = 320
STRIDE = 4  # heat-map cell, work pixels
WH_UNIT = 32.0  # box sizes are regressed in units of this many work pixels
# The net's boxes are tighter than the real photos' labels (0.90 of their side on the validation photos: half its
# training boxes are rendered silhouettes, drawn tight); the classifier learnt real dice cut around label boxes, so
# boxes are widened to that convention (on validation 92.5 % of rolls right instead of 90 %, faces 99.5 % not 98.9)
LABEL_SCALE = 1.11
# A box whose centre lies this close to a larger box's centre (a fraction of that box's width and height) is a part
# of the same die: a die close to the camera is otherwise read as its pips and as several overlapping boxes. Two
# dice side by side lie a whole die apart, whatever their sizes.
PART_OF = 0.35
# Dice seen this small (work pixels) are far from the camera: the net finds one in three of them at the work width
# and most at FINE times it, where they look as large as the dice it learnt. So a frame with small dice is read a
# second time, finer, and its small dice are added to the first read's (`whole_dice` keeps one box of a die both
# reads found): each read finds far dice the other misses. A frame of tray-sized dice is read once. A frame where the
# first read finds no die at all is read finer too: a roll of far dice alone may show none at the work width.
SMALL = 14.0
FINE = 1.5


def work_scale(width: int) -> float:
    return WORK_WIDTH / float(width)


def small_side(frame: np.ndarray) -> float:
    """`SMALL` in the frame's own pixels."""
    return SMALL / work_scale(frame.shape[1])


class Detector:
    """One ONNX session on one thread. `threshold` on the heat was chosen on the validation photos and surfaces
    (`bench/rolls.py --real val --synthetic`): the fewest dice missed plus invented there, none on the real ones.

    With `mirror` the frame is read twice, as it is and mirrored, and the two maps averaged: the net's belief in a
    die wavers with the die's turn and the surface's pattern around it (plain cubes square to the frame were the
    ones it missed), and the mirrored view wavers differently. On the validation photos and surfaces that left 8
    dice missed or invented instead of 17 (run 3, threshold 0.45 then; 0.5 alone), for twice the net's time. The
    shipped net (models/dice_detector.md) was chosen at 0.35 with the die verifier and `whole_dice`, read
    mirrored."""

    def __init__(self, path: str | Path, *, threads: int = 1, threshold: float = 0.35, mirror: bool = True) -> None:
        import onnxruntime as ort

        self.path = Path(path)
        self.threshold = threshold
        self.mirror = mirror
        if not self.path.is_file():
            raise ModelError(f"{self.path}: detector model is missing")
        options = ort.SessionOptions()
        options.intra_op_num_threads = int(threads)
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
            self.input_name = self.session.get_inputs()[0].name
            maps = self.session.run(None, {self.input_name: np.zeros((1, 3, 32, 32), np.float32)})[0]
        except Exception as exc:  # onnxruntime raises its own types; all mean "unusable file"
            raise ModelError(f"{self.path}: not a usable detector model ({str(exc).splitlines()[0][:200]})") from None
        if maps.ndim != 4 or maps.shape[1] != 5:
            raise ModelError(f"{self.path}: a detector gives [1, 5, h, w] maps, this one {list(maps.shape)}")

    @classmethod
    def load(cls, path: str | Path = DEFAULT_MODEL, *, threads: int = 1) -> Detector:
        return cls(path, threads=threads)

    def maps(self, frame: np.ndarray, width: float = WORK_WIDTH) -> tuple[np.ndarray, tuple[float, float]]:
        """(maps [5, gh, gw], (x, y) work scale) of a BGR frame read `width` pixels across: heat, box width and
        height, centre offsets."""
        h, w = frame.shape[:2]
        s = width / float(w)
        gw, gh = max(1, round(w * s / 8)) * 8, max(1, round(h * s / 8)) * 8  # whole cells at 1/8
        small = cv2.resize(frame, (gw, gh), interpolation=cv2.INTER_AREA)
        x = small.astype(np.float32).transpose(2, 0, 1)[None]
        maps = self.session.run(None, {self.input_name: x})[0][0]
        if self.mirror:
            mirrored = self.session.run(None, {self.input_name: np.ascontiguousarray(x[..., ::-1])})[0][0]
            mirrored = mirrored[:, :, ::-1].copy()
            mirrored[3] = 1.0 - mirrored[3]  # a centre's offset within its cell runs the other way
            maps = (maps + mirrored) / 2
        return maps, (gw / float(w), gh / float(h))

    def find(self, frame: np.ndarray) -> list[Blob]:
        """The dice in a BGR frame, as axis-aligned squares in full-frame pixels, in reading order; a frame with
        small dice, or none, is read again `FINE`r and its small dice added (`SMALL`)."""
        found, small = self.boxes(frame, WORK_WIDTH), small_side(frame)
        if not found or any(side < small for side, _, _ in found):
            found += self.small_boxes(frame)
        blobs = whole_dice(found)
        die = float(np.median([b.size for b in blobs])) if blobs else 1.0
        blobs.sort(key=lambda b: (round(b.center[1] / die), b.center[0]))
        return blobs

    def small_boxes(self, frame: np.ndarray) -> list[tuple[float, float, Blob]]:
        """`boxes` of the dice under `SMALL` in the frame read `FINE`r."""
        small = small_side(frame)
        return [f for f in self.boxes(frame, WORK_WIDTH * FINE) if f[0] < small]

    def boxes(self, frame: np.ndarray, width: float) -> list[tuple[float, float, Blob]]:
        """(side, heat, Blob) of every heat peak above the threshold, the frame read `width` pixels across."""
        maps, (sx, sy) = self.maps(frame, width)
        heat = maps[0]
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > self.threshold)
        h, w = frame.shape[:2]
        found = []
        for i, j in zip(*np.nonzero(peaks), strict=True):
            cx = (j + float(maps[3, i, j])) * STRIDE / sx
            cy = (i + float(maps[4, i, j])) * STRIDE / sy
            bw = max(0.1, float(maps[1, i, j])) * WH_UNIT * LABEL_SCALE / sx
            bh = max(0.1, float(maps[2, i, j])) * WH_UNIT * LABEL_SCALE / sy
            side = max(bw, bh)
            x0, y0, x1, y1 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
            partial = x0 < 0 or y0 < 0 or x1 > w or y1 > h
            box = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
            # the classifier cuts side * CROP_MARGIN; box crops were cut at BOX_MARGIN around the whole die
            found.append((side, float(heat[i, j]), Blob((cx, cy), side * BOX_MARGIN / CROP_MARGIN, 0.0, box, partial)))
        return found


def whole_dice(found: list[tuple[float, float, Blob]]) -> list[Blob]:
    """The boxes (side, heat, blob) that are not part of a larger one (`PART_OF`), the largest first and, among
    equals, the surest."""
    kept: list[Blob] = []
    for _, _, blob in sorted(found, key=lambda f: (-f[0], -f[1])):
        if not any(part_of(blob, die) for die in kept):
            kept.append(blob)
    return kept


def part_of(blob: Blob, die: Blob) -> bool:
    """Whether `blob`'s centre lies in the middle of `die`'s box (`PART_OF` of its width and height)."""
    (x0, y0), (x1, y1) = die.box[0], die.box[2]
    dx, dy = abs(blob.center[0] - die.center[0]), abs(blob.center[1] - die.center[1])
    return dx < PART_OF * (x1 - x0) and dy < PART_OF * (y1 - y0)


def load_detector(path: str | Path) -> Detector | None:
    """The model at `path`, or None when it is missing or unusable: then the classical segmenter finds the dice
    (a camera must never stop for a detector), and the log says why."""
    try:
        return Detector.load(path)
    except ModelError as exc:
        log.warning("dice detector unavailable, using the classical segmenter: %s", exc)
        return None


@functools.cache
def shipped_detector() -> Detector | None:
    """`load_detector` of the shipped model, loaded once: every pipeline shares its session."""
    return load_detector(DEFAULT_MODEL)
