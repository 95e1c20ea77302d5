"""TableSession: the one place where dice readings, button presses and dashboard choices meet the rules.

Everything that can change the table goes through :meth:`TableSession.act` (or :meth:`undo`): the rules check it,
the store makes it durable, and only then is it published to the dashboards. Nothing else writes state, so the
log, the screens and the real table cannot drift apart, and a restart resumes from the log exactly.

What is *not* stored: a dice reading the camera offers but nobody has confirmed yet, and the camera's status.
Those are published live but are not facts about the game until a player confirms them.
"""

from __future__ import annotations

import json
import logging
import math
import os
import queue
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from companion.games import GAMES, Game, IllegalAction, Prompt, get_game, get_presentation
from companion.games.base import BOT_KEY, check_fields, check_name, is_listed
from companion.seating import SEAT, changed, players_of, seat_names, seated
from companion.store import EventStore, GameListing, GameRecord, StoredEvent, StoreFull
from companion.texts import LANGUAGES

log = logging.getLogger(__name__)

UNDO = "undo"
DIE_MOVED = "die_moved"
"""The type of the event the camera stores when the dice of a confirmed roll moved before they were picked up
(:meth:`TableSession.die_moved`): a fact about the tray, not a choice; the rules never see it."""
NOT_ACTIONS = frozenset({UNDO, SEAT, DIE_MOVED})
"""The table's own event types: every other stored event is an action the rules applied."""
CAMERA = "camera"
"""The ``source`` of a reading the camera offered, and the actor of what it stores itself (:data:`DIE_MOVED`)."""
TRAY = "tray"
"""``status["tray"]``: the dice of the confirmed roll moved after they were read (every screen says so)."""
T = TypeVar("T")


class NoGame(RuntimeError):
    """An action arrived while no game is being played."""


class NoSuchGame(LookupError):
    """A game number the log does not hold."""

    def __init__(self, number: int) -> None:
        super().__init__(f"no game {number}")
        self.number = number


class GameIsOver(RuntimeError):
    """A finished game cannot be put back on the table: its rules have ended it."""


class Stale(RuntimeError):
    """A choice made on a state the table has since left (a late tap, a second tablet, a double tap).

    Applying it would do something nobody chose on the table as it is now, so it is refused and nothing changes.
    """

    def __init__(self, what: str, chosen_on: int, now: int) -> None:
        super().__init__(f"the table moved on: this was chosen on {what} {chosen_on}, the table is at {now}")
        self.what = what
        self.chosen_on = chosen_on
        self.now = now


MAX_SEED = 2**63 - 1
"""Seeds are stored as SQLite integers (signed 64 bit)."""


class Broker:
    """Fan-out of messages to live subscribers (the SSE streams). A subscriber too slow to keep up loses its
    oldest messages rather than stalling the table; every message carries the full state, so the next one heals it.
    """

    def __init__(self, *, backlog: int = 64) -> None:
        self._subscribers: set[queue.Queue[dict[str, Any] | None]] = set()
        self._lock = threading.Lock()
        self._backlog = backlog

    def subscribe(self) -> queue.Queue[dict[str, Any] | None]:
        q: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=self._backlog)
        with self._lock:
            self._subscribers.add(q)
        return q

    def unsubscribe(self, q: queue.Queue[dict[str, Any] | None]) -> None:
        with self._lock:
            self._subscribers.discard(q)

    def publish(self, message: dict[str, Any]) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for q in subscribers:
            while True:
                try:
                    q.put_nowait(message)
                    break
                except queue.Full:
                    try:
                        q.get_nowait()
                    except queue.Empty:
                        pass

    def close(self) -> None:
        """Tell every subscriber the table is going away (``None``), so streams end instead of idling."""
        with self._lock:
            subscribers = list(self._subscribers)
        for q in subscribers:
            try:
                q.put_nowait(None)
            except queue.Full:
                pass

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subscribers)


@dataclass
class _Current:
    record: GameRecord
    game: Game
    state: Any
    actions: list[tuple[int, dict[str, Any]]]
    """The actions in effect (undone ones removed), with the seq of the event that stored each."""
    last_seq: int


