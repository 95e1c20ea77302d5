"""The event log: SQLite in the data dir, the single source of truth for every game played at this table.

Why an append-only log rather than a saved state: a Pi beside a game gets its power cable pulled, and players
dispute what happened. A log answers both. State is whatever replaying the log gives; undo is an ``undo`` event,
so nothing once confirmed is ever rewritten (triggers refuse UPDATE and DELETE on events).

Durability: one transaction per append, so :meth:`EventStore.append` returns only after the event is on the card.
A SIGKILL or power cut can lose at most an event that was never acknowledged. The settings for an SD card are in
:data:`PRAGMAS`. A card that is full refuses the event (:class:`StoreFull`) and keeps everything before it; a file
that is no database any more is moved aside (:func:`move_aside`) so the table can start a fresh one; a copy is made
while the table runs with :meth:`EventStore.backup`.

Each game has its own append-only sequence of events, numbered from 1, in the ``events`` table keyed by
``(game_id, seq)``; the ``games`` table holds what replay starts from (game id, options, seed), whether the game is
over (``finished``, set by its rules' end only) and a summary for the games list, written in the same transaction as
each event so it never lags the log. ``current_game`` names the game on the table: starting another one leaves the
old one as it was, to be resumed.

The ``control_sessions`` table is kept here too but is no log: a browser logged in with the table's PIN has a row
there until it logs out, the PIN changes or the session expires (companion/web/auth.py says why it is server-side).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 3
STORE_FILE = "events.sqlite3"
"""The event log's name in the data dir."""

PRAGMAS = [
    # Appends go to the write-ahead log, one sequential write per event; a rollback journal would create, write and
    # delete a file per event, the small scattered writes that wear an SD card fastest.
    "PRAGMA journal_mode=WAL",
    # FULL: the log is synced before an append returns, so an event a screen was told is stored survives a pulled
    # cable. (NORMAL, which Home Assistant's recorder takes when it batches commits, may lose the last ones.)
    "PRAGMA synchronous=FULL",
    # The WAL is written back into the database every 1000 pages (SQLite's default: about a game night of events),
    # each page once however often an event changed it; after that the WAL file is cut back to 4 MB, so a long
    # read (an export, a backup) that held the checkpoint off leaves no large file behind.
    "PRAGMA wal_autocheckpoint=1000",
    "PRAGMA journal_size_limit=4194304",
    # A backup or an export in another process may hold a lock for a moment: wait for it, do not fail the event.
    "PRAGMA busy_timeout=5000",
    "PRAGMA foreign_keys=ON",
]

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
    # 3: no game is thrown away. Which game is on the table (current_game) is kept apart from which games are over
    # (finished), and each game keeps what the games list shows: ``summary`` (players, who decides next), written
    # with every event, and ``names`` (how the log names actors and pieces), written when they change.
    # Before, a new game set ``finished`` of the one it replaced to its own start time; a game over by its rules got
    # the time of the event that ended it (both in one transaction). So a finished time that is no event's time of
    # that game means "replaced, not over": such games are open again, resumable from the games list. The newest
    # game is the current one, as before (a restart resumed the last unfinished game, which only the newest could
    # be); summary and names of the old games are filled in when they are first listed.
    """
    UPDATE games SET finished = NULL WHERE finished IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM events WHERE events.game_id = games.id AND events.time = games.finished);
    ALTER TABLE games ADD COLUMN summary TEXT;
    ALTER TABLE games ADD COLUMN names TEXT;
    CREATE TABLE current_game (
        slot INTEGER PRIMARY KEY CHECK (slot = 1),
        game_id INTEGER NOT NULL REFERENCES games(id)
    );
    INSERT INTO current_game (slot, game_id) SELECT 1, id FROM games ORDER BY id DESC LIMIT 1;
    """,
]


class StoreError(RuntimeError):
    """The data dir's database cannot be used (newer schema, corrupt file)."""


class StoreCorrupt(StoreError):
    """The file is not an SQLite database any more, or its pages are damaged (SQLITE_CORRUPT, SQLITE_NOTADB)."""


class StoreFull(StoreError):
    """The card (or the database's size limit) is full: the event was not stored, nothing before it was lost."""


class StoreClosed(StoreError):
    """The store was closed (the companion is stopping): a thread still reading ends without its answer."""


CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
FULL_CODES = {sqlite3.SQLITE_FULL}


