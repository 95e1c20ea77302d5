"""The event log: SQLite in the data dir, the single source of truth for every game played at this table.

Why an append-only log rather than a saved state: a Pi beside a game gets its power cable pulled, and players
dispute what happened. A log answers both. State is whatever replaying the log gives; undo is an ``undo`` event,
so nothing once confirmed is ever rewritten (triggers refuse UPDATE and DELETE on events).

Durability: WAL journal with ``synchronous=FULL`` and one transaction per append, so :meth:`EventStore.append`
returns only after the event is on disk. A SIGKILL or power cut can lose at most an event that was never
acknowledged.

Each game has its own append-only sequence of events, numbered from 1, in the ``events`` table keyed by
``(game_id, seq)``; the ``games`` table holds what replay starts from (game id, options, seed).

The ``control_sessions`` table is kept here too but is no log: a browser logged in with the table's PIN has a row
there until it logs out, the PIN changes or the session expires (companion/web/auth.py says why it is server-side).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 2

# Migration n brings the database from version n - 1 to n. Never edit a shipped migration: append a new one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        created REAL NOT NULL,
        finished REAL
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        time REAL NOT NULL,
        actor TEXT NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
    """
    CREATE TABLE control_sessions (
        token_hash TEXT PRIMARY KEY,
        pin_key TEXT NOT NULL,
        created REAL NOT NULL,
        expires REAL NOT NULL
    ) WITHOUT ROWID;
    """,
]


class StoreError(RuntimeError):
    """The data dir's database cannot be used (newer schema, corrupt file)."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    options: dict[str, Any]
    seed: int
    created: float
    finished: float | None


@dataclass(frozen=True)
class ControlSession:
    """A browser's right to change the table. Neither the token nor the PIN is kept: only hashes of them."""

    token_hash: str
    pin_key: str
    created: float
    expires: float


@dataclass(frozen=True)
class StoredEvent:
    game_id: int
    seq: int
    time: float
    actor: str
    type: str
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "time": self.time,
            "actor": self.actor,
            "type": self.type,
            "payload": self.payload,
        }


