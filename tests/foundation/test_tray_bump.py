"""A die bumped after its reading: the table's camera (the real pipeline, model and session, fed rendered frames one
by one) withdraws a reading the tray no longer shows, and keeps and shows dice that moved after a roll was confirmed,
without changing the roll."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.camera import TableCamera
from companion.config import TrayConfig, demo_config
from companion.session import DIE_MOVED, Stale, TableSession
from companion.store import EventStore
from companion.web import create_app
from companion.web.logtext import LANGUAGES, log_entries, names_for
from tests.conftest import PIN
from tests.vision.conftest import nudged, taken_out, turned
from vision.sources import Frame, SyntheticSource

PLAYERS = [{"name": "Ada", "colour": "green"}, {"name": "Bo", "colour": "red"}]
ROLL = ["drive", "steer", "steer", "gallop"]  # the first roll of seed 2 wants 4 dice


class Tray:
    """A table's camera fed by hand: each call lays a picture in the tray until the dice have settled."""

    def __init__(self, camera: TableCamera) -> None:
        self.camera = camera
        self.time = 0.0
        self.scene: Any = None

    def show(self, image: np.ndarray, frames: int = 10) -> None:
        """A hand over the tray (a frame of motion), then `image` lying still long enough to be read."""
        for picture in [np.zeros_like(image)] * 2 + [image] * frames:
            self.time += 1 / 30
            self.camera.pipeline.process(Frame(picture, round(self.time * 30), self.time))

    def roll(self, faces: list[str], seed: int = 3) -> Any:
        source = SyntheticSource(dice="chariot_race", seed=seed, rolling_frames=1, still_frames=1, background="felt")
        source.roll(faces)
        source.read()
        source.read()
        self.scene = source.scene
        self.show(self.scene.image)
        return self.scene


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableSession, Tray]]:
    """A Chariot Race whose first roll wants 4 dice, and its camera (not started: frames come from the test)."""
    config = dataclasses.replace(demo_config(tmp_path, port=0), tray=TrayConfig(settle_seconds=0.2))
    store = EventStore(tmp_path / "events.sqlite3")
    session = TableSession(store, pending_path=tmp_path / "tray-roll.json")
    session.new_game("chariot-race", {"players": PLAYERS}, seed=2)
    camera = TableCamera(session, config, "chariot_race")
    yield session, Tray(camera)
    store.close()


def nearest(scene: Any, die: dict) -> int:
    """The scene's die a reading's die is."""
    return min(range(len(scene.dice)), key=lambda k: np.hypot(*np.subtract(scene.dice[k].center, die["center"])))


def confirm_as_rolled(session: TableSession, scene: Any) -> Any:
    """The player taps the dice the camera was unsure of to what they show, then confirms."""
    for i, die in enumerate(session.snapshot()["pending"]["dice"]):
        if die["low"] or die["label"] != scene.dice[nearest(scene, die)].label:
            session.correct_die(i, scene.dice[nearest(scene, die)].label, actor="green")
    return session.confirm(actor="green")


def moved_events(session: TableSession) -> list[Any]:
    return [event for event in session.events() if event.type == DIE_MOVED]


def test_a_tray_changed_before_the_confirm_is_read_again_and_a_confirm_of_the_old_reading_is_stale(table):
    session, tray = table
    scene = tray.roll(ROLL)
    first = session.snapshot()["pending"]
    assert len(first["dice"]) == 4 and "replaces" not in first

    tray.show(nudged(scene, 1))  # the steer at (417, 164) pushed a die's width to the left
    again = session.snapshot()["pending"]
    assert again["replaces"] == first["reading"] and again["reading"] > first["reading"]
    moved = [d for d in again["dice"] if nearest(scene, d) == 1]
    assert len(moved) == 1 and moved[0]["center"][0] < scene.dice[1].center[0] - 40

    with pytest.raises(Stale):
        session.confirm(actor="green", reading=first["reading"])
    tablet = create_app(session, control_pin=PIN).test_client()
    answer = tablet.post(
        "/api/confirm",
        json={"actor": "green", "seq": 0, "game": session.record.id, "reading": first["reading"]},
        headers={"X-Table-Pin": PIN},
    )
    assert answer.status_code == 409 and answer.get_json()["error"] == "stale"
    assert session.events() == [] and session.snapshot()["pending"]["reading"] == again["reading"]


def test_dice_jittered_by_a_few_pixels_are_not_read_again(table):
    session, tray = table
    scene = tray.roll(ROLL)
    reading = session.snapshot()["pending"]["reading"]
    tray.show(nudged(scene, 1, shift=-4))
    assert session.snapshot()["pending"]["reading"] == reading


