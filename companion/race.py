"""The story of a race for the game-over screen: the standings and a chart drawn from the log.

The chart is not recorded while playing: it is the game replayed from its actions (the log is the truth), with the
game's presentation saying what to plot at each step (``chart_point``) and how to rank the end (``standings``).
A game whose presentation has neither gets an empty summary and the screen shows only the winner.
"""

from __future__ import annotations

import bisect
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
    states = [game.setup(record.options, random.Random(record.seed))]
    for action in actions:
        states.append(game.apply(states[-1], action)[0])
    xs: list[int] = []
    series: dict[str, dict[str, list[float | None]]] = {metric: {} for metric in metrics}
    # The axis never goes back, so the first state of each step is found by bisection: a few views a step, not a
    # view of every state (a view may hold odds that take a while to work out).
    point = (lambda n: presentation.chart_point(game.view(states[n]))) if chart else None
    n = 0
    while chart and n < len(states):
        x, values = point(n)
        xs.append(x)
        for metric in metrics:
            lines = series[metric]
            for actor, value in values.get(metric, {}).items():
                lines.setdefault(actor, [None] * (len(xs) - 1)).append(value)
            for line in lines.values():  # an actor missing from this point gets a gap, not a shifted line
                line.extend([None] * (len(xs) - len(line)))
        n = bisect.bisect_right(range(len(states)), x, lo=n + 1, key=lambda k: point(k)[0])
    view = game.view(states[-1])
    return {"standings": presentation.standings(view, series) if hasattr(presentation, "standings") else [],
            "chart": {"axis": presentation.CHART_AXIS, "metrics": metrics, "x": xs, "series": series} if chart
            else None}
