"""Dice Race, the smallest complete game package: ``rules.py`` (pure rules), ``present.py`` (its log lines) and
``i18n/`` (their texts). Copy it to start a new game."""

from companion.games.dice_race.rules import FACES, GAME, GOAL, DiceRace, DiceRaceState

__all__ = ["FACES", "GAME", "GOAL", "DiceRace", "DiceRaceState"]
