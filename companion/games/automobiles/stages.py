"""The small decisions inside a rule (``Stage``): pick a cube, take a step, draw, keep, sort, buy, choose, and
what each one listed and played does. A finished stage is ``closed``; the phase its ``then`` names goes on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.automobiles.state import (
    COLOURS,
    EMPTY,
    WEAR,
    Cubes,
    Placed,
    Stage,
    State,
    add,
    as_list,
    available,
    buy,
    buys,
    cost_for_sum,
    count,
    draw_into,
    field_colours,
    gain,
    money,
    move_cube,
    plus,
    seat,
)
from companion.games.automobiles.track import car_to, step_choices, why_not_there
from companion.games.base import Action, Event, IllegalAction

STOP: Action = {"type": "stop"}
STAGE_ACTIONS = ("pick", "stop", "step", "draw", "keep", "sort", "buy", "drive", "decline")
BIG = 99
"""No limit: as many as the zone holds."""


def wait(state: State, stage: Stage) -> State:
    """The table waiting for ``stage``, decided by its player."""
    return state._replace(stage=stage, actor=stage.who)


def pick(p: int, then: str, src: tuple[str, ...], dst: str, lo: int, hi: int, *, card: str = "",
         only: tuple[str, ...] | None = None, wear_each: int = 0) -> Stage:
    return Stage("pick", then, p, card=card, src=src, dst=dst, lo=lo, hi=hi, only=only, wear_each=wear_each)


def move(p: int, then: str, colours: tuple[str, ...], lo: int, hi: int, *, card: str = "", colour: str = "",
         same: bool = False, mover: str = "cube", counts_wear: bool = True) -> Stage:
    return Stage("move", then, p, card=card, colours=colours, lo=lo, hi=hi, colour=colour, same_colour=same,
                 mover=mover, counts_wear=counts_wear)


def draw(p: int, then: str, *, lo: int = 0, hi: int = 1, card: str = "", wear_each: int = 0,
         sizes: tuple[int, ...] = (), until_non_wear: bool = False, dst: str = "active") -> Stage:
    return Stage("draw", then, p, card=card, lo=lo, hi=hi, wear_each=wear_each, sizes=sizes,
                 until_non_wear=until_non_wear, dst=dst)


def purple4_possible(state: State, total: int, discard: Cubes, picks: int) -> bool:
    """AU-74: some buyable cube costs at most ``total`` plus the ``picks`` dearest cubes still in the discard."""
    costs = sorted((cost_for_sum(state, c) for c in as_list(discard)), reverse=True)
    return bool(buys(state, total + sum(costs[:picks])))


def _pick_ok(state: State, stage: Stage, colour: str) -> bool:
    """Extra limits of a pick: AU-74 keeps a buy possible, AU-105 needs $1 per cube."""
    if stage.card == "base_purple_4":
        return purple4_possible(state, stage.budget + cost_for_sum(state, colour),
                                add(state.players[stage.who].discard, colour, -1), stage.hi - stage.done - 1)
    return stage.card != "driver_05" or money(state, stage.who) >= 1


def stage_options(state: State) -> list[Action]:
    stage = state.stage
    assert stage is not None
    player = state.players[stage.who]
    options: list[Action] = []
    if stage.kind == "pick":
        if stage.done >= stage.lo and not (stage.card == "base_purple_4"
                                           and not purple4_possible(state, stage.budget, player.discard, 0)):
            options.append(STOP)
        for src in stage.src:
            zone = state.stock if src == "stock" else getattr(player, src)
            options += [{"type": "pick", "colour": colour, "from": src} for colour, n in zip(COLOURS, zone, strict=True)
                        if n and (stage.only is None or colour in stage.only) and _pick_ok(state, stage, colour)]
    elif stage.kind == "move":
        if stage.done >= stage.lo:
            options.append(STOP)
        for frm, to, colour in step_choices(state, stage):
            options.append({"type": "step", "to": to, **({"from": frm} if frm else {}),
                            **({"colour": colour} if colour else {})})
    elif stage.kind == "draw" and stage.sizes:
        options += [{"type": "draw", "roll": k} for k in stage.sizes]
    elif stage.kind == "draw":
        if stage.done >= stage.lo and not stage.until_non_wear:
            options.append(STOP)
        if available(player) and stage.done < stage.hi:
            options.append({"type": "draw", "roll": 1})
    elif stage.kind == "keep":
        options += [{"type": "keep", "colour": c} for c in COLOURS if count(player.aside, c)]
    elif stage.kind == "sort":
        options += [{"type": "sort", "colour": c, "to": to} for c in COLOURS if count(player.aside, c)
                    for to in ("stock", "active", "bag")]
    elif stage.kind == "buy":
        if stage.hi > 1:  # a sponsor's money: any number of cubes (AU-114)
            options.append(STOP)
        options += buys(state, stage.budget)
    elif stage.kind == "choose":
        options += [{"type": "drive", "to": seg} for seg in stage.choices]
    elif stage.kind == "boost":
        options.append({"type": "decline"})
        if available(player):
            options.append({"type": "draw", "roll": 1})
    return options


def undecided(state: State) -> bool:
    """The stage the table waits for still has a choice: a ``skip`` of the phases that wait for stages."""
    return state.stage is not None and not state.stage.closed and stage_options(state) not in ([], [STOP])


def close(state: State, stage: Stage, events: list[Event]) -> State:
    """A finished stage, closed for the phase its ``then`` names; a moved cube comes to rest (AU-26) and its
    fields are entered (AU-31)."""
    if stage.kind == "move" and stage.mover == "cube" and stage.done:
        state = state.with_turn(placed=(*state.turn.placed, Placed(stage.colour, stage.at or "", stage.crossings)),
                                entered=state.turn.entered | frozenset(stage.fields))
        events.append({"type": "placed", "player": seat(state, stage.who), "colour": stage.colour,
                       "segment": stage.at, "fields": list(stage.fields)})
        if stage.card == "red_line" and any("white" not in field_colours(state, f) for f in stage.fields):
            state, _ = gain(state, stage.who, WEAR, 1, events)  # AU-88
    return state._replace(stage=stage._replace(closed=True))


def on_stage(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """One listed decision of the stage the table waits for."""
    stage = state.stage
    assert stage is not None
    p, kind = stage.who, action["type"]
    if kind in ("stop", "decline"):
        return close(state, stage, events)
    if stage.kind == "pick":
        colour = action["colour"]
        state = move_cube(state, p, colour, action["from"], stage.dst, events)
        if stage.card == "driver_05":  # AU-105: $1 a cube
            state = state.with_turn(spent=state.turn.spent + 1)
        if stage.wear_each:
            state, _ = gain(state, p, WEAR, stage.wear_each, events)
        budget = stage.budget + (cost_for_sum(state, colour) if stage.card == "base_purple_4" else 0)
        stage = stage._replace(done=stage.done + 1, picked=add(stage.picked, colour), budget=budget)
    elif stage.kind == "move":
        key = (action.get("from", ""), action["to"], action.get("colour", ""))
        crossings, target = step_choices(state, stage)[key]
        stage = stage._replace(done=stage.done + 1, fields=(*stage.fields, target), at=action["to"],
                               crossings=crossings, colours=(key[2],) if stage.same_colour else stage.colours,
                               same_colour=False)
        if stage.mover == "car":
            state = car_to(state, p, action["to"], crossings, events, stage.card or "move")
            if stage.counts_wear:
                state = state.with_turn(entered=state.turn.entered | {target}, car_moved=True)
        else:
            if stage.done < stage.hi:  # the last step's field is entered where close places the cube
                state = state.with_turn(entered=state.turn.entered | {target})
            events.append({"type": "stepped", "player": seat(state, p), "colour": stage.colour, "to": action["to"]})
    elif stage.kind in ("draw", "boost"):
        k = action["roll"]
        state, drawn = draw_into(state, p, action.get("dice"), k, stage.dst or "active", events)
        if stage.wear_each:
            state, _ = gain(state, p, WEAR, stage.wear_each * k, events)
        stage = stage._replace(done=stage.done + k, picked=plus(stage.picked, drawn))
        if stage.sizes or stage.kind == "boost" or stage.until_non_wear and (
                count(drawn, WEAR) < k or not available(state.players[p])):
            return close(state, stage, events)
    elif stage.kind == "keep":  # AU-81
        player = state.players[p]
        rest = add(player.aside, action["colour"], -1)
        state = state.with_player(p, aside=EMPTY, active=add(player.active, action["colour"]),
                                  discard=plus(player.discard, rest))
        events.append({"type": "kept", "player": seat(state, p), "colour": action["colour"],
                       "discarded": as_list(rest)})
        return close(state, stage, events)
    elif stage.kind == "sort":  # AU-104
        state = move_cube(state, p, action["colour"], "aside", action["to"], events)
        return state if sum(state.players[p].aside) else close(state, stage, events)
    elif stage.kind == "buy":
        state, price = buy(state, p, action["colour"], stage.dst or "used", events)
        if stage.hi <= 1:
            return close(state, stage, events)
        stage = stage._replace(budget=stage.budget - price, done=stage.done + 1)
    elif stage.kind == "choose":  # AU-38: the player's choice among equally far cubes
        cube = next(c for c in state.turn.placed if c.segment == action["to"])
        state = car_to(state, p, cube.segment, cube.crossings, events, "furthest_cube").with_turn(car_moved=True)
        return close(state, stage, events)
    state = state._replace(stage=stage)
    if stage.done >= stage.hi or stage_options(state) in ([], [STOP]):
        return close(state, stage, events)
    return state


def why_not(state: State, action: Mapping[str, Any]) -> IllegalAction:
    """The rule an unlisted answer to a stage breaks."""
    stage = state.stage
    assert stage is not None
    if stage.kind == "move" and action.get("type") == "step":
        return IllegalAction(*why_not_there(state, stage, action))
    legal = stage_options(state)
    if stage.kind in ("draw", "boost"):
        return IllegalAction("AU-51", f"{dict(action)} is not a draw that can happen now", legal=legal)
    if stage.kind == "buy":
        return IllegalAction("AU-74", f"{dict(action)} is not a cube of cost <= {stage.budget} in the stock",
                             legal=legal)
    if action.get("type") == "stop":
        return IllegalAction("AU-21", f"the effect must go on: at least {stage.lo}", legal=legal)
    return IllegalAction("AU-21", f"{dict(action)} is not possible in this effect", legal=legal)
