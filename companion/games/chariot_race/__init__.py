"""Chariot Race (Matt Leacock): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

See ``README.md`` beside this file for the action vocabulary and the Position / Turn formats of ``scenario.py``.
"""

from companion.games.chariot_race.rules import ChariotRace

GAME = ChariotRace()

__all__ = ["GAME", "ChariotRace"]
