"""Chariot boards (standard and alternative) and the dice, read from ``data/`` and checked at load."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.games.chariot_race.board import read_data_file
from companion.games.chariot_race.schema import DataError, check_chariot_board, check_dice

STANDARD = "standard"
ALTERNATIVES = ("green", "red", "blue", "yellow", "purple", "black")
"""CR-4: the six alternative chariots (black pillars), one placeholder file each: ``chariot-alt-<colour>.json``."""


@dataclass(frozen=True)
class ChariotBoard:
    """One chariot board: track maxima and start values, dice per start speed (CR-3), speed cap per damage (CR-4)."""

    name: str
    max_damage: int
    max_speed: int
    max_fortune: int
    start_damage: int
    start_speed: int
    start_fortune: int
    dice_by_speed: tuple[int, ...]
    speed_cap: tuple[int, ...]
    placeholder: bool

    def dice_for(self, speed: int) -> int:
        """CR-3: how many dice a chariot rolls at this start speed."""
        return self.dice_by_speed[speed]

    def cap_for(self, damage: int) -> int:
        """CR-12/CR-4: the highest start speed allowed at this damage value."""
        return self.speed_cap[damage]


def chariot_board_from_data(data: Any, source: str) -> ChariotBoard:
    check_chariot_board(data, source)
    return ChariotBoard(
        name=data["name"],
        max_damage=data["damage"]["max"],
        max_speed=data["speed"]["max"],
        max_fortune=data["fortune"]["max"],
        start_damage=data["damage"]["start"],
        start_speed=data["speed"]["start"],
        start_fortune=data["fortune"]["start"],
        dice_by_speed=tuple(data["dice_by_speed"]),
        speed_cap=tuple(data["speed_cap"]),
        placeholder=bool(data.get("placeholder", False)),
    )


def chariot_file(name: str) -> str:
    return "chariot-standard.json" if name == STANDARD else f"chariot-{name}.json"


@cache
def load_chariot_board(name: str) -> ChariotBoard:
    """``"standard"`` or ``"alt-<colour>"`` (CR-4)."""
    known = [STANDARD] + [f"alt-{c}" for c in ALTERNATIVES]
    if name not in known:
        raise DataError("setup", "chariot board", f"unknown chariot board {name!r}; known: {', '.join(known)}")
    return chariot_board_from_data(read_data_file(chariot_file(name)), chariot_file(name))


@dataclass(frozen=True)
class Dice:
    count: int
    faces: tuple[str, ...]


@cache
def load_dice() -> Dice:
    """CR-1: the die faces (``dice.json``)."""
    data = read_data_file("dice.json")
    check_dice(data, "dice.json")
    return Dice(count=data["count"], faces=tuple(data["faces"]))
