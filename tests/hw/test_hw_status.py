"""The status light and the buzzer follow the session: state from the snapshot alone, shown on mock pins; a camera
the pipeline loses makes the light ask for attention until it is back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero import RGBLED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.session import UNDO, TableSession
from hw.status import PATTERNS, UNDO_EVENT, LightState, ReadingBuzzer, StatusLight, light_state
from vision.camera_state import CameraState

WAIT = 5.0


def snapshot(**parts: object) -> dict[str, object]:
    base: dict[str, object] = {"game": {"over": False}, "seq": 0, "status": {}, "pending": None,
                               "prompt": {"options": [{"type": "roll", "roll": 1}], "cursor": 0}}
    return {**base, **parts}


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ({}, LightState.READY),
        ({"game": None, "prompt": None}, LightState.READY),
        ({"status": {"camera": {"state": CameraState.ROLLING}}}, LightState.ROLLING),
        ({"pending": {"dice": [{"label": "5", "confidence": 0.97}]}}, LightState.WAITING),
        ({"prompt": {"options": [{"type": "repair"}, {"type": "pass"}]}}, LightState.WAITING),
        ({"pending": {"dice": [{"label": "5", "confidence": 0.5}]}}, LightState.ATTENTION),
        ({"pending": {"dice": [{"label": "5", "confidence": 0.99, "low": True}]}}, LightState.ATTENTION),
        ({"status": {"camera": {"state": CameraState.LOST}}}, LightState.ATTENTION),
        ({"status": {"camera": {"state": "lost"}}}, LightState.ATTENTION),  # as a snapshot read from JSON has it
        ({"status": {"camera": {"state": CameraState.BACK}}}, LightState.READY),
        ({"status": {"camera": {"state": CameraState.OFF}}}, LightState.READY),  # dice are typed in: not a fault
        ({"status": {"camera": {"state": CameraState.ROLLING}, "buttons": {"error": "CONFIRM: ..."}}},
         LightState.ATTENTION),
        ({"status": {"camera": {"state": CameraState.STILL}, "buttons": {"error": None}}}, LightState.READY),
    ],
)
def test_light_state_from_the_snapshot(parts: dict[str, object], expected: LightState) -> None:
    assert light_state(snapshot(**parts)) is expected


def test_min_confidence_comes_from_the_config() -> None:
    pending = {"dice": [{"label": "5", "confidence": 0.85}]}
    assert light_state(snapshot(pending=pending), min_confidence=0.8) is LightState.WAITING
    assert light_state(snapshot(pending=pending), min_confidence=0.9) is LightState.ATTENTION


@pytest.fixture
def light(table: TableSession, mock_factory: MockFactory) -> Iterator[StatusLight]:
    light = StatusLight(table, led=23)
    yield light
    light.close()


def test_the_light_follows_the_table(table: TableSession, light: StatusLight) -> None:
    assert light.wait_for(LightState.READY, timeout=WAIT)
    assert light.device.is_lit  # steady on
    table.set_status(camera={"state": CameraState.ROLLING})
    assert light.wait_for(LightState.ROLLING, timeout=WAIT)
    table.set_status(camera={"state": CameraState.STILL})
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    assert light.wait_for(LightState.WAITING, timeout=WAIT)
    table.set_status(camera={"state": CameraState.LOST})
    assert light.wait_for(LightState.ATTENTION, timeout=WAIT)
    table.set_status(camera={"state": CameraState.STILL})
    table.confirm(actor="Ada", source="dashboard")
    assert light.wait_for(LightState.READY, timeout=WAIT)


def test_a_camera_the_pipeline_loses_makes_the_light_ask_for_attention_until_it_is_back(
    table: TableSession, light: StatusLight, tmp_path: Path
) -> None:
    """The whole path: the pipeline's thread finds no camera (a replay folder not there yet), the table camera
    puts that in the session's status, the light blinks fast; frames come, the light is steady again."""
    from companion.camera import TableCamera
    from companion.config import CameraConfig, demo_config

    frames = tmp_path / "frames"
    config = replace(demo_config(tmp_path / "data"), camera=CameraConfig(source="replay", path=str(frames), fps=10))
    camera = TableCamera(table, config, "d6")
    camera.pipeline.backoff = (0.05, 0.2)
    assert light.wait_for(LightState.READY, timeout=WAIT)
    camera.start()
    try:
        assert light.wait_for(LightState.ATTENTION, timeout=WAIT)
        assert table.snapshot()["status"]["camera"]["state"] is CameraState.LOST
        frames.mkdir()
        cv2.imwrite(str(frames / "empty.tmp.png"), np.full((240, 320, 3), 90, np.uint8))
        (frames / "empty.tmp.png").rename(frames / "empty.png")  # whole, or the camera would read half a file
        assert light.wait_for(LightState.READY, timeout=WAIT)
    finally:
        camera.stop()


def test_changes_are_reported_to_when_changed(table: TableSession, light: StatusLight) -> None:
    seen: list[LightState] = []
    assert light.wait_for(LightState.READY, timeout=WAIT)
    light.when_changed = seen.append
    table.offer_dice([{"label": "1", "confidence": 0.2}])
    assert light.wait_for(LightState.ATTENTION, timeout=WAIT)
    assert seen == [LightState.ATTENTION]


def test_an_rgb_led_shows_the_state_as_a_colour(table: TableSession, mock_factory: MockFactory) -> None:
    mock_factory.pin_class = MockPWMPin
    light = StatusLight(table, led=RGBLED(5, 6, 13))
    try:
        assert light.wait_for(LightState.READY, timeout=WAIT)
        assert light.device.color == PATTERNS[LightState.READY].color
    finally:
        light.close()


def test_the_buzzer_beeps_once_for_an_accepted_reading_and_twice_for_undo(
    table: TableSession, mock_factory: MockFactory
) -> None:
    buzzer = ReadingBuzzer(table, buzzer=24, beep_seconds=0.01)
    try:
        table.offer_dice([{"label": "5", "confidence": 0.97}])
        table.confirm(actor="Ada", source="button")
        assert buzzer.wait_for_beeps(1, timeout=WAIT)
        table.undo(actor="table", source="button")
        assert buzzer.wait_for_beeps(2, timeout=WAIT)
        table.set_status(camera={"state": CameraState.STILL})  # not a reading: no beep
        assert not buzzer.wait_for_beeps(3, timeout=0.2)
    finally:
        buzzer.close()


def test_the_buzzer_knows_an_undo_by_the_sessions_own_event_type() -> None:
    assert UNDO_EVENT == UNDO  # hw cannot import it: the companion depends on hw, not the other way round
