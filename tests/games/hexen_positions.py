"""Helpers that let Hexen Rennen tests read as positions: witches on spaces, revealed tiles, cards in hand."""

from __future__ import annotations

import random
from typing import Any

from companion.games.hexenrennen import GAME
from companion.games.hexenrennen.kit import MAGIC
from companion.games.hexenrennen.state import State, Tile, parse_tile, witch_id

FOUR = ["blue", "yellow", "green", "orange"]


def table(witches: dict[str, int] | None = None, tiles: dict[int, str] | None = None,
          players: list[str] | None = None, turn: str | None = None, hands: dict[str, list[Any]] | None = None,
          piles: Any = "hidden", layout: Any = "hidden") -> State:
    """A position at the start of ``turn``'s turn (default: the first player).

    ``witches`` maps witch ids (``"blue-1"``) to spaces (others stay at the start, 0); ``tiles`` maps spaces to
    revealed tiles (``"blue-10"``, ``"yellow-magic"``); ``hands`` replaces players' cards (numbers and
    ``"magic"``).
    """
    clans = players or FOUR
    options = {"players": [{"name": c.title(), "colour": c} for c in clans], "tiles": layout, "piles": piles}
    state = GAME.setup(options, random.Random(0))
    ids = {witch_id(state, k): k for k in range(len(state.witches))}
    spaces = list(state.witches)
    for wid, space in (witches or {}).items():
        spaces[ids[wid]] = space
    track = list(state.track)
    for space, text in (tiles or {}).items():
        tile = parse_tile(text, state.kit)
        assert tile is not None, text
        track[space] = tile
    cards = list(state.hands)
    for clan, hand in (hands or {}).items():
        cards[clans.index(clan)] = tuple(sorted(MAGIC if c == "magic" else c for c in hand))
    return state._replace(witches=tuple(spaces), track=tuple(track), hands=tuple(cards),
                          turn=clans.index(turn) if turn else 0)


def play(state: State, *actions: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for action in actions:
        state, more = GAME.apply(state, action)
        events.extend(more)
    return state, events


def roll(n: int) -> dict[str, Any]:
    return {"type": "roll", "dice": [str(n)]}


def move(wid: str) -> dict[str, Any]:
    return {"type": "move", "witch": wid}


def reveal(text: str) -> dict[str, Any]:
    clan, _, value = text.rpartition("-")
    return {"type": "reveal", "clan": clan, "value": value if value == "magic" else int(value)}


def card(value: int | str) -> dict[str, Any]:
    return {"type": "play", "card": value}


def draw(value: int | str) -> dict[str, Any]:
    return {"type": "draw", "card": value}


STAY = {"type": "stay"}


def at(state: State, wid: str) -> int:
    """The space of a witch."""
    return next(w["space"] for w in GAME.view(state)["witches"] if w["id"] == wid)


def tile(state: State, space: int) -> str | None:
    found = state.track[space]
    return None if found is None else str(found)


def prompt(state: State) -> tuple[str | None, str, list[dict[str, Any]]]:
    p = GAME.prompt(state)
    return p.actor, p.phase, p.options


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def cards_of(state: State, clan: str) -> list[Any]:
    return next(p["cards"] for p in GAME.view(state)["players"] if p["clan"] == clan)


__all__ = ["FOUR", "STAY", "Tile", "at", "card", "cards_of", "draw", "move", "of_type", "play", "prompt", "reveal",
           "roll", "table", "tile"]