def _store_error(path: str, exc: sqlite3.Error) -> StoreError | None:
    """The store's own error for ``exc`` when it is a damaged file or a full card; None for any other."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        code &= 0xFF  # the primary code of an extended one (SQLITE_CORRUPT_INDEX, ...)
    if code in CORRUPT_CODES:
        return StoreCorrupt(f"{path}: the event store is damaged: {exc}")
    if code in FULL_CODES:
        return StoreFull(f"{path}: the card is full; the event was not stored ({exc})")
    return None


def move_aside(path: str | Path, *, now: float | None = None) -> Path:
    """Rename a damaged database, with its -wal and -shm files, to ``<name>.corrupt-<UTC time>`` beside it, so a
    fresh one can start and the damaged one can still be examined or rescued. Returns the database's new path."""
    path = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        if part.exists():
            os.replace(part, target.with_name(target.name + suffix))
    return target


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    options: dict[str, Any]
    seed: int
    created: float
    finished: float | None


GAME_COLUMNS = "id, game, options, seed, created, finished"
"""A GameRecord's columns (``SELECT *`` would change with every column a migration adds)."""


@dataclass(frozen=True)
class GameListing:
    """One line of the games list: the game, its summary and names (None until it has them), its last seq and last
    event."""

    record: GameRecord
    summary: dict[str, Any] | None
    names: dict[str, Any] | None
    seq: int
    last: StoredEvent | None


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
        self._closed = False
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            for pragma in PRAGMAS:
                self._db.execute(pragma)
            self._migrate()
            self._db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1").fetchall()  # the tables read
        except sqlite3.DatabaseError as exc:
            if hasattr(self, "_db"):
                self._db.close()
            known = _store_error(self.path, exc)
            raise known or StoreError(f"{self.path}: cannot open the event store: {exc}") from None

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> EventStore:
        return cls(Path(data_dir) / STORE_FILE)

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
        self._check_open()
        return _Transaction(self._db, self.path)

    def _check_open(self) -> None:
        """Called holding the lock, which ``close`` takes too: no statement starts on a closed connection."""
        if self._closed:
            raise StoreClosed(f"{self.path}: the event store is closed")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()

    # -- games -----------------------------------------------------------------------------------------------------

    def new_game(self, game: str, options: dict[str, Any], *, seed: int,
                 summary: dict[str, Any] | None = None, names: dict[str, Any] | None = None) -> GameRecord:
        """Record a new game and make it the current one in one transaction: a power cut leaves either the old game
        current or the new one started, never neither. The game it replaces stays as it was, to be resumed."""
        created = time.time()
        with self._lock, self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (game, options, seed, created, summary, names) VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(options, sort_keys=True, allow_nan=False), seed, created, _json_or_none(summary),
                 _json_or_none(names)),
            )
            self._db.execute("INSERT OR REPLACE INTO current_game (slot, game_id) VALUES (1, ?)", (cursor.lastrowid,))
        return GameRecord(cursor.lastrowid, game, options, seed, created, None)

    def make_current(self, game_id: int) -> None:
        """Put game ``game_id`` back on the table (a restart resumes it)."""
        self._write("INSERT OR REPLACE INTO current_game (slot, game_id) VALUES (1, ?)", (game_id,))

    def current_game(self) -> GameRecord | None:
        """The game on the table, over or not; None before the first game."""
        rows = self._query(f"SELECT {GAME_COLUMNS} FROM games WHERE id = (SELECT game_id FROM current_game)")
        return _game(rows[0]) if rows else None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            self._check_open()
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise _store_error(self.path, exc) or exc from None

    def game(self, game_id: int) -> GameRecord:
        row = next(iter(self._query(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))), None)
        if row is None:
            raise KeyError(f"no game {game_id}")
        return _game(row)

    def games(self) -> list[GameRecord]:
        return [_game(row) for row in self._query(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id")]

    def last_unfinished_game(self) -> GameRecord | None:
        rows = self._query(f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1")
        return _game(rows[0]) if rows else None

    def listing(self) -> list[GameListing]:
        """Every game, oldest first, with its summary, its last seq and its last event: what the games list shows,
        in two indexed queries however many games and events the table has."""
        last = {g: StoredEvent(g, s, t, a, ty, json.loads(p)) for g, s, t, a, ty, p in self._query(
            "SELECT e.game_id, e.seq, e.time, e.actor, e.type, e.payload FROM events e JOIN "
            "(SELECT game_id, MAX(seq) AS seq FROM events GROUP BY game_id) l ON e.game_id = l.game_id "
            "AND e.seq = l.seq")}
        listed = []
        for row in self._query(f"SELECT {GAME_COLUMNS}, summary, names FROM games ORDER BY id"):
            summary, names = (json.loads(value) if value else None for value in row[-2:])
            record, stored = _game(row[:-2]), last.get(row[0])
            listed.append(GameListing(record, summary, names, stored.seq if stored else 0, stored))
        return listed

    def fill_summary(self, game_id: int, summary: dict[str, Any], names: dict[str, Any]) -> None:
        """The summary and names of a game listed before it had them (a log from before schema 3); each only where
        there is none, never over a newer one."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET summary = ? WHERE id = ? AND summary IS NULL",
                             (_json_or_none(summary), game_id))
            self._db.execute("UPDATE games SET names = ? WHERE id = ? AND names IS NULL",
                             (_json_or_none(names), game_id))

    # -- events ----------------------------------------------------------------------------------------------------

    def append(self, game_id: int, *, actor: str, type: str, payload: dict[str, Any],
               over: bool = False, summary: dict[str, Any] | None = None,
               names: dict[str, Any] | None = None) -> StoredEvent:
        """Store one event durably and return it with its sequence number (1, 2, ... per game).

        ``over``: whether the game is over after this event. It is finished (not resumed after a restart) in the
        same transaction, and an undo that takes a game back from its end opens it again: a power cut between the
        two writes would otherwise leave a game in progress that no restart resumes. ``summary`` (the games list's
        line of the game after this event) and ``names`` (where they changed) are written in the same transaction,
        for the same reason.
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
            if summary is not None:
                self._db.execute("UPDATE games SET summary = ? WHERE id = ?", (_json_or_none(summary), game_id))
            if names is not None:
                self._db.execute("UPDATE games SET names = ? WHERE id = ?", (_json_or_none(names), game_id))
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
            self._check_open()
            try:
                return self._db.execute(sql, params).rowcount
            except sqlite3.Error as exc:
                raise _store_error(self.path, exc) or exc from None


def backup(data_dir: str | Path, target: str | Path) -> tuple[int, int]:
    """Copy the data dir into ``target`` (a new or empty folder) while the companion may be running; returns how
    many games and events the copy holds.

    The event log is copied with SQLite's backup API in one step: one read transaction, so the copy is the log as it
    was at one moment, never half an append, and the table goes on appending meanwhile (WAL). It is checked
    (``integrity_check``) and made one self-contained file. Every other file (calibration, taught dice, the tray's
    roll, the cookie key) is copied as it is: each is replaced whole when it changes.
    """
    data_dir, target = Path(data_dir), Path(target)
    if target.resolve().is_relative_to(data_dir.resolve()):
        raise StoreError(f"{target}: the copy must go outside the data dir {data_dir}")
    if target.exists() and any(target.iterdir()):
        raise StoreError(f"{target}: not empty; give a new folder for the copy")
    target.mkdir(parents=True, exist_ok=True)
    log_files = {STORE_FILE, f"{STORE_FILE}-wal", f"{STORE_FILE}-shm"}
    for item in sorted(data_dir.iterdir()):
        if item.name in log_files:
            continue
        if item.is_dir():
            shutil.copytree(item, target / item.name)
        else:
            shutil.copy2(item, target / item.name)
    if not (data_dir / STORE_FILE).exists():
        return 0, 0
    source = sqlite3.connect(data_dir / STORE_FILE)
    copy = sqlite3.connect(target / STORE_FILE, isolation_level=None)
    try:
        source.execute("PRAGMA busy_timeout=5000")
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one file; the companion turns WAL on when it opens it
        checked = copy.execute("PRAGMA integrity_check").fetchone()[0]
        if checked != "ok":
            raise StoreError(f"{target / STORE_FILE}: the copy does not check out: {checked}")
        games = copy.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        events = copy.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise _store_error(str(data_dir / STORE_FILE), exc) or StoreError(f"cannot copy the event log: {exc}") from None
    finally:
        copy.close()
        source.close()
    return games, events


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error: the connection runs in autocommit mode otherwise.

    A COMMIT that fails (a full card) is rolled back too, so the next transaction can begin; a full card or a
    damaged file is raised as the store's own error."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _store_error(self.path, exc) or exc from None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as failed:
                exc = failed
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise _store_error(self.path, exc) or exc from None


def _json_or_none(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, allow_nan=False)


def _game(row: tuple[Any, ...]) -> GameRecord:
    id_, game, options, seed, created, finished = row
    return GameRecord(id_, game, json.loads(options), seed, created, finished)
