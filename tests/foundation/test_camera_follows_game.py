"""The camera follows the game: a game started from "New game" (or resumed from the log) is read, rendered in the
demo tray and taught with its own dice set at once, without a restart; dice without a model turn the camera off."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.config import demo_config
from companion.games import get_game
from companion.games.bots import RandomBot, roll
from companion.runtime import Companion, _roll_in_the_tray, build, demo_options
from companion.session import TableSession
from companion.store import EventStore
from tests.conftest import PIN, Client
from vision.camera_state import CameraState
from vision.settle import ROLLING, SETTLING

CHARIOT_PLAYERS = [{"name": "Ada", "colour": "green"}, {"name": "Bo", "colour": "red"}]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Companion]:
    """The demo's companion (synthetic camera, mock pins) in this process, serving on a free port, no bots."""
    companion = build(demo_config(tmp_path / "data", port=0, pin=PIN))
    companion.server.start()
    yield companion
    companion.stop()


def wait_for_pending(companion: Companion, before: int) -> list[dict]:
    assert companion.camera.wait_for_reading(before, timeout=20)
    return companion.session.snapshot()["pending"]["dice"]


def test_hexen_rennen_started_after_chariot_race_is_read_rendered_and_taught_as_d6(demo: Companion):
    session, camera, client = demo.session, demo.camera, Client(demo.server.port)
    csrf = {"headers": {"X-CSRF-Token": client.login()}}
    status, _ = client.post("/api/game", {"game": "chariot-race", "options": {"players": CHARIOT_PLAYERS}}, **csrf)
    assert status == 200 and camera.dice_set == "chariot_race"
    status, _ = client.post("/api/game", {"game": "hexenrennen", "options": demo_options("hexenrennen")}, **csrf)
    assert status == 200

    assert camera.dice_set == "d6" and camera.source.dice_set == "d6"  # at once, not on some later frame
    assert client.get("/api/teach")[1]["dice_set"] == "d6"
    assert client.get("/api/camera")[1]["dice_set"] == "d6"

    before = camera.reading_count
    camera.source.roll(["6", "2", "4"])
    pending = wait_for_pending(demo, before)
    assert len(pending) == 3 and {d["label"] for d in pending} <= set("123456")

    # the demo bot's own path: roll into the tray, tap what the camera got wrong, confirm
    rng = random.Random(5)
    prompt = session.prompt()
    while not any("roll" in option for option in prompt.options):
        session.act(RandomBot().choose(session.game, session.state, prompt, rng), actor=prompt.actor)
        prompt = session.prompt()
    choice = next(option for option in prompt.options if "roll" in option)
    assert _roll_in_the_tray(demo, prompt.actor, roll(session.game, choice, rng)["dice"])
    session.confirm(actor=prompt.actor, source="bot", option=prompt.options.index(choice))
    stored = session.events()[-1].payload
    assert stored["reading"]["source"] == "camera"  # read by the camera, not typed in because it could not
    assert {d["label"] for d in stored["reading"]["dice"]} <= set("123456")


def test_a_resumed_game_reads_its_own_dice_whatever_game_the_config_names(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    store = EventStore.in_data_dir(data)
    TableSession(store).new_game("hexenrennen", demo_options("hexenrennen"), seed=3)  # the power went here
    store.close()
    config = demo_config(data, port=0)
    assert get_game(config.game.id).dice_set == "chariot_race"
    companion = build(config)
    try:
        assert companion.session.game.id == "hexenrennen"
        assert companion.camera.dice_set == "d6" and companion.camera.source.dice_set == "d6"
        assert companion.camera.teacher.summary()["dice_set"] == "d6"
    finally:
        companion.stop()


def test_dice_without_a_model_turn_the_camera_off_with_the_reason_until_a_game_with_a_model(
        demo: Companion, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import vision.pipeline

    session, camera = demo.session, demo.camera
    shipped = vision.pipeline.default_model
    monkeypatch.setattr(vision.pipeline, "default_model",  # a Pi whose Cubitos model file did not come along
                        lambda dice: tmp_path / "cubitos.json" if dice == "cubitos" else shipped(dice))
    camera.use_dice("cubitos")
    state = session.snapshot()["status"]["camera"]
    assert state["state"] is CameraState.OFF and "cubitos" in state["message"]
    assert camera.status()["state"] is CameraState.OFF and camera.teacher is None
    assert not camera.pipeline.running
    session.new_game("hexenrennen", demo_options("hexenrennen"), seed=4)
    assert camera.off is None and camera.pipeline.running and camera.teacher.summary()["dice_set"] == "d6"
    before = camera.reading_count
    camera.source.roll(["3"])
    assert [d["label"] for d in wait_for_pending(demo, before)] != []
    assert session.snapshot()["status"]["camera"]["state"] is not CameraState.OFF


def test_a_game_with_the_same_dice_keeps_the_camera_as_it_is(demo: Companion):
    camera = demo.camera
    pipeline, source, classifier = camera.pipeline, camera.source, camera.pipeline.classifier
    demo.session.new_game("chariot-race", {"players": CHARIOT_PLAYERS}, seed=1)
    demo.session.new_game("chariot-race", {"players": CHARIOT_PLAYERS}, seed=2)
    assert (camera.pipeline, camera.source, camera.pipeline.classifier) == (pipeline, source, classifier)


def test_a_roll_still_rolling_as_a_new_game_starts_is_not_the_new_games_roll(demo: Companion):
    session, camera = demo.session, demo.camera
    session.new_game("chariot-race", {"players": CHARIOT_PLAYERS}, seed=1)
    camera.source.roll(["drive", "drive", "steer", "gallop", "fortune"])  # speed 5 in the game before
    deadline = time.monotonic() + 10
    while camera.pipeline.settle.state not in (ROLLING, SETTLING):  # the dice tumble into the tray
        assert time.monotonic() < deadline
        time.sleep(0.01)
    before = camera.reading_count
    session.new_game("chariot-race", {"players": CHARIOT_PLAYERS}, seed=2)  # its first roll wants 4 dice
    assert not camera.wait_for_reading(before, timeout=3)  # settled, read and dropped: not offered
    assert session.snapshot()["pending"] is None
    before = camera.reading_count
    camera.source.roll(["drive", "steer", "steer", "gallop"])  # the new game's own roll is read as ever
    assert len(wait_for_pending(demo, before)) == 4
