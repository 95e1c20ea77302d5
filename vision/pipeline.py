"""Camera to dice readings: source -> settle -> segment -> classify -> `DiceReading`, in one background thread.

    pipeline = Pipeline.from_config({"camera": {"kind": "synthetic", "dice": "d6"}, "dice": "d6"},
                                    on_reading=lambda reading, image: print(reading), on_status=print)
    pipeline.start()
    ...
    jpeg = pipeline.latest_jpeg()      # newest frame with boxes, for the dashboard's MJPEG stream
    pipeline.use(Classifier.load(default_model("chariot_race")))   # another game's dice, from the next frame on
    pipeline.stop()

Callbacks run on the pipeline's thread and should hand work off quickly. A reading comes with the image of the
frame it was read from (the dice as the classifier saw them). A camera that fails is closed and reopened with
growing pauses; the pipeline says `CameraState.LOST` once and `CameraState.BACK` when frames flow again, and
never dies of a bad frame. Segmentation and classification run only while the dice settle (the vote) and for
`detect`; a tray at rest costs one small motion check per frame.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.camera_state import CameraState
from vision.classify import Classifier, Prediction
from vision.colour import FrameColour
from vision.detector import Detector, load_detector, shipped_detector
from vision.enrol import taught_classifier
from vision.overlay import draw, to_jpeg
from vision.reading import DiceReading, DieReading
from vision.segment import Blob, SegmentConfig, Segmenter, crops
from vision.settle import ROLLING, SETTLED, SETTLING, STILL, SettleConfig, SettleDetector, Vote, compare
from vision.sources import EndOfStream, Frame, FrameSource, open_source
from vision.tray import Tray
from vision.verify import Verifier, load_verifier, shipped_verifier

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
SECOND_LOOK = 0.9  # a detected die read less surely than this is cut again at other sizes (`second_look`)
SECOND_LOOK_SCALES = (1.0, 0.9, 1.1, 1.2)  # of the detector's side


def default_model(dice_set: str) -> Path:
    """The shipped card for a dice set: ``models/<set>.json`` in the repository."""
    return MODELS_DIR / f"{dice_set}.json"


@dataclass(frozen=True)
class StatusEvent:
    """Something the dashboard may show: what the camera does now (`message` says why for lost and error)."""

    kind: CameraState
    message: str = ""
    time: float = 0.0


def _die(blob: Blob, pred: Prediction) -> DieReading:
    return DieReading(pred.label, pred.confidence, pred.runner_up, blob.box, blob.center, blob.partial)


def second_look(image: np.ndarray, blobs: list[Blob], preds: list[Prediction],
                classifier: Classifier) -> list[Prediction]:
    """The detector regresses a die's side and misses it by up to a sixth, while the classifier learnt dice cut
    around their label boxes: a die it is unsure of (below `SECOND_LOOK`) is cut again at its size, tighter and
    wider, each cut read in its 4 quarter turns with their logits averaged (a face reads the same turned, so the
    turns disagree only where the model is unsure; a card whose test-time views turn every crop reads them so
    already), and the surest of those cuts replaces the first reading only if
    it is at least as sure as `SECOND_LOOK`. Chosen on the validation photos and surfaces: the doubtful dice of
    6-dice photos were crop problems, and no die a second look made sure was misread there (a lower bar of 0.8 let
    one through); one more classifier call, and only for the dice in doubt."""
    doubtful = [k for k, p in enumerate(preds) if p.confidence < SECOND_LOOK]
    if not doubtful:
        return preds
    n = len(SECOND_LOOK_SCALES)
    views = [replace(blobs[k], size=blobs[k].size * s) for k in doubtful for s in SECOND_LOOK_SCALES]
    cut = crops(image, views, classifier.input_size)
    turns = 4 if classifier.card.input.tta == "none" else 1  # a card with test-time views reads them turned already
    turned = [np.ascontiguousarray(np.rot90(c, q)) for q in range(turns) for c in cut]
    again = classifier.predictions(classifier.logits(turned).reshape(turns, len(cut), -1).mean(axis=0))
    out = list(preds)
    for i, k in enumerate(doubtful):
        best = max(again[i * n:(i + 1) * n], key=lambda p: p.confidence)
        if best.confidence >= SECOND_LOOK:
            out[k] = best
    return out


def frame_colour(classifier: Classifier) -> FrameColour | None:
    """The frame step for the classifier's dice set (`vision.colour`): white and light grey dice decided by the
    frame's light, for sets with such brightness pairs (Cubitos, Automobiles); None for the others."""
    card = getattr(classifier, "card", None)
    if card is None:
        return None
    try:
        return FrameColour.for_dice_set(card.dice_set)
    except KeyError:  # a set the renderer's registry does not know (a table's own model): no colours to go by
        return None


