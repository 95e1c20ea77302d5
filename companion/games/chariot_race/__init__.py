"""Chariot Race (Matt Leacock): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

See ``README.md`` beside this file for the action vocabulary and the Position / Turn formats of ``scenario.py``.
The package ties the two: ``rules.py`` knows nothing of scenarios, ``scenario.py`` plays them through the rules.
"""

from companion.games.chariot_race.rules import ChariotRace
from companion.games.chariot_race.scenario import run_scenario

GAME = ChariotRace(scenario=run_scenario)

__all__ = ["GAME", "ChariotRace"]
