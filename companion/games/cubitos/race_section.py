"""The race section (CU-42..CU-69, CU-141, CU-142, CU-145..CU-148): phases 5-8, the lead die, the winner, tie rounds.

**Decision** (CU-24, ``RACE_SECTION_ORDER = "phase_by_phase"`` in RULES.md): everyone does phase 5 in lead order,
then everyone phase 6, then 7, then 8: the table always waits for one player's decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Action, Event, IllegalAction
from companion.games.cubitos.abilities import (
    ANY_TIME,
    ability_options,
    adjust,
    give_back_targets,
    next_spaces,
    roll_counts,
    roll_in,
    take_targets,
    usable,
    use_ability,
)
from companion.games.cubitos.state import (
    Player,
    State,
    changed,
    face,
    from_stock,
    give_back,
    lead_order,
    lines_passed,
    reach_finish,
    receive_bonuses,
    seat,
    spaces_left,
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
GIVE_BACK_BONUS_OPTIONAL, TAKE_DIE_BONUS_OPTIONAL = True, True
"""CU-66 **Decision**: each give-back or take-die symbol may be declined (False: it must be taken, if it can)."""
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


# ---------------------------------------------------------------------------------- CU-42, CU-47 conversions


def convert_options(state: State) -> list[Action]:
    """CU-42, CU-47: a credit for a coin, 4 coins for a step (steps only in phase 6)."""
    player = state.players[state.current]
    options: list[Action] = [{"type": "convert"}] if player.credits else []
    if state.phase in ("move_start", "move", "shortcut") and player.coins >= COINS_PER_STEP:
        options.append({"type": "buy_step"})
    return options


def on_convert(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """A conversion, or in phases 6 and 7 an ability of any time (its phase lists it as an option)."""
    p = state.current
    player = state.players[p]
    if action["type"] == "ability":
        return use_ability(state, action, events, *ANY_TIME)
    if action["type"] == "convert":
        events.append({"type": "converted", "player": seat(state, p), "credits": 1, "coins": CREDIT_TO_COIN})
        return changed(state, p, credits=player.credits - 1, coins=player.coins + CREDIT_TO_COIN,
                       took_credits=player.took_credits or not CONVERTING_IS_NOT_TAKING)
    events.append({"type": "bought_step", "player": seat(state, p), "coins": COINS_PER_STEP})
    return changed(state, p, coins=player.coins - COINS_PER_STEP, steps=player.steps + 1)


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
        got = {k: sum(getattr(f, k) for f in shown) for k in ("coins", "steps", "credits", "swords")}
        events.append({"type": "support", "player": seat(state, p), **got})
        state = changed(state, p, **{k: getattr(player, k) + got[k] for k in ("coins", "steps", "credits")},
                        took_credits=player.took_credits or got["credits"] > 0, swords=got["swords"])
    return state._replace(current=lead_order(state)[0])


def after_support(state: State, action: Mapping[str, Any]) -> str:
    if state.adjusting is not None:
        return "adjust"
    if state.again is not None:
        return "again"
    return "support" if action.get("type") == "ability" else "support_next"


def again_options(state: State) -> list[Action]:
    return [{"type": "roll", "roll": roll_counts(state, state.current, None, state.again[0])[0]}]


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


# -------------------------------------------------------------------------------- CU-61, CU-62 phase 6 begins


def begin_move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CU-65: phase 6 begins where the runner stands; CU-61, CU-62: that space's special resolves at once, or
    after the player's purchases (``START_SPECIAL_AFTER_PURCHASES``, the ``move_start`` phase)."""
    player = state.players[state.current]
    state = changed(state, state.current, moved_from=(player.segment, player.space))
    return state if START_SPECIAL_AFTER_PURCHASES else trigger(state, state.current, events)


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
    return trigger(state, state.current, events)


