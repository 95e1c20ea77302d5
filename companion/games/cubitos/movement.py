"""Phase 6, move (CU-47, CU-57..CU-69, CU-141, CU-142, CU-146): steps over the track, water, shortcuts, jets,
laps and chained tracks, and the bonuses of the space where the runner ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Action, Event, IllegalAction
from companion.games.cubitos.abilities import ANY_TIME, ability_options, give_back_targets, take_targets, use_ability
from companion.games.cubitos.state import (
    State,
    changed,
    from_stock,
    give_back,
    reach_finish,
    receive_bonuses,
    seat,
    track_of,
)

CREDIT_TO_COIN = 1
"""CU-42: coins for one credit returned, any time in phases 5-8."""
CONVERTING_IS_NOT_TAKING = True
"""CU-90 **Decision**: credits returned for coins are not credits taken (Schlägertyp); False counts them."""
COINS_PER_STEP = 4
"""CU-47."""
START_SPECIAL_AFTER_PURCHASES = True
"""CU-62 **Decision**: credits and coins may be turned into steps before the starting space's special resolves
(the ``move_start`` phase); False resolves it as soon as phase 6 begins."""
CHAIN_TRANSFER_COST = 1
"""CU-142 **Decision**: steps to go from one track's finish to the next track's start."""


# ---------------------------------------------------------------------------------- CU-42, CU-47 conversions


def convert_options(state: State) -> list[Action]:
    """CU-42, CU-47: a credit for a coin, 4 coins for a step (steps only in phase 6)."""
    player = state.players[state.current]
    options: list[Action] = [{"type": "convert"}] if player.credits else []
    if state.phase in ("move_start", "move", "shortcut") and player.coins >= COINS_PER_STEP:
        options.append({"type": "buy_step"})
    return options


def on_convert(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    player = state.players[p]
    if action["type"] == "convert":
        events.append({"type": "converted", "player": seat(state, p), "credits": 1, "coins": CREDIT_TO_COIN})
        return changed(state, p, credits=player.credits - 1, coins=player.coins + CREDIT_TO_COIN,
                       took_credits=player.took_credits or not CONVERTING_IS_NOT_TAKING)
    events.append({"type": "bought_step", "player": seat(state, p), "coins": COINS_PER_STEP})
    return changed(state, p, coins=player.coins - COINS_PER_STEP, steps=player.steps + 1)


# -------------------------------------------------------------------------------- CU-61, CU-62 phase 6 begins


def begin_move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-65: phase 6 begins where the runner stands; CU-61, CU-62: that space's special resolves at once, or
    after the player's purchases (``START_SPECIAL_AFTER_PURCHASES``, the ``move_start`` phase)."""
    player = state.players[state.current]
    state = changed(state, state.current, moved_from=(player.segment, player.space))
    if START_SPECIAL_AFTER_PURCHASES:
        return state
    return trigger(state, state.current, player.segment, player.space, events)


def special_waits(state: State) -> bool:
    """The runner stands on a special it has not triggered this round (CU-61)."""
    player = state.players[state.current]
    return (track_of(state, state.current).spaces[player.space].special is not None
            and (player.segment, player.space) not in player.specials)


def move_start_options(state: State) -> list[Action]:
    return [{"type": "begin"}, *convert_options(state)]


