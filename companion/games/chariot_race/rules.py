"""Chariot Race rules (``shared/games/chariot_race/RULES.md``, CR-1..CR-25) as pure functions over a small state.

The state (``state.py``: ``Car`` tuples plus a handful of turn fields) is never changed: ``apply`` returns a new
one. The move itself, space by space, is ``move.py``.

A turn walks the phases of CR-10, declared in ``PHASES`` with what comes after each. The engine stops only where a
player decides something; a phase with no decision (no fortune to repair, no drive die, no steer die, no attack die)
is passed at once and its events are returned by the action that led into it. The phases a player decides in and
their actions (the action vocabulary, see README.md):

==========  ==========================================================================================
repair      ``{"type": "repair"}`` / ``{"type": "skip_repair"}``                                  CR-11
roll        ``{"type": "roll", "roll": n}`` + ``"dice"``                                           CR-3, CR-13
reroll      free reroll: ``{"type": "reroll", "reroll": [i, ...], "roll": k}`` + ``"dice"`` / done  CR-13
fortune     paid: reroll as above, ``{"type": "turn", "die": i, "face": f}``, ``{"type": "done"}``  CR-13
drive       ``{"type": "drive", "signs": [1, -1, ...]}`` one sign per drive die                    CR-15
move        ``{"type": "move", "path": ["straight", "in", ...]}`` (options add to/damage/wrecked/effects)  CR-16
attack      ``{"type": "caltrop", "space": id}`` / ``{"type": "spear", "target": id}`` / done      CR-21
==========  ==========================================================================================
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.games.base import (
    OVER,
    Action,
    Event,
    GameBase,
    IllegalAction,
    Phase,
    Prompt,
    Seat,
    apply_in_phase,
    enter,
    read_seats,
)
from companion.games.chariot_race import luck as odds
from companion.games.chariot_race.board import NO_SPACE, SPEAR_RANGE, STEPS, Board, load_board
from companion.games.chariot_race.components import (
    ALTERNATIVES,
    STANDARD,
    ChariotBoard,
    load_chariot_board,
    load_dice,
)
from companion.games.chariot_race.move import Work, move_options
from companion.games.chariot_race.state import (
    CALTROP_SUPPLY,
    COLOURS,
    FORTUNE_COST,
    GALLOP_DAMAGE,
    GALLOP_SPEED,
    LAPS_TO_FINISH,
    REPAIR_AMOUNT,
    REPAIR_COST,
    SECOND_CHARIOT_SUFFIX,
    SPEAR_DAMAGE,
    UNTURNABLE_FACE,
    VARIANTS,
    Car,
    State,
    Table,
    progress,
)

SUBSETS = tuple(tuple(s for k in range(1, n + 1) for s in combinations(range(n), k)) for n in range(6))
"""Non-empty subsets of die indices for 0..5 dice, smallest first: the reroll options."""


def round_order(state: State, previous: Iterable[int]) -> tuple[int, ...]:
    """CR-9: furthest ahead first; **Decision**: ties keep the order of the previous round (a stable sort)."""
    board = state.table.board
    racing = [k for k in previous if not state.cars[k].wrecked]
    return tuple(sorted(racing, key=lambda k: -progress(board, state.cars[k])))


# ---------------------------------------------------------------------------------------------------------- set-up


def chariot_ids(seats: Sequence[Seat]) -> list[tuple[str, str, str]]:
    """CR-7: (id, colour, player) of every chariot: one per player from 4 players, two each for 2-3."""
    per_player = 2 if len(seats) <= 3 else 1
    return [(seat.colour + (SECOND_CHARIOT_SUFFIX if k else ""), seat.colour, seat.name)
            for seat in seats for k in range(per_player)]


def _alternative_kinds(setting: Any, cars: list[tuple[str, str, str]]) -> list[str]:
    """CR-4: which chariot board each car uses. ``True`` gives each car the alternative of its colour when free,
    the others the remaining ones in file order; a dict maps car ids to ``"alt-<colour>"`` (or ``"standard"``)."""
    if not setting:
        return [STANDARD] * len(cars)
    if setting is True:
        free = [f"alt-{c}" for c in ALTERNATIVES]
        wanted = [f"alt-{colour}" for _, colour, _ in cars]
        kinds: list[str | None] = []
        for want in wanted:
            kinds.append(want if want in free else None)
            if want in free:
                free.remove(want)
        return [k if k is not None else free.pop(0) for k in kinds]
    if isinstance(setting, Mapping):
        unknown = set(setting) - {cid for cid, _, _ in cars}
        if unknown:
            raise IllegalAction("CR-4", f"alternative_chariots names unknown chariots {sorted(unknown)}",
                                legal=[cid for cid, _, _ in cars])
        kinds = [setting.get(cid, STANDARD) for cid, _, _ in cars]
        return [k if k == STANDARD or k.startswith("alt-") else f"alt-{k}" for k in kinds]
    raise IllegalAction("CR-4", f"alternative_chariots must be true, false or a dict, got {setting!r}")


def _start_order(start: Any, ids: list[str], rng: random.Random) -> list[str]:
    """CR-8: who stands on start position 1, 2, ...: drawn at random, or chosen."""
    if start in (None, "random"):
        order = list(ids)
        rng.shuffle(order)
        return order
    chosen = start.get("order") if isinstance(start, Mapping) else None
    if not isinstance(chosen, list) or sorted(chosen) != sorted(ids):
        raise IllegalAction("CR-8", f"start order must list every chariot once, got {chosen!r}", legal=ids)
    return list(chosen)


def new_table(board: Board, kinds: Iterable[str | ChariotBoard], variants: Mapping[str, Any]) -> Table:
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise IllegalAction("CR-25", f"unknown variants {sorted(unknown)}", legal=list(VARIANTS))
    return Table(
        board=board,
        kinds=tuple(k if isinstance(k, ChariotBoard) else load_chariot_board(k) for k in kinds),
        faces=load_dice().faces,
        no_damage_after_finish=bool(variants.get("no_damage_after_finish", False)),
        alternative_chariots=bool(variants.get("alternative_chariots", False)),
    )


# ---------------------------------------------------------------------------------------------------------- helpers


def _check_dice(dice: Any, count: int, faces: tuple[str, ...], rule: str) -> tuple[str, ...]:
    """Dice read from the table: ``count`` faces, each a face of the die (CR-1)."""
    if not isinstance(dice, (list, tuple)) or len(dice) != count:
        raise IllegalAction(rule, f"expected {count} dice, got {dice!r}", legal=f"{count} faces")
    unknown = [f for f in dice if f not in faces]
    if unknown:
        raise IllegalAction("CR-1", f"{unknown} are not faces of the die", legal=sorted(set(faces)))
    return tuple(dice)


# ---------------------------------------------------------------------------------------------------------- options


def _info(state: State) -> dict[str, Any]:
    i = state.current
    car = state.cars[i]
    kind = state.table.kinds[i]
    return {"chariot": car.id, "round": state.round, "dice": list(state.dice),
            "dice_count": kind.dice_for(car.speed), "speed": car.speed, "speed_cap": kind.cap_for(car.damage),
            "damage": car.damage, "fortune": car.fortune, "attacks": state.attacks}


def _repair_options(state: State) -> list[Action]:
    return [{"type": "repair", "cost": REPAIR_COST}, {"type": "skip_repair"}]


def _roll_options(state: State) -> list[Action]:
    return [{"type": "roll", "roll": state.table.kinds[state.current].dice_for(state.cars[state.current].speed)}]


def _reroll_options(state: State) -> list[Action]:
    """CR-13: keep the dice, or roll any of them again (free once; in the fortune phase each costs fortune, as does
    turning a die to another face)."""
    phase = state.phase
    options: list[Action] = [{"type": "done"}]
    cost = {"cost": FORTUNE_COST} if phase == "fortune" else {}
    options.extend({"type": "reroll", "reroll": list(s), "roll": len(s), **cost} for s in SUBSETS[len(state.dice)])
    if phase == "fortune":
        faces = sorted(set(state.table.faces) - {UNTURNABLE_FACE})
        options.extend({"type": "turn", "die": d, "face": f, **cost}
                       for d, now in enumerate(state.dice) for f in faces if f != now)
    return options


def _drive_options(state: State) -> list[Action]:
    n = state.dice.count("drive")
    return [{"type": "drive", "signs": [1] * up + [-1] * (n - up)} for up in range(n, -1, -1)]


def attack_options(state: State) -> list[Action]:
    """CR-21: drop a caltrop on a passed space without one, or a spear at a chariot within 2 steps."""
    board = state.table.board
    i = state.current
    options: list[Action] = [{"type": "done"}]
    if len(state.caltrops) < CALTROP_SUPPLY:
        seen: set[int] = set()
        for space in state.passed:
            if space not in state.caltrops and space not in seen:
                seen.add(space)
                options.append({"type": "caltrop", "space": board.ids[space]})
    reach = board.in_spear_range[state.cars[i].space]
    protect = state.table.no_damage_after_finish
    for k, other in enumerate(state.cars):
        if k != i and not other.wrecked and other.space in reach and not (protect and other.finished):
            options.append({"type": "spear", "target": other.id})
    return options


# ---------------------------------------------------------------------------------------------------------- the turn
# One function per phase of CR-10, in the order of PHASES below: each applies its rule and returns the state; what
# comes next is PHASES' ``next``.


def _with_car(state: State, i: int, car: Car) -> State:
    cars = list(state.cars)
    cars[i] = car
    return state._replace(cars=tuple(cars))


def _begin_turn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-9/CR-10: the chariot ``order[turn]`` takes its turn."""
    events.append({"type": "turn", "chariot": state.cars[state.current].id, "round": state.round})
    return state


