"""Automobiles rules (``../shared/games/automobiles/RULES.md``, AU-1..AU-121): a bag-building race, pure over the data.

``PHASES`` is the flow of the game as data: a phase with actions waits for a player (a step of the turn, or a
``Stage``, a small decision inside a rule, which names the phase after it: ``Stage.then``); one without is carried
out at once. A draw is an input like dice, checked against the bag (AU-52). Events are codes, never sentences.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.games.automobiles import cards, season, stages, track, turn
from companion.games.automobiles import setup as opening
from companion.games.automobiles.present import draw_odds
from companion.games.automobiles.state import (
    COLOURS,
    State,
    as_dict,
    as_list,
    distance,
    field_of,
    money,
    plus,
    position,
    seat,
    total_cubes,
)
from companion.games.base import Action, Event, IllegalAction, Phase, Prompt, apply_in_phase, by_itself, enter

Next = Callable[[State, Mapping[str, Any]], str]


def options(state: State) -> list[Action]:
    return PHASES[state.phase].options(state)


def prompt(state: State) -> Prompt:
    if state.phase == "over":
        return Prompt(actor=None, phase="over", info={"winners": [seat(state, p) for p in state.winners]})
    info: dict[str, Any] = {"turn": seat(state, state.current)}
    if state.stage is not None:
        info.update(stage=state.stage.kind, card=state.stage.card, done=state.stage.done, at_most=state.stage.hi)
    elif state.phase == "buy":
        info["money"] = money(state, state.current)
    return Prompt(seat(state, state.actor), state.phase, options(state), info)


def after_stage(state: State, action: Mapping[str, Any]) -> str:
    """A stage is decided in its phase while it leaves a choice (``stages.undecided``); then its ``then``."""
    stage = state.stage
    assert stage is not None
    return state.phase if stages.undecided(state) else stage.then


def waits(decision: str, otherwise: str) -> Next:
    """``decision`` when the step left a stage to decide, else ``otherwise``."""
    return lambda state, action: decision if state.stage is not None else otherwise


def effect_phase(state: State, action: Mapping[str, Any]) -> str:
    """Where an action card's effect waits: another player's Boost draw, its own stage, or it is complete."""
    return "action" if state.stage is None else "boost" if state.stage.kind == "boost" else "effect"


def after_action(state: State, action: Mapping[str, Any]) -> str:
    return {"pit_stop": "end_phase", "to_buy": "buy"}.get(action["type"]) or effect_phase(state, action)


def end_of_turn(state: State, action: Mapping[str, Any]) -> str:
    """AU-57: after the last turn of a round in which a lap marker reached Finish the race is over."""
    last = len(state.table.kit.lap_track) - 1
    over = state.current == state.table.order[-1] and any(p.marker == last for p in state.players)
    return "race_over" if over else "next_turn"


def stage_or(options: Callable[[State], list[Action]], handler: Any) -> tuple[Any, Any]:
    """A phase's own options and handler, or those of the stage a driver or a sponsor opened in it."""
    return (lambda s: stages.stage_options(s) if s.stage else options(s),
            lambda s, a, e: stages.on_stage(s, a, e) if s.stage else handler(s, a, e))


def stage_settled(state: State) -> bool:
    """A phase that waits for a stage is passed when the stage leaves nothing to decide."""
    return state.stage is not None and not stages.undecided(state)


STAGE = stages.STAGE_ACTIONS


def stage_phase(rule: str) -> Phase:
    return Phase(rule, STAGE, stages.stage_options, stages.on_stage, after_stage, stage_settled)


