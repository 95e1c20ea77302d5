"""Properties over many bot games: whatever the bots choose, the table stays a possible table and replays exactly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.bots import GreedyBot, RandomBot, play_game, replay, roll
from companion.games.chariot_race import GAME
from companion.games.chariot_race.board import NO_SPACE
from companion.games.chariot_race.state import CALTROP_SUPPLY, State

COLOURS = ["green", "red", "blue", "yellow", "black", "white"]


def options_for(players: int, board: str, no_damage: bool = False, alternative: bool = False) -> dict:
    return {"players": [{"name": f"P{n}", "colour": COLOURS[n]} for n in range(players)], "board": board,
            "variants": {"no_damage_after_finish": no_damage, "alternative_chariots": alternative}}


def check_table(state: State) -> None:
    """CR-2 tracks, one chariot per space, CR-6 supply, wrecked chariots off the board."""
    spaces = [car.space for car in state.cars if not car.wrecked]
    assert len(spaces) == len(set(spaces)), f"two chariots share a space: {GAME.view(state)['chariots']}"
    assert len(state.caltrops) <= CALTROP_SUPPLY
    board = state.table.board
    for car, kind in zip(state.cars, state.table.kinds, strict=True):
        assert 0 <= car.damage <= kind.max_damage, car
        assert 0 <= car.speed <= kind.max_speed, car
        assert 0 <= car.fortune <= kind.max_fortune, car
        assert (car.space == NO_SPACE) == car.wrecked, car
        assert (car.damage == 0) == car.wrecked, car
        assert car.wrecked or not board.rocks[car.space], car
        assert car.laps >= 0, car


def play_checked(options: dict, seed: int, bot=None) -> tuple[State, list]:
    """A bot game that checks the table after every action and that the announced move is the move made."""
    bot = bot or RandomBot()
    rng = random.Random(seed)
    state = GAME.setup(options, rng)
    actions = []
    while not GAME.is_over(state):
        prompt = GAME.prompt(state)
        assert prompt.options, f"no legal option in phase {state.phase}"
        action = roll(GAME, bot.choose(GAME, state, prompt, rng), rng)
        state, events = GAME.apply(state, action)
        actions.append(action)
        if action["type"] == "move":
            moved = next(e for e in events if e["type"] == "moved")
            assert (moved["to"], moved["damage"]) == (action["to"], action["damage"]), (action, moved)
        check_table(state)
        assert len(actions) < 5000, "a game that does not end"
    return state, actions


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), board=st.sampled_from("AB"),
       no_damage=st.booleans(), alternative=st.booleans())
def test_bot_games_keep_a_possible_table_end_and_replay(seed, players, board, no_damage, alternative):
    options = options_for(players, board, no_damage, alternative)
    final, actions = play_checked(options, seed)
    assert GAME.is_over(final)
    assert replay(GAME, options, seed, actions) == final
    view = GAME.view(final)
    assert view["winner"] is None or next(c for c in view["chariots"] if c["id"] == view["winner"])["finished"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_undo_is_replay_of_all_but_the_last_actions(seed, cut):
    options = options_for(6, "A")
    final, actions = play_game(GAME, options, seed, RandomBot())
    keep = int(len(actions) * cut)
    live = GAME.setup(options, random.Random(seed))
    for action in actions[:keep]:
        before = GAME.view(live)
        after, _ = GAME.apply(live, action)
        assert GAME.view(live) == before  # apply never changes its input
        live = after
    assert replay(GAME, options, seed, actions[:keep]) == live


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_anything_but_a_listed_option_is_refused(seed):
    state, actions = play_game(GAME, options_for(3, "A"), seed, RandomBot())
    state = replay(GAME, options_for(3, "A"), seed, actions[: len(actions) // 2])
    prompt = GAME.prompt(state)
    wrong = [{"type": "fly"}, {"type": "move", "path": ["straight"] * 13}, {"type": "spear", "target": "nobody"},
             {"type": "caltrop", "space": "L9-99"}, {"type": "turn", "die": 9, "face": "steer"}]
    for action in wrong:
        try:
            GAME.apply(state, action)
        except IllegalAction as err:
            assert err.rule.startswith("CR-")
        else:
            raise AssertionError(f"{action} was accepted in phase {prompt.phase}")


def test_two_thousand_random_games_all_end_with_a_possible_table():
    """The bulk fuzz: fast games without per-action checks (the hypothesis tests above check every action)."""
    rounds = []
    for seed in range(2000):
        options = options_for(2 + seed % 5, "AB"[seed % 2], no_damage=seed % 3 == 0)
        final, actions = play_game(GAME, options, seed, RandomBot())
        check_table(final)
        assert GAME.is_over(final)
        rounds.append(final.round)
    assert max(rounds) > 5


def test_greedy_bots_finish_races():
    winners = []
    for seed in range(3):
        final, _ = play_checked(options_for(4, "A"), seed, GreedyBot())
        winners.append(final.winner)
    assert any(winners), "greedy bots should usually bring someone home"
