"""Hexen Rennen rules speed: complete bot games per second on one core (4 players, a seeded layout). Goal: >= 50.

A four-clan game takes about 300 actions (Chariot Race: 170), so the goal asks for the same cost per action as
Chariot Race's 100 games/s; 500 fuzz games then take a few seconds.

Random bots are the headline (they are what fuzzing runs); greedy bots, which try every option with ``apply``,
show the cost of a one-step lookahead; "hidden" is the real table's mode, where every reveal is asked and a bot
picks any tile still possible. CPU time (``process_time``) is reported beside wall time because the machine may be
shared.

    python bench/rules_hexenrennen.py
"""

from __future__ import annotations

import json
import random
import time

from machine import describe, machine_line

from companion.games.bots import GreedyBot, RandomBot, play_game
from companion.games.hexenrennen import GAME

GOAL_GAMES_PER_SECOND = 50
FOUR = {"players": [{"name": c.title(), "colour": c} for c in ("orange", "blue", "yellow", "green")],
        "tiles": "shuffled"}
TWO = {"players": FOUR["players"][:2], "tiles": "shuffled"}


def measure(bot: object, options: dict, games: int) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = turns = cards = 0
    for seed in range(games):
        final, played = play_game(GAME, options, seed, bot)
        actions += len(played)
        turns += final.turns
        cards += sum(len(final.kit.deck) - len(hand) for hand in final.hands)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "games_per_s": round(games / cpu, 1), "games_per_s_wall": round(games / wall, 1),
            "actions_per_game": round(actions / games, 1), "turns_per_game": round(turns / games, 1),
            "cards_per_game": round(cards / games, 1)}


def run() -> dict[str, object]:
    GAME.setup(FOUR, random.Random(0))  # load and check the data files before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND,
               "random": measure(RandomBot(), FOUR, 200),
               "random_2p": measure(RandomBot(), TWO, 200),
               "random_hidden": measure(RandomBot(), {**FOUR, "tiles": "hidden"}, 100),
               "greedy": measure(GreedyBot(), FOUR, 20)}
    machine = figures["machine"]
    print(machine_line(machine))
    for name in ("random", "random_2p", "random_hidden", "greedy"):
        f = figures[name]
        print(f"{name:>13} bots: {f['games_per_s']:7.1f} games/s CPU ({f['games_per_s_wall']:.1f} wall) over "
              f"{f['games']} games, {f['actions_per_game']:.0f} actions, {f['turns_per_game']:.0f} turns and "
              f"{f['cards_per_game']:.1f} cards played per game")
    verdict = "meets" if figures["random"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"random-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    run()
