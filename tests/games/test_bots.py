"""The generic bots play any game of the protocol: Dice Race (the foundation's example) and Chariot Race; every
game says which of its seats are bots'."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES as REGISTRY
from companion.games import IllegalAction, get_game
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


COLOURS = {"dice-race": ("green", "red"), "chariot-race": ("green", "red"), "hexenrennen": ("blue", "yellow"),
           "cubitos": ("blue", "red"), "automobiles": ("red", "blue")}
BO_PLAYS = {"dice-race": {"Bo"}, "chariot-race": {"red", "red-2"}, "hexenrennen": {"yellow"}, "cubitos": {"red"},
            "automobiles": {"blue"}}
"""The actor ids of the second player's seat: a name, two chariots (CR-7), a clan, a runner, a car."""
GAMES = sorted(REGISTRY)


def test_every_registered_game_has_its_seats_here():
    assert set(REGISTRY) <= set(COLOURS)


def two_seats(game_id, second_is_bot):
    first, second = COLOURS[game_id]
    return {"players": [{"name": "Ada", "colour": first},
                        {"name": "Bo", "colour": second, "bot": second_is_bot}]}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_is_a_bot_only_when_its_set_up_says_so(game_id):
    game = get_game(game_id)
    state = game.setup(two_seats(game_id, True), random.Random(1))
    seats = game.seats(state)
    assert game.prompt(state).actor in seats
    assert {actor for actor, bot in seats.items() if bot} == BO_PLAYS[game_id]
    assert set(seats) > BO_PLAYS[game_id]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_stored_game_without_seat_kinds_is_all_people(game_id):
    game = get_game(game_id)
    first, second = COLOURS[game_id]
    old = {"players": [{"name": "Ada", "colour": first}, {"name": "Bo", "colour": second}]}
    assert not any(game.seats(game.setup(old, random.Random(1))).values())


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kind", ["yes", 1, None, "bot"])
def test_a_seat_kind_other_than_true_or_false_is_refused_naming_the_field(game_id, kind):
    game = get_game(game_id)
    with pytest.raises(IllegalAction) as refused:
        game.setup(two_seats(game_id, kind), random.Random(1))
    assert "players[1].bot must be true" in str(refused.value) and repr(kind) in str(refused.value)
