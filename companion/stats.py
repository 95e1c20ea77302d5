"""The table remembers (issue 36): are our dice fair, and what happened at every game played here.

Built once from the event log (:meth:`TableStats.rebuild`) and kept up to date as each event is stored
(:meth:`TableStats.update`), so a screen asking for them only reads: the log is the truth, these are its sums.

**Dice.** Per dice set and kind of die (``Game.dice_chances``), how often each face came up in the rolls the camera
read and a player confirmed. A die corrected by a tap counts as the face the player set; rolls typed in by hand do
not count (nobody can tell a typo from a loaded die), nor do actions taken back by an undo. The verdict per kind is
``companion.fairness``'s, worked out when someone asks after the counts changed, not at every roll.

**History.** Every game with at least one action: when it began, its players, its winners once it is over, how
long it ran (to its last event) and how many rounds or turns (its presentation's chart axis). Per player, by name
(ignoring case, as a game's seats do): games, wins, and both by game.

**Luck.** Each roll a player confirmed (the camera's reading or a roll typed in, stored by a confirm) asks the game
what its odds gave against what came (``Game.luck``: fortune faces, busts, wear drawn, pips; its presentation's
``LUCK_COUNTED`` says which in the players' words). Per game and player the sums, and in order for the picture of luck
over the game; per player over the evening (the games begun in the ``EVENING_HOURS`` before the latest one), the sums
of its games.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import logging
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion import fairness
from companion.games import GAMES, get_game, get_presentation
from companion.games.base import LUCK_KINDS, Luck
from companion.seating import seat_names, seated
from companion.session import NOT_ACTIONS
from companion.store import EventStore, GameRecord, StoreClosed, StoredEvent

log = logging.getLogger(__name__)

UNDO = "undo"
CAMERA = "camera"
"""The ``source`` of a reading the camera made (``TableSession.offer_dice``); a typed-in roll's is ``manual``."""
EVENING_HOURS = 12
"""The evening: the latest game and every game begun this many hours before it."""


@dataclass
class GameSummary:
    """One game as the statistics see it: what it counts towards the dice and the players."""

    number: int
    game: str
    started: float
    ended: float
    """The time of its last event."""
    players: list[str]
    over: bool = False
    winners: list[str] = field(default_factory=list)
    rounds: int | None = None
    axis: str | None = None
    """The ui key of what ``rounds`` counts (``cr_chart_round``, ``hx_chart_turn``), from the presentation."""
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    """Kind of die -> face -> how often the camera read it in a confirmed roll that stands."""
    typed: int = 0
    """Dice typed in by hand (not counted)."""
    corrected: int = 0
    """Dice the camera read that a player corrected by a tap (counted as the face set)."""
    luck: list[tuple[str, Luck]] = field(default_factory=list)
    """Each confirmed roll's luck in order, with the name of the player whose seat it was."""
    luck_sums: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    """(player, kind) -> [rolls, expected, actual]: ``luck`` summed."""
    luck_json: list[dict[str, Any]] = field(default_factory=list)
    """``luck_sums`` as ``luck_rows`` gives them, worked out once per version of the summary (``_Tally.finish``)."""

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "game": self.game, "title": get_game(self.game).title,
                "started": round(self.started, 3), "duration": round(self.ended - self.started, 1),
                "players": self.players, "over": self.over, "winners": self.winners, "rounds": self.rounds,
                "axis": self.axis, "luck": self.luck_json,
                "luck_counted": getattr(get_presentation(self.game), "LUCK_COUNTED", None)}

    def add_luck(self, player: str, luck: Luck) -> None:
        self.luck.append((player, luck))
        sums = self.luck_sums.setdefault((player, luck.kind), [0, 0.0, 0.0])
        sums[0] += 1
        sums[1] += luck.expected
        sums[2] += luck.actual

    def copy(self) -> GameSummary:
        """A copy that the tally's next events leave as it is (the rolls so far are kept, not copied)."""
        return dataclasses.replace(self, players=list(self.players), winners=list(self.winners),
                                   counts={kind: dict(faces) for kind, faces in self.counts.items()},
                                   luck=list(self.luck), luck_sums={k: list(v) for k, v in self.luck_sums.items()})


