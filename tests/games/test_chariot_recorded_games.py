"""Seeded Chariot Race bot games play out as recorded: a rewrite of the rules' shape must not change a single game,
and Python 3.11, 3.12 and 3.13 play the same ones (no float sum or set order decides a tie). The digests were
recorded at commit 0b38702, before the turn's flow became data in PHASES."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from companion.games.bots import GreedyBot, RandomBot, roll
from companion.games.chariot_race import GAME


def digest(game, options: dict, seed: int, bot) -> str:
    """sha256 over every prompt's phase, action (dice included, a move's effects left out) and the events it
    gave, and the final view."""
    rng = random.Random(seed)
    state = game.setup(options, rng)
    log = []
    while not game.is_over(state):
        prompt = game.prompt(state)
        action = roll(game, bot.choose(game, state, prompt, rng), rng, state)
        state, events = game.apply(state, action)
        # A move's effects are its events told beforehand (present.move_help reads them); the events are logged
        log.append([prompt.phase, {k: v for k, v in action.items() if k != "effects"}, events])
    return hashlib.sha256(json.dumps([log, game.view(state)], sort_keys=True).encode()).hexdigest()


def seats(*colours: str) -> list[dict]:
    return [{"name": colour.title(), "colour": colour} for colour in colours]


RECORDED = [
    ({"players": seats("green", "red")}, 1, RandomBot(),
     "b9119aa6987a7affa1dbb2afe7713874b0aae9e6f3ab877f268689d70eab9d6e"),
    ({"players": seats("green", "red", "blue"), "board": "B"}, 2, RandomBot(),
     "30330bc21d3e46b497cc4b4a2ed1681426f8e75e8c990d6859e52ee39e704666"),
    ({"players": seats("green", "red", "blue", "yellow", "black", "white")}, 3, RandomBot(),
     "38ba41664a581bfa0d216bc781c822c8098eaca626958676cea74923305e4df9"),
    ({"players": seats("green", "red", "blue", "yellow", "black"), "board": "B",
      "variants": {"no_damage_after_finish": True}}, 4, GreedyBot(),
     "ce847537ec50f7376e037f39f7de5193a01296df37cdd92fdc29b7974e366b79"),
    ({"players": seats("green", "red", "blue", "yellow"), "variants": {"alternative_chariots": True}}, 5,
     GreedyBot(),
     "209ec689859b046aef7885e74f5324f8e72695ebc3fead0492ba205d59e173de"),
]


@pytest.mark.parametrize("options, seed, bot, recorded", RECORDED, ids=[f"seed{r[1]}" for r in RECORDED])
def test_seeded_bot_games_play_out_as_recorded(options, seed, bot, recorded):
    assert digest(GAME, options, seed, bot) == recorded
