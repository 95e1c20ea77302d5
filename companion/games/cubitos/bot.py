"""What Cubitos' bots know: how good the race looks for a player (``companion.games.base.Heuristic``)."""

from __future__ import annotations

from companion.games.cubitos.rules import GAME, State


def score(state: State, actor: str) -> float:
    return GAME.score(state, actor)
