"""How Hexen Rennen looks on a screen, from its own data: the box's contents the track and the turn panel draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.hexenrennen.kit import load_kit

DEMO_OPTIONS: dict[str, Any] = {
    "players": [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "orange"},
                {"name": "Ben", "colour": "blue"}, {"name": "Anna", "colour": "yellow"}],
    "tiles": "shuffled", "piles": "shuffled"}
"""The set-up ``companion demo`` plays: the face-down tiles get a seeded "truth", since bots cannot look at a real
table to reveal them."""


def layout(view: Mapping[str, Any]) -> dict[str, Any]:
    """What never changes during this game (``/api/layout``): clans, tile and card numbers, stages, finish fields."""
    kit = load_kit()
    return {"kit": {"clans": list(kit.clans), "witches_per_clan": kit.witches_per_clan,
                    "tile_numbers": list(kit.tile_numbers), "card_numbers": list(kit.card_numbers),
                    "card_magic": kit.card_magic, "stages": kit.stages, "stage_length": kit.stage_length,
                    "finish_points": list(kit.finish_points)}}
