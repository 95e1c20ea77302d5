"""The generic bots play any game of the protocol: Dice Race (the foundation's example) and Chariot Race."""

from __future__ import annotations

import pytest

from companion.games import get_game
from companion.games.bots import GreedyBot, RandomBot, play_game, replay

TWO = {"players": [{"name": "Ada", "colour": "green"}, {"name": "Bo", "colour": "red"}]}


@pytest.mark.parametrize("game_id", ["dice-race", "chariot-race"])
@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()], ids=["random", "greedy"])
def test_bots_play_a_whole_game_that_replays(game_id, bot):
    game = get_game(game_id)
    final, actions = play_game(game, TWO, seed=7, bots=bot)
    assert game.is_over(final) and actions
    assert all("dice" in a for a in actions if "roll" in a)
    assert replay(game, TWO, 7, actions) == final


def test_same_seed_same_game_other_seed_other_game():
    game = get_game("chariot-race")
    _, first = play_game(game, TWO, seed=1, bots=RandomBot())
    _, again = play_game(game, TWO, seed=1, bots=RandomBot())
    _, other = play_game(game, TWO, seed=2, bots=RandomBot())
    assert first == again and first != other


def test_bots_per_actor():
    game = get_game("chariot-race")
    greedy, random_bot = GreedyBot(), RandomBot()
    bots = {"green": greedy, "green-2": greedy, "red": random_bot, "red-2": random_bot}
    final, _ = play_game(game, TWO, seed=3, bots=bots)
    assert game.is_over(final)
