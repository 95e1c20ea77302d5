"""Dice Race: the smallest complete game, a worked example of the protocol in ``base.py``.

Each player in turn rolls one d6 and moves that many spaces; the first to reach the goal wins. It exercises
everything the companion does (dice from the camera, turns, events, the end) without any rules worth disputing,
which is why the foundation's tests use it: a failure there is a failure of the plumbing, not of a rule.

Rules:

* DR-1 2-6 players, named in ``options["players"]``, play in that order; everyone starts on space 0. A player is a
  name or ``{"name": ..., "bot": true}`` for a seat a bot plays.
* DR-2 On your turn roll one d6 and move that many spaces forward.
* DR-3 Whoever reaches ``GOAL`` (or beyond) first wins at once; then the game is over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import Event, IllegalAction, Prompt, seat_is_bot

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

    def score(self, state: DiceRaceState, actor: str) -> float:
        return float(state.positions[state.players.index(actor)])


GAME = DiceRace()
