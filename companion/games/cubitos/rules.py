"""Cubitos rules (``../shared/games/cubitos/RULES.md``): a dice-building race, pure and over the data files.

Every die of the box has an id; at every moment it is in exactly one place: the stock, or one player's draw, ready,
active or rest zone (the lead die is never in the stock, CU-52). Everyone shares one tray, so the roll section is
played one roller at a time (CU-23) and the race section phase by phase in lead order (CU-24): the table always
waits for exactly one player's decision, and ``prompt`` lists every legal one.

A roll names the dice it shows as ``"<die type>/<face label>"`` (``"grey_dark/step1"``), as the camera reads them;
which dice a player took from the draw zone to refill (CU-27) is what the roll shows beyond the ready zone.

This module is the core of the rules: set-up, refill, rolls, danger and busts, the fan track, plain faces, movement
with water, shortcuts, jets, laps and chained tracks, bonuses, buying, resting, the lead die, the end and the
winner with tie rounds. Card abilities (CU-92..CU-139) are not played here yet; see the package README.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from itertools import product
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from companion.games.base import (
    Action,
    Event,
    Handler,
    IllegalAction,
    Phase,
    Prompt,
    apply_in_phase,
    no_options,
    seat_is_bot,
)
from companion.games.cubitos.abilities import (
    ANY_TIME,
    ability_options,
    ability_roll_dice,
    adjust,
    adjust_options,
    again_effect,
    give_back_targets,
    offers,
    owed,
    placing,
    roll_counts,
    roll_in,
    support_options,
    take_targets,
    turned,
    usable,
    use_ability,
)
from companion.games.cubitos.kit import LEAD, Card, Kit, Race, Space, Track, load_kit
from companion.games.cubitos.state import (
    DANGER_THRESHOLD,
    FIRST,
    ZONES_READ,
    Player,
    State,
    Table,
    advance_fans,
    altered,
    changed,
    dice_by_type,
    draw_limit,
    face,
    field_defaults,
    from_stock,
    give_back,
    in_stock,
    labels,
    lead_order,
    lines_passed,
    parse_roll,
    reach_finish,
    receive_bonuses,
    replaced,
    seat,
    shown_faces,
    spaces_left,
    stepped,
    take,
    track_of,
    with_player,
)

_SECOND, _PATH, _BORROWED = itemgetter(1), attrgetter("path"), attrgetter("borrowed")
"""Getters for ``map``, ``filter`` and ``sorted`` on a bot race's hot paths (``state.FIRST`` beside them): in
Python 3.11 every run of a comprehension, generator expression or lambda makes a new function, and a generator is
resumed for each item: taking them off the hot paths was 3.5 % of a race's instructions (issue 16's ninth pass)."""

PLAYER_COLOURS = ("blue", "yellow", "red", "white")
"""CU-1."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4
RED_LINE_SNAPSHOT = "round_start"
"""CU-26 **Decision**: the red-line bonus counts the runners as they stood when the round began."""
REFILL_REMOVES_EXCESS = False
"""CU-27 **Decision**: surplus dice already in the ready zone stay."""
CREDIT_TO_COIN = 1
"""CU-42: coins for one credit returned, any time in phases 5-8."""
COINS_PER_STEP = 4
"""CU-47."""
MAX_BUYS, BUYS_DIFFERENT = 2, True
"""CU-48."""
GREY_BUYABLE = False
"""CU-49 **Decision**."""
USES_AT: dict[str, tuple[str, ...]] = {
    "choice": ("any",), "busting": ("bust",), "support": ("phase5", *ANY_TIME), "move": ANY_TIME, "buy": ANY_TIME,
    "end6": ("end6",), **{phase: (phase,) for phase in ("push", "event", "before7")},  # named for their moment
}
"""Phase -> the moments (``abilities.WINDOWS``) at which its ability options are listed and used."""
STEPS_EXPIRE_AT_ROUND_END = True
"""CU-50 **Decision**: unused steps and water entries are lost with the coins."""
LEAD_DIE_ROLL_OPTIONAL = False
"""CU-53 **Decision**: the lead die is rolled with the ready zone like every other die."""
LEAD_DIE_COLOUR = "black"
"""CU-54."""
RACE_SECTION_ORDER = "phase_by_phase"
"""CU-24 **Decision**: everyone does phase 5 in lead order, then 6, then 7, then 8."""
START_SPECIAL_AFTER_PURCHASES = True
"""CU-62 **Decision**: credits and coins may be turned into steps before the starting space's special resolves."""
GIVE_BACK_BONUS_OPTIONAL, TAKE_DIE_BONUS_OPTIONAL = True, True
"""CU-66 **Decision**: each give-back or take-die symbol may be declined."""
DEFAULT_LAPS, LAP_TRANSFER_COST = 1, 0
"""CU-141."""
CHAIN_TRANSFER_COST = 1
"""CU-142 **Decision**: steps to go from one track's finish to the next track's start."""
ROLL_ORDER_COUNTS_LEAD_DIE = True
"""CU-23 **Decision**."""
LEAD_DIE_NEVER_IN_DRAW = True
"""CU-55 **Decision**."""
GAINED_DICE_TO = "rest"
"""CU-66, CU-136: free and bought dice go to the rest zone."""
TIEBREAK_ONLY_TIED = True
"""CU-148 **Decision**: only the tied players play the extra round."""
CONVERTING_IS_NOT_TAKING = True
"""CU-90 **Decision**: credits returned for coins are not credits taken."""

def _excluded(state: State, p: int, die: int) -> bool:
    return state.table.colour(die) in state.players[p].refill_exclude


def refill_bounds(state: State, p: int) -> tuple[int, int, bool]:
    """CU-27..CU-29: (fewest, most) dice the refill may move to the ready zone, and whether the rest zone is
    recycled into the draw zone first.

    Normally exactly up to the limit (the lead die excluded), as far as dice exist. Colours excluded by last
    round's abilities (Dieter, Handkäs) neither count nor fill the limit, and any number of them may come along
    from the draw zone; with no limit (Uppercut-Uwe) any number of dice come from any zone.
    """
    global _last_bounds
    last = _last_bounds  # read once: another thread may ask about another state meanwhile
    if last is not None and last[0] is state and last[1] == p:
        return last[2]
    bounds = _refill_bounds(state, p)
    _last_bounds = (state, p, bounds)
    return bounds


_last_bounds: tuple[State, int, tuple[int, int, bool]] | None = None
"""The last answer of ``refill_bounds``: a roll's options, a bot's dice and the roll itself ask for it in turn."""


def _refill_bounds(state: State, p: int) -> tuple[int, int, bool]:
    player = state.players[p]
    if player.refilled:
        return 0, 0, False
    if player.refill_no_limit:
        return 0, len(player.draw) + len(player.rest), False
    if not player.refill_exclude:  # the usual round, counted without asking each die
        need = max(0, draw_limit(state, p) - len(player.ready) + (state.table.lead_die in player.ready))
        recycle = need > len(player.draw)
        base = min(need, len(player.draw) + (len(player.rest) if recycle else 0))
        return base, base, recycle
    k = sum(die != state.table.lead_die and not _excluded(state, p, die) for die in player.ready)
    need = max(0, draw_limit(state, p) - k)
    in_draw = sum(not _excluded(state, p, d) for d in player.draw)
    recycle = need > in_draw
    pool = list(player.draw) + (list(player.rest) if recycle else [])
    base = min(need, sum(not _excluded(state, p, d) for d in pool))
    return base, base + sum(_excluded(state, p, d) for d in pool), recycle


def refill_count(state: State, p: int) -> int:
    """CU-27: the dice the refill must move (the fewest of ``refill_bounds``)."""
    return refill_bounds(state, p)[0]


def ready_count(state: State, p: int) -> int:
    """CU-23: dice in the ready zone (after the refill, the lead die counted)."""
    return len(state.players[p].ready) + refill_count(state, p)


def next_roller(state: State) -> int | None:
    """CU-23: among those still rolling, the most dice in the ready zone; a tie goes to the first in lead order.

    The refill of a player yet to roll is kept with the player (and the round's red lines and racers,
    ``draw_limit``): every push or pass asks for it again, and that player's table has not changed meanwhile."""
    roller, most = None, -1
    waiting = _waiting
    for p in lead_order(state):
        player = state.players[p]
        if not player.done_rolling:
            count = len(player.ready)
            if not player.refilled:  # ready_count
                known = waiting.get(p)
                if known is None or known[0] is not player or known[1] is not state.lines \
                        or known[2] is not state.racing:
                    known = waiting[p] = (player, state.lines, state.racing, refill_bounds(state, p)[0])
                count += known[3]
            if count > most:
                roller, most = p, count
    return roller


_waiting: dict[int, tuple[Player, tuple[int, ...], tuple[int, ...], int]] = {}
"""Seat -> (the player, the round's red lines and racers, the dice its refill moves) as ``next_roller`` last saw
them."""