class EventStore:
    """Append-only games and events in one SQLite file. Safe to share between threads (one lock, one connection).

    >>> store = EventStore(":memory:")
    >>> game = store.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=7)
    >>> store.append(game.id, actor="Ada", type="roll", payload={"dice": ["4"]}).seq
    1
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot open the event store: {exc}") from None

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> EventStore:
        return cls(Path(data_dir) / "events.sqlite3")

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: schema version {version} is newer than this companion ({SCHEMA_VERSION}); update it"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            # executescript commits whatever is pending first, so the transaction lives inside the script.
            script = MIGRATIONS[number - 1]
            self._db.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {number}; COMMIT;")

    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- games -----------------------------------------------------------------------------------------------------

    def new_game(self, game: str, options: dict[str, Any], *, seed: int, replacing: int | None = None) -> GameRecord:
        """Record a new game; ``replacing`` (the game it follows) is finished in the same transaction, so a power
        cut leaves either the old game unfinished or the new one started, never neither."""
        created = time.time()
        with self._lock, self._transaction():
            if replacing is not None:
                self._db.execute("UPDATE games SET finished = ? WHERE id = ? AND finished IS NULL",
                                 (created, replacing))
            cursor = self._db.execute(
                "INSERT INTO games (game, options, seed, created) VALUES (?, ?, ?, ?)",
                (game, json.dumps(options, sort_keys=True, allow_nan=False), seed, created),
            )
        return GameRecord(cursor.lastrowid, game, options, seed, created, None)

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def game(self, game_id: int) -> GameRecord:
        row = next(iter(self._query("SELECT * FROM games WHERE id = ?", (game_id,))), None)
        if row is None:
            raise KeyError(f"no game {game_id}")
        return _game(row)

    def games(self) -> list[GameRecord]:
        return [_game(row) for row in self._query("SELECT * FROM games ORDER BY id")]

    def last_unfinished_game(self) -> GameRecord | None:
        row = next(iter(self._query("SELECT * FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1")), None)
        return _game(row) if row else None

    # -- events ----------------------------------------------------------------------------------------------------

    def append(self, game_id: int, *, actor: str, type: str, payload: dict[str, Any],
               over: bool = False) -> StoredEvent:
        """Store one event durably and return it with its sequence number (1, 2, ... per game).

        ``over``: whether the game is over after this event. It is finished (not resumed after a restart) in the
        same transaction, and an undo that takes a game back from its end opens it again: a power cut between the
        two writes would otherwise leave a game in progress that no restart resumes.
        """
        now = time.time()
        data = json.dumps(payload, sort_keys=True, allow_nan=False)  # the log is standard JSON, forever
        with self._lock, self._transaction():
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            self._db.execute(
                "INSERT INTO events (game_id, seq, time, actor, type, payload) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, now, actor, type, data),
            )
            if over:
                self._db.execute("UPDATE games SET finished = ? WHERE id = ? AND finished IS NULL", (now, game_id))
            else:
                self._db.execute("UPDATE games SET finished = NULL WHERE id = ? AND finished IS NOT NULL", (game_id,))
        return StoredEvent(game_id, seq, now, actor, type, payload)

    def events(self, game_id: int, *, after: int = 0) -> list[StoredEvent]:
        rows = self._query(
            "SELECT game_id, seq, time, actor, type, payload FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [StoredEvent(g, s, t, a, ty, json.loads(p)) for g, s, t, a, ty, p in rows]

    def event(self, game_id: int, seq: int) -> StoredEvent | None:
        """One event (an undo's log line names what it took back), without reading the ones after it."""
        rows = self._query("SELECT game_id, seq, time, actor, type, payload FROM events WHERE game_id = ? AND seq = ?",
                           (game_id, seq))
        return next((StoredEvent(g, s, t, a, ty, json.loads(p)) for g, s, t, a, ty, p in rows), None)

    def undone_seqs(self, game_id: int) -> list[int]:
        """The events an undo took back, without reading every payload's actions (the log marks them)."""
        rows = self._query("SELECT json_extract(payload, '$.undoes') FROM events WHERE game_id = ? AND type = 'undo' "
                           "ORDER BY seq", (game_id,))
        return [seq for (seq,) in rows if isinstance(seq, int)]

    def export_jsonl(self, game_id: int) -> Iterator[str]:
        """One JSON object per line: the game header first, then every event in order."""
        record = self.game(game_id)
        yield json.dumps({"kind": "game", **record.__dict__}, sort_keys=True)
        for event in self.events(game_id):
            yield json.dumps({"kind": "event", **event.to_json()}, sort_keys=True)

    # -- control sessions ------------------------------------------------------------------------------------------

    def add_control_session(self, token_hash: str, *, pin_key: str, expires: float) -> ControlSession:
        created = time.time()
        self._write("INSERT INTO control_sessions VALUES (?, ?, ?, ?)", (token_hash, pin_key, created, expires))
        return ControlSession(token_hash, pin_key, created, expires)

    def control_session(self, token_hash: str) -> ControlSession | None:
        rows = self._query("SELECT * FROM control_sessions WHERE token_hash = ?", (token_hash,))
        return ControlSession(*rows[0]) if rows else None

    def renew_control_session(self, token_hash: str, *, expires: float) -> None:
        self._write("UPDATE control_sessions SET expires = ? WHERE token_hash = ?", (expires, token_hash))

    def end_control_session(self, token_hash: str) -> None:
        self._write("DELETE FROM control_sessions WHERE token_hash = ?", (token_hash,))

    def prune_control_sessions(self, *, pin_key: str, now: float) -> int:
        """End the sessions granted under another PIN and those expired; returns how many ended."""
        return self._write("DELETE FROM control_sessions WHERE pin_key != ? OR expires <= ?", (pin_key, now))

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        """One statement in autocommit mode: atomic and, with synchronous=FULL, on disk when it returns."""
        with self._lock:
            return self._db.execute(sql, params).rowcount


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error: the connection runs in autocommit mode otherwise."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc is None else "ROLLBACK")


def _game(row: tuple[Any, ...]) -> GameRecord:
    id_, game, options, seed, created, finished = row
    return GameRecord(id_, game, json.loads(options), seed, created, finished)