def on_move_start(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    if action["type"] != "begin":
        return on_convert(state, action, events)
    player = state.players[state.current]
    return trigger(state, state.current, player.segment, player.space, events)


def trigger(state: State, p: int, segment: int, space_id: str, events: list[Event]) -> State:
    """CU-61, CU-63, CU-64: a space's special action, once per runner per space per round: a jet doubles the steps
    and water entries left; a shortcut waits for the player's choice (``state.shortcut``)."""
    player = state.players[p]
    space = state.table.segments[segment].spaces[space_id]
    if space.special is None or (segment, space_id) in player.specials:
        return state
    state = changed(state, p, specials=player.specials | {(segment, space_id)})
    if space.special["type"] == "jet":
        events.append({"type": "jet", "player": seat(state, p), "space": space_id, "steps": player.steps * 2,
                       "water": player.water * 2})
        return changed(state, p, steps=player.steps * 2, water=player.water * 2)
    return state._replace(shortcut=(segment, space_id))


def after_special(state: State, action: Mapping[str, Any]) -> str:
    return "shortcut" if state.shortcut is not None else "move"


# ------------------------------------------------------------------------------------ CU-58..CU-60 the steps


def step_targets(state: State, p: int) -> list[str]:
    """CU-58..CU-60, CU-141, CU-142, CU-146: where the runner's next step can go.

    On a finish the runner is first placed on the start for free (another lap, or going on after reaching the race
    finish), or, at the end of a track that another follows, it moves on to that track's start (``next_track``).
    """
    player, table = state.players[p], state.table
    track = table.segments[player.segment]
    if player.steps < 1:
        return []
    origin = player.space
    if origin == track.finish:
        if player.segment + 1 < len(table.segments):
            return ["next_track"] if player.steps >= CHAIN_TRANSFER_COST else []
        origin = track.start
    return [there for there in track.neighbours[origin]
            if there != track.start and (player.water >= 1 or track.spaces[there].kind != "water")]


def _refused_step(state: State, p: int, there: Any, n: int) -> IllegalAction:
    """Why a step is not possible: water without an entry (CU-59), back onto the start (CU-60), or no neighbour
    (CU-58)."""
    player, track = state.players[p], track_of(state, p)
    origin = track.start if player.space == track.finish else player.space
    where = f"step {n + 1} to {there!r} from {player.space}"
    legal = step_targets(state, p)
    if there in track.neighbours.get(origin, ()) and player.steps >= 1:
        if there == track.start:
            return IllegalAction("CU-60", f"{where}: a runner that has left the start never enters it again",
                                 legal=legal)
        return IllegalAction("CU-59", f"{where}: entering water needs a water entry, the runner has none",
                             legal=legal)
    return IllegalAction("CU-58", f"{where} is not possible", legal=legal)


def step(state: State, p: int, there: str, events: list[Event]) -> State:
    """One step (CU-58): to a neighbouring space, or from a finish onto the next track's start (CU-142)."""
    player, table = state.players[p], state.table
    track = table.segments[player.segment]
    if there == "next_track":  # CU-142
        segment = player.segment + 1
        events.append({"type": "next_track", "player": seat(state, p), "track": table.segments[segment].id,
                       "steps": CHAIN_TRANSFER_COST})
        return changed(state, p, segment=segment, space=table.segments[segment].start, laps=0, left_start=False,
                       steps=player.steps - CHAIN_TRANSFER_COST)
    if player.space == track.finish:  # CU-141, CU-146: placed on the start first
        events.append({"type": "placed_on_start", "player": seat(state, p)})
    state = changed(state, p, space=there, steps=player.steps - 1, left_start=True,
                    water=player.water - (track.spaces[there].kind == "water"))
    return entered(state, p, events)


def entered(state: State, p: int, events: list[Event]) -> State:
    """The runner entered a space during phase 6: a finish (CU-141, CU-145) or a special (CU-61)."""
    player = state.players[p]
    if player.space == track_of(state, p).finish:
        return reach_finish(state, p, events)
    return trigger(state, p, player.segment, player.space, events)


def walks(state: State) -> list[tuple[list[str], State, list[Event]]]:
    """CU-58..CU-64: one walk (path, the state at its end, the events on the way) to every place the runner can
    reach with what it has: the one leaving the most steps (then water entries), the shortest of those. Each walk
    is made of the rules' own steps, so jets double what is left on the way; a walk ends where the runner must
    decide something (a shortcut, CU-63)."""
    p = state.current
    here = state.players[p]
    origin = (here.segment, here.space, here.laps)
    best: dict[tuple[int, str, int], tuple[tuple[int, int], tuple[list[str], State, list[Event]]]] = {}
    seen: set[Any] = set()
    frontier: list[tuple[list[str], State, list[Event]]] = [([], state, [])]
    while frontier:
        later = []
        for path, at, on_the_way in frontier:
            for there in step_targets(at, p):
                events: list[Event] = []
                after = step(at, p, there, events)
                runner = after.players[p]
                key, left = (runner.segment, runner.space, runner.laps), (runner.steps, runner.water)
                walk = ([*path, there], after, on_the_way + events)
                if key != origin and (key not in best or left > best[key][0]):
                    best[key] = (left, walk)
                mark = (key, left, runner.specials, runner.reached)
                if left[0] >= 1 and after.shortcut is None and mark not in seen:
                    seen.add(mark)
                    later.append(walk)
        frontier = later
    return sorted((walk for _, walk in best.values()), key=lambda walk: (len(walk[0]), walk[0]))


def move_options(state: State) -> list[Action]:
    moves: list[Action] = [{"type": "move", "path": path} for path, _, _ in walks(state)]
    return [{"type": "done"}, *moves, *convert_options(state), *ability_options(state, *ANY_TIME)]


def on_move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """A path of steps (a move listed or any other the steps allow), a conversion, an ability, or the end of the
    move: the bonuses of the space the runner ends on (CU-65)."""
    p = state.current
    if action["type"] in ("convert", "buy_step"):
        return on_convert(state, action, events)
    if action["type"] == "ability":
        return use_ability(state, action, events, *ANY_TIME)
    if action["type"] == "done":
        return end_move(state, p, events)
    path = action.get("path")
    if not isinstance(path, list) or not path:
        raise IllegalAction("CU-58", f"a move is a path of spaces, got {path!r}")
    start = state.players[p].space
    on_the_way: list[Event] = []
    for n, there in enumerate(path):
        if state.shortcut is not None:
            raise IllegalAction("CU-63", f"the path stops at {path[n - 1]}: the runner must decide there first")
        if there not in step_targets(state, p):
            raise _refused_step(state, p, there, n)
        state = step(state, p, there, on_the_way)
    events.append({"type": "moved", "player": seat(state, p), "from": start, "to": state.players[p].space,
                   "steps": len(path), "path": list(path)})
    events += on_the_way  # one line for the move, then what happened on it
    return state


def after_move(state: State, action: Mapping[str, Any]) -> str:
    return "bonus" if action.get("type") == "done" else after_special(state, action)


def shortcut_options(state: State) -> list[Action]:
    segment, space_id = state.shortcut
    kind, amount = next(iter(state.table.segments[segment].spaces[space_id].special["pay"].items()))
    options: list[Action] = [{"type": "skip"}]
    if getattr(state.players[state.current], kind) >= amount:
        options.append({"type": "shortcut"})
    return options + convert_options(state)


def on_shortcut(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-63: pay to follow the line to the joined space (not a step; entering it counts), or let it pass."""
    p = state.current
    if action["type"] in ("convert", "buy_step"):
        return on_convert(state, action, events)
    segment, space_id = state.shortcut
    state = state._replace(shortcut=None)
    if action["type"] == "skip":
        return state
    special = state.table.segments[segment].spaces[space_id].special
    kind, amount = next(iter(special["pay"].items()))
    events.append({"type": "shortcut", "player": seat(state, p), "from": space_id, "to": special["to"],
                   "pay": kind, "amount": amount})
    state = changed(state, p, space=special["to"], **{kind: getattr(state.players[p], kind) - amount})
    return entered(state, p, events)


def end_move(state: State, p: int, events: list[Event]) -> State:
    """CU-65..CU-67: a runner that ended phase 6 elsewhere than it began receives its space's bonuses."""
    player = state.players[p]
    state = changed(state, p, moved_from=None)
    if player.moved_from != (player.segment, player.space):
        state = receive_bonuses(state, p, player.space, events)
    return state


# --------------------------------------------------------------------------------------------- CU-66 bonuses

GIVE_BACK_BONUS_OPTIONAL, TAKE_DIE_BONUS_OPTIONAL = True, True
"""CU-66 **Decision**: each give-back or take-die symbol may be declined (False: it must be taken, if it can)."""


def bonus_options(state: State) -> list[Action]:
    """CU-66: give back one of your dice (any zone, by type), or take one die from the stock."""
    p = state.current
    bonus = state.bonuses[0]
    if bonus["type"] == "give_back":
        chosen: list[Action] = [{"type": "give_back", "zone": zone, "die": kind}
                                for zone, kind in give_back_targets(state, p, {"from": "any"})]
        optional = GIVE_BACK_BONUS_OPTIONAL
    else:
        chosen = [{"type": "take_die", "die": kind} for kind in take_targets(state, p, bonus)]
        optional = TAKE_DIE_BONUS_OPTIONAL
    return [{"type": "decline"}, *chosen] if optional or not chosen else chosen


def on_bonus(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-66: the die given back or taken (or neither, declined)."""
    p = state.current
    state = state._replace(bonuses=state.bonuses[1:])
    if action["type"] == "give_back":
        return give_back(state, p, action["zone"], action["die"], events)
    if action["type"] == "take_die":
        state, die = from_stock(state, action["die"])
        events.append({"type": "took_die", "player": seat(state, p), "die": action["die"]})
        return changed(state, p, rest=state.players[p].rest + (die,))
    return state


def after_bonus(state: State, action: Mapping[str, Any]) -> str:
    return "bonus" if state.bonuses else "end6"


def after_end6(state: State, action: Mapping[str, Any]) -> str:
    """CU-67, CU-119: Bob's bonuses are taken as the own space's are; then the next runner."""
    return "bonus" if action.get("type") == "ability" else "move_next"
