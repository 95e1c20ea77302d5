"""The action phase's cubes (AU-20, AU-21, AU-62) and the action cards' effects (AU-63..AU-97), step by step.

An effect is its steps (``SCRIPTS``): each ``step(state, p, card, last, arg, events)`` returns the table and the
``Stage`` it then waits for (None: the effect is complete); the first gets the activation's choices (``arg``), a
later one the stage before it (``last``), run by the phase ``card``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.automobiles.stages import BIG, draw, move, pick, purple4_possible, wait
from companion.games.automobiles.state import (
    COLOURS,
    GEARS,
    WEAR,
    Card,
    Cubes,
    Player,
    Stage,
    State,
    add,
    available,
    count,
    gain,
    kinds,
    lower,
    move_cube,
    position,
    remove_all,
    seat,
)
from companion.games.automobiles.track import can_step, steppable, why_no_step
from companion.games.base import Action, Event, IllegalAction

Step = Callable[[State, int, Card, Stage | None, Mapping[str, Any], list[Event]], tuple[State, Stage | None]]


def activations(state: State, p: int) -> list[Action]:
    """AU-20, AU-21: every cube of the active area that can be activated, with the choices its card needs first."""
    options: list[Action] = []
    for colour, n in zip(COLOURS, state.players[p].active, strict=True):
        if not n:
            continue
        if colour in GEARS:  # AU-21: its step must be possible
            steps = steppable(state, p)
            if colour == "white" and state.turn.red_line:  # AU-88: a white cube may act as any gear colour
                options += [{"type": "activate", "colour": colour, "as": g} for g in GEARS if g in steps]
            elif colour in steps:
                options.append({"type": "activate", "colour": colour})
        elif colour == WEAR:
            if state.table.wear_activation == "to_discard":
                options.append({"type": "activate", "colour": colour})
        else:
            card = state.table.cards[colour]
            options += [{"type": "activate", "colour": colour, **arg} for arg in card_args(state, p, card)]
    return options


def card_args(state: State, p: int, card: Card) -> list[dict[str, Any]]:
    """AU-21: the first choices with which an action card's whole effect can be carried out (none: illegal). AU-21
    **Decision**: a step that applies only "if" counts as carried out when its condition is false."""
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
    if kind == "active_gear_lower_colour_move":  # AU-70: several red cubes may name the same gear cube
        return [{"gear": g} for g in _gears_in(_after_activation(player, card))
                if lower(g) and can_step(state, p, GEARS[:GEARS.index(g)])]
    if kind == "discard_gear_next_lower_move":
        return [{"gear": g} for g in _gears_in(player.discard) if lower(g)]
    if kind == "discard_active_gear_move_any":
        return [{"gear": g} for g in _gears_in(_after_activation(player, card))] if can_step(state, p, GEARS) else []
    if kind in ("draw_until_non_wear_then_remove_discard_wear", "draw_then_remove_one"):
        return [{}] if available(player) else []
    if kind == "draw_two_split":
        return [{}] if available(player) >= 2 else []
    if kind == "choose_remove_all_wear_or_n":
        return [{"option": "wear"}] + ([{"option": "two"}] if sum(player.discard) >= effect["n"] else [])
    if kind == "remove_discard_buy_one_by_cost":
        return [{}] if purple4_possible(state, 0, player.discard, effect["max"]) else []
    if kind == "adrenaline":
        return ([{"option": "a"}] if can_step(state, p, (effect["colour"],)) else []) + [{"option": "b"}]
    return [{}]


def _after_activation(player: Player, card: Card) -> Cubes:
    """The active area once the card's cube is activated: the cube itself is in the used area then."""
    return add(player.active, card.colour, -1)


def _gears_in(zone: Cubes) -> list[str]:
    """The gear colours a zone holds, low to high."""
    return [g for g, n in zip(GEARS, zone, strict=False) if n]  # a zone counts the gears first


