"""Automobiles rules (``../shared/games/automobiles/RULES.md``, AU-1..AU-121): a bag-building race, pure over the data.

The table always waits for one player's decision and ``prompt`` lists every legal one. A rule that asks several
small decisions (an action card, a car's bonus fields, the end phase) waits for them one at a time as a ``Stage``:
pick one cube, take one step, draw. Cubes drawn from a bag are inputs like dice: an option with ``"roll": n`` is
answered with ``"dice": [n colours]`` as the camera reads them from the active area, and the rules check that the
bag (and, after a refill, the discard) held them (AU-52).

Every Decision of the spec is a constant below; events are codes and numbers, never sentences.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping
from functools import cache
from math import inf
from typing import Any, TypeVar

from companion.games.automobiles.kit import Card, Kit, Track, load_kit, read_data
from companion.games.automobiles.state import (
    COLOURS,
    EMPTY,
    GEARS,
    IDX,
    WEAR,
    Cubes,
    Placed,
    Player,
    Stage,
    State,
    Table,
    Turn,
    add,
    as_dict,
    as_list,
    car_at,
    count,
    cubes,
    distance,
    entries,
    evolve,
    field_colours,
    field_of,
    field_segments,
    from_list,
    kinds,
    lower,
    make,
    minus,
    plus,
    position,
    rank_key,
    ranking,
    seat,
    total_cubes,
    within,
)
from companion.games.base import Action, Event, IllegalAction, Phase, Prompt, apply_in_phase, no_options, seat_is_bot

# ---------------------------------------------------------------------------------------------- decisions (AU-*)

CAR_COLOURS = ("red", "blue", "yellow", "green", "white")
"""AU-6: five cars; their colours are not in the seed, so they are a setting (the actors' ids)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""AU-8."""
LAP_TRACK = ("7", "6", "5", "4", "3", "2", "1", "Final", "Finish")
"""AU-5 **Decision**: the seed names only "3", "Final" and "Finish" (tracks.json ``lap_track`` may correct it)."""
LAP_MARKER_START = "3"
"""AU-8: the default start field of the lap markers."""
OPENING_BUY_MIN = 0
"""AU-13 **Decision**: a player may buy nothing in the opening buy."""
WEAR_BUYABLE, WEAR_VALUE, WEAR_COST_FOR_SUMS = False, 0, 0
"""AU-3 **Decision**: wear cannot be bought, is worth $0 and counts 0 in AU-74's sum."""
WEAR_CUBE_ACTIVATION = "to_discard"
"""AU-62 **Decision**: an activated brown cube goes straight to the discard (``"none"``: brown cannot be activated)."""
STANDARD_TURN_COMMIT = "first_event"
"""AU-17 **Decision**: the first action- or buy-phase event commits the player to a standard turn."""
CONDITIONAL_STEP_FALSE = "legal_no_effect"
"""AU-21 **Decision**: a step that applies only "if" counts as carried out when the condition is false."""
WEAR_SHORTFALL = "take_available"
"""AU-22 **Decision**: too few brown cubes in the stock: gain what is left and carry on."""
GAIN_SHORTFALL = "illegal"
"""AU-23 **Decision**: gaining a cube the stock lacks makes the activation illegal."""
DRAW_SHORTFALL = "draw_available"
"""AU-51 **Decision**: bag and discard both empty: drawing stops; an exact draw that cannot happen is illegal."""
SOURCE_SLIDE = True
"""AU-26 **Decision**: a step may start from a free segment further forward in the source's field."""
ENTRY_RULE = "data"
"""AU-27 **Decision**: which segments a step may enter are the track data's ``entries``."""
MULTICOLOUR_ENTRY = "any_listed_colour"
"""AU-30 **Decision**: a multi-colour field may be entered as any of its colours."""
ONE_ENTRY_PER_FIELD = True
"""AU-31 **Decision**: a player's cubes enter each field at most once per turn."""
FARTHEST_TIE = "player_choice"
"""AU-38 **Decision**: among equally far cubes the player chooses the car's destination."""
MOVEMENT_BONUS_ORDER = ("rs_green_1", "driver_06")
"""AU-40 **Decision**: Adrenalin's fields first, then driver_06's."""
WEAR_FIELDS = "all_entered"
"""AU-42 **Decision**: every field a cube or (in the movement phase) the car entered counts for wear."""
SLIPSTREAM_CHECK = "after_movement_phase"
"""AU-44 **Decision**."""
SOG_ORDER = "front_to_back"
"""AU-49 **Decision**: inside a field the front car is pulled forward first."""
CROSSING_BY_SOG = "counts"
"""AU-49 **Decision**: a crossing by Sog moves the lap marker."""
PITSTOP_WITHOUT_WEAR = "allowed"
"""AU-54 **Decision**."""
NO_COLOUR_BELOW_WHITE = "not_eligible"
"""AU-68 **Decision**: a white cube cannot be the gear of a "next lower colour" effect."""
R4_SAME_GEAR_REUSE = True
"""AU-70 **Decision**: several red cubes may name the same active gear cube."""
BOOST_OTHERS_ORDER = "clockwise_from_active"
"""AU-79 **Decision**."""
RED_LINE_RETROACTIVE = False
"""AU-88 **Decision**: white cubes already on the track are not affected."""
USED_WEAR_SCOPE = "all_in_used_area"
"""AU-90 **Decision**."""
ADRENALINE_STACKS = True
"""AU-92 **Decision**: each option-b cube adds its own 2·g."""
OTHERS_ADVANCE_COLOURS = "each_field_any_colour"
"""AU-95 **Decision**."""
OTHERS_ADVANCE_ELIGIBLE = "fixed_after_end_phase"
"""AU-95 **Decision**: who may move is decided once, after the active player's end phase and Sog."""
DOUBLE_GEARS_RETROACTIVE = False
"""AU-96 **Decision**."""
CARD_NAME_MAP = "cards.json name_de"
"""AU-98 **Decision**: card names are display only, from the data (a table overrides them there)."""
DRIVERS_IN_SINGLE_RACE, DRIVER_POOL = False, "limited"
"""AU-99 **Decision**: no drivers in a single race unless asked; n+1 revealed (``"all"``: choose from every one)."""
DRIVER01_WEAR = "none"
"""AU-101 **Decision**: driver_01's fields give no wear and slipstream is not checked again."""
DRIVER06_WITHOUT_CUBES = "allowed"
"""AU-106 **Decision**."""
SEASON_RACES = (3, 5)
"""AU-111 **Decision**: a season is 3 to 5 races (the points table's columns)."""
SPONSORS_AFTER_LAST_RACE = False
"""AU-113 **Decision**."""
NEXT_RACE_DRAW = 7
"""AU-116 **Decision**: before the next race every cube goes into the bag and each player draws 7."""
DEFERRED_RULES = "accumulate_lapse_at_end"
"""AU-119 **Decision**: deferred entitlements add up and lapse when the race ends first."""
CLOSED_BAG_DISPLAY = "count_only"
"""AU-120 **Decision**: with closed bags the view shows only how many cubes each bag holds."""
CARD_POOLS = ("base", "racing_season", "both")
"""AU-121: ``CARD_POOL``, default ``"base"``."""
SPONSOR_POOLING = "discard"
"""AU-114: before the sponsors every cube of a player is put within reach (the bag emptied onto the sheet); the
engine pools them in the discard, and bought or gained cubes land there too. They all go into the bag for the next
race (AU-116)."""
ACTION_COLOURS = ("yellow", "red", "purple", "blue", "green")
BIG = 99
GEAR_SET = frozenset(GEARS)
STOP: Action = {"type": "stop"}


# ---------------------------------------------------------------------------------------------------------- set-up


@cache
def _protected_starts(track_id: str) -> tuple[str, ...]:
    """AU-34: the start segments flagged ``own_field_until_left`` (kept in tracks.json beside the kit's track)."""
    for track in read_data("tracks.json")["tracks"]:
        if track["id"] == track_id:
            return tuple(s["segment"] for s in track.get("start_positions", []) if s.get("own_field_until_left"))
    return ()


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
    unknown = set(chosen) - set(ACTION_COLOURS)
    if unknown:
        raise IllegalAction("AU-9", f"cards: no action colour {sorted(unknown)}", legal=list(ACTION_COLOURS))
    return cards


def _suggested_set(kit: Kit, set_id: Any) -> dict[str, str]:
    """AU-9, AU-98: a suggested set's cards, found by name through ``CARD_NAME_MAP`` (cards.json ``name_de``).

    A name no card carries yet (Federung, Lenkung: their effects are unknown) leaves its colour to ``cards`` or the
    draw from the pool; a set whose list is not in the seed cannot be chosen.
    """
    if set_id is None:
        return {}
    sets = {s["id"]: s for s in read_data("cards.json")["suggested_sets"]}
    if set_id not in sets or not sets[set_id].get("names_de"):
        usable = sorted(k for k, s in sets.items() if s.get("names_de"))
        raise IllegalAction("AU-98", f"card_set must be a suggested set with its card list, got {set_id!r}",
                            legal=usable)
    by_name = {card.name_de: card for card in kit.action_cards.values() if card.name_de}
    return {by_name[n].colour: by_name[n].id for n in sets[set_id]["names_de"] if n in by_name}


def setup(options: Mapping[str, Any], rng: random.Random, kit: Kit | None = None) -> State:
    """AU-8..AU-15: seats, the start player, cars on the grid, 12 cubes per bag, then drivers and the opening buy."""
    kit = kit or load_kit()
    players = options.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction("AU-8", f"a race needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players!r}",
                            legal=f"players: a list of {MIN_PLAYERS}-{MAX_PLAYERS} {{name, colour}}")
    seats = []
    for i, player in enumerate(players):
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str) or not player["name"].strip():
            raise IllegalAction("AU-8", f"players[{i}] needs a name, got {player!r}")
        colour = player.get("colour", CAR_COLOURS[i])
        if colour not in CAR_COLOURS:
            raise IllegalAction("AU-8", f"players[{i}].colour must be one of {', '.join(CAR_COLOURS)}",
                                legal=list(CAR_COLOURS))
        seats.append((colour, player["name"].strip(), seat_is_bot(player, f"players[{i}]", "AU-8")))
    if len({c for c, _, _ in seats}) != len(seats):
        raise IllegalAction("AU-8", "each player needs their own car colour")
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
    laps = options.get("laps", LAP_MARKER_START)
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
    cards = _cards(kit, options, rng)
    table = Table(kit=kit, track=track, cards=cards, colours=tuple(c for c, _, _ in seats),
                  names=tuple(n for _, n, _ in seats), bots=tuple(b for _, _, b in seats), order=order,
                  lap_start=list(kit.lap_track).index(laps), weaving=_flag(options, "weaving", "AU-118"),
                  accelerated=_flag(options, "accelerated", "AU-119"), open_bags=_flag(options, "open_bags", "AU-120"),
                  wear_activation=wear_activation, drivers=drivers, season=tuple(season),
                  protected_start=_protected_starts(track_id))
    start_bag = cubes({c.id: c.starting_bag for c in kit.cubes.values()})
    stock = cubes({c.id: c.count for c in kit.cubes.values()})
    grid = {}
    for k, p in enumerate(order):
        grid[p] = track.start_positions[k][1]
        stock = minus(stock, start_bag)
    state = State(table=table, players=tuple(Player(segment=grid[p], bag=start_bag, marker=table.lap_start)
                                             for p in range(len(seats))),
                  stock=stock, phase="opening_buy", current=order[0], actor=order[0],
                  protected=tuple(s for s in table.protected_start if s in grid.values()))
    if season:  # AU-112: the sponsors face down, as many revealed as there are players
        deck = sorted(s["id"] for s in kit.sponsors)
        rng.shuffle(deck)
        state = evolve(state, offered=tuple(deck[:len(seats)]), deck=tuple(deck[len(seats):]))
    if drivers:
        pool = sorted(d["id"] for d in kit.drivers)
        revealed = pool if options.get("driver_pool", DRIVER_POOL) == "all" else rng.sample(pool, len(seats) + 1)
        return evolve(state, phase="driver", actor=order[-1], revealed=tuple(sorted(revealed)))
    return state


# ----------------------------------------------------------------------------------------------- cube movement


def _free(state: State, segment: str, mover: int | None) -> bool:
    """AU-28: no other car on the segment (the moving car itself does not block its own way)."""
    p = car_at(state, segment)
    return p is None or p == mover


def _landings(state: State, source: str, crossings: int, colours: tuple[str, ...], barred: frozenset[str],
              mover: int | None, board: Board) -> list[tuple[str, str, int, str, tuple[str, ...]]]:
    """AU-26..AU-33: every (source, landing, crossings after, field, colours it may be entered as) of one step.

    The landing is the front-most free segment the cube slides to inside the field it enters (AU-29); under the
    weaving variant any segment from the entry up to that one (AU-118). Fields barred (AU-31) and colours (AU-30)
    only strike out whole entries, so the reach is cached without them and they are applied here.
    """
    found = []
    for start, seg, n, target, field_cols in _reach_of(state, source, mover, board):
        if target in barred:
            continue
        if len(colours) == 1:  # most moves name one colour: no generator for it
            allowed = colours if colours[0] in field_cols else ()
        else:
            allowed = tuple(c for c in field_cols if c in colours)
        if allowed:
            found.append((start, seg, crossings + n, target, allowed))
    return found


T = TypeVar("T")


def kept(cache: dict[Any, T], key: Any, value: T, limit: int) -> T:
    """``value`` kept in ``cache`` under ``key``, the cache emptied first once it holds more than ``limit``: the
    rules' tables of worked-out values are pure and cheap to fill again, and a race of thousands of actions (random
    bots, fuzzing) must not grow them with every table it has seen."""
    if len(cache) > limit:
        cache.clear()
    cache[key] = value
    return value


