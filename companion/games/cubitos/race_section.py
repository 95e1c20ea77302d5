"""The race section (CU-42..CU-56, CU-145..CU-148) but the move (``movement.py``): phase 5 support, phase 7 buy,
phase 8 rest, the lead die, the end, the winner and tie rounds.

**Decision** (CU-24, ``RACE_SECTION_ORDER = "phase_by_phase"`` in RULES.md): everyone does phase 5 in lead order,
then everyone phase 6, then 7, then 8: the table always waits for one player's decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Action, Event
from companion.games.cubitos.abilities import (
    ability_options,
    adjust,
    again_effect,
    roll_counts,
    roll_in,
    support_options,
    usable,
    use_ability,
)
from companion.games.cubitos.movement import ANY_TIME, convert_options, on_convert
from companion.games.cubitos.state import (
    Player,
    State,
    changed,
    ending,
    face,
    from_stock,
    lead_order,
    lines_passed,
    seat,
)

MAX_BUYS, BUYS_DIFFERENT = 2, True
"""CU-48 (**Decision** ``BUYS_DIFFERENT``: the two dice bought are of two colours; False allows one colour twice)."""
GREY_BUYABLE = False
"""CU-49 **Decision**: grey dice have no card and no price and are not bought (True: they cost 0)."""
STEPS_EXPIRE_AT_ROUND_END = True
"""CU-50 **Decision**: unused steps and water entries are lost with the coins (False: they are kept)."""
TIEBREAK_ONLY_TIED = True
"""CU-148 **Decision**: only the tied players play the extra round (False: everyone does)."""


def pass_on(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """The next player in lead order takes the phase over; after the last it is the lead player's again."""
    order = lead_order(state)
    return state._replace(current=order[(order.index(state.current) + 1) % len(order)])


def round_through(phase: str, then: str) -> Any:
    """The ``next`` of a ``pass_on`` phase: ``phase`` for the next player, ``then`` once everyone had it."""
    return lambda state, action: then if state.current == lead_order(state)[0] else phase


# ----------------------------------------------------------------------------------------- CU-43..CU-46 phase 5


