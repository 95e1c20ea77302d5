"""Where frames come from: one `FrameSource` interface, a real camera and stand-ins, chosen by config.

Like gpiozero's pin factories, the code that uses frames never knows which camera it has::

    source = open_source({"kind": "synthetic", "dice": "d6", "seed": 1})
    with source:
        frame = source.read()          # Frame(image=BGR uint8, id=0, time=0.0)

Config keys per kind (unknown keys are an error, so a typo in the table's TOML is caught):

- ``{"kind": "picamera2", "width": 1280, "height": 720, "fps": 30, "settle_seconds": 2.0, "lens_position": None,
  "camera": 0}``: the Pi camera. Exposure, gain and colour gains are locked after `settle_seconds`; where the
  camera has autofocus the lens is set to `lens_position` (dioptres) or focused once and then held.
- ``{"kind": "opencv", "device": 0, "width": None, "height": None, "fps": None}``: a USB webcam (an index) or a
  video file (a path).
- ``{"kind": "replay", "path": "frames/", "fps": 10, "realtime": False, "loop": False}``: a folder of images
  (sorted by name) or a video file. Frame times are ``index / fps`` so a replay reads the same every run.
- ``{"kind": "synthetic", "dice": "d6", "seed": 0, "width": 640, "height": 480, "fps": 30, "realtime": False,
  "count": [1, 6], "rolling_frames": 8, "still_frames": 24, "touching": False, "rolls": None, "noise": 2.0,
  "die_px": None, "background": None, "palette": None}``: rendered tray scenes that roll, settle and roll
  again (`background` is a synth surface: felt, wood, paper, plastic; None picks one from the seed).

A read that fails raises `SourceError` (the pipeline reopens the source with backoff); a finite source that has
no more frames raises `EndOfStream`.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class SourceError(RuntimeError):
    """The camera failed or went away; reopening it may help."""


class EndOfStream(Exception):
    """A finite source (a replay, a video file, a synthetic run with a roll limit) has no more frames."""


@dataclass(frozen=True)
class Frame:
    """One image with its number and timestamp (seconds; see `DiceReading.time`)."""

    image: np.ndarray
    id: int
    time: float


class FrameSource(ABC):
    """A camera or a stand-in. `open()` may be called again after `close()` or a `SourceError`."""

    name = "source"

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def read(self, timeout: float = 3.0) -> Frame:
        """The next frame; raises `SourceError` if none comes within `timeout` seconds, `EndOfStream` at the end."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PiCamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2 (an apt package on Pi OS, imported only when opened).

    One capture thread owns the camera and keeps only the newest frame; `read()` waits for a frame newer than the
    last one it returned. Frames are RGB888, which picamera2 lays out as B, G, R: ready for OpenCV as they are.
    Exposure, analogue gain and colour gains are left automatic for `settle_seconds`, then locked at the values
    the camera reached, so the tray keeps one look all evening (the background model depends on it); no frame is
    handed out before that. Captures use ``flush=True`` so a frame never began before it was asked for.
    """

    name = "picamera2"

    def __init__(
        self,
        *,
        width: int = 1280,
        height: int = 720,
        fps: float = 30.0,
        settle_seconds: float = 2.0,
        lens_position: float | None = None,
        camera: int = 0,
    ) -> None:
        self.size = (int(width), int(height))
        self.fps = float(fps)
        self.settle_seconds = float(settle_seconds)
        self.lens_position = lens_position
        self.camera_num = int(camera)
        self.locked_controls: dict[str, Any] = {}
        self._cam: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._error: BaseException | None = None
        self._last_id = -1

    def open(self) -> None:
        self.close()
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError as exc:
            raise SourceError("picamera2 is not installed (on Pi OS: sudo apt install python3-picamera2)") from exc
        try:
            cam = picamera2.Picamera2(self.camera_num)
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                controls={"FrameRate": self.fps},
                buffer_count=4,
            )
            cam.configure(config)
            cam.start()
            self._focus(cam)
        except Exception as exc:  # libcamera raises plain RuntimeErrors for a missing or busy camera
            raise SourceError(f"cannot open the Pi camera {self.camera_num}: {exc}") from exc
        self._cam = cam
        self._frame, self._error, self._last_id = None, None, -1
        self._stop.clear()
        self._thread = threading.Thread(target=self._capture_loop, name="picamera2-capture", daemon=True)
        self._thread.start()

    def _focus(self, cam: Any) -> None:
        """Hold the lens still: a hunting autofocus would blur every roll. Fixed-focus cameras are left alone."""
        if "LensPosition" not in getattr(cam, "camera_controls", {}):
            return
        position = self.lens_position
        if position is None and hasattr(cam, "autofocus_cycle"):
            cam.autofocus_cycle()
            position = cam.capture_metadata().get("LensPosition")
        controls: dict[str, Any] = {"AfMode": 0}  # libcamera.controls.AfModeEnum.Manual
        if position is not None:
            controls["LensPosition"] = float(position)
        cam.set_controls(controls)

    def _capture_loop(self) -> None:
        cam, started, frame_id = self._cam, time.monotonic(), 0
        try:
            while not self._stop.is_set():
                request = cam.capture_request(flush=True)
                try:
                    image = request.make_array("main")
                    metadata = request.get_metadata()
                finally:
                    request.release()
                if not self.locked_controls:
                    if time.monotonic() - started < self.settle_seconds:
                        continue
                    self.locked_controls = {
                        "AeEnable": False,
                        "AwbEnable": False,
                        "ExposureTime": int(metadata["ExposureTime"]),
                        "AnalogueGain": float(metadata["AnalogueGain"]),
                        "ColourGains": tuple(float(g) for g in metadata["ColourGains"]),
                    }
                    cam.set_controls(self.locked_controls)
                    log.info("camera controls locked: %s", self.locked_controls)
                with self._cond:
                    self._frame = Frame(np.ascontiguousarray(image[:, :, :3]), frame_id, time.time())
                    self._cond.notify_all()
                frame_id += 1
        except Exception as exc:
            with self._cond:
                self._error = exc
                self._cond.notify_all()

    def read(self, timeout: float = 3.0) -> Frame:
        if self._cam is None:
            raise SourceError("the Pi camera is not open")
        if not self.locked_controls:
            timeout += self.settle_seconds
        with self._cond:
            ready = self._cond.wait_for(
                lambda: self._error is not None or (self._frame is not None and self._frame.id > self._last_id),
                timeout,
            )
            if self._error is not None:
                raise SourceError(f"Pi camera failed: {self._error}")
            if not ready or self._frame is None:
                raise SourceError(f"no frame from the Pi camera within {timeout:.1f} s")
            self._last_id = self._frame.id
            return self._frame

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if self._cam is not None:
            for step in ("stop", "close"):
                try:
                    getattr(self._cam, step)()
                except Exception as exc:  # a camera that vanished cannot be stopped cleanly; nothing to do
                    log.debug("picamera2 %s failed: %s", step, exc)
            self._cam = None
        self.locked_controls = {}


class OpenCVSource(FrameSource):
    """A USB webcam (`device` is an index such as 0) or a video file (`device` is a path), through OpenCV."""

    name = "opencv"

    def __init__(
        self, *, device: int | str = 0, width: int | None = None, height: int | None = None, fps: float | None = None
    ) -> None:
        self.device = device
        self.width, self.height, self.fps = width, height, fps
        self._cap: cv2.VideoCapture | None = None
        self._id = 0
        self._is_file = isinstance(device, str) and not device.isdigit()

    def open(self) -> None:
        self.close()
        device = int(self.device) if isinstance(self.device, str) and self.device.isdigit() else self.device
        cap = cv2.VideoCapture(device)
        if not cap.isOpened():
            raise SourceError(f"cannot open camera or video {self.device!r}")
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        for prop, value in ((cv2.CAP_PROP_FRAME_WIDTH, self.width), (cv2.CAP_PROP_FRAME_HEIGHT, self.height),
                            (cv2.CAP_PROP_FPS, self.fps)):
            if value:
                cap.set(prop, value)
        self._cap = cap

    def read(self, timeout: float = 3.0) -> Frame:
        if self._cap is None:
            raise SourceError(f"camera {self.device!r} is not open")
        ok, image = self._cap.read()
        if not ok or image is None:
            if self._is_file:
                raise EndOfStream(str(self.device))
            raise SourceError(f"camera {self.device!r} gave no frame (unplugged?)")
        frame = Frame(image, self._id, time.time())
        self._id += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ReplaySource(FrameSource):
    """Recorded frames: a folder of images (sorted by name) or a video file, at real speed or as fast as read.

    Frame times are ``index / fps`` whatever the speed, so the settle detector, and therefore the readings, are
    the same on every run. Unreadable images are skipped with a warning.
    """

    name = "replay"

    def __init__(self, *, path: str | Path, fps: float = 10.0, realtime: bool = False, loop: bool = False) -> None:
        self.path = Path(path)
        self.fps = float(fps)
        self.realtime = realtime
        self.loop = loop
        self._files: list[Path] = []
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._id = 0
        self._started = 0.0

    def open(self) -> None:
        self.close()
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise SourceError(f"no images in {self.path}")
        elif self.path.is_file():
            self._cap = cv2.VideoCapture(str(self.path))
            if not self._cap.isOpened():
                raise SourceError(f"cannot read video {self.path}")
        else:
            raise SourceError(f"replay path {self.path} does not exist")
        self._index = 0
        self._started = time.monotonic() - self._id / self.fps

    def _next_image(self) -> np.ndarray:
        if self._cap is not None:
            ok, image = self._cap.read()
            if not ok and self.loop:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, image = self._cap.read()
            if not ok:
                raise EndOfStream(str(self.path))
            return image
        while True:
            if self._index >= len(self._files):
                if not self.loop:
                    raise EndOfStream(str(self.path))
                self._index = 0
            file = self._files[self._index]
            self._index += 1
            image = cv2.imread(str(file), cv2.IMREAD_COLOR)
            if image is not None:
                return image
            log.warning("skipping unreadable image %s", file)

    def read(self, timeout: float = 3.0) -> Frame:
        if self._cap is None and not self._files:
            raise SourceError(f"replay {self.path} is not open")
        image = self._next_image()
        t = self._id / self.fps
        if self.realtime:
            delay = self._started + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:  # behind (a slow render or reader): keep the pace from now on, as a camera does, not a burst
                self._started -= delay
        frame = Frame(image, self._id, t)
        self._id += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        self._files = []


RollHook = Callable[[int, np.random.Generator], Sequence[str]]


TILT = 0.15  # the synthetic camera's parallax (vision.synth.render_scene `tilt`): a lens above the tray's centre


class SyntheticSource(FrameSource):
    """Rendered tray scenes (`vision.synth`) that behave like a table: dice roll, settle, and roll again.

    One tray, one light and one set of dice for the whole run, as a real camera would see them. Each roll is
    `rolling_frames` frames of dice tumbling (a fresh layout every frame) followed by `still_frames` frames of one
    layout: the result. Everything is drawn from one seeded generator, so a seed gives the same frames every run.
    The next result comes from `roll()` if a caller queued one, else from `next_roll` (``hook(roll_index, rng) ->
    labels``), else random faces of a random number of dice within `count`. `scene` (a `vision.synth.Scene`)
    is the truth of the current still phase, for tests and the demo; `rested` is (frame id, `time.monotonic()` when
    it was handed out) of the frame in which its dice came to rest (the roll's frame `rolling_frames`), from which
    `bench/latency.py` times the reading's way to the screens.
    """

    name = "synthetic"

    def __init__(
        self,
        *,
        dice: str = "d6",
        seed: int = 0,
        width: int = 640,
        height: int = 480,
        fps: float = 30.0,
        realtime: bool = False,
        count: Sequence[int] = (1, 6),
        rolling_frames: int = 8,
        still_frames: int = 24,
        touching: bool = False,
        rolls: int | None = None,
        noise: float = 2.0,
        die_px: float | None = None,
        background: str | None = None,
        palette: str | None = None,
        next_roll: RollHook | None = None,
        hold: bool = False,
    ) -> None:
        self.dice_set = dice
        self.labels = _synth().get_dice_set(dice).labels  # raises UnknownDiceSet naming the known sets
        self.seed = seed
        self.size = (int(width), int(height))
        self.fps = float(fps)
        self.realtime = realtime
        self.count = (int(count[0]), int(count[1]))
        self.rolling_frames = int(rolling_frames)
        self.still_frames = int(still_frames)
        self.touching = touching
        self.rolls = rolls
        self.noise = float(noise)
        self.next_roll = next_roll
        self.hold = hold
        self._queued: deque[list[str]] = deque()
        self._lock = threading.Lock()
        rng = np.random.default_rng(seed)
        from vision.synth.backgrounds import make_background
        from vision.synth.effects import light_field, sample_lighting

        w, h = self.size
        self._light = sample_lighting(rng, noise=0.0, blur=0.0, jpeg=0, gradient=float(rng.uniform(0, 0.15)))
        self._field = light_field(self._light, h, w)
        self._background = make_background(background, h, w, rng)
        self.die_px = float(die_px) if die_px else float(rng.uniform(30, 42)) * min(w, h) / 480
        ds = _synth().get_dice_set(dice)
        self.palette = palette or ds.palettes[int(rng.integers(len(ds.palettes)))]
        self._base_rng_state = rng.bit_generator.state
        self._reset()

    def _reset(self) -> None:
        self._rng = np.random.default_rng()
        self._rng.bit_generator.state = self._base_rng_state
        self._id = 0
        self._phase_frame = 0
        self._roll_labels: list[str] = []
        self._still_image: np.ndarray | None = None
        self._noise: list[np.ndarray] = []
        self._started = time.monotonic()
        self.roll_index = -1
        self.scene: Any = None
        self.rested: tuple[int, float] | None = None

    def roll(self, labels: Sequence[str]) -> None:
        """Queue the faces of a coming roll (the demo and tests decide what the dice show)."""
        unknown = [x for x in labels if x not in self.labels]
        if unknown:
            raise ValueError(f"labels {unknown} are not faces of {self.dice_set}: {list(self.labels)}")
        with self._lock:
            self._queued.append(list(labels))

    def empty_frame(self) -> np.ndarray:
        """The tray with no dice, as calibration would see it (with this frame's own sensor noise)."""
        return self._add_noise(np.clip(self._background * self._field, 0, 255).astype(np.uint8), fresh=True)

    def open(self) -> None:
        pass

    def _render(self, labels: list[str], rng: np.random.Generator) -> Any:
        """One layout of `labels` on this camera's tray, light and dice colour, drawn by `vision.synth`."""
        w, h = self.size
        return _synth().render_scene(labels, self.dice_set, rng, w, h, touching=self.touching and len(labels) >= 2,
                                     die_px=self.die_px, tilt=TILT, lighting=self._light, palette=self.palette,
                                     surface=self._background)

    def _next_labels(self) -> list[str]:
        with self._lock:
            if self._queued:
                return self._queued.popleft()
        if self.next_roll is not None:
            return list(self.next_roll(self.roll_index, self._rng))
        n = int(self._rng.integers(self.count[0], self.count[1] + 1))
        return [self.labels[i] for i in self._rng.integers(0, len(self.labels), n)]

    def _add_noise(self, image: np.ndarray, fresh: bool = False) -> np.ndarray:
        """Sensor noise: a few fixed noise fields cycled (cheap, and still deterministic)."""
        if self.noise <= 0:
            return image
        if fresh:
            noise = np.random.default_rng(self.seed + 1).normal(0, self.noise, image.shape)
            return np.clip(image + noise, 0, 255).astype(np.uint8)
        if not self._noise or self._noise[0].shape != image.shape:
            noise_rng = np.random.default_rng(self.seed + 2)
            self._noise = [noise_rng.normal(0, self.noise, image.shape).astype(np.int16) for _ in range(4)]
        return np.clip(image.astype(np.int16) + self._noise[self._id % 4], 0, 255).astype(np.uint8)

    def _waiting(self) -> bool:
        """With `hold`, the tray stays as it is until someone queues the next roll (the demo's bots)."""
        with self._lock:
            return self.hold and not self._queued

    def read(self, timeout: float = 3.0) -> Frame:
        cycle = self.rolling_frames + self.still_frames
        if self._phase_frame % cycle == 0 and self._waiting():
            if self.roll_index < 0:  # nothing rolled yet: the empty tray
                return self._frame(np.clip(self._background * self._field, 0, 255).astype(np.uint8))
            self._phase_frame = self.rolling_frames  # the last result keeps lying there
        if self._phase_frame % cycle == 0:
            if self.rolls is not None and self.roll_index + 1 >= self.rolls:
                raise EndOfStream(f"synthetic source finished {self.rolls} rolls")
            self.roll_index += 1
            self._roll_labels = self._next_labels()
            self._still_image = None
            self._phase_frame = 0
        if self._phase_frame < self.rolling_frames:
            image = self._render(self._roll_labels, self._rng).image
        else:
            if self._still_image is None:
                self.scene = self._render(self._roll_labels, self._rng)
                self._still_image = self.scene.image
                self._phase_frame += 1
                frame = self._frame(self._still_image)
                self.rested = (frame.id, time.monotonic())
                return frame
            image = self._still_image
        self._phase_frame += 1
        return self._frame(image)

    def _frame(self, image: np.ndarray) -> Frame:
        t = self._id / self.fps
        if self.realtime:
            delay = self._started + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:  # behind (a slow render or reader): keep the pace from now on, as a camera does, not a burst
                self._started -= delay
        frame = Frame(self._add_noise(image), self._id, t)
        self._id += 1
        return frame

    def close(self) -> None:
        pass


def _synth() -> Any:
    return importlib.import_module("vision.synth")


SOURCES: dict[str, type[FrameSource]] = {
    "picamera2": PiCamera2Source,
    "opencv": OpenCVSource,
    "replay": ReplaySource,
    "synthetic": SyntheticSource,
}


def open_source(spec: dict[str, Any]) -> FrameSource:
    """Build (not yet open) the source a config asks for; see the module docstring for the keys of each kind.

    Raises ValueError naming the kind or key that is wrong, and what would be right.
    """
    spec = dict(spec)
    kind = spec.pop("kind", None)
    if kind not in SOURCES:
        raise ValueError(f"camera kind {kind!r} is unknown; use one of {', '.join(SOURCES)}")
    if "count" in spec:
        spec["count"] = tuple(spec["count"])
    try:
        return SOURCES[kind](**spec)
    except TypeError as exc:  # an unknown or missing keyword: say which, not a traceback
        raise ValueError(f"camera kind {kind!r}: {exc}") from None