@pytest.mark.parametrize("bump", ["nudged", "turned"])
def test_a_die_bumped_after_the_confirm_is_kept_in_the_log_and_shown_and_the_roll_stands(table, tmp_path, bump):
    session, tray = table
    scene = tray.roll(ROLL)
    confirmed = confirm_as_rolled(session, scene)
    view = session.snapshot()["view"]
    read = confirmed.payload["reading"]["dice"]

    tray.show(nudged(scene, 1) if bump == "nudged" else turned(scene, 3, like=0))  # a steer pushed; gallop to drive

    (event,) = moved_events(session)
    bumped = 1 if bump == "nudged" else 3
    die = next(m for m in event.payload["moved"] if nearest(scene, read[m["die"] - 1]) == bumped)
    assert die["kind"] == ("moved" if bump == "nudged" else "turned")
    assert die["was"] == scene.dice[bumped].label
    if bump == "turned":
        assert die["now"] == scene.dice[0].label
    assert event.payload["of"] == confirmed.seq
    snapshot = session.snapshot()
    assert snapshot["status"]["tray"]["moved"] == event.payload["moved"]
    assert snapshot["pending"] is None  # the bumped dice are not the next roll
    assert snapshot["view"] == view and session.events()[0].payload["reading"]["dice"] == read

    # the log tells it in every language, and it survives a restart
    session.store.close()
    store = EventStore(tmp_path / "events.sqlite3")
    restarted = TableSession(store, pending_path=tmp_path / "tray-roll.json")
    assert restarted.resume()
    assert restarted.snapshot()["view"] == view
    assert [e.type for e in restarted.events()] == ["roll", DIE_MOVED]
    stored = [e.to_json() for e in restarted.events()]
    for lang in LANGUAGES:
        names = names_for("chariot-race", view, lang)
        entry = log_entries(stored, lang=lang, names=names, game="chariot-race")[1]
        assert entry["type"] == DIE_MOVED and len(entry["lines"]) == len(event.payload["moved"])
        assert f"{die['die']}" in entry["lines"][event.payload["moved"].index(die)]["text"]
    assert restarted.confirmed_roll()["seq"] == confirmed.seq  # the dice still lie there: the watch goes on
    store.close()


def test_each_move_is_kept_once_and_the_notice_ends_when_the_dice_are_picked_up(table):
    session, tray = table
    scene = tray.roll(ROLL)
    confirm_as_rolled(session, scene)
    tray.show(nudged(scene, 1))
    tray.show(taken_out(scene, 2, nudged(scene, 1)))  # the moved die still moved, another taken out: nothing new
    assert len(moved_events(session)) == 1
    assert session.status()["tray"]

    tray.show(scene.empty)  # picked up
    assert len(moved_events(session)) == 1
    assert "tray" not in session.status()


def test_taking_dice_out_and_rolling_again_is_not_a_bump(table):
    session, tray = table
    scene = tray.roll(ROLL)
    confirm_as_rolled(session, scene)

    tray.show(taken_out(scene, 2))  # set aside, the rest untouched: not a bump, and not a roll to confirm
    assert moved_events(session) == [] and session.snapshot()["pending"] is None

    new = tray.roll(["fortune", "attack", "drive"], seed=8)  # hands over the tray, then a new roll
    assert moved_events(session) == []
    assert len(session.snapshot()["pending"]["dice"]) == len(new.dice)
    assert session.confirmed_roll() is None


def test_an_empty_tray_as_a_game_changes_is_no_dropped_roll(table, caplog):
    session, tray = table
    scene = tray.roll(ROLL)
    confirm_as_rolled(session, scene)
    for picture in [np.zeros_like(scene.empty)] * 2:  # the dice are taken out as the next game starts
        tray.time += 1 / 30
        tray.camera.pipeline.process(Frame(picture, round(tray.time * 30), tray.time))
    session.new_game("chariot-race", {"players": PLAYERS}, seed=2)
    with caplog.at_level(logging.INFO, logger="companion.camera"):
        tray.show(scene.empty)
    assert not [r for r in caplog.records if "dropped" in r.getMessage()]
    assert session.snapshot()["pending"] is None


def test_the_dice_are_watched_while_the_player_decides_after_the_roll(table):
    session, tray = table
    scene = tray.roll(ROLL)
    confirmed = confirm_as_rolled(session, scene)
    session.act({"type": "done"}, actor=session.prompt().actor)  # no free reroll: the dice still lie there
    tray.show(nudged(scene, 1))
    (event,) = moved_events(session)
    assert event.payload["of"] == confirmed.seq


def test_a_roll_taken_back_is_offered_again_and_not_watched(table):
    session, tray = table
    scene = tray.roll(ROLL)
    confirmed = confirm_as_rolled(session, scene)
    session.undo(actor="green")
    assert session.snapshot()["pending"]["reading"] == confirmed.payload["reading"]["reading"]
    assert session.confirmed_roll() is None
    tray.show(nudged(scene, 1))  # before it is confirmed again: read again, as any offered roll
    assert moved_events(session) == []
    assert session.snapshot()["pending"]["replaces"] == confirmed.payload["reading"]["reading"]