PHASES: dict[str, Phase] = {
    # set-up (AU-8..AU-15)
    "driver": Phase("AU-99", ("driver",), opening.driver_options, opening.on_driver,
                    lambda s, a: "driver" if s.revealed else "opening_buy"),
    "opening_buy": Phase("AU-13", ("buy", "done"), opening.opening_buy_options, opening.on_opening_buy,
                         waits("opening_draw", "opening_buy"), alone=by_itself("done", prompt)),
    "opening_draw": stage_phase("AU-14"),
    "opening_drawn": Phase("AU-14", handler=opening.opening_drawn, next=waits("opening_draw", "begin_turn")),
    # a turn (AU-16..AU-57)
    "begin_turn": Phase("AU-16", handler=turn.begin_turn, next="deferred_draws"),
    "deferred_draws": Phase("AU-119", handler=turn.deferred_draws, next=waits("deferred", "deferred_moves")),
    "deferred_drawn": Phase("AU-119", handler=turn.deferred_drawn, next="deferred_moves"),
    "deferred_moves": Phase("AU-119", handler=turn.deferred_moves, next=waits("deferred", "action")),
    "deferred_moved": Phase("AU-119", handler=turn.deferred_moved, next="action"),
    "deferred": stage_phase("AU-119"),
    "action": Phase("AU-20", ("activate", "use_driver", "pit_stop", "to_buy"), turn.action_options, turn.on_action,
                    after_action, alone=by_itself("to_buy", prompt)),
    "effect": stage_phase("AU-21"),
    "card": Phase("AU-21", handler=cards.next_card_step, next=effect_phase),
    "boost": stage_phase("AU-79"),
    "next_boost": Phase("AU-79", handler=cards.next_boost, next=effect_phase),
    "to_action": Phase("AU-20", handler=turn.resume, next="action"),
    "buy": Phase("AU-36", ("buy", "done", "use_driver", *STAGE), *stage_or(turn.buy_options, turn.on_buy),
                 next=lambda s, a: "furthest_cube" if a["type"] == "done" else after_stage(s, a) if s.stage else "buy",
                 skip=stage_settled, alone=by_itself("done", prompt)),
    "driver_04_sort": Phase("AU-104", handler=turn.driver_04_sort, next="buy"),
    "to_buy": Phase("AU-36", handler=turn.resume, next="buy"),
    "furthest_cube": Phase("AU-38", handler=turn.movement, next=waits("movement", "adrenaline")),
    "movement": stage_phase("AU-38"),
    "adrenaline": Phase("AU-40", handler=turn.adrenaline, next=waits("movement", "driver_06")),
    "driver_06": Phase("AU-106", handler=turn.driver_06, next=waits("movement", "wear_phase")),
    "wear_phase": Phase("AU-43", handler=turn.wear_phase, next=waits("wear", "end_phase")),
    "wear": stage_phase("AU-43"),
    "end_phase": Phase("AU-47", handler=turn.end_phase, next=waits("end", "sweep")),
    "sweep": Phase("AU-48", handler=turn.sweep, next=waits("end", "mulligan")),
    "mulligan": Phase("AU-110", handler=turn.mulligan, next=waits("end", "turn_over")),
    "redraw": Phase("AU-110", handler=turn.redraw, next=waits("end", "turn_over")),
    "end": stage_phase("AU-48"),
    "turn_over": Phase("AU-49", handler=turn.turn_over,
                       next=lambda s, a: "next_advance" if s.turn.queue else end_of_turn(s, a)),
    "next_advance": Phase("AU-95", handler=turn.next_advance, next=lambda s, a: "advance" if s.stage else
                          "next_advance" if s.turn.queue else end_of_turn(s, a)),
    "advance": stage_phase("AU-95"),
    "advanced": Phase("AU-95", handler=turn.advanced, next="next_advance"),
    "next_turn": Phase("AU-16", handler=turn.next_turn, next="begin_turn"),
    # the end of a race and a season (AU-57..AU-59, AU-111..AU-117)
    "race_over": Phase("AU-57", handler=season.race_over,
                       next=lambda s, a: "sponsors" if season.goes_on(s) else "over"),
    "sponsors": Phase("AU-114", handler=season.sponsors, next="next_sponsor"),
    "next_sponsor": Phase("AU-113", handler=season.next_sponsor,
                          next=lambda s, a: "sponsor" if s.turn.queue else "next_race"),
    "sponsor": Phase("AU-113", ("sponsor", "keep_sponsor", *STAGE),
                     *stage_or(season.sponsor_options, season.on_sponsor),
                     next=lambda s, a: after_stage(s, a) if s.stage else "sponsor", skip=stage_settled),
    "sponsor_special": Phase("AU-114", handler=season.sponsor_special, next=waits("sponsor", "next_sponsor")),
    "next_race": Phase("AU-116", handler=season.next_race, next="opening_draw"),
    "over": Phase("AU-57"),
}


def setup(options: Mapping[str, Any], rng: random.Random) -> State:
    state = opening.table(options, rng)
    return enter(state, state.phase, PHASES, [])


