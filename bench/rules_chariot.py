"""Chariot Race rules speed: complete bot games per second on one core (6 chariots, board A). Goal: >= 100.

Random bots are the headline (they are what fuzzing runs); greedy bots, which try every option with ``apply``,
show the cost of a one-step lookahead. CPU time (``process_time``) is reported beside wall time because the
machine may be shared.

    python bench/rules_chariot.py
"""

from __future__ import annotations

import json
import time

from machine import describe, machine_line

from companion.games.bots import GreedyBot, RandomBot, play_game
from companion.games.chariot_race import GAME

GOAL_GAMES_PER_SECOND = 100
SIX = {"players": [{"name": c.title(), "colour": c} for c in ("green", "red", "blue", "yellow", "black", "white")],
       "board": "A"}


def measure(bot: object, games: int) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = rounds = finished = 0
    for seed in range(games):
        final, played = play_game(GAME, SIX, seed, bot)
        actions += len(played)
        rounds += final.round
        finished += final.winner is not None
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "games_per_s": round(games / cpu, 1), "games_per_s_wall": round(games / wall, 1),
            "actions_per_game": round(actions / games, 1), "rounds_per_game": round(rounds / games, 1),
            "games_with_winner": finished}


def run() -> dict[str, object]:
    GAME.setup(SIX, __import__("random").Random(0))  # load and precompute the board before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND,
               "random": measure(RandomBot(), 300), "greedy": measure(GreedyBot(), 10)}
    machine = figures["machine"]
    print(machine_line(machine))
    for name in ("random", "greedy"):
        f = figures[name]
        print(f"{name:>6} bots: {f['games_per_s']:7.1f} games/s CPU ({f['games_per_s_wall']:.1f} wall) over "
              f"{f['games']} games, {f['actions_per_game']:.0f} actions and {f['rounds_per_game']:.1f} rounds "
              f"per game, {f['games_with_winner']} with a winner")
    verdict = "meets" if figures["random"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"random-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    run()
