"""The story of a race for the game-over screen: the standings and a chart drawn from the log.

The chart is not recorded while playing: it is the game replayed from its actions (the log is the truth), with the
game's presentation saying what to plot at each step (``chart_point``) and how to rank the end (``standings``).
A game whose presentation has neither gets an empty summary and the screen shows only the winner.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import Game
from companion.store import GameRecord


def race_summary(game: Game, presentation: Any, record: GameRecord,
                 actions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"standings": [...], "chart": {"axis", "metrics", "x": [...], "series": {metric: {actor: [...]}}}}``.

    One point per value of the game's axis (rounds, turns), the first state that reaches it: "after round 3" is
    the table as round 4 begins, and the last point is the table at the end.
    """
    chart = hasattr(presentation, "chart_point")
    metrics = list(presentation.CHART_METRICS) if chart else []
    xs: list[int] = []
    series: dict[str, dict[str, list[float | None]]] = {metric: {} for metric in metrics}

    def sample(view: Mapping[str, Any]) -> None:
        x, values = presentation.chart_point(view)
        if xs and xs[-1] == x:
            return
        xs.append(x)
        for metric in metrics:
            lines = series[metric]
            for actor, value in values.get(metric, {}).items():
                lines.setdefault(actor, [None] * (len(xs) - 1)).append(value)
            for line in lines.values():  # an actor missing from this point gets a gap, not a shifted line
                line.extend([None] * (len(xs) - len(line)))

    state = game.setup(record.options, random.Random(record.seed))
    if chart:
        sample(game.view(state))
    for action in actions:
        state, _ = game.apply(state, action)
        if chart:
            sample(game.view(state))
    view = game.view(state)
    return {"standings": presentation.standings(view, series) if hasattr(presentation, "standings") else [],
            "chart": {"axis": presentation.CHART_AXIS, "metrics": metrics, "x": xs, "series": series} if chart
            else None}
