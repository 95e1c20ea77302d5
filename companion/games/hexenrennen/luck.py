"""Hexen Rennen's luck (``Game.luck``): the pips of each confirmed roll against a fair d6's mean (HR-5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Luck, pip_luck
from companion.games.hexenrennen.state import FACES, State


def luck(before: State, action: Mapping[str, Any], after: State) -> list[Luck]:
    """The roll is the player on turn's."""
    return pip_luck(before.current, action.get("dice"), FACES)


def player_of(state: State, seat: str) -> str:
    """A clan's player."""
    return state.names[state.clans.index(seat)] if seat in state.clans else seat