def apply(state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """An action is legal when it is one of the listed options (a draw with the colours drawn, checked against
    the bag, AU-52); a refused one names the rule it breaks."""
    if isinstance(action, Mapping) and action.get("type") in PHASES[state.phase].actions:
        bare = {k: v for k, v in action.items() if k != "dice"}
        if "dice" in action and "roll" not in bare and isinstance(action["dice"], list):
            bare["roll"] = len(action["dice"])
            action = {**action, "roll": bare["roll"]}
        if bare not in options(state):
            raise _refusal(state, action)
    return apply_in_phase(state, action, PHASES, seat(state, state.actor))


def _refusal(state: State, action: Mapping[str, Any]) -> IllegalAction:
    p, kind = state.current, action.get("type")
    if state.stage is not None:
        return stages.why_not(state, action)
    if kind == "use_driver":  # the action or the buy phase
        return IllegalAction("AU-100", f"{seat(state, p)} cannot use {action.get('driver')!r} now")
    if state.phase == "action":
        return turn.refusal(state, action)
    if state.phase == "buy" and kind == "buy":
        return IllegalAction("AU-36", f"{seat(state, p)} cannot buy {action.get('colour')!r} with ${money(state, p)}",
                             legal=[o["colour"] for o in turn.buy_options(state) if o["type"] == "buy"])
    return IllegalAction(PHASES[state.phase].rule, f"{seat(state, state.actor)} cannot {dict(action)} now",
                         legal=options(state))


def roll_dice(state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
    """What a bot's draw shows: ``roll`` cubes drawn blind from the actor's bag, the discard refilling it (AU-50)."""
    player = state.players[state.actor]
    bag, discard = as_list(player.bag), as_list(player.discard)
    k = option["roll"]
    if len(bag) >= k:
        return sorted(rng.sample(bag, k))
    return sorted(bag + rng.sample(discard, k - len(bag)))


def view(state: State) -> dict[str, Any]:
    """Everything a dashboard shows (``Game.view``). AU-120 **Decision**: with closed bags only how many cubes each
    bag holds.

    With open bags it also gives the odds of each player's next draw of 7 (the end phase's, AU-48: the discard it
    is refilled from then holds the active and used areas too) and of the draw the table waits for now: a closed
    bag's odds would tell its contents. ``landing_wear`` is the wear table's value (AU-42) the turn reaches if the
    cube or car the table moves now lands there, per listed destination.
    """
    table, listed = state.table, options(state)
    lap_track = table.kit.lap_track
    players = []
    for p, player in enumerate(state.players):
        entry = {"colour": table.colours[p], "name": table.names[p], "bot": table.bots[p],
                 "bag_count": sum(player.bag), "active": as_dict(player.active), "used": as_dict(player.used),
                 "discard": as_dict(player.discard), "aside": as_dict(player.aside), "segment": player.segment,
                 "crossings": player.crossings, "marker": lap_track[player.marker],
                 "finished": player.marker == len(lap_track) - 1, "distance": distance(state, p),
                 "position": position(state, p), "driver": player.driver, "sponsor": player.sponsor,
                 "points": player.points,
                 "deferred": {"draws": player.deferred_draws, "moves": player.deferred_moves},
                 "slipstream": track.slipstream(state, p)}
        if table.open_bags:
            entry["bag"] = as_dict(player.bag)
            entry["odds"] = draw_odds(entry["bag"], table.kit.draw_per_turn,
                                      as_dict(plus(player.discard, plus(player.active, player.used))))
        players.append(entry)
    turn, stage = state.turn, state.stage
    landing_wear = {}
    if stage is not None and stage.kind in ("move", "choose") and stage.who == state.current and stage.counts_wear \
            and state.phase in ("effect", "movement"):
        landing_wear = {o["to"]: track.wear_table_value(state, turn.entered | {field_of(state, o["to"])})
                        for o in listed if o["type"] in ("step", "drive")}
    draw = next((o for o in listed if "roll" in o), None)
    next_draw = None
    if draw is not None and table.open_bags:
        drawer = state.players[state.actor]
        next_draw = {"player": table.colours[state.actor],
                     **draw_odds(as_dict(drawer.bag), draw["roll"], as_dict(drawer.discard))}
    money_now = money(state, state.current) if state.phase == "buy" else \
        opening.start_money(state, state.actor) - turn.spent if state.phase == "opening_buy" else None
    over = state.phase == "over"
    return {
        "game": "automobiles", "track": table.track.id, "race": state.race, "round": state.round,
        "phase": state.phase, "current": None if over else table.colours[state.current],
        "actor": None if over else table.colours[state.actor],
        "order": [table.colours[p] for p in table.order], "lap_track": list(lap_track),
        "cards": {colour: card.id for colour, card in table.cards.items()},
        "costs": {c: table.cards[c].cost for c in COLOURS if table.cards[c].cost is not None},
        "values": {c: table.cards[c].value for c in COLOURS},
        "variants": {"weaving": table.weaving, "accelerated": table.accelerated, "open_bags": table.open_bags,
                     "drivers": table.drivers, "wear_activation": table.wear_activation},
        "season": list(table.season), "stock": as_dict(state.stock), "players": players,
        "placed": [{"colour": c.colour, "segment": c.segment} for c in turn.placed],
        "turn": {"committed": turn.committed, "no_wear": turn.no_wear, "red_line": turn.red_line,
                 "double_gears": turn.double_gears, "adrenaline": turn.adrenaline, "advance": turn.advance,
                 "entered": sorted(turn.entered), "money": money_now,
                 "wear_table": track.wear_table_value(state, turn.entered), "pit_stop": turn.pit_stop},
        "landing_wear": landing_wear, "next_draw": next_draw,
        "stage": None if stage is None else {"kind": stage.kind, "card": stage.card, "done": stage.done,
                                             "at_most": stage.hi},
        "revealed_drivers": list(state.revealed), "sponsors_offered": list(state.offered),
        "placings": [table.colours[p] for p in state.placings],
        "winners": [table.colours[p] for p in state.winners], "over": over,
        "cubes_total": sum(total_cubes(state)),
    }
