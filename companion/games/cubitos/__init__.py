"""Cubitos (John D Clair, AEG / Pegasus 2020): the rules engine. ``GAME`` implements ``companion.games.base.Game``.

See ``README.md`` beside this file for what is played, the Position and Turn formats, and what is not done yet.
"""

from companion.games.cubitos.rules import GAME, Cubitos

__all__ = ["GAME", "Cubitos"]