class _Tally:
    """A game being summed up event by event: its state replayed beside the counts, for its winners at the end."""

    def __init__(self, record: GameRecord, kinds: Mapping[str, str]) -> None:
        self.game = get_game(record.game)
        self.kinds = kinds
        self.summary = GameSummary(record.id, record.game, record.created, record.created, seat_names(record.options))
        self.state: Any = None
        try:
            self.state = self.game.setup(record.options, random.Random(record.seed))
        except Exception:  # a log the rules no longer read: its dice still count
            log.exception("stats: game %d (%s) does not set up; its winners are unknown", record.id, record.game)

    def add(self, event: StoredEvent) -> None:
        """One stored action that stands (no undo took it back)."""
        summary = self.summary
        summary.ended = max(summary.ended, event.time)
        payload = event.payload
        reading = payload.get("reading")
        if isinstance(reading, Mapping) and reading.get("source") == CAMERA:
            for die in reading.get("dice", ()):
                kind = self.kinds.get(die.get("label"))
                if kind is not None:
                    faces = summary.counts.setdefault(kind, {})
                    faces[die["label"]] = faces.get(die["label"], 0) + 1
                    summary.corrected += bool(die.get("corrected"))
        elif self.kinds and isinstance(payload.get("action", {}).get("dice"), list):
            summary.typed += len(payload["action"]["dice"])
        if self.state is not None:
            before = self.state
            try:
                self.state, _ = self.game.apply(before, payload["action"])
            except Exception:
                log.exception("stats: game %d does not replay at event %d", summary.number, event.seq)
                self.state = None
            if self.state is not None and isinstance(reading, Mapping):  # a roll a player confirmed
                try:
                    for luck in self.game.luck(before, payload["action"], self.state):
                        summary.add_luck(self.game.player_of(before, luck.seat), luck)
                except Exception:  # luck is a bonus: the rest of the log is still read
                    log.exception("stats: no luck of game %d at event %d", summary.number, event.seq)

    def finish(self) -> GameSummary:
        """The summary as the game stands now (a copy: the tally goes on), with its winners once it is over and
        the rounds its chart counts."""
        summary = self.summary.copy()
        summary.luck_json = luck_rows(summary.luck_sums)
        if self.state is None:
            return summary
        presentation = get_presentation(summary.game)
        view = self.game.view(self.state)
        summary.over = self.game.is_over(self.state)
        if hasattr(presentation, "chart_point"):
            summary.rounds, summary.axis = presentation.chart_point(view)[0], presentation.CHART_AXIS
        if summary.over and hasattr(presentation, "standings"):
            winners = [row["actor"] for row in presentation.standings(view, {}) if row.get("why") == "winner"]
            summary.winners = list(dict.fromkeys(self.game.player_of(self.state, actor) for actor in winners))
        return summary


@dataclass
class _Kind:
    chances: dict[str, float]
    counts: dict[str, int] = field(default_factory=dict)
    verdict: dict[str, Any] | None = None
    """``fairness.verdict(...).to_json()`` of ``counts``; None once they changed since."""


@dataclass
class _DiceSet:
    games: list[str]
    kinds: dict[str, _Kind]
    typed: int = 0
    corrected: int = 0


