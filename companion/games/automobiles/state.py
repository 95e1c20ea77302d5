"""The Automobiles table as immutable values: whose cubes are where, the cars on the track, the turn in progress;
and the cubes' ways between the zones, the stock and the bag: draws (AU-50..AU-52), gains (AU-22..AU-24), money
(AU-35, AU-36).

A player's zones (bag, active, used, discard) are multisets of cube colours, stored as one count per colour in
``COLOURS`` order, so moving a cube is a tuple copy and "no cube is lost" is a sum (AU-1, AU-2). Cubes on the track
and on the wear table are counted in the used area (AU-25); ``Turn.placed`` only says where the track cubes rest.
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

from companion.games.automobiles.kit import Card, Kit, Track
from companion.games.base import Action, Event, IllegalAction

COLOURS = ("white", "light_grey", "dark_grey", "black", "yellow", "red", "purple", "blue", "green", "brown")
"""AU-1: the cube colours, in the order a zone counts them (gears low to high, the action colours, wear)."""
IDX = {c: i for i, c in enumerate(COLOURS)}
GEARS = COLOURS[:4]
"""The gear colours, low to high (glossary: white < light grey < dark grey < black)."""
ACTION_COLOURS = ("yellow", "red", "purple", "blue", "green")
WEAR = "brown"
EMPTY = (0,) * len(COLOURS)

Cubes = tuple[int, ...]


def cubes(counts: dict[str, int]) -> Cubes:
    """A zone from ``{colour: n}``."""
    return tuple(counts.get(c, 0) for c in COLOURS)


def add(zone: Cubes, colour: str, n: int = 1) -> Cubes:
    counts = list(zone)
    counts[IDX[colour]] += n
    return tuple(counts)


def plus(a: Cubes, b: Cubes) -> Cubes:
    return tuple(map(operator.add, a, b))


def minus(a: Cubes, b: Cubes) -> Cubes:
    return tuple(map(operator.sub, a, b))


def within(part: Cubes, whole: Cubes) -> bool:
    return all(map(operator.le, part, whole))


def count(zone: Cubes, colour: str) -> int:
    return zone[IDX[colour]]


def as_dict(zone: Cubes) -> dict[str, int]:
    """A zone as JSON: only the colours it holds."""
    return {c: n for c, n in zip(COLOURS, zone, strict=True) if n}


def as_list(zone: Cubes) -> list[str]:
    """A zone as colours, each as often as the zone holds it (a bot's draw samples the bag from this list)."""
    return [colour for colour, n in zip(COLOURS, zone, strict=True) for _ in range(n)]


def kinds(zone: Cubes) -> int:
    """How many different colours a zone holds (AU-77, AU-91: brown counts)."""
    return sum(1 for n in zone if n)


def lower(colour: str) -> str | None:
    """AU-68 **Decision**: the next lower gear colour; none below white, so a white cube is not eligible."""
    i = GEARS.index(colour)
    return GEARS[i - 1] if i else None


class Player(NamedTuple):
    segment: str
    bag: Cubes = EMPTY
    active: Cubes = EMPTY
    used: Cubes = EMPTY
    discard: Cubes = EMPTY
    aside: Cubes = EMPTY
    """Cubes between zones: the opening buy before it goes into the bag (AU-13), driver_04's draw until sorted."""
    crossings: int = 0
    """How often the car crossed the finish line (AU-19)."""
    marker: int = 0
    """Index of the lap marker on the kit's lap track."""
    driver: str | None = None
    sponsor: str | None = None
    """The sponsor kept from an earlier race of the season (AU-113)."""
    deferred_draws: int = 0
    """AU-119: Boost draws owed at the start of this player's next turn."""
    deferred_moves: int = 0
    """AU-119: rs_blue_1 car fields owed at the start of this player's next turn."""
    points: int = 0
    """Season points so far (AU-115)."""

    def owned(self) -> Cubes:
        return tuple(map(sum, zip(self.bag, self.active, self.used, self.discard, self.aside, strict=True)))


class Placed(NamedTuple):
    """A cube resting on the track this turn (AU-26): its colour, segment and how often its path crossed the line
    (absolute, like the car's), so the furthest cube is the greatest ``crossings × lap + front`` (AU-38)."""

    colour: str
    segment: str
    crossings: int


class Stage(NamedTuple):
    """One small decision inside a rule that takes several (an effect, a phase step): what the table waits for.

    ``kind`` is ``pick`` (move cubes one at a time between zones), ``move`` (a cube or the car steps field by
    field), ``draw`` (cubes from the bag: one at a time, or ``sizes`` at once), ``keep`` (which drawn cube stays
    active, AU-81), ``sort`` (driver_04), ``buy`` (cubes for a budget, AU-74, AU-114), ``choose`` (the car's
    destination on a tie, AU-38) or ``boost`` (another player's draw, AU-79). ``then`` names the phase of
    ``rules.PHASES`` that follows once the stage is ``closed``; ``step`` is the place in a card's effect.
    """

    kind: str
    then: str
    who: int
    step: int = 0
    card: str = ""
    lo: int = 0
    hi: int = 0
    done: int = 0
    src: tuple[str, ...] = ()
    dst: str = ""
    only: tuple[str, ...] | None = None
    wear_each: int = 0
    picked: Cubes = EMPTY
    sizes: tuple[int, ...] = ()
    until_non_wear: bool = False
    mover: str = "cube"
    colour: str = ""
    colours: tuple[str, ...] = ()
    same_colour: bool = False
    at: str | None = None
    crossings: int = 0
    fields: tuple[str, ...] = ()
    counts_wear: bool = True
    choices: tuple[str, ...] = ()
    budget: int = 0
    closed: bool = False


class Turn(NamedTuple):
    """What the active player's turn has done so far (AU-17..AU-48); it starts empty every turn."""

    committed: bool = False
    placed: tuple[Placed, ...] = ()
    entered: frozenset[str] = frozenset()
    """Fields entered by the player's cubes and (in the movement phase) car this turn: AU-31 and AU-42."""
    car_moved: bool = False
    no_wear: bool = False
    red_line: bool = False
    double_gears: bool = False
    adrenaline: int = 0
    advance: int = 0
    """rs_blue_1 cubes activated this turn (AU-95)."""
    drivers_used: frozenset[str] = frozenset()
    spent: int = 0
    wear_gained: int = -1
    """Wear gained in the wear phase (-1: no wear phase this turn, e.g. a pit stop)."""
    start_rank: int = 0
    queue: tuple[int, ...] = ()
    """Players still owed something: Boost draws (AU-79), rs_blue_1 moves (AU-95), a sponsor (AU-113)."""
    pit_stop: bool = False


class Table(NamedTuple):
    """What a race fixes at set-up (AU-8)."""

    kit: Kit
    track: Track
    cards: dict[str, Card]
    """Cube colour -> the card in play for it (AU-3, AU-9)."""
    colours: tuple[str, ...]
    names: tuple[str, ...]
    bots: tuple[bool, ...]
    order: tuple[int, ...]
    """AU-10: seats in turn order, the start player first."""
    lap_start: int
    weaving: bool = False
    accelerated: bool = False
    open_bags: bool = False
    wear_activation: str = "to_discard"
    drivers: bool = False
    season: tuple[str, ...] = ()
    """The tracks of a season's races (AU-111); empty for a single race."""


class State(NamedTuple):
    table: Table
    players: tuple[Player, ...]
    stock: Cubes
    phase: str
    current: int
    """The seat whose turn it is."""
    actor: int
    """The seat that decides now (another player during a Boost draw or an rs_blue_1 move)."""
    round: int = 1
    race: int = 1
    turn: Turn = Turn()
    stage: Stage | None = None
    protected: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    """Drivers revealed and not chosen yet (AU-99)."""
    offered: tuple[str, ...] = ()
    """Sponsors revealed for the end of this race (AU-112, AU-116)."""
    deck: tuple[str, ...] = ()
    """The face-down sponsor pile."""
    winners: tuple[int, ...] = ()
    placings: tuple[int, ...] = ()

    def with_player(self, p: int, **changes: Any) -> State:
        return self.with_seat(p, self.players[p]._replace(**changes))

    def with_seat(self, p: int, player: Player, **changes: Any) -> State:
        """The table with ``player`` in seat ``p`` and ``changes`` of its own."""
        return self._replace(players=(*self.players[:p], player, *self.players[p + 1:]), **changes)

    def with_turn(self, **changes: Any) -> State:
        return self._replace(turn=self.turn._replace(**changes))

    def uses_driver(self, driver: str) -> State:
        return self.with_turn(drivers_used=self.turn.drivers_used | {driver})


def seat(state: State, p: int) -> str:
    return state.table.colours[p]


def driver_ready(state: State, p: int, driver: str) -> bool:
    """AU-100: ``p`` has ``driver`` and has not used it this turn."""
    return state.players[p].driver == driver and driver not in state.turn.drivers_used


def field_of(state: State, segment: str) -> str:
    """The field a segment belongs to; a protected start segment is a field of its own (AU-34)."""
    return segment if segment in state.protected else state.table.track.segments[segment].field


def field_segments(state: State, field_id: str) -> tuple[str, ...]:
    if not state.protected:
        return state.table.track.fields[field_id].segments
    if field_id in state.protected:
        return (field_id,)
    return tuple(s for s in state.table.track.fields[field_id].segments if s not in state.protected)


def field_colours(state: State, field_id: str) -> tuple[str, ...]:
    track = state.table.track
    return track.fields[track.segments[field_id].field if field_id in state.protected else field_id].colours


def entries(state: State, segment: str) -> tuple[str, ...]:
    seg = state.table.track.segments[segment]
    if segment in state.protected and seg.ahead:  # AU-34: its ahead segment is then one of its entries
        return (*seg.entries, seg.ahead)
    return seg.entries


def distance(state: State, p: int) -> float:
    """AU-19: crossings × lap length + front of the car's segment."""
    player = state.players[p]
    return state.table.track.along(player.crossings, player.segment)


def rank_key(state: State, p: int) -> tuple[float, int]:
    """AU-19: further ahead first; at equal distance the lane nearer the infield."""
    player = state.players[p]
    return -distance(state, p), state.table.track.segments[player.segment].lane


def ranking(state: State) -> list[int]:
    """Seats by position, the leader first (AU-19)."""
    return sorted(range(len(state.players)), key=lambda p: rank_key(state, p))


def position(state: State, p: int) -> int:
    """1 = leader, n = last (AU-19)."""
    return ranking(state).index(p) + 1


def standing(k: int, n: int) -> str:
    """AU-113, AU-115: place ``k`` of ``n`` as ``first``, ``middle`` or ``last`` (the second of two: middle)."""
    return "first" if k == 1 else "last" if k == n and n > 2 else "middle"


def car_at(state: State, segment: str) -> int | None:
    return next((p for p, player in enumerate(state.players) if player.segment == segment), None)


def total_cubes(state: State) -> Cubes:
    """Every cube of the box, wherever it is: the check that none is created or lost (AU-1)."""
    return tuple(map(sum, zip(state.stock, *(player.owned() for player in state.players), strict=True)))


WEAR_BUYABLE = False
"""AU-3 **Decision**: wear cannot be bought (``True``: at its card's cost, like any cube)."""
WEAR_VALUE = 0
"""AU-3 **Decision**: an active wear cube is worth $0 in the buy phase (else its card's value)."""
WEAR_COST_FOR_SUMS = 0
"""AU-3 **Decision**: wear counts 0 in AU-74's sum of removed cubes' costs."""


def available(player: Player) -> int:
    """The cubes a draw can still reach: the bag, and the discard that refills it (AU-50)."""
    return sum(player.bag) + sum(player.discard)


def draw_into(state: State, p: int, dice: Any, k: int, into: str, events: list[Event]) -> tuple[State, Cubes]:
    """AU-50, AU-52: ``k`` cubes from the bag into the zone ``into``, their colours as observed (``dice``) checked
    against the bag; when it runs out, the discard refills it and the rest is drawn from there."""
    if not isinstance(dice, list) or len(dice) != k or not all(map(COLOURS.__contains__, dice)):
        raise IllegalAction("AU-52", f"a draw of {k} names {k} cube colours, got {dice!r}", legal=list(COLOURS))
    drawn = tuple(map(dice.count, COLOURS))
    player = state.players[p]
    if sum(player.bag) >= k:
        if not within(drawn, player.bag):
            raise IllegalAction("AU-52", f"the bag holds {as_dict(player.bag)}, not {as_dict(drawn)}")
        bag, discard = minus(player.bag, drawn), player.discard
    else:
        rest = minus(drawn, player.bag)
        if min(rest) < 0 or not within(rest, player.discard):
            raise IllegalAction("AU-52", f"the draw must be the whole bag {as_dict(player.bag)} and then cubes of "
                                f"the discard {as_dict(player.discard)}, got {as_dict(drawn)}")
        bag, discard = minus(player.discard, rest), EMPTY
        events.append({"type": "refilled", "player": seat(state, p)})
    state = state.with_player(p, bag=bag, discard=discard, **{into: plus(getattr(player, into), drawn)})
    events.append({"type": "drew", "player": seat(state, p), "cubes": sorted(dice, key=IDX.__getitem__)})
    return state, drawn


def gain(state: State, p: int, colour: str, n: int, events: list[Event]) -> tuple[State, int]:
    """AU-24: from the stock into the used area. AU-22 **Decision**: too few brown cubes in the stock: gain what
    is left and carry on. AU-23 **Decision**: a card never gains a cube the stock lacks (its options say so)."""
    n = min(n, count(state.stock, colour)) if colour == WEAR else n
    if n <= 0:
        return state, 0
    player = state.players[p]
    state = state.with_seat(p, player._replace(used=add(player.used, colour, n)), stock=add(state.stock, colour, -n))
    events.append({"type": "gained", "player": seat(state, p), "colour": colour, "n": n})
    return state, n


def move_cube(state: State, p: int, colour: str, src: str, dst: str, events: list[Event]) -> State:
    """One cube from a zone (``stock`` included) to another."""
    player, stock, zones = state.players[p], state.stock, {}
    if src == "stock":
        stock = add(stock, colour, -1)
    else:
        zones[src] = add(getattr(player, src), colour, -1)
    if dst == "stock":
        stock = add(stock, colour, 1)
    else:
        zones[dst] = add(zones.get(dst, getattr(player, dst)), colour, 1)
    state = state.with_seat(p, player._replace(**zones), stock=stock)
    events.append({"type": "moved_cube", "player": seat(state, p), "colour": colour, "from": src, "to": dst})
    return state


def remove_all(state: State, p: int, colour: str, zone: str, events: list[Event]) -> State:
    """Every cube of ``colour`` in the zone back to the stock, one at a time."""
    for _ in range(count(getattr(state.players[p], zone), colour)):
        state = move_cube(state, p, colour, zone, "stock", events)
    return state


def buy(state: State, p: int, colour: str, zone: str, events: list[Event]) -> tuple[State, int]:
    """AU-36: a cube from the stock into ``zone`` of ``p``; returns the table and the price paid."""
    price = state.table.cards[colour].cost
    state = state._replace(stock=add(state.stock, colour, -1))
    state = state.with_player(p, **{zone: add(getattr(state.players[p], zone), colour)})
    events.append({"type": "bought", "player": seat(state, p), "colour": colour, "cost": price})
    return state, price


def value(state: State, colour: str) -> int:
    return WEAR_VALUE if colour == WEAR else state.table.cards[colour].value


def cost(state: State, colour: str) -> int | None:
    """AU-36: what a cube costs, None where it cannot be bought (wear unless ``WEAR_BUYABLE``, or no cost)."""
    return None if colour == WEAR and not WEAR_BUYABLE else state.table.cards[colour].cost


def money(state: State, p: int) -> int:
    """AU-35: the values of the cubes still active, less what was spent (AU-36, AU-105)."""
    active = state.players[p].active
    return sum(value(state, c) * n for c, n in zip(COLOURS, active, strict=True) if n) - state.turn.spent


def buys(state: State, budget: int) -> list[Action]:
    """AU-36: a buy option for each colour in the stock that can be bought for at most ``budget``."""
    return [{"type": "buy", "colour": c} for c in COLOURS
            if count(state.stock, c) and (price := cost(state, c)) is not None and price <= budget]


def cost_for_sum(state: State, colour: str) -> int:
    """AU-74: a removed cube's cost; wear counts ``WEAR_COST_FOR_SUMS``."""
    price = state.table.cards[colour].cost
    return WEAR_COST_FOR_SUMS if colour == WEAR or price is None else price
