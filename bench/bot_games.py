"""Bot games per second on one core: the one timing loop of the rules benches (``rules_*.py``).

A bench plays the same seeded games in ``passes`` passes, pinned to one core (the goals are per core), and reports
the pass of median CPU time with every pass's games per second beside it: on the shared development machine one
pass of the Cubitos headline moved by 2-4 % between runs in the same minute, more than a speed pass gains, and the
median of three is steadier without picking the luckiest pass. CPU time (``process_time``) is the figure; wall time
is printed beside it because the machine may be shared.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.games.base import Game
from companion.games.bots import Bot, play_game

Tally = Callable[[Any], Mapping[str, float]]
"""What a bench counts of a finished game (its rounds, turns ...), reported per game as ``<name>_per_game``."""


def measure(game: Game, options_of: Callable[[int], Mapping[str, Any]], bot: Bot, games: int, *, passes: int = 1,
            tally: Tally | None = None) -> dict[str, Any]:
    """Games ``0 .. games - 1`` (``options_of(seed)``), ``passes`` times; the figures of the median pass."""
    runs = [_play(game, options_of, bot, games, tally) for _ in range(passes)]
    run = sorted(runs, key=lambda played: played["cpu"])[len(runs) // 2]
    figures = {"games": games, "games_per_s": round(games / run["cpu"], 2),
               "games_per_s_wall": round(games / run["wall"], 2),
               "actions_per_game": round(run["actions"] / games, 1),
               "ms_per_action": round(1000 * run["cpu"] / run["actions"], 4),
               "passes_games_per_s": [round(games / r["cpu"], 2) for r in runs]}
    figures.update({f"{name}_per_game": round(total / games, 2) for name, total in run["tallies"].items()})
    return figures


def _play(game: Game, options_of: Callable[[int], Mapping[str, Any]], bot: Bot, games: int,
          tally: Tally | None) -> dict[str, Any]:
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        affinity = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(affinity)})
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        actions, tallies = 0, {}
        for seed in range(games):
            final, played = play_game(game, options_of(seed), seed, bot)
            actions += len(played)
            for name, value in (tally(final) if tally else {}).items():
                tallies[name] = tallies.get(name, 0) + value
        return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "actions": actions,
                "tallies": tallies}
    finally:
        if pinned:
            os.sched_setaffinity(0, affinity)


def line(name: str, figures: Mapping[str, Any]) -> str:
    """One bench row as printed: games per second (every pass's when there were several) and the per-game counts."""
    passes = figures["passes_games_per_s"]
    counts = [f"{figures[key]:g} {key[:-len('_per_game')].replace('_', ' ')}" for key in figures
              if key.endswith("_per_game")]
    return (f"{name}: {figures['games_per_s']:7.2f} games/s CPU ({figures['games_per_s_wall']:.2f} wall) over "
            f"{figures['games']} games"
            + (f" (the median of {len(passes)} passes: {' / '.join(f'{p:.2f}' for p in passes)})"
               if len(passes) > 1 else "")
            + f"; per game {', '.join(counts)}; {figures['ms_per_action']:.4f} ms per action")
