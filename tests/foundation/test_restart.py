"""A restarted table answers its screens before its camera has loaded, and keeps what lay in the tray."""

from __future__ import annotations

import threading

import pytest

from companion.config import demo_config
from companion.runtime import PENDING_FILE, build
from companion.session import TableSession
from companion.store import EventStore, StoreClosed
from tests.conftest import PIN, PLAYERS, Client


def test_a_table_serves_before_its_camera_has_started_and_offers_the_camera_once_it_has(tmp_path):
    companion = build(demo_config(tmp_path / "data", port=0, pin=PIN), devices=False)
    companion.server.start()
    try:
        client = Client(companion.server.port)
        assert client.get("/healthz")[0] == 200
        assert client.get("/api/camera")[1] == {"present": False, "state": "starting"}
        assert "window.TABLE = {camera: true" in client.get("/")[1]  # the page waits for the camera
        companion.start_camera()
        assert client.get("/api/camera")[1]["present"] is True
    finally:
        companion.stop()


def test_a_camera_that_finishes_starting_after_the_table_closed_is_stopped_not_kept(tmp_path):
    companion = build(demo_config(tmp_path / "data", port=0, pin=PIN), devices=False)
    companion.stop()
    assert companion.start_camera() is None and companion.camera is None


def test_a_stop_signalled_while_a_thread_was_being_started_still_closes_the_table(tmp_path):
    """SIGTERM raises in the main thread wherever it is: between a thread's listing and its start on a slow start,
    the stop found a thread that never ran, and joining it raised (the demo exited 1, not 0)."""
    companion = build(demo_config(tmp_path / "data", port=0, pin=PIN), devices=False)
    companion.threads.append(threading.Thread(target=print, name="devices-start"))  # listed, never started
    companion.stop()
    with pytest.raises(StoreClosed):
        companion.store.games()


def test_a_roll_typed_in_by_hand_outlasts_the_cameras_first_look_after_a_restart(tmp_path):
    """The camera's first reading after a restart is of dice that lay there all along: the roll a player typed in
    (most often because the camera misread those very dice) stays until the dice move and are read anew."""
    store = EventStore(tmp_path / "events.sqlite3")
    session = TableSession(store, pending_path=tmp_path / PENDING_FILE)
    session.new_game("dice-race", PLAYERS, seed=1)
    session.offer_dice([{"label": "5", "confidence": 1.0}], source="manual")
    restarted = TableSession(store, pending_path=tmp_path / PENDING_FILE)
    assert restarted.resume()
    restarted.offer_dice([{"label": "3", "confidence": 0.9}], source="camera")
    pending = restarted.snapshot()["pending"]
    assert (pending["source"], [d["label"] for d in pending["dice"]]) == ("manual", ["5"])
    restarted.offer_dice([{"label": "2", "confidence": 0.9}], source="camera")  # the dice were rolled again
    assert [d["label"] for d in restarted.snapshot()["pending"]["dice"]] == ["2"]
    store.close()


def test_a_camera_reading_in_the_tray_before_a_restart_is_replaced_by_the_cameras_next_look(tmp_path):
    store = EventStore(tmp_path / "events.sqlite3")
    session = TableSession(store, pending_path=tmp_path / PENDING_FILE)
    session.new_game("dice-race", PLAYERS, seed=1)
    session.offer_dice([{"label": "5", "confidence": 0.9}], source="camera")
    restarted = TableSession(store, pending_path=tmp_path / PENDING_FILE)
    assert restarted.resume()
    restarted.offer_dice([{"label": "5", "confidence": 0.95}], source="camera")
    assert restarted.snapshot()["pending"]["dice"][0]["confidence"] == 0.95
    store.close()
