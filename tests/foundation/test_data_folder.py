"""The data folder on an SD card: a damaged log is moved aside, a full card refuses events, a backup while it runs."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys

from companion.config import demo_config
from companion.runtime import open_table
from companion.store import EventStore
from tests.conftest import PIN, PLAYERS

SCRIPT = {"X-Table-Pin": PIN}


def a_season(path) -> int:
    """A log with a few games, the last unfinished; its number."""
    store = EventStore(path)
    game = None
    for seed in range(4):
        game = store.new_game("dice-race", PLAYERS, seed=seed)
        for _ in range(30):
            store.append(game.id, actor="Ada", type="roll", payload={"action": {"type": "roll", "dice": ["1"]},
                                                                      "note": "x" * 200})
    store.close()
    return game.id


def damage(path) -> None:
    """What a card that lost power mid-write can leave: every page but the first overwritten."""
    data = bytearray(path.read_bytes())
    data[4096:] = bytes((i * 7919) % 251 for i in range(len(data) - 4096))
    path.write_bytes(bytes(data))


def test_a_damaged_log_is_moved_aside_said_in_the_log_and_on_the_screens_and_a_fresh_one_starts(tmp_path, caplog):
    original = tmp_path / "original.sqlite3"
    a_season(original)
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(original, data / "events.sqlite3")  # a corrupted copy: the original stays as it was
    damage(data / "events.sqlite3")
    with caplog.at_level(logging.ERROR, logger="companion.runtime"):
        store, session = open_table(demo_config(data, port=0))
    try:
        moved = [p for p in data.iterdir() if p.name.startswith("events.sqlite3.corrupt-")]
        assert len(moved) == 1 and moved[0].read_bytes()[:16] == b"SQLite format 3\x00"
        assert f"moved aside to {moved[0]}" in caplog.text and "damaged" in caplog.text
        assert session.snapshot()["status"]["store"] == {"state": "moved_aside", "file": moved[0].name}
        assert store.games() == [] and session.record is None
        record = session.new_game("dice-race", PLAYERS, seed=1)
        assert session.act({"type": "roll", "dice": ["4"]}, actor="Ada").seq == 1 and record.id == 1
    finally:
        store.close()


def test_a_file_that_is_no_database_at_all_is_moved_aside_too(tmp_path):
    (tmp_path / "events.sqlite3").write_bytes(b"\0" * 10_000)
    store, session = open_table(demo_config(tmp_path, port=0))
    store.close()
    assert session.snapshot()["status"]["store"]["state"] == "moved_aside"


def test_a_healthy_log_resumes_and_says_nothing_of_the_store(tmp_path):
    number = a_season(tmp_path / "events.sqlite3")
    store, session = open_table(demo_config(tmp_path, port=0))
    store.close()
    assert session.record.id == number and "store" not in session.snapshot()["status"]


def test_a_full_card_answers_507_naming_it_stores_nothing_and_the_next_move_after_room_is_made_is_kept(live):
    session, client = live.session, live.client()
    db = session.store._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    for _ in range(60):  # until the card is full
        db.execute(f"PRAGMA max_page_count = {pages}")
        status, answer = client.post("/api/action", {"type": "roll", "dice": ["1"], "actor": "x" * 60},
                                     headers=SCRIPT)
        if status != 200:
            break
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    assert (status, answer["code"]) == (507, "disk_full"), answer
    seq = session.snapshot()["seq"]
    assert [e.seq for e in session.events()] == list(range(1, seq + 1))  # every acknowledged one, nothing more
    assert client.get("/api/state")[1]["status"]["store"] == {"state": "full"}
    db.execute(f"PRAGMA max_page_count = {pages + 1000}")
    assert client.post("/api/action", {"type": "roll", "dice": ["1"]}, headers=SCRIPT)[1]["seq"] == seq + 1
    assert "store" not in client.get("/api/state")[1]["status"]


def test_companion_backup_copies_the_data_dir_of_a_running_table(tmp_path):
    number = a_season(tmp_path / "data" / "events.sqlite3")
    (tmp_path / "data" / "secret_key").write_text("k")
    running = EventStore(tmp_path / "data" / "events.sqlite3")  # the table holds it open, with its WAL
    running.append(number, actor="Ada", type="roll", payload={"action": {"type": "roll", "dice": ["2"]}})
    try:
        done = subprocess.run([sys.executable, "-m", "companion", "backup", "--data-dir", str(tmp_path / "data"),
                               "--to", str(tmp_path / "copy")], capture_output=True, text=True, timeout=60)
    finally:
        running.close()
    assert done.returncode == 0, done.stderr
    assert "4 games, 121 events, the event log checked" in done.stdout
    copy = EventStore(tmp_path / "copy" / "events.sqlite3")
    assert len(copy.events(number)) == 31 and (tmp_path / "copy" / "secret_key").read_text() == "k"
    copy.close()
