"""Hexen Rennen rules from the sources on one core: each action's p99 (goal <= 1 ms) and the replay of a game's log
(goal <= 0.3 s per 1,200 actions), for random and greedy bots with 4 and 2 players, on a seeded layout and with
hidden tiles as at a real table (every reveal asked; a bot picks any tile still possible) (issue 37).

    python bench/rules_hexenrennen.py
"""

from __future__ import annotations

import json
import random

from bot_games import rules_figures
from machine import describe, machine_line, record

from companion.games.bots import GreedyBot, RandomBot
from companion.games.hexenrennen import GAME

FOUR = {"players": [{"name": c.title(), "colour": c} for c in ("orange", "blue", "yellow", "green")],
        "tiles": "shuffled"}
RUNS = {
    "4 players, shuffled tiles, random bots": (FOUR, RandomBot(), range(200)),
    "2 players, shuffled tiles, random bots": ({**FOUR, "players": FOUR["players"][:2]}, RandomBot(), range(200)),
    "4 players, hidden tiles, random bots": ({**FOUR, "tiles": "hidden"}, RandomBot(), range(100)),
    "4 players, shuffled tiles, greedy bots": (FOUR, GreedyBot(), range(20)),
}


def run() -> dict[str, object]:
    GAME.setup(FOUR, random.Random(0))  # load and check the data files before timing
    machine = describe()
    print(machine_line(machine))
    return json.loads(json.dumps({"machine": machine, **rules_figures(GAME, RUNS)}))


if __name__ == "__main__":
    record("rules_hexenrennen", run())
