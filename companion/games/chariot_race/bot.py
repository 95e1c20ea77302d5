"""What Chariot Race's bots know: how good a race looks for a chariot (``companion.games.base.Heuristic``)."""

from __future__ import annotations

from companion.games.chariot_race.state import State, progress


def score(state: State, actor: str) -> float:
    """Greedy-bot heuristic: own progress and health, a little fortune, opponents' damage a little."""
    board = state.table.board
    total = 0.0
    for car in state.cars:
        if car.id == actor:
            if car.wrecked:
                return -1000.0
            total += progress(board, car) + 0.8 * car.damage + 0.3 * car.fortune
            total += 100.0 if car.finished else 0.0
            if state.winner == actor:
                total += 1000.0
        elif not car.wrecked:
            total += 0.2 * (12 - car.damage)
        else:
            total += 3.0
    return total
