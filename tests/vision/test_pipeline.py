"""Settling, voting and the pipeline thread: a roll is read once, a nudge is a change, a lost camera comes back."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from tests.vision.conftest import make_tiny_model, nudged
from vision.camera_state import CameraState
from vision.classify import Prediction
from vision.pipeline import Pipeline, StatusEvent
from vision.segment import Blob, SegmentConfig
from vision.settle import SETTLED, SettleConfig, SettleDetector, Vote, compare
from vision.sources import EndOfStream, Frame, FrameSource, SourceError, SyntheticSource, open_source

FAST = SettleConfig(still_seconds=0.2, vote_frames=4)


def synthetic(**kw) -> SyntheticSource:
    spec = dict(dice="d6", seed=4, count=(3, 5), rolling_frames=5, still_frames=12, background="felt",
                palette="yellow", rolls=3)
    spec.update(kw)
    return SyntheticSource(**spec)


def run_all(pipeline: Pipeline, source: FrameSource) -> list:
    readings = []
    with source:
        while True:
            try:
                frame = source.read()
            except EndOfStream:
                return readings
            reading = pipeline.process(frame)
            if reading is not None:
                readings.append((reading, getattr(source, "scene", None)))


def test_each_roll_gives_exactly_one_reading_with_every_die(classifier):
    source = synthetic()
    pipeline = Pipeline(source, classifier, settle=FAST)
    readings = run_all(pipeline, source)
    assert len(readings) == 3
    for reading, scene in readings:
        assert not reading.change
        assert len(reading.dice) == len(scene.dice)


def test_no_reading_while_the_dice_roll():
    detector = SettleDetector(FAST)
    rng = np.random.default_rng(0)
    states = [detector.update(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), t / 30) for t in range(30)]
    assert SETTLED not in states


def test_still_picture_settles_once_after_the_still_time():
    detector = SettleDetector(SettleConfig(still_seconds=0.5, vote_frames=3))
    image = np.full((120, 160, 3), 90, np.uint8)
    states = [detector.update(image, t / 10) for t in range(20)]
    assert states.count(SETTLED) == 1
    assert states.index(SETTLED) == 5  # the first frame starts the clock; settled 0.5 s later


def test_the_vote_takes_the_majority_label():
    blob = Blob((50.0, 50.0), 20.0, 0.0, ((40, 40), (60, 40), (60, 60), (40, 60)))
    vote = Vote()
    for label in ["3", "5", "3", "3", "5"]:
        vote.add([(blob, Prediction(label, 0.8, ("5" if label == "3" else "3", 0.1)))])
    (die,) = vote.result()
    assert die.label == "3" and die.runner_up[0] == "5"


def test_a_die_seen_in_one_frame_only_is_not_voted_in():
    a = Blob((50.0, 50.0), 20.0, 0.0, ((40, 40), (60, 40), (60, 60), (40, 60)))
    b = Blob((150.0, 50.0), 20.0, 0.0, ((140, 40), (160, 40), (160, 60), (140, 60)))
    vote = Vote()
    vote.add([(a, Prediction("1", 0.9, ("2", 0.1))), (b, Prediction("2", 0.9, ("1", 0.1)))])
    for _ in range(3):
        vote.add([(a, Prediction("1", 0.9, ("2", 0.1)))])
    assert [d.label for d in vote.result()] == ["1"]


def test_a_nudged_die_gives_a_new_reading_flagged_as_a_change(classifier):
    source = synthetic(rolls=1, count=(4, 4), seed=6)
    pipeline = Pipeline(source, classifier, settle=FAST)
    (first, scene), = run_all(pipeline, source)
    frames = [scene.image] * 3 + [nudged(scene)] * 12
    later = [pipeline.process(Frame(img, 100 + i, 10 + i / 30)) for i, img in enumerate(frames)]
    changes = [r for r in later if r is not None]
    assert len(changes) == 1 and changes[0].change
    moved = min(changes[0].dice, key=lambda d: abs(d.center[1] - scene.dice[0].center[1]))
    assert moved.center[0] < scene.dice[0].center[0] - 40


def test_nothing_moved_means_no_new_reading(classifier):
    source = synthetic(rolls=1, seed=7)
    pipeline = Pipeline(source, classifier, settle=FAST)
    (_, scene), = run_all(pipeline, source)
    blank = np.zeros_like(scene.image)  # a hand passes over, then the same dice again
    frames = [blank] * 3 + [scene.image] * 12
    assert all(pipeline.process(Frame(img, 200 + i, 20 + i / 30)) is None for i, img in enumerate(frames))


def test_compare_tells_rolls_from_changes():
    from vision.reading import DieReading

    def die(label, x):
        return DieReading(label, 0.9, ("1", 0.1), ((x - 10, 0), (x + 10, 0), (x + 10, 20), (x - 10, 20)), (x, 10))

    before = [die("1", 50), die("2", 150)]
    assert compare(before, [die("1", 50), die("2", 150)]) == "same"
    assert compare(before, [die("1", 50), die("4", 150)]) == "change"
    assert compare(before, [die("3", 90), die("4", 190)]) == "new"
    assert compare(None, before) == "new"


def test_a_replay_folder_reads_the_same_every_run(tmp_path: Path, classifier):
    source = synthetic(rolls=2)
    with source:
        for i in range(2 * 17):
            cv2.imwrite(str(tmp_path / f"{i:04d}.png"), source.read().image)
    runs = []
    for _ in range(2):
        replay = open_source({"kind": "replay", "path": str(tmp_path), "fps": 30})
        runs.append([r.to_json() for r, _ in run_all(Pipeline(replay, classifier, settle=FAST), replay)])
    assert len(runs[0]) == 2
    assert runs[0] == runs[1]


class Unplugged(FrameSource):
    """A camera that dies after `good` frames, refuses `refusals` reopenings, then works again."""

    def __init__(self, good: int = 5, refusals: int = 2) -> None:
        self.good, self.refusals, self.opens, self.reads = good, refusals, 0, 0
        self.image = np.full((120, 160, 3), 80, np.uint8)

    def open(self) -> None:
        self.opens += 1
        if 1 < self.opens <= 1 + self.refusals:
            raise SourceError("no such device")

    def read(self, timeout: float = 3.0) -> Frame:
        self.reads += 1
        if self.reads == self.good + 1:
            raise SourceError("device disconnected")
        return Frame(self.image, self.reads, self.reads / 30)

    def close(self) -> None:
        pass


def test_an_unplugged_camera_is_reported_lost_and_back(classifier, patience):
    events: list[StatusEvent] = []
    back = threading.Event()

    def on_status(event: StatusEvent) -> None:
        events.append(event)
        if event.kind is CameraState.BACK:
            back.set()

    source = Unplugged()
    pipeline = Pipeline(source, classifier, on_status=on_status, backoff=(0.01, 0.05))
    pipeline.start()
    try:
        assert back.wait(10 * patience), [e.kind for e in events]
    finally:
        pipeline.stop()
    assert pipeline.finished.wait(5 * patience)  # stop() waits 5 s for the thread: a slow machine's frame takes longer
    kinds = [e.kind for e in events]
    assert kinds.count(CameraState.LOST) == 1 and kinds.index(CameraState.LOST) < kinds.index(CameraState.BACK)
    assert source.opens == 4  # first open, two refused, one that worked
    assert kinds[0] is CameraState.STARTING and kinds[-1] is CameraState.STOPPED


def test_the_thread_delivers_readings_and_a_jpeg(classifier, patience):
    got = threading.Event()
    readings = []

    def on_reading(reading, image) -> None:
        readings.append(reading)
        got.set()

    source = synthetic(rolls=1)
    pipeline = Pipeline(source, classifier, settle=FAST, on_reading=on_reading)
    pipeline.start()
    try:
        assert got.wait(20 * patience)
        assert pipeline.finished.wait(20 * patience)
    finally:
        pipeline.stop()
    jpeg = pipeline.latest_jpeg()
    assert jpeg[:2] == b"\xff\xd8"
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape == (480, 640, 3)
    assert len(readings) == 1 and pipeline.status["last_reading"] == readings[0].frame_id


def test_from_config_builds_everything(tiny_card, tmp_path):
    pipeline = Pipeline.from_config({
        "camera": {"kind": "synthetic", "dice": "d6", "seed": 1}, "model": str(tiny_card),
        "settle": {"still_seconds": 0.3}, "segment": {"die_px": 36},
    })
    assert isinstance(pipeline.source, SyntheticSource)
    assert pipeline.settle.config.still_seconds == 0.3
    assert pipeline.segmenter.config == SegmentConfig(die_px=36)
    with pytest.raises(ValueError, match="stil_seconds"):
        Pipeline.from_config({"model": str(tiny_card), "settle": {"stil_seconds": 1}})
    with pytest.raises(ValueError, match="camera kind 'usb'"):
        Pipeline.from_config({"camera": {"kind": "usb"}, "model": str(tiny_card)})


def test_a_reading_comes_with_the_image_of_the_frame_it_was_read_from(classifier):
    """Consecutive still frames differ (sensor noise): the image handed over is the reading's own frame, not the
    frame before it, so the crops a player's correction teaches are the ones the classifier voted on."""
    source = synthetic(rolls=2)
    handed: list[tuple[int, np.ndarray]] = []
    pipeline = Pipeline(source, classifier, settle=FAST,
                        on_reading=lambda reading, image: handed.append((reading.frame_id, image)))
    frames = {}
    with source:
        for _ in range(2 * 17):
            frame = source.read()
            frames[frame.id] = frame.image
            pipeline.process(frame)
    assert len(handed) == 2
    for frame_id, image in handed:
        assert image is frames[frame_id]
        assert not np.array_equal(image, frames[frame_id - 1])


