"""Helpers that let Automobiles tests read as the spec's positions: cars on segments, cubes in zones, a card per
colour, then the player's actions and what the table looks like after them.

Players are the letters of RULES.md (A, B, C, ...), seated in that order with A as the start player; their cars are
``CARS`` (the actor ids of the rules).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.automobiles import GAME
from companion.games.automobiles.kit import load_kit
from companion.games.automobiles.state import COLOURS, Player, State, Turn, as_dict, as_list, cubes, minus
from companion.games.base import Event

CARS = ("red", "blue", "yellow", "green", "white")
LETTERS = "ABCDE"
SHORT = {"W": "white", "LG": "light_grey", "DG": "dark_grey", "BK": "black", "YE": "yellow", "RE": "red",
         "PU": "purple", "BL": "blue", "GR": "green", "BR": "brown"}
"""The spec's notation: ``{"W": 2, "BR": 1}``."""
BASE = {"yellow": "base_yellow_1", "red": "base_red_1", "purple": "base_purple_2", "blue": "base_blue_4",
        "green": "base_green_1"}
"""Cards in play unless a test names others; no test relies on them."""


def zone(spec: dict[str, int] | None) -> tuple[int, ...]:
    return cubes({SHORT.get(k, k): n for k, n in (spec or {}).items()})


def car(letter: str) -> str:
    return CARS[LETTERS.index(letter)]


def table(cars: dict[str, str], *, cards: dict[str, str] | None = None, track: str = "reference_oval",
          active: dict[str, dict[str, int]] | None = None, bag: dict[str, dict[str, int]] | None = None,
          discard: dict[str, dict[str, int]] | None = None, used: dict[str, dict[str, int]] | None = None,
          markers: dict[str, str] | None = None, crossings: dict[str, int] | None = None,
          drivers: dict[str, str] | None = None, stock: dict[str, int] | None = None,
          prices: dict[str, tuple[int, int]] | None = None, current: str = "A",
          protected: tuple[str, ...] | None = None, **options: Any) -> State:
    """A table in ``current``'s action phase. Cubes come out of the stock, so the box is whole unless ``stock``
    sets a colour's count; ``prices`` sets a colour's (cost, value) so a test never relies on the placeholders."""
    n = len(cars)
    setup = {"players": [{"name": letter, "colour": car(letter)} for letter in LETTERS[:n]], "start": 0,
             "cards": {**BASE, **(cards or {})}, "track": track, **options}
    state = GAME.setup(setup, random.Random(0))
    players = []
    box = cubes({c.id: c.count for c in load_kit().cubes.values()})
    start = state.table.lap_start
    for letter in LETTERS[:n]:
        marker = load_kit().lap_track.index(markers[letter]) if markers and letter in markers else start
        player = Player(segment=cars[letter], bag=zone((bag or {}).get(letter)),
                        active=zone((active or {}).get(letter)), used=zone((used or {}).get(letter)),
                        discard=zone((discard or {}).get(letter)), marker=marker,
                        crossings=(crossings or {}).get(letter, marker - start),
                        driver=(drivers or {}).get(letter))
        box = minus(box, player.owned())
        players.append(player)
    for short, count in (stock or {}).items():
        i = COLOURS.index(SHORT.get(short, short))
        box = box[:i] + (count,) + box[i + 1:]
    tbl = state.table
    if prices:
        cards_now = dict(tbl.cards)
        for colour, (cost, value) in prices.items():
            colour = SHORT.get(colour, colour)
            cards_now[colour] = replace(cards_now[colour], cost=cost, value=value)
        tbl = tbl._replace(cards=cards_now)
    p = LETTERS.index(current)
    return state._replace(table=tbl, players=tuple(players), stock=box, phase="action", current=p, actor=p,
                   turn=Turn(), stage=None, revealed=(),
                   protected=state.protected if protected is None else protected)


def act(state: State, *actions: dict[str, Any]) -> tuple[State, list[Event]]:
    """Apply ``actions`` in turn; the events of all of them. A "To the buy phase" or "Done" that the table played by
    itself just before (it was the only option: a ``by_itself`` event) is passed over, as no player taps it."""
    events: list[Event] = []
    more: list[Event] = []
    for action in actions:
        if played_by_itself(more, action):
            continue
        state, more = GAME.apply(state, action)
        events += more
    return state, events


def played_by_itself(events: list[Event], action: dict[str, Any]) -> bool:
    """``action`` is a bare choice that ``events`` say the table made by itself (``Phase.alone``)."""
    return set(action) == {"type"} and any(e["type"] == "by_itself" and e["action"] == action["type"] for e in events)


def options(state: State) -> list[dict[str, Any]]:
    return GAME.prompt(state).options


def landings(state: State) -> set[str]:
    """Where the step the table waits for may land."""
    return {o["to"] for o in options(state) if o["type"] == "step"}


def events_of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def zones(state: State, letter: str) -> dict[str, dict[str, int]]:
    player = state.players[LETTERS.index(letter)]
    return {"bag": as_dict(player.bag), "active": as_dict(player.active), "used": as_dict(player.used),
            "discard": as_dict(player.discard)}


def player(state: State, letter: str) -> Player:
    return state.players[LETTERS.index(letter)]


def end_turn(state: State, *last: dict[str, Any], draw: list[str] | None = None) -> tuple[State, list[Event]]:
    """The ``last`` actions of the action phase (their events count: the turn may go on by itself after them), then
    no buy, the movement and wear phases (declining bonus fields), and the end-phase
    draw (``draw``: the colours drawn, or whatever the bag shows first)."""
    me = state.current
    state, events = act(state, *last)
    for phase, kind in (("action", "to_buy"), ("buy", "done")):
        if state.phase == phase and state.current == me:  # else the table played it by itself (``Phase.alone``)
            state, more = act(state, {"type": kind})
            events += more
    while state.phase in ("movement", "wear", "end") and state.actor == me and state.current == me:
        opts = options(state)
        if opts and opts[0]["type"] == "draw":
            action = {"type": "draw", "dice": draw if draw is not None else first(state, opts[0]["roll"])}
        elif {"type": "stop"} in opts:
            action = {"type": "stop"}
        else:
            break
        state, more = act(state, action)
        events += more
    return state, events


def first(state: State, k: int) -> list[str]:
    """``k`` colours the actor's bag can show: the whole bag, then the discard it is refilled from (AU-50)."""
    drawer = state.players[state.actor]
    bag, discard = as_list(drawer.bag), as_list(drawer.discard)
    return bag[:k] if len(bag) >= k else bag + discard[:k - len(bag)]
