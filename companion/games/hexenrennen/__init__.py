"""Hexen Rennen (Wolfgang Panning, Queen Games 2001): the rules engine. ``GAME`` implements
``companion.games.base.Game``.

See ``README.md`` beside this file for the rules by id (HR-n), the action vocabulary, set-up options and the view.
"""

from companion.games.hexenrennen.rules import HexenRennen

GAME = HexenRennen()

__all__ = ["GAME", "HexenRennen"]
