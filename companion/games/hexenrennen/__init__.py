"""Hexen Rennen (Wolfgang Panning, Queen Games 2001): the rules engine. ``GAME`` implements
``companion.games.base.Game``.

See ``README.md`` beside this file for the rules by id (HR-n), the action vocabulary, set-up options and the view.
The package ties the rules to ``scenario.py``, which plays rule disputes through them.
"""

from companion.games.hexenrennen.rules import HexenRennen
from companion.games.hexenrennen.scenario import run_scenario

GAME = HexenRennen(scenario=run_scenario)

__all__ = ["GAME", "HexenRennen"]
