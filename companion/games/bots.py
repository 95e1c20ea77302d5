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
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from companion.games.base import Action, Game, Prompt

MAX_ACTIONS = 100_000
"""``play_game`` gives up after this many actions: a game that long means a rules bug, not a slow race."""
BY_HAND = "manual"
"""An option marked ``"manual": true`` is the players' own resolution of a rule the engine does not play (Cubitos'
CU-89 adjustments); a bot takes one only when nothing else is listed, so it never invents coins."""


def choices(prompt: Prompt) -> list[Action]:
    """The options a bot may take: all but the by-hand ones, unless those are all there is.

    Without a by-hand option (nearly always) that is ``prompt.options`` itself, not a copy: a bot race asks at every
    action, and the bots only read the list."""
    options = prompt.options
    for option in options:
        if BY_HAND in option and option[BY_HAND]:  # ``in``, not ``get``: no method called for each option
            return [option for option in options if not option.get(BY_HAND)] or list(options)
    return options


class Bot(Protocol):
    def choose(self, game: Game, state: Any, prompt: Prompt, rng: random.Random) -> Action:
        """One of ``prompt.options`` (without dice: the caller rolls them)."""
        ...


def roll(game: Game, option: Mapping[str, Any], rng: random.Random, state: Any = None) -> Action:
    """``option`` ready for ``apply``: with ``"dice"`` rolled when it asks for a roll.

    A game whose dice differ (Cubitos rolls a pool of coloured dice drawn from a player's zones) rolls them itself
    (``roll_dice(state, option, rng)``); the others roll ``die_faces`` uniformly. An option without a roll is ready
    as it is (a dict: no copy at every action of a bot race, and ``apply`` finds the very option among those it
    listed); the dice go into a copy.
    """
    if "roll" not in option and type(option) is dict:
        return option
    action = dict(option)
    if "roll" in option:
        roll_dice = getattr(game, "roll_dice", None) if state is not None else None
        if roll_dice is not None:
            action["dice"] = roll_dice(state, option, rng)
        else:
            faces = game.die_faces
            action["dice"] = [rng.choice(faces) for _ in range(option["roll"])]
    return action


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
    """One-step lookahead: the option whose result ``game.score`` rates best for the actor.

    Options that need dice are tried with one sample roll each; ties go to the earliest option (games list the
    cautious choice, such as "done", first). A game whose options are costly to play out may rate some of them
    itself, ``game.rate(state, option, actor)`` (None for an option to be played out after all, as Cubitos does
    for what it does not model), or all of a state's options at once, ``game.rate_options(state, options, actor)``
    (a list alike), which reads what the options share once; ``play_out=True`` plays out every option all the same.
    """

    def __init__(self, play_out: bool = False) -> None:
        self.play_out = play_out
        self._rater: tuple[Any, Any] = (None, None)  # (the game, ``_rating_of`` it): looked up once per game

    def choose(self, game: Game, state: Any, prompt: Prompt, rng: random.Random) -> Action:
        options = choices(prompt)
        if len(options) == 1:
            return options[0]
        actor = prompt.actor
        best, best_score = options[0], -math.inf
        rated, rating = self._rater
        if rated is not game:
            rating = self._rating_of(game)
            self._rater = (game, rating)
        ratings = rating(state, options, actor)
        for option, score in zip(options, ratings):  # noqa: B905 - one rating per option; a keyword costs a call
            if score is None:
                after, _ = game.apply(state, roll(game, option, rng, state))
                score = game.score(after, actor)
            if score > best_score:
                best, best_score = option, score
        return best

    def _rating_of(self, game: Game) -> Callable[[Any, list[Action], str], list[float | None]]:
        """How this bot rates all of a state's options in ``game`` (None: play it out): the game's own
        ``rate_options``, its ``rate`` of each option, or nothing rated when the bot plays every option out."""
        if not self.play_out:
            rate_options = getattr(game, "rate_options", None)
            if rate_options is not None:
                return rate_options
            rate = getattr(game, "rate", None)
            if rate is not None:
                return lambda state, options, actor: [rate(state, option, actor) for option in options]
        return lambda state, options, actor: [None] * len(options)


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
    # the game's methods named once: a bot race looks them up at each of its tens of thousands of actions
    is_over, prompt_for, apply, record = game.is_over, game.prompt, game.apply, actions.append
    for _ in range(MAX_ACTIONS):
        if is_over(state):
            return state, actions
        prompt = prompt_for(state)
        bot = bots[prompt.actor] if seated else bots
        action = bot.choose(game, state, prompt, rng)
        if "roll" in action or type(action) is not dict:  # ``roll``'s own test, without a call for every action
            action = roll(game, action, rng, state)
        state, _ = apply(state, action)
        record(action)
    if is_over(state):
        return state, actions
    raise RuntimeError(f"{game.id}: no end after {MAX_ACTIONS} actions (seed {seed})")


def replay(game: Game, options: Mapping[str, Any], seed: int, actions: list[Action]) -> Any:
    """The state after ``actions``, rebuilt from set-up: undo is "replay all but the last"."""
    state = game.setup(options, random.Random(seed))
    for action in actions:
        state, _ = game.apply(state, action)
    return state
