"""Greedy bots in Cubitos rate every option by playing it through the rules' own ``apply``."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

from companion.games.bots import GreedyBot, roll
from companion.games.cubitos import GAME, Cubitos
from companion.games.cubitos.abilities import ANY_TIME, use_ability
from companion.games.cubitos.bot import rating
from companion.games.cubitos.rules import PLAYER_COLOURS

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


def test_the_rules_keep_nothing_between_calls():
    """No module-level state, no cache by identity, no state built around its constructor."""
    package = Path(__file__).resolve().parents[2] / "companion" / "games" / "cubitos"
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(package.glob("*.py")))
    assert not re.findall(r"global |tuple\.__new__|__dict__\[|_last_\w+ = |memo", source)


def test_the_bots_score_is_exact_so_no_rounding_breaks_a_tie():
    """Options the score rates alike are alike on every Python (3.12 sums floats otherwise than 3.11): the rating
    is a Fraction, and a coin and a credit are worth what they say whatever was summed before."""
    state, prompt = next((s, p) for s, p in states(seed=2) if p.phase == "buy")
    p = state.table.colours.index(prompt.actor)
    player = state.players[p]
    assert isinstance(rating(state.table, player), Fraction)
    convert = player._replace(credits=player.credits + 1, coins=player.coins + 1)
    assert rating(state.table, convert) - rating(state.table, player) == Fraction(7, 10)


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
