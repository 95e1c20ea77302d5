"""What Automobiles' bots know: how good the race looks for a player (``companion.games.base.Heuristic``)."""

from __future__ import annotations

from companion.games.automobiles.rules import State
from companion.games.automobiles.rules import score as _score


def score(state: State, actor: str) -> float:
    return _score(state, actor)
