"""Automobiles' luck (``Game.luck``): the wear cubes a confirmed draw brought against what the bag's odds gave
(``present.draw_odds``, the chances the draw's prompt shows, AU-50): their sum over "at least k" is the mean."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.automobiles.present import draw_odds
from companion.games.automobiles.state import WEAR, State, as_dict
from companion.games.base import Luck


def luck(before: State, action: Mapping[str, Any], after: State) -> list[Luck]:
    """A draw of ``n`` cubes from the bag of the player who draws (the table's actor)."""
    drawn = action.get("dice")
    if not isinstance(drawn, list) or not drawn:
        return []
    drawer = before.players[before.actor]
    odds = draw_odds(as_dict(drawer.bag), len(drawn), as_dict(drawer.discard))
    return [Luck(before.table.colours[before.actor], "wear", sum(odds["wear"]), float(drawn.count(WEAR)))]
