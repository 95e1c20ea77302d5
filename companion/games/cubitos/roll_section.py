"""The roll section (CU-20..CU-41): roll order, refill, roll, danger and busts, push or pass.

Everyone shares one tray, so it is played one roller at a time (CU-23): the one with the most dice to roll rolls
once and pushes or passes, then the order is worked out again. Which dice a player took from the draw zone to refill
(CU-27) is what the roll shows beyond the ready zone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import product
from typing import Any

from companion.games.base import Action, Event, IllegalAction
from companion.games.cubitos.abilities import ability_options, placed, usable, use_ability
from companion.games.cubitos.state import (
    State,
    advance_fans,
    changed,
    draw_limit,
    lead_order,
    parse_roll,
    seat,
    shown_faces,
    take,
)

ROLL_ORDER_COUNTS_LEAD_DIE = True
"""CU-23 **Decision**: the lead die counts among the dice in the ready zone that decide who rolls next."""
ROLL_ORDER_AFTER_REFILL = True
"""CU-23 **Decision**: the dice in the ready zone are counted after the player's refill (phase 1): the order says
who *rolls* (rulebook l. 535, phase 2), and each fills their own zone without one. False counts them before."""


# ------------------------------------------------------------------------------------------------- CU-23 roll order


def refill_bounds(state: State, p: int) -> tuple[int, int, bool]:
    """CU-27..CU-29: (fewest, most) dice the refill may move to the ready zone, and whether the rest zone is
    recycled into the draw zone first. Colours excluded by last round's abilities (Dieter, Handkäs) neither count
    nor fill the limit but may come along; with no limit (Uppercut-Uwe) any number come from any zone."""
    player, table = state.players[p], state.table
    if player.refilled:
        return 0, 0, False
    if player.refill_no_limit:
        return 0, len(player.draw) + len(player.rest), False

    def counts(die: int) -> bool:
        return table.colour(die) not in player.refill_exclude

    need = max(0, draw_limit(state, p) - sum(d != table.lead_die and counts(d) for d in player.ready))
    recycle = need > sum(map(counts, player.draw))
    pool = player.draw + (player.rest if recycle else ())
    fewest = min(need, sum(map(counts, pool)))
    return fewest, fewest + sum(not counts(d) for d in pool), recycle


def next_roller(state: State) -> int | None:
    """CU-23: among those still rolling, the most dice in the ready zone; a tie goes to the first in lead order."""

    def dice(p: int) -> int:
        player = state.players[p]
        count = len(player.ready) - (not ROLL_ORDER_COUNTS_LEAD_DIE and state.table.lead_die in player.ready)
        return count + (refill_bounds(state, p)[0] if ROLL_ORDER_AFTER_REFILL else 0)

    return max((p for p in lead_order(state) if not state.players[p].done_rolling), key=dice, default=None)


def to_next_roller(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-23, CU-22: the next roller, or, when everyone has finished rolling, the race section."""
    roller = next_roller(state)
    if roller is not None:
        return state._replace(current=roller)
    events.append({"type": "race_section", "round": state.round})
    return state._replace(current=lead_order(state)[0])


# ----------------------------------------------------------------------------------------- CU-25..CU-33 the roll


def roll_options(state: State) -> list[Action]:
    """CU-30: roll the ready zone and the refill; a refill of a choosable size gives one option per size."""
    low, high, _ = refill_bounds(state, state.current)
    ready = len(state.players[state.current].ready)
    return [{"type": "roll", "roll": ready + n} for n in range(low, high + 1)]