def collect_faces(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-43, CU-44: everyone's plain faces are collected and their swords announced, in lead order; the red card
    then names who its gated abilities are for (CU-45), and each player in lead order uses their phase-5 abilities.

    **Decision** (CU-43): plain faces are collected for the player. No ability in the data grants swords, so every
    announcement is the swords on the faces, made at once, and the red card is evaluated before anyone's abilities.
    """
    for p in lead_order(state):
        player = state.players[p]
        shown = [face(state.table, die, label) for die, label in player.active]
        coins, steps = sum(f.coins for f in shown), sum(f.steps for f in shown)
        credits, swords = sum(f.credits for f in shown), sum(f.swords for f in shown)
        events.append({"type": "support", "player": seat(state, p), "coins": coins, "steps": steps,
                       "credits": credits, "swords": swords})
        state = changed(state, p, coins=player.coins + coins, steps=player.steps + steps,
                        credits=player.credits + credits, took_credits=player.took_credits or credits > 0,
                        swords=swords)
    return state._replace(current=lead_order(state)[0])


def nothing_to_support(state: State) -> bool:
    return support_options(state) == [{"type": "done"}]


def on_support(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    if action["type"] == "done":
        return state
    return use_ability(state, action, events, "phase5", *ANY_TIME)


def after_support(state: State, action: Mapping[str, Any]) -> str:
    if state.adjusting is not None:
        return "adjust"
    if state.again is not None:
        return "again"
    return "support" if action.get("type") == "ability" else "support_next"


def again_options(state: State) -> list[Action]:
    return [{"type": "roll", "roll": roll_counts(state, state.current, None, again_effect(state))[0]}]


def on_again(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-123: the ability's next roll of the ready zone; then phase 5 goes on."""
    effect, left = state.again
    state = roll_in(state, state.current, None, effect, action.get("dice"), events)
    return state._replace(again=(effect, left - 1) if left > 1 else None)


def on_adjust(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-89: the players change the table by hand until ``done``; then phase 5 goes on."""
    if action["type"] == "adjust":
        return adjust(state, action, events)
    return state._replace(adjusting=None)


# --------------------------------------------------------------------------------------- CU-48, CU-49 phase 7


def before7_options(state: State) -> list[Action]:
    return [{"type": "go"}, *ability_options(state, "before7")]


def buy_options(state: State) -> list[Action]:
    """CU-48, CU-49: up to 2 dice of 2 different colours, from the stock, paid in coins."""
    player = state.players[state.current]
    table = state.table
    options: list[Action] = [{"type": "done"}]
    for kind in sorted(table.kit.dice.values(), key=lambda k: k.id) if len(player.bought) < MAX_BUYS else ():
        cost = table.cost(kind.id)
        if (kind.kind == "ability" or (GREY_BUYABLE and kind.kind == "start")) and cost <= player.coins \
                and any(table.types[d] == kind.id for d in state.stock) \
                and not (BUYS_DIFFERENT and kind.colour in player.bought):
            options.append({"type": "buy", "die": kind.id})
    return options + convert_options(state) + ability_options(state, *ANY_TIME)


def on_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    if action["type"] == "convert":
        return on_convert(state, action, events)
    if action["type"] == "ability":
        return use_ability(state, action, events, *ANY_TIME)
    if action["type"] == "done":
        return state
    player = state.players[p]
    kind = action["die"]
    state, die = from_stock(state, kind)
    events.append({"type": "bought", "player": seat(state, p), "die": kind, "coins": state.table.cost(kind)})
    return changed(state, p, coins=player.coins - state.table.cost(kind), rest=player.rest + (die,),
                   bought=player.bought + (state.table.kit.dice[kind].colour,))


# ------------------------------------------------------------------------------------- CU-50..CU-55 phase 8


def rest_all(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-50, CU-51: borrowed dice go back to the stock wherever they are, active dice rest, what was for this
    round only ends."""
    borrowed = frozenset().union(*(player.borrowed for player in state.players))
    if borrowed:
        for p, player in enumerate(state.players):
            state = changed(state, p, **{zone: tuple(d for d in getattr(player, zone) if d not in borrowed)
                                         for zone in ("draw", "ready", "rest")},
                            active=tuple(a for a in player.active if a[0] not in borrowed), borrowed=frozenset())
        events.append({"type": "returned", "dice": sorted(state.table.types[d] for d in borrowed)})
        state = state._replace(stock=state.stock | borrowed)
    players = list(state.players)
    for p in state.racing:
        players[p] = rested(players[p])
    events.append({"type": "round_end", "round": state.round})
    return state._replace(players=tuple(players))


ROUND_ONLY = ("coins", "danger", "busted", "busting", "refilled", "done_rolling", "took_credits", "gave_back",
              "specials", "bought", "swords", "used", "gated", "owes_special", "pushed_active", "event_used",
              "safe_roll", "keep_on_bust", "must_push", "next_exclude", "next_no_limit")
"""CU-50, CU-51: what a player has for one round only (coins are lost; what was used, bought, owed or allowed
this round ends), back to a new player's at the round's end; steps and water entries too while
``STEPS_EXPIRE_AT_ROUND_END``."""


def rested(player: Player) -> Player:
    """CU-50, CU-51: a player's table once the round has ended (borrowed dice aside): the active dice rest, what
    was for this round only is reset, and what this round's abilities did to the next round's refill applies."""
    ended = ROUND_ONLY + (("steps", "water") if STEPS_EXPIRE_AT_ROUND_END else ())
    return player._replace(**{name: Player._field_defaults[name] for name in ended},
                           rest=player.rest + tuple(d for d, _ in player.active), active=(),
                           refill_exclude=player.next_exclude, refill_no_limit=player.next_no_limit)


def after_rest(state: State, action: Mapping[str, Any]) -> str:
    return "end" if ending(state) else "next_round"


def end(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-147, CU-148: of the runners that reached the finish, the one farthest from the start wins; a tie plays
    another round among the tied (``TIEBREAK_ONLY_TIED``)."""
    table = state.table
    last = table.segments[-1]

    def distance(p: int) -> int:
        player = state.players[p]
        return last.distance.get(player.space, 0) if player.segment == len(table.segments) - 1 else 0

    reached = [p for p in state.racing if state.players[p].reached]
    best = max(distance(p) for p in reached)
    leaders = tuple(p for p in reached if distance(p) == best)
    if len(leaders) == 1:
        events.append({"type": "game_over", "winner": seat(state, leaders[0]), "distance": best})
        return state._replace(winners=leaders, current=leaders[0])
    events.append({"type": "tie", "players": [seat(state, p) for p in leaders], "distance": best})
    for p in leaders:
        state = changed(state, p, reached=False)
    return state._replace(tiebreak=True, racing=leaders if TIEBREAK_ONLY_TIED else state.racing)


def next_round(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-55: the lead die passes clockwise (among the players of a tie round) into the new lead's ready zone; the
    red lines each runner has passed are taken for the new round (CU-26)."""
    die = state.table.lead_die
    n = len(state.players)
    lead = next(k % n for k in range(state.lead + 1, state.lead + n + 1) if k % n in state.racing)
    for p, player in enumerate(state.players):
        state = changed(state, p, ready=tuple(d for d in player.ready if d != die),
                        rest=tuple(d for d in player.rest if d != die),
                        active=tuple(a for a in player.active if a[0] != die))
    state = changed(state, lead, ready=state.players[lead].ready + (die,))
    events.append({"type": "round", "round": state.round + 1, "lead": seat(state, lead)})
    return state._replace(round=state.round + 1, lead=lead,
                          lines=tuple(lines_passed(state.table, player) for player in state.players))


def usable_at(moment: str) -> Any:
    """A ``skip`` for a phase of ``moment``'s abilities: nothing to use there."""
    return lambda state: not usable(state, state.current, moment)
