"""Chariot Race rules speed: complete bot games per second on one core (6 chariots, board A). Goal: >= 100.

Random bots are the headline (they are what fuzzing runs); greedy bots, which try every option with ``apply``,
show the cost of a one-step lookahead. CPU time (``process_time``) is reported beside wall time because the
machine may be shared.

    python bench/rules_chariot.py
"""

from __future__ import annotations

import json

from bot_games import line, measure
from machine import describe, machine_line

from companion.games.bots import Bot, GreedyBot, RandomBot
from companion.games.chariot_race import GAME

GOAL_GAMES_PER_SECOND = 100
SIX = {"players": [{"name": c.title(), "colour": c} for c in ("green", "red", "blue", "yellow", "black", "white")],
       "board": "A"}


def run() -> dict[str, object]:
    GAME.setup(SIX, __import__("random").Random(0))  # load and precompute the board before timing
    figures = {"machine": describe(), "goal_games_per_s": GOAL_GAMES_PER_SECOND,
               "random": _measure(RandomBot(), 300, passes=3), "greedy": _measure(GreedyBot(), 10)}
    print(machine_line(figures["machine"]))
    print(line("random bots", figures["random"]))
    print(line("greedy bots", figures["greedy"]))
    verdict = "meets" if figures["random"]["games_per_s"] >= GOAL_GAMES_PER_SECOND else "MISSES"
    print(f"random-bot games/s {verdict} the goal of {GOAL_GAMES_PER_SECOND}")
    return json.loads(json.dumps(figures))


def _measure(bot: Bot, games: int, passes: int = 1) -> dict[str, object]:
    return measure(GAME, lambda seed: SIX, bot, games, passes=passes,
                   tally=lambda final: {"rounds": final.round, "with_a_winner": final.winner is not None})


if __name__ == "__main__":
    run()
