"""Properties over bot games of Cubitos: whatever the bots choose, no die is lost or created (every die is in exactly
one zone or the stock after every action), the lead die is never in the stock or a draw zone, and replaying the
actions gives the same table."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.bots import GreedyBot, RandomBot, replay, roll
from companion.games.cubitos import GAME
from companion.games.cubitos.kit import load_kit
from companion.games.cubitos.state import State

COLOURS = ("blue", "yellow", "red", "white")
RACES = sorted(r for r, race in load_kit().races.items() if race.cards is not None)


def places(state: State) -> list[int]:
    found = list(state.stock)
    for player in state.players:
        found += [*player.draw, *player.ready, *player.rest, *(d for d, _ in player.active)]
    return found


def check(state: State) -> None:
    found = places(state)
    assert sorted(found) == list(range(len(state.table.types))), "a die lost or created"
    lead = state.table.lead_die
    assert lead not in state.stock and all(lead not in p.draw for p in state.players)
    assert all(p.coins >= 0 and p.steps >= 0 and p.credits >= 0 and p.water >= 0 for p in state.players)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), race=st.sampled_from(RACES),
       greedy=st.booleans())
def test_every_die_stays_in_one_place_and_replay_equals_live_play(seed, players, race, greedy):
    options = {"players": [{"name": f"P{n}", "colour": COLOURS[n]} for n in range(players)], "race": race}
    rng = random.Random(seed)
    state = GAME.setup(options, random.Random(seed))
    bot = GreedyBot() if greedy else RandomBot()
    actions = []
    for _ in range(400):  # a random race can last thousands of rounds: the property holds at every step
        if GAME.is_over(state):
            break
        prompt = GAME.prompt(state)
        assert prompt.options, f"no legal option in phase {state.phase}"
        action = roll(GAME, bot.choose(GAME, state, prompt, rng), rng, state)
        state, _ = GAME.apply(state, action)
        actions.append(action)
        check(state)
    assert replay(GAME, options, seed, actions) == state
