"""Properties over many bot games: whatever the bots choose and the table reveals, the table stays a possible table,
no card is played twice, every game ends and a replay gives the same game."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.bots import GreedyBot, RandomBot, play_game, replay, roll
from companion.games.hexenrennen import GAME
from companion.games.hexenrennen.kit import MAGIC
from companion.games.hexenrennen.state import START, State, parse_value

CLANS = ["orange", "blue", "yellow", "green"]


def options_for(players: int, tiles: str = "shuffled") -> dict:
    return {"players": [{"name": f"P{n}", "colour": CLANS[n]} for n in range(players)], "tiles": tiles}


def check_table(state: State) -> None:
    """HR-6 one witch per path space, HR-2/HR-3 a revealed track that a real box can show, HR-15 hands."""
    kit = state.kit
    on_track = [p for p in state.witches if START < p <= kit.track_length]
    assert len(on_track) == len(set(on_track)), f"two witches share a space: {state.witches}"
    assert all(START <= p <= kit.last_space for p in state.witches), state.witches
    revealed = [t for t in state.track if t is not None]
    numbers = [t for t in revealed if t.value != MAGIC]
    assert len(numbers) == len(set(numbers)), f"a number tile shows twice: {sorted(numbers)}"
    for s in range(kit.stages):
        stage = Counter((t.clan, t.value == MAGIC) for t in state.track[1 + 16 * s: 17 + 16 * s] if t is not None)
        for (clan, magic), n in stage.items():
            assert n <= (kit.magic_per_stage if magic else kit.numbers_per_stage), (s, clan, magic, n)
    if state.truth is not None:
        assert all(t is None or t == state.truth[p] for p, t in enumerate(state.track)), "revealed != layout"
    for hand in (*state.hands, *([] if state.piles_known else state.piles)):
        left = Counter(kit.deck)
        left.subtract(hand)
        assert min(left.values()) >= 0, f"a hand holds a card twice: {hand}"


def play_checked(options: dict, seed: int, bot=None, try_all: bool = False) -> tuple[State, list, dict]:
    """A bot game that checks the table after every action and counts every card played or drawn.

    With ``try_all`` every offered option is applied once (each must be legal and keep a possible table)."""
    bot = bot or RandomBot()
    rng = random.Random(seed)
    state = GAME.setup(options, rng)
    actions: list = []
    played: dict[str, list] = {}
    while not GAME.is_over(state):
        prompt = GAME.prompt(state)
        assert prompt.options, f"no legal option in phase {state.phase}"
        if try_all:
            for option in prompt.options:
                check_table(GAME.apply(state, roll(GAME, option, rng))[0])
        action = roll(GAME, bot.choose(GAME, state, prompt, rng), rng)
        state, events = GAME.apply(state, action)
        actions.append(action)
        for event in events:
            if event["type"] == "card_played":
                played.setdefault(event["player"], []).append(event["card"])
            if event["type"] == "drawn":
                played.setdefault(event["clan"], []).append(event["card"])
            if event["type"] == "moved" and action["type"] in ("move", "play") and "to" in action:
                assert event["to"] == action["to"] or event["by"] == "tile", (action, event)
        check_table(state)
        assert len(actions) < 3000, "a game that does not end"
    return state, actions, played


def check_cards(state: State, played: dict[str, list]) -> None:
    """HR-15: no card is played twice; what is left in hand is the deck minus what was played."""
    deck = Counter("magic" if v == MAGIC else v for v in state.kit.deck)
    for clan, cards in played.items():
        assert not Counter(cards) - deck, f"{clan} played a card twice: {sorted(map(str, cards))}"
        if clan in state.clans:
            hand = Counter(state.hands[state.clans.index(clan)])
            assert hand == Counter(parse_value(c, state.kit.card_numbers) for c in (deck - Counter(cards)).elements())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), tiles=st.sampled_from(["shuffled", "hidden"]))
def test_bot_games_keep_a_possible_table_use_each_card_once_end_and_replay(seed, players, tiles):
    options = options_for(players, tiles)
    final, actions, played = play_checked(options, seed)
    assert GAME.is_over(final)
    check_cards(final, played)
    assert replay(GAME, options, seed, actions) == final
    view = GAME.view(final)
    assert any(p["home"] == 3 for p in view["players"])  # HR-18
    best = max(view["scores"].values())
    assert view["winners"] == [c for c, s in view["scores"].items() if s == best]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_every_offered_option_is_legal_even_at_a_table_that_reveals_freely(seed, players):
    """At the real table any possible tile may come up: every reveal option keeps the track possible (HR-3)."""
    final, _, played = play_checked(options_for(players, "hidden"), seed, try_all=True)
    check_cards(final, played)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_undo_is_replay_of_all_but_the_last_actions(seed, cut):
    options = options_for(4)
    _, actions = play_game(GAME, options, seed, RandomBot())
    keep = int(len(actions) * cut)
    live = GAME.setup(options, random.Random(seed))
    for action in actions[:keep]:
        before = GAME.view(live)
        after, _ = GAME.apply(live, action)
        assert GAME.view(live) == before  # apply never changes its input
        live = after
    assert replay(GAME, options, seed, actions[:keep]) == live


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tiles=st.sampled_from(["shuffled", "hidden"]))
def test_anything_but_a_listed_option_is_refused(seed, tiles):
    options = options_for(3, tiles)
    _, actions = play_game(GAME, options, seed, RandomBot())
    state = replay(GAME, options, seed, actions[: len(actions) // 2])
    prompt = GAME.prompt(state)
    wrong = [{"type": "fly"}, {"type": "roll", "dice": ["0"]}, {"type": "move", "witch": "purple-1"},
             {"type": "reveal", "clan": "purple", "value": 3}, {"type": "play", "card": 11},
             {"type": "draw", "card": 1}, {"type": "stay"} if state.phase not in ("own_magic", "foreign_magic")
             else {"type": "play", "card": "joker"}]
    for action in wrong:
        try:
            GAME.apply(state, action)
        except IllegalAction as err:
            assert err.rule.startswith("HR-"), err
        else:
            raise AssertionError(f"{action} was accepted in phase {prompt.phase}")


def test_five_hundred_random_games_all_end_with_a_possible_table():
    """The bulk fuzz: fast games without per-action checks (the hypothesis tests above check every action)."""
    turns = []
    for seed in range(500):
        options = options_for(2 + seed % 3, "shuffled" if seed % 2 else "hidden")
        final, actions = play_game(GAME, options, seed, RandomBot())
        check_table(final)
        assert GAME.is_over(final)
        turns.append(final.turns)
    assert 20 < sum(turns) / len(turns) < 400


def test_greedy_bots_finish_races_and_play_cards():
    for seed in range(3):
        final, _, played = play_checked(options_for(4), seed, GreedyBot())
        check_cards(final, played)
        assert GAME.view(final)["winners"]