class Board:
    """The reaches of one placing of the cars on a track (its variant and protected start segments included): the
    cars stand still for most of a turn, and a greedy bot asks the same questions for every option it tries, so each
    reach is worked out once per placing and kept here (``board``)."""

    __slots__ = ("cars", "taken", "reach", "gear_steps")

    def __init__(self, cars: tuple[str, ...]) -> None:
        self.cars = cars
        self.taken = frozenset(cars)
        """The segments holding a car."""
        self.reach: dict[tuple[str, int | None], list[tuple[str, str, int, str, tuple[str, ...]]]] = {}
        """(source, the car that moves or None for a cube) -> ``_reach``."""
        self.gear_steps: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        """source -> ``_gear_steps``."""


def board(state: State) -> Board:
    """The ``Board`` of the table's placing of the cars."""
    cars = tuple([q.segment for q in state.players])
    key = (state.table.track.id, state.table.weaving, cars, state.protected)
    found = _BOARDS.get(key)
    if found is None:
        found = kept(_BOARDS, key, Board(cars), BOARDS_KEPT)
    return found


_BOARDS: dict[tuple[Any, ...], Board] = {}
BOARDS_KEPT = 64
"""How many placings of the cars ``_BOARDS`` keeps: the cars move every turn and seldom stand the same way again,
and keeping every placing of a race alive (10,000) made each full garbage collection slower (5 % of a race)."""


def _reach_of(state: State, source: str, mover: int | None, where: Board | None = None
              ) -> list[tuple[str, str, int, str, tuple[str, ...]]]:
    """``_reach``, kept on the board; ``where``: the table's board when the caller has it already."""
    where = where or board(state)
    reach = where.reach.get((source, mover))
    if reach is None:
        reach = where.reach[source, mover] = _reach(state, source, mover, where.taken)
    return reach


def _gear_steps(state: State, source: str, where: Board) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The fields a cube's step from ``source`` enters that have a gear colour, each once with its colours: what
    ``steppable`` asks of ``_reach``, without its landings. A field is entered when the source the step starts
    from and the field's entry segment are free (the cube lands at least there, AU-28, AU-29)."""
    steps = where.gear_steps.get(source)
    if steps is None:
        taken, targets = where.taken, {}
        for k, (start, _, ways) in enumerate(_ways(state, source)):
            if k and start in taken:  # AU-26: the slide to a further source stops at a car
                break
            for target, field_cols, walk in ways:
                if walk[0][0] not in taken and not GEAR_SET.isdisjoint(field_cols):
                    targets.setdefault(target, field_cols)
        steps = where.gear_steps[source] = tuple(targets.items())
    return steps


def _reach(state: State, source: str, mover: int | None, cars: frozenset[str]
           ) -> list[tuple[str, str, int, str, tuple[str, ...]]]:
    """Every (source, landing, crossings on the way, field, the field's colours) of one step from ``source``: the
    track's ways from there (``_ways``) walked until a car other than the mover's own stands in the way (AU-28)."""
    own = state.players[mover].segment if mover is not None else None
    weaving = state.table.weaving
    found = []
    for k, (start, crossed, steps) in enumerate(_ways(state, source)):
        if k and start in cars and start != own:  # AU-26: the slide to a further source stops at a car
            break
        for target, field_cols, walk in steps:
            stops, n = [], crossed
            for seg, line in walk:
                if seg in cars and seg != own:
                    break
                n += line
                stops.append((start, seg, n, target, field_cols))
            found += stops if weaving else stops[-1:]
    return found


Ways = tuple[tuple[str, int, tuple[tuple[str, tuple[str, ...], tuple[tuple[str, int], ...]], ...]], ...]


def _ways(state: State, source: str) -> Ways:
    """The cars' placing left out of ``_reach``, worked out once per track: the sources a step from ``source`` may
    start from (AU-26 ``SOURCE_SLIDE``: the segment, then each segment further forward in its field, with the
    crossings on the way) and, for each, the fields it may enter (AU-27) with their colours and the segments from
    the entry forward, each with the crossing at its back (AU-29). Only the protected start segments (AU-34) change
    it during a race."""
    key = (state.table.track.id, state.protected, source)
    found = _WAYS.get(key)
    if found is None:
        track = state.table.track
        segments = field_segments(state, field_of(state, source))
        starts, n = [(source, 0)], 0
        if SOURCE_SLIDE and source in segments:
            for nxt in segments[segments.index(source) + 1:]:
                n += track.segments[nxt].line_at_back
                starts.append((nxt, n))
        ways = []
        for start, crossed in starts:
            own, steps = field_of(state, start), []
            for entry in entries(state, start):
                target = field_of(state, entry)
                into = field_segments(state, target)
                if target != own and entry in into:
                    walk = tuple((seg, track.segments[seg].line_at_back) for seg in into[into.index(entry):])
                    steps.append((target, field_colours(state, target), walk))
            ways.append((start, crossed, tuple(steps)))
        found = kept(_WAYS, key, tuple(ways), 10_000)
    return found


_WAYS: dict[tuple[Any, ...], Ways] = {}


def _barred(state: State, stage: Stage) -> frozenset[str]:
    """AU-31: fields the player's cubes entered this turn (and the car's own field) cannot be entered again; a car
    moving outside the movement phase only avoids the fields of its own move."""
    p = stage.who
    own = field_of(state, state.players[p].segment)
    if stage.mover == "car" and not stage.counts_wear:
        return frozenset(stage.fields) | {own}
    return state.turn.entered | frozenset(stage.fields) | {own}


def step_choices(state: State, stage: Stage) -> dict[tuple[str, str, str], tuple[int, str]]:
    """The steps a move stage may take next: (from, to, colour named) -> (crossings after, field entered).

    The last answer is kept (one tuple, read and replaced whole): listing a step's options and applying one of them
    ask the same question of the same table."""
    last = _STEP_CHOICES[0]
    if last[0] is state and last[1] is stage:
        return last[2]
    found = _step_choices(state, stage)
    _STEP_CHOICES[0] = (state, stage, found)
    return found


_STEP_CHOICES: list[tuple[Any, Any, dict[tuple[str, str, str], tuple[int, str]]]] = [(None, None, {})]


def _step_choices(state: State, stage: Stage) -> dict[tuple[str, str, str], tuple[int, str]]:
    p = stage.who
    player = state.players[p]
    if stage.mover == "car":
        starts = [(player.segment, player.crossings)]
    elif stage.at is not None:
        starts = [(stage.at, stage.crossings)]
    else:
        starts = [(player.segment, player.crossings)] + [(c.segment, c.crossings) for c in state.turn.placed]
    barred = _barred(state, stage)
    mover = p if stage.mover == "car" else None
    found: dict[tuple[str, str, str], tuple[int, str]] = {}
    where = board(state)
    for start, crossings in dict.fromkeys(starts):
        for frm, to, n, target, allowed in _landings(state, start, crossings, stage.colours, barred, mover, where):
            named = allowed if stage.same_colour else ("",)
            for colour in named:
                found.setdefault((frm if stage.mover == "cube" and stage.at is None else "", to, colour),
                                 (n, target))
    return found


def can_step(state: State, p: int, colours: tuple[str, ...]) -> bool:
    """AU-21, AU-32: whether a cube of ``p`` can take one step whose field has one of ``colours``."""
    return not steppable(state, p).isdisjoint(colours)


def steppable(state: State, p: int) -> frozenset[str]:
    """The gear colours a cube of ``p`` can take one step in now (one look at the track for every card)."""
    last = _STEPPABLE[0]
    if last[0] is state and last[1] == p:
        return last[2]
    player = state.players[p]
    turn = state.turn
    where = board(state)
    own, entered = field_of(state, player.segment), turn.entered
    colours: set[str] = set()
    for start in {player.segment, *[c.segment for c in turn.placed]} if turn.placed else (player.segment,):
        for target, field_cols in _gear_steps(state, start, where):
            if target != own and target not in entered:
                colours.update(field_cols)
    found = frozenset(colours)
    _STEPPABLE[0] = (state, p, found)
    return found


_STEPPABLE: list[tuple[Any, int, frozenset[str]]] = [(None, -1, frozenset())]
"""The last ``steppable`` answer (one tuple, read and replaced whole): listing a turn's activations asks it once per
card."""


def _cross(state: State, p: int, crossings: int, events: list[Event], segment: str | None = None) -> State:
    """AU-41, AU-56: each crossing moves the lap marker one field towards Finish; ``segment``: where the car that
    crossed now stands, set in the same copy of the table."""
    player = state.players[p]
    moved = crossings - player.crossings
    last = len(state.table.kit.lap_track) - 1
    marker = min(last, player.marker + max(0, moved))
    state = state.with_player(p, crossings=crossings, marker=marker, segment=segment or player.segment)
    if moved > 0:
        events.append({"type": "crossed", "player": seat(state, p), "marker": state.table.kit.lap_track[marker]})
        if marker == last and player.marker < last:
            events.append({"type": "finished", "player": seat(state, p)})
    return state


def _car_to(state: State, p: int, segment: str, crossings: int, events: list[Event], why: str) -> State:
    player = state.players[p]
    if player.segment in state.protected and segment != player.segment:  # AU-34: it has left its start field
        state = evolve(state, protected=tuple(s for s in state.protected if s != player.segment))
    events.append({"type": "car_moved", "player": seat(state, p), "to": segment, "why": why})
    return _cross(state, p, crossings, events, segment)


def sog(state: State, events: list[Event]) -> State:
    """AU-49: every car moves forward inside its own field to the front-most free segment, front cars first."""
    track = state.table.track
    if not state.protected and _fronts(track).issuperset([player.segment for player in state.players]):
        return state  # no car has a segment ahead of it in its field

    def index(p: int) -> int:
        segment = state.players[p].segment
        return -field_segments(state, field_of(state, segment)).index(segment)

    for p in sorted(range(len(state.players)), key=index):
        segment = state.players[p].segment
        if segment in state.protected:
            continue
        segments = field_segments(state, field_of(state, segment))
        crossings, to = state.players[p].crossings, segment
        for nxt in segments[segments.index(segment) + 1:]:
            if car_at(state, nxt) is not None:
                break
            to, crossings = nxt, crossings + track.segments[nxt].line_at_back
        if to != segment:
            events.append({"type": "sog", "player": seat(state, p), "to": to})
            state = _cross(state, p, crossings, events, to)
    return state


def _fronts(track: Track) -> frozenset[str]:
    """The front segment of each field of the track: Sog moves no car standing on one (asked after every turn)."""
    found = _FRONTS.get(track.id)
    if found is None:
        found = _FRONTS[track.id] = frozenset(field.segments[-1] for field in track.fields.values())
    return found


_FRONTS: dict[str, frozenset[str]] = {}


# ------------------------------------------------------------------------------------------------ cubes between


def _available(player: Player) -> int:
    return sum(player.bag) + sum(player.discard)


def parse_draw(state: State, p: int, dice: Any, k: int) -> tuple[Cubes, Cubes, Cubes, bool]:
    """AU-50, AU-52: the observed colours of a draw of ``k`` cubes, checked against the bag (and the discard it is
    refilled from); returns (drawn, bag after, discard after, refilled)."""
    if not isinstance(dice, list) or len(dice) != k or not all(map(COLOURS.__contains__, dice)):
        raise IllegalAction("AU-52", f"a draw of {k} names {k} cube colours, got {dice!r}", legal=list(COLOURS))
    drawn = from_list(dice)
    player = state.players[p]
    if sum(player.bag) >= k:
        if not within(drawn, player.bag):
            raise IllegalAction("AU-52", f"the bag holds {as_dict(player.bag)}, not {as_dict(drawn)}")
        return drawn, minus(player.bag, drawn), player.discard, False
    rest = minus(drawn, player.bag)
    if min(rest) < 0 or not within(rest, player.discard):
        raise IllegalAction("AU-52", f"the draw must be the whole bag {as_dict(player.bag)} and then cubes of the "
                            f"discard {as_dict(player.discard)}, got {as_dict(drawn)}")
    return drawn, minus(player.discard, rest), EMPTY, True


def _drawn(state: State, p: int, dice: Any, k: int, into: str, events: list[Event]) -> tuple[State, Cubes]:
    drawn, bag, discard, refilled = parse_draw(state, p, dice, k)
    if refilled:
        events.append({"type": "refilled", "player": seat(state, p)})
    target = getattr(state.players[p], into)
    state = state.with_player(p, bag=bag, discard=discard, **{into: plus(target, drawn)})
    cubes_drawn = sorted(dice, key=IDX.__getitem__)  # as_list(drawn): the colours in COLOURS order
    events.append({"type": "drew", "player": seat(state, p), "cubes": cubes_drawn})
    return state, drawn


def gain(state: State, p: int, colour: str, n: int, events: list[Event]) -> tuple[State, int]:
    """AU-24: from the stock into the used area; wear takes what is left (AU-22), others need the stock."""
    have = count(state.stock, colour)
    n = min(n, have) if colour == WEAR else n
    if n <= 0:
        return state, 0
    player = state.players[p]
    state = state.with_seat(p, evolve(player, used=add(player.used, colour, n)), stock=add(state.stock, colour, -n))
    events.append({"type": "gained", "player": seat(state, p), "colour": colour, "n": n})
    return state, n


def _move_cube(state: State, p: int, colour: str, src: str, dst: str, events: list[Event]) -> State:
    """One cube from a zone (``stock`` included) to another."""
    zones = {}
    player = state.players[p]
    stock = state.stock
    if src == "stock":
        stock = add(stock, colour, -1)
    else:
        zones[src] = add(getattr(player, src), colour, -1)
    if dst == "stock":
        stock = add(stock, colour, 1)
    else:
        zones[dst] = add(zones.get(dst, getattr(player, dst)), colour, 1)
    state = state.with_seat(p, evolve(player, **zones), stock=stock)
    events.append({"type": "moved_cube", "player": seat(state, p), "colour": colour, "from": src, "to": dst})
    return state


