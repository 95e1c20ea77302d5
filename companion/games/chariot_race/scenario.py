"""Settle a rule dispute: a table position and one turn in, the rules' verdict out.

``run_scenario(position, turn)`` builds the position, plays the turn through the same ``apply`` as a real game and
returns ``{"position": ..., "events": [...]}``. The formats are documented in ``README.md`` beside this file; the
CLI command ``companion rules chariot-race apply --position P.json --turn T.json`` wraps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Event, IllegalAction
from companion.games.chariot_race.board import NO_SPACE, Board, build_board, load_board
from companion.games.chariot_race.components import STANDARD
from companion.games.chariot_race.rules import (
    CALTROP_SUPPLY,
    LAPS_TO_FINISH,
    REPAIR_COST,
    VARIANTS,
    Car,
    State,
    new_table,
    round_order,
    start_turn,
)
from companion.games.chariot_race.rules import ChariotRace as _ChariotRace

_GAME = _ChariotRace()


class PositionError(ValueError):
    """A position or turn file that is not well formed; the message names the field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


def _need(obj: Any, key: str, kind: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
    if not isinstance(obj, Mapping):
        raise PositionError(where, f"expected an object, got {obj!r}")
    if key not in obj:
        if default is ...:
            raise PositionError(f"{where}.{key}", "missing")
        return default
    value = obj[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise PositionError(f"{where}.{key}", f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _space(board: Board, sid: Any, field: str) -> int:
    if sid not in board.index:
        raise PositionError(field, f"unknown space {sid!r} on board {board.name}")
    return board.index[sid]


def state_from_position(position: Mapping[str, Any]) -> State:
    """The state at the start of the turn of ``order[0]`` (before its repair phase)."""
    where = "position"
    raw_board = _need(position, "board", (str, dict), where)
    board = build_board(raw_board, "position.board") if isinstance(raw_board, dict) else load_board(raw_board)
    variants = _need(position, "variants", dict, where, {})
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise PositionError("position.variants", f"unknown variants {sorted(unknown)}; known: {list(VARIANTS)}")
    entries = _need(position, "chariots", list, where)
    kinds = [_need(c, "chariot_board", str, f"position.chariots[{n}]", STANDARD) for n, c in enumerate(entries)]
    table = new_table(board, kinds, variants)
    cars: list[Car] = []
    taken: dict[int, str] = {}
    for n, (entry, kind) in enumerate(zip(entries, table.kinds, strict=True)):
        at = f"position.chariots[{n}]"
        cid = _need(entry, "id", str, at)
        if any(c.id == cid for c in cars):
            raise PositionError(f"{at}.id", f"two chariots are called {cid!r}")
        wrecked = _need(entry, "wrecked", bool, at, False)
        values = {}
        for key, top in (("damage", kind.max_damage), ("speed", kind.max_speed), ("fortune", kind.max_fortune)):
            value = _need(entry, key, int, at, 0 if wrecked else ...)
            if not (0 if wrecked or key != "damage" else 1) <= value <= top:
                raise PositionError(f"{at}.{key}", f"expected {'1' if key == 'damage' else '0'}..{top}, got {value}")
            values[key] = 0 if wrecked and key == "damage" else value
        laps = _need(entry, "laps", int, at, 0)
        space = NO_SPACE
        if not wrecked:
            space = _space(board, _need(entry, "space", str, at), f"{at}.space")
            if board.rocks[space]:
                raise PositionError(f"{at}.space", f"{board.ids[space]} holds rocks; no chariot can stand there")
            if space in taken:
                raise PositionError(f"{at}.space", f"{board.ids[space]} is taken by {taken[space]}")
            taken[space] = cid
        cars.append(Car(id=cid, colour=_need(entry, "colour", str, at, cid.split("-")[0]),
                        player=_need(entry, "player", str, at, cid), start=n + 1, space=space, laps=laps,
                        wrecked=wrecked, finished=_need(entry, "finished", bool, at, laps >= LAPS_TO_FINISH),
                        **values))
    caltrops = _need(position, "caltrops", list, where, [])
    spaces = frozenset(_space(board, sid, f"position.caltrops[{n}]") for n, sid in enumerate(caltrops))
    if len(spaces) != len(caltrops) or len(spaces) > CALTROP_SUPPLY:
        raise PositionError("position.caltrops", f"at most one caltrop per space and {CALTROP_SUPPLY} in all")
    state = State(table=table, cars=tuple(cars), caltrops=spaces, round=_need(position, "round", int, where, 1),
                  order=(), turn=0, phase="repair")
    ids = [c.id for c in cars]
    order = _need(position, "order", list, where, None)
    if order is None:
        return state._replace(order=round_order(state, range(len(cars))))
    for n, cid in enumerate(order):
        if cid not in ids or cars[ids.index(cid)].wrecked:
            raise PositionError(f"position.order[{n}]", f"{cid!r} is not a chariot still racing")
    if len(set(order)) != len(order) or not order:
        raise PositionError("position.order", f"expected distinct chariot ids, got {order!r}")
    return state._replace(order=tuple(ids.index(cid) for cid in order))


def position_from_state(state: State) -> dict[str, Any]:
    """The Position format of ``state``; ``order`` lists the chariots still to play, the one to play first."""
    board = state.table.board
    chariots = []
    for car, kind in zip(state.cars, state.table.kinds, strict=True):
        entry: dict[str, Any] = {"id": car.id, "space": None if car.wrecked else board.ids[car.space],
                                 "damage": car.damage, "speed": car.speed, "fortune": car.fortune, "laps": car.laps}
        if car.wrecked:
            entry["wrecked"] = True
        if car.finished:
            entry["finished"] = True
        if kind.name != STANDARD:
            entry["chariot_board"] = kind.name
        chariots.append(entry)
    variants = {}
    if state.table.no_damage_after_finish:
        variants["no_damage_after_finish"] = True
    result = {"board": board.data if board.name not in ("A", "B") else board.name, "variants": variants,
              "round": state.round, "chariots": chariots, "caltrops": sorted(board.ids[s] for s in state.caltrops),
              "order": [] if state.phase == "over" else
              [state.cars[k].id for k in state.order[state.turn:] if not state.cars[k].wrecked]}
    if state.phase == "over":
        result["winner"] = state.winner
    return result


def run_scenario(position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    """Play ``turn`` from ``position``; the result is the table right after the turn and what the rules did.

    Raises ``IllegalAction`` (naming the rule) for a turn the rules forbid and ``PositionError`` / ``DataError``
    (both ``ValueError``) for a malformed file.
    """
    state = state_from_position(position)
    cid = _need(turn, "chariot", str, "turn")
    ids = [state.cars[k].id for k in state.order]
    if cid not in [c.id for c in state.cars]:
        raise PositionError("turn.chariot", f"unknown chariot {cid!r}; chariots: {[c.id for c in state.cars]}")
    if ids[0] != cid:
        raise IllegalAction("CR-9", f"it is {ids[0]}'s turn, not {cid}'s", legal=ids[0])
    wants_repair = _need(turn, "repair", bool, "turn", False)
    dice = _need(turn, "dice", list, "turn")
    signs = _need(turn, "drive", list, "turn", [])
    path = _need(turn, "path", list, "turn", None)
    attacks = list(_need(turn, "attacks", list, "turn", []))
    mover = state.current
    events: list[Event] = []
    state = start_turn(state, events)
    seen = set()
    ended = state.phase == "over"
    while not ended:
        phase = state.phase
        seen.add(phase)
        action: dict[str, Any]
        if phase == "repair":
            action = {"type": "repair" if wants_repair else "skip_repair"}
        elif phase == "roll":
            action = {"type": "roll", "dice": dice}
        elif phase in ("reroll", "fortune"):
            action = {"type": "done"}
        elif phase == "drive":
            action = {"type": "drive", "signs": signs}
        elif phase == "move":
            action = {"type": "move", "path": path if path is not None else []}
        else:
            action = _attack(attacks.pop(0)) if attacks else {"type": "done"}
        state, more = _GAME.apply(state, action)
        ended = any(e["type"] in ("turn", "game_over") for e in more)  # the next turn has begun, or the game ended
        events.extend(more)
    _check_unused(state, mover, wants_repair, signs, path, attacks, seen, events)
    cut = next((n for n, e in enumerate(events) if e["type"] == "turn" and n > 0), len(events))
    result = position_from_state(state)
    for event in events[cut:]:  # the next chariot's start of turn is not part of this turn
        if event["type"] == "speed_capped":
            next(c for c in result["chariots"] if c["id"] == event["chariot"])["speed"] = event["was"]
    return {"position": result, "events": events[:cut]}


def _attack(entry: Any) -> dict[str, Any]:
    if isinstance(entry, Mapping) and set(entry) == {"spear"}:
        return {"type": "spear", "target": entry["spear"]}
    if isinstance(entry, Mapping) and set(entry) == {"caltrop"}:
        return {"type": "caltrop", "space": entry["caltrop"]}
    raise PositionError("turn.attacks", f'an attack is {{"spear": id}} or {{"caltrop": space}}, got {entry!r}')


def _check_unused(state: State, mover: int, wants_repair: bool, signs: list[Any], path: list[Any] | None,
                  attacks: list[Any], seen: set[str], events: list[Event]) -> None:
    """A turn file must describe what happened: parts the rules never reached are errors, not silently ignored."""
    car = state.cars[mover]
    if wants_repair and "repair" not in seen:
        raise IllegalAction("CR-11", f"{car.id} cannot repair: that needs {REPAIR_COST} fortune and some damage lost")
    if signs and "drive" not in seen and not car.wrecked:
        raise IllegalAction("CR-15", f"drive choices {signs} given but the dice show no drive")
    moved = next((e for e in events if e["type"] == "moved"), None)
    if path is not None and moved is not None and "move" not in seen:
        taken = moved["path"]
        if path[:len(taken)] != taken or (moved["to"] is not None and len(path) != len(taken)):
            raise IllegalAction("CR-16", f"without a steer die the path is {len(taken)} steps straight, got {path}",
                                legal=taken)
    if attacks:
        raise IllegalAction("CR-21", f"attacks left over {attacks}: {car.id} has no attack die or no target left")