def trigger(state: State, p: int, events: list[Event]) -> State:
    """CU-61, CU-63, CU-64: the special action of the runner's space, once per runner per space per round: a jet
    doubles the steps and water entries left; a shortcut waits for the player's choice (``state.shortcut``)."""
    player = state.players[p]
    segment, space_id = player.segment, player.space
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
    if player.steps < 1:
        return []
    if player.space == table.segments[player.segment].finish and player.segment + 1 < len(table.segments):
        return ["next_track"] if player.steps >= CHAIN_TRANSFER_COST else []
    return next_spaces(state, p)


def _refused_step(state: State, p: int, there: Any, n: int) -> IllegalAction:
    """Why a step is not possible: water without an entry (CU-59), the start (CU-60), no neighbour (CU-58)."""
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
        return changed(state, p, segment=segment, space=table.segments[segment].start, laps=0,
                       steps=player.steps - CHAIN_TRANSFER_COST)
    if player.space == track.finish:  # CU-141, CU-146: placed on the start first
        events.append({"type": "placed_on_start", "player": seat(state, p)})
    state = changed(state, p, space=there, steps=player.steps - 1,
                    water=player.water - (track.spaces[there].kind == "water"))
    return entered(state, p, events)


def entered(state: State, p: int, events: list[Event]) -> State:
    """The runner entered a space during phase 6: a finish (CU-141, CU-145) or a special (CU-61)."""
    if state.players[p].space == track_of(state, p).finish:
        return reach_finish(state, p, events)
    return trigger(state, p, events)


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
    """The end of the move, the walks (``forward`` ones first), conversions and abilities."""
    p, table = state.current, state.table
    left = spaces_left(table, state.players[p])
    moves: list[Action] = [{"type": "move", "path": path, "forward": spaces_left(table, after.players[p]) < left}
                           for path, after, _ in walks(state)]
    moves.sort(key=lambda move: not move["forward"])
    return [{"type": "done"}, *moves, *convert_options(state), *ability_options(state, *ANY_TIME)]


def on_move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """A path of steps (listed or any other the steps allow), a conversion, an ability, or the end of the move."""
    p = state.current
    if action["type"] in ("convert", "buy_step", "ability"):
        return on_convert(state, action, events)
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


def shortcut_options(state: State) -> list[Action]:
    segment, space_id = state.shortcut
    kind, amount = next(iter(state.table.segments[segment].spaces[space_id].special["pay"].items()))
    affordable = getattr(state.players[state.current], kind) >= amount
    return [{"type": "skip"}, *([{"type": "shortcut"}] if affordable else []), *convert_options(state)]


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


# --------------------------------------------------------------------------------------- CU-48, CU-49 phase 7


def buy_options(state: State) -> list[Action]:
    """CU-48, CU-49: up to 2 dice of 2 different colours, from the stock, paid in coins."""
    player = state.players[state.current]
    table = state.table
    options: list[Action] = [{"type": "done"}]
    for die_type in sorted({table.types[d] for d in state.stock}) if len(player.bought) < MAX_BUYS else ():
        kind = table.kit.dice[die_type]
        if (kind.kind == "ability" or (GREY_BUYABLE and kind.kind == "start")) and table.cost(kind.id) <= player.coins \
                and not (BUYS_DIFFERENT and kind.colour in player.bought):
            options.append({"type": "buy", "die": die_type})
    return options + convert_options(state) + ability_options(state, *ANY_TIME)


def on_buy(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.current
    if action["type"] in ("convert", "ability"):
        return on_convert(state, action, events)
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
    """CU-50, CU-51: borrowed dice go back to the stock wherever they are, then each player ``rested``."""
    borrowed = frozenset().union(*(player.borrowed for player in state.players))
    if borrowed:
        for p, player in enumerate(state.players):
            state = changed(state, p, **{zone: tuple(d for d in getattr(player, zone) if d not in borrowed)
                                         for zone in ("draw", "ready", "rest")},
                            active=tuple(a for a in player.active if a[0] not in borrowed), borrowed=frozenset())
        events.append({"type": "returned", "dice": sorted(state.table.types[d] for d in borrowed)})
        state = state._replace(stock=state.stock | borrowed)
    events.append({"type": "round_end", "round": state.round})
    return state._replace(players=tuple(rested(player) if p in state.racing else player
                                        for p, player in enumerate(state.players)))


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