# ---------------------------------------------------------------------------------------------------------- set-up


def _players(options: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    players = options.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction("CU-1", f"a race needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players!r}",
                            legal=f"players: a list of {MIN_PLAYERS}-{MAX_PLAYERS} {{name, colour}}")
    seats = []
    for i, player in enumerate(players):
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str) or not player["name"].strip():
            raise IllegalAction("CU-1", f"players[{i}] needs a name, got {player!r}")
        colour = player.get("colour", PLAYER_COLOURS[i])
        if colour not in PLAYER_COLOURS:
            raise IllegalAction("CU-1", f"players[{i}].colour must be one of {', '.join(PLAYER_COLOURS)}, got "
                                f"{colour!r}", legal=list(PLAYER_COLOURS))
        seats.append((colour, player["name"].strip(), seat_is_bot(player, f"players[{i}]", "CU-1")))
    colours = [c for c, _, _ in seats]
    if len(set(colours)) != len(colours):
        raise IllegalAction("CU-1", f"each player needs their own colour, got {colours}")
    return seats


def _race(kit: Kit, options: Mapping[str, Any]) -> tuple[Race, dict[str, Card], tuple[Track, ...], int]:
    race_id = options.get("race", "race_1")
    if race_id not in kit.races:
        raise IllegalAction("CU-15", f"no race {race_id!r}", legal=sorted(kit.races))
    race = kit.races[race_id]
    chosen = race.cards if race.cards is not None else options.get("cards")
    if not isinstance(chosen, Mapping) or set(chosen) != set(kit.ability_colours):
        raise IllegalAction("CU-143", f"{race_id} needs one card of each colour {', '.join(kit.ability_colours)}, "
                            f"got {chosen!r}", legal="cards: {colour: card id}")
    cards = {}
    for colour, card_id in chosen.items():
        card = kit.cards.get(card_id)
        if card is None or card.colour != colour:
            raise IllegalAction("CU-143", f"cards.{colour}: expected a {colour} card, got {card_id!r}")
        cards[colour] = card
    segments = options.get("tracks", race.segments or [options.get("track", "verflinkst_und_zugenaeht")])
    if isinstance(segments, str):
        segments = [segments]
    if not isinstance(segments, list | tuple) or not segments or any(t not in kit.tracks for t in segments):
        raise IllegalAction("CU-15", f"tracks must name tracks of races.json, got {segments!r}",
                            legal=sorted(kit.tracks))
    return race, cards, tuple(kit.tracks[t] for t in segments), race.laps


def setup(options: Mapping[str, Any], rng: random.Random, kit: Kit | None = None) -> State:
    """CU-14..CU-19: seats clockwise as listed, start dice in the draw zones, the grey stock, the lead die."""
    kit = kit or load_kit()
    seats = _players(options)
    race, cards, segments, laps = _race(kit, options)
    types: list[str] = []
    for die_type in kit.dice.values():
        types.extend([die_type.id] * die_type.count_total)
    lead_die = types.index(LEAD)
    by_type: dict[str, list[int]] = {}
    for die, die_type in enumerate(types):
        by_type.setdefault(die_type, []).append(die)
    players = []
    for _ in seats:
        draw = []
        for die_type, count in kit.start_dice.items():
            draw.extend(by_type[die_type][:count])
            del by_type[die_type][:count]
        players.append(Player(draw=tuple(draw), space=segments[0].start))
    in_box = []
    for die_type, dice in by_type.items():
        if die_type != LEAD:
            in_box += dice
    stock = frozenset(in_box)
    lead = options.get("lead", 0)
    if not isinstance(lead, int) or isinstance(lead, bool) or not 0 <= lead < len(seats):
        raise IllegalAction("CU-18", f"lead must be a seat 0..{len(seats) - 1}, got {lead!r}")
    players[lead] = altered(players[lead], ready=(lead_die,))
    table = Table(kit=kit, race=race, cards=cards, segments=segments, laps=laps,
                  colours=tuple(c for c, _, _ in seats), names=tuple(n for _, n, _ in seats),
                  bots=tuple(b for _, _, b in seats), types=tuple(types), lead_die=lead_die)
    racing = tuple(range(len(seats)))
    state = State(table=table, players=tuple(players), stock=stock, lead=lead, round=1, phase="roll", current=lead,
                  racing=racing, lines=(0,) * len(seats))
    return replaced(state, current=next_roller(state))


# ------------------------------------------------------------------------------------------------------ roll section


def _roll_options(state: State) -> list[Action]:
    """CU-30: roll the ready zone and the refill; a refill of a choosable size gives one option per size."""
    p = state.current
    low, high, _ = refill_bounds(state, p)
    ready = len(state.players[p].ready)
    if low == high:  # the usual refill, of one size (a comprehension makes a function each time it runs)
        return [{"type": "roll", "roll": ready + low}]
    return [{"type": "roll", "roll": ready + n} for n in range(low, high + 1)]


