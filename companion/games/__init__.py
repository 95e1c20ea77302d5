"""The games the companion knows, by id. Modules load on first use so a table pays only for its own game."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from companion.games.base import Game, Heuristic, IllegalAction, Prompt

__all__ = ["Game", "Heuristic", "IllegalAction", "Prompt", "DEFAULT_GAME", "GAMES", "browser_module", "get_game",
           "get_heuristic", "get_presentation"]

GAMES: dict[str, str] = {
    "automobiles": "companion.games.automobiles",
    "chariot-race": "companion.games.chariot_race",
    "cubitos": "companion.games.cubitos",
    "dice-race": "companion.games.dice_race",
    "hexenrennen": "companion.games.hexenrennen",
}
"""Game id -> module exposing ``GAME``. Config files and the store refer to games by these ids."""

DEFAULT_GAME = "chariot-race"
"""The game a table plays when its config names none (and ``companion demo`` without ``--game``)."""


def get_game(game_id: str) -> Game:
    try:
        module = GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None
    return importlib.import_module(module).GAME


def get_heuristic(game_id: str) -> Heuristic:
    """What the game's bots know (``<package>.bot``, see :class:`~companion.games.base.Heuristic`): kept beside the
    rules, and loaded only when a bot plays."""
    get_game(game_id)
    return importlib.import_module(f"{GAMES[game_id]}.bot")


def browser_module(game_id: str, kind: str = "js") -> Path | None:
    """The game's browser module, ``<package>/static/<package>.js`` (it registers itself with the table page), or
    its stylesheet (``kind="css"``); None for a game without one: the table page then shows its view as a table."""
    get_game(game_id)
    if kind not in ("js", "css"):
        raise ValueError(f"kind must be js or css, not {kind!r}")
    package = GAMES[game_id].rsplit(".", 1)[-1]
    path = Path(__file__).parent / package / "static" / f"{package}.{kind}"
    return path if path.is_file() else None


def get_presentation(game_id: str) -> Any:
    """The game's pure presentation module (``<package>.present``, see :class:`~companion.games.base.Presentation`),
    or None for a game that has none: the screens then show its view as a table."""
    get_game(game_id)  # an unknown id is a KeyError naming the known ones
    try:
        return importlib.import_module(f"{GAMES[game_id]}.present")
    except ModuleNotFoundError as exc:
        if exc.name != f"{GAMES[game_id]}.present":
            raise
        return None