def _remove_all(state: State, p: int, colour: str, zone: str, events: list[Event]) -> State:
    """Every cube of ``colour`` in the zone back to the stock: one copy of the table, one event per cube."""
    n = count(getattr(state.players[p], zone), colour)
    if not n:
        return state
    player = state.players[p]
    state = state.with_seat(p, evolve(player, **{zone: add(getattr(player, zone), colour, -n)}),
                            stock=add(state.stock, colour, n))
    event = {"type": "moved_cube", "player": seat(state, p), "colour": colour, "from": zone, "to": "stock"}
    events += [dict(event) for _ in range(n)]
    return state


def money(state: State, p: int) -> int:
    """AU-35: the values of the cubes still active, less what was spent (AU-36, AU-105)."""
    return sum(map(operator.mul, _prices(state.table)[0], state.players[p].active)) - state.turn.spent


def _prices(table: Table) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """Each colour's value (wear ``WEAR_VALUE``) and cost (None where it cannot be bought: wear, ``WEAR_BUYABLE``,
    or no cost) in ``COLOURS`` order, worked out once per set of cards."""
    known = _PRICES.get(id(table.cards))
    if known is None or known[0] is not table.cards:
        values = tuple(WEAR_VALUE if c == WEAR else table.value(c) for c in COLOURS)
        costs = tuple(None if c == WEAR and not WEAR_BUYABLE else table.cost(c) for c in COLOURS)
        known = kept(_PRICES, id(table.cards), (table.cards, (values, costs)), 1000)
    return known[1]


_PRICES: dict[int, tuple[dict[str, Card], tuple[tuple[int, ...], tuple[int | None, ...]]]] = {}


def _buys(state: State, budget: int) -> list[Action]:
    """AU-36: a buy option for each colour that is ``buyable`` and costs at most ``budget``."""
    return [{"type": "buy", "colour": c} for c, n, cost in zip(COLOURS, state.stock, _prices(state.table)[1],
                                                                strict=True)
            if n and cost is not None and cost <= budget]


def buyable(state: State, colour: str) -> bool:
    """AU-36: in the stock, and not wear (``WEAR_BUYABLE``)."""
    if colour == WEAR and not WEAR_BUYABLE:
        return False
    return count(state.stock, colour) > 0 and state.table.cost(colour) is not None


def _cost_for_sum(state: State, colour: str) -> int:
    """AU-74: wear counts ``WEAR_COST_FOR_SUMS``."""
    cost = state.table.cost(colour)
    return WEAR_COST_FOR_SUMS if colour == WEAR or cost is None else cost


# ---------------------------------------------------------------------------------------------------- stages


BLANK_STAGE = evolve(Stage(kind="", then="", who=0))
"""What ``pick``, ``move`` and ``draw`` fill in: a copy with a few fields changed is quicker than a new frozen
dataclass, and they build a stage for every card a greedy bot tries. Made through ``evolve``, as ``NEW_TURN`` is,
so that its copies' attributes are quick to read (``evolve`` says why)."""
NEW_TURN = evolve(Turn())


def _unstaged(state: State) -> State:
    """The table waiting for no stage; one that already waits for none is not copied again (the end of a turn
    passes through several rules that each start from such a table)."""
    return state if state.stage is None else evolve(state, stage=None)


def _wait(state: State, stage: Stage, phase: str) -> State:
    return evolve(state, stage=stage, phase=phase, actor=stage.who)


def pick(p: int, then: str, src: tuple[str, ...], dst: str, lo: int, hi: int, *, card: str = "", step: int = 0,
         only: tuple[str, ...] | None = None, wear_each: int = 0, budget: int = 0) -> Stage:
    return evolve(BLANK_STAGE, kind="pick", then=then, who=p, card=card, step=step, src=src, dst=dst, lo=lo, hi=hi,
                  only=only, wear_each=wear_each, budget=budget)


def move(p: int, then: str, colours: tuple[str, ...], lo: int, hi: int, *, card: str = "", step: int = 0,
         colour: str = "", same: bool = False, mover: str = "cube", counts_wear: bool = True) -> Stage:
    return evolve(BLANK_STAGE, kind="move", then=then, who=p, card=card, step=step, colours=colours, lo=lo, hi=hi,
                  colour=colour, same_colour=same, mover=mover, counts_wear=counts_wear)


def draw(p: int, then: str, *, lo: int = 0, hi: int = 1, card: str = "", step: int = 0, wear_each: int = 0,
         sizes: tuple[int, ...] = (), until_non_wear: bool = False, dst: str = "active") -> Stage:
    return evolve(BLANK_STAGE, kind="draw", then=then, who=p, card=card, step=step, lo=lo, hi=hi,
                  wear_each=wear_each, sizes=sizes, until_non_wear=until_non_wear, dst=dst)


def _pick_ok(state: State, stage: Stage, colour: str) -> bool:
    """Extra limits of a pick: AU-74 keeps a buy possible, AU-105 needs $1 per cube."""
    if stage.card == "base_purple_4":
        left = stage.hi - stage.done - 1
        return _purple4_possible(state, stage.who, stage.budget + _cost_for_sum(state, colour),
                                 add(state.players[stage.who].discard, colour, -1), left)
    if stage.card == "driver_05":
        return money(state, stage.who) >= 1
    return True


def _purple4_possible(state: State, p: int, total: int, discard: Cubes, picks: int) -> bool:
    """AU-74: some buyable cube costs at most ``total`` plus the ``picks`` dearest cubes still in the discard."""
    costs = sorted((_cost_for_sum(state, c) for c in as_list(discard)), reverse=True)
    best = total + sum(costs[:picks])
    return any(buyable(state, c) and state.table.cost(c) <= best for c in COLOURS)


def _stage_options(state: State) -> list[Action]:
    stage = state.stage
    assert stage is not None
    player = state.players[stage.who]
    options: list[Action] = []
    if stage.kind == "pick":
        if stage.done >= stage.lo:
            options.append({"type": "stop"})
        for src in stage.src:
            zone = state.stock if src == "stock" else getattr(player, src)
            for colour, n in zip(COLOURS, zone, strict=True):
                if n and (stage.only is None or colour in stage.only) and _pick_ok(state, stage, colour):
                    options.append({"type": "pick", "colour": colour, "from": src})
        if stage.card == "base_purple_4" and stage.done >= stage.lo and not _purple4_possible(
                state, stage.who, stage.budget, player.discard, 0):
            options.remove({"type": "stop"})
    elif stage.kind == "move":
        if stage.done >= stage.lo:
            options.append({"type": "stop"})
        for (frm, to, colour), _ in step_choices(state, stage).items():
            option: Action = {"type": "step", "to": to}
            if frm:
                option["from"] = frm
            if colour:
                option["colour"] = colour
            options.append(option)
    elif stage.kind == "draw":
        if stage.sizes:
            options += [{"type": "draw", "roll": k} for k in stage.sizes]
        else:
            if stage.done >= stage.lo and not stage.until_non_wear:
                options.append({"type": "stop"})
            if _available(player) and stage.done < stage.hi:
                options.append({"type": "draw", "roll": 1})
    elif stage.kind == "keep":
        options += [{"type": "keep", "colour": c} for c in COLOURS if count(player.aside, c)]
    elif stage.kind == "sort":
        options += [{"type": "sort", "colour": c, "to": to} for c in COLOURS if count(player.aside, c)
                    for to in ("stock", "active", "bag")]
    elif stage.kind == "buy":
        if stage.hi > 1:  # a sponsor's money: any number of cubes (AU-114)
            options.append({"type": "stop"})
        options += _buys(state, stage.budget)
    elif stage.kind == "choose":
        options += [{"type": "drive", "to": seg} for seg in stage.choices]
    elif stage.kind == "boost":
        options.append({"type": "decline"})
        if _available(player):
            options.append({"type": "draw", "roll": 1})
    return options


def _complete(state: State, stage: Stage, events: list[Event]) -> State:
    """A finished stage: record a moved cube, then what follows (``CONTINUE``). A stage that only hands the turn
    back to a phase (``BACK_TO``: a gear cube's move, a driver's pick) is finished in the same copy of the table.

    A moved cube's fields are entered here too (AU-31): its last step leaves that to this copy."""
    back = BACK_TO.get(stage.then)
    changes: dict[str, Any] = {"stage": None} if back is None else {"stage": None, "phase": back,
                                                                    "actor": state.current}
    moved = stage.kind == "move" and stage.mover == "cube" and stage.done
    if moved:
        turn = state.turn
        placed = make(Placed, colour=stage.colour, segment=stage.at or "", crossings=stage.crossings)
        changes["turn"] = evolve(turn, placed=(*turn.placed, placed), entered=turn.entered | frozenset(stage.fields))
    state = evolve(state, **changes)
    if moved:
        events.append({"type": "placed", "player": seat(state, stage.who), "colour": stage.colour,
                       "segment": stage.at, "fields": list(stage.fields)})
        if stage.card == "red_line" and any("white" not in field_colours(state, f) for f in stage.fields):
            state, _ = gain(state, stage.who, WEAR, 1, events)  # AU-88
    return state if back is not None else CONTINUE[stage.then](state, stage, events)


