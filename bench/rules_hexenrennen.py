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

from bot_games import line, measure
from machine import describe, machine_line

from companion.games.bots import Bot, GreedyBot, RandomBot
from companion.games.hexenrennen import GAME

GOAL_GAMES_PER_SECOND = 50
FOUR = {"players": [{"name": c.title(), "colour": c} for c in ("orange", "blue", "yellow", "green")],
        "tiles": "shuffled"}
TWO = {"players": FOUR["players"][:2], "tiles": "shuffled"}


def run() -> dict[str, object]:
    GAME.setup(FOUR, random.Random(0))  # load and check the data files before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND,
               "random": _measure(RandomBot(), FOUR, 200, passes=3),
               "random_2p": _measure(RandomBot(), TWO, 200),
               "random_hidden": _measure(RandomBot(), {**FOUR, "tiles": "hidden"}, 100),
               "greedy": _measure(GreedyBot(), FOUR, 20)}
    machine = figures["machine"]
    print(machine_line(machine))
    for name in ("random", "random_2p", "random_hidden", "greedy"):
        print(line(f"{name} bots", figures[name]))
    verdict = "meets" if figures["random"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"random-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


def _measure(bot: Bot, options: dict, games: int, passes: int = 1) -> dict[str, object]:
    return measure(GAME, lambda seed: options, bot, games, passes=passes,
                   tally=lambda final: {"turns": final.turns,
                                        "cards_played": sum(len(final.kit.deck) - len(hand) for hand in final.hands)})


if __name__ == "__main__":
    run()
