"""Changes to the seats during a game: a player renamed, a seat handed to a bot and taken back.

Every game seats its players from its set-up's ``options["players"]`` (``games.base.read_seats``: name, colour, bot),
and the rules keep a seat's name and kind only to show them and to tell the bots which seats are theirs. So a seat
change is one generic event in the game's log (type :data:`SEAT`, ``{"seat": n, "name": ..., "bot": ...}``), not an
action of the rules: replay applies the changes to the set-up's players and plays the game's actions from there, so
the state after a replay is the state the table had, for every game alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import BOT_KEY

SEAT = "seat"
"""The type of a seat change's event (no game has an action of that type: the rules never see it)."""


def players_of(options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The set-up's ``players`` entries as objects (a bare name stands for ``{"name": name}``)."""
    players = options.get("players")
    if not isinstance(players, list):
        return []
    return [{"name": p} if isinstance(p, str) else dict(p) if isinstance(p, Mapping) else {} for p in players]


def seat_names(options: Mapping[str, Any]) -> list[str]:
    """The players' names in seat order, stripped."""
    names = (p.get("name") for p in players_of(options))
    return [name.strip() for name in names if isinstance(name, str) and name.strip()]


def changed(options: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with one seat change applied (``change``: a :data:`SEAT` event's payload)."""
    players = players_of(options)
    seat = change.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(players):
        if "name" in change:
            players[seat]["name"] = change["name"]
        if BOT_KEY in change:
            players[seat][BOT_KEY] = change[BOT_KEY]
    return {**options, "players": players}


def seated(options: Mapping[str, Any], events: Iterable[Any]) -> dict[str, Any]:
    """``options`` with every seat change among ``events`` (StoredEvents, oldest first) applied in order."""
    result = dict(options)
    for event in events:
        if event.type == SEAT:
            result = changed(result, event.payload)
    return result