def roll_dice(state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
    """What a bot's roll shows: the ready zone plus a random refill of the option's size (CU-27..CU-29), each die
    on a random face."""
    table, p = state.table, state.current
    player = state.players[p]
    extra = option["roll"] - len(player.ready)
    if extra == 0:  # a push, or a refill of nothing: the ready zone alone
        chosen = []
    elif player.refill_no_limit:
        chosen = rng.sample([*player.draw, *player.rest], extra)
    else:
        low, _, recycle = refill_bounds(state, p)
        counted, excluded = _split_excluded(state, p, player.draw)
        if recycle:  # all of the draw zone first (CU-28), then from the recycled rest zone
            rest_counted, rest_excluded = _split_excluded(state, p, player.rest)
            chosen = counted + rng.sample(rest_counted, low - len(counted))
            excluded += rest_excluded
        else:
            chosen = rng.sample(counted, low)
        if extra > low:  # excluded colours come along (a sample of none draws nothing)
            chosen += rng.sample(excluded, extra - low)
    return shown_faces(table, (*player.ready, *chosen), rng)


def _split_excluded(state: State, p: int, dice: Iterable[int]) -> tuple[list[int], list[int]]:
    """(the dice that count for the refill's limit, those of colours excluded from it, CU-29), in order; in the
    usual round all count, found without asking each die."""
    excluded = state.players[p].refill_exclude
    if not excluded:
        return list(dice), []
    colours = state.table.colours_of
    return [d for d in dice if colours[d] not in excluded], [d for d in dice if colours[d] in excluded]


def _counts(kinds: list[str]) -> dict[str, int]:
    """Die type -> how many of ``kinds`` (a ``Counter`` without its cost: every roll counts its dice)."""
    found: dict[str, int] = {}
    for kind in kinds:
        found[kind] = found.get(kind, 0) + 1
    return found


def _beyond(counts: dict[str, int], other: dict[str, int]) -> dict[str, int]:
    """What ``counts`` has more of than ``other`` (``Counter`` subtraction)."""
    return {kind: n - other.get(kind, 0) for kind, n in counts.items() if n > other.get(kind, 0)}


def _refill(state: State, p: int, extra: dict[str, int], bounds: tuple[int, int, bool],
            events: list[Event]) -> tuple[list[int], list[int], list[int]]:
    """CU-27..CU-29: the dice the roll shows beyond the ready zone, taken from the draw zone (the rest zone
    recycled into it when it lacks enough); returns (the refilled dice, the draw zone, the rest zone)."""
    player = state.players[p]
    types = state.table.types
    low, high, recycle = bounds  # refill_bounds
    draw, rest = list(player.draw), list(player.rest)
    if player.refill_no_limit:  # CU-99: any dice of any zone; **Decision**: from the draw zone first
        taken = []
        by_type = [dice_by_type(draw, types), dice_by_type(rest, types)]  # sorted once: such a roll may show 20 dice
        for die_type, n in sorted(extra.items()):
            for source, of_type in ((draw, by_type[0]), (rest, by_type[1])):
                lowest = of_type.get(die_type, [])[:n]
                for die in lowest:
                    source.remove(die)
                taken += lowest
                n -= len(lowest)
            if n:
                raise IllegalAction("CU-29", f"no {die_type} die left in the draw or rest zone")
        return taken, draw, rest
    excluded = player.refill_exclude
    if excluded:
        colour = {t: state.table.kit.dice[t].colour for t in extra}
        counted = sum(n for t, n in extra.items() if colour[t] not in excluded)
    else:  # the usual round: every die counts
        counted = sum(extra.values())
    if counted != low:
        raise IllegalAction("CU-27", f"the refill fills the limit: {low} dice"
                            + (f" not {', '.join(sorted(excluded))}" if excluded else "")
                            + f", the roll shows {counted}")
    if recycle:  # CU-28: what is left of the draw zone first, then the rest zone becomes the draw zone
        first = _counts([types[d] for d in _split_excluded(state, p, draw)[0]])
        if _beyond(first, extra):
            raise IllegalAction("CU-28", "the draw zone runs out: every die left in it is refilled first")
        draw, rest = draw + rest, []
        events.append({"type": "recycled", "player": seat(state, p), "dice": len(draw)})
    taken = []  # the lowest dice of each type (dice of a type are alike)
    wanted = dict(extra)
    for die in sorted(draw):
        kind = types[die]
        if wanted.get(kind):
            wanted[kind] -= 1
            taken.append(die)
    if len(taken) < sum(extra.values()):  # the draw zone lacks some
        short = _beyond(extra, _counts([types[d] for d in draw]))
        wrong = ", ".join(f"{n} {t}" for t, n in short.items())
        raise IllegalAction("CU-27", f"the refill takes dice from the draw zone; it has no {wrong}")
    chosen = set(taken)
    return taken, [d for d in draw if d not in chosen], rest


def _on_roll(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-27..CU-36: refill (what the roll shows beyond the ready zone), roll, place hits, danger or bust.

    The usual roll (no bust, no event ability to wait for) changes the player once, from the refill to the choice
    to push or pass: a roll is a quarter of a bot race's actions."""
    p = state.current
    table, player = state.table, state.players[p]
    dice = action.get("dice")
    count = action.get("roll")
    if not isinstance(count, int):  # a confirmed roll names its size by its dice
        count = len(dice) if isinstance(dice, list) else ready_count(state, p)
    bounds = refill_bounds(state, p)
    low, high, _ = bounds
    if not low <= count - len(player.ready) <= high:
        raise IllegalAction("CU-27", f"{seat(state, p)} cannot roll {count} dice now",
                            legal=[o["roll"] for o in _roll_options(state)])
    rolled = parse_roll(state, dice, count)
    types = table.types
    taken = list(player.ready)
    draw, rest = player.draw, player.rest
    if not player.refilled:  # the refill: what the roll shows beyond the ready zone
        extra = _shown_beyond_ready(rolled, player.ready, types)
        refilled, draw, rest = _refill(state, p, extra, bounds, events)
        taken += refilled
        events.append({"type": "refilled", "player": table.colours[p], "limit": draw_limit(state, p),
                       "dice": sorted(map(types.__getitem__, refilled))})
    of_type: dict[str, list[int]] = {}  # each die shown is the lowest of its type not yet placed
    for die in sorted(taken)[::-1]:  # highest first, so that ``pop`` gives the lowest (no keyword: it costs)
        of_type.setdefault(types[die], []).append(die)
    blanks = table.kit.blank_names
    active = list(player.active)
    still: list[int] = []
    hits = []
    try:
        for name, (kind, label) in zip(dice, rolled):  # noqa: B905 - parse_roll read one per name (a keyword costs)
            die = of_type[kind].pop()
            if name in blanks:
                still.append(die)
            else:
                active.append((die, label))
                hits.append(name)
    except (KeyError, IndexError):  # a push showing other dice than the ready zone's (a refill's are checked)
        _shown_beyond_ready(rolled, player.ready, types)
        raise IllegalAction("CU-30", "a push rolls the dice of the ready zone only") from None
    events.append({"type": "rolled", "player": table.colours[p], "dice": list(dice), "hits": hits})
    changes = {"ready": tuple(still), "active": tuple(active),
               **placing(state, p, active[len(player.active):], len(active), events)}
    if not player.refilled:  # a push leaves the draw and rest zones as they are (``changed`` sets each change)
        changes["draw"], changes["rest"], changes["refilled"] = tuple(draw), tuple(rest), True
    if player.safe_roll:
        changes["safe_roll"] = False
    if not hits and player.danger:
        if not player.safe_roll:
            state = changed(state, p, **changes)
            return replaced(state, phase="busting") if usable(state, p, "bust") else _bust(state, p, events)
        events.append({"type": "bust_prevented", "player": seat(state, p)})  # CU-113, CU-35: this roll cannot bust
    if player.pushed_active is not None and offers(table, "event"):
        return _after_roll(changed(state, p, **changes), p, events)
    return _to_choice(state, p, events, changes)


def _shown_beyond_ready(rolled: list[tuple[str, str]], ready: tuple[int, ...], types: tuple[str, ...]) -> dict[
        str, int]:
    """Die type -> how many more dice of it the roll shows than the ready zone holds (the refill's); a roll that
    lacks a die of the ready zone is illegal (CU-30: every one is rolled)."""
    beyond: dict[str, int] = {}  # shown less held, in one count: every refill asks
    for kind, _ in rolled:
        beyond[kind] = beyond.get(kind, 0) + 1
    for die in ready:
        kind = types[die]
        beyond[kind] = beyond.get(kind, 0) - 1
    if beyond and min(beyond.values()) < 0:
        lacks = ", ".join(f"{-n} {t}" for t, n in beyond.items() if n < 0)
        raise IllegalAction("CU-30", f"every die of the ready zone is rolled; the roll lacks {lacks}")
    for kind, n in list(beyond.items()):
        if n <= 0:
            del beyond[kind]
    return beyond


def _after_roll(state: State, p: int, events: list[Event]) -> State:
    """CU-32, CU-40: danger from the third active die; a push that did not bust is the event its abilities wait
    for; then push or pass."""
    if state.players[p].pushed_active is not None and usable(state, p, "event"):
        return replaced(state, phase="event")
    return _to_choice(state, p, events)


def _to_choice(state: State, p: int, events: list[Event], changes: dict[str, Any] | None = None) -> State:
    """Push or pass, the push's event over; ``changes`` (a roll's) are made in the same copy of the player."""
    player = state.players[p]
    changes = {} if changes is None else changes
    if player.pushed_active is not None or player.event_used:
        changes["pushed_active"], changes["event_used"] = None, frozenset()
    if not changes.get("ready", player.ready):  # CU-37, CU-110: nothing left to roll: the player must pass
        events.append({"type": "must_pass", "player": seat(state, p)})
        return _pass(changed(state, p, **changes), p, events)
    return changed(state, p, phase="choice", **changes)


def _choices_at(moment: str) -> Callable[[State], list[Action]]:
    """The options of a moment that waits for abilities (``abilities.WINDOWS``): each use, and ``go`` unless a
    mandatory ability or an owed special still waits."""

    def listed(state: State) -> list[Action]:
        return ([] if owed(state, moment) else [{"type": "go"}]) + ability_options(state, moment)

    return listed


def _using(moment: str, then: Callable[[State, list[Event]], State]) -> Handler:
    """Use an ability of ``moment`` and stay while another can be used; ``go`` (or nothing left) goes on ``then``."""

    def handle(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
        if action["type"] != "go":
            state = use_ability(state, action, events, moment)
            if usable(state, state.current, moment):
                return state
        return then(state, events)

    return handle


def _busting_options(state: State) -> list[Action]:
    return [{"type": "bust"}, *ability_options(state, *USES_AT["busting"])]


def _on_busting(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-34 (1): bust reactions first; one that ignores the bust makes the roll a no-hit roll out of danger."""
    p = state.current
    if action["type"] == "bust":
        return _bust(state, p, events)
    state = use_ability(state, action, events, *USES_AT["busting"])
    if state.players[p].bust_ignored:
        events.append({"type": "bust_ignored", "player": seat(state, p)})
        return _after_roll(changed(state, p, bust_ignored=False, keep_on_bust=frozenset()), p, events)
    return state if usable(state, p, "bust") else _bust(state, p, events)


def _bust(state: State, p: int, events: list[Event]) -> State:
    """CU-34: every active die to the rest zone (but the colours Punk Grapefruit keeps); the player may then rest
    dice of the ready zone (``bust`` phase)."""
    player = state.players[p]
    table = state.table
    kept = tuple(a for a in player.active if table.colour(a[0]) in player.keep_on_bust)
    gone = [d for d, _ in player.active if (d, _) not in kept]
    events.append({"type": "bust", "player": seat(state, p), "active": len(player.active), "kept": len(kept)})
    state = changed(state, p, rest=player.rest + tuple(gone), active=kept, busted=True, keep_on_bust=frozenset(),
                    pushed_active=None, must_push=False,
                    used=frozenset(u for u in player.used if u[0] not in gone))
    if state.players[p].ready:
        return replaced(state, phase="bust")
    return _after_bust(state, p, events)


def _bust_options(state: State) -> list[Action]:
    """CU-34 (3): any number of the ready zone's dice to the rest zone, by type (dice of a type are alike)."""
    types = state.table.types
    counts = Counter(map(types.__getitem__, state.players[state.current].ready))
    kinds = sorted(counts)
    options = []
    for numbers in product(*(range(counts[k] + 1) for k in kinds)):
        # one number per kind (``product``), the kinds of none left out; zip without its keyword, which costs a slow
        # call for each option, and no comprehension, which makes a function for each
        options.append({"type": "rest", "rest": dict(filter(_SECOND, zip(kinds, numbers)))})  # noqa: B905
    return options


def _on_rest(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    types = state.table.types
    ready = list(state.players[p].ready)
    moved = []
    for die_type, n in sorted(action["rest"].items()):
        moved += [take(ready, types, die_type) for _ in range(n)]
    if moved:
        events.append({"type": "rested", "player": seat(state, p), "dice": sorted(types[d] for d in moved)})
    state = changed(state, p, ready=tuple(ready), rest=state.players[p].rest + tuple(moved))
    return _after_bust(state, p, events)


def _after_bust(state: State, p: int, events: list[Event]) -> State:
    """CU-34 (4), (5): one fan, then the player has finished the roll section."""
    return _pass(advance_fans(state, p, 1, events), p, events, quiet=True)


def _choice_options(state: State) -> list[Action]:
    """CU-37, CU-110: push or pass; a Käsehäppchen placed since the last push leaves only push."""
    anytime = ability_options(state, *USES_AT["choice"])
    if state.players[state.current].must_push:
        return [{"type": "push"}, *anytime]
    return [{"type": "pass"}, {"type": "push"}, *anytime]


def _on_choice(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-37, CU-39: pass, or push: push-time abilities, then the ready zone is rolled when the order comes back."""
    p = state.current
    if action["type"] == "ability":  # CU-104, CU-127, CU-138: any time in the round
        return use_ability(state, action, events, *USES_AT["choice"])
    if action["type"] == "pass":
        return _pass(state, p, events)
    events.append({"type": "pushed", "player": state.table.colours[p]})
    state = changed(state, p, must_push=False, pushed_active=frozenset(map(FIRST, state.players[p].active)))
    if usable(state, p, "push"):
        return replaced(state, phase="push")
    return _next_roll(state, events)


def _pass(state: State, p: int, events: list[Event], *, quiet: bool = False) -> State:
    """CU-41: the round card turns red; the race section begins when everyone's has (CU-22)."""
    if not quiet:
        events.append({"type": "passed", "player": state.table.colours[p]})
    return _next_roll(changed(state, p, done_rolling=True), events)


def _next_roll(state: State, events: list[Event]) -> State:
    roller = next_roller(state)
    if roller is not None:
        return replaced(state, phase="roll", current=roller)
    events.append({"type": "race_section", "round": state.round})
    return _support(replaced(state, current=lead_order(state)[0]), events)


# ------------------------------------------------------------------------------------------------------ race section


def _support(state: State, events: list[Event]) -> State:
    """CU-43..CU-45: everyone's plain faces are collected and their swords announced; the red card then names who
    its gated abilities are for, and each player in lead order uses their phase-5 abilities (``support``).

    **Decision** (CU-43): plain faces are collected for the player. No ability in the data grants swords, so every
    announcement is the swords on the faces, made at once, and the red card is evaluated before anyone's abilities.
    """
    table = state.table
    for p in lead_order(state):
        player = state.players[p]
        coins = steps = credits = swords = 0
        for die, label in player.active:
            shown = face(table, die, label)
            coins, steps, credits, swords = (coins + shown.coins, steps + shown.steps, credits + shown.credits,
                                             swords + shown.swords)
        events.append({"type": "support", "player": table.colours[p], "coins": coins, "steps": steps,
                       "credits": credits, "swords": swords})
        state = changed(state, p, coins=player.coins + coins, steps=player.steps + steps,
                        credits=player.credits + credits, took_credits=player.took_credits or credits > 0,
                        swords=swords)
    return _next_support(state, None, events)


def _next_support(state: State, after: int | None, events: list[Event]) -> State:
    """The next player in lead order with a phase-5 ability to use; then phase 6."""
    order = lead_order(state)
    for p in order[0 if after is None else order.index(after) + 1:]:
        if usable(state, p):
            return replaced(state, phase="support", current=p)
    return _start_move(state, order[0], events)


def _on_support(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    if action["type"] == "done":
        return _next_support(state, state.current, events)
    state = use_ability(state, action, events, *USES_AT["support"])
    if state.adjusting is not None:
        return replaced(state, phase="adjust")
    if state.again is not None:
        return replaced(state, phase="again")
    if support_options(state) == [{"type": "done"}]:
        return _next_support(state, state.current, events)  # nothing left to use: no tap needed
    return state


def _again_options(state: State) -> list[Action]:
    return [{"type": "roll", "roll": roll_counts(state, state.current, None, again_effect(state))[0]}]


def _on_again(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-123: the ability's next roll of the ready zone; then phase 5 goes on."""
    ability, left = state.again
    state = roll_in(state, state.current, None, again_effect(state), action.get("dice"), events)
    if left > 1:
        return replaced(state, again=(ability, left - 1))
    state = replaced(state, again=None, phase="support")
    if support_options(state) == [{"type": "done"}]:
        return _next_support(state, state.current, events)
    return state


def _on_adjust(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-89: the players change the table by hand until ``done``; then phase 5 goes on."""
    if action["type"] == "adjust":
        return adjust(state, action, events)
    state = replaced(state, adjusting=None, phase="support")
    if support_options(state) == [{"type": "done"}]:
        return _next_support(state, state.current, events)
    return state


def _start_move(state: State, p: int, events: list[Event]) -> State:
    """CU-61, CU-62: phase 6 begins where the runner stands; that space's special waits for the player's purchases
    (``START_SPECIAL_AFTER_PURCHASES``) when it has one."""
    player = state.players[p]
    here = (player.segment, player.space)
    state = changed(state, p, moved_from=here, current=p, phase="move")
    space = track_of(state, p).spaces[player.space]
    if space.special is not None and here not in player.specials:
        return replaced(state, phase="move_start")
    return state


def _convert_options(state: State) -> list[Action]:
    """CU-42, CU-47: a credit for a coin, 4 coins for a step (steps only in phase 6)."""
    player = state.players[state.current]
    options: list[Action] = []
    if player.credits:
        options.append({"type": "convert"})
    if state.phase in ("move_start", "move", "shortcut") and player.coins >= COINS_PER_STEP:
        options.append({"type": "buy_step"})
    return options


def _conversion(player: Player, kind: str) -> dict[str, int]:
    """What a ``convert`` (a credit for a coin, CU-42) or a ``buy_step`` (coins for a step, CU-47) changes."""
    if kind == "convert":
        return {"credits": player.credits - 1, "coins": player.coins + CREDIT_TO_COIN}
    return {"coins": player.coins - COINS_PER_STEP, "steps": player.steps + 1}


def _on_convert(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    if action["type"] == "convert":
        events.append({"type": "converted", "player": seat(state, p), "credits": 1, "coins": CREDIT_TO_COIN})
    else:
        events.append({"type": "bought_step", "player": seat(state, p), "coins": COINS_PER_STEP})
    return changed(state, p, **_conversion(state.players[p], action["type"]))


def _move_start_options(state: State) -> list[Action]:
    return [{"type": "begin"}, *_convert_options(state)]


def _on_move_start(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    if action["type"] != "begin":
        return _on_convert(state, action, events)
    player = state.players[state.current]
    return _trigger(replaced(state, phase="move"), state.current, player.segment, player.space, events)


def _trigger(state: State, p: int, segment: int, space_id: str, events: list[Event]) -> State:
    """CU-61, CU-63, CU-64: a space's special action, once per runner per space per round."""
    player = state.players[p]
    space = state.table.segments[segment].spaces[space_id]
    if space.special is None or (segment, space_id) in player.specials:
        return state
    state = changed(state, p, specials=player.specials | {(segment, space_id)})
    if space.special["type"] == "jet":
        events.append({"type": "jet", "player": seat(state, p), "space": space_id, "steps": player.steps * 2,
                       "water": player.water * 2})
        return changed(state, p, steps=player.steps * 2, water=player.water * 2)
    return replaced(state, phase="shortcut", shortcut=(segment, space_id))


def _step_targets(state: State, p: int) -> list[str]:
    """CU-58..CU-60, CU-141, CU-142, CU-146: where the runner's next step can go.

    On a finish the runner is first placed on the start for free (another lap, or going on after reaching the race
    finish), or, at the end of a track that another follows, it moves on to that track's start (``next_track``).
    """
    return _targets(state.table, state.players[p])


def _targets(table: Table, player: Player) -> list[str]:
    track = table.segments[player.segment]
    if player.steps < 1:
        return []
    origin = player.space
    if origin == track.finish:
        if player.segment + 1 < len(table.segments):
            return ["next_track"] if player.steps >= CHAIN_TRANSFER_COST else []
        origin = track.start
    entry = player.water >= 1  # CU-59: water needs an entry; leaving it never does
    return [there for there, water in track.steps_from[origin] if entry or not water]


def move_paths(state: State) -> list[list[str]]:
    """CU-58..CU-64: one path to every space the runner can reach with what it has, the path leaving the most
    steps (then water entries) and the shortest of those. Each path is walked with the rules' own step, so jets
    double what is left on the way; a path ends where the runner must decide something (a shortcut, CU-63)."""
    return list(map(_PATH, walks(state)))


class Walk(NamedTuple):
    path: list[str]
    base: State
    """The state at the walk's last step that did more than move the runner (a special space, a finish, the next
    track), or where it began: the walk leads to ``base`` with ``runner`` in the mover's seat (``walked_to``)."""
    runner: Player
    """The runner once it has walked ``path``."""
    events: list[Event]
    """The events of its steps (read only: walks that share their steps share the list)."""


def walked_to(walk: Walk, p: int) -> State:
    """The state once the runner (seat ``p``) has walked ``walk.path``: made for the move chosen only, as the
    walks to every other place need no more than their runner."""
    return with_player(walk.base, p, walk.runner)


_last_walks: tuple[State, list[Walk]] | None = None


def walks(state: State) -> list[Walk]:
    """``move_paths`` with the runner each path leads to and the events on the way. The last state's walks are
    kept: its options list them, a greedy bot rates each move by where its walk ended, and the chosen move is not
    walked again."""
    global _last_walks
    last = _last_walks  # read once: another thread may walk another state meanwhile
    if last is not None and last[0] is state:
        return last[1]
    found = _walks(state)
    _last_walks = (state, found)
    return found


def _walks(state: State) -> list[Walk]:
    """Each step as ``_step`` takes it; a step onto a space without a special (nearly all) moves the runner alone
    (``stepped``), so the search makes a player for it, not a state."""
    p = state.current
    here = state.players[p]
    if here.steps < 1:  # nowhere to go (``_step_targets``): most move prompts come after the runner's last step
        return []
    table = state.table
    origin = (here.segment, here.space, here.laps)
    best: dict[tuple[int, str, int], tuple[tuple[int, int], Walk]] = {}
    seen: set[tuple[Any, ...]] = set()
    frontier: list[Walk] = [Walk([], state, here, [])]
    while frontier:
        later = []
        for path, base, runner, on_the_way in frontier:
            track = table.segments[runner.segment]
            entry = runner.water >= 1  # CU-59: water needs an entry
            if runner.space == track.finish:  # placed on a start first, or onto the next track: no plain step
                steps = [(there, False, False) for there in _targets(table, runner)]
            else:  # ``_targets`` and ``_plain_space`` of each, read from the track
                steps = track.walks_from[runner.space]
            for there, water, plain in steps:
                if water and not entry:
                    continue
                if plain:
                    walk = tuple.__new__(Walk, ([*path, there], base, stepped(runner, there, water),
                                                on_the_way))  # a Walk without NamedTuple's __new__
                else:
                    events: list[Event] = []
                    after = _step(with_player(base, p, runner), p, there, events)
                    walk = tuple.__new__(Walk, ([*path, there], after, after.players[p],
                                                on_the_way + events if on_the_way else events))
                moved = walk.runner
                key = (moved.segment, moved.space, moved.laps)
                left = (moved.steps, moved.water)
                if key != origin and (key not in best or left > best[key][0]):
                    best[key] = (left, walk)
                mark = (key, left, moved.specials, moved.reached)
                if left[0] >= 1 and walk.base.phase == "move" and mark not in seen:  # a runner without steps stops
                    seen.add(mark)
                    later.append(walk)
        frontier = later
    return sorted(map(_SECOND, best.values()), key=_walk_order)


def _walk_order(walk: Walk) -> tuple[int, list[str]]:
    """Shortest path first, then by the spaces' names (``sorted``'s key, not a lambda made at every search)."""
    return len(walk.path), walk.path


def _move_options(state: State) -> list[Action]:
    options: list[Action] = [{"type": "done"}]
    for path in move_paths(state):
        options.append({"type": "move", "path": path})
    return options + _convert_options(state) + ability_options(state, *USES_AT["move"])


def _on_move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    if action["type"] in ("convert", "buy_step"):
        return _on_convert(state, action, events)
    if action["type"] == "ability":
        return use_ability(state, action, events, *USES_AT["move"])
    if action["type"] == "done":
        return _end_move(state, p, events)
    path = action.get("path")
    if not isinstance(path, list) or not path:
        raise IllegalAction("CU-58", f"a move is a path of spaces, got {path!r}")
    start = state.players[p].space
    last = _last_walks
    listed = last[1] if last is not None and last[0] is state else []
    walked = None
    for walk in listed:
        if walk.path == path:
            walked = walk
            break
    if walked is not None:  # the options walked it already
        events.append({"type": "moved", "player": seat(state, p), "from": start, "to": walked.runner.space,
                       "steps": len(path), "path": list(path)})
        events += map(dict, walked.events)
        return walked_to(walked, p)
    on_the_way: list[Event] = []
    for n, there in enumerate(path):
        if state.phase != "move":
            raise IllegalAction("CU-63", f"the path stops at {path[n - 1]}: the runner must decide there first")
        legal = _step_targets(state, p)
        if there not in legal:
            raise IllegalAction("CU-58", f"step {n + 1} to {there!r} is not possible from "
                                f"{state.players[p].space}", legal=legal)
        state = _step(state, p, there, on_the_way)
    events.append({"type": "moved", "player": seat(state, p), "from": start, "to": state.players[p].space,
                   "steps": len(path), "path": list(path)})
    events += on_the_way  # one line for the move, then what happened on it (a step itself says nothing more)
    return state


def _step(state: State, p: int, there: str, events: list[Event]) -> State:
    """One step (CU-58): to a neighbouring space, or from a finish onto the next track's start (CU-142)."""
    player = state.players[p]
    table = state.table
    track = table.segments[player.segment]
    if there == "next_track":  # CU-142
        segment = player.segment + 1
        start = table.segments[segment].start
        events.append({"type": "next_track", "player": seat(state, p), "track": table.segments[segment].id,
                       "steps": CHAIN_TRANSFER_COST})
        return changed(state, p, segment=segment, space=start, laps=0, left_start=False,
                     steps=player.steps - CHAIN_TRANSFER_COST)
    space = _plain_space(track, player, there)
    if space is not None:  # most steps: the runner moves and nothing else happens
        return with_player(state, p, stepped(player, there, space.kind == "water"))
    if player.space == track.finish:
        events.append({"type": "placed_on_start", "player": seat(state, p)})
    space = track.spaces[there]
    state = with_player(state, p, stepped(player, there, space.kind == "water"))
    if space.special is None and there != track.finish:
        return state
    return _entered(state, p, events)


def _plain_space(track: Track, player: Player, there: str) -> Space | None:
    """The space a step to ``there`` enters when the step only moves the runner (``state.stepped``): not onto the
    next track, not from a finish (the runner is placed on the start first), not onto a finish or a special
    (``_entered``); else None."""
    space = track.spaces.get(there)  # none for "next_track"
    if space is None or space.special is not None or there == track.finish or player.space == track.finish:
        return None
    return space


def _entered(state: State, p: int, events: list[Event]) -> State:
    """The runner entered a space during phase 6: a finish (CU-141, CU-145) or a special (CU-61)."""
    player = state.players[p]
    if player.space == track_of(state, p).finish:
        return reach_finish(state, p, events)
    return _trigger(state, p, player.segment, player.space, events)


def _shortcut_options(state: State) -> list[Action]:
    segment, space_id = state.shortcut
    pay = state.table.segments[segment].spaces[space_id].special["pay"]
    player = state.players[state.current]
    kind, amount = next(iter(pay.items()))
    options: list[Action] = [{"type": "skip"}]
    if getattr(player, kind) >= amount:
        options.append({"type": "shortcut"})
    return options + _convert_options(state)


def _on_shortcut(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-63: pay to follow the line to the joined space (not a step; entering it counts), or let it pass."""
    p = state.current
    if action["type"] in ("convert", "buy_step"):
        return _on_convert(state, action, events)
    segment, space_id = state.shortcut
    state = replaced(state, phase="move", shortcut=None)
    if action["type"] == "skip":
        return state
    special = state.table.segments[segment].spaces[space_id].special
    kind, amount = next(iter(special["pay"].items()))
    player = state.players[p]
    events.append({"type": "shortcut", "player": seat(state, p), "from": space_id, "to": special["to"],
                   "pay": kind, "amount": amount})
    state = changed(state, p, space=special["to"], **{kind: getattr(player, kind) - amount})
    return _entered(state, p, events)


def _end_move(state: State, p: int, events: list[Event]) -> State:
    """CU-65..CU-67: a runner that ended phase 6 elsewhere than it began receives its space's bonuses; then Bob."""
    player = state.players[p]
    state = changed(state, p, moved_from=None)
    if player.moved_from != (player.segment, player.space):
        state = receive_bonuses(state, p, player.space, events)
    return _after_bonuses(state, p, events)


def _after_bonuses(state: State, p: int, events: list[Event]) -> State:
    if state.bonuses:
        return replaced(state, phase="bonus")
    if usable(state, p, "end6"):
        return replaced(state, phase="end6")
    return _next_mover(state, events)


def _end6_options(state: State) -> list[Action]:
    return [{"type": "go"}, *ability_options(state, *USES_AT["end6"])]


def _on_end6(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-119: abilities at the end of phase 6, after the own space's bonuses (Bob)."""
    if action["type"] == "go":
        return _next_mover(state, events)
    return _after_bonuses(use_ability(state, action, events, *USES_AT["end6"]), state.current, events)


def _bonus_options(state: State) -> list[Action]:
    """CU-66: give back one of your dice (any zone, by type), or take one die from the stock; either may be declined."""
    p = state.current
    bonus = state.bonuses[0]
    if bonus["type"] == "give_back":
        return [{"type": "decline"}, *({"type": "give_back", "zone": zone, "die": kind}
                                       for zone, kind in give_back_targets(state, p, {"from": "any"}))]
    return [{"type": "decline"}, *({"type": "take_die", "die": kind} for kind in take_targets(state, p, bonus))]


def _on_bonus(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    state = _bonus_chosen(state, action, events)
    return _after_bonuses(replaced(state, bonuses=state.bonuses[1:], phase="move"), state.current, events)


def _bonus_chosen(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-66: the die given back or taken (or neither, declined); the player's table is final with it."""
    p = state.current
    if action["type"] == "give_back":
        return give_back(state, p, action["zone"], action["die"], events)
    if action["type"] == "take_die":
        state, die = from_stock(state, action["die"])
        events.append({"type": "took_die", "player": seat(state, p), "die": action["die"]})
        return changed(state, p, rest=state.players[p].rest + (die,))
    return state


def _next_mover(state: State, events: list[Event]) -> State:
    order = lead_order(state)
    k = order.index(state.current) + 1
    if k < len(order):
        return _start_move(state, order[k], events)
    return _start_buy(state, order[0])


def _start_buy(state: State, p: int) -> State:
    """CU-101: what must happen just before phase 7 (Schlägertyp) comes first."""
    if usable(state, p, "before7"):
        return replaced(state, phase="before7", current=p)
    return replaced(state, phase="buy", current=p)


def _buy_options(state: State) -> list[Action]:
    """CU-48, CU-49: up to 2 dice of 2 different colours, from the stock, paid in coins."""
    p = state.current
    table = state.table
    player = state.players[p]
    options: list[Action] = [{"type": "done"}]
    if len(player.bought) < MAX_BUYS:
        stock = in_stock(state)
        coins = player.coins
        for die_type, colour, cost in _buyable(table):
            if coins >= cost and die_type in stock and not (BUYS_DIFFERENT and colour in player.bought):
                options.append({"type": "buy", "die": die_type})
    return options + _convert_options(state) + ability_options(state, *USES_AT["buy"])


def _buyable(table: Table) -> tuple[tuple[str, str, int], ...]:
    """(die type, colour, cost) of every type a player may buy (CU-49: ability dice), by type as the stock lists
    them: kept in the table's memo, as every phase 7 prompt asks."""
    found = table.memo.get("buyable")
    if found is None:
        found = table.remember("buyable", tuple(
            (kind.id, kind.colour, table.costs[kind.id]) for kind in sorted(table.kit.dice.values(), key=lambda k: k.id)
            if kind.kind == "ability" or (GREY_BUYABLE and kind.kind != "lead")))
    return found


def _on_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    if action["type"] == "convert":
        return _on_convert(state, action, events)
    if action["type"] == "ability":
        return use_ability(state, action, events, *USES_AT["buy"])
    if action["type"] == "done":
        order = lead_order(state)
        k = order.index(p) + 1
        if k < len(order):
            return _start_buy(state, order[k])
        return rest_all(state, events)
    state, changes = _purchase(state, p, action["die"])
    events.append({"type": "bought", "player": seat(state, p), "die": action["die"],
                   "coins": state.table.cost(action["die"])})
    return changed(state, p, **changes)


def _purchase(state: State, p: int, die_type: str) -> tuple[State, dict[str, Any]]:
    """CU-48: the stock without the die bought, and what buying it changes on player ``p``'s table."""
    player = state.players[p]
    state, die = from_stock(state, die_type)
    return state, {"coins": player.coins - state.table.cost(die_type), "rest": player.rest + (die,),
                   "bought": player.bought + (state.table.kit.dice[die_type].colour,)}


def rest_all(state: State, events: list[Event]) -> State:
    """CU-50, CU-51: active dice rest, coins and steps are lost, borrowed dice go back to the stock wherever they
    are; then the end check or the next round (CU-55)."""
    borrowed = frozenset().union(*map(_BORROWED, state.players))
    if borrowed:
        for p, player in enumerate(state.players):
            state = changed(state, p, **{zone: tuple(d for d in getattr(player, zone) if d not in borrowed)
                                         for zone in ("draw", "ready", "rest")},
                            active=tuple(a for a in player.active if a[0] not in borrowed), borrowed=frozenset())
        events.append({"type": "returned", "dice": sorted(state.table.types[d] for d in borrowed)})
        state = replaced(state, stock=state.stock | borrowed)
    players = list(state.players)
    for p in state.racing:
        players[p] = _rested(players[p])
    state = replaced(state, players=tuple(players))
    events.append({"type": "round_end", "round": state.round})
    if state.ending:
        return _end(state, events)
    return _next_round(state, state.racing, events)


ROUND_ONLY = ("coins", "steps", "water", "danger", "busted", "refilled", "done_rolling", "took_credits", "gave_back",
              "specials", "bought", "swords", "used", "gated", "owes_special", "pushed_active", "event_used",
              "safe_roll", "bust_ignored", "keep_on_bust", "must_push", "next_exclude", "next_no_limit")
"""CU-50, CU-51: what a player has for one round only (coins and steps are lost; what was used, bought, owed or
allowed this round ends), back to a new player's at the round's end."""
_ROUND_RESET = field_defaults(ROUND_ONLY)


def _rested(player: Player) -> Player:
    """CU-50, CU-51: a player's table once the round has ended (borrowed dice aside): the active dice rest, what
    was for this round only is reset, and what this round's abilities did to the next round's refill applies."""
    return altered(player, _ROUND_RESET, rest=player.rest + tuple(map(FIRST, player.active)), active=(),
                   refill_exclude=player.next_exclude, refill_no_limit=player.next_no_limit)


def _end(state: State, events: list[Event]) -> State:
    """CU-147, CU-148: of the runners that reached the finish, the one farthest from the start wins; a tie plays
    another round among the tied."""
    table = state.table
    reached = [p for p in state.racing if state.players[p].reached]
    last = table.segments[-1]

    def distance(p: int) -> int:
        player = state.players[p]
        return last.distance.get(player.space, 0) if player.segment == len(table.segments) - 1 else 0

    best = max(distance(p) for p in reached)
    leaders = tuple(p for p in reached if distance(p) == best)
    if len(leaders) == 1:
        events.append({"type": "game_over", "winner": seat(state, leaders[0]), "distance": best})
        return replaced(state, phase="over", winners=leaders, current=leaders[0])
    events.append({"type": "tie", "players": [seat(state, p) for p in leaders], "distance": best})
    for p in leaders:
        state = changed(state, p, reached=False)
    return _next_round(replaced(state, ending=False, tiebreak=True), leaders, events)


def _next_round(state: State, racing: tuple[int, ...], events: list[Event]) -> State:
    """CU-55: the lead die passes clockwise (among the players of a tie round) into the new lead's ready zone."""
    table = state.table
    die = table.lead_die
    n = len(state.players)
    lead = next(k % n for k in range(state.lead + 1, state.lead + n + 1) if k % n in racing)
    for p, player in enumerate(state.players):
        if die in player.ready or die in player.rest or any(d == die for d, _ in player.active):
            state = changed(state, p, ready=tuple([d for d in player.ready if d != die]),
                          rest=tuple([d for d in player.rest if d != die]),
                          active=tuple(a for a in player.active if a[0] != die))
    state = changed(state, lead, ready=state.players[lead].ready + (die,))
    lines = tuple(lines_passed(table, player) for player in state.players)
    events.append({"type": "round", "round": state.round + 1, "lead": seat(state, lead)})
    state = replaced(state, round=state.round + 1, lead=lead, racing=tuple(racing), lines=lines, phase="roll")
    return replaced(state, current=next_roller(state))


# ---------------------------------------------------------------------------------------------------------- the game


PHASES: dict[str, Phase] = {
    "roll": Phase("CU-30", ("roll",), _roll_options, _on_roll),
    "choice": Phase("CU-37", ("push", "pass", "ability"), _choice_options, _on_choice),
    "push": Phase("CU-39", ("ability", "go"), _choices_at("push"), _using("push", _next_roll)),
    "busting": Phase("CU-34", ("ability", "bust"), _busting_options, _on_busting),
    "event": Phase("CU-40", ("ability", "go"), _choices_at("event"),
                   _using("event", lambda s, e: _to_choice(s, s.current, e))),
    "bust": Phase("CU-34", ("rest",), _bust_options, _on_rest),
    "support": Phase("CU-43", ("ability", "done"), support_options, _on_support),
    "adjust": Phase("CU-89", ("adjust", "done"), adjust_options, _on_adjust),
    "again": Phase("CU-86", ("roll",), _again_options, _on_again),
    "move_start": Phase("CU-62", ("begin", "convert", "buy_step"), _move_start_options, _on_move_start),
    "move": Phase("CU-58", ("move", "done", "convert", "buy_step", "ability"), _move_options, _on_move),
    "shortcut": Phase("CU-63", ("shortcut", "skip", "convert", "buy_step"), _shortcut_options, _on_shortcut),
    "bonus": Phase("CU-66", ("give_back", "take_die", "decline"), _bonus_options, _on_bonus),
    "end6": Phase("CU-119", ("ability", "go"), _end6_options, _on_end6),
    "before7": Phase("CU-101", ("ability", "go"), _choices_at("before7"),
                     _using("before7", lambda s, e: replaced(s, phase="buy"))),
    "buy": Phase("CU-48", ("buy", "done", "convert", "ability"), _buy_options, _on_buy),
    "over": Phase("CU-147", (), no_options),
}


HANDING_ON = frozenset({"push", "done", "go", "decline", "skip", "begin"})
"""Options that leave the actor's own table as it is and hand the decision on (to the next step or player)."""
PASSING = frozenset({"pass", "rest"})
"""Options that end the actor's roll section (after a bust, ``rest`` does too, whichever dice it rests)."""


class Cubitos:
    id = "cubitos"
    title = "Cubitos"
    dice_set = "cubitos"

    @property
    def die_faces(self) -> tuple[str, ...]:
        return labels(load_kit())

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> State:
        return setup(options, rng)

    _listed: tuple[State, list[Action]] | None = None
    """The options of the last state asked about: a bot asks for the prompt, then applies an option of that very
    state (a greedy bot each of them), and listing them again each time cost a third of a bot race."""

    def options(self, state: State) -> list[Action]:
        listed = self._listed
        if listed is not None and listed[0] is state:
            return listed[1]
        options = PHASES[state.phase].options(state)
        self._listed = (state, options)
        return options

    def prompt(self, state: State) -> Prompt:
        phase = state.phase
        if phase == "over":
            return Prompt(actor=None, phase="over", info={"winners": [seat(state, p) for p in state.winners]})
        return Prompt(state.table.colours[state.current], phase, list(self.options(state)), {})

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """An action is legal when it is one of the listed options; a roll is checked against the dice it shows.

        An action of the phase's types goes straight to the phase's handler; ``apply_in_phase`` says why any other
        is not possible now (a bot race applies tens of thousands of legal ones)."""
        phase = state.phase
        step = PHASES[phase]
        kind = action.get("type") if type(action) is dict or isinstance(action, Mapping) else None
        if kind in step.actions and step.handler is not None:
            if phase != "roll" and kind != "move" and "dice" not in action:
                listed = self._listed
                options = listed[1] if listed is not None and listed[0] is state else self.options(state)
                if (action if type(action) is dict else dict(action)) not in options:
                    raise IllegalAction(step.rule, f"{state.table.colours[state.current]} cannot {dict(action)} now",
                                        legal=options)
            events: list[Event] = []
            return step.handler(state, action, events), events
        return apply_in_phase(state, action, PHASES, state.table.colours[state.current])

    def roll_dice(self, state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
        if option.get("type") == "ability" or state.phase == "again":
            return ability_roll_dice(state, option, rng, *USES_AT.get(state.phase, ()))
        return roll_dice(state, option, rng)

    def view(self, state: State) -> dict[str, Any]:
        return view(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scenario(self, position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
        """A rule dispute: one player's decisions from a position (``scenario.py``; formats in the README)."""
        from companion.games.cubitos.scenario import run_scenario  # it builds on this module

        return run_scenario(position, turn)

    def seats(self, state: State) -> dict[str, bool]:
        return dict(zip(state.table.colours, state.table.bots, strict=True))

    def score(self, state: State, actor: str) -> float:
        """Greedy-bot heuristic: how little of the race is left, what the active dice and resources will bring, and,
        while the player still rolls, what pushing the ready zone is worth against losing the active dice."""
        p = state.table.colours.index(actor)
        if state.phase == "over":
            return 1000.0 if p in state.winners else -1000.0
        return _rating(state.table, state.players[p])

    USING_ONLY: dict[str, tuple[str, ...]] = {phase: at for phase, at in USES_AT.items() if phase != "busting"}
    """``USES_AT`` of the phases where nothing the rules do after a use changes the actor's table (a bust reaction
    decides whether the roll busts): a push's use hands on to the next roll (the pusher still rolls, so the race
    section cannot begin), an event's to the choice to push or pass, Bob's at the end of phase 6 to the bonuses or
    the next runner, one before phase 7 to the purchases. Only an event's use that leaves the ready zone empty goes
    on to a pass that may end the roll section (``_to_choice``): that one is played out."""

    def rate(self, state: State, option: Mapping[str, Any], actor: str) -> float | None:
        """What ``score`` makes of ``option`` for ``actor`` without ``apply``, or None for an option to be played
        out: ``rate_options`` of that one option."""
        return self.rate_options(state, [option], actor)[0]

    def rate_options(self, state: State, options: list[Action], actor: str) -> list[float | None]:
        """What ``score`` makes of each of ``options`` for ``actor`` without ``apply`` (``bots.GreedyBot``), or None
        for an option to be played out (abilities, shortcuts, a bust, a roll's size).

        Options that end or hand on the actor's decisions (pass, push, rest, done, go ...) are rated by what they do
        to the actor's own table, not by the turns they start: those run the rest of the round (the next rollers,
        everyone's phase 5, the round's end) for every option a bot weighs; the last buyer's ``done`` by the round's
        end on the actor's table (``_rested``: coins lost, active dice resting), without the lead die passing on.
        A move is rated by the place its path's walk reached when the options were listed; a conversion, a purchase,
        a bonus and an ability (in the phases of ``USING_ONLY``, one that rolls aside) by what they change, exactly
        as ``apply`` would (a bot that played out the uses of a push, an event or Bob spent much of its time on the
        turns they hand on to); an ability that only turns a ready die to a face of choice (Wadenbeißer) by that
        die, without using it (``abilities.turned``), as a bot weighs a dozen such turns at every push or pass.

        All of a state's options are rated in one call: the actor's standing (``_standing``) and resources are read
        once for them (the options of one state mostly change only the actor's resources), and a bot weighs three
        options at most actions."""
        table, phase = state.table, state.phase
        player = state.players[table.colours.index(actor)]
        standing = _standing(table, player)
        steps, coins, credits, rolling = player.steps, player.coins, player.credits, not player.done_rolling
        passing = turns = runners = None
        rated: list[float | None] = []
        for option in options:
            kind = option["type"]
            if kind in HANDING_ON:
                if kind == "done" and phase == "buy" and lead_order(state)[-1] == state.current:
                    # the last buyer's done ends the round (``_rested``): coins and steps are lost, the active dice
                    # rest (worth nothing, owned all the same) and the player rolls again, out of danger
                    push = _push(table, player.ready) if player.ready else None
                    score = _total((*standing[:3], 0, push and (0.0, push[1])), 0, 0, credits, 0, True)
                else:
                    score = _total(standing, steps, coins, credits, 0, rolling)
            elif kind in PASSING:  # a bust lists a dozen ways to rest, alike for the rating
                if passing is None:
                    passing = _total(standing, steps, coins, credits, 0, False)
                score = passing
            elif kind == "move":  # a walk moves the runner and changes its steps and water, never its dice or fans
                if runners is None:  # the options hold the walks' very paths (``_move_options``)
                    runners = {}
                    for walk in walks(state):
                        runners[id(walk.path)] = walk.runner
                path = option["path"]
                runner = runners.get(id(path)) or next((w.runner for w in walks(state) if w.path == path), None)
                if runner is None:
                    score = None
                else:
                    score = _total((_lead(table, runner), *standing[1:]), runner.steps, runner.coins, runner.credits,
                                   0, not runner.done_rolling)
            elif kind == "convert":
                score = _total(standing, steps, coins + CREDIT_TO_COIN, credits - 1, 0, rolling)
            elif kind == "buy":
                score = _total(standing, steps, coins - table.costs[option["die"]], credits, 1, rolling)
            elif kind == "buy_step":
                score = _total(standing, steps + 1, coins - COINS_PER_STEP, credits, 0, rolling)
            elif phase == "bonus":
                if kind == "take_die" or option["zone"] in ("draw", "rest"):
                    # a die taken to the rest zone, or given back from a zone the rating counts only as dice owned
                    score = _total(standing, steps, coins, credits, 1 if kind == "take_die" else -1, rolling)
                else:
                    score = self.score(_bonus_chosen(state, option, []), actor)
            elif kind == "ability" and phase in self.USING_ONLY and "roll" not in option:
                moments = self.USING_ONLY[phase]
                turn = None
                if "pick" in option:  # a die turned from the ready zone to a face
                    if turns is None:
                        turns = {}
                    turn = _turn(state, player, option, moments, turns)
                if turn is not None:
                    die, push = turn
                    score = _total((*standing[:3], _worth(table, (*player.active, (die, option["pick"][1]))), push),
                                   steps, coins, credits, 0, rolling)
                else:
                    after = use_ability(state, option, [], *moments)
                    score = None if phase == "event" and not after.players[state.current].ready \
                        else self.score(after, actor)
            else:
                score = None
            rated.append(score)
        return rated


def _turn(state: State, player: Player, option: Mapping[str, Any], moments: tuple[str, ...],
          turns: dict[tuple[Any, ...], tuple[int, tuple[float, float] | None] | None]) -> tuple[
        int, tuple[float, float] | None] | None:
    """(the die that a use turns from the ready zone to a face of choice, the push left once it has), or None for a
    use that does more (``abilities.turned``): what else such a use does rates nil. Kept in ``turns`` for the state's
    options: the turns of one die type differ only by the face picked, and a bot weighs a dozen of them."""
    key = (option["ability"], option.get("die"), option.get("face"), option["pick"][0])
    turn = turns.get(key, False)
    if turn is False:
        die = turned(state, option, *moments)
        turn = turns[key] = None if die is None else (die[0], _turned_push(state.table, player, die[0]))
    return turn


def _standing(table: Table, player: Player) -> tuple[int, int, int, float, tuple[float, float] | None]:
    """What ``_rating`` takes from the runner's place and the player's dice, the costly part of it, for options
    that change only resources: (the race left and reached, the fans, the dice owned, the active dice's worth, the
    push's (bust, gain) while the player may still push)."""
    global _last_dice
    draw, ready, active, rest = player[ZONES_READ]  # one read, not four (a NamedTuple's fields are read generically)
    danger, done_rolling = player.danger, player.done_rolling
    last = _last_dice  # read once: another thread may rate another table meanwhile
    if last is not None and last[1] is active and last[2] is ready and last[0] is table and last[3] == danger \
            and last[4] == done_rolling:
        worth, pushing = last[5], last[6]
    else:
        worth, pushing = _worth(table, active), _pushing(table, ready, danger, done_rolling)
        _last_dice = (table, active, ready, danger, done_rolling, worth, pushing)
    return (_lead(table, player), player.fans, len(draw) + len(ready) + len(active) + len(rest), worth, pushing)


_last_dice: tuple[Table, tuple[tuple[int, str], ...], tuple[int, ...], bool, bool, float,
                  tuple[float, float] | None] | None = None
"""What ``_standing`` last made of an active and a ready zone (the very tuples): a player's zones are carried
unchanged from state to state while they buy, move or wait for the others, and two of every five standings asked
for are of the zones asked about just before."""


def _worth(table: Table, active: tuple[tuple[int, str], ...]) -> float:
    """What the faces of the active zone bring, by a per-table (die, face) table."""
    worth = table.memo.get(_FaceWorth)
    if worth is None:
        worth = table.remember(_FaceWorth, _FaceWorth(table))
    return sum(map(worth.__getitem__, active))


class _FaceWorth(dict):
    """(die, face label) -> what the face brings the greedy rating, worked out the first time a game shows it: a
    game shows some 80 of its table's 700, and working out all of them at the first rating cost 0.35 % of a bot
    game's instructions."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, key: tuple[int, str]) -> float:
        f = face(self.table, *key)
        worth = self[key] = 1.5 * f.steps + f.coins / 3 + f.credits / 2 + (f.team or f.special)
        return worth


def _pushing(table: Table, ready: tuple[int, ...], danger: bool, done_rolling: bool) -> tuple[float, float] | None:
    """The push's (bust, gain) while the player may still push (no bust out of danger), else None."""
    if done_rolling or not ready:
        return None
    push = _push(table, ready)
    return push if danger else (0.0, push[1])


def _turned_push(table: Table, player: Player, die: int) -> tuple[float, float] | None:
    """``_pushing`` once ``die`` moved from the ready zone to the active zone (``abilities.turned``): the push loses
    the die, and a third active die puts the player in danger (CU-32, as ``abilities.placed`` does). The rest of
    ``_rating`` stands but for the active zone's worth, which gains the face."""
    ready = player.ready
    at = ready.index(die)
    ready = ready[:at] + ready[at + 1:]
    danger = player.danger or len(player.active) + 1 >= DANGER_THRESHOLD
    return _pushing(table, ready, danger, player.done_rolling)


def _lead(table: Table, player: Player) -> int:
    """The part of ``_standing`` that a walk changes: the race left, and having reached the finish. Kept per place
    in the table's memo: a runner stands still through the roll section, where bots rate most options."""
    key = ("lead", player.segment, player.space, player.laps, player.reached)
    lead = table.memo.get(key)
    if lead is None:
        lead = table.remember(key, -2 * spaces_left(table, player) + 40 * player.reached)
    return lead


def _push(table: Table, ready: tuple[int, ...]) -> tuple[float, float]:
    """(the chance that a push of ``ready`` shows no hit, what it brings): kept per ready zone."""
    key = ("push", ready)
    push = table.memo.get(key)
    if push is None:
        blank, coins, steps = table.kit.pool_odds(tuple(sorted(map(table.types.__getitem__, ready))))
        push = table.remember(key, (blank, 1.5 * steps + coins / 3 + 0.3 * len(ready)))
    return push


def _total(standing: tuple[int, int, int, float, tuple[float, float] | None], steps: int, coins: int, credits: int,
           gained_dice: int, rolling: bool) -> float:
    """``_rating`` from a standing and the player's resources (``gained_dice`` more dice owned than now)."""
    lead, fans, owned, active, push = standing
    score = lead + 1.5 * steps + 0.3 * coins + 0.4 * credits + 0.3 * fans + 0.8 * (owned + gained_dice) + active
    if rolling and push is not None:
        bust, gain = push
        score += (1 - bust) * gain - bust * active
    return score


def _rating(table: Table, player: Player) -> float:
    """``Cubitos.score`` of a player still racing: how little of the race is left, what the active dice and
    resources will bring, and, while the player still rolls, what pushing the ready zone is worth against losing
    the active dice."""
    return _total(_standing(table, player), player.steps, player.coins, player.credits, 0,
                  not player.done_rolling)


GAME = Cubitos()


def push_odds(state: State, p: int) -> dict[str, float]:
    """What a push of the ready zone risks and brings, exactly from the dice's faces (CU-31, CU-33): the chance
    that it busts (no hit while in danger; 0 out of danger) and the coins and steps its plain faces bring on
    average. (The Tabletop Simulator tray players know shows only the first.)"""
    return _odds(state.table, state.players[p])


def _odds(table: Table, player: Player) -> dict[str, float]:
    blank, coins, steps = table.kit.pool_odds(tuple(sorted(table.types[d] for d in player.ready)))
    return {"bust": blank if player.danger and player.ready else 0.0, "coins": coins, "steps": steps}


def view(state: State) -> dict[str, Any]:
    """Everything a dashboard shows, as JSON."""
    table = state.table
    types = table.types

    def dice(ids: Iterable[int]) -> list[str]:
        return sorted(types[d] for d in ids)

    players = []
    for p, player in enumerate(state.players):
        players.append({
            "colour": table.colours[p], "name": table.names[p], "bot": table.bots[p],
            "draw": dice(player.draw), "ready": dice(player.ready),
            "active": sorted(f"{types[d]}/{label}" for d, label in player.active), "rest": dice(player.rest),
            "coins": player.coins, "steps": player.steps, "water": player.water, "credits": player.credits,
            "limit_tokens": player.limit_tokens, "fans": player.fans, "danger": player.danger,
            "busted": player.busted, "done_rolling": player.done_rolling, "track": player.segment,
            "space": player.space, "laps": player.laps, "reached": player.reached, "bought": list(player.bought),
            "swords": player.swords, "draw_limit": draw_limit(state, p), "lines_passed": lines_passed(table, player),
            "push": push_odds(state, p),
        })
    stock = Counter(types[d] for d in state.stock)
    return {
        "game": "cubitos", "race": table.race.id, "round": state.round, "phase": state.phase,
        "current": None if state.phase == "over" else table.colours[state.current],
        "lead": table.colours[state.lead], "racing": [table.colours[p] for p in state.racing],
        "tracks": [t.id for t in table.segments], "laps": table.laps,
        "cards": {colour: card.id for colour, card in table.cards.items()},
        "costs": {kind: table.cost(kind) for kind in sorted(set(table.types)) if table.cost(kind) is not None},
        "stock": dict(sorted(stock.items())), "players": players,
        "bonuses": [dict(b) for b in state.bonuses],
        "winners": [table.colours[p] for p in state.winners], "tiebreak": state.tiebreak,
        "over": state.phase == "over",
    }
