"""The games the companion knows, by id. Modules load on first use so a table pays only for its own game."""

from __future__ import annotations

import importlib

from companion.games.base import Game, IllegalAction, Prompt

__all__ = ["Game", "IllegalAction", "Prompt", "GAMES", "get_game"]

GAMES: dict[str, str] = {
    "chariot-race": "companion.games.chariot_race",
    "dice-race": "companion.games.dice_race",
    "hexenrennen": "companion.games.hexenrennen",
}
"""Game id -> module exposing ``GAME``. Config files and the store refer to games by these ids."""


def get_game(game_id: str) -> Game:
    try:
        module = GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None
    return importlib.import_module(module).GAME
