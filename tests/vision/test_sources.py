"""Frame sources: chosen by config, the Pi camera driven through a fake picamera2, replays and synthetic rolls."""

from __future__ import annotations

import sys
import threading
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import (
    EndOfStream,
    OpenCVSource,
    PiCamera2Source,
    ReplaySource,
    SourceError,
    SyntheticSource,
    open_source,
)


class FakeRequest:
    def __init__(self, cam: FakePicamera2) -> None:
        self.cam = cam

    def make_array(self, name: str) -> np.ndarray:
        assert name == "main"
        return np.full((48, 64, 3), self.cam.captures % 250, np.uint8)

    def get_metadata(self) -> dict:
        return {"ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.5, 1.7), "LensPosition": 3.2}

    def release(self) -> None:
        self.cam.released += 1


class FakePicamera2:
    """Just enough of picamera2.Picamera2; it fails after `fail_after` captures when set."""

    instances: list[FakePicamera2] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_controls = {"LensPosition": (0.0, 15.0, 1.0), "AfMode": (0, 2, 0)}
        self.controls_set: list[dict] = []
        self.captures = 0
        self.released = 0
        self.flushes: list = []
        self.fail_after: int | None = None
        self.closed = False
        self.config = None
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, controls, buffer_count):
        return {"main": main, "controls": controls, "buffer_count": buffer_count}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def autofocus_cycle(self) -> bool:
        return True

    def capture_metadata(self) -> dict:
        return {"LensPosition": 3.2}

    def set_controls(self, controls: dict) -> None:
        self.controls_set.append(dict(controls))

    def capture_request(self, flush=None):
        self.flushes.append(flush)
        self.captures += 1
        if self.fail_after is not None and self.captures > self.fail_after:
            raise RuntimeError("camera timed out")
        return FakeRequest(self)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    return FakePicamera2


def test_the_pi_camera_locks_exposure_and_focus_then_hands_out_frames(fake_picamera2):
    source = open_source({"kind": "picamera2", "width": 64, "height": 48, "settle_seconds": 0.0})
    assert isinstance(source, PiCamera2Source)
    with source:
        first, second = source.read(), source.read()
        cam = fake_picamera2.instances[0]
        assert cam.config["main"] == {"size": (64, 48), "format": "RGB888"}
        assert first.image.shape == (48, 64, 3) and second.id > first.id
        assert {"AfMode": 0, "LensPosition": 3.2} in cam.controls_set
        locked = next(c for c in cam.controls_set if "AeEnable" in c)
        assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000, "AnalogueGain": 2.0,
                          "ColourGains": (1.5, 1.7)}
        assert set(cam.flushes) == {True} and cam.released >= 2
    assert cam.closed


def test_a_failing_pi_camera_raises_source_error(fake_picamera2):
    source = PiCamera2Source(width=64, height=48, settle_seconds=0.0, lens_position=1.0)
    source.open()
    try:
        fake_picamera2.instances[0].fail_after = 0
        with pytest.raises(SourceError, match="timed out"):
            for _ in range(1000):  # the capture thread may have a frame or two ready first
                source.read(timeout=2)
    finally:
        source.close()


def test_without_picamera2_the_pi_camera_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="apt install python3-picamera2"):
        PiCamera2Source().open()


def test_config_errors_name_the_kind_or_key():
    with pytest.raises(ValueError, match="camera kind 'webcam' is unknown"):
        open_source({"kind": "webcam"})
    with pytest.raises(ValueError, match="devise"):
        open_source({"kind": "opencv", "devise": 0})
    assert isinstance(open_source({"kind": "opencv", "device": "/dev/video9"}), OpenCVSource)


def test_a_missing_usb_camera_is_a_source_error():
    with pytest.raises(SourceError):
        OpenCVSource(device="/nonexistent/video.mp4").open()


def test_replay_reads_a_folder_in_order_with_frame_times(tmp_path: Path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((8, 8, 3), i * 50, np.uint8))
    (tmp_path / "broken.png").write_bytes(b"not a png")
    with ReplaySource(path=tmp_path, fps=5) as source:
        frames = [source.read() for _ in range(3)]
        with pytest.raises(EndOfStream):
            source.read()
    assert [f.time for f in frames] == [0.0, 0.2, 0.4]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]


def test_replay_of_a_missing_folder_is_a_source_error(tmp_path: Path):
    with pytest.raises(SourceError, match="does not exist"):
        ReplaySource(path=tmp_path / "nope").open()


def test_synthetic_rolls_are_deterministic_and_follow_the_hook():
    def frames(**kw):
        source = SyntheticSource(seed=11, rolling_frames=2, still_frames=3, rolls=2, **kw)
        out = []
        with source:
            try:
                while True:
                    out.append(source.read().image)
            except EndOfStream:
                return out, source

    a, _ = frames()
    b, _ = frames()
    assert len(a) == 10 and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert np.array_equal(a[2], a[3]) or np.abs(a[2].astype(int) - a[3]).max() < 20  # still: only sensor noise
    asked = []
    _, source = frames(next_roll=lambda i, rng: asked.append(i) or ["6", "6"])
    assert asked == [0, 1] and [d.label for d in source.scene.dice] == ["6", "6"]


def test_a_queued_roll_decides_the_faces():
    source = SyntheticSource(seed=2, rolling_frames=1, still_frames=1)
    source.roll(["1", "2", "3"])
    source.read(), source.read()
    assert [d.label for d in source.scene.dice] == ["1", "2", "3"]
    with pytest.raises(ValueError, match="not faces of d6"):
        source.roll(["7"])


def test_the_synthetic_camera_says_the_frame_its_dice_came_to_rest_in():
    source = SyntheticSource(seed=3, rolling_frames=4, still_frames=3, rolls=2)
    rests = []
    with source:
        for _ in range(14):
            frame = source.read()
            if source.rested is not None and source.rested[0] == frame.id:
                rests.append(frame.id)
    assert rests == [4, 11]  # each roll's frame `rolling_frames`: the first of its still layout


def test_the_synthetic_camera_draws_its_dice_with_vision_synth():
    """One renderer: the camera's scenes are `render_scene`'s, whole silhouettes and all, on its one tray."""
    source = SyntheticSource(seed=5, rolling_frames=1, still_frames=2, count=(3, 3), background="felt")
    with source:
        source.read(), source.read()
    assert len(source.scene.dice) == 3 and all(len(d.outline) >= 4 for d in source.scene.dice)


def test_a_slow_consumer_gets_the_newest_pi_frame(fake_picamera2):
    source = PiCamera2Source(width=64, height=48, settle_seconds=0.0)
    source.open()
    try:
        first = source.read()
        done = threading.Event()
        done.wait(0.05)  # let the capture thread run ahead
        later = source.read()
        assert later.id > first.id + 1
    finally:
        source.close()