def activate(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-17 (**Decision**: the first activation commits the player to a standard turn), AU-20: the cube goes to
    the used area (brown to the discard, AU-62), then its effect: a gear cube's step, or its card's first step."""
    p, colour = state.current, action["colour"]
    player = state.players[p]
    dst = "discard" if colour == WEAR else "used"
    player = player._replace(active=add(player.active, colour, -1), **{dst: add(getattr(player, dst), colour)})
    state = state.with_seat(p, player).with_turn(committed=True)
    card = state.table.cards[colour]
    events.append({"type": "activated", "player": seat(state, p), "colour": colour, "card": card.id,
                   **{k: action[k] for k in ("as", "gear", "option") if k in action}})
    if colour in GEARS:
        named = action.get("as", colour)
        return wait(state, move(p, "to_action", (named,), 1, 2 if state.turn.double_gears else 1,  # AU-96
                                colour=colour, card="red_line" if colour == "white" and named != "white" else card.id))
    if colour == WEAR:  # AU-62: the printed card may move further active wear cubes along with it
        for _ in range(min(card.effect.get("extra_active_wear_moved", 0), count(state.players[p].active, WEAR))):
            state = move_cube(state, p, WEAR, "active", "discard", events)
        return state
    return card_step(state, card, 0, None, action, events)


def card_step(state: State, card: Card, step: int, last: Stage | None, arg: Mapping[str, Any],
              events: list[Event]) -> State:
    """Step ``step`` of ``card``'s effect: the table waits for the stage it asks (the phase ``card`` follows it),
    or the effect is complete and the action phase goes on."""
    steps = SCRIPTS[card.effect["type"]]
    state, stage = steps[step](state, state.current, card, last, arg, events) if step < len(steps) else (state, None)
    if stage is None:
        return state._replace(stage=None, actor=state.current)
    if stage.kind != "boost":
        stage = stage._replace(then="card", card=stage.card or card.id, step=step)
    return wait(state, stage)


def next_card_step(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    last = state.stage
    assert last is not None
    return card_step(state, state.table.kit.action_cards[last.card], last.step + 1, last, {}, events)


def next_boost(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-79: the next player clockwise draws or declines; then the active player's action phase goes on."""
    queue = state.turn.queue[1:]
    state = state.with_turn(queue=queue)
    if not queue:
        return state._replace(stage=None, actor=state.current)
    return wait(state, Stage("boost", "next_boost", queue[0]))


def refusal(state: State, p: int, action: Mapping[str, Any]) -> IllegalAction:
    """The rule an activation that is not listed breaks, for the table's screen."""
    colour = action.get("colour")
    if colour not in COLOURS or not count(state.players[p].active, colour):
        return IllegalAction("AU-20", f"{seat(state, p)} has no {colour!r} cube in the active area")
    if colour == WEAR:
        return IllegalAction("AU-62", "brown cubes cannot be activated with this wear card setting")
    if colour in GEARS:
        named = action.get("as", colour)
        if named != colour and not state.turn.red_line:
            return IllegalAction("AU-88", "only a white cube after Rote Linie may act as another colour")
        return IllegalAction(*why_no_step(state, p, (named,)))
    card = state.table.cards[colour]
    legal = [{k: v for k, v in a.items() if k != "type"} for a in card_args(state, p, card)]
    return IllegalAction(card.rule, f"{card.id} cannot be carried out with {dict(action)} (AU-21)", legal=legal)


def _wear(state: State, p: int, card: Card, events: list[Event]) -> State:
    return gain(state, p, WEAR, card.effect.get("wear", 0), events)[0]


def _others(state: State, p: int) -> tuple[int, ...]:
    """AU-79 **Decision**: the other players clockwise from ``p``."""
    k = state.table.order.index(p)
    return state.table.order[k + 1:] + state.table.order[:k]


def _picks(src: tuple[str, ...], dst: str, lo: int, hi: int | str, wear_each: str = "") -> Step:
    """A step that waits for cubes picked from ``src`` to ``dst``; ``hi`` and ``wear_each`` may name the card's
    numbers (cards.json ``effect``)."""
    def step(state, p, card, last, arg, events):
        top = card.effect[hi] if isinstance(hi, str) else hi
        return state, pick(p, "", src, dst, lo, top, wear_each=card.effect[wear_each] if wear_each else 0)
    return step


_removes = _picks(("discard",), "stock", 0, "max")
"""A step that waits for up to the card's ``max`` cubes of the discard back to the stock (AU-72, AU-74, AU-89,
AU-90)."""


def _removes_all_wear(zone: str) -> Step:
    """A step that puts every wear cube of ``zone`` back to the stock (AU-71, AU-90)."""
    return lambda state, p, card, last, arg, events: (remove_all(state, p, WEAR, zone, events), None)


def _turn_flag(name: str) -> Step:
    """AU-67, AU-88 (**Decision**: not for white cubes already on the track), AU-96 (**Decision**: nor for gear
    cubes already activated): an effect that lasts the turn, after its wear."""
    return lambda state, p, card, last, arg, events: (_wear(state, p, card, events).with_turn(**{name: True}), None)


def _upgrade(state, p, card, last, arg, events):  # AU-63
    state = move_cube(state, p, arg["gear"], "discard", "stock", events)
    up = card.effect["upgrade"][arg["gear"]]
    return (gain(state, p, up, 1, events)[0] if up else state), None


def _discard_active(state, p, card, last, arg, events):  # AU-64
    return state, pick(p, "", ("active",), "discard", 0, min(card.effect["max_choose"], sum(state.players[p].active)))


def _remove_as_many(state, p, card, last, arg, events):  # AU-64
    return state, pick(p, "", ("discard",), "stock", last.done, last.done) if last.done else None


def _gear_move(state, p, card, last, arg, events):  # AU-68, AU-69, AU-70, AU-86, AU-87
    """A red card's move by the gear cube it names (an active one is discarded first): exactly one field of any gear
    colour, of the cube's colour or of a lower one; else up to ``max_fields`` of the next lower colour."""
    kind, gear = card.effect["type"], arg["gear"]
    state = _wear(state, p, card, events)
    if kind.startswith("discard_active_gear"):
        state = move_cube(state, p, gear, "active", "discard", events)
    one_field = {"discard_active_gear_move_any": GEARS, "discard_gear_same_colour_move": (gear,),
                 "active_gear_lower_colour_move": GEARS[:GEARS.index(gear)]}
    if kind in one_field:
        return state, move(p, "", one_field[kind], 1, 1, colour=card.colour)
    return state, move(p, "", (lower(gear),), 0, card.effect["max_fields"], colour=card.colour)


def _draw_until_not_wear(state, p, card, last, arg, events):  # AU-71
    return state, draw(p, "", lo=1, hi=BIG, until_non_wear=True)


def _remove_per_colour(state, p, card, last, arg, events):  # AU-91
    return state, pick(p, "", ("discard",), "stock", 0, kinds(state.players[p].discard))


def _fewest_bonus(state, p, card, last, arg, events):  # AU-89
    mine = sum(state.players[p].discard)
    if all(mine < sum(state.players[q].discard) for q in range(len(state.players)) if q != p):
        return state, pick(p, "", ("discard",), "stock", 0, card.effect["bonus"])
    return state, None


def _purple_3(state, p, card, last, arg, events):  # AU-73
    if arg["option"] == "wear":
        return remove_all(state, p, WEAR, "discard", events), None
    return state, pick(p, "", ("discard",), "stock", card.effect["n"], card.effect["n"])


def _buy_for_removed(state, p, card, last, arg, events):  # AU-74
    return state, Stage("buy", "", p, budget=last.budget)


def _blue_1(state, p, card, last, arg, events):  # AU-75
    state = _wear(state, p, card, events)
    n = count(state.players[p].discard, card.effect["count_colour"])
    return state, move(p, "", (card.effect["move_colour"],), 0, n, colour=card.colour)


def _blue_2(state, p, card, last, arg, events):  # AU-76
    state = _wear(state, p, card, events)
    me = state.players[p]
    mine = count(me.active, "blue") + count(me.used, "blue") + count(me.discard, "blue")
    if all(mine > count(state.players[q].discard, "blue") for q in range(len(state.players)) if q != p):
        return state, move(p, "", GEARS, 0, card.effect["max_fields"], colour=card.colour, same=True)
    events.append({"type": "no_effect", "player": seat(state, p), "card": card.id})
    return state, None


def _blue_3(state, p, card, last, arg, events):  # AU-77
    state = _wear(state, p, card, events)
    return state, move(p, "", ("white",), 0, kinds(state.players[p].discard), colour=card.colour)


def _blue_4(state, p, card, last, arg, events):  # AU-78
    return _wear(state, p, card, events), pick(p, "", ("discard",), "active", 0, card.effect["max"])


def _boost_draw(state, p, card, last, arg, events):  # AU-79
    return state, draw(p, "", lo=0, hi=card.effect["max_draw"], wear_each=card.effect["wear_per_draw"])


def _boost_others(state, p, card, last, arg, events):  # AU-79, AU-119
    others = _others(state, p)
    if state.table.accelerated:  # AU-119: the others' draws wait for their next turns
        for q in others:
            state = state.with_player(q, deferred_draws=state.players[q].deferred_draws + 1)
        return state, None
    return state.with_turn(queue=others), Stage("boost", "next_boost", others[0])


def _position_move(state, p, card, last, arg, events):  # AU-80, AU-82, AU-93, AU-94
    state = _wear(state, p, card, events)
    effect = card.effect
    kind = effect["type"]
    rank, n = position(state, p), len(state.players)
    if kind == "move_by_position":
        hi = rank + (effect["last_bonus"] if rank == n else 0)
        return state, move(p, "", (effect["colour"],), 0, hi, colour=card.colour)
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


def _draws(dst: str) -> Step:
    """A step that waits for a draw of the card's ``draw`` cubes at once into ``dst`` (AU-81, AU-84)."""
    return lambda state, p, card, last, arg, events: (state, draw(p, "", sizes=(card.effect["draw"],), dst=dst))


def _keep_one(state, p, card, last, arg, events):  # AU-81
    return state, Stage("keep", "", p)


def _remove_active(state, p, card, last, arg, events):  # AU-83
    return state, pick(p, "", ("active",), "stock", 0, sum(state.players[p].active))


def _remove_twice_as_many(state, p, card, last, arg, events):  # AU-83
    return state, pick(p, "", ("discard",), "stock", 0, card.effect["factor"] * last.done) if last.done else None


def _rs_yellow_3(state, p, card, last, arg, events):  # AU-85
    return move_cube(state, p, card.colour, "used", "stock", events), draw(p, "", lo=0, hi=card.effect["max_draw"])


def _adrenaline(state, p, card, last, arg, events):  # AU-92 (**Decision**: each option-b cube adds 2·g)
    if arg["option"] == "a":
        return state, move(p, "", (card.effect["colour"],), 1, card.effect["option_a_fields"], colour=card.colour)
    return state.with_turn(adrenaline=state.turn.adrenaline + 1), None


def _rs_blue_1(state, p, card, last, arg, events):  # AU-95
    state = state.with_turn(advance=state.turn.advance + 1)
    return state, move(p, "", GEARS, 0, card.effect["max_fields"], colour=card.colour, same=True)


SCRIPTS: dict[str, tuple[Step, ...]] = {
    "upgrade_gear_from_discard": (_upgrade,),  # AU-63
    "active_to_discard_then_remove_same": (_discard_active, _remove_as_many),  # AU-64
    "remove_active_then_return_to_bag": (_picks(("active",), "stock", 0, 1),  # AU-65
                                         _picks(("active", "discard"), "bag", 0, 1)),
    "active_to_used_then_remove_discard": (_picks(("active",), "used", 1, 1),  # AU-66
                                           _picks(("discard",), "stock", 0, "remove_discard_max")),
    "no_decline_wear": (_turn_flag("no_wear"),),  # AU-67
    "discard_active_gear_move_next_lower": (_gear_move,),  # AU-68
    "discard_gear_same_colour_move": (_gear_move,),  # AU-69
    "active_gear_lower_colour_move": (_gear_move,),  # AU-70
    "draw_until_non_wear_then_remove_discard_wear": (_draw_until_not_wear, _removes_all_wear("discard")),  # AU-71
    "remove_discard": (_removes,),  # AU-72
    "choose_remove_all_wear_or_n": (_purple_3,),  # AU-73
    "remove_discard_buy_one_by_cost": (_removes, _buy_for_removed),  # AU-74
    "move_per_discard_colour_count": (_blue_1,),  # AU-75
    "blue_majority_move": (_blue_2,),  # AU-76
    "move_white_per_distinct_discard_colours": (_blue_3,),  # AU-77
    "discard_to_active": (_blue_4,),  # AU-78
    "boost_draw": (_boost_draw, _boost_others),  # AU-79
    "move_by_position": (_position_move,),  # AU-80
    "draw_two_split": (_draws("aside"), _keep_one),  # AU-81
    "move_plus_green_in_discards": (_position_move,),  # AU-82
    "remove_active_then_double_discard": (_remove_active, _remove_twice_as_many),  # AU-83
    "draw_then_remove_one": (_draws("active"), _picks(("active", "discard"), "stock", 1, 1)),  # AU-84
    "remove_self_then_draw": (_rs_yellow_3,),  # AU-85
    "discard_gear_next_lower_move": (_gear_move,),  # AU-86
    "discard_active_gear_move_any": (_gear_move,),  # AU-87
    "red_line": (_turn_flag("red_line"),),  # AU-88
    "remove_discard_then_fewest_bonus": (_removes, _fewest_bonus),  # AU-89
    "remove_discard_then_used_wear": (_removes, _removes_all_wear("used")),  # AU-90
    "remove_per_distinct_discard_colours": (_remove_per_colour,),  # AU-91
    "adrenaline": (_adrenaline,),  # AU-92
    "catch_up_move": (_position_move,),  # AU-93
    "overdrive": (_position_move,),  # AU-94
    "move_then_others_advance": (_rs_blue_1,),  # AU-95
    "double_gears": (_turn_flag("double_gears"),),  # AU-96
    "swap_active_discard": (_picks(("active",), "discard", 1, 1),  # AU-97
                            _picks(("discard",), "active", 0, "take_max", wear_each="wear_per_taken")),
}
"""Effect type (cards.json) -> its steps, in the card's order."""
