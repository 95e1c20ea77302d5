"""The event log keeps every acknowledged event, whatever happens to the process."""

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from companion.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    EventStore,
    StoreCorrupt,
    StoreError,
    StoreFull,
    backup,
    move_aside,
)


def test_events_are_numbered_per_game_from_one(store):
    first = store.new_game("dice-race", {"players": ["a", "b"]}, seed=1)
    second = store.new_game("dice-race", {"players": ["c", "d"]}, seed=2)
    assert [store.append(first.id, actor="a", type="roll", payload={}).seq for _ in range(3)] == [1, 2, 3]
    assert store.append(second.id, actor="c", type="roll", payload={}).seq == 1
    assert [e.seq for e in store.events(first.id, after=1)] == [2, 3]


def test_database_uses_the_sd_card_settings(store):
    def pragma(name: str) -> object:
        return store._db.execute(f"PRAGMA {name}").fetchone()[0]

    assert pragma("journal_mode") == "wal"
    assert pragma("synchronous") == 2  # FULL: an acknowledged event is on the card
    assert (pragma("wal_autocheckpoint"), pragma("journal_size_limit")) == (1000, 4 * 1024 * 1024)
    assert pragma("busy_timeout") == 5000


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
    assert store.schema_version() == SCHEMA_VERSION == 3
    assert [g.seed for g in store.games()] == [5]
    store.add_control_session("h", pin_key="k", expires=2e9)
    assert store.control_session("h").pin_key == "k"


def version_2_database(path) -> None:
    """Three games as a companion of schema 2 left them: game 1 over by its rules (finished at its last event's
    time), game 2 replaced by "New game" (finished at game 3's start), game 3 on the table."""
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + ";" + MIGRATIONS[1] + "; PRAGMA user_version = 2;")
    rows = [(1, 10.0, 20.0), (2, 30.0, 40.0), (3, 40.0, None)]
    for game_id, created, finished in rows:
        db.execute("INSERT INTO games (id, game, options, seed, created, finished) VALUES (?, 'dice-race', ?, 1, ?, ?)",
                   (game_id, json.dumps({"players": ["Ada", "Bo"]}), created, finished))
    for game_id, seq, when in [(1, 1, 15.0), (1, 2, 20.0), (2, 1, 35.0), (3, 1, 45.0)]:
        db.execute("INSERT INTO events VALUES (?, ?, ?, 'Ada', 'roll', ?)",
                   (game_id, seq, when, json.dumps({"action": {"type": "roll", "dice": ["1"]}})))
    db.commit()
    db.close()


def test_a_version_2_database_opens_the_games_new_game_replaced_and_keeps_the_ones_over(tmp_path):
    version_2_database(tmp_path / "events.sqlite3")
    store = EventStore(tmp_path / "events.sqlite3")
    assert store.schema_version() == SCHEMA_VERSION == 3
    assert [(g.id, g.finished) for g in store.games()] == [(1, 20.0), (2, None), (3, None)]
    assert store.current_game().id == 3, "the newest game stays the one on the table"
    assert [(line.record.id, line.seq, line.summary, line.names) for line in store.listing()] == [
        (1, 2, None, None), (2, 1, None, None), (3, 1, None, None)]


def test_a_new_game_becomes_current_and_leaves_the_one_before_unfinished(store):
    first = store.new_game("dice-race", {}, seed=1)
    second = store.new_game("dice-race", {}, seed=2)
    assert store.current_game().id == second.id and store.game(first.id).finished is None
    store.make_current(first.id)
    assert store.current_game().id == first.id


def test_a_summary_is_written_with_its_event_and_never_filled_over(store):
    game = store.new_game("dice-race", {}, seed=1, summary={"actor": "Ada"}, names={"en": {"Ada": "Ada"}})
    store.append(game.id, actor="Ada", type="roll", payload={"action": {}}, summary={"actor": "Bo"})
    store.fill_summary(game.id, {"actor": "stale"}, {"en": {}})
    [line] = store.listing()
    assert line.summary == {"actor": "Bo"} and line.names == {"en": {"Ada": "Ada"}}
    assert line.seq == 1 and line.last.actor == "Ada"


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