def replay(game: Game, record: GameRecord, events: list[StoredEvent]) -> tuple[Any, list[tuple[int, dict]]]:
    """Rebuild a game's state from its header and its events: the log is the truth, state is derived."""
    actions: list[tuple[int, dict[str, Any]]] = []
    for event in events:
        if event.type == UNDO:
            if actions:
                actions.pop()
        elif event.type not in NOT_ACTIONS:  # a seat change is in the record's options already (seating.seated)
            actions.append((event.seq, event.payload["action"]))
    return play(game, record, actions), actions


def summary_of(game: Game, record: GameRecord, state: Any) -> dict[str, Any]:
    """What the games list shows of a game without replaying it, stored with each of its events: the players and
    who decides next (an actor id)."""
    return {"players": seat_names(record.options), "actor": game.prompt(state).actor}


def names_of(game: Game, state: Any) -> dict[str, dict[str, str]]:
    """How the log names the game's actors and pieces in each language (the games list tells a last move with them).
    They change with the seats, not with the moves: stored when a game starts and when a seat changes."""
    presentation = get_presentation(game.id)
    if presentation is None:
        return {}
    view = game.view(state)
    return {lang: presentation.names(view, lang) for lang in LANGUAGES}


def play(game: Game, record: GameRecord, actions: list[tuple[int, dict[str, Any]]]) -> Any:
    """The state after ``actions`` (with the seq of each), from the game's set-up."""
    state = game.setup(record.options, random.Random(record.seed))
    for _, action in actions:
        state, _ = game.apply(state, action)
    return state