@dataclass
class _Evening:
    """The evening's luck, summed as its games change: the latest game and those begun within ``EVENING_HOURS``
    before it (a game falls out once a later one begins that much after it)."""

    latest: float = float("-inf")
    games: dict[int, GameSummary] = field(default_factory=dict)
    sums: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    """(player ignoring case, kind) -> [rolls, expected, actual, games]."""
    names: dict[str, str] = field(default_factory=dict)
    """A player's name ignoring case -> its latest spelling."""

    def put(self, old: GameSummary | None, new: GameSummary) -> None:
        """``new`` replaces ``old``, the game's earlier summary (None for a new game)."""
        if old is not None and self.games.pop(old.number, None) is not None:
            self._add(old, -1)
        if new.started > self.latest:
            self.latest = new.started
            for number, summary in list(self.games.items()):
                if summary.started < self.latest - EVENING_HOURS * 3600:
                    self._add(self.games.pop(number), -1)
        if new.started >= self.latest - EVENING_HOURS * 3600:
            self.games[new.number] = new
            self._add(new, +1)

    def _add(self, summary: GameSummary, sign: int) -> None:
        for (player, kind), (rolls, expected, actual) in summary.luck_sums.items():
            total = self.sums.setdefault((player.casefold(), kind), [0, 0.0, 0.0, 0])
            for n, value in enumerate((rolls, expected, actual, 1)):
                total[n] += sign * value
            if sign > 0:
                self.names[player.casefold()] = player

    def to_json(self) -> dict[str, Any]:
        """``games`` (numbers, newest first), each player's luck in them per kind (``players``, luckiest first,
        each with its ``games``) and ``lucky`` (``LUCK_KINDS``: +1 where more than expected is lucky)."""
        counted = {(self.names[p], kind): total for (p, kind), total in self.sums.items() if total[0]}
        rows = luck_rows({key: total[:3] for key, total in counted.items()})
        for row in rows:
            row["games"] = counted[(row["player"], row["kind"])][3]
        return {"games": sorted(self.games, reverse=True), "players": rows, "lucky": LUCK_KINDS}


@dataclass
class _Player:
    name: str
    games: int = 0
    wins: int = 0
    by_game: dict[str, dict[str, int]] = field(default_factory=dict)