def test_a_file_that_is_no_database_is_refused_as_damaged(tmp_path):
    path = tmp_path / "events.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreCorrupt, match="the event store is damaged"):
        EventStore(path)


def played_log(path, games: int = 3, events: int = 40) -> list[tuple[int, int]]:
    """A log of a few games with events of some size; the (game, seq) of every event."""
    store = EventStore(path)
    stored = []
    for n in range(games):
        game = store.new_game("dice-race", {"players": ["a", "b"]}, seed=n)
        for _ in range(events):
            stored.append((game.id, store.append(game.id, actor="a", type="roll", payload={"note": "x" * 300}).seq))
    store.close()
    return stored


def test_damaged_pages_of_a_real_log_are_refused_as_damaged(tmp_path):
    path = tmp_path / "events.sqlite3"
    played_log(path)
    data = bytearray(path.read_bytes())
    page = 4096
    data[page:] = bytes((i * 7919) % 251 for i in range(len(data) - page))  # every page but the header's
    path.write_bytes(bytes(data))
    with pytest.raises(StoreCorrupt):
        EventStore(path)


def test_move_aside_renames_the_log_with_its_wal_and_shm(tmp_path):
    path = tmp_path / "events.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"events.sqlite3{suffix}").write_text(suffix or "log")
    moved = move_aside(path, now=0)
    assert moved.name == "events.sqlite3.corrupt-19700101T000000Z"
    assert sorted(p.name for p in tmp_path.iterdir()) == [moved.name, moved.name + "-shm", moved.name + "-wal"]
    assert moved.read_text() == "log"


def test_a_full_card_refuses_the_event_keeps_every_acknowledged_one_and_takes_the_next_once_there_is_room(store):
    """SQLite's max_page_count makes the database as full as a full card would (SQLITE_FULL, the same error)."""
    game = store.new_game("dice-race", {"players": ["a", "b"]}, seed=1)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages + 2}")
    acknowledged = []
    with pytest.raises(StoreFull, match="full"):
        for _ in range(100):
            acknowledged.append(store.append(game.id, actor="a", type="roll", payload={"note": "x" * 2000}).seq)
    assert acknowledged and [e.seq for e in store.events(game.id)] == acknowledged
    store._db.execute(f"PRAGMA max_page_count = {pages + 1000}")
    assert store.append(game.id, actor="a", type="roll", payload={}).seq == acknowledged[-1] + 1


def test_a_backup_taken_while_events_are_appended_is_a_whole_checked_log(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "secret_key").write_text("k")
    (data / "tray").mkdir()
    (data / "tray" / "tray.json").write_text("{}")
    store = EventStore(data / "events.sqlite3")
    game = store.new_game("dice-race", {"players": ["a", "b"]}, seed=1)
    stop = threading.Event()

    def keep_appending() -> None:
        while not stop.is_set():
            store.append(game.id, actor="a", type="roll", payload={"note": "x" * 500})

    writer = threading.Thread(target=keep_appending)
    writer.start()
    try:
        time.sleep(0.2)
        games, events = backup(data, tmp_path / "copy")
    finally:
        stop.set()
        writer.join()
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == ["events.sqlite3", "secret_key", "tray"]
    copy = EventStore(tmp_path / "copy" / "events.sqlite3")
    assert games == 1 and events == len(copy.events(game.id)) > 0
    assert [e.seq for e in copy.events(game.id)] == list(range(1, events + 1))  # a prefix, no gap, no torn event
    assert (tmp_path / "copy" / "secret_key").read_text() == "k" and (tmp_path / "copy" / "tray" / "tray.json").exists()
    copy.close()
    store.close()


def test_a_backup_goes_to_a_new_folder_outside_the_data_dir(tmp_path):
    (tmp_path / "data").mkdir()
    with pytest.raises(StoreError, match="outside the data dir"):
        backup(tmp_path / "data", tmp_path / "data" / "copy")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "something").write_text("x")
    with pytest.raises(StoreError, match="not empty"):
        backup(tmp_path / "data", tmp_path / "full")


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
