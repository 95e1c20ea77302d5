"""Automobiles (David Short, AEG / Pegasus): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

See ``README.md`` beside this file for the rules by id (AU-n), the action vocabulary, set-up options and the view.
The rules (``rules.py``) and the scenario command built on them (``scenario.py``) meet here.
"""

from typing import Any

from companion.games.automobiles.rules import Automobiles as Rules
from companion.games.automobiles.scenario import run_scenario


class Automobiles(Rules):
    def scenario(self, position: Any, turn: Any) -> dict[str, Any]:
        """A rule dispute: one player's decisions from a position (``scenario.py``; formats in the README)."""
        return run_scenario(position, turn)


GAME = Automobiles()

__all__ = ["GAME", "Automobiles"]
