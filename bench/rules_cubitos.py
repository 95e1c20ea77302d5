"""Cubitos rules speed: complete bot games per second on one core (4 players, the seven blue races in turn).
Goal (issue "Cubitos"): >= 50.

Greedy bots are the headline here: random ones give dice back and walk both ways, so their races can last
thousands of rounds. A greedy bot tries every listed option with ``apply`` and rates it (``Cubitos.score``),
which makes the figure the cost of a one-step lookahead, not of the rules alone; the rounds per game show the
races are of a table's length. CPU time (``process_time``) is reported beside wall time because the machine may
be shared.

    python bench/rules_cubitos.py
"""

from __future__ import annotations

import json
import time

from machine import describe, machine_line

from companion.games.bots import GreedyBot, play_game
from companion.games.cubitos import rules

GOAL_GAMES_PER_SECOND = 50
FOUR = {"players": [{"name": c.title(), "colour": c} for c in rules.PLAYER_COLOURS]}
RACES = [f"race_{n}" for n in range(1, 8)]


def measure(games: int) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = rounds = 0
    for seed in range(games):
        final, played = play_game(rules.GAME, {**FOUR, "race": RACES[seed % len(RACES)]}, seed, GreedyBot())
        actions += len(played)
        rounds += final.round
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "games_per_s": round(games / cpu, 2), "games_per_s_wall": round(games / wall, 2),
            "actions_per_game": round(actions / games, 1), "rounds_per_game": round(rounds / games, 1),
            "ms_per_action": round(1000 * cpu / actions, 3)}


def run() -> dict[str, object]:
    rules.GAME.setup(FOUR, __import__("random").Random(0))  # load the box before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND, "greedy": measure(28)}
    print(machine_line(figures["machine"]))
    f = figures["greedy"]
    print(f"greedy bots: {f['games_per_s']:6.2f} games/s CPU ({f['games_per_s_wall']:.2f} wall) over {f['games']} "
          f"games, {f['actions_per_game']:.0f} actions and {f['rounds_per_game']:.1f} rounds per game, "
          f"{f['ms_per_action']:.3f} ms per action")
    verdict = "meets" if f["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"greedy-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    run()