def _dataclass_from(cls: type, values: dict[str, Any] | None, where: str) -> Any:
    values = dict(values or {})
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; known: {sorted(known)}")
    for key, value in values.items():
        if isinstance(value, list):
            values[key] = tuple(value)
    return cls(**values)


class Pipeline:
    """Turns frames into readings. Construct with a source and classifier, or from a config via `from_config`.
    Without a classifier it only finds dice (`find`: teach-your-dice cuts its photos as the camera does)."""

    def __init__(
        self,
        source: FrameSource | None,
        classifier: Classifier | None,
        *,
        tray: Tray | None = None,
        settle: SettleConfig | None = None,
        segment: SegmentConfig | None = None,
        detector: Detector | str | Path | None = "shipped",
        verifier: Verifier | str | Path | None = "shipped",
        on_reading: Callable[[DiceReading, np.ndarray], None] | None = None,
        on_status: Callable[[StatusEvent], None] | None = None,
        backoff: tuple[float, float] = (0.5, 10.0),
        jpeg_quality: int = 80,
    ) -> None:
        self.source = source
        self.classifier = classifier
        self.colour = frame_colour(classifier)  # the frame step of the classifier's dice set, if it has one
        self.tray = tray
        self.segmenter = Segmenter(tray, segment)
        # the learned detector finds the dice when its model loads (a calibrated tray then checks them, `find`); the
        # classical segmenter is the fallback for a missing or corrupt model
        if detector == "shipped":
            detector = shipped_detector()
        elif isinstance(detector, (str, Path)):
            detector = load_detector(detector)
        self.detector = detector
        # the die verifier takes a second look at each box the detector finds (`vision.verify`); without its model
        # every box is taken
        if verifier == "shipped":
            verifier = shipped_verifier()
        elif isinstance(verifier, (str, Path)):
            verifier = load_verifier(verifier)
        self.verifier = verifier
        self.settle = SettleDetector(settle)
        self.vote = Vote()
        self.on_reading = on_reading
        self.on_status = on_status
        self.backoff = backoff
        self.jpeg_quality = jpeg_quality
        self.last_reading: DiceReading | None = None
        self.frames = 0
        self.fps = 0.0
        self.camera_ok = False
        self._state = CameraState.STOPPED
        self._lock = threading.Lock()
        self._switched = False
        self._latest: tuple[np.ndarray, int, list, str] | None = None
        self._jpeg: tuple[tuple, bytes] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.finished = threading.Event()

    @classmethod
    def from_config(cls, config: dict[str, Any], **callbacks: Any) -> Pipeline:
        """Build everything from one dict (a table's ``[vision]`` TOML section)::

            {"camera": {"kind": "picamera2", ...},   # see vision.sources for the keys of each kind
             "dice": "d6",                            # picks models/<dice>.json unless "model" is given
             "model": None, "threads": 1,             # card or .onnx path; onnxruntime intra-op threads
             "enrolment": None,                       # a table's taught dice (vision.enrol), used if the file exists
             "tray": "/var/lib/companion/tray",       # calibration dir; absent = automatic background
             "settle": {"still_seconds": 0.4, ...},   # SettleConfig fields
             "segment": {"die_px": None, ...},        # SegmentConfig fields
             "detector": "shipped",                   # learned detector .onnx for automatic mode; None: classical
             "verifier": "shipped"}                   # die verifier card (.json) for the detector's boxes; None: off

        `callbacks` are passed on (on_reading, on_status). Raises ValueError (ModelError, TrayError) with the
        file or key that is wrong.
        """
        known = {"camera", "dice", "model", "threads", "enrolment", "tray", "settle", "segment", "detector", "verifier"}
        unknown = sorted(set(config) - known)
        if unknown:
            raise ValueError(f"vision config: unknown key(s) {unknown}; known: {sorted(known)}")
        source = open_source(config["camera"]) if config.get("camera") else None
        model = config.get("model") or default_model(config.get("dice", "d6"))
        classifier = taught_classifier(model, config.get("enrolment"), threads=config.get("threads", 1))
        tray = Tray.load(config["tray"]) if config.get("tray") else None
        return cls(
            source,
            classifier,
            tray=tray,
            settle=_dataclass_from(SettleConfig, config.get("settle"), "vision config [settle]"),
            segment=_dataclass_from(SegmentConfig, config.get("segment"), "vision config [segment]"),
            detector=config.get("detector", "shipped"),
            verifier=config.get("verifier", "shipped"),
            **callbacks,
        )

    def use(self, classifier: Classifier, source: FrameSource | None = None) -> None:
        """Read another dice set (a new game's) from the next frame on, with `source` instead of the current one
        if given (a synthetic tray renders one set's dice).

        Safe while the thread runs: the switch happens between frames. The settle state is kept, so dice lying
        still are not read again as a fresh roll; the votes and the last reading, made of the other set's faces,
        are dropped, and a reading of a frame classified before the switch is never given out.
        """
        colour = frame_colour(classifier)
        with self._lock:
            self.classifier, self.colour = classifier, colour
            if source is not None:
                self.source = source
            self._switched = True

    # -- one frame -----------------------------------------------------------------------------------------

    def find(self, image: np.ndarray) -> list[Blob]:
        """The dice in a frame: the detector's if there is one, else the segmenter's. A detector that fails on a
        frame is dropped for good (logged once) and the segmenter takes over: the camera never dies of a model.

        A calibrated tray keeps only the detector's dice that lie on it and differ from it (`Tray.shows_something`)
        rather than having the segmenter find them: on the validation surfaces the detector with that check read
        65 % (d6) and 83 % (chariot race) of rolls right with no tap, the segmenter on the learned tray 48 % and
        62 % (it found 67-72 % of the dice, the detector 96-98 %).

        The verifier then keeps the detector's boxes that hold a die (`vision.verify`: not a token, a coin or a
        pip); one that fails is dropped for good (logged once) and every box is taken."""
        if self.detector is not None:
            try:
                blobs = self.detector.find(image)
            except Exception:
                log.exception("the dice detector failed; the classical segmenter takes over")
                self.detector = None
            else:
                if self.tray is not None and self.tray.fits(image):
                    blobs = [b for b in blobs if self.tray.shows_something(image, b.center, b.size)]
                return self._verified(image, blobs)
        return self.segmenter.find(image)

    def _verified(self, image: np.ndarray, blobs: list[Blob]) -> list[Blob]:
        if self.verifier is None:
            return blobs
        try:
            return self.verifier.keep(image, blobs)
        except Exception:
            log.exception("the die verifier failed; every box the detector finds is taken")
            self.verifier = None
            return blobs

    def _classified(self, image: np.ndarray, classifier: Classifier,
                    colour: FrameColour | None) -> list[tuple[Blob, Prediction]]:
        blobs = self.find(image)
        preds = classifier.classify(crops(image, blobs, classifier.input_size))
        if self.detector is not None:
            preds = second_look(image, blobs, preds, classifier)
        if colour is not None:
            preds = colour.reread(image, [(b.center, b.size, b.angle) for b in blobs], preds, classifier.labels)
        return list(zip(blobs, preds, strict=True))

    def detect(self, image: np.ndarray) -> list[DieReading]:
        """Segment and classify one image, no settling or voting (the `detect` command, benchmarks)."""
        return [_die(b, p) for b, p in self._classified(image, self.classifier, self.colour)]

    def process(self, frame: Frame | np.ndarray) -> DiceReading | None:
        """Feed one frame through settle (and, while settling, segment + classify); returns a reading when the
        dice have come to rest with a result different from the last one. Synchronous: tests and CLI use it."""
        if not isinstance(frame, Frame):
            frame = Frame(frame, self.frames, float(self.frames))
        self.frames += 1
        with self._lock:
            classifier, colour, switched, self._switched = self.classifier, self.colour, self._switched, False
        if switched:
            self.vote.reset()
            self.last_reading = None
        previous_state = self.settle.state
        state = self.settle.update(frame.image, frame.time)
        shown: list = []
        reading = None
        if state == ROLLING:
            self.vote.reset()
        elif state in (SETTLING, SETTLED):
            found = self._classified(frame.image, classifier, colour)
            self.vote.add(found)
            shown = [_die(b, p) for b, p in found]
            if state == SETTLED and classifier is self.classifier:
                reading = self._settled(frame)
        if state == STILL or (state == SETTLED and self.last_reading is not None):
            shown = list(self.last_reading.dice) if self.last_reading else []
        with self._lock:
            self._latest = (frame.image, frame.id, shown, state)
        if state != previous_state and state in (ROLLING, STILL):
            self._status(CameraState(state))
        return reading

    def _settled(self, frame: Frame) -> DiceReading | None:
        dice = self.vote.result()
        previous = list(self.last_reading.dice) if self.last_reading else None
        verdict = compare(previous, dice)
        if verdict == "same":
            return None
        reading = DiceReading(frame_id=frame.id, time=frame.time, change=verdict == "change", dice=tuple(dice))
        self.last_reading = reading
        if self.on_reading is not None:
            try:
                self.on_reading(reading, frame.image)
            except Exception:  # a consumer's bug must not stop the camera
                log.exception("on_reading callback failed")
        return reading

    # -- background thread ---------------------------------------------------------------------------------

    @property
    def status(self) -> dict[str, Any]:
        """A snapshot for the dashboard: state, whether frames flow, frames, fps, last reading's frame id."""
        return {
            "state": self._state,
            "camera_ok": self.camera_ok,
            "frames": self.frames,
            "fps": round(self.fps, 1),
            "last_reading": self.last_reading.frame_id if self.last_reading else None,
        }

    def _status(self, kind: CameraState, message: str = "") -> None:
        self._state = kind
        if self.on_status is not None:
            try:
                self.on_status(StatusEvent(kind, message, time.time()))
            except Exception:
                log.exception("on_status callback failed")

    @property
    def running(self) -> bool:
        """The thread reads frames (started and neither stopped nor at the end of a finite source)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.source is None:
            raise ValueError("this pipeline has no camera source; give one or call process() yourself")
        if self._thread is not None:
            return
        self._stop.clear()
        self.finished.clear()
        self._thread = threading.Thread(target=self._run, name="vision-pipeline", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        source = self.source
        assert source is not None
        delay, lost, opened = self.backoff[0], False, False
        self._status(CameraState.STARTING)
        last_tick, count = time.monotonic(), 0
        try:
            while not self._stop.is_set():
                if self.source is not source:  # `use` gave another source: it takes over between frames
                    self._close(source)
                    source, opened, delay = self.source, False, self.backoff[0]
                if not opened:
                    try:
                        source.open()
                        opened = True
                    except Exception as exc:
                        lost = self._lost(lost, exc)
                        self._stop.wait(delay)
                        delay = min(delay * 2, self.backoff[1])
                        continue
                try:
                    frame = source.read()
                except EndOfStream:
                    self._status(CameraState.ENDED)
                    break
                except Exception as exc:
                    lost = self._lost(lost, exc)
                    self._close(source)
                    opened = False
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                if lost:
                    lost = False
                    self._status(CameraState.BACK)
                self.camera_ok, delay = True, self.backoff[0]
                try:
                    self.process(frame)
                except Exception as exc:  # a frame that breaks a stage is skipped, not fatal
                    log.exception("frame %s failed", frame.id)
                    self._status(CameraState.ERROR, str(exc))
                count += 1
                now = time.monotonic()
                if now - last_tick >= 1.0:
                    self.fps, last_tick, count = count / (now - last_tick), now, 0
        finally:
            self._close(source)
            self.camera_ok = False
            self._status(CameraState.STOPPED)
            self.finished.set()

    def _lost(self, already: bool, exc: BaseException) -> bool:
        self.camera_ok = False
        if not already:
            log.warning("camera lost: %s", exc)
            self._status(CameraState.LOST, str(exc))
        return True

    @staticmethod
    def _close(source: FrameSource) -> None:
        try:
            source.close()
        except Exception as exc:  # closing a vanished device may fail; it is gone either way
            log.debug("closing source failed: %s", exc)

    # -- view ----------------------------------------------------------------------------------------------

    def latest_image(self, *, newer_than: int = -1, timeout: float = 3.0) -> tuple[int, np.ndarray] | None:
        """The newest raw frame (no overlay) and its id, waiting up to `timeout` seconds for one newer than
        `newer_than`; None if none came. Calibration learns the empty tray from these."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                latest = self._latest
            if latest is not None and latest[1] > newer_than:
                return latest[1], latest[0]
            if time.monotonic() >= deadline:
                return None
            self._stop.wait(0.02)

    def latest_jpeg(self) -> bytes | None:
        """The newest frame with boxes and status drawn, JPEG-encoded; encoded once per frame, on demand."""
        with self._lock:
            latest = self._latest
            cached = self._jpeg
        if latest is None:
            return None
        if cached is not None and cached[0] is latest:  # the same frame (ids start again with another source)
            return cached[1]
        image, _, dice, state = latest
        label = f"camera {CameraState.LOST}" if self._state is CameraState.LOST else state
        jpeg = to_jpeg(draw(image, dice, status=label), self.jpeg_quality)
        with self._lock:
            self._jpeg = (latest, jpeg)
        return jpeg