CHARIOT = ["drive", "gallop", "steer", "attack", "fortune"]


def test_another_dice_set_is_read_from_the_next_frame_and_dice_lying_still_are_not_read_again(classifier, tmp_path):
    from vision.classify import Classifier

    source = synthetic(rolls=1, count=(3, 3))
    pipeline = Pipeline(source, classifier, settle=FAST)
    (first, scene), = run_all(pipeline, source)
    assert set(first.labels) <= set("123456")
    pipeline.use(Classifier.load(make_tiny_model(tmp_path, CHARIOT, name="chariot", dice_set="chariot_race")))
    still = [pipeline.process(Frame(scene.image, 100 + i, 10 + i / 30)) for i in range(12)]
    assert still == [None] * 12  # the settle state is kept: no fresh roll from dice that did not move
    again = [np.zeros_like(scene.image)] * 3 + [scene.image] * 12  # rolled again
    readings = [pipeline.process(Frame(img, 200 + i, 20 + i / 30)) for i, img in enumerate(again)]
    (reading,) = [r for r in readings if r is not None]
    assert len(reading.dice) == 3 and set(reading.labels) <= set(CHARIOT)


def test_a_reading_classified_before_a_switch_is_not_given_out(classifier, tmp_path):
    """A new game starts while the dice settle: the vote of the old set's faces must not reach the new game."""
    from vision.classify import Classifier

    other = Classifier.load(make_tiny_model(tmp_path, CHARIOT, name="chariot", dice_set="chariot_race"))
    source = synthetic(rolls=1, count=(3, 3))
    pipeline = Pipeline(source, classifier, settle=FAST)

    class SwitchingWhileItClassifies:
        input_size = classifier.input_size
        card = classifier.card

        def classify(self, crops):
            if pipeline.settle.state == SETTLED:
                pipeline.use(other)
            return classifier.classify(crops)

        def logits(self, crops):  # a doubtful die's second look
            return classifier.logits(crops)

        def predictions(self, logits):
            return classifier.predictions(logits)

    pipeline.classifier = SwitchingWhileItClassifies()
    assert run_all(pipeline, source) == []


