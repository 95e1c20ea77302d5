"""A player's turn (AU-16..AU-57, the drivers AU-100..AU-110): one handler per phase of ``rules.PHASES``, in the
order of the rulebook; each leaves the table waiting for a ``Stage`` or leaves no stage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.automobiles import cards, stages, track
from companion.games.automobiles.stages import wait
from companion.games.automobiles.state import (
    EMPTY,
    GEARS,
    WEAR,
    Stage,
    State,
    Turn,
    available,
    buy,
    buys,
    count,
    driver_ready,
    gain,
    money,
    plus,
    position,
    rank_key,
    ranking,
    remove_all,
    seat,
)
from companion.games.base import Action, Event, IllegalAction


def resume(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """The current player decides again, no stage pending (back to the action or buy phase)."""
    return state._replace(stage=None, actor=state.current)


def begin_turn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-16: a fresh turn for the current player."""
    events.append({"type": "turn", "player": seat(state, state.current), "round": state.round})
    return state._replace(actor=state.current, turn=Turn(), stage=None)


def deferred_draws(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-119 **Decision**: Boost draws owed from others' turns come first; they lapse if nothing can be drawn."""
    p = state.current
    owed = state.players[p].deferred_draws
    if owed and available(state.players[p]):
        return wait(state, stages.draw(p, "deferred_drawn", lo=0, hi=owed))
    return state.with_player(p, deferred_draws=0)._replace(stage=None) if owed else state


def deferred_drawn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    return state.with_player(state.current, deferred_draws=0)._replace(stage=None)


def deferred_moves(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-119: then rs_blue_1's car fields owed from others' turns (no wear, AU-95)."""
    p = state.current
    owed = state.players[p].deferred_moves
    stage = stages.move(p, "deferred_moved", GEARS, 0, owed, mover="car", counts_wear=False, card="advance")
    if owed and track.step_choices(state, stage):
        return wait(state, stage)
    return resume(state.with_player(p, deferred_moves=0), action, events)


def deferred_moved(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    return resume(track.sog(state.with_player(state.current, deferred_moves=0), events), action, events)


def action_options(state: State) -> list[Action]:
    """AU-20 (activations), AU-102, AU-103 (drivers), AU-35 (to the buy phase), AU-54 (a pit stop, before the turn
    is committed to a standard one)."""
    p = state.current
    player = state.players[p]
    options = cards.activations(state, p)
    options += [{"type": "use_driver", "driver": d} for d in ("driver_02", "driver_03")
                if driver_ready(state, p, d) and sum(player.discard)]
    options.append({"type": "to_buy"})
    if not state.turn.committed:
        options.append({"type": "pit_stop"})
    return options


def on_action(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p, kind = state.current, action["type"]
    if kind == "pit_stop":
        return pit_stop(state, p, events)
    if kind == "activate":
        return cards.activate(state, action, events)
    state = state.with_turn(committed=True)
    if kind == "use_driver":
        driver = action["driver"]
        state = state.uses_driver(driver)
        events.append({"type": "driver_used", "player": seat(state, p), "driver": driver})
        if driver == "driver_02":  # AU-102
            return wait(state, stages.pick(p, "to_action", ("discard",), "active", 1, 1, card=driver))
        return wait(state, stages.pick(p, "to_action", ("discard",), "bag", 0, 3, card=driver))  # AU-103
    events.append({"type": "buy_phase", "player": seat(state, p), "money": money(state, p)})
    return state


def pit_stop(state: State, p: int, events: list[Event]) -> State:
    """AU-54 (**Decision**: also without wear): every active wear cube back to the stock, then the end phase."""
    events.append({"type": "pit_stop", "player": seat(state, p), "wear": count(state.players[p].active, WEAR)})
    return remove_all(state, p, WEAR, "active", []).with_turn(pit_stop=True, committed=True)


def buy_options(state: State) -> list[Action]:
    """AU-36: cubes for the money of the active area; AU-104, AU-105: drivers."""
    p = state.current
    left, player = money(state, p), state.players[p]
    usable = {"driver_04": available(player), "driver_05": left >= 1 and sum(player.discard)}
    return [{"type": "done"}, *buys(state, left),
            *({"type": "use_driver", "driver": d} for d, ok in usable.items() if ok and driver_ready(state, p, d))]


def on_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-35..AU-37, AU-104, AU-105."""
    p, kind = state.current, action["type"]
    if kind == "buy":
        state, price = buy(state, p, action["colour"], "used", events)
        return state.with_turn(spent=state.turn.spent + price, drivers_used=state.turn.drivers_used | {"driver_04"})
    if kind == "use_driver":
        driver = action["driver"]
        state = state.uses_driver(driver).uses_driver("driver_04")  # driver_04 only at the start of the buy phase
        events.append({"type": "driver_used", "player": seat(state, p), "driver": driver})
        if driver == "driver_04":  # AU-104
            top = min(3, available(state.players[p]))
            return wait(state, stages.draw(p, "driver_04_sort", sizes=tuple(range(1, top + 1)), dst="aside",
                                           card=driver))
        return wait(state, stages.pick(p, "to_buy", ("discard",), "stock", 0, stages.BIG, card=driver))  # AU-105
    events.append({"type": "unspent", "player": seat(state, p), "lost": money(state, p)})  # AU-37
    return state


def driver_04_sort(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-104: each drawn cube (the draw took at least one) to the stock, the active area or back into the bag."""
    return wait(state, Stage("sort", "to_buy", state.current))


def movement(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-38, AU-39: the car goes to the furthest placed cube; among equally far ones the player chooses
    (**Decision**)."""
    p = state.current
    state = state.with_turn(start_rank=position(state, p))._replace(stage=None)
    placed = state.turn.placed
    if not placed:
        return state
    along = state.table.track.along
    far = max(along(c.crossings, c.segment) for c in placed)
    best = list(dict.fromkeys(c.segment for c in placed if along(c.crossings, c.segment) == far))
    if len(best) > 1:
        return wait(state, Stage("choose", "adrenaline", p, choices=tuple(best)))
    cube = next(c for c in placed if c.segment == best[0])
    return track.car_to(state, p, cube.segment, cube.crossings, events, "furthest_cube").with_turn(car_moved=True)


def adrenaline(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-40 **Decision**: Adrenalin's fields come first: 2·g light grey fields for g places gained (AU-92)."""
    p, turn = state.current, state.turn
    state = state._replace(stage=None)
    if not turn.adrenaline:
        return state
    g = max(0, turn.start_rank - position(state, p))
    events.append({"type": "adrenaline", "player": seat(state, p), "gained_places": g})
    if not g:
        return state
    return wait(state, stages.move(p, "driver_06", ("light_grey",), 0, 2 * g * turn.adrenaline, mover="car",
                            card="rs_green_1"))


def offer(state: State, driver: str, stage: Stage, when: bool = True) -> State:
    """AU-100: the table waits for ``driver``'s optional ``stage`` if its player has it unused (and ``when``)."""
    if when and driver_ready(state, stage.who, driver):
        return wait(state.uses_driver(driver), stage._replace(card=driver))
    return state


def driver_06(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-106 (**Decision**: also without placed cubes): then one field of any gear colour."""
    stage = stages.move(state.current, "wear_phase", GEARS, 0, 1, mover="car")
    return offer(state._replace(stage=None), "driver_06", stage)


def wear_phase(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-42..AU-45, then driver_01 (AU-101, **Decision**: its fields give no wear, no new slipstream check)."""
    p = state.current
    owed = track.wear_owed(state, p)
    events.append({"type": "wear_phase", "player": seat(state, p), "owed": owed,
                   "slipstream": track.slipstream(state, p)})
    state, got = gain(state._replace(stage=None), p, WEAR, owed, events)
    return offer(state.with_turn(wear_gained=got), "driver_01",
                 stages.move(p, "end_phase", ("light_grey",), 0, got, mover="car", counts_wear=False), got > 0)


def end_phase(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-47: driver_08 may first put up to 3 wear cubes back (AU-108)."""
    p = state.current
    player = state.players[p]
    wear = count(player.active, WEAR) + count(player.used, WEAR) + count(player.discard, WEAR)
    return offer(state._replace(stage=None), "driver_08",
                 stages.pick(p, "sweep", ("active", "used", "discard"), "stock", 0, 3, only=(WEAR,)), wear > 0)


def sweep(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-47, AU-48: the active and used areas to the discard, then draw 7 (driver_07, driver_09: more)."""
    p = state.current
    player = state.players[p]
    player = player._replace(active=EMPTY, used=EMPTY, discard=plus(player.discard, plus(player.active, player.used)))
    events.append({"type": "swept", "player": seat(state, p)})
    base = state.table.kit.draw_per_turn
    extra = {"driver_07": max(0, state.turn.wear_gained), "driver_09": 2}.get(player.driver, 0)  # AU-107, AU-109
    avail = available(player)
    state = state.with_seat(p, player, stage=None).with_turn(placed=())
    if not avail:
        return state
    return wait(state, stages.draw(p, "mulligan", sizes=tuple(dict.fromkeys(min(k, avail)
                                                                     for k in range(base, base + extra + 1)))))


def mulligan(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-110: driver_10 may put drawn cubes back and draw as many again."""
    p = state.current
    stage = stages.pick(p, "redraw", ("active",), "discard", 0, stages.BIG)
    return offer(state._replace(stage=None), "driver_10", stage, sum(state.players[p].active) > 0)


def redraw(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p, put_back = state.current, state.stage.done  # the mulligan's pick closed: redraw comes only after it
    k = min(put_back, available(state.players[p]))
    state = state._replace(stage=None)
    return wait(state, stages.draw(p, "turn_over", sizes=(k,), card="driver_10")) if k else state


def turn_over(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-49 Sog, then AU-95: the players behind move (**Decision**: those behind once Sog is done)."""
    p = state.current
    state = track.sog(state._replace(stage=None), events)
    n = state.turn.advance
    if n and not state.turn.pit_stop:
        behind = [q for q in ranking(state) if rank_key(state, q) > rank_key(state, p)]
        if state.table.accelerated:
            for q in behind:
                state = state.with_player(q, deferred_moves=state.players[q].deferred_moves + n)
        else:
            state = state.with_turn(queue=tuple(behind))
    return state


def next_advance(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-95: the best placed of those still owed moves next, up to as many fields as rs_blue_1 cubes."""
    state = state._replace(stage=None, actor=state.current)
    queue = state.turn.queue
    if not queue:
        return state
    q = min(queue, key=lambda s: rank_key(state, s))
    state = state.with_turn(queue=tuple(s for s in queue if s != q))
    stage = stages.move(q, "advanced", GEARS, 0, state.turn.advance, mover="car", counts_wear=False, card="advance")
    return wait(state, stage) if track.step_choices(state, stage) else state


def advanced(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    return track.sog(state._replace(stage=None, actor=state.current), events)


def next_turn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    order = state.table.order
    k = order.index(state.current)
    state = state._replace(round=state.round + 1) if k == len(order) - 1 else state
    return state._replace(current=order[(k + 1) % len(order)], stage=None)


def refusal(state: State, action: Mapping[str, Any]) -> IllegalAction:
    """The rule an unlisted choice of the action phase breaks."""
    p, kind = state.current, action.get("type")
    if kind == "pit_stop":
        if state.turn.committed:
            return IllegalAction("AU-17", f"{seat(state, p)} has started a standard turn: no pit stop now")
        wear = count(state.players[p].active, WEAR)
        return IllegalAction("AU-54", f"a pit stop returns every active wear cube ({wear}), none is chosen: "
                             f"{dict(action)} has fields", legal=[{"type": "pit_stop"}])
    if kind == "activate":
        return cards.refusal(state, p, action)
    return IllegalAction("AU-20", f"{dict(action)} is not possible now", legal=action_options(state))
