"""Cubitos' luck (``Game.luck``): each push in danger against the bust chance the push showed (``rules.push_odds``,
CU-31, CU-34): a push that busts counts one bust, against the chance the player saw when they chose to push."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Luck
from companion.games.cubitos.rules import push_odds
from companion.games.cubitos.state import State


def luck(before: State, action: Mapping[str, Any], after: State) -> list[Luck]:
    """A roll of the roll phase with a chance to bust (in danger); a roll that cannot bust tells no luck."""
    if before.phase != "roll" or action.get("type") != "roll":
        return []
    p = before.current
    chance = push_odds(before, p)["bust"]
    if not chance:
        return []
    now = after.players[p]
    busted = now.busting or (now.busted and not before.players[p].busted)
    return [Luck(before.table.colours[p], "busts", chance, 1.0 if busted else 0.0)]
