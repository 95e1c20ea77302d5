"""Dice Race, the smallest complete game package: copy it to start a new game.

``rules.py`` (the state, ``PHASES``, the ``Game``), ``scenario.py`` (rule disputes), ``bot.py`` (what the bots
know), ``present.py`` (how the screens and the log show it), ``i18n/`` (their texts) and ``README.md`` (the rules by
id, the formats). The package ties the rules to the scenario: each module imports only downwards.
"""

from companion.games.dice_race.rules import FACES, GOAL, DiceRace, State
from companion.games.dice_race.scenario import run_scenario

GAME = DiceRace(scenario=run_scenario)

__all__ = ["FACES", "GAME", "GOAL", "DiceRace", "State"]
