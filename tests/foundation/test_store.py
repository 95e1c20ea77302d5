"""The event log keeps every acknowledged event, whatever happens to the process."""

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from companion.store import MIGRATIONS, SCHEMA_VERSION, EventStore, StoreError


def test_events_are_numbered_per_game_from_one(store):
    first = store.new_game("dice-race", {"players": ["a", "b"]}, seed=1)
    second = store.new_game("dice-race", {"players": ["c", "d"]}, seed=2)
    assert [store.append(first.id, actor="a", type="roll", payload={}).seq for _ in range(3)] == [1, 2, 3]
    assert store.append(second.id, actor="c", type="roll", payload={}).seq == 1
    assert [e.seq for e in store.events(first.id, after=1)] == [2, 3]


def test_database_uses_wal_and_full_sync(store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_cannot_be_rewritten_or_deleted(store):
    game = store.new_game("dice-race", {}, seed=1)
    store.append(game.id, actor="a", type="roll", payload={"dice": ["3"]})
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("UPDATE events SET payload = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("DELETE FROM events")


def test_schema_version_is_recorded_and_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "events.sqlite3"
    EventStore(path).close()
    assert EventStore(path).schema_version() == SCHEMA_VERSION
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this companion"):
        EventStore(path)


def test_a_version_1_database_gains_control_sessions_and_keeps_its_games(tmp_path):
    path = tmp_path / "events.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    db.execute("INSERT INTO games (game, options, seed, created) VALUES ('dice-race', '{}', 5, 1.0)")
    db.commit()
    db.close()
    store = EventStore(path)
    assert store.schema_version() == SCHEMA_VERSION == 2
    assert [g.seed for g in store.games()] == [5]
    store.add_control_session("h", pin_key="k", expires=2e9)
    assert store.control_session("h").pin_key == "k"


def test_control_sessions_end_by_logout_pin_change_or_expiry(store):
    store.add_control_session("current", pin_key="pin-a", expires=2000.0)
    store.add_control_session("logged-out", pin_key="pin-a", expires=2000.0)
    store.add_control_session("expired", pin_key="pin-a", expires=999.0)
    store.add_control_session("old-pin", pin_key="pin-b", expires=2000.0)
    store.end_control_session("logged-out")
    assert store.control_session("logged-out") is None
    assert store.prune_control_sessions(pin_key="pin-a", now=1000.0) == 2
    assert [store.control_session(h) is not None for h in ("current", "expired", "old-pin")] == [True, False, False]
    store.renew_control_session("current", expires=3000.0)
    assert store.control_session("current").expires == 3000.0


def test_a_corrupt_database_file_gives_a_clear_error(tmp_path):
    path = tmp_path / "events.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the event store"):
        EventStore(path)


def test_last_unfinished_game_is_the_one_to_resume(store):
    old = store.new_game("dice-race", {}, seed=1)
    store.append(old.id, actor="a", type="roll", payload={}, over=True)
    current = store.new_game("dice-race", {}, seed=2)
    assert store.last_unfinished_game().id == current.id
    store.append(current.id, actor="a", type="roll", payload={}, over=True)
    assert store.last_unfinished_game() is None


def test_an_event_that_takes_a_game_back_from_its_end_opens_it_again(store):
    game = store.new_game("dice-race", {}, seed=1)
    store.append(game.id, actor="a", type="roll", payload={}, over=True)
    store.append(game.id, actor="a", type="undo", payload={}, over=False)
    assert store.last_unfinished_game().id == game.id


def test_export_is_a_header_line_then_one_line_per_event(store):
    game = store.new_game("dice-race", {"players": ["a", "b"]}, seed=9)
    store.append(game.id, actor="a", type="roll", payload={"dice": ["6"]})
    lines = [json.loads(line) for line in store.export_jsonl(game.id)]
    assert lines[0]["kind"] == "game" and lines[0]["seed"] == 9 and lines[0]["options"] == {"players": ["a", "b"]}
    assert lines[1]["kind"] == "event" and lines[1]["payload"] == {"dice": ["6"]} and lines[1]["seq"] == 1


WRITER = textwrap.dedent(
    """
    import sys
    from companion.store import EventStore
    store = EventStore(sys.argv[1])
    game = store.new_game("dice-race", {}, seed=1)
    n = 0
    while True:
        n += 1
        event = store.append(game.id, actor="writer", type="tick", payload={"n": n, "pad": "x" * 200})
        print(event.seq, flush=True)
    """
)


def test_every_acknowledged_event_survives_sigkill_mid_append(tmp_path):
    path = tmp_path / "events.sqlite3"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    acknowledged = []
    for line in writer.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) == 300:
            break
    writer.send_signal(signal.SIGKILL)  # the writer is inside its loop, appending the next event
    writer.wait()
    acknowledged.extend(int(line) for line in writer.stdout.read().split())

    store = EventStore(path)
    game = store.games()[0]
    stored = [e.seq for e in store.events(game.id)]
    assert writer.returncode == -signal.SIGKILL
    assert set(acknowledged) <= set(stored)
    assert stored == list(range(1, len(stored) + 1))  # no gaps, no torn event
    assert all(e.payload["n"] == e.seq for e in store.events(game.id))


def test_one_event_is_read_by_its_seq(store):
    game = store.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    for face in "345":
        store.append(game.id, actor="Ada", type="roll", payload={"dice": [face]})
    assert store.event(game.id, 2).payload == {"dice": ["4"]}
    assert store.event(game.id, 9) is None