def _on_stage(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    stage = state.stage
    assert stage is not None
    p = stage.who
    kind = action["type"]
    if kind == "stop" or kind == "decline":
        return _complete(state, stage, events)
    if stage.kind == "pick":
        colour, src = action["colour"], action["from"]
        state = _move_cube(state, p, colour, src, stage.dst, events)
        spent = 1 if stage.card == "driver_05" else 0
        if spent:
            state = evolve(state, turn=evolve(state.turn, spent=state.turn.spent + 1))
        if stage.wear_each:
            state, _ = gain(state, p, WEAR, stage.wear_each, events)
        budget = stage.budget + (_cost_for_sum(state, colour) if stage.card == "base_purple_4" else 0)
        stage = evolve(stage, done=stage.done + 1, picked=add(stage.picked, colour), budget=budget)
    elif stage.kind == "move":
        key = (action.get("from", ""), action["to"], action.get("colour", ""))
        crossings, target = step_choices(state, stage)[key]
        stage = evolve(stage, done=stage.done + 1, fields=(*stage.fields, target), at=action["to"],
                        crossings=crossings, colours=(key[2],) if stage.same_colour else stage.colours,
                        same_colour=False)
        if stage.mover == "car":
            state = _car_to(state, p, action["to"], crossings, events, stage.card or "move")
            if stage.counts_wear:
                turn = state.turn
                state = evolve(state, turn=evolve(turn, entered=turn.entered | {target}, car_moved=True))
        else:
            if stage.done < stage.hi:  # the last step's field is entered where _complete places the cube
                state = evolve(state, turn=evolve(state.turn, entered=state.turn.entered | {target}))
            events.append({"type": "stepped", "player": seat(state, p), "colour": stage.colour, "to": action["to"]})
    elif stage.kind == "draw":
        k = action["roll"]
        state, drawn = _drawn(state, p, action.get("dice"), k, stage.dst, events)
        if stage.wear_each:
            state, _ = gain(state, p, WEAR, stage.wear_each * k, events)
        stage = evolve(stage, done=stage.done + k, picked=plus(stage.picked, drawn))
        if stage.sizes:
            return _complete(state, stage, events)
        if stage.until_non_wear and (count(drawn, WEAR) < k or not _available(state.players[p])):
            return _complete(state, stage, events)
    elif stage.kind == "keep":
        player = state.players[p]
        rest = add(player.aside, action["colour"], -1)
        state = state.with_player(p, aside=EMPTY, active=add(player.active, action["colour"]),
                                  discard=plus(player.discard, rest))
        events.append({"type": "kept", "player": seat(state, p), "colour": action["colour"],
                       "discarded": as_list(rest)})
        return _complete(state, stage, events)
    elif stage.kind == "sort":
        state = _move_cube(state, p, action["colour"], "aside", action["to"], events)
        if not sum(state.players[p].aside):
            return _complete(state, stage, events)
        return evolve(state, stage=stage)
    elif stage.kind == "buy":
        colour, cost = action["colour"], state.table.cost(action["colour"])
        zone = stage.dst or "used"
        state = evolve(state, stock=add(state.stock, colour, -1))
        state = state.with_player(p, **{zone: add(getattr(state.players[p], zone), colour)})
        events.append({"type": "bought", "player": seat(state, p), "colour": colour, "cost": cost})
        if stage.hi <= 1:
            return _complete(state, stage, events)
        stage = evolve(stage, budget=stage.budget - cost, done=stage.done + 1)
    elif stage.kind == "choose":
        chosen = next(c for c in state.turn.placed if c.segment == action["to"])
        return _drive(state, p, chosen, events)
    elif stage.kind == "boost":
        state, _ = _drawn(state, p, action.get("dice"), 1, "active", events)
        return _complete(state, stage, events)
    if stage.done >= stage.hi:
        return _complete(state, stage, events)
    state = evolve(state, stage=stage)
    if listed(state) in ([], [STOP]):
        return _complete(state, stage, events)
    return state


# ----------------------------------------------------------------------------------------------- action cards


def _card(state: State, colour: str) -> Card:
    return state.table.cards[colour]


def _others(state: State, p: int) -> list[int]:
    """``BOOST_OTHERS_ORDER``: the other players clockwise from ``p``."""
    order = state.table.order
    k = order.index(p)
    return [order[(k + i) % len(order)] for i in range(1, len(order))]


def _activations(state: State, p: int) -> list[Action]:
    """AU-20, AU-21: every cube of the active area that can be activated, with the choices its card needs first."""
    player = state.players[p]
    turn = state.turn
    options: list[Action] = []
    for colour, n in zip(COLOURS, player.active, strict=True):
        if not n:
            continue
        if colour in GEAR_SET:  # AU-21: its step must be possible (can_step, one colour at a time)
            steps = steppable(state, p)
            if colour == "white" and turn.red_line:  # AU-88: a white cube may act as any gear colour
                options += [{"type": "activate", "colour": colour, "as": g} for g in GEARS if g in steps]
            elif colour in steps:
                options.append({"type": "activate", "colour": colour})
            continue
        if colour == WEAR:
            if state.table.wear_activation == "to_discard":
                options.append({"type": "activate", "colour": colour})
            continue
        options += [{"type": "activate", "colour": colour, **arg} for arg in _card_args(state, p, _card(state, colour))]
    return options


def _card_args(state: State, p: int, card: Card) -> list[dict[str, Any]]:
    """AU-21: the first choices with which an action card's whole effect can be carried out (none: illegal). The
    zones are looked at only for the cards that ask (this runs for every action card in every action phase)."""
    player = state.players[p]
    effect = card.effect
    kind = effect["type"]
    if kind == "upgrade_gear_from_discard":
        return [{"gear": g} for g in _gears_in(player.discard)
                if effect["upgrade"][g] is None or count(state.stock, effect["upgrade"][g])]
    if kind in ("active_to_used_then_remove_discard", "swap_active_discard"):
        return [{}] if sum(_after_activation(player, card)) else []
    if kind == "discard_active_gear_move_next_lower":
        return [{"gear": g} for g in _gears_in(_after_activation(player, card)) if lower(g)]
    if kind == "discard_gear_same_colour_move":
        return [{"gear": g} for g in _gears_in(player.discard) if can_step(state, p, (g,))]
    if kind == "active_gear_lower_colour_move":
        return [{"gear": g} for g in _gears_in(_after_activation(player, card))
                if lower(g) and can_step(state, p, GEARS[:GEARS.index(g)])]
    if kind == "discard_gear_next_lower_move":
        return [{"gear": g} for g in _gears_in(player.discard) if lower(g)]
    if kind == "discard_active_gear_move_any":
        return [{"gear": g} for g in _gears_in(_after_activation(player, card))] if can_step(state, p, GEARS) else []
    if kind in ("draw_until_non_wear_then_remove_discard_wear", "draw_then_remove_one"):
        return [{}] if _available(player) else []
    if kind == "draw_two_split":
        return [{}] if _available(player) >= 2 else []
    if kind == "choose_remove_all_wear_or_n":
        return [{"option": "wear"}] + ([{"option": "two"}] if sum(player.discard) >= effect["n"] else [])
    if kind == "remove_discard_buy_one_by_cost":
        return [{}] if _purple4_possible(state, p, 0, player.discard, effect["max"]) else []
    if kind == "adrenaline":
        return ([{"option": "a"}] if can_step(state, p, (effect["colour"],)) else []) + [{"option": "b"}]
    return [{}]


def _after_activation(player: Player, card: Card) -> Cubes:
    """The active area once the card's cube is activated: the cube itself is in the used area then."""
    return add(player.active, card.colour, -1)


def _gears_in(zone: Cubes) -> list[str]:
    """The gear colours a zone holds, low to high."""
    return [g for g, n in zip(GEARS, zone, strict=False) if n]  # a zone counts the gears first


def _activate(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-17, AU-20: the turn is a standard one; the cube goes to the used area (brown to the discard, AU-62), then
    its card's effect. A gear cube's step is set up in the same copy of the table: a greedy bot tries every cube."""
    p = state.current
    colour = action["colour"]
    player = state.players[p]
    dst = "discard" if colour == WEAR else "used"
    player = evolve(player, active=add(player.active, colour, -1), **{dst: add(getattr(player, dst), colour)})
    players = (*state.players[:p], player, *state.players[p + 1:])
    turn = state.turn if state.turn.committed else evolve(state.turn, committed=True)
    card = _card(state, colour)
    events.append({"type": "activated", "player": seat(state, p), "colour": colour, "card": card.id,
                   **{k: action[k] for k in ("as", "gear", "option") if k in action}})
    if colour in GEARS:
        named = action.get("as", colour)
        double = 2 if turn.double_gears else 1  # AU-96
        stage = move(p, "to_action", (named,), 1, double, colour=colour,
                     card="red_line" if colour == "white" and named != "white" else card.id)
        return evolve(state, players=players, turn=turn, stage=stage, phase="effect", actor=stage.who)
    state = evolve(state, players=players, turn=turn)
    if colour == WEAR:  # AU-62: the printed card may move further active wear cubes along with it
        extra = min(card.effect.get("extra_active_wear_moved", 0), count(state.players[p].active, WEAR))
        for _ in range(extra):
            state = _move_cube(state, p, WEAR, "active", "discard", events)
        return state
    return _script(state, p, card, 0, None, action, events)


def _script(state: State, p: int, card: Card, step: int, last: Stage | None, arg: Mapping[str, Any],
            events: list[Event]) -> State:
    """The effect of an action card, step by step: each step either waits (a ``Stage`` continuing here) or is
    carried out at once; ``None`` from ``SCRIPTS`` means the effect is complete."""
    stage = SCRIPTS[card.effect["type"]](state, p, card, step, last, arg, events)
    if type(stage) is tuple:
        state, stage = stage
    if stage is None:
        return _back_to_action(state)
    if stage.kind == "draw" and not _available(state.players[p]) and not stage.sizes:
        return _script(state, p, card, step + 1, stage, arg, events)  # AU-51: nothing to draw
    if stage.kind == "boost":
        return _wait(state, stage, "boost")
    state = _wait(state, evolve(stage, then="card", card=stage.card or card.id, step=step), "effect")
    if listed(state) == [STOP]:  # nothing to decide (0 fields, an empty discard)
        return _complete(state, state.stage, events)
    return state


def _back_to_action(state: State) -> State:
    return evolve(state, phase="action", actor=state.current, stage=None)


Script = Callable[[State, int, Card, int, Stage | None, Mapping[str, Any], list[Event]], Any]


def _wear(state: State, p: int, card: Card, events: list[Event]) -> State:
    n = card.effect.get("wear", 0)
    return gain(state, p, WEAR, n, events)[0] if n else state


def _s_upgrade(state, p, card, step, last, arg, events):  # AU-63
    gear = arg["gear"]
    state = _move_cube(state, p, gear, "discard", "stock", events)
    up = card.effect["upgrade"][gear]
    if up:
        state, _ = gain(state, p, up, 1, events)
    return state, None


def _s_yellow_2(state, p, card, step, last, arg, events):  # AU-64
    if step == 0:
        return pick(p, "", ("active",), "discard", 0, min(card.effect["max_choose"], sum(state.players[p].active)))
    if step == 1 and last.done:
        return pick(p, "", ("discard",), "stock", last.done, last.done)
    return None


def _s_yellow_3(state, p, card, step, last, arg, events):  # AU-65
    if step == 0:
        return pick(p, "", ("active",), "stock", 0, 1)
    if step == 1:
        return pick(p, "", ("active", "discard"), "bag", 0, 1)
    return None


def _s_yellow_4(state, p, card, step, last, arg, events):  # AU-66
    if step == 0:
        return pick(p, "", ("active",), "used", 1, 1)
    if step == 1:
        return pick(p, "", ("discard",), "stock", 0, card.effect["remove_discard_max"])
    return None


def _once(script: Script) -> Script:
    """An effect carried out at once: nothing follows its first step."""
    def run(state, p, card, step, last, arg, events):
        return script(state, p, card, step, last, arg, events) if step == 0 else None
    return run


def _turn_flag(name: str) -> Script:
    """AU-67, AU-88, AU-96: an effect that lasts the turn (the cube lies on the wear table), after its wear."""
    def script(state, p, card, step, last, arg, events):
        state = _wear(state, p, card, events)
        return evolve(state, turn=evolve(state.turn, **{name: True})), None
    return _once(script)


def _s_red_2(state, p, card, step, last, arg, events):  # AU-68, AU-87 (rs_red_2 moves any colour, exactly 1)
    if step:
        return None
    state = _wear(state, p, card, events)
    state = _move_cube(state, p, arg["gear"], "active", "discard", events)
    if card.effect["type"] == "discard_active_gear_move_any":
        return state, move(p, "", GEARS, 1, 1, colour=card.colour)
    return state, move(p, "", (lower(arg["gear"]),), 0, card.effect["max_fields"], colour=card.colour)


def _s_red_3(state, p, card, step, last, arg, events):  # AU-69, AU-86
    if step:
        return None
    state = _wear(state, p, card, events)
    if card.effect["type"] == "discard_gear_next_lower_move":
        return state, move(p, "", (lower(arg["gear"]),), 0, card.effect["max_fields"], colour=card.colour)
    return state, move(p, "", (arg["gear"],), 1, 1, colour=card.colour)


def _s_red_4(state, p, card, step, last, arg, events):  # AU-70
    if step:
        return None
    return move(p, "", GEARS[:GEARS.index(arg["gear"])], 1, 1, colour=card.colour)


def _s_purple_1(state, p, card, step, last, arg, events):  # AU-71
    if step == 0:
        return draw(p, "", lo=1, hi=BIG, until_non_wear=True)
    return _remove_all(state, p, WEAR, "discard", events), None


def _s_remove(state, p, card, step, last, arg, events):  # AU-72, AU-89, AU-90, AU-91
    effect = card.effect
    kind = effect["type"]
    if step == 0:
        top = kinds(state.players[p].discard) if kind == "remove_per_distinct_discard_colours" else effect["max"]
        return pick(p, "", ("discard",), "stock", 0, top)
    if step == 1 and kind == "remove_discard_then_fewest_bonus":
        mine = sum(state.players[p].discard)
        if all(mine < sum(state.players[q].discard) for q in range(len(state.players)) if q != p):
            return pick(p, "", ("discard",), "stock", 0, effect["bonus"])
    if step == 1 and kind == "remove_discard_then_used_wear":
        return _remove_all(state, p, WEAR, "used", events), None
    return None


def _s_purple_3(state, p, card, step, last, arg, events):  # AU-73
    if step:
        return None
    if arg["option"] == "wear":
        return _remove_all(state, p, WEAR, "discard", events), None
    return pick(p, "", ("discard",), "stock", card.effect["n"], card.effect["n"])


def _s_purple_4(state, p, card, step, last, arg, events):  # AU-74
    if step == 0:
        return pick(p, "", ("discard",), "stock", 0, card.effect["max"])
    if step == 1:
        return Stage(kind="buy", then="", who=p, budget=last.budget)
    return None


def _s_blue_1(state, p, card, step, last, arg, events):  # AU-75
    if step:
        return None
    state = _wear(state, p, card, events)
    n = count(state.players[p].discard, card.effect["count_colour"])
    return state, move(p, "", (card.effect["move_colour"],), 0, n, colour=card.colour)


def _s_blue_2(state, p, card, step, last, arg, events):  # AU-76
    if step:
        return None
    state = _wear(state, p, card, events)
    me = state.players[p]
    mine = count(me.active, "blue") + count(me.used, "blue") + count(me.discard, "blue")
    if all(mine > count(state.players[q].discard, "blue") for q in range(len(state.players)) if q != p):
        return state, move(p, "", GEARS, 0, card.effect["max_fields"], colour=card.colour, same=True)
    events.append({"type": "no_effect", "player": seat(state, p), "card": card.id})
    return state, None


def _s_blue_3(state, p, card, step, last, arg, events):  # AU-77
    if step:
        return None
    state = _wear(state, p, card, events)
    return state, move(p, "", ("white",), 0, kinds(state.players[p].discard), colour=card.colour)


def _s_blue_4(state, p, card, step, last, arg, events):  # AU-78
    if step:
        return None
    return _wear(state, p, card, events), pick(p, "", ("discard",), "active", 0, card.effect["max"])


def _s_boost(state, p, card, step, last, arg, events):  # AU-79, AU-119
    if step == 0:
        return draw(p, "", lo=0, hi=card.effect["max_draw"], wear_each=card.effect["wear_per_draw"])
    if state.table.accelerated:
        for q in _others(state, p):
            state = state.with_player(q, deferred_draws=state.players[q].deferred_draws + 1)
        return state, None
    turn = evolve(state.turn, queue=tuple(_others(state, p)))
    return evolve(state, turn=turn), _next_boost(state, turn)


def _next_boost(state: State, turn: Turn) -> Stage | None:
    if not turn.queue:
        return None
    return Stage(kind="boost", then="boost", who=turn.queue[0])


def _s_position_move(state, p, card, step, last, arg, events):  # AU-80, AU-82, AU-93, AU-94
    if step:
        return None
    state = _wear(state, p, card, events)
    effect = card.effect
    kind = effect["type"]
    rank, n = position(state, p), len(state.players)
    if kind == "move_by_position":
        return state, move(p, "", (effect["colour"],), 0, rank + (effect["last_bonus"] if rank == n else 0),
                           colour=card.colour)
    if kind == "move_plus_green_in_discards":
        greens = sum(count(q.discard, "green") for q in state.players)
        return state, move(p, "", (effect["colour"],), 0, effect["base_fields"] + greens, colour=card.colour)
    if kind == "catch_up_move":
        if rank == 1:
            events.append({"type": "no_effect", "player": seat(state, p), "card": card.id})
            return state, None
        hi = effect["not_first_fields"] + (effect["last_bonus"] if rank == n else 0)
        return state, move(p, "", (effect["colour"],), 0, hi, colour=card.colour)
    where = "first" if rank == 1 else "last" if rank == n else "middle"
    return state, move(p, "", tuple(effect["colours_by_position"][where]), 0, effect["max_fields"],
                       colour=card.colour)


def _s_green_3(state, p, card, step, last, arg, events):  # AU-81
    if step == 0:
        return draw(p, "", sizes=(card.effect["draw"],), dst="aside")
    if step == 1:
        return Stage(kind="keep", then="", who=p)
    return None


def _s_rs_yellow_1(state, p, card, step, last, arg, events):  # AU-83
    if step == 0:
        return pick(p, "", ("active",), "stock", 0, sum(state.players[p].active))
    if step == 1 and last.done:
        return pick(p, "", ("discard",), "stock", 0, card.effect["factor"] * last.done)
    return None


def _s_rs_yellow_2(state, p, card, step, last, arg, events):  # AU-84
    if step == 0:
        return draw(p, "", sizes=(card.effect["draw"],))
    if step == 1:
        return pick(p, "", ("active", "discard"), "stock", 1, 1)
    return None


def _s_rs_yellow_3(state, p, card, step, last, arg, events):  # AU-85
    if step == 0:
        state = _move_cube(state, p, card.colour, "used", "stock", events)
        return state, draw(p, "", lo=0, hi=card.effect["max_draw"])
    return None


def _s_adrenaline(state, p, card, step, last, arg, events):  # AU-92
    if step:
        return None
    if arg["option"] == "a":
        return move(p, "", (card.effect["colour"],), 1, card.effect["option_a_fields"], colour=card.colour)
    return evolve(state, turn=evolve(state.turn, adrenaline=state.turn.adrenaline + 1)), None


def _s_rs_blue_1(state, p, card, step, last, arg, events):  # AU-95
    if step:
        return None
    state = evolve(state, turn=evolve(state.turn, advance=state.turn.advance + 1))
    return state, move(p, "", GEARS, 0, card.effect["max_fields"], colour=card.colour, same=True)


def _s_rs_blue_3(state, p, card, step, last, arg, events):  # AU-97
    if step == 0:
        return pick(p, "", ("active",), "discard", 1, 1)
    if step == 1:
        return pick(p, "", ("discard",), "active", 0, card.effect["take_max"], wear_each=card.effect["wear_per_taken"])
    return None


SCRIPTS: dict[str, Script] = {
    "upgrade_gear_from_discard": _once(_s_upgrade),
    "active_to_discard_then_remove_same": _s_yellow_2,
    "remove_active_then_return_to_bag": _s_yellow_3,
    "active_to_used_then_remove_discard": _s_yellow_4,
    "no_decline_wear": _turn_flag("no_wear"),
    "discard_active_gear_move_next_lower": _s_red_2,
    "discard_gear_same_colour_move": _s_red_3,
    "active_gear_lower_colour_move": _s_red_4,
    "draw_until_non_wear_then_remove_discard_wear": _s_purple_1,
    "remove_discard": _s_remove,
    "choose_remove_all_wear_or_n": _s_purple_3,
    "remove_discard_buy_one_by_cost": _s_purple_4,
    "move_per_discard_colour_count": _s_blue_1,
    "blue_majority_move": _s_blue_2,
    "move_white_per_distinct_discard_colours": _s_blue_3,
    "discard_to_active": _s_blue_4,
    "boost_draw": _s_boost,
    "move_by_position": _s_position_move,
    "draw_two_split": _s_green_3,
    "move_plus_green_in_discards": _s_position_move,
    "remove_active_then_double_discard": _s_rs_yellow_1,
    "draw_then_remove_one": _s_rs_yellow_2,
    "remove_self_then_draw": _s_rs_yellow_3,
    "discard_gear_next_lower_move": _s_red_3,
    "discard_active_gear_move_any": _s_red_2,
    "red_line": _turn_flag("red_line"),
    "remove_discard_then_fewest_bonus": _s_remove,
    "remove_discard_then_used_wear": _s_remove,
    "remove_per_distinct_discard_colours": _s_remove,
    "adrenaline": _s_adrenaline,
    "catch_up_move": _s_position_move,
    "overdrive": _s_position_move,
    "move_then_others_advance": _s_rs_blue_1,
    "double_gears": _turn_flag("double_gears"),
    "swap_active_discard": _s_rs_blue_3,
}


# --------------------------------------------------------------------------------------------- turn structure


def _opening_buy_options(state: State) -> list[Action]:
    """AU-13: cubes from the stock for up to the start position's money."""
    p = state.actor
    left = _start_money(state, p) - state.turn.spent
    return [{"type": "done"}, *_buys(state, left)]


def _start_money(state: State, p: int) -> int:
    k = state.table.order.index(p)
    return state.table.track.start_positions[k][2]


def _on_opening_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.actor
    if action["type"] == "buy":
        colour = action["colour"]
        if {"type": "buy", "colour": colour} not in listed(state):
            raise IllegalAction("AU-13", f"{seat(state, p)} cannot buy {colour!r} with "
                                f"${_start_money(state, p) - state.turn.spent} left")
        cost = state.table.cost(colour)
        state = evolve(state, stock=add(state.stock, colour, -1), turn=evolve(state.turn,
                                                                               spent=state.turn.spent + cost))
        events.append({"type": "bought", "player": seat(state, p), "colour": colour, "cost": cost})
        return state.with_player(p, aside=add(state.players[p].aside, colour))
    order = state.table.order
    events.append({"type": "opening_buy_done", "player": seat(state, p),
                   "lost": _start_money(state, p) - state.turn.spent})
    k = order.index(p)
    if k + 1 < len(order):
        return evolve(state, actor=order[k + 1], current=order[k + 1], turn=NEW_TURN)
    for q in order:  # AU-13: only now the bought cubes go into the bags
        player = state.players[q]
        state = state.with_player(q, bag=plus(player.bag, player.aside), aside=EMPTY)
    return _opening_draw(state, order[0])


def _opening_draw(state: State, p: int) -> State:
    """AU-14, AU-116: each player draws 7 into the active area (``NEXT_RACE_DRAW`` in a season's later races)."""
    n = min(NEXT_RACE_DRAW if state.race > 1 else state.table.kit.draw_per_turn, _available(state.players[p]))
    return _wait(evolve(state, current=p, turn=NEW_TURN), draw(p, "opening_draw", sizes=(n,)), "opening_draw")


def _after_opening_draw(state: State, stage: Stage, events: list[Event]) -> State:
    order = state.table.order
    k = order.index(stage.who)
    if k + 1 < len(order):
        return _opening_draw(state, order[k + 1])
    return begin_turn(state, order[0], events)


def _driver_options(state: State) -> list[Action]:
    return [{"type": "driver", "driver": d} for d in state.revealed]


def _on_driver(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-99: the last player in turn order chooses first, then the others in reverse order."""
    p = state.actor
    driver = action["driver"]
    if driver not in state.revealed:
        raise IllegalAction("AU-99", f"{driver!r} is not among the revealed drivers", legal=list(state.revealed))
    state = state.with_player(p, driver=driver)
    events.append({"type": "driver_chosen", "player": seat(state, p), "driver": driver})
    order = state.table.order
    k = order.index(p)
    revealed = tuple(d for d in state.revealed if d != driver)
    if k > 0:
        return evolve(state, revealed=revealed, actor=order[k - 1])
    return evolve(state, revealed=(), phase="opening_buy", actor=order[0], current=order[0])


def begin_turn(state: State, p: int, events: list[Event]) -> State:
    """AU-16, AU-119: a fresh turn; deferred draws and car moves come first."""
    state = evolve(state, current=p, actor=p, turn=NEW_TURN, stage=None, phase="action")
    events.append({"type": "turn", "player": seat(state, p), "round": state.round})
    return _deferred(state, p, events)


def _deferred(state: State, p: int, events: list[Event]) -> State:
    """The entitlements stay on the player until carried out, so a Position printed meanwhile still shows them."""
    player = state.players[p]
    if player.deferred_draws:
        if _available(player):
            return _wait(state, draw(p, "deferred", lo=0, hi=player.deferred_draws), "deferred")
        state = state.with_player(p, deferred_draws=0)
    if player.deferred_moves:
        stage = move(p, "deferred_move", GEARS, 0, player.deferred_moves, mover="car", counts_wear=False,
                     card="advance")
        if step_choices(state, stage):
            return _wait(state, stage, "deferred")
        state = state.with_player(p, deferred_moves=0)
    if state.phase == "action" and state.actor == p and state.stage is None:  # begin_turn's table, nothing owed
        return state
    return evolve(state, phase="action", actor=p, stage=None)


def _driver_ready(state: State, p: int, driver: str) -> bool:
    return state.players[p].driver == driver and driver not in state.turn.drivers_used


def _action_options(state: State) -> list[Action]:
    p = state.current
    player = state.players[p]
    options = _activations(state, p)
    if _driver_ready(state, p, "driver_02") and sum(player.discard):
        options.append({"type": "use_driver", "driver": "driver_02"})
    if _driver_ready(state, p, "driver_03") and sum(player.discard):
        options.append({"type": "use_driver", "driver": "driver_03"})
    options.append({"type": "to_buy"})
    if not state.turn.committed:
        options.append({"type": "pit_stop"})
    return options


def _commit(state: State) -> State:
    return state if state.turn.committed else evolve(state, turn=evolve(state.turn, committed=True))


def _on_action(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    kind = action["type"]
    if kind == "pit_stop":
        if state.turn.committed:
            raise IllegalAction("AU-17", f"{seat(state, p)} has started a standard turn: no pit stop now")
        if set(action) != {"type"}:  # the listed option has no fields: every active wear cube goes, none chosen
            wear = count(state.players[p].active, WEAR)
            raise IllegalAction("AU-54", f"a pit stop returns every active wear cube ({wear}), none is chosen: "
                                f"{dict(action)} has fields", legal=[{"type": "pit_stop"}])
        return _pit_stop(state, p, events)
    if kind == "activate":
        return _activate(state, action, events)
    if kind == "use_driver":
        driver = action.get("driver")
        state = evolve(_commit(state), turn=evolve(state.turn, committed=True,
                                                     drivers_used=state.turn.drivers_used | {driver}))
        events.append({"type": "driver_used", "player": seat(state, p), "driver": driver})
        if driver == "driver_02":  # AU-102
            return _wait(state, pick(p, "to_action", ("discard",), "active", 1, 1, card=driver), "effect")
        return _wait(state, pick(p, "to_action", ("discard",), "bag", 0, 3, card=driver), "effect")  # AU-103
    state = _commit(state)
    events.append({"type": "buy_phase", "player": seat(state, p), "money": money(state, p)})
    return evolve(state, phase="buy")


def _action_refusal(state: State, action: Mapping[str, Any]) -> IllegalAction | None:
    """The rule an action-phase choice that is not listed breaks (None: it is listed, or a pit stop's own check)."""
    p = state.current
    kind = action.get("type")
    if kind == "pit_stop":
        if state.turn.committed:
            return IllegalAction("AU-17", f"{seat(state, p)} has started a standard turn: no pit stop now")
        return None
    if dict(action) in listed(state):
        return None
    if kind == "activate":
        return _why_not(state, p, action)
    if kind == "use_driver":
        return IllegalAction("AU-100", f"{seat(state, p)} cannot use {action.get('driver')!r} now")
    return IllegalAction("AU-20", f"{dict(action)} is not possible now", legal=_action_options(state))


def _why_not(state: State, p: int, action: Mapping[str, Any]) -> IllegalAction:
    """The rule an activation breaks, for the table's screen."""
    colour = action.get("colour")
    if colour not in COLOURS or not count(state.players[p].active, colour):
        return IllegalAction("AU-20", f"{seat(state, p)} has no {colour!r} cube in the active area")
    if colour == WEAR:
        return IllegalAction("AU-62", "brown cubes cannot be activated with this wear card setting")
    if colour in GEARS:
        named = action.get("as", colour)
        if named != colour and not state.turn.red_line:
            return IllegalAction("AU-88", "only a white cube after Rote Linie may act as another colour")
        return IllegalAction(*_why_no_step(state, p, (named,)))
    card = _card(state, colour)
    legal = [{k: v for k, v in a.items() if k != "type"} for a in _card_args(state, p, card)]
    return IllegalAction(card.rule, f"{card.id} cannot be carried out with {dict(action)} (AU-21)", legal=legal)


def _why_no_step(state: State, p: int, colours: tuple[str, ...]) -> tuple[str, str]:
    """AU-28, AU-31, AU-30: why no step of ``colours`` can be taken from the car or a placed cube."""
    stage = Stage(kind="move", then="", who=p, colours=colours)
    barred = _barred(state, stage)
    starts = [state.players[p].segment] + [c.segment for c in state.turn.placed]
    reasons = set()
    for start in starts:
        for entry in entries(state, start):
            target = field_of(state, entry)
            if not set(field_colours(state, target)) & set(colours):
                reasons.add("AU-30")
            elif not _free(state, entry, None):
                reasons.add("AU-28")
            elif target in barred:
                reasons.add("AU-31")
    rule = next((r for r in ("AU-28", "AU-31", "AU-30") if r in reasons), "AU-27")
    return rule, f"no {'/'.join(colours)} field can be entered from the car or a placed cube"


def _stage_why_not(state: State, action: Mapping[str, Any]) -> IllegalAction:
    stage = state.stage
    assert stage is not None
    if stage.kind == "move" and action.get("type") == "step":
        return IllegalAction(*_step_why_not(state, stage, action))
    if stage.kind in ("draw", "boost"):
        return IllegalAction("AU-51", f"{dict(action)} is not a draw that can happen now",
                             legal=_stage_options(state))
    if stage.kind == "buy":
        return IllegalAction("AU-74", f"{dict(action)} is not a cube of cost <= {stage.budget} in the stock",
                             legal=_stage_options(state))
    if action.get("type") == "stop":
        return IllegalAction("AU-21", f"the effect must go on: at least {stage.lo}", legal=_stage_options(state))
    return IllegalAction("AU-21", f"{dict(action)} is not possible in this effect", legal=_stage_options(state))


def _step_why_not(state: State, stage: Stage, action: Mapping[str, Any]) -> tuple[str, str]:
    """AU-27..AU-31: which rule a refused step breaks."""
    to = action.get("to")
    track = state.table.track
    if to not in track.segments:
        return "AU-27", f"no segment {to!r} on this track"
    target = field_of(state, to)
    if target in _barred(state, stage):
        return "AU-31", f"field {target} was already used this turn"
    if not _free(state, to, stage.who if stage.mover == "car" else None):
        return "AU-28", f"{to} holds another car"
    if not set(field_colours(state, target)) & set(stage.colours):
        return "AU-30", f"field {target} is {'/'.join(field_colours(state, target))}, the step needs " \
                        f"{'/'.join(stage.colours)}"
    if any(key[1] != to and field_of(state, key[1]) == target for key in step_choices(state, stage)):
        return "AU-29", f"a cube entering {target} slides to its front-most free segment"
    return "AU-27", f"{to} cannot be entered from there"


def _on_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-35..AU-37, AU-104, AU-105."""
    p = state.current
    kind = action["type"]
    if kind == "buy":
        colour = action.get("colour")
        if {"type": "buy", "colour": colour} not in listed(state):
            raise IllegalAction("AU-36", f"{seat(state, p)} cannot buy {colour!r} with ${money(state, p)}",
                                legal=[o["colour"] for o in _buy_options(state) if o["type"] == "buy"])
        cost = state.table.cost(colour)
        state = evolve(state, stock=add(state.stock, colour, -1),
                        turn=evolve(state.turn, spent=state.turn.spent + cost, drivers_used=state.turn.drivers_used
                                     | {"driver_04"}))
        state = state.with_player(p, used=add(state.players[p].used, colour))
        events.append({"type": "bought", "player": seat(state, p), "colour": colour, "cost": cost})
        return state
    if kind == "use_driver":
        driver = action.get("driver")
        if dict(action) not in listed(state):
            raise IllegalAction("AU-100", f"{seat(state, p)} cannot use {driver!r} now")
        used = state.turn.drivers_used | {driver, "driver_04"}  # driver_04 only at the start of the buy phase
        state = evolve(state, turn=evolve(state.turn, drivers_used=used))
        events.append({"type": "driver_used", "player": seat(state, p), "driver": driver})
        if driver == "driver_04":  # AU-104
            top = min(3, _available(state.players[p]))
            return _wait(state, draw(p, "driver_04", sizes=tuple(range(1, top + 1)), dst="aside", card=driver),
                         "buy")
        return _wait(state, pick(p, "to_buy", ("discard",), "stock", 0, BIG, card=driver), "buy")  # AU-105
    events.append({"type": "unspent", "player": seat(state, p), "lost": money(state, p)})  # AU-37
    return _movement(state, p, events)


def _buy_options(state: State) -> list[Action]:
    p = state.current
    left = money(state, p)
    player = state.players[p]
    options: list[Action] = [{"type": "done"}]
    options += _buys(state, left)
    if _driver_ready(state, p, "driver_04") and _available(player):
        options.append({"type": "use_driver", "driver": "driver_04"})
    if _driver_ready(state, p, "driver_05") and left >= 1 and sum(player.discard):
        options.append({"type": "use_driver", "driver": "driver_05"})
    return options


def _after_driver_04(state: State, stage: Stage, events: list[Event]) -> State:
    if sum(state.players[stage.who].aside):
        return _wait(state, Stage(kind="sort", then="to_buy", who=stage.who), "buy")
    return _to_buy(state, stage, events)


def _to_buy(state: State, stage: Stage | None, events: list[Event]) -> State:
    return evolve(state, phase="buy", actor=state.current, stage=None)


def _movement(state: State, p: int, events: list[Event]) -> State:
    """AU-38, AU-39: the car goes to the furthest cube (a tie is the player's choice)."""
    state = evolve(state, turn=evolve(state.turn, start_rank=position(state, p)))
    placed = state.turn.placed
    if not placed:
        return _movement_bonus(state, p, 0, events)
    along = state.table.track.along
    far, best = -inf, []  # the furthest distance, and the segments of the cubes that far, each once
    for c in placed:
        d = along(c.crossings, c.segment)
        if d > far:
            far, best = d, [c.segment]
        elif d == far and c.segment not in best:
            best.append(c.segment)
    if len(best) > 1:
        return _wait(state, Stage(kind="choose", then="", who=p, choices=tuple(best)), "movement")
    return _drive(state, p, next(c for c in placed if c.segment == best[0]), events)


def _drive(state: State, p: int, cube: Placed, events: list[Event]) -> State:
    state = _car_to(_unstaged(state), p, cube.segment, cube.crossings, events, "furthest_cube")
    state = evolve(state, turn=evolve(state.turn, car_moved=True))
    return _movement_bonus(state, p, 0, events)


def _movement_bonus(state: State, p: int, step: int, events: list[Event]) -> State:
    """AU-40 (``MOVEMENT_BONUS_ORDER``): Adrenalin's 2·g light grey fields, then driver_06's one field."""
    if step == 0 and state.turn.adrenaline:
        g = max(0, state.turn.start_rank - position(state, p))
        events.append({"type": "adrenaline", "player": seat(state, p), "gained_places": g})
        if g:
            stage = move(p, "bonus", ("light_grey",), 0, 2 * g * state.turn.adrenaline, mover="car",
                         card="rs_green_1", step=0)
            if step_choices(state, stage):
                return _wait(state, stage, "movement")
    if step <= 1 and _driver_ready(state, p, "driver_06"):
        state = evolve(state, turn=evolve(state.turn, drivers_used=state.turn.drivers_used | {"driver_06"}))
        stage = move(p, "bonus", GEARS, 0, 1, mover="car", card="driver_06", step=1)
        if step_choices(state, stage):
            return _wait(state, stage, "movement")
    return _wear_phase(state, p, events)


def _after_bonus(state: State, stage: Stage, events: list[Event]) -> State:
    return _movement_bonus(state, stage.who, stage.step + 1, events)


def slipstream(state: State, p: int) -> bool:
    """AU-44: the segment ahead of the car holds another player's car."""
    ahead = state.table.track.segments[state.players[p].segment].ahead
    return ahead is not None and car_at(state, ahead) not in (None, p)


def wear_owed(state: State, p: int) -> int:
    """AU-43: 0 without a car move, in slipstream or under base_red_1; else the highest colour's wear-table value."""
    turn = state.turn
    if not turn.car_moved or slipstream(state, p) or turn.no_wear:
        return 0
    return wear_table_value(state, turn.entered)


def wear_table_value(state: State, fields: frozenset[str]) -> int:
    """AU-42: the wear table's value of the highest gear colour among ``fields`` (0 for none). Each field's own
    value is worked out once per track (and protected start segments): every wear phase asks."""
    key = (state.table.track.id, state.protected)
    values = _FIELD_WEAR.get(key)
    if values is None:
        values = kept(_FIELD_WEAR, key, {}, 1000)
    best = 0
    for f in fields:
        value = values.get(f)
        if value is None:
            value = values[f] = max((GEARS.index(c) + 1 for c in field_colours(state, f) if c in GEARS), default=0)
        if value > best:
            best = value
    return best


_FIELD_WEAR: dict[tuple[str, tuple[str, ...]], dict[str, int]] = {}


def _wear_phase(state: State, p: int, events: list[Event]) -> State:
    """AU-42..AU-45, then driver_01 (AU-101). The table shows the wear phase only when it waits in it: otherwise
    the end phase follows at once (``_end_phase`` sets the phase)."""
    owed = wear_owed(state, p)
    events.append({"type": "wear_phase", "player": seat(state, p), "owed": owed, "slipstream": slipstream(state, p)})
    state, got = gain(state, p, WEAR, owed, events)
    turn = evolve(state.turn, wear_gained=got)
    if got and _driver_ready(state, p, "driver_01"):
        turn = evolve(turn, drivers_used=turn.drivers_used | {"driver_01"})
        state = evolve(state, stage=None, phase="wear", actor=p, turn=turn)
        stage = move(p, "end_phase", ("light_grey",), 0, got, mover="car", counts_wear=False, card="driver_01")
        if step_choices(state, stage):
            return _wait(state, stage, "wear")
        return _end_phase(state, p, events)
    return _end_phase(evolve(state, turn=turn), p, events)


def _pit_stop(state: State, p: int, events: list[Event]) -> State:
    """AU-54: every active wear cube back to the stock, then the end phase."""
    n = count(state.players[p].active, WEAR)
    events.append({"type": "pit_stop", "player": seat(state, p), "wear": n})
    state = _remove_all(state, p, WEAR, "active", [])
    state = evolve(state, turn=evolve(state.turn, pit_stop=True, committed=True))
    return _end_phase(state, p, events)


def _end_phase(state: State, p: int, events: list[Event], *_: Any) -> State:
    """AU-47: driver_08 may remove wear first (AU-108). Both ways set the end phase in the copy they make."""
    player = state.players[p]
    wear_anywhere = count(player.active, WEAR) + count(player.used, WEAR) + count(player.discard, WEAR)
    if _driver_ready(state, p, "driver_08") and wear_anywhere:
        state = evolve(state, turn=evolve(state.turn, drivers_used=state.turn.drivers_used | {"driver_08"}))
        return _wait(state, pick(p, "sweep", ("active", "used", "discard"), "stock", 0, 3, only=(WEAR,),
                                 card="driver_08"), "end")
    return _sweep(state, p, events)


def _sweep(state: State, p: int, events: list[Event]) -> State:
    """AU-47, AU-48: everything to the discard, then draw 7 (driver_07 and driver_09 allow more). The sweep and
    the end phase's draw are one copy of the table: every turn ends here."""
    player = state.players[p]
    player = evolve(player, active=EMPTY, used=EMPTY, discard=plus(player.discard, plus(player.active, player.used)))
    events.append({"type": "swept", "player": seat(state, p)})
    turn = state.turn
    base = state.table.kit.draw_per_turn
    extra = 0
    if player.driver == "driver_07" and turn.wear_gained > 0:
        extra += turn.wear_gained  # AU-107
    if player.driver == "driver_09":
        extra += 2  # AU-109
    avail = _available(player)
    sizes = tuple(dict.fromkeys(min(k, avail) for k in range(base, base + extra + 1)))
    stage = draw(p, "end_draw", sizes=sizes) if avail else None
    state = state.with_seat(p, player, turn=evolve(turn, placed=()), stage=stage, phase="end", actor=p)
    if not avail:
        return _after_end_draw(state, Stage(kind="draw", then="", who=p), events)
    return state


def _after_end_draw(state: State, stage: Stage, events: list[Event]) -> State:
    """AU-110: driver_10 may put drawn cubes back and draw as many again."""
    p = stage.who
    if _driver_ready(state, p, "driver_10") and sum(state.players[p].active):
        state = evolve(state, turn=evolve(state.turn, drivers_used=state.turn.drivers_used | {"driver_10"}))
        return _wait(state, pick(p, "mulligan", ("active",), "discard", 0, BIG, card="driver_10"), "end")
    return _turn_over(state, p, events)


def _after_mulligan(state: State, stage: Stage, events: list[Event]) -> State:
    p = stage.who
    k = min(stage.done, _available(state.players[p]))
    if not k:
        return _turn_over(state, p, events)
    return _wait(state, draw(p, "redrawn", sizes=(k,), card="driver_10"), "end")


def _turn_over(state: State, p: int, events: list[Event]) -> State:
    """AU-49 Sog, then AU-95: the players behind move, best placed first, each followed by Sog."""
    state = sog(_unstaged(state), events)
    n = state.turn.advance
    if n and not state.turn.pit_stop:
        behind = [q for q in ranking(state) if rank_key(state, q) > rank_key(state, p)]
        if state.table.accelerated:
            for q in behind:
                state = state.with_player(q, deferred_moves=state.players[q].deferred_moves + n)
        elif behind:
            state = evolve(state, turn=evolve(state.turn, queue=tuple(behind)))
            return _next_advance(state, events)
    return _end_turn(state, p, events)


def _next_advance(state: State, events: list[Event]) -> State:
    queue = state.turn.queue
    if not queue:
        return _end_turn(state, state.current, events)
    q = min(queue, key=lambda s: rank_key(state, s))
    state = evolve(state, turn=evolve(state.turn, queue=tuple(s for s in queue if s != q)))
    stage = move(q, "advanced", GEARS, 0, state.turn.advance, mover="car", counts_wear=False, card="advance")
    if not step_choices(state, stage):
        return _next_advance(state, events)
    return _wait(state, stage, "advance")


def _after_advance(state: State, stage: Stage, events: list[Event]) -> State:
    return _next_advance(sog(_unstaged(state), events), events)


def _end_turn(state: State, p: int, events: list[Event]) -> State:
    """AU-57: the race ends after the last turn of a round in which a marker reached Finish."""
    order = state.table.order
    state = _unstaged(state)
    last = len(state.table.kit.lap_track) - 1
    if order.index(p) == len(order) - 1:
        if any(player.marker == last for player in state.players):
            return _race_over(state, events)
        state = evolve(state, round=state.round + 1)
    return begin_turn(state, order[(order.index(p) + 1) % len(order)], events)


def placings(state: State) -> list[int]:
    """AU-58, AU-59: finished players by distance (then the inner lane), then the others by AU-19."""
    last = len(state.table.kit.lap_track) - 1
    return sorted(range(len(state.players)), key=lambda p: (state.players[p].marker != last, rank_key(state, p)))


def season_points(place: int, players: int, race: int) -> int:
    """AU-115: first place 4..8 by race, a middle place 3, last place 2; the second of two scores as middle."""
    table = read_data("cards.json")["season_points"]
    if place == 1:
        return table["first"][race - 1]
    if place == players and players > 2:
        return table["last"][race - 1]
    return table["middle"][race - 1]


def season_winner(points: list[int], last_placings: list[int]) -> int:
    """AU-117: the most points; on a tie the tied player who placed better in the last race."""
    return max(range(len(points)), key=lambda p: (points[p], -last_placings.index(p)))


def _race_over(state: State, events: list[Event]) -> State:
    order = placings(state)
    last = len(state.table.kit.lap_track) - 1
    winners = tuple(order[:1]) if state.players[order[0]].marker == last else ()
    events.append({"type": "race_over", "race": state.race, "placings": [seat(state, p) for p in order],
                   "winner": seat(state, order[0])})
    state = evolve(state, placings=tuple(order), results=(*state.results, tuple(order)))
    for p in range(len(state.players)):  # AU-119: entitlements lapse
        state = state.with_player(p, deferred_draws=0, deferred_moves=0)
    if state.table.season:
        for place, p in enumerate(order, start=1):
            points = season_points(place, len(order), state.race)
            state = state.with_player(p, points=state.players[p].points + points)
            events.append({"type": "points", "player": seat(state, p), "points": points,
                           "total": state.players[p].points})
        if state.race < len(state.table.season):
            return _start_sponsors(state, order, events)
        best = season_winner([player.points for player in state.players], order)
        events.append({"type": "season_over", "winner": seat(state, best)})
        return evolve(state, phase="over", winners=(best,), stage=None, actor=best)
    return evolve(state, phase="over", winners=winners, stage=None)


def _next_race(state: State, order: list[int], events: list[Event]) -> State:
    """AU-116: the next track, the placing order as the new turn order, every cube into the bag, draw 7."""
    race = state.race + 1
    kit = state.table.kit
    track = kit.tracks[state.table.season[race - 1]]
    table = evolve(state.table, track=track, order=tuple(order), protected_start=_protected_starts(track.id))
    seats = {p: evolve(state.players[p], bag=state.players[p].owned(), active=EMPTY, used=EMPTY, discard=EMPTY,
                        aside=EMPTY, crossings=0, marker=table.lap_start, segment=track.start_positions[k][1])
             for k, p in enumerate(order)}
    grid = {seats[p].segment for p in order}
    n = len(order)
    state = evolve(state, table=table, players=tuple(seats[p] for p in range(n)), race=race, round=1,
                   protected=tuple(s for s in table.protected_start if s in grid), placings=(),
                   offered=state.deck[:n], deck=state.deck[n:], turn=NEW_TURN)
    events.append({"type": "next_race", "race": race, "track": track.id})
    return _opening_draw(state, order[0])


def _start_sponsors(state: State, order: list[int], events: list[Event]) -> State:
    """AU-113, AU-114: by placings, each player takes a sponsor (or keeps theirs) and carries out its effect for
    their place; every cube of theirs is within reach first (``SPONSOR_POOLING``)."""
    for p in order:
        state = state.with_player(p, discard=state.players[p].owned(), bag=EMPTY, active=EMPTY, used=EMPTY,
                                  aside=EMPTY)
    return _next_sponsor(evolve(state, turn=Turn(queue=tuple(order)), stage=None), events)


def _next_sponsor(state: State, events: list[Event]) -> State:
    queue = state.turn.queue
    if not queue:
        return _next_race(state, list(state.placings), events)
    p = queue[0]
    if not state.offered and state.players[p].sponsor is None:
        return _next_sponsor(evolve(state, turn=Turn(queue=queue[1:])), events)
    return evolve(state, phase="sponsor", actor=p, current=p, stage=None)


def _sponsor_options(state: State) -> list[Action]:
    p = state.actor
    options: list[Action] = [{"type": "sponsor", "sponsor": s} for s in state.offered]
    if state.players[p].sponsor is not None:
        options += [{"type": "keep_sponsor", "remove": s} for s in state.offered] or [{"type": "keep_sponsor"}]
    return options


def sponsor_place(state: State, p: int) -> str:
    """AU-113: ``first``, ``last`` or ``middle`` (in a 2-player race the second place is a middle place, AU-15)."""
    k, n = state.placings.index(p) + 1, len(state.placings)
    return "first" if k == 1 else "last" if k == n and n > 2 else "middle"


def _on_sponsor(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.actor
    if action["type"] == "sponsor":
        state = state.with_player(p, sponsor=action["sponsor"])
        state = evolve(state, offered=tuple(s for s in state.offered if s != action["sponsor"]))
        events.append({"type": "sponsor_taken", "player": seat(state, p), "sponsor": action["sponsor"]})
    else:
        state = evolve(state, offered=tuple(s for s in state.offered if s != action.get("remove")))
        events.append({"type": "sponsor_kept", "player": seat(state, p), "sponsor": state.players[p].sponsor})
    effect = _sponsor_effect(state, p)
    stage = pick(p, "sponsor", ("discard",), "stock", 0, effect["standard_remove"], card=state.players[p].sponsor)
    return _wait(state, stage, "sponsor")


def _sponsor_effect(state: State, p: int) -> dict[str, Any]:
    sponsor = next(s for s in state.table.kit.sponsors if s["id"] == state.players[p].sponsor)
    return sponsor["effects"][sponsor_place(state, p)]


def _after_sponsor(state: State, stage: Stage, events: list[Event]) -> State:
    """AU-114: the standard removal, then the family's special part (F: removals, then $2 each to spend)."""
    p = stage.who
    effect = _sponsor_effect(state, p)
    special, nxt = effect["special"], None
    if stage.step == 0:
        if special == "buy":
            nxt = Stage(kind="buy", then="sponsor", who=p, dst="discard", hi=BIG, budget=effect["money"])
        elif special in ("remove_any", "remove_then_buy"):
            nxt = pick(p, "sponsor", ("discard",), "stock", 0, effect["count"])
        elif special == "remove_wear":
            nxt = pick(p, "sponsor", ("discard",), "stock", 0, effect["count"], only=(WEAR,))
        elif special == "gain_free":
            nxt = pick(p, "sponsor", ("stock",), "discard", 0, effect["count"],
                       only=tuple(c for c in COLOURS if c != WEAR))
        elif special == "wear_per_nonwear_removed" and effect.get("wear_per_nonwear"):
            removed = sum(stage.picked) - count(stage.picked, WEAR)
            nxt = pick(p, "sponsor", ("discard",), "stock", 0, effect["wear_per_nonwear"] * removed, only=(WEAR,))
    elif stage.step == 1 and special == "remove_then_buy" and stage.done:
        nxt = Stage(kind="buy", then="sponsor", who=p, dst="discard", hi=BIG,
                    budget=effect["money_per_removed"] * stage.done)
    if nxt is not None:
        state = _wait(state, evolve(nxt, card=stage.card, step=stage.step + 1), "sponsor")
        if listed(state) != [STOP]:
            return state
        return _after_sponsor(evolve(state, stage=None), state.stage, events)
    return _next_sponsor(evolve(state, stage=None, turn=Turn(queue=state.turn.queue[1:])), events)


def _after_deferred(state: State, stage: Stage, events: list[Event]) -> State:
    return _deferred(evolve(state, stage=None).with_player(stage.who, deferred_draws=0), stage.who, events)


def _after_deferred_move(state: State, stage: Stage, events: list[Event]) -> State:
    state = evolve(state, stage=None).with_player(stage.who, deferred_moves=0)
    return _deferred(sog(state, events), stage.who, events)


def _after_boost(state: State, stage: Stage, events: list[Event]) -> State:
    turn = evolve(state.turn, queue=state.turn.queue[1:])
    state = evolve(state, turn=turn)
    nxt = _next_boost(state, turn)
    if nxt is None:
        return _back_to_action(state)
    return _wait(state, nxt, "boost")


def _continue_card(state: State, stage: Stage, events: list[Event]) -> State:
    card = state.table.kit.action_cards[stage.card]
    return _script(state, state.current, card, stage.step + 1, stage, {}, events)


CONTINUE: dict[str, Callable[[State, Stage, list[Event]], State]] = {
    "card": _continue_card,
    "to_action": lambda s, st, e: _back_to_action(s),
    "to_buy": _to_buy,
    "opening_draw": _after_opening_draw,
    "deferred": _after_deferred,
    "deferred_move": _after_deferred_move,
    "boost": _after_boost,
    "bonus": _after_bonus,
    "end_phase": lambda s, st, e: _end_phase(s, st.who, e),
    "sweep": lambda s, st, e: _sweep(s, st.who, e),
    "end_draw": _after_end_draw,
    "mulligan": _after_mulligan,
    "redrawn": lambda s, st, e: _turn_over(s, st.who, e),
    "advanced": _after_advance,
    "driver_04": _after_driver_04,
    "sponsor": _after_sponsor,
}
"""What follows a completed ``Stage``, by its ``then``."""
BACK_TO = {"to_action": "action", "to_buy": "buy"}
"""The ``then`` of a stage after which the current player's turn goes on in a phase, and that phase (the rules of
``CONTINUE``'s ``to_action`` and ``to_buy``, which ``_complete`` applies in its own copy of the table)."""


# ---------------------------------------------------------------------------------------------------------- the game

STAGE_ACTIONS = ("pick", "stop", "step", "draw", "keep", "sort", "buy", "drive", "decline")
PHASES: dict[str, Phase] = {
    "driver": Phase("AU-99", ("driver",), _driver_options, _on_driver),
    "opening_buy": Phase("AU-13", ("buy", "done"), _opening_buy_options, _on_opening_buy),
    "opening_draw": Phase("AU-14", STAGE_ACTIONS, _stage_options, _on_stage),
    "deferred": Phase("AU-119", STAGE_ACTIONS, _stage_options, _on_stage),
    "action": Phase("AU-20", ("activate", "use_driver", "pit_stop", "to_buy"), _action_options, _on_action),
    "effect": Phase("AU-21", STAGE_ACTIONS, _stage_options, _on_stage),
    "boost": Phase("AU-79", STAGE_ACTIONS, _stage_options, _on_stage),
    "buy": Phase("AU-36", ("buy", "done", "use_driver", *STAGE_ACTIONS), lambda s: _stage_options(s) if s.stage
                 else _buy_options(s), lambda s, a, e: _on_stage(s, a, e) if s.stage else _on_buy(s, a, e)),
    "movement": Phase("AU-38", STAGE_ACTIONS, _stage_options, _on_stage),
    "wear": Phase("AU-43", STAGE_ACTIONS, _stage_options, _on_stage),
    "end": Phase("AU-48", STAGE_ACTIONS, _stage_options, _on_stage),
    "advance": Phase("AU-95", STAGE_ACTIONS, _stage_options, _on_stage),
    "sponsor": Phase("AU-113", ("sponsor", "keep_sponsor", *STAGE_ACTIONS),
                     lambda s: _stage_options(s) if s.stage else _sponsor_options(s),
                     lambda s, a, e: _on_stage(s, a, e) if s.stage else _on_sponsor(s, a, e)),
    "over": Phase("AU-57", (), no_options),
}


def listed(state: State) -> list[Action]:
    """Every legal option of ``state``, listed once per state: the rules look at a new table's options to see
    whether anything is left to decide, and the prompt, the bots and ``apply`` ask again. Callers must not change
    the list."""
    key = id(state)
    known = _LISTED.get(key)
    if known is not None and known[0] is state:
        return known[1]
    options = PHASES[state.phase].options(state)
    kept(_LISTED, key, (state, options), LISTED_KEPT)
    return options


_LISTED: dict[int, tuple[State, list[Action]]] = {}
"""``listed`` by the state's identity; each entry holds its state, so an id is not reused while it is here."""
LISTED_KEPT = 16
"""How many tables ``_LISTED`` keeps: those of one decision (the table, and those a greedy bot played out) are
asked again, older ones never. Keeping them longer (256) kept thousands of objects alive past the garbage
collector's young generation, and it was 4 % of a greedy race."""


def _action_key(action: Any) -> tuple[Any, ...] | None:
    """An action as a dict key (types included: ``True`` is not the roll 1, a tuple is not a list of dice); None
    for anything that is not a plain dict of plain values."""
    if type(action) is not dict:
        return None
    for value in action.values():  # a loop, not all(...): this runs for every action and every option rated
        if type(value) is not str:
            break
    else:
        return tuple(action.items())
    key = []
    for name, value in action.items():
        kind = type(value)
        if kind is list:
            if not all(type(v) is str for v in value):
                return None
            value = tuple(value)
        elif kind not in (str, int, bool, float) and value is not None:
            return None
        key.append((name, kind, value))
    key.sort()
    return tuple(key)


_APPLIED: list[tuple[Any, dict[tuple[Any, ...], tuple[State, list[Event]]]]] = [(None, {})]
"""The last table and its applied actions' outcomes (one tuple, read and replaced whole)."""


def outcome(state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """``Automobiles.apply``, kept for the last table: ``rate`` only looks at the table after, and ``apply`` takes
    the kept outcome of the option the bot chose."""
    key = _action_key(action)
    if key is None:
        return GAME._apply(state, action)
    known = _APPLIED[0]
    if known[0] is not state:
        known = _APPLIED[0] = (state, {})
    found = known[1].get(key)
    if found is None:
        found = known[1][key] = GAME._apply(state, action)
    return found


class Automobiles:
    id = "automobiles"
    title = "Automobiles"
    dice_set = "automobiles"
    die_faces = COLOURS
    """The camera's labels: the cube colours of cubes.json (a draw is read as colours, AU-52)."""

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> State:
        return setup(options, rng)

    def options(self, state: State) -> list[Action]:
        return listed(state)

    def prompt(self, state: State) -> Prompt:
        if state.phase == "over":
            return Prompt(actor=None, phase="over", info={"winners": [seat(state, p) for p in state.winners]})
        stage, colours = state.stage, state.table.colours  # colours[p]: seat(state, p)
        if stage is not None:
            info = {"turn": colours[state.current], "stage": stage.kind, "card": stage.card, "done": stage.done,
                    "at_most": stage.hi}
        else:
            info = {"turn": colours[state.current]}
            if state.phase == "buy":
                info["money"] = money(state, state.current)
        return Prompt(colours[state.actor], state.phase, list(listed(state)), info)

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """An action is legal when it is one of the listed options; a draw is checked against the bag (AU-52).

        A greedy bot tries options (``outcome`` keeps what they gave, the rules are pure) and then plays the one it
        chose, which is the same question again: the kept outcome is taken out and handed over as it is, so the
        caller owns its events without a copy, and an action nobody tried is worked out without being kept."""
        known = _APPLIED[0]
        if known[0] is state:
            key = _action_key(action)
            found = known[1].pop(key, None) if key is not None else None
            if found is not None:
                return found
        return self._apply(state, action)

    def _apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        phase = state.phase
        step = PHASES[phase]
        kind = action.get("type") if type(action) is dict or isinstance(action, Mapping) else None
        if kind in step.actions:
            if phase == "action":
                if kind != "pit_stop" and (action if type(action) is dict else dict(action)) in listed(state):
                    events: list[Event] = []
                    return step.handler(state, action, events), events
                refusal = _action_refusal(state, action)
                if refusal is not None:
                    raise refusal
            else:
                bare = action
                if "dice" in action or type(action) is not dict:  # the listed option: no dice, a plain dict
                    bare = {k: v for k, v in action.items() if k != "dice"}
                    if "dice" in action and "roll" not in bare and isinstance(action["dice"], list):
                        bare["roll"] = len(action["dice"])
                        action = {**action, "roll": bare["roll"]}
                if bare not in listed(state):
                    if state.stage is not None:
                        raise _stage_why_not(state, action)
                    raise IllegalAction(step.rule, f"{seat(state, state.actor)} cannot {dict(action)} now",
                                        legal=listed(state))
                events = []
                return step.handler(state, action, events), events
        return apply_in_phase(state, action, PHASES, seat(state, state.actor))

    def roll_dice(self, state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
        return roll_dice(state, option, rng)

    def view(self, state: State) -> dict[str, Any]:
        return view(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scenario(self, position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
        """A rule dispute: one player's decisions from a position (``scenario.py``; formats in the README)."""
        from companion.games.automobiles.scenario import run_scenario

        return run_scenario(position, turn)

    def seats(self, state: State) -> dict[str, bool]:
        return dict(zip(state.table.colours, state.table.bots, strict=True))

    def score(self, state: State, actor: str) -> float:
        return score(state, actor)

    def rate(self, state: State, option: Mapping[str, Any], actor: str) -> float | None:
        return rate(state, option, actor)


GAME = Automobiles()
GEAR_WEIGHTS = {"white": 1, "light_grey": 2, "dark_grey": 3, "black": 4}
"""``score``: what a gear cube owned is worth to a greedy bot."""
SCORE_NEUTRAL_EFFECTS = frozenset({
    "active_to_discard_then_remove_same", "remove_active_then_return_to_bag", "active_to_used_then_remove_discard",
    "remove_active_then_double_discard", "draw_then_remove_one", "remove_self_then_draw",
    "active_gear_lower_colour_move", "draw_two_split", "remove_discard", "remove_per_distinct_discard_colours",
    "remove_discard_then_fewest_bonus",
})
"""Action-card effects that change nothing ``score`` looks at (wear and gear cubes owned, the car, placed cubes)
except through the player's own decisions: no wear, no cube gained or removed before a decision (rs_yellow_3 puts
its own yellow cube back, which ``score`` does not count). Each step waits for a pick, a step or a draw, or is
skipped when there is nothing to decide, so ``rate`` scores their activation, and a pick or stop inside them, from
the table as it is. A card whose effect gains wear or moves cubes on its own is not listed."""


def score(state: State, actor: str, cube: str = "", more: int = 0, placed: tuple[str, int] | None = None) -> float:
    """Greedy-bot heuristic: distance, cubes on the track ahead of the car, fewer wear cubes, higher gears owned.

    ``rate`` passes what an option would change without playing it out, for the player who decides: ``more``
    cubes of colour ``cube`` owned (negative: fewer; bought, put back into the stock, gained wear) and ``placed``,
    one more cube on the track (segment, crossings) in that player's turn."""
    p = state.table.colours.index(actor)
    if state.phase == "over":
        return 1000.0 if p in state.winners else -1000.0
    here, far, wear, gears = _standing(state, p)
    ahead = 0.0
    if p == state.current:
        if placed is not None and p == state.actor:
            far = max(far, state.table.track.along(placed[1], placed[0]))
        if far > -inf:
            ahead = far - here
    if more and p == state.actor:
        if cube == WEAR:
            wear += more
        else:
            gears += GEAR_WEIGHTS.get(cube, 0) * more
    return 10 * here + 9 * ahead - 3 * wear + 0.5 * gears


def _standing(state: State, p: int) -> tuple[float, float, int, int]:
    """What ``score`` reads of the table for ``p``: the car's distance, the furthest placed cube's (-inf for none;
    only the current player places cubes), wear cubes and weighted gear cubes owned. The last answer is kept (one
    tuple, read and replaced whole): a greedy bot rates most options of a table from the table as it is."""
    last = _STANDING[0]
    if last[0] is state and last[1] == p:
        return last[2]
    player = state.players[p]
    track = state.table.track
    here = track.along(player.crossings, player.segment)  # distance(state, p)
    far = -inf
    if p == state.current:
        for c in state.turn.placed:  # a loop, not max(...): no generator for every table rated
            far = max(far, track.along(c.crossings, c.segment))
    bag, active, used, discard, aside = player.bag, player.active, player.used, player.discard, player.aside
    wear = bag[-1] + active[-1] + used[-1] + discard[-1] + aside[-1]
    gears = (bag[0] + active[0] + used[0] + discard[0] + aside[0]
             + 2 * (bag[1] + active[1] + used[1] + discard[1] + aside[1])
             + 3 * (bag[2] + active[2] + used[2] + discard[2] + aside[2])
             + 4 * (bag[3] + active[3] + used[3] + discard[3] + aside[3]))
    found = (here, far, wear, gears)
    _STANDING[0] = (state, p, found)
    return found


_STANDING: list[tuple[Any, int, tuple[float, float, int, int]]] = [(None, -1, (0.0, -inf, 0, 0))]


def rate(state: State, option: Mapping[str, Any], actor: str) -> float | None:
    """``score`` of the table after ``option``, the same number as playing it out (``apply``), but without playing
    out the options that change nothing ``score`` looks at or change it in a way known beforehand: an activation of
    a gear or wear cube or of a card in ``SCORE_NEUTRAL_EFFECTS`` (and a pick or stop inside such a card), or the
    step to the buy phase only wait for the next decision; a bought or picked cube only adds or removes itself; a
    pit stop that ends in the draw (or driver_08's choice) only returns the active wear; and a cube's last step in a
    gear's or such a card's move places the cube where it lands (with Rote Linie's wear). None for a draw: the bot
    plays it out with its own sample draw (``bots.roll``), so its choices stay those of a bot that plays out every
    option (``GreedyBot``'s hook). An option rated here is played out only if the bot chooses it."""
    if "roll" in option:
        return None
    kind = option["type"]
    stage = state.stage
    phase = state.phase
    if phase == "action":  # most options a greedy bot rates: the table as it is
        if kind == "activate":
            colour = option["colour"]
            if colour in GEAR_SET or colour == WEAR or _card(state, colour).effect["type"] in SCORE_NEUTRAL_EFFECTS:
                return _score_as_is(state, actor)
        elif kind == "to_buy" or kind == "use_driver":
            return _score_as_is(state, actor)
        elif kind == "pit_stop" and not state.turn.placed:
            player = state.players[state.current]
            wear = count(player.active, WEAR)
            waits = sum(player.bag) + sum(player.discard) + sum(player.active) + sum(player.used) - wear > 0 or (
                _driver_ready(state, state.current, "driver_08")
                and count(player.used, WEAR) + count(player.discard, WEAR))
            if waits:  # the end phase waits for the draw or driver_08's pick: nothing else has changed
                return score(state, actor, WEAR, -wear)
    elif kind == "buy" and stage is None and phase in ("buy", "opening_buy"):
        return score(state, actor, option["colour"], 1)
    if stage is None:
        return score(outcome(state, option)[0], actor)
    neutral = stage.then == "card" and state.table.kit.action_cards[stage.card].effect["type"] in SCORE_NEUTRAL_EFFECTS
    if kind == "step" and (stage.then == "to_action" or neutral) and stage.mover == "cube" \
            and stage.done + 1 >= stage.hi:
        key = (option.get("from", ""), option["to"], option.get("colour", ""))
        crossings, target = step_choices(state, stage)[key]
        fields = (*stage.fields, target)
        red_line = stage.card == "red_line" and any("white" not in field_colours(state, f) for f in fields)
        gained = min(1, count(state.stock, WEAR)) if red_line else 0  # AU-88, AU-22
        return score(state, actor, WEAR, gained, placed=(option["to"], crossings))
    if neutral and stage.kind == "pick" and not stage.wear_each:
        if kind == "stop":
            return _score_as_is(state, actor)
        if kind == "pick":
            return score(state, actor, option["colour"], (option["from"] == "stock") - (stage.dst == "stock"))
    return score(outcome(state, option)[0], actor)


def _score_as_is(state: State, actor: str) -> float:
    """``score(state, actor)``, kept for the last table: ``rate`` gives most options of a table this number."""
    last = _AS_IS[0]
    if last[0] is state and last[1] == actor:
        return last[2]
    found = score(state, actor)
    _AS_IS[0] = (state, actor, found)
    return found


_AS_IS: list[tuple[Any, str, float]] = [(None, "", 0.0)]


def roll_dice(state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
    """What a bot's draw shows: ``roll`` cubes drawn blind from the actor's bag, the discard refilling it (AU-50)."""
    player = state.players[state.actor]
    bag, discard = as_list(player.bag), as_list(player.discard)
    k = option["roll"]
    if len(bag) >= k:
        return sorted(rng.sample(bag, k))
    return sorted(bag + rng.sample(discard, k - len(bag)))


def view(state: State) -> dict[str, Any]:
    """Everything a dashboard shows, as JSON (bags as counts unless the open-bags variant is on, AU-120).

    With open bags it also gives the odds of each player's next draw of 7 (the end phase's, AU-48: the discard it
    is refilled from then holds the active and used areas too) and of the draw the table waits for now: a closed
    bag's odds would tell its contents. ``landing_wear`` is the wear table's value (AU-42) the turn reaches if the
    cube or car the table moves now lands there, per listed destination.
    """
    from companion.games.automobiles.present import draw_odds

    table = state.table
    lap_track = table.kit.lap_track
    listed = GAME.options(state) if state.phase != "over" else []
    players = []
    for p, player in enumerate(state.players):
        entry = {"colour": table.colours[p], "name": table.names[p], "bot": table.bots[p],
                 "bag_count": sum(player.bag), "active": as_dict(player.active), "used": as_dict(player.used),
                 "discard": as_dict(player.discard), "aside": as_dict(player.aside), "segment": player.segment,
                 "crossings": player.crossings, "marker": lap_track[player.marker],
                 "finished": player.marker == len(lap_track) - 1, "distance": distance(state, p),
                 "position": position(state, p), "driver": player.driver, "sponsor": player.sponsor,
                 "points": player.points,
                 "deferred": {"draws": player.deferred_draws, "moves": player.deferred_moves}}
        entry["slipstream"] = slipstream(state, p)
        if table.open_bags:
            entry["bag"] = as_dict(player.bag)
            entry["odds"] = draw_odds(entry["bag"], table.kit.draw_per_turn,
                                      as_dict(plus(player.discard, plus(player.active, player.used))))
        players.append(entry)
    turn = state.turn
    stage = state.stage
    landing_wear = {}
    if stage is not None and stage.kind in ("move", "choose") and stage.who == state.current and stage.counts_wear \
            and state.phase in ("effect", "movement"):
        landing_wear = {o["to"]: wear_table_value(state, turn.entered | {field_of(state, o["to"])})
                        for o in listed if o["type"] in ("step", "drive")}
    draw = next((o for o in listed if "roll" in o), None)
    next_draw = None
    if draw is not None and table.open_bags:
        drawer = state.players[state.actor]
        next_draw = {"player": table.colours[state.actor],
                     **draw_odds(as_dict(drawer.bag), draw["roll"], as_dict(drawer.discard))}
    return {
        "game": "automobiles", "track": table.track.id, "race": state.race, "round": state.round,
        "phase": state.phase, "current": None if state.phase == "over" else table.colours[state.current],
        "actor": None if state.phase == "over" else table.colours[state.actor],
        "order": [table.colours[p] for p in table.order], "lap_track": list(lap_track),
        "cards": {colour: card.id for colour, card in table.cards.items()},
        "costs": {c: table.cost(c) for c in COLOURS if table.cost(c) is not None},
        "values": {c: table.value(c) for c in COLOURS},
        "variants": {"weaving": table.weaving, "accelerated": table.accelerated, "open_bags": table.open_bags,
                     "drivers": table.drivers, "wear_activation": table.wear_activation},
        "season": list(table.season), "stock": as_dict(state.stock), "players": players,
        "placed": [{"colour": c.colour, "segment": c.segment} for c in turn.placed],
        "turn": {"committed": turn.committed, "no_wear": turn.no_wear, "red_line": turn.red_line,
                 "double_gears": turn.double_gears, "adrenaline": turn.adrenaline, "advance": turn.advance,
                 "entered": sorted(turn.entered), "money": money(state, state.current) if state.phase == "buy"
                 else _start_money(state, state.actor) - turn.spent if state.phase == "opening_buy" else None,
                 "wear_table": wear_table_value(state, turn.entered), "pit_stop": turn.pit_stop},
        "landing_wear": landing_wear, "next_draw": next_draw,
        "stage": None if state.stage is None else {"kind": state.stage.kind, "card": state.stage.card,
                                                   "done": state.stage.done, "at_most": state.stage.hi},
        "revealed_drivers": list(state.revealed), "sponsors_offered": list(state.offered),
        "placings": [table.colours[p] for p in state.placings],
        "winners": [table.colours[p] for p in state.winners], "over": state.phase == "over",
        "cubes_total": sum(total_cubes(state)),
    }
