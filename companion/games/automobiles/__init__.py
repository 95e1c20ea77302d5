"""Automobiles (David Short, AEG / Pegasus): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

See ``README.md`` beside this file for the rules by id (AU-n), the action vocabulary, set-up options and the view.
"""

from companion.games.automobiles.rules import GAME, Automobiles

__all__ = ["GAME", "Automobiles"]