class TableSession:
    """One table, one game at a time, many screens.

    >>> from companion.store import EventStore
    >>> session = TableSession(EventStore(":memory:"))
    >>> _ = session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    >>> session.act({"type": "roll", "dice": ["5"]}, actor="Ada").seq
    1
    >>> session.snapshot()["view"]["players"][0]
    {'name': 'Ada', 'position': 5}
    """

    def __init__(self, store: EventStore, *, broker: Broker | None = None, min_confidence: float = 0.8,
                 pending_path: Path | None = None) -> None:
        self.store = store
        self.min_confidence = min_confidence
        self.broker = broker or Broker()
        self.pending_path = Path(pending_path) if pending_path is not None else None
        """Where the roll lying in the tray is kept across a restart (``None``: memory only)."""
        self._lock = threading.RLock()
        self._current: _Current | None = None
        self._pending: dict[str, Any] | None = None
        self._readings = 0
        """Numbers the readings offered (``pending["reading"]``), so a confirm can name the one it saw."""
        self._consumed: dict[str, Any] | None = None
        """The reading the last action used and the event that stored it: offered again if that event is undone
        before the camera reads anything new, since the dice still lie in the tray."""
        self._in_tray: dict[str, Any] | None = None
        """The camera's roll confirmed last and the event that stored it, until the camera offers another: its dice
        lie in the tray until they are picked up, and the camera watches them (:meth:`confirmed_roll`)."""
        self._typed_roll_restored = False
        """A roll typed in by hand was waiting when the table restarted: the camera's first look after the restart
        (of the dice that lay there all along, which it may well have misread) does not replace it."""
        self._status: dict[str, Any] = {}
        self._cursor = 0
        self.correction_listeners: list[Callable[[dict[str, Any]], None]] = []
        """Called with each die a player corrects (the camera keeps its crop to teach the classifier)."""
        self.game_listeners: list[Callable[[Game], None]] = []
        """Called with the game whenever one starts or resumes: the camera switches to its dice set at once."""
        self.event_listeners: list[Callable[[StoredEvent], None]] = []
        """Called with each event once it is stored and published: the table's statistics count it."""

    # -- games -----------------------------------------------------------------------------------------------------

    def resume(self) -> bool:
        """Continue the current game from the log, as it was when the power went (a game over stays closed: the
        table starts without one, as it did before games could be resumed)."""
        record = self.store.current_game()
        if record is None or record.finished is not None:
            return False
        loaded = self._replayed(record)
        with self._lock:
            self._put(loaded)
        log.info("resumed game %d (%s) at event %d", record.id, record.game, loaded.last_seq)
        self._game_changed(loaded.game)
        self._publish({"kind": "resumed"})
        return True

    def resume_game(self, number: int, *, current: int | None = None) -> GameRecord:
        """Put unfinished game ``number`` back on the table, as it was left; the game on the table stays as it is.

        ``current`` is the game that was on the table when the choice was made (0: none): :class:`Stale` if another
        is now. :class:`NoSuchGame`, :class:`GameIsOver` for a game that cannot be resumed."""
        with self._lock:
            self._check_current(current)
            record = self._record(number)
            if record.finished is not None:
                raise GameIsOver(f"game {number} is over; it can be exported or played again as a rematch")
            loaded = self._replayed(record)  # a log that does not replay raises here, before the table changes
            self._write_log(lambda: self.store.make_current(number))
            self._put(loaded)
        log.info("game %d (%s) resumed from the games list", record.id, record.game)
        self._game_changed(loaded.game)  # the camera switches to its dice, as on a resume at start-up
        self._publish({"kind": "resumed"})
        return loaded.record

    def rematch(self, number: int, *, current: int | None = None, seed: int | None = None) -> GameRecord:
        """A new game of game ``number``'s game with its players (as they are seated now) and options, new seed."""
        record = self._record(number)
        options = seated(record.options, self.store.events(number))
        return self.new_game(record.game, options, seed=seed, current=current)

    def _record(self, number: int) -> GameRecord:
        try:
            return self.store.game(number)
        except KeyError:
            raise NoSuchGame(number) from None

    def _check_current(self, current: int | None) -> None:
        """``current``: the game on the table when a choice of game was made (0 for none); None: not said."""
        now = self._current.record.id if self._current is not None else 0
        if current is not None and current != now:
            raise Stale("current", current, now)

    def _replayed(self, record: GameRecord) -> _Current:
        """Game ``record`` as its log leaves it (the seat changes applied to its set-up first: see seating)."""
        game = get_game(record.game)
        events = self.store.events(record.id)
        record = replace(record, options=seated(record.options, events))
        state, actions = replay(game, record, events)
        return _Current(record, game, state, actions, events[-1].seq if events else 0)

    def _put(self, current: _Current) -> None:
        """Put a replayed game on the table, with the roll lying in the tray if it was left there for it."""
        self._current = current
        self._pending = None
        self._consumed = None
        self._in_tray = None
        self._typed_roll_restored = False
        self._cursor = 0
        self._restore_tray()

    def new_game(self, game_id: str, options: Mapping[str, Any], *, seed: int | None = None,
                 current: int | None = None) -> GameRecord:
        """Start a game and put it on the table; the one before stays as it was, resumable from the games list.
        ``current``: the game on the table when the set-up was chosen (see :meth:`resume_game`)."""
        game = get_game(game_id)
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise IllegalAction("SETUP", f"seed must be a whole number from 0 to {MAX_SEED}")
        state = game.setup(options, random.Random(seed))  # raises IllegalAction before anything is stored
        with self._lock:
            self._check_current(current)
            draft = GameRecord(0, game_id, dict(options), seed, 0.0, None)
            summary, names = summary_of(game, draft, state), names_of(game, state)
            record = self._write_log(lambda: self.store.new_game(game_id, dict(options), seed=seed, summary=summary,
                                                                names=names))
            self._current = _Current(record, game, state, [], 0)
            self._pending = None
            self._typed_roll_restored = False
            self._consumed = None
            self._in_tray = None
            self._cursor = 0
            self._save_tray()
        self._game_changed(game)
        self._publish({"kind": "new_game"})
        return record

    def change_seat(self, seat: int, *, name: str | None = None, bot: bool | None = None, actor: str,
                    source: str = "dashboard", seq: int | None = None, game: int | None = None) -> StoredEvent:
        """Rename seat ``seat`` (from 0) or hand it to a bot (``bot=True``) and back, mid-game: an event in the
        log (:data:`companion.seating.SEAT`), so a replay seats the players as the table did. The name is checked
        as a set-up's is (``check_name``: 1-24 printable characters, distinct ignoring case)."""
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            players = players_of(current.record.options)
            if not 0 <= seat < len(players):
                raise IllegalAction("SEAT", f"no seat {seat}; there are {len(players)}", field="seat")
            was = {"name": players[seat].get("name"), BOT_KEY: bool(players[seat].get(BOT_KEY, False))}
            change: dict[str, Any] = {"seat": seat}
            if name is not None:
                others = [p.get("name", "") for k, p in enumerate(players) if k != seat]
                name = check_name(name, [o for o in others if isinstance(o, str)], "name", "SEAT")
                if name != was["name"]:
                    change["name"] = name
            if bot is not None and bot != was[BOT_KEY]:
                change[BOT_KEY] = bot
            if len(change) == 1:
                raise IllegalAction("SEAT", "nothing changes: give another name or the other kind of seat",
                                    field="name" if name is not None else BOT_KEY)
            record = replace(current.record, options=changed(current.record.options, change))
            state = play(current.game, record, current.actions)  # the set-up checks the seat as a new game would
            payload = {**change, "was": was, "source": source}
            summary, names = summary_of(current.game, record, state), names_of(current.game, state)
            over = current.game.is_over(state)
            stored = self._write_log(lambda: self.store.append(record.id, actor=actor, type=SEAT, payload=payload,
                                                               over=over, summary=summary, names=names))
            current.record, current.state, current.last_seq = record, state, stored.seq
            self._save_tray()
        self._publish({"kind": "event", "event": stored.to_json()})
        self._stored(stored)
        return stored

    def game_list(self) -> list[GameListing]:
        """Every game with its summary and names (``store.listing``). A game from before they were stored (schema 3)
        is replayed once for them, and they are kept (only where there are none: never over newer ones)."""
        listed = self.store.listing()
        for n, line in enumerate(listed):
            if (line.summary is None or line.names is None) and line.record.game in GAMES:
                try:
                    loaded = self._replayed(line.record)
                    summary = summary_of(loaded.game, loaded.record, loaded.state)
                    names = names_of(loaded.game, loaded.state)
                except Exception:  # a log the rules no longer read is still listed, with what its header says
                    log.exception("game %d does not replay for the games list", line.record.id)
                    continue
                self.store.fill_summary(line.record.id, summary, names)
                listed[n] = replace(line, summary=line.summary or summary, names=line.names or names)
        return listed

    def _game_changed(self, game: Game) -> None:
        for listener in list(self.game_listeners):
            try:
                listener(game)
            except Exception:  # a camera that cannot switch must not cost the table its new game
                log.exception("game listener failed")

    @property
    def game(self) -> Game | None:
        return self._current.game if self._current else None

    @property
    def state(self) -> Any:
        return self._current.state if self._current else None

    @property
    def record(self) -> GameRecord | None:
        return self._current.record if self._current else None

    def position(self) -> tuple[Game | None, Any, int, int | None]:
        """The game, its state, its seq and its number, read together: a choice made on them names the last two
        (see :meth:`act`)."""
        with self._lock:
            current = self._current
            return (current.game, current.state, current.last_seq, current.record.id) if current else (
                None, None, 0, None)

    def history(self) -> tuple[Game, GameRecord, list[dict[str, Any]], int] | None:
        """The current game, its header, the actions in effect (oldest first) and the seq they reach: what a
        summary replays (the race chart) without holding the table while it does."""
        with self._lock:
            current = self._current
            if current is None:
                return None
            return current.game, current.record, [action for _, action in current.actions], current.last_seq

    def prompt(self) -> Prompt | None:
        with self._lock:
            return self._current.game.prompt(self._current.state) if self._current else None

    # -- changes ---------------------------------------------------------------------------------------------------

    def act(
        self, action: Mapping[str, Any], *, actor: str, source: str = "dashboard", reading: dict | None = None,
        seq: int | None = None, game: int | None = None,
    ) -> StoredEvent:
        """Apply one action: the rules check it, the store makes it durable, then the screens hear of it.

        ``seq`` is the state the choice was made on (``snapshot()["seq"]``); if the table has moved on since,
        :class:`Stale` is raised and nothing changes. Raises :class:`IllegalAction` (naming the rule) without
        storing anything if the rules refuse, or if the action is not one of the prompt's listed options.
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("ACTION", f"an action is an object with a string 'type', got {action!r}")
        if action["type"] == UNDO:
            if set(action) - {"type"}:
                raise IllegalAction("UNDO", f"an undo has no fields, got {sorted(set(action) - {'type'})}")
            return self.undo(actor=actor, source=source, seq=seq, game=game)
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            prompt = current.game.prompt(current.state)
            check_fields(prompt, action)
            listed = is_listed(prompt, action)
            try:  # an unlisted action still goes to the rules first: their refusal names the rule it breaks
                state, events = current.game.apply(current.state, action)
            except IllegalAction:
                raise
            except Exception as exc:  # a value of the wrong shape the rules never expect (a list for an index)
                if listed:
                    raise  # a listed option the rules cannot apply is a bug in the rules, not a bad request
                raise IllegalAction("ACTION", f"{action['type']!r} with these values is not one of the choices "
                                    "offered now", legal=prompt.options) from exc
            if not listed:
                raise IllegalAction("ACTION", f"{action['type']!r} is not one of the choices offered now",
                                    legal=prompt.options)
            payload = {"action": dict(action), "events": events, "source": source, "phase": prompt.phase}
            if reading is not None:
                payload["reading"] = reading
            over = current.game.is_over(state)
            summary = summary_of(current.game, current.record, state)
            stored = self._write_log(lambda: self.store.append(current.record.id, actor=actor, type=action["type"],
                                                               payload=payload, over=over, summary=summary))
            current.state = state
            current.actions.append((stored.seq, dict(action)))
            current.last_seq = stored.seq
            self._consumed = {"seq": stored.seq, "reading": reading} if reading is not None else None
            if reading is not None and reading.get("source") == CAMERA:
                self._in_tray = self._consumed
            self._pending = None
            self._typed_roll_restored = False
            self._cursor = 0
            self._save_tray()
        self._publish({"kind": "event", "event": stored.to_json()})
        self._stored(stored)
        return stored

    def undo(self, *, actor: str, source: str = "dashboard", seq: int | None = None,
             game: int | None = None) -> StoredEvent:
        """Take back the last action in effect. The log keeps both: the action and the undo that cancelled it.

        A roll taken back is offered again when the camera has read nothing since: its dice still lie in the tray.
        """
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            if not current.actions:
                raise IllegalAction("UNDO", "nothing to undo in this game")
            undone_seq, undone = current.actions[-1]
            actions = current.actions[:-1]
            state = play(current.game, current.record, actions)
            payload = {"undoes": undone_seq, "action": undone, "source": source}
            over = current.game.is_over(state)
            summary = summary_of(current.game, current.record, state)
            stored = self._write_log(lambda: self.store.append(current.record.id, actor=actor, type=UNDO,
                                                               payload=payload, over=over, summary=summary))
            current.state, current.actions, current.last_seq = state, actions, stored.seq
            consumed, self._consumed = self._consumed, None
            if consumed is not None and consumed["seq"] == undone_seq:
                self._pending = {**consumed["reading"], "dice": [dict(d) for d in consumed["reading"]["dice"]]}
            self._cursor = 0
            self._save_tray()
        self._publish({"kind": "event", "event": stored.to_json()})
        self._stored(stored)
        return stored

    def _write_log(self, write: Callable[[], T]) -> T:
        """One write to the log. A full card refuses it (StoreFull, nothing changes) and every screen says so
        until a write succeeds again."""
        try:
            result = write()
        except StoreFull as exc:
            log.error("%s", exc)
            self._status["store"] = {"state": "full"}
            self._publish({"kind": "status"})
            raise
        if self._status.get("store", {}).get("state") == "full":
            del self._status["store"]
            self._publish({"kind": "status"})
        return result

    def _require_game(self) -> _Current:
        if self._current is None:
            raise NoGame("no game is being played; start one first")
        return self._current

    @staticmethod
    def _check_seq(current: _Current, seq: int | None, game: int | None) -> None:
        """``None``: a script that does not say what it saw (documented); otherwise it must be the state now.

        Each game numbers its events from 1, so a choice made at the start of one game would fit the start of the
        next: ``game`` (``snapshot()["game"]["number"]``) tells them apart."""
        if game is not None and game != current.record.id:
            raise Stale("game", game, current.record.id)
        if seq is not None and seq != current.last_seq:
            raise Stale("seq", seq, current.last_seq)

    def _check_reading(self, reading: int | None) -> None:
        now = self._pending["reading"] if self._pending else 0
        if reading is not None and reading != now:
            raise Stale("reading", reading, now)

    # -- what the table sees but has not confirmed ------------------------------------------------------------------

    def offer_dice(self, dice: list[dict[str, Any]], *, source: str = "camera", change: bool = False,
                   seq: int | None = None, game: int | None = None) -> None:
        """A roll read by the camera (or typed in): shown as pending until a player confirms it.

        Each die is ``{"label", "confidence", ...}``; dice under ``min_confidence`` are marked ``low`` and block
        the confirmation until someone taps them: a doubtful die is shown, never guessed.
        """
        marked = [{**d, "confidence": _confidence(d.get("confidence", 1.0))} for d in dice]
        marked = [{**d, "low": d["confidence"] < self.min_confidence} for d in marked]
        with self._lock:
            if seq is not None:
                self._check_seq(self._require_game(), seq, game)
            typed_roll_restored, self._typed_roll_restored = self._typed_roll_restored, False
            if typed_roll_restored and source == "camera":
                log.info("the camera's first reading since the restart leaves the roll typed in before it: %s",
                         [d.get("label") for d in dice])
                return
            previous = self._pending
            self._readings += 1
            self._pending = {"dice": marked, "source": source, "change": change, "reading": self._readings}
            if marked and source == "camera" and previous and previous.get("source") == "camera":
                self._pending["replaces"] = previous["reading"]  # the tray changed before anyone confirmed it
            self._consumed = self._in_tray = None
            self._status.pop(TRAY, None)  # a new roll: the dice of the one before are gone
            self._save_tray()
        self._publish({"kind": "pending"})

    def confirmed_roll(self) -> dict[str, Any] | None:
        """The camera's roll confirmed last, while its dice lie in the tray (nothing was offered since, and it was
        not taken back): ``{"seq": the event that stored it, "reading": the reading as it was confirmed}``."""
        with self._lock:
            if not self._watching():
                return None
            reading = self._in_tray["reading"]
            return {"seq": self._in_tray["seq"], "reading": {**reading, "dice": [dict(d) for d in reading["dice"]]}}

    def _watching(self, of: int | None = None) -> bool:
        """Whether the camera's confirmed roll (the one of event ``of``, if given) still lies in the tray unread."""
        watched = self._in_tray
        if watched is None or self._pending is not None or self._current is None:
            return False
        return (of is None or of == watched["seq"]) and any(seq == watched["seq"] for seq, _ in self._current.actions)

    def die_moved(self, moved: list[dict[str, Any]], *, of: int) -> StoredEvent | None:
        """The dice of the roll confirmed in event ``of`` moved in the tray before they were picked up: kept in
        the log (:data:`DIE_MOVED`, ``{"of": seq, "moved": [{"die", "was", "now", ...}]}``: ``die`` counts from 1,
        as the screens do) and shown on every screen (``status["tray"]``) until the next roll is offered. The roll
        stays as it was confirmed: the table applies only what a player chose. None (nothing stored) when that
        roll is no longer the one in the tray (taken back, or another offered meanwhile)."""
        with self._lock:
            current = self._require_game()
            if not self._watching(of):
                return None
            payload = {"of": of, "moved": [dict(m) for m in moved]}
            over = current.game.is_over(current.state)
            summary = summary_of(current.game, current.record, current.state)
            stored = self._write_log(lambda: self.store.append(current.record.id, actor=CAMERA, type=DIE_MOVED,
                                                               payload=payload, over=over, summary=summary))
            current.last_seq = stored.seq
            self._status[TRAY] = {"moved": payload["moved"], "seq": stored.seq}
            self._save_tray()
        log.warning("the dice of event %d moved after they were read: %s", of, moved)
        self._publish({"kind": "event", "event": stored.to_json()})
        self._stored(stored)
        return stored

    def tray_as_read(self) -> None:
        """The tray no longer differs from the roll as it was confirmed (put back, or picked up): the notice goes."""
        with self._lock:
            if self._status.pop(TRAY, None) is None:
                return
        self._publish({"kind": "status"})

    def correct_die(self, index: int, label: str, *, actor: str, seq: int | None = None,
                    reading: int | None = None, game: int | None = None) -> None:
        """Set one pending die by hand; the correction travels with the roll into the log when it is confirmed.

        ``reading`` is the number of the reading the player tapped a die of: a newer one has other dice.
        """
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            self._check_reading(reading)
            if not self._pending or not 0 <= index < len(self._pending["dice"]):
                count = len(self._pending["dice"]) if self._pending else 0
                raise IllegalAction("CORRECT", f"no pending die {index + 1}; {count} dice are waiting")
            if label not in current.game.die_faces:
                raise IllegalAction("CORRECT", f"{label!r} is not a face of this game's dice",
                                    legal=sorted(set(current.game.die_faces)))
            die = self._pending["dice"][index]
            was = die.get("was", die.get("label"))
            corrected = {**die, "label": label, "low": False, "corrected": True, "was": was, "corrected_by": actor}
            self._pending["dice"][index] = corrected
            self._save_tray()
        self._publish({"kind": "pending"})
        for listener in list(self.correction_listeners):
            try:
                listener(dict(corrected))
            except Exception:  # teaching is a bonus: it must never cost the table a correction
                log.exception("correction listener failed")

    def confirm(self, *, actor: str, source: str = "button", option: int | None = None, seq: int | None = None,
                reading: int | None = None, game: int | None = None) -> StoredEvent:
        """Confirm an option of the current prompt (the highlighted one by default), with the pending dice if it
        needs a roll. The reading (confidences, corrections) is stored with the action, for disputes.

        ``seq`` and ``reading`` say what the player saw (see :meth:`act`, :meth:`correct_die`)."""
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            prompt = current.game.prompt(current.state)
            if not prompt.options:
                raise IllegalAction("CONFIRM", f"nothing to confirm in phase {prompt.phase!r}")
            index = self._cursor if option is None else option
            if not 0 <= index < len(prompt.options):
                raise IllegalAction("CONFIRM", f"no option {index}; there are {len(prompt.options)}")
            chosen = dict(prompt.options[index])
            if "roll" in chosen:
                needed = chosen.pop("roll")
                self._check_reading(reading)
                pending = self._pending
                if not pending:
                    raise IllegalAction("CONFIRM", f"roll {needed} dice first; no reading is waiting")
                dice = pending["dice"]
                if len(dice) != needed:
                    raise IllegalAction("CONFIRM", f"{len(dice)} dice were read but this roll needs {needed}: "
                                        "take set-aside dice out of the tray or enter the faces by hand")
                doubtful = [i + 1 for i, d in enumerate(dice) if d.get("low")]
                if doubtful:
                    raise IllegalAction("CONFIRM", f"dice {doubtful} were read with low confidence: tap to set them")
                chosen["dice"] = [d["label"] for d in dice]
                return self.act(chosen, actor=actor, source=source, reading=pending)
            return self.act(chosen, actor=actor, source=source)

    def next_option(self, *, seq: int | None = None, game: int | None = None) -> dict[str, Any] | None:
        """Move the highlight to the next legal option (the 'next' button)."""
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            prompt = current.game.prompt(current.state)
            if not prompt.options:
                return None
            self._cursor = (self._cursor + 1) % len(prompt.options)
            option = prompt.options[self._cursor]
        self._publish({"kind": "cursor"})
        return option

    def highlight(self, option: int, *, seq: int | None = None, game: int | None = None) -> dict[str, Any]:
        """Highlight one option, so the confirm button does what the screen shows (the dice chosen for a reroll)."""
        with self._lock:
            current = self._require_game()
            self._check_seq(current, seq, game)
            prompt = current.game.prompt(current.state)
            if not 0 <= option < len(prompt.options):
                raise IllegalAction("CONFIRM", f"no option {option}; there are {len(prompt.options)}")
            self._cursor = option
            chosen = prompt.options[option]
        self._publish({"kind": "cursor"})
        return chosen

    def status(self) -> dict[str, Any]:
        """The devices' status as the screens have it (``status["camera"]["state"]``: a CameraState)."""
        with self._lock:
            return dict(self._status)

    def set_status(self, **status: Any) -> None:
        """Device status (camera lost/back, buttons) for the screens: published, never stored as a game event."""
        with self._lock:
            self._status.update(status)
        self._publish({"kind": "status"})

    # -- the tray across a restart -----------------------------------------------------------------------------------

    def _save_tray(self) -> None:
        """Keep what lies in the tray (the pending roll, the roll the last action used and the confirmed roll the
        camera watches) beside the log, so a restart offers it again. Not a game event: nobody has confirmed it.
        Written atomically."""
        if self.pending_path is None or self._current is None:
            return
        data = {"game": self._current.record.id, "seq": self._current.last_seq, "pending": self._pending,
                "consumed": self._consumed, "readings": self._readings, "in_tray": self._in_tray}
        try:
            temporary = self.pending_path.with_suffix(".tmp")
            with open(temporary, "w", encoding="utf-8") as file:
                json.dump(data, file, allow_nan=False)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.pending_path)
        except (OSError, ValueError) as exc:  # the table plays on; only a restart would lose the tray
            log.warning("cannot keep the tray's roll in %s: %s", self.pending_path, exc)

    def _restore_tray(self) -> None:
        if self.pending_path is None or self._current is None:
            return
        try:
            data = json.loads(self.pending_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("ignoring the tray's roll in %s: %s", self.pending_path, exc)
            return
        if not isinstance(data, dict) or data.get("game") != self._current.record.id:
            return
        self._readings = int(data.get("readings") or 0)
        in_tray = data.get("in_tray")  # checked against the actions in effect when it is asked for
        if isinstance(in_tray, dict) and isinstance(in_tray.get("seq"), int) and isinstance(
                in_tray.get("reading"), dict) and isinstance(in_tray["reading"].get("dice"), list):
            self._in_tray = in_tray
        if data.get("seq") == self._current.last_seq:
            self._pending, self._consumed = data.get("pending"), data.get("consumed")
            self._typed_roll_restored = bool(self._pending) and self._pending.get("source") == "manual"

    # -- reading -----------------------------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything a screen needs, as JSON: the game, the rules' view of the state and what happens next."""
        with self._lock:
            current = self._current
            if current is None:
                return {"game": None, "seq": 0, "status": dict(self._status), "pending": None}
            prompt = current.game.prompt(current.state)
            return {
                "game": {
                    "id": current.record.game,
                    "title": current.game.title,
                    "number": current.record.id,
                    "options": current.record.options,
                    "dice_set": current.game.dice_set,
                    "over": current.game.is_over(current.state),
                },
                "seq": current.last_seq,
                # Seat changes are not actions: with only those in the log there is nothing to undo.
                "undoable": bool(current.actions),
                # Who sits where, in seat order (a bot's seat marked): a phone takes a seat by these ids.
                "seats": [{"id": actor, "bot": bot} for actor, bot in current.game.seats(current.state).items()],
                "view": current.game.view(current.state),
                "prompt": {
                    "actor": prompt.actor,
                    "phase": prompt.phase,
                    "options": prompt.options,
                    "info": prompt.info,
                    "cursor": self._cursor % len(prompt.options) if prompt.options else None,
                },
                "pending": self._pending_copy(),
                "status": dict(self._status),
            }

    def _pending_copy(self) -> dict[str, Any] | None:
        """A snapshot is read outside the lock (serialised, sent over SSE): it must not share the live dice."""
        if self._pending is None:
            return None
        return {**self._pending, "dice": [dict(d) for d in self._pending["dice"]]}

    def events(self, *, after: int = 0) -> list[StoredEvent]:
        record = self.record
        return self.store.events(record.id, after=after) if record else []

    def _publish(self, message: dict[str, Any]) -> None:
        message["state"] = self.snapshot()
        self.broker.publish(message)

    def _stored(self, event: StoredEvent) -> None:
        for listener in list(self.event_listeners):
            try:
                listener(event)
            except Exception:  # statistics are a bonus: they must never cost the table an action
                log.exception("event listener failed")


def _confidence(value: Any) -> float:
    """A camera's confidence as a finite number in [0, 1]: a NaN from a broken model reads as "doubtful", and
    never reaches the log, which must stay strict JSON."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return min(1.0, max(0.0, number)) if math.isfinite(number) else 0.0
