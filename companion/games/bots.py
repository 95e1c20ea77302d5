"""Simple players for any game that follows ``companion.games.base.Game``: for the demo and for fuzzing rules.

A bot only chooses among ``prompt(state).options``; dice stay inputs, rolled by ``play_game`` (or the camera).

>>> from companion.games.chariot_race import GAME
>>> final, actions = play_game(GAME, {"players": [{"name": "A"}, {"name": "B"}]}, seed=1, bots=RandomBot())
>>> GAME.is_over(final)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, Protocol

from companion.games import get_heuristic
from companion.games.base import Action, Game, Prompt

MAX_ACTIONS = 100_000
"""``play_game`` gives up after this many actions: a game that long means a rules bug, not a slow race."""
BY_HAND = "manual"
"""An option marked ``"manual": true`` is the players' own resolution of a rule the engine does not play (Cubitos'
CU-89 adjustments); a bot takes one only when nothing else is listed, so it never invents coins."""


def choices(prompt: Prompt) -> list[Action]:
    """The options a bot may take: all but the by-hand ones, unless those are all there is."""
    return [option for option in prompt.options if not option.get(BY_HAND)] or list(prompt.options)


class Bot(Protocol):
    def choose(self, game: Game, state: Any, prompt: Prompt, rng: random.Random) -> Action:
        """One of ``prompt.options`` (without dice: the caller rolls them)."""
        ...


def roll(game: Game, option: Mapping[str, Any], rng: random.Random, state: Any = None) -> Action:
    """``option`` ready for ``apply``: with ``"dice"`` rolled by the game (``Game.roll_dice``) when it asks for a
    roll; an option without a roll is ready as it is."""
    if "roll" not in option:
        return dict(option)
    return {**option, "dice": game.roll_dice(state, option, rng)}


class RandomBot:
    """Any legal option: an action type uniformly, then an option of that type uniformly.

    Choosing the type first keeps 31 reroll subsets from drowning "done", so random games still reach every phase
    often; they find the corners of the rules nobody plays on purpose.
    """

    def choose(self, game: Game, state: Any, prompt: Prompt, rng: random.Random) -> Action:
        options = choices(prompt)
        kinds = list(dict.fromkeys(option["type"] for option in options))
        if len(kinds) == 1:
            return rng.choice(options)
        kind = rng.choice(kinds)
        return rng.choice([option for option in options if option["type"] == kind])


class GreedyBot:
    """One-step lookahead: each option played through the game's own ``apply`` and the table after it scored by the
    game's heuristic (``<package>/bot.py``, :class:`~companion.games.base.Heuristic`), the best taken.

    Options that need dice are tried with one sample roll each; ties go to the earliest option (games list the
    cautious choice, such as "done", first).
    """

    def choose(self, game: Game, state: Any, prompt: Prompt, rng: random.Random) -> Action:
        options = choices(prompt)
        if len(options) == 1:
            return options[0]
        score = get_heuristic(game.id).score
        best, best_score = options[0], -math.inf
        for option in options:
            after, _ = game.apply(state, roll(game, option, rng, state))
            rated = score(after, prompt.actor)
            if rated > best_score:
                best, best_score = option, rated
        return best


def play_game(game: Game, options: Mapping[str, Any], seed: int,
              bots: Bot | Mapping[str, Bot]) -> tuple[Any, list[Action]]:
    """Play a whole game from ``setup`` to the end; returns the final state and every applied action (with dice).

    ``bots`` is one bot for every actor or a dict actor -> bot. One ``random.Random(seed)`` drives set-up, dice
    and bot choices, so a seed replays exactly: ``replay(game, options, seed, actions)`` gives the same state.
    """
    rng = random.Random(seed)
    state = game.setup(options, rng)
    actions: list[Action] = []
    seated = isinstance(bots, Mapping)
    for _ in range(MAX_ACTIONS):
        if game.is_over(state):
            return state, actions
        prompt = game.prompt(state)
        bot = bots[prompt.actor] if seated else bots
        action = roll(game, bot.choose(game, state, prompt, rng), rng, state)
        state, _ = game.apply(state, action)
        actions.append(action)
    if game.is_over(state):
        return state, actions
    raise RuntimeError(f"{game.id}: no end after {MAX_ACTIONS} actions (seed {seed})")


def replay(game: Game, options: Mapping[str, Any], seed: int, actions: list[Action]) -> Any:
    """The state after ``actions``, rebuilt from set-up: undo is "replay all but the last"."""
    state = game.setup(options, random.Random(seed))
    for action in actions:
        state, _ = game.apply(state, action)
    return state