def test_a_running_pipeline_takes_a_new_source_between_frames(classifier, tmp_path, patience):
    from vision.classify import Classifier

    got = threading.Event()
    readings = []

    def on_reading(reading, image) -> None:
        readings.append(reading)
        if reading.dice:
            got.set()

    first = synthetic(rolls=None, hold=True)  # an empty tray until someone rolls
    pipeline = Pipeline(first, classifier, settle=FAST, on_reading=on_reading)
    pipeline.start()
    try:
        chariot = SyntheticSource(dice="chariot_race", seed=4, hold=True, rolling_frames=5, still_frames=12)
        pipeline.use(Classifier.load(make_tiny_model(tmp_path, CHARIOT, name="chariot", dice_set="chariot_race")),
                     chariot)
        assert pipeline.source is chariot  # at once: the demo's bot rolls into it right after a new game
        chariot.roll(["drive", "steer"])
        assert got.wait(20 * patience), readings
    finally:
        pipeline.stop()
    rolled = [r for r in readings if r.dice]
    assert len(rolled[0].dice) == 2 and set(rolled[0].labels) <= set(CHARIOT)


def test_a_doubtful_die_is_read_again_in_its_four_quarter_turns_with_their_logits_averaged():
    """A model sure of "b" in one turn of a cut and mildly for "a" in the other three: averaged logits make it "b"
    at 0.905, surer than `SECOND_LOOK`; averaged probabilities would say "a". A sure die is not looked at again."""
    from vision.classify import Classifier
    from vision.pipeline import SECOND_LOOK, second_look

    class TopLeftBright(Classifier):
        labels = ["a", "b"]
        input_size = (16, 16)
        card = SimpleNamespace(input=SimpleNamespace(tta="none"))  # a card that reads each crop once

        def __init__(self) -> None:
            self.cuts = 0

        def logits(self, crops):
            self.cuts += len(crops)
            return np.float32([[0, 12] if c[:8, :8].mean() > 128 else [1, 0] for c in crops])

    image = np.zeros((100, 100, 3), np.uint8)
    image[:50, :50] = 255  # the die's top-left quarter is bright
    blob = Blob((50.0, 50.0), 40.0, 0.0, ((30, 30), (70, 30), (70, 70), (30, 70)))
    model = TopLeftBright()
    doubtful, sure = Prediction("a", 0.5, ("b", 0.5)), Prediction("a", 0.99, ("b", 0.01))
    again = second_look(image, [blob, blob], [doubtful, sure], model)
    assert again[0].label == "b" and SECOND_LOOK <= again[0].confidence < 0.91
    assert again[1] is sure and model.cuts == 4 * 4  # 4 cuts of the doubtful die, each in 4 turns

    # a card whose own test-time views already read each crop in its quarter turns gets each cut once
    model.card, model.cuts = SimpleNamespace(input=SimpleNamespace(tta="quarter_turns")), 0
    second_look(image, [blob], [doubtful], model)
    assert model.cuts == 4
