"""Greedy bots in Cubitos rate most options without playing them out (``Cubitos.rate``): moves, conversions,
purchases and bonuses as playing them out scores them, and the options that hand the decision on by the actor's own
table alone."""

from __future__ import annotations

import random

from companion.games.bots import GreedyBot, roll
from companion.games.cubitos import abilities
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


def test_moves_conversions_purchases_bonuses_and_abilities_are_rated_as_playing_them_out_scores_them():
    rated = set()
    for race in ("race_3", "race_7", "race_1"):
        for state, prompt in states(seed=5, actions=1500, race=race):
            for option in prompt.options:
                if (option["type"] in ("move", "convert", "buy_step", "buy", "give_back", "take_die")
                        or option["type"] == "ability" and prompt.phase in Cubitos.USING_ONLY and "roll" not in option
                        and GAME.rate(state, option, prompt.actor) is not None):
                    after, _ = GAME.apply(state, option)
                    assert GAME.rate(state, option, prompt.actor) == GAME.score(after, prompt.actor), option
                    rated.add(option["type"] if option["type"] != "ability" else prompt.phase)
    assert rated == {"move", "convert", "buy_step", "buy", "give_back", "take_die", "support", "choice", "push",
                     "event", "end6"}


def test_an_event_use_is_rated_without_playing_it_out_unless_it_leaves_nothing_to_roll():
    """With nothing left to roll the player must pass, which may end the roll section: that use is played out."""
    rated = {}
    for state, prompt in states(seed=16, actions=500):  # all the dice of a push hit at its 465th action
        for option in prompt.options if prompt.phase == "event" else ():
            if option["type"] == "ability":
                rolls_on = bool(use_ability(state, option, [], "event").players[state.current].ready)
                rated.setdefault(rolls_on, set()).add(GAME.rate(state, option, prompt.actor) is not None)
    assert rated == {True: {True}, False: {False}}


def test_pushing_or_passing_is_decided_without_playing_either_out():
    game = CountingApplies()
    for state, prompt in states(seed=2):
        if prompt.phase == "choice" and len(prompt.options) > 1:
            chosen = GreedyBot().choose(game, state, prompt, random.Random(0))
            assert chosen in prompt.options and game.applied == 0
            return
    raise AssertionError("no push-or-pass decision in the race")


def test_a_bot_told_to_play_out_plays_out_every_option():
    game = CountingApplies()
    for state, prompt in states(seed=2):
        if prompt.phase == "choice" and len(prompt.options) > 1:
            GreedyBot(play_out=True).choose(game, state, prompt, random.Random(0))
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


def test_the_ability_a_greedy_bot_chose_is_carried_out_once_for_rating_and_once_more_never(monkeypatch):
    state, prompt, uses = support_uses()
    carried_out = []
    real = abilities._use_ability
    monkeypatch.setattr(abilities, "_use_ability", lambda *args: carried_out.append(args[1]) or real(*args))
    chosen = GreedyBot().choose(GAME, state, prompt, random.Random(0))
    GAME.apply(state, chosen)
    assert sorted(map(str, carried_out)) == sorted(map(str, uses))


def test_an_ability_used_again_from_the_same_state_leaves_the_same_table_and_fresh_events():
    state, _, uses = support_uses()
    first_events, again_events = [], []
    first = use_ability(state, uses[0], first_events, "phase5", *ANY_TIME)
    again = use_ability(state, uses[0], again_events, "phase5", *ANY_TIME)
    assert again == first and again_events == first_events
    again_events[0]["type"] = "changed by a reader"
    assert first_events[0]["type"] == "ability"


def test_a_die_turned_to_a_face_of_choice_is_rated_by_that_die_without_using_the_ability(monkeypatch):
    turns = next((state, prompt, [o for o in prompt.options if "pick" in o])
                 for state, prompt in states(seed=6, actions=1500, race="race_7")
                 if prompt.phase == "choice" and any("pick" in o for o in prompt.options))
    state, prompt, picks = turns
    twin = state._replace()  # an equal state, whose uses the rules have not kept
    ratings = [GAME.score(use_ability(twin, pick, [], "any"), prompt.actor) for pick in picks]
    carried_out = []
    monkeypatch.setattr(abilities, "_use_ability", lambda *args: carried_out.append(args[1]))
    assert [GAME.rate(state, pick, prompt.actor) for pick in picks] == ratings
    assert len(picks) > 1 and carried_out == []
