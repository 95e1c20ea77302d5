"""Chariot Race rules from the sources on one core: each action's p99 (goal <= 1 ms) and the replay of a game's log
(goal <= 0.3 s per 1,200 actions), for random and greedy bots with 6 chariots on both boards and 4 chariots of 2
players (issue 37).

    python bench/rules_chariot.py
"""

from __future__ import annotations

import json
import random

from bot_games import rules_figures
from machine import describe, machine_line, record

from companion.games.bots import GreedyBot, RandomBot
from companion.games.chariot_race import GAME

COLOURS = ("green", "red", "blue", "yellow", "black", "white")
SIX = {"players": [{"name": c.title(), "colour": c} for c in COLOURS], "board": "A"}
RUNS = {
    "6 chariots, board A, random bots": (SIX, RandomBot(), range(200)),
    "6 chariots, board B, random bots": ({**SIX, "board": "B"}, RandomBot(), range(200)),
    "4 chariots of 2 players, board A, random bots": ({**SIX, "players": SIX["players"][:2]}, RandomBot(), range(200)),
    "6 chariots, board A, greedy bots": (SIX, GreedyBot(), range(10)),
}


def run() -> dict[str, object]:
    GAME.setup(SIX, random.Random(0))  # load and check the data files before timing
    machine = describe()
    print(machine_line(machine))
    return json.loads(json.dumps({"machine": machine, **rules_figures(GAME, RUNS)}))


if __name__ == "__main__":
    record("rules_chariot", run())
