"""Seeded Hexen Rennen bot games play out as recorded: a rewrite of the rules' shape must not change a single game,
and Python 3.11, 3.12 and 3.13 play the same ones. The digests were recorded at commit 0b38702, before a turn's steps
became data in PHASES."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from companion.games.bots import GreedyBot, RandomBot, roll
from companion.games.hexenrennen import GAME


def digest(game, options: dict, seed: int, bot) -> str:
    """sha256 over every prompt's phase, action (dice included) and the events it gave, and the final view."""
    rng = random.Random(seed)
    state = game.setup(options, rng)
    log = []
    while not game.is_over(state):
        prompt = game.prompt(state)
        action = roll(game, bot.choose(game, state, prompt, rng), rng, state)
        state, events = game.apply(state, action)
        log.append([prompt.phase, action, events])
    return hashlib.sha256(json.dumps([log, game.view(state)], sort_keys=True).encode()).hexdigest()


def seats(*colours: str) -> list[dict]:
    return [{"name": colour.title(), "colour": colour} for colour in colours]


RECORDED = [
    ({"players": seats("orange", "blue", "yellow", "green"), "tiles": "shuffled"}, 1, RandomBot(),
     "ae92f86ca618e991a149b17842887b218d002559c071a856c7c23d89463c9d27"),
    ({"players": seats("orange", "blue"), "tiles": "shuffled"}, 2, RandomBot(),
     "423facf016d0c5c609f28d49845abd0d32797a82b449af2a4fabf695ae16f873"),
    ({"players": seats("blue", "yellow", "green")}, 3, RandomBot(),
     "1931134e3f1d6fdde565b505d432b2951dd35a90170e09ea9557e9e54fba0fcf"),
    ({"players": seats("orange", "blue", "yellow", "green"), "tiles": "shuffled"}, 4, GreedyBot(),
     "7c185e78e7b4c302d1bbf28eda9364ee306c6703aed7b8e509b8ed8e71ea5c62"),
    ({"players": seats("yellow", "green", "blue"), "tiles": "shuffled"}, 5, GreedyBot(),
     "61ee9401bf77d0f4f3937d053ced6b07d82a96e026b233045cd23a5e30710425"),
]


@pytest.mark.parametrize("options, seed, bot, recorded", RECORDED, ids=[f"seed{r[1]}" for r in RECORDED])
def test_seeded_bot_games_play_out_as_recorded(options, seed, bot, recorded):
    assert digest(GAME, options, seed, bot) == recorded
