"""What Dice Race's bots know: further along is better (``companion.games.base.Heuristic``)."""

from __future__ import annotations

from companion.games.dice_race.rules import State


def score(state: State, actor: str) -> float:
    return float(state.positions[state.players.index(actor)])
