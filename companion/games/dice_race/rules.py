"""Dice Race: the smallest complete game, a worked example of the protocol in ``base.py``.

Each player in turn rolls one d6 and moves that many spaces; the first to reach the goal wins. It exercises
everything the companion does (dice from the camera, turns, events, the end) without any rules worth disputing,
which is why the foundation's tests use it: a failure there is a failure of the plumbing, not of a rule.

Rules:

* DR-1 2-6 players, named in ``options["players"]``, play in that order; everyone starts on space 0. A player is a
  name or ``{"name": ..., "bot": true}`` for a seat a bot plays.
* DR-2 On your turn roll one d6 and move that many spaces forward.
* DR-3 Whoever reaches ``GOAL`` (or beyond) first wins at once; then the game is over.

Rule disputes (``scenario``; ``companion rules dice-race apply --position P.json --turn T.json``). A Position is the
table before a turn: the players in turn order with their spaces (default 0), and whose turn it is (default the
first; ``null`` once somebody has reached the goal)::

    {"players": [{"name": "Ann", "space": 17}, {"name": "Bo", "space": 12}], "current": "Bo"}

A Turn is who rolled what: ``{"player": "Bo", "die": 4}``. The result is ``{"position": ..., "events": [...]}``, the
position in the same format. Any other key is refused naming it (``ScenarioError``), a turn out of order or a die
that is no d6 face names its rule (``IllegalAction``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    Event,
    IllegalAction,
    Prompt,
    ScenarioError,
    check_keys,
    roll_uniform,
    seat_is_bot,
    typed_value,
)

GOAL = 20
FACES = ("1", "2", "3", "4", "5", "6")


@dataclass(frozen=True)
class DiceRaceState:
    players: tuple[str, ...]
    positions: tuple[int, ...]
    turn: int = 0
    winner: str | None = None
    bots: frozenset[str] = frozenset()
    """The players a bot plays."""

    @property
    def current(self) -> str:
        return self.players[self.turn % len(self.players)]


class DiceRace:
    id = "dice-race"
    title = "Dice Race"
    dice_set = "d6"
    die_faces = FACES

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> DiceRaceState:
        players = options.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 6:
            raise IllegalAction("DR-1", "a game needs 2 to 6 players", legal="players: a list of 2-6 names")
        names = tuple(p["name"] if isinstance(p, dict) else str(p) for p in players)
        if len(set(names)) != len(names):
            raise IllegalAction("DR-1", f"player names must differ: {list(names)}")
        bots = frozenset(names[n] for n, p in enumerate(players) if seat_is_bot(p, f"players[{n}]", "DR-1"))
        return DiceRaceState(players=names, positions=(0,) * len(names), bots=bots)

    def prompt(self, state: DiceRaceState) -> Prompt:
        if state.winner is not None:
            return Prompt(actor=None, phase="over")
        return Prompt(actor=state.current, phase="roll", options=[{"type": "roll", "roll": 1}])

    def apply(self, state: DiceRaceState, action: Mapping[str, Any]) -> tuple[DiceRaceState, list[Event]]:
        if state.winner is not None:
            raise IllegalAction("DR-3", f"the game is over, {state.winner} won")
        if action.get("type") != "roll":
            raise IllegalAction("DR-2", f"{state.current} must roll, not {action.get('type')!r}", legal=["roll"])
        dice = action.get("dice")
        if not (isinstance(dice, list) and len(dice) == 1 and dice[0] in FACES):
            raise IllegalAction("DR-2", f"a roll is one d6 face, got {dice!r}", legal=list(FACES))
        mover = state.turn % len(state.players)
        steps = int(dice[0])
        positions = list(state.positions)
        positions[mover] += steps
        events: list[Event] = [{"type": "moved", "player": state.current, "steps": steps, "to": positions[mover]}]
        winner = None
        if positions[mover] >= GOAL:
            winner = state.current
            events.append({"type": "game_over", "winner": winner})
        return replace(state, positions=tuple(positions), turn=state.turn + 1, winner=winner), events

    def view(self, state: DiceRaceState) -> dict[str, Any]:
        return {
            "goal": GOAL,
            "players": [{"name": n, "position": p} for n, p in zip(state.players, state.positions, strict=True)],
            "current": None if state.winner else state.current,
            "turn": state.turn,
            "winner": state.winner,
        }

    def is_over(self, state: DiceRaceState) -> bool:
        return state.winner is not None

    def seats(self, state: DiceRaceState) -> dict[str, bool]:
        return {name: name in state.bots for name in state.players}

    def roll_dice(self, state: DiceRaceState, option: Mapping[str, Any], rng: random.Random) -> list[str]:
        return roll_uniform(self.die_faces, option, rng)

    def scenario(self, position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
        """A rule dispute: one roll from a position (formats in the module docstring)."""
        state = state_from_position(position)
        check_keys(turn, ("player", "die"), "turn")
        player = typed_value(turn, "player", str, "turn")
        die = typed_value(turn, "die", int, "turn")
        if player not in state.players:
            raise ScenarioError("turn.player", f"expected a player, one of {', '.join(state.players)}, got {player!r}")
        if state.winner is None and player != state.current:
            raise IllegalAction("DR-1", f"it is {state.current}'s turn, not {player}'s", legal=state.current)
        state, events = self.apply(state, {"type": "roll", "dice": [str(die)]})
        return {"position": position_from_state(state), "events": events}


def state_from_position(position: Any) -> DiceRaceState:
    """The table before a turn; a player on or past ``GOAL`` has won (DR-3)."""
    check_keys(position, ("players", "current"), "position")
    entries = typed_value(position, "players", list, "position")
    if not 2 <= len(entries) <= 6:
        raise ScenarioError("position.players", f"a game has 2 to 6 players (DR-1), got {len(entries)}")
    names, spaces = [], []
    for n, entry in enumerate(entries):
        at = f"position.players[{n}]"
        check_keys(entry, ("name", "space"), at)
        name, space = typed_value(entry, "name", str, at), typed_value(entry, "space", int, at, 0)
        if name in names or space < 0:
            raise ScenarioError(at, f"expected a new name and a space >= 0, got {name!r} on {space}")
        names.append(name)
        spaces.append(space)
    home = [name for name, space in zip(names, spaces, strict=True) if space >= GOAL]
    current = typed_value(position, "current", (str, type(None)), "position", None if home else names[0])
    if len(home) > 1:
        raise ScenarioError("position.players", f"{' and '.join(home)} are on the goal, but the game ends when the "
                            "first reaches it (DR-3)")
    if home and current is not None:
        raise ScenarioError("position.current", f"{home[0]} reached the goal: the game is over (DR-3), nobody is on "
                            "turn: null")
    if not home and current not in names:
        raise ScenarioError("position.current", f"expected a player, one of {', '.join(names)}, got {current!r}")
    return DiceRaceState(players=tuple(names), positions=tuple(spaces), turn=names.index(current) if current else 0,
                         winner=home[0] if home else None)


def position_from_state(state: DiceRaceState) -> dict[str, Any]:
    return {"players": [{"name": name, "space": space} for name, space in zip(state.players, state.positions,
                                                                               strict=True)],
            "current": None if state.winner else state.current}


GAME = DiceRace()