def roll_dice(state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
    """What a bot's roll shows: the ready zone and a random refill of the option's size (CU-27..CU-29)."""
    player, table = state.players[state.current], state.table
    extra = option["roll"] - len(player.ready)
    chosen: list[int] = []
    if player.refill_no_limit:
        chosen = rng.sample([*player.draw, *player.rest], extra)
    elif extra:
        low, _, recycle = refill_bounds(state, state.current)
        pool = (*player.draw, *(player.rest if recycle else ()))
        counted = [d for d in pool if table.colour(d) not in player.refill_exclude]
        drawn = [d for d in counted if d in player.draw]
        if recycle:  # all of the draw zone first (CU-28), then from the recycled rest zone
            chosen = drawn + rng.sample([d for d in counted if d not in player.draw], low - len(drawn))
        else:
            chosen = rng.sample(counted, low)
        chosen += rng.sample([d for d in pool if d not in counted], extra - low)
    return shown_faces(table, (*player.ready, *chosen), rng)


def _beyond_ready(rolled: list[tuple[str, str]], state: State, p: int) -> Counter[str]:
    """Die type -> how many more dice of it the roll shows than the ready zone holds (the refill's); a roll that
    lacks a die of the ready zone is illegal (CU-30: every one is rolled)."""
    shown = Counter(kind for kind, _ in rolled)
    held = Counter(state.table.types[d] for d in state.players[p].ready)
    if held - shown:
        raise IllegalAction("CU-30", "every die of the ready zone is rolled; the roll lacks "
                            + ", ".join(f"{n} {t}" for t, n in (held - shown).items()))
    return shown - held


def _refill(state: State, p: int, extra: Counter[str], events: list[Event]) -> State:
    """CU-27..CU-29: the dice the roll shows beyond the ready zone come from the draw zone (the rest zone
    recycled into it when it lacks enough), or with no limit (CU-99) from the draw zone, then the rest zone."""
    player, table = state.players[p], state.table
    low, _, recycle = refill_bounds(state, p)
    draw, rest = list(player.draw), list(player.rest)
    if not player.refill_no_limit:
        excluded = player.refill_exclude
        counted = sum(n for kind, n in extra.items() if table.kit.dice[kind].colour not in excluded)
        if counted != low:
            raise IllegalAction("CU-27", f"the refill fills the limit: {low} dice"
                                + (f" not {', '.join(sorted(excluded))}" if excluded else "")
                                + f", the roll shows {counted}")
        if recycle:  # CU-28: what is left of the draw zone first, then the rest zone becomes the draw zone
            left = Counter(table.types[d] for d in draw if table.colour(d) not in excluded)
            if left - extra:
                raise IllegalAction("CU-28", "the draw zone runs out: every die left in it is refilled first")
            draw, rest = draw + rest, []
            events.append({"type": "recycled", "player": seat(state, p), "dice": len(draw)})
    refilled = []
    for kind, n in sorted(extra.items()):
        for _ in range(n):
            source = draw if any(table.types[d] == kind for d in draw) else rest if player.refill_no_limit else None
            if source is None:
                rule = "CU-29" if player.refill_no_limit else "CU-27"
                raise IllegalAction(rule, f"the refill takes dice from the draw zone; it has no {n} {kind}")
            refilled.append(take(source, table.types, kind))
    events.append({"type": "refilled", "player": seat(state, p), "limit": draw_limit(state, p),
                   "dice": sorted(table.types[d] for d in refilled)})
    return changed(state, p, draw=tuple(draw), rest=tuple(rest), ready=player.ready + tuple(refilled),
                   refilled=True)


def on_roll(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-27..CU-36: refill (what the roll shows beyond the ready zone), roll, place hits; danger or a bust."""
    p = state.current
    player = state.players[p]
    dice = action.get("dice")
    count = action.get("roll")
    if not isinstance(count, int):  # a confirmed roll names its size by its dice
        count = len(dice) if isinstance(dice, list) else -1
    sizes = [o["roll"] for o in roll_options(state)]
    if count not in sizes:
        raise IllegalAction("CU-27", f"{seat(state, p)} cannot roll {count} dice now", legal=sizes)
    rolled = parse_roll(state, dice, count)
    extra = _beyond_ready(rolled, state, p)
    if player.refilled and extra:
        raise IllegalAction("CU-30", "a push rolls the dice of the ready zone only")
    if not player.refilled:
        state = _refill(state, p, extra, events)
    state = _place(state, p, rolled, dice, events)
    if player.danger and all(_blank(state, kind, label) for kind, label in rolled):
        if not player.safe_roll:
            return changed(state, p, busting=True)
        events.append({"type": "bust_prevented", "player": seat(state, p)})  # CU-113, CU-35: this roll cannot bust
    return changed(state, p, safe_roll=False)


def _blank(state: State, kind: str, label: str) -> bool:
    return state.table.kit.dice[kind].by_label[label].blank


def _place(state: State, p: int, rolled: list[tuple[str, str]], dice: list[str], events: list[Event]) -> State:
    """CU-31, CU-36: each die shown is the lowest of its type in the ready zone (dice of a type are alike); hits
    become active (placed, CU-81), blanks stay in the ready zone."""
    player = state.players[p]
    pool, blanks, hits = list(player.ready), [], []
    for kind, label in rolled:
        die = take(pool, state.table.types, kind)
        (blanks if _blank(state, kind, label) else hits).append((die, label))
    events.append({"type": "rolled", "player": seat(state, p), "dice": list(dice),
                   "hits": [name for name, (kind, label) in zip(dice, rolled, strict=True)
                            if not _blank(state, kind, label)]})
    state = changed(state, p, ready=tuple(d for d, _ in blanks), active=player.active + tuple(hits))
    return placed(state, p, hits, events)


# --------------------------------------------------------------------------------------------------- CU-34 bust


def busting_options(state: State) -> list[Action]:
    return [{"type": "bust"}, *ability_options(state, "bust")]


def on_busting(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-34 (1): bust reactions first; one that ignores the bust makes the roll a no-hit roll out of danger."""
    if action["type"] == "bust":
        return state
    state = use_ability(state, action, events, "bust")
    if not state.players[state.current].busting:
        events.append({"type": "bust_ignored", "player": seat(state, state.current)})
        state = changed(state, state.current, keep_on_bust=frozenset())
    return state


def after_busting(state: State, action: Mapping[str, Any]) -> str:
    if not state.players[state.current].busting:
        return "event"
    return "busting" if action.get("type") == "ability" and usable(state, state.current, "bust") else "bust_dice"


def bust_dice(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-34 (2): every active die to the rest zone, but the colours Punk Grapefruit keeps."""
    p = state.current
    player, table = state.players[p], state.table
    kept = tuple(a for a in player.active if table.colour(a[0]) in player.keep_on_bust)
    gone = [d for d, label in player.active if (d, label) not in kept]
    events.append({"type": "bust", "player": seat(state, p), "active": len(player.active), "kept": len(kept)})
    return changed(state, p, rest=player.rest + tuple(gone), active=kept, busted=True, busting=False,
                   keep_on_bust=frozenset(), pushed_active=None, must_push=False,
                   used=frozenset(u for u in player.used if u[0] not in gone))


def bust_options(state: State) -> list[Action]:
    """CU-34 (3): any number of the ready zone's dice to the rest zone, by type (dice of a type are alike)."""
    counts = Counter(state.table.types[d] for d in state.players[state.current].ready)
    kinds = sorted(counts)
    return [{"type": "rest", "rest": {k: n for k, n in zip(kinds, numbers, strict=True) if n}}
            for numbers in product(*(range(counts[k] + 1) for k in kinds))]


def on_rest(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    types = state.table.types
    ready = list(state.players[p].ready)
    moved = [take(ready, types, kind) for kind, n in sorted(action["rest"].items()) for _ in range(n)]
    if moved:
        events.append({"type": "rested", "player": seat(state, p), "dice": sorted(types[d] for d in moved)})
    return changed(state, p, ready=tuple(ready), rest=state.players[p].rest + tuple(moved))


def bust_fan(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-34 (4), (5): one fan, then the player has finished the roll section."""
    return changed(advance_fans(state, state.current, 1, events), state.current, done_rolling=True)


# ------------------------------------------------------------------------------------ CU-37..CU-41 push or pass


def settle(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-40: the push's event is over; CU-37, CU-110: with nothing left to roll the player must pass (**Decision**:
    a push owed lapses)."""
    p = state.current
    state = changed(state, p, pushed_active=None, event_used=frozenset())
    if state.players[p].ready:
        return state
    events.append({"type": "must_pass", "player": seat(state, p)})
    events.append({"type": "passed", "player": seat(state, p)})
    return changed(state, p, done_rolling=True)


def choice_options(state: State) -> list[Action]:
    """CU-37, CU-110: push or pass; only push while one is owed, only pass with no die to roll."""
    player = state.players[state.current]
    options: list[Action] = [] if player.must_push and player.ready else [{"type": "pass"}]
    if player.ready:
        options.append({"type": "push"})
    return options + ability_options(state, "any")


def on_choice(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-37, CU-39: pass, or push: push-time abilities, then the ready zone is rolled when the order comes back;
    an ability of any time (CU-104, CU-127, CU-138) in between."""
    p = state.current
    if action["type"] == "ability":
        return use_ability(state, action, events, "any")
    events.append({"type": "passed" if action["type"] == "pass" else "pushed", "player": seat(state, p)})
    if action["type"] == "pass":
        return changed(state, p, done_rolling=True)
    return changed(state, p, must_push=False, pushed_active=frozenset(d for d, _ in state.players[p].active))


