"""Helpers that let Chariot Race tests read as positions: chariots on spaces, a turn, the expected outcome."""

from __future__ import annotations

import copy
from typing import Any

from companion.games.chariot_race import GAME
from companion.games.chariot_race.board import read_data_file
from companion.games.chariot_race.rules import start_turn
from companion.games.chariot_race.scenario import state_from_position
from companion.games.chariot_race.state import State

SIX = {"players": [{"name": n, "colour": c} for n, c in
                   [("Julia", "green"), ("Heidi", "red"), ("Ben", "blue"), ("Klaus", "yellow"), ("Ada", "black"),
                    ("Bo", "white")]]}


def car(cid: str, space: str, damage: int = 12, speed: int = 4, fortune: int = 0, **more: Any) -> dict[str, Any]:
    """A chariot of a Position; fortune 0 by default so that no repair or fortune phase asks anything."""
    return {"id": cid, "space": space, "damage": damage, "speed": speed, "fortune": fortune, **more}


def position(*chariots: dict[str, Any], board: Any = "A", caltrops: list[str] | None = None,
             order: list[str] | None = None, variants: dict[str, Any] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"board": board, "chariots": list(chariots), "caltrops": caltrops or []}
    if order is not None:
        result["order"] = order
    if variants is not None:
        result["variants"] = variants
    return result


def begin(pos: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """The state at the start of ``order[0]``'s turn, with the events of that start (speed cap ...)."""
    events: list[dict[str, Any]] = []
    return start_turn(state_from_position(pos), events), events


def play(state: State, *actions: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for action in actions:
        state, more = GAME.apply(state, action)
        events.extend(more)
    return state, events


def roll(*faces: str) -> dict[str, Any]:
    return {"type": "roll", "dice": list(faces)}


DONE = {"type": "done"}


def keep(*faces: str) -> list[dict[str, Any]]:
    """Roll ``faces`` and keep them all (no free reroll)."""
    return [roll(*faces), DONE]


def chariot(state: State, cid: str) -> dict[str, Any]:
    """One chariot as the dashboard sees it."""
    return next(c for c in GAME.view(state)["chariots"] if c["id"] == cid)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def board_a_with(**changes: dict[str, Any]) -> dict[str, Any]:
    """Board A data with some spaces changed, e.g. ``board_a_with(**{"L1-13": {"max_speed": 5}})``;
    a value of None removes the key."""
    data = copy.deepcopy(read_data_file("board-A.json"))
    for space in data["spaces"]:
        for key, value in changes.get(space["id"], {}).items():
            if value is None:
                space.pop(key, None)
            else:
                space[key] = value
    return data