def _cannot_repair(state: State) -> bool:
    """CR-11: repair is offered only when it can do something (3 fortune, and some damage to restore)."""
    car = state.cars[state.current]
    return car.fortune < REPAIR_COST or car.damage >= state.table.kinds[state.current].max_damage


def _repair(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-11: once per turn, before rolling, spend exactly 3 fortune to restore up to 3 damage."""
    if action["type"] == "skip_repair":
        return state
    i = state.current
    car = state.cars[i]
    restored = min(REPAIR_AMOUNT, state.table.kinds[i].max_damage - car.damage)
    car = car._replace(fortune=car.fortune - REPAIR_COST, damage=car.damage + restored)
    events.append({"type": "repair", "chariot": car.id, "restored": restored, "damage": car.damage,
                   "fortune": car.fortune})
    return _with_car(state, i, car)


def _adjust_speed(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-12: lower the start speed to the cap for the current damage; this fixes the dice count (CR-3)."""
    i = state.current
    car = state.cars[i]
    cap = state.table.kinds[i].cap_for(car.damage)
    if car.speed <= cap:
        return state
    events.append({"type": "speed_capped", "chariot": car.id, "speed": cap, "was": car.speed, "damage": car.damage})
    return _with_car(state, i, car._replace(speed=cap))


def _roll(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-3/CR-13: roll as many dice as the start speed gives."""
    i = state.current
    car = state.cars[i]
    count = state.table.kinds[i].dice_for(car.speed)
    if action.get("roll", count) != count:
        raise IllegalAction("CR-3", f"{car.id} rolls {count} dice at speed {car.speed}, not {action.get('roll')}")
    dice = _check_dice(action.get("dice"), count, state.table.faces, "CR-3")
    events.append({"type": "rolled", "chariot": car.id, "dice": list(dice)})
    return state._replace(dice=dice)


def _reroll(state: State, action: Mapping[str, Any], events: list[Event], paid: bool) -> State:
    chosen = action.get("reroll")
    n = len(state.dice)
    if (not isinstance(chosen, list) or not chosen or len(set(chosen)) != len(chosen)
            or any(not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < n for d in chosen)):
        raise IllegalAction("CR-13", f"reroll names distinct dice 0..{n - 1}, got {chosen!r}",
                            legal=f"a non-empty list of die indices 0..{n - 1}")
    new = _check_dice(action.get("dice"), len(chosen), state.table.faces, "CR-13")
    dice = list(state.dice)
    for index, face in zip(chosen, new, strict=True):
        dice[index] = face
    car = state.cars[state.current]
    events.append({"type": "rerolled", "chariot": car.id, "reroll": list(chosen), "dice": dice,
                   "cost": FORTUNE_COST if paid else 0})
    return state._replace(dice=tuple(dice))


def _free_reroll(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-13: one free reroll of any of the dice, or none (``done``)."""
    return _reroll(state, action, events, paid=False) if action["type"] == "reroll" else state


def _cannot_pay(state: State) -> bool:
    """CR-13: only fortune already on the track pays, 2 for each reroll or turned die."""
    return state.cars[state.current].fortune < FORTUNE_COST


def _spend_fortune(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-13: 2 fortune from the track for a reroll of any dice, or for turning one die to any face but fortune."""
    if action["type"] == "done":
        return state
    i = state.current
    if action["type"] == "reroll":
        state = _reroll(state, action, events, paid=True)
    else:
        die, face = action.get("die"), action.get("face")
        n = len(state.dice)
        if not isinstance(die, int) or isinstance(die, bool) or not 0 <= die < n:
            raise IllegalAction("CR-13", f"turn names one die 0..{n - 1}, got {die!r}")
        faces = sorted(set(state.table.faces) - {UNTURNABLE_FACE, state.dice[die]})
        if face not in faces:
            raise IllegalAction("CR-13", f"die {die} shows {state.dice[die]} and cannot be turned to {face!r}",
                                legal=faces)
        dice = state.dice[:die] + (face,) + state.dice[die + 1:]
        events.append({"type": "turned", "chariot": state.cars[i].id, "die": die, "face": face, "dice": list(dice),
                       "cost": FORTUNE_COST})
        state = state._replace(dice=dice)
    car = state.cars[i]
    return _with_car(state, i, car._replace(fortune=car.fortune - FORTUNE_COST))


def _after_spending(state: State, action: Mapping[str, Any]) -> str:
    """CR-13: spend again as long as the track pays; ``done`` keeps the dice."""
    return "fortune" if action.get("type") in ("reroll", "turn") else "gain_fortune"


def _gain_fortune(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-14: +1 fortune per fortune face, up to the track's maximum."""
    i = state.current
    car = state.cars[i]
    gained = min(state.dice.count("fortune"), state.table.kinds[i].max_fortune - car.fortune)
    if not gained:
        return state
    car = car._replace(fortune=car.fortune + gained)
    events.append({"type": "fortune_gained", "chariot": car.id, "gained": gained, "fortune": car.fortune})
    return _with_car(state, i, car)


def _no_drive(state: State) -> bool:
    return "drive" not in state.dice


def _drive(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-15: each drive die used as +1 or -1, the player's choice per die."""
    signs = action.get("signs")
    n = state.dice.count("drive")
    if not isinstance(signs, list) or len(signs) != n or any(s not in (1, -1) or isinstance(s, bool) for s in signs):
        raise IllegalAction("CR-15", f"each of the {n} drive dice must be used as +1 or -1, got {signs!r}",
                            legal=f"a list of {n} values, each 1 or -1")
    return state._replace(drive=sum(signs))


def _set_speed(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-15: sum drive and gallop changes, clamp to the track, gallop damage even when the excess is lost; damage
    taken here can wreck the chariot before it moves (CR-22)."""
    i = state.current
    car = state.cars[i]
    gallops = state.dice.count("gallop")
    change = state.drive + GALLOP_SPEED * gallops
    speed = max(0, min(state.table.kinds[i].max_speed, car.speed + change))
    if speed != car.speed or gallops:
        events.append({"type": "speed_set", "chariot": car.id, "speed": speed, "was": car.speed, "change": change})
    state = _with_car(state, i, car._replace(speed=speed))
    if not gallops:
        return state
    work = Work(state, events)
    taken = work.hurt(i, GALLOP_DAMAGE * gallops)
    events.append({"type": "gallop_damage", "chariot": car.id, "damage": taken, "left": work.cars[i].damage})
    work.wreck_if_broken(i, car.space)
    return work.done()


def _after_speed(state: State, action: Mapping[str, Any]) -> str:
    """CR-16: a wrecked chariot's turn is over; without a steer die (or at speed 0) the path is straight ahead."""
    car = state.cars[state.current]
    if car.wrecked:
        return "turn_end"
    return "move" if car.speed and "steer" in state.dice else "straight"


def _move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-16: the path the player chose: ``speed`` steps, one steer die per lane change, never off the track."""
    path = action.get("path")
    car = state.cars[state.current]
    steers = state.dice.count("steer")
    if not isinstance(path, list) or any(step not in STEPS for step in path):
        raise IllegalAction("CR-16", f"a path is a list of steps {', '.join(STEPS)}, got {path!r}")
    if len(path) > car.speed:
        raise IllegalAction("CR-16", f"{car.id} moves exactly {car.speed} steps, the path has {len(path)}",
                            legal=f"{car.speed} steps")
    if sum(step != "straight" for step in path) > steers:
        raise IllegalAction("CR-16", f"each lane change needs a steer die; {car.id} has {steers}",
                            legal=f"at most {steers} 'in'/'out' steps")
    board = state.table.board
    here = car.space
    for n, step in enumerate(path):
        there = board.step(here, step)
        if there == NO_SPACE:
            raise IllegalAction("CR-16", f"step {n + 1} '{step}' leaves the track from lane {board.lane[here]}",
                                legal="'in' from lanes 1-2, 'out' from lanes 0-1")
        here = there
    return _walk(state, path, events)


def _straight(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-16 without a steer die: the only path is ``speed`` steps straight ahead."""
    return _walk(state, ["straight"] * state.cars[state.current].speed, events)


def _walk(state: State, path: list[str], events: list[Event]) -> State:
    """CR-16..CR-24: walk ``path`` (curves, rams, caltrops, rocks, wrecks), count the laps, mark a finisher."""
    i = state.current
    car = state.cars[i]
    work = Work(state, events)
    entered, wrecked = work.move(path)
    if not wrecked and len(path) != car.speed:
        raise IllegalAction("CR-16", f"{car.id} moves exactly {car.speed} steps, the path has {len(path)}",
                            legal=f"{car.speed} steps (shorter only when the chariot wrecks on its last step)")
    board = state.table.board
    moved = work.cars[i]
    events.append({"type": "moved", "chariot": car.id, "from": board.ids[car.space],
                   "to": None if wrecked else board.ids[moved.space], "path": list(path[:len(entered)]),
                   "damage": car.damage - moved.damage, "left": moved.damage})
    for lap in range(car.laps + 1, moved.laps + 1):  # CR-23
        events.append({"type": "lap", "chariot": car.id, "laps": lap})
    if wrecked:
        return work.done()
    if moved.laps >= LAPS_TO_FINISH and not moved.finished:  # CR-24
        work.cars[i] = moved._replace(finished=True)
        events.append({"type": "finished", "chariot": car.id, "space": board.ids[moved.space]})
    return work.done(passed=tuple(s for s in entered if s != moved.space), attacks=state.dice.count("attack"))


def _after_move(state: State, action: Mapping[str, Any]) -> str:
    """CR-22: a chariot wrecked during its own move stops there, and its turn is over."""
    return "turn_end" if state.cars[state.current].wrecked else "attack"


def _cannot_attack(state: State) -> bool:
    """CR-21: no attack die left, or nothing to attack."""
    return not state.attacks or len(attack_options(state)) == 1


def _attack(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-21: one attack per attack die, after the move: a caltrop on a passed space or a spear; ``done`` gives up
    the rest."""
    if action["type"] == "done":
        return state
    i = state.current
    board = state.table.board
    legal = attack_options(state)
    wanted = {k: action.get(k) for k in ("type", "space", "target") if k in action}
    if wanted not in legal:
        why = _out_of_range(state, i, action.get("target")) if action["type"] == "spear" else ""
        raise IllegalAction("CR-21", f"{state.cars[i].id} cannot {action['type']} {wanted}{why}",
                            legal=[o for o in legal if o["type"] == action["type"]])
    work = Work(state, events)
    if action["type"] == "caltrop":
        space = board.index[action["space"]]
        work.caltrops.add(space)
        events.append({"type": "caltrop_dropped", "chariot": work.cars[i].id, "space": action["space"],
                       "supply": CALTROP_SUPPLY - len(work.caltrops)})
    else:
        k = next(k for k, c in enumerate(work.cars) if c.id == action["target"])
        space = work.cars[k].space
        taken = work.hurt(k, SPEAR_DAMAGE)
        events.append({"type": "spear", "chariot": work.cars[i].id, "target": action["target"], "damage": taken,
                       "left": work.cars[k].damage})
        work.wreck_if_broken(k, space)
    return work.done(attacks=state.attacks - 1)


def _after_attack(state: State, action: Mapping[str, Any]) -> str:
    return "attack" if action.get("type") in ("caltrop", "spear") else "turn_end"


def _out_of_range(state: State, i: int, target: Any) -> str:
    """Why a spear at a chariot still racing is refused when it is too far: how far it is."""
    other = next((c for k, c in enumerate(state.cars) if c.id == target and k != i and not c.wrecked), None)
    board = state.table.board
    here = state.cars[i].space
    if other is None or other.space in board.in_spear_range[here]:
        return ""
    steps = board.steps_between(here, other.space)
    return (f": {target} on {board.ids[other.space]} is {steps} steps from {board.ids[here]}, "
            f"a spear reaches {SPEAR_RANGE}")


def _end_turn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-9/CR-13: unused results expire; the next chariot still racing in this round's order is on turn."""
    turn = state.turn + 1
    while turn < len(state.order) and state.cars[state.order[turn]].wrecked:
        turn += 1
    return state._replace(turn=turn, dice=(), drive=0, attacks=0, passed=())


def _after_turn(state: State, action: Mapping[str, Any]) -> str:
    return "turn" if state.turn < len(state.order) else "round_end"


def _end_round(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    events.append({"type": "round_end", "round": state.round})
    return state


def _after_round(state: State, action: Mapping[str, Any]) -> str:
    """CR-24: the race ends with the round in which a chariot completed its second lap, or when all are wrecked."""
    racing = [car for car in state.cars if not car.wrecked]
    return "result" if not racing or any(car.finished for car in state.cars) else "round"


def _new_round(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-9: every chariot still racing takes a turn, furthest ahead first."""
    return state._replace(round=state.round + 1, order=round_order(state, state.order), turn=0)


def _result(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """CR-24: the finished survivor furthest beyond the line wins; **Decision**: a tie goes to the chariot that
    played earlier in the last round (as CR-9). All wrecked, or every finisher wrecked: no winner."""
    board = state.table.board
    finishers = [k for k in state.order if state.cars[k].finished and not state.cars[k].wrecked]
    finishers += [k for k, c in enumerate(state.cars) if c.finished and not c.wrecked and k not in finishers]
    winner = None
    if finishers:
        best = max(progress(board, state.cars[k]) for k in finishers)
        winner = next(state.cars[k].id for k in finishers if progress(board, state.cars[k]) == best)
    events.append({"type": "game_over", "winner": winner, "round": state.round})
    return state._replace(winner=winner)


PHASES: dict[str, Phase] = {
    "turn": Phase("CR-10", handler=_begin_turn, next="repair"),
    "repair": Phase("CR-11", ("repair", "skip_repair"), _repair_options, _repair, next="adjust_speed",
                    skip=_cannot_repair),
    "adjust_speed": Phase("CR-12", handler=_adjust_speed, next="roll"),
    "roll": Phase("CR-13", ("roll",), _roll_options, _roll, next="reroll"),
    "reroll": Phase("CR-13", ("reroll", "done"), _reroll_options, _free_reroll, next="fortune"),
    "fortune": Phase("CR-13", ("reroll", "turn", "done"), _reroll_options, _spend_fortune, next=_after_spending,
                     skip=_cannot_pay),
    "gain_fortune": Phase("CR-14", handler=_gain_fortune, next="drive"),
    "drive": Phase("CR-15", ("drive",), _drive_options, _drive, next="set_speed", skip=_no_drive),
    "set_speed": Phase("CR-15", handler=_set_speed, next=_after_speed),
    "move": Phase("CR-16", ("move",), move_options, _move, next=_after_move),
    "straight": Phase("CR-16", handler=_straight, next=_after_move),
    "attack": Phase("CR-21", ("caltrop", "spear", "done"), attack_options, _attack, next=_after_attack,
                    skip=_cannot_attack),
    "turn_end": Phase("CR-9", handler=_end_turn, next=_after_turn),
    "round_end": Phase("CR-24", handler=_end_round, next=_after_round),
    "round": Phase("CR-9", handler=_new_round, next="turn"),
    "result": Phase("CR-24", handler=_result, next=OVER),
    OVER: Phase("CR-24"),
}
"""A turn's phases in the order of CR-10, then the end of the turn, of the round and of the race: each with its
rule, its actions, its options, its handler and what comes next. The phases without actions play themselves."""


def start_turn(state: State, events: list[Event]) -> State:
    """The turn of the chariot ``order[turn]`` from its start to its first decision (set-up, a scenario's
    position)."""
    return enter(state, "turn", PHASES, events)


# ---------------------------------------------------------------------------------------------------------- the game


class ChariotRace(GameBase):
    """The Chariot Race rules, implementing ``companion.games.base.Game``; ``scenario`` is ``scenario.py``'s
    (the package gives it: that module builds on this one)."""

    id = "chariot-race"
    title = "Chariot Race"
    dice_set = "chariot_race"
    luck, player_of = staticmethod(odds.luck), staticmethod(odds.player_of)

    def __init__(self, scenario: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None):
        self.die_faces = load_dice().faces
        if scenario is not None:
            self.scenario = scenario

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> State:
        """CR-4..CR-8: the players' chariots on their start positions, position 1 on turn."""
        seats = read_seats(options, COLOURS, range(2, 7), "CR-7")
        cars = chariot_ids(seats)
        board = load_board(options.get("board", "A"))
        variants = options.get("variants") or {}
        if not isinstance(variants, Mapping):
            raise IllegalAction("CR-25", f"variants must be a dict, got {variants!r}")
        kinds = _alternative_kinds(variants.get("alternative_chariots", False), cars)
        table = new_table(board, kinds, variants)
        starts = _start_order(options.get("start", "random"), [cid for cid, _, _ in cars], rng)
        bots = {seat.colour for seat in seats if seat.bot}
        state_cars = []
        for (cid, colour, player), kind in zip(cars, table.kinds, strict=True):
            position = starts.index(cid) + 1
            state_cars.append(Car(id=cid, colour=colour, player=player, start=position,
                                  space=board.start_spaces[position - 1], damage=kind.start_damage,
                                  speed=kind.start_speed, fortune=kind.start_fortune, bot=colour in bots))
        order = tuple(sorted(range(len(state_cars)), key=lambda k: state_cars[k].start))
        state = State(table=table, cars=tuple(state_cars), caltrops=frozenset(), round=1, order=order, turn=0,
                      phase="turn")
        return start_turn(state, [])

    def prompt(self, state: State) -> Prompt:
        if state.phase == OVER:
            return Prompt(actor=None, phase=OVER, info={"winner": state.winner})
        return Prompt(actor=state.cars[state.current].id, phase=state.phase,
                      options=PHASES[state.phase].options(state), info=_info(state))

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        if state.phase == OVER:
            raise IllegalAction("CR-24", f"the game is over (winner: {state.winner})")
        return apply_in_phase(state, action, PHASES, state.cars[state.current].id)

    def view(self, state: State) -> dict[str, Any]:
        return view(state)

    def seats(self, state: State) -> dict[str, bool]:
        return {car.id: car.bot for car in state.cars}


# ---------------------------------------------------------------------------------------------------------- view


def view(state: State) -> dict[str, Any]:
    """Everything a dashboard shows, as JSON."""
    table, board = state.table, state.table.board
    over = state.phase == "over"
    chariots = []
    for car, kind in zip(state.cars, table.kinds, strict=True):
        chariots.append({
            "id": car.id, "colour": car.colour, "player": car.player, "chariot_board": kind.name,
            "start_position": car.start, "space": None if car.wrecked else board.ids[car.space],
            "lane": None if car.wrecked else board.lane[car.space],
            "damage": car.damage, "speed": car.speed, "fortune": car.fortune, "laps": car.laps,
            "progress": None if car.wrecked else round(progress(board, car) / board.lap_length, 3),
            "wrecked": car.wrecked, "finished": car.finished, "max_damage": kind.max_damage,
            "max_speed": kind.max_speed, "max_fortune": kind.max_fortune,
            "dice_count": kind.dice_for(car.speed), "speed_cap": kind.cap_for(car.damage),
        })
    return {
        "game": "chariot-race",
        "board": board.name,
        "variants": {"no_damage_after_finish": table.no_damage_after_finish,
                     "alternative_chariots": table.alternative_chariots},
        "round": state.round,
        "phase": state.phase,
        "current": None if over else state.cars[state.current].id,
        "order": [state.cars[k].id for k in state.order],
        "chariots": chariots,
        "caltrops": sorted(board.ids[s] for s in state.caltrops),
        "caltrop_supply": CALTROP_SUPPLY - len(state.caltrops),
        "dice": list(state.dice),
        "attacks_left": state.attacks,
        "winner": state.winner,
        "over": over,
    }
