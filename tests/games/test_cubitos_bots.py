"""Greedy bots in Cubitos rate every option by playing it through the rules' own ``apply``."""

from __future__ import annotations

import random

from companion.games.bots import GreedyBot, roll
from companion.games.cubitos.abilities import ANY_TIME, use_ability
from companion.games.cubitos.rules import GAME, PLAYER_COLOURS, Cubitos
from companion.games.cubitos.state import MEMO_SIZE

FOUR = {"players": [{"name": c.title(), "colour": c} for c in PLAYER_COLOURS], "race": "race_3"}


class CountingApplies(Cubitos):
    """The real rules, counting how often a bot plays an option out."""

    applied = 0

    def apply(self, state, action):
        self.applied += 1
        return super().apply(state, action)


def states(seed: int, actions: int = 400, race: str = "race_3"):
    """The states of a greedy bots' race, each with its prompt."""
    rng = random.Random(seed)
    state = GAME.setup({**FOUR, "race": race}, rng)
    for _ in range(actions):
        if GAME.is_over(state):
            return
        prompt = GAME.prompt(state)
        yield state, prompt
        state, _ = GAME.apply(state, roll(GAME, GreedyBot().choose(GAME, state, prompt, rng), rng, state))


def test_a_greedy_bot_plays_out_every_option_through_apply():
    game = CountingApplies()
    for state, prompt in states(seed=2):
        if prompt.phase == "choice" and len(prompt.options) > 1:
            GreedyBot().choose(game, state, prompt, random.Random(0))
            assert game.applied == len(prompt.options)
            return
    raise AssertionError("no push-or-pass decision in the race")


def test_a_tables_memo_of_rated_zones_never_holds_more_than_its_size():
    table = GAME.setup(FOUR, random.Random(0)).table
    for n in range(MEMO_SIZE + 10):
        assert table.remember(("worth", ((n, "x"),)), float(n)) == float(n)
    assert len(table.memo) <= MEMO_SIZE and table.memo[("worth", ((MEMO_SIZE + 9, "x"),))] == MEMO_SIZE + 9


def support_uses():
    """A phase-5 state of a greedy race where the actor may use abilities the bots rate by using them."""
    for state, prompt in states(seed=1, actions=1500, race="race_5"):
        uses = [o for o in prompt.options if o["type"] == "ability" and "roll" not in o and not o.get("manual")]
        if prompt.phase == "support" and len(uses) > 1:
            return state, prompt, uses
    raise AssertionError("no phase 5 with abilities to choose from in the race")


def test_an_ability_used_again_from_the_same_state_leaves_the_same_table_and_fresh_events():
    state, _, uses = support_uses()
    first_events, again_events = [], []
    first = use_ability(state, uses[0], first_events, "phase5", *ANY_TIME)
    again = use_ability(state, uses[0], again_events, "phase5", *ANY_TIME)
    assert again == first and again_events == first_events
    again_events[0]["type"] = "changed by a reader"
    assert first_events[0]["type"] == "ability"
