"""Set-up (AU-8..AU-15): seats, cards, the grid and the bags; then the drivers (AU-99), the opening buy (AU-13) and
the opening draw (AU-14)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.automobiles.kit import Kit, load_kit
from companion.games.automobiles.stages import draw
from companion.games.automobiles.state import (
    ACTION_COLOURS,
    EMPTY,
    Card,
    Player,
    State,
    Table,
    Turn,
    available,
    buy,
    buys,
    cubes,
    plus,
    seat,
)
from companion.games.base import Action, Event, IllegalAction, read_seats
from companion.games.datafile import read_data

CAR_COLOURS = ("red", "blue", "yellow", "green", "white")
"""AU-6: five cars; their colours are not in the seed, so they are a setting (the actors' ids)."""
PLAYERS = range(2, 6)
"""AU-8: 2 to 5 players."""
CARD_POOLS = ("base", "racing_season", "both")
"""AU-121: ``card_pool``, default ``"base"``."""
WEAR_CUBE_ACTIVATION = "to_discard"
"""AU-62 **Decision**: by default an activated brown cube goes straight to the discard (``"none"``: brown cannot
be activated); the ``wear_activation`` option sets it for a race."""
DRIVERS_IN_SINGLE_RACE = False
"""AU-99 **Decision**: no drivers in a single race unless the ``drivers`` option asks (a season always has them)."""
DRIVER_POOL = "limited"
"""AU-99 **Decision**: n+1 drivers are revealed to choose from (``"all"``: every driver)."""
SEASON_RACES = (3, 5)
"""AU-111 **Decision**: a season is 3 to 5 races (the points table's columns)."""
NEXT_RACE_DRAW = 7
"""AU-116 **Decision**: before a season's next race every cube goes into the bag and each player draws 7."""


def _flag(options: Mapping[str, Any], key: str, rule: str, default: bool = False) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise IllegalAction(rule, f"{key} must be true or false, got {value!r}")
    return value


def _cards(kit: Kit, options: Mapping[str, Any], rng: random.Random) -> dict[str, Card]:
    """AU-9, AU-121: the gear and wear cards, and one action card per colour (chosen, or drawn from the pool)."""
    pool = options.get("card_pool", "base")
    if pool not in CARD_POOLS:
        raise IllegalAction("AU-121", f"card_pool must be one of {', '.join(CARD_POOLS)}, got {pool!r}",
                            legal=list(CARD_POOLS))
    chosen = options.get("cards") or {}
    if not isinstance(chosen, Mapping):
        raise IllegalAction("AU-9", f"cards must be {{colour: card id}}, got {chosen!r}")
    cards = {card.colour: card for card in kit.fixed_cards.values()}
    chosen = {**_suggested_set(kit, options.get("card_set")), **chosen}
    for colour in ACTION_COLOURS:
        if colour in chosen:
            card = kit.action_cards.get(chosen[colour])
            if card is None or card.colour != colour:
                raise IllegalAction("AU-9", f"cards.{colour}: expected a {colour} action card, got {chosen[colour]!r}",
                                    legal=sorted(c.id for c in kit.action_cards.values() if c.colour == colour))
            cards[colour] = card
        else:
            ids = sorted(c.id for c in kit.action_cards.values()
                         if c.colour == colour and (pool == "both" or c.source == pool))
            cards[colour] = kit.action_cards[rng.choice(ids)]
    if unknown := set(chosen) - set(ACTION_COLOURS):
        raise IllegalAction("AU-9", f"cards: no action colour {sorted(unknown)}", legal=list(ACTION_COLOURS))
    return cards


def _suggested_set(kit: Kit, set_id: Any) -> dict[str, str]:
    """AU-9, AU-98: a suggested set's cards, found by their names in cards.json (``name_de``; names are display
    only, a table overrides them there). A name no card carries yet leaves its colour to ``cards`` or the pool;
    a set whose list is not in the seed cannot be chosen."""
    if set_id is None:
        return {}
    sets = {s["id"]: s for s in read_data(__package__, "cards.json")["suggested_sets"]}
    if set_id not in sets or not sets[set_id].get("names_de"):
        raise IllegalAction("AU-98", f"card_set must be a suggested set with its card list, got {set_id!r}",
                            legal=sorted(k for k, s in sets.items() if s.get("names_de")))
    by_name = {card.name_de: card for card in kit.action_cards.values() if card.name_de}
    return {by_name[n].colour: by_name[n].id for n in sets[set_id]["names_de"] if n in by_name}


def table(options: Mapping[str, Any], rng: random.Random) -> State:
    """AU-8..AU-15: seats, the start player, cars on the grid, 12 cubes per bag; the first phase is the drivers'
    choice (AU-99) or the opening buy (AU-13)."""
    kit = load_kit()
    seats = read_seats(options, CAR_COLOURS, PLAYERS, "AU-8")
    season = options.get("season") or []
    if season and (not isinstance(season, list) or not SEASON_RACES[0] <= len(season) <= SEASON_RACES[1]):
        raise IllegalAction("AU-111", f"a season is {SEASON_RACES[0]}-{SEASON_RACES[1]} tracks, got {season!r}")
    track_id = season[0] if season else options.get("track", "reference_oval")
    for t in season or [track_id]:
        if t not in kit.tracks:
            raise IllegalAction("AU-4", f"no laid-out track {t!r}", legal=sorted(kit.tracks))
    for t in dict.fromkeys(season or [track_id]):  # every race of a season needs a start position per car
        if len(kit.tracks[t].start_positions) < len(seats):
            raise IllegalAction("AU-15", f"{t} has {len(kit.tracks[t].start_positions)} start positions, "
                                f"not one for each of {len(seats)} cars")
    track = kit.tracks[track_id]
    laps = options.get("laps", kit.lap_start)
    numbered = [f for f in kit.lap_track if f.isdigit()]
    if laps not in numbered:
        raise IllegalAction("AU-8", f"laps must be a numbered lap field, got {laps!r}", legal=numbered)
    start = options.get("start")
    if start is None:
        start = rng.randrange(len(seats))
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(seats):
        raise IllegalAction("AU-10", f"start must be a seat 0..{len(seats) - 1}, got {start!r}")
    order = tuple((start + k) % len(seats) for k in range(len(seats)))
    wear_activation = options.get("wear_activation", WEAR_CUBE_ACTIVATION)
    if wear_activation not in ("to_discard", "none"):
        raise IllegalAction("AU-62", f"wear_activation must be 'to_discard' or 'none', got {wear_activation!r}")
    drivers = bool(season) or _flag(options, "drivers", "AU-99", DRIVERS_IN_SINGLE_RACE)
    table = Table(kit=kit, track=track, cards=_cards(kit, options, rng), colours=tuple(s.colour for s in seats),
                  names=tuple(s.name for s in seats), bots=tuple(s.bot for s in seats), order=order,
                  lap_start=list(kit.lap_track).index(laps), weaving=_flag(options, "weaving", "AU-118"),
                  accelerated=_flag(options, "accelerated", "AU-119"), open_bags=_flag(options, "open_bags", "AU-120"),
                  wear_activation=wear_activation, drivers=drivers, season=tuple(season))
    start_bag = cubes({c.id: c.starting_bag for c in kit.cubes.values()})
    stock = cubes({c.id: c.count - len(seats) * c.starting_bag for c in kit.cubes.values()})
    grid = {p: track.start_positions[k][1] for k, p in enumerate(order)}
    state = State(table=table, players=tuple(Player(segment=grid[p], bag=start_bag, marker=table.lap_start)
                                             for p in range(len(seats))),
                  stock=stock, phase="opening_buy", current=order[0], actor=order[0],
                  protected=tuple(s for s in track.protected_start if s in grid.values()))
    if season:  # AU-112: the sponsors face down, as many revealed as there are players
        deck = sorted(s["id"] for s in kit.sponsors)
        rng.shuffle(deck)
        state = state._replace(offered=tuple(deck[:len(seats)]), deck=tuple(deck[len(seats):]))
    if drivers:
        pool = sorted(d["id"] for d in kit.drivers)
        revealed = pool if options.get("driver_pool", DRIVER_POOL) == "all" else rng.sample(pool, len(seats) + 1)
        return state._replace(phase="driver", actor=order[-1], revealed=tuple(sorted(revealed)))
    return state


def driver_options(state: State) -> list[Action]:
    return [{"type": "driver", "driver": d} for d in state.revealed]


def on_driver(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-99: the last player in turn order chooses first, then the others in reverse order."""
    p, driver = state.actor, action["driver"]
    state = state.with_player(p, driver=driver)
    events.append({"type": "driver_chosen", "player": seat(state, p), "driver": driver})
    order = state.table.order
    k = order.index(p)
    if k > 0:
        return state._replace(revealed=tuple(d for d in state.revealed if d != driver), actor=order[k - 1])
    return state._replace(revealed=(), actor=order[0], current=order[0])


def opening_buy_options(state: State) -> list[Action]:
    """AU-13 (**Decision**: buying nothing is allowed): cubes from the stock for the start position's money."""
    return [{"type": "done"}, *buys(state, start_money(state, state.actor) - state.turn.spent)]


def start_money(state: State, p: int) -> int:
    return state.table.track.start_positions[state.table.order.index(p)][2]


def on_opening_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.actor
    if action["type"] == "buy":
        state, price = buy(state, p, action["colour"], "aside", events)
        return state.with_turn(spent=state.turn.spent + price)
    events.append({"type": "opening_buy_done", "player": seat(state, p),
                   "lost": start_money(state, p) - state.turn.spent})
    order = state.table.order
    k = order.index(p)
    if k + 1 < len(order):
        return state._replace(actor=order[k + 1], current=order[k + 1], turn=Turn())
    for q in order:  # AU-13: only now the bought cubes go into the bags
        player = state.players[q]
        state = state.with_player(q, bag=plus(player.bag, player.aside), aside=EMPTY)
    return opening_draw(state, order[0])


def opening_draw(state: State, p: int) -> State:
    """AU-14, AU-116: each player draws 7 into the active area (``NEXT_RACE_DRAW`` in a season's later races)."""
    n = min(NEXT_RACE_DRAW if state.race > 1 else state.table.kit.draw_per_turn, available(state.players[p]))
    return state._replace(current=p, actor=p, turn=Turn(), stage=draw(p, "opening_drawn", sizes=(n,)))


def opening_drawn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    order = state.table.order
    k = order.index(state.current)
    if k + 1 < len(order):
        return opening_draw(state, order[k + 1])
    return state._replace(current=order[0], stage=None)
