"""Dice Race rules (``README.md`` beside this file, DR-1..DR-3) as pure functions over a small state.

The smallest complete game, and the model to copy for a new one: an immutable ``State`` with its ``phase``, a
``PHASES`` table that declares each phase's rule, actions, options, handler and what comes next, and
``apply_in_phase`` as the one ``apply``. It exercises everything the companion does (dice from the camera, turns,
events, the end) without any rules worth disputing, which is why the foundation's tests use it: a failure there is a
failure of the plumbing, not of a rule.

>>> import random
>>> game = DiceRace()
>>> state = game.setup({"players": ["Ada", "Bo"]}, random.Random(1))
>>> state, events = game.apply(state, {"type": "roll", "dice": ["4"]})
>>> events
[{'type': 'moved', 'player': 'Ada', 'steps': 4, 'to': 4}]
>>> game.prompt(state).actor, state.phase
('Bo', 'roll')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from companion.games.base import (
    OVER,
    Action,
    Event,
    GameBase,
    IllegalAction,
    Luck,
    Phase,
    Prompt,
    Seat,
    apply_in_phase,
    pip_luck,
    read_seats,
)

GOAL = 20
"""DR-3: the space that wins."""
FACES = ("1", "2", "3", "4", "5", "6")
"""DR-2: one standard d6, read by the ``d6`` model."""
COLOURS = ("green", "red", "blue", "yellow", "purple", "black")
"""DR-1: the pawns (the view does not show them: the screens tell the players by name)."""


class State(NamedTuple):
    seats: tuple[Seat, ...]
    """DR-1: the players in turn order."""
    positions: tuple[int, ...]
    """Each player's space, in seat order."""
    turn: int = 0
    """Turns played; the player on turn is ``seats[turn % len(seats)]``."""
    phase: str = "roll"
    winner: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def current(self) -> str:
        return self.seats[self.turn % len(self.seats)].name


def _roll_options(state: State) -> list[Action]:
    return [{"type": "roll", "roll": 1}]


def _roll(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """DR-2: roll one d6 and move that many spaces forward."""
    dice = action.get("dice")
    if not (isinstance(dice, list) and len(dice) == 1 and dice[0] in FACES):
        raise IllegalAction("DR-2", f"a roll is one d6 face, got {dice!r}", legal=list(FACES))
    mover = state.turn % len(state.seats)
    steps = int(dice[0])
    positions = list(state.positions)
    positions[mover] += steps
    events.append({"type": "moved", "player": state.current, "steps": steps, "to": positions[mover]})
    return state._replace(positions=tuple(positions), turn=state.turn + 1)


def _after_roll(state: State, action: Mapping[str, Any]) -> str:
    """DR-3: whoever reaches the goal wins at once; else the next player rolls."""
    return "won" if max(state.positions) >= GOAL else "roll"


def _won(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """DR-3: the one player on or beyond the goal wins."""
    winner = next(seat.name for seat, space in zip(state.seats, state.positions, strict=True) if space >= GOAL)
    events.append({"type": "game_over", "winner": winner})
    return state._replace(winner=winner)


PHASES: dict[str, Phase] = {
    "roll": Phase("DR-2", ("roll",), _roll_options, _roll, next=_after_roll),
    "won": Phase("DR-3", handler=_won, next=OVER),
    OVER: Phase("DR-3"),
}
"""Each phase with its rule, its actions, its options, its handler and what comes next; ``won`` plays itself."""


class DiceRace(GameBase):
    """The Dice Race rules, implementing ``companion.games.base.Game``; ``scenario`` is ``scenario.py``'s (the
    package gives it: that module builds on this one)."""

    id = "dice-race"
    title = "Dice Race"
    dice_set = "d6"
    die_faces = FACES

    def __init__(self, scenario: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None):
        if scenario is not None:
            self.scenario = scenario

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> State:
        """DR-1: everyone on space 0, the first player on turn."""
        seats = read_seats(options, COLOURS, range(2, 7), "DR-1")
        return State(seats=seats, positions=(0,) * len(seats))

    def prompt(self, state: State) -> Prompt:
        if state.phase == OVER:
            return Prompt(actor=None, phase=OVER)
        return Prompt(actor=state.current, phase=state.phase, options=PHASES[state.phase].options(state))

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        if state.phase == OVER:
            raise IllegalAction("DR-3", f"the game is over, {state.winner} won")
        return apply_in_phase(state, action, PHASES, state.current)

    def view(self, state: State) -> dict[str, Any]:
        return {
            "goal": GOAL,
            "players": [{"name": n, "position": p} for n, p in zip(state.players, state.positions, strict=True)],
            "current": None if state.winner else state.current,
            "turn": state.turn,
            "winner": state.winner,
        }

    def seats(self, state: State) -> dict[str, bool]:
        return {seat.name: seat.bot for seat in state.seats}

    def luck(self, before: State, action: Mapping[str, Any], after: State) -> list[Luck]:
        """The roll's pips against a fair die's mean; the seats are the players' names (the base's ``player_of``)."""
        return pip_luck(before.current, action.get("dice"), self.die_faces)

