"""Chariot Race's luck (``Game.luck``): the fortune faces a confirmed roll showed against what five fair dice give.

Fortune is the face that is always welcome (CR-14: +1 fortune, which buys rerolls and repairs); the others are good
or bad by the position. The chance is the die's own (``dice.json``, CR-1): one fortune face in six.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from companion.games.base import Luck
from companion.games.chariot_race.components import load_dice
from companion.games.chariot_race.state import State

FORTUNE = "fortune"


@cache
def fortune_chance() -> float:
    """The chance of the fortune face on one die, as often as ``dice.json`` prints it."""
    faces = load_dice().faces
    return faces.count(FORTUNE) / len(faces)


def luck(before: State, action: Mapping[str, Any], after: State) -> list[Luck]:
    """A roll or reroll of ``k`` dice: ``k`` times the fortune chance expected, the fortune faces shown."""
    dice = action.get("dice")
    if not isinstance(dice, list) or not dice:
        return []
    seat = before.cars[before.current].id
    return [Luck(seat, "fortune", len(dice) * fortune_chance(), float(dice.count(FORTUNE)))]


def player_of(state: State, seat: str) -> str:
    """A chariot's player (one player may drive two)."""
    return next((car.player for car in state.cars if car.id == seat), seat)
