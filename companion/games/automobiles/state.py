"""The Automobiles table as frozen values: whose cubes are where, the cars on the track, and the turn in progress.

A player's four zones (bag, active, used, discard) are multisets of cube colours, stored as one count per colour in
``COLOURS`` order, so moving a cube is a tuple copy and "no cube is lost" is a sum (AU-1, AU-2). Cubes on the track
and on the wear table are counted in the used area (AU-25); ``Turn.placed`` only says where the track cubes rest.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.games.automobiles.kit import Card, Kit, Track

COLOURS = ("white", "light_grey", "dark_grey", "black", "yellow", "red", "purple", "blue", "green", "brown")
"""AU-1: the cube colours, in the order a zone counts them (gears low to high, the action colours, wear)."""
IDX = {c: i for i, c in enumerate(COLOURS)}
GEARS = COLOURS[:4]
"""The gear colours, low to high (glossary: white < light grey < dark grey < black)."""
WEAR = "brown"
EMPTY = (0,) * len(COLOURS)

Cubes = tuple[int, ...]
T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without running ``__init__``: the rules copy a state for every action and every
    option a greedy bot tries, and ``replace`` was half of a bot race. The classes here have no ``__post_init__``.

    The copy's attributes are one dict handed to the new object whole: filling an empty ``__dict__`` key by key
    grows it several times and was a fifth of a greedy race. That dict is built with ``{**...}``, not
    ``dict.copy``: an object made by ``__init__`` keeps its attributes beside a key table its class shares, and a
    copy of such a "split" dict is split again, where Python 3.11 reads no attribute quickly (every read of it
    fell back to the generic look-up, a tenth of a greedy race). Merged into a new dict they get a table of
    their own, which the next copies clone as a block."""
    new = _NEW(type(obj))
    _SET(new, "__dict__", {**obj.__dict__, **changes})  # frozen: the dataclass's own __setattr__ refuses
    return new


def make(cls: type[T], **attributes: Any) -> T:
    """An instance of a frozen dataclass from all its attributes, made the way ``evolve`` makes a copy: a dict of
    its own handed over whole, not one ``object.__setattr__`` per field (a placed cube is made for every move;
    prompts are made alike by ``Prompt.of``). The caller names every field; the classes here have no
    ``__post_init__``."""
    new = _NEW(cls)
    _SET(new, "__dict__", attributes)
    return new


_NEW, _SET = object.__new__, object.__setattr__
"""Bound once: ``evolve`` runs thousands of times a race, and ``object.__new__`` is two look-ups each time."""


def cubes(counts: dict[str, int] | None = None) -> Cubes:
    """A zone from ``{colour: n}``."""
    counts = counts or {}
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
    colours: list[str] = []
    for colour, n in zip(COLOURS, zone, strict=True):
        if n:
            colours += [colour] * n
    return colours


def from_list(colours: list[str]) -> Cubes:
    return tuple(map(colours.count, COLOURS))


def kinds(zone: Cubes) -> int:
    """How many different colours a zone holds (AU-77, AU-91: brown counts)."""
    return sum(1 for n in zone if n)


def lower(colour: str) -> str | None:
    """AU-68: the next lower gear colour; none below white (``NO_COLOUR_BELOW_WHITE``)."""
    i = GEARS.index(colour)
    return GEARS[i - 1] if i else None


@dataclass(frozen=True)
class Player:
    segment: str
    """The car's segment."""
    bag: Cubes = EMPTY
    active: Cubes = EMPTY
    used: Cubes = EMPTY
    discard: Cubes = EMPTY
    aside: Cubes = EMPTY
    """Cubes between zones: the opening buy before it goes into the bag (AU-13), driver_04's draw until sorted."""
    crossings: int = 0
    """How often the car crossed the finish line (AU-19)."""
    marker: int = 0
    """Index of the lap marker on ``LAP_TRACK``."""
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


@dataclass(frozen=True)
class Placed:
    """A cube resting on the track this turn (AU-26): its colour, segment and how often its path crossed the line
    (absolute, like the car's), so the furthest cube is the greatest ``crossings × lap + front`` (AU-38)."""

    colour: str
    segment: str
    crossings: int


@dataclass(frozen=True)
class Stage:
    """One small decision inside a rule that takes several (an effect, a phase step): what the table waits for.

    ``kind`` is ``pick`` (move cubes one at a time between zones), ``move`` (a cube or the car steps field by
    field), ``draw`` (cubes from the bag: one at a time, or ``sizes`` at once), ``keep`` (which drawn cube stays
    active, AU-81), ``sort`` (driver_04), ``buy`` (exactly one cube, AU-74) or ``choose`` (the car's destination
    on a tie, AU-38). ``then`` names what follows once it is complete (``rules.CONTINUE``), ``step`` the place in
    that continuation.
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


@dataclass(frozen=True)
class Turn:
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
    """Players still owed something during this turn: Boost draws (AU-79) or rs_blue_1 moves (AU-95)."""
    pit_stop: bool = False


@dataclass(frozen=True)
class Table:
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
    protected_start: tuple[str, ...] = ()
    """AU-34: start segments that are a field of their own until their car leaves."""

    def cost(self, colour: str) -> int | None:
        return self.cards[colour].cost

    def value(self, colour: str) -> int:
        return self.cards[colour].value


@dataclass(frozen=True)
class State:
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
    turn: Turn = field(default_factory=Turn)
    stage: Stage | None = None
    protected: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()
    """Sponsors revealed for the end of this race (AU-112, AU-116)."""
    deck: tuple[str, ...] = ()
    """The face-down sponsor pile."""
    """Drivers revealed and not chosen yet (AU-99)."""
    winners: tuple[int, ...] = ()
    placings: tuple[int, ...] = ()
    results: tuple[tuple[int, ...], ...] = ()
    """The placings of the season's finished races."""

    def player(self, p: int) -> Player:
        return self.players[p]

    def with_player(self, p: int, **changes: Any) -> State:
        return self.with_seat(p, evolve(self.players[p], **changes))

    def with_seat(self, p: int, player: Player, **changes: Any) -> State:
        """The table with ``player`` in seat ``p`` and ``changes`` of its own, in one copy (a cube from the stock to
        a player is one change of the table, not two)."""
        players = list(self.players)
        players[p] = player
        return evolve(self, players=tuple(players), **changes)


def seat(state: State, p: int) -> str:
    return state.table.colours[p]


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
    if field_id in state.protected:
        return track.fields[track.segments[field_id].field].colours
    return track.fields[field_id].colours


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
    track = state.table.track
    return -track.along(player.crossings, player.segment), track.segments[player.segment].lane


def ranking(state: State) -> list[int]:
    """Seats by position, the leader first (AU-19)."""
    return sorted(range(len(state.players)), key=lambda p: rank_key(state, p))


def position(state: State, p: int) -> int:
    """1 = leader, n = last (AU-19)."""
    return ranking(state).index(p) + 1


def car_at(state: State, segment: str) -> int | None:
    for p, player in enumerate(state.players):
        if player.segment == segment:
            return p
    return None


def total_cubes(state: State) -> Cubes:
    """Every cube of the box, wherever it is: the check that none is created or lost (AU-1)."""
    zone = state.stock
    for player in state.players:
        zone = plus(zone, player.owned())
    return zone