class TableStats:
    """The statistics of every game in ``store``: :meth:`rebuild` once, then :meth:`update` with each stored event
    (``TableSession.event_listeners``); :meth:`to_json` and :meth:`to_csv` answer the screens.

    >>> from companion.session import TableSession
    >>> session = TableSession(EventStore(":memory:"))
    >>> stats = TableStats(session.store)
    >>> session.event_listeners.append(stats.update)
    >>> _ = session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    >>> session.offer_dice([{"label": "6", "confidence": 0.99}])
    >>> _ = session.confirm(actor="Ada")
    >>> stats.to_json()["dice"][0]["kinds"][0]["verdict"]["faces"][5]
    {'face': '6', 'count': 1, 'expected': 0.167, 'band': [0, 1], 'p': 1.0}
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._games: dict[int, GameSummary] = {}
        self._dice: dict[str, _DiceSet] = {}
        self._players: dict[str, _Player] = {}
        self._evening = _Evening()
        self._live: _Tally | None = None
        """The game events arrive for (the table's current one), kept with its state so an action is one step."""
        self._touched: set[int] | None = None
        """While a rebuild reads the log: the games events arrived for, read again once it is done."""
        self.built = threading.Event()
        """Set once a rebuild has read the whole log (``to_json``'s ``complete``)."""
        self._reading: threading.Thread | None = None

    def read_log(self) -> None:
        """Start reading the whole log beside the serving app, once: on the first question, so that a restart (and a
        table that never asks) does not replay a season of games while the table waits for its own."""
        with self._lock:
            if self._reading is not None:
                return
            self._reading = threading.Thread(target=self.rebuild, name="stats-rebuild", daemon=True)
        self._reading.start()

    # -- building ------------------------------------------------------------------------------------------------

    def rebuild(self) -> None:
        """Everything again from the log. Replaying 1,000 games takes many seconds, so the log is read into a fresh
        copy while these statistics go on counting the table's events, then swapped in; the games those events
        came for are read again, so none is counted twice or lost."""
        with self._lock:
            self._touched = set()
        fresh = TableStats(self.store)
        try:
            for record in self.store.games():
                if record.game not in GAMES:
                    log.warning("stats: game %d is of an unknown game %r", record.id, record.game)
                    continue
                events = self.store.events(record.id)
                if events:
                    fresh._put(fresh._tally(record, events).finish())
        except StoreClosed:  # the companion stopped while the log was read: nothing is left to answer
            log.info("stats: the table stopped before its log was read")
            return
        with self._lock:
            self._games, self._dice, self._players, self._live = fresh._games, fresh._dice, fresh._players, None
            self._evening = fresh._evening
            touched, self._touched = self._touched, None
            for number in sorted(touched):
                self._put(self._tally(self.store.game(number), self.store.events(number)).finish())
        self.built.set()

    def update(self, event: StoredEvent) -> None:
        """``event`` was just stored: count it (an undo takes back what its action counted)."""
        with self._lock:
            if self._touched is not None:
                self._touched.add(event.game_id)
            live = self._live
            if live is None or live.summary.number != event.game_id or event.type in NOT_ACTIONS:
                record = self.store.game(event.game_id)
                if record.game not in GAMES:
                    return
                self._live = live = self._tally(record, self.store.events(record.id))
            else:
                live.add(event)
            self._put(live.finish())

    def _tally(self, record: GameRecord, events: list[StoredEvent]) -> _Tally:
        undone = {event.payload.get("undoes") for event in events if event.type == UNDO}
        record = dataclasses.replace(record, options=seated(record.options, events))  # players renamed count so
        tally = _Tally(record, self._kinds_of(record.game))
        for event in events:
            if event.type not in NOT_ACTIONS and event.seq not in undone:
                tally.add(event)
            tally.summary.ended = max(tally.summary.ended, event.time)
        return tally

    def _kinds_of(self, game_id: str) -> dict[str, str]:
        """Face label -> kind of die, for the faces of ``game_id``'s dice (its set registered on first sight)."""
        game = get_game(game_id)
        chances = game.dice_chances()
        if chances:
            dice = self._dice.setdefault(game.dice_set, _DiceSet([], {kind: _Kind(dict(c)) for kind, c in
                                                                    chances.items()}))
            if game_id not in dice.games:
                dice.games.append(game_id)
        return {face: kind for kind, faces in chances.items() for face in faces}

    def _put(self, summary: GameSummary) -> None:
        """``summary`` replaces what its game counted before, in the dice and the players."""
        old = self._games.get(summary.number)
        if old is not None:
            self._count(old, -1)
        self._games[summary.number] = summary
        self._count(summary, +1)
        self._evening.put(old, summary)

    def _count(self, summary: GameSummary, sign: int) -> None:
        game = get_game(summary.game)
        dice = self._dice.get(game.dice_set)
        if dice is not None:
            dice.typed += sign * summary.typed
            dice.corrected += sign * summary.corrected
            for kind, faces in summary.counts.items():
                tally = dice.kinds[kind]
                for face, count in faces.items():
                    tally.counts[face] = tally.counts.get(face, 0) + sign * count
                if faces:
                    tally.verdict = None
        winners = {name.casefold() for name in summary.winners}
        for name in summary.players:
            player = self._players.setdefault(name.casefold(), _Player(name))
            if sign > 0:
                player.name = name  # the latest spelling
            won = sign if name.casefold() in winners else 0
            player.games += sign
            player.wins += won
            by_game = player.by_game.setdefault(summary.game, {"games": 0, "wins": 0})
            by_game["games"] += sign
            by_game["wins"] += won

    # -- answering -----------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """``dice`` (per set and kind: the counts, the band and the verdict), ``players`` (most wins first),
        ``games`` (newest first) and whether the log has been read to its end (``complete``), as strict JSON."""
        with self._lock:
            dice = [{"dice_set": name, "games": list(dice.games), "titles": [get_game(g).title for g in dice.games],
                     "typed": dice.typed, "corrected": dice.corrected,
                     "kinds": [{"kind": kind, "chances": tally.chances, "verdict": self._verdict(tally)}
                               for kind, tally in dice.kinds.items()]}
                    for name, dice in self._dice.items()]
            players = sorted(({"name": p.name, "games": p.games, "wins": p.wins,
                               "by_game": {g: dict(n) for g, n in p.by_game.items() if n["games"]}}
                              for p in self._players.values() if p.games), key=lambda p: (-p["wins"], p["name"]))
            games = [summary.to_json() for summary in sorted(self._games.values(), key=lambda s: -s.number)]
            luck = self._evening.to_json()
        return {"dice": dice, "players": players, "games": games, "luck": luck, "complete": self.built.is_set()}

    def luck_of(self, number: int) -> dict[str, Any] | None:
        """The luck over game ``number``, for its picture: per kind, each player's running sum of (actual -
        expected) after each of the kind's rolls in the game (``x`` of them); None for a game not counted (yet)."""
        with self._lock:
            summary = self._games.get(number)
            if summary is None:
                return None
            rolls = list(summary.luck)
            answer = {"number": number, "game": summary.game, "title": get_game(summary.game).title,
                      "players": summary.players, "totals": luck_rows(summary.luck_sums)}
        kinds: dict[str, dict[str, Any]] = {}
        for player, luck in rolls:
            kind = kinds.setdefault(luck.kind, {"kind": luck.kind, "lucky": LUCK_KINDS.get(luck.kind, 1), "x": 0,
                                                "series": {}})
            lines = kind["series"]
            lines.setdefault(player, [0.0] * (kind["x"] + 1))  # 0 before the kind's first roll
            kind["x"] += 1
            for line in lines.values():
                line.append(line[-1])
            lines[player][-1] += luck.actual - luck.expected
        for kind in kinds.values():
            kind["series"] = {player: [round(v, 3) for v in line] for player, line in kind["series"].items()}
        return {**answer, "kinds": list(kinds.values())}

    @staticmethod
    def _verdict(tally: _Kind) -> dict[str, Any]:
        if tally.verdict is None:
            tally.verdict = fairness.verdict(tally.counts, tally.chances).to_json()
        return tally.verdict

    def to_csv(self) -> str:
        """One line per game, oldest first: what a spreadsheet of the evenings needs."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["number", "date", "game", "players", "winners", "over", "minutes", "rounds", "counted",
                         "luck"])
        with self._lock:
            summaries = sorted(self._games.values(), key=lambda s: s.number)
            for s in summaries:
                writer.writerow([s.number, datetime.fromtimestamp(s.started).astimezone().isoformat("T", "minutes"),
                                 s.game, "; ".join(s.players), "; ".join(s.winners), "yes" if s.over else "no",
                                 round((s.ended - s.started) / 60, 1), "" if s.rounds is None else s.rounds,
                                 _unit(s.axis), _luck_cell(s.luck_sums)])
        return out.getvalue()


def luck_rows(sums: Mapping[tuple[str, str], list[float]]) -> list[dict[str, Any]]:
    """``(player, kind) -> [rolls, expected, actual]`` as JSON rows, each with its ``luck``: actual minus expected,
    turned so that more is luckier (``LUCK_KINDS``); by kind, luckiest first."""
    rows = [{"player": player, "kind": kind, "rolls": int(rolls), "expected": round(expected, 2),
             "actual": round(actual, 2), "luck": round((actual - expected) * LUCK_KINDS.get(kind, 1), 2)}
            for (player, kind), (rolls, expected, actual) in sums.items()]
    return sorted(rows, key=lambda row: (row["kind"], -row["luck"], row["player"]))


def _luck_cell(sums: Mapping[tuple[str, str], list[float]]) -> str:
    """A game's luck in one CSV cell: "Ada pips 41/38.5; Bo pips 30/35" (actual/expected, per player and kind)."""
    return "; ".join(f"{row['player']} {row['kind']} {row['actual']:g}/{row['expected']:g}" for row in luck_rows(sums))


def _unit(axis: str | None) -> str:
    """``cr_chart_round`` -> ``round``: what a CSV reader needs of the ui key."""
    return axis.rsplit("_", 1)[-1] if axis else ""
