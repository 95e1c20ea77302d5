"""Settle a rule dispute: a table position and one turn in, the rules' verdict out.

``run_scenario(position, turn)`` (the game's ``scenario`` hook) builds the position, plays the turn through the same
``apply`` as a real game, phase by phase, and returns ``{"position": ..., "events": [...]}``. The formats are
documented in ``README.md`` beside this file; ``companion rules chariot-race apply --position P.json --turn T.json``
wraps it. Files are written by hand in a dispute, so every key is checked: a typo is refused, never ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import OVER, Event, IllegalAction, ScenarioError, check_keys, typed_value
from companion.games.chariot_race.board import BOARD_FILES, NO_SPACE, Board, build_board, load_board
from companion.games.chariot_race.components import STANDARD
from companion.games.chariot_race.rules import ChariotRace, new_table, round_order, start_turn
from companion.games.chariot_race.state import (
    CALTROP_SUPPLY,
    FORTUNE_COST,
    LAPS_TO_FINISH,
    REPAIR_COST,
    VARIANTS,
    Car,
    State,
)

_GAME = ChariotRace()

POSITION_KEYS = ("board", "variants", "round", "chariots", "caltrops", "order", "winner")
CHARIOT_KEYS = ("id", "space", "damage", "speed", "fortune", "laps", "finished", "wrecked", "chariot_board", "colour",
                "player")
TURN_KEYS = ("chariot", "repair", "dice", "free_reroll", "paid", "drive", "path", "attacks")
REROLL_KEYS = ("reroll", "dice")
"""CR-13: a reroll names the dice picked up (indices into the roll) and the faces they showed again, in index order."""
TURNED_KEYS = ("turn", "face")
"""CR-13: a paid turn names one die (index) and the face it was turned to."""
ATTACK_KEYS = ("spear", "caltrop")


def _space(board: Board, sid: Any, field: str) -> int:
    if sid not in board.index:
        raise ScenarioError(field, f"unknown space {sid!r} on board {board.name}")
    return board.index[sid]


def _board(raw: Any) -> Board:
    """A shipped side by name, or a whole board object in the board-file schema (a custom or corrected board)."""
    if isinstance(raw, Mapping):
        return build_board(dict(raw), "position.board")
    if raw not in BOARD_FILES:
        raise ScenarioError("position.board", f"unknown board {raw!r}; boards are {', '.join(BOARD_FILES)} or a "
                            "board object")
    return load_board(raw)


def state_from_position(position: Mapping[str, Any]) -> State:
    """The state at the start of the turn of ``order[0]`` (before its repair phase), or a finished race.

    ``order`` lists the chariots still to play this round; the others still racing have played it already.
    """
    where = "position"
    check_keys(position, POSITION_KEYS, where)
    board = _board(typed_value(position, "board", (str, dict), where))
    variants = check_keys(typed_value(position, "variants", dict, where, {}), VARIANTS, "position.variants")
    entries = typed_value(position, "chariots", list, where)
    for n, entry in enumerate(entries):
        check_keys(entry, CHARIOT_KEYS, f"position.chariots[{n}]")
    kinds = [typed_value(c, "chariot_board", str, f"position.chariots[{n}]", STANDARD) for n, c in enumerate(entries)]
    table = new_table(board, kinds, variants)
    cars: list[Car] = []
    taken: dict[int, str] = {}
    for n, (entry, kind) in enumerate(zip(entries, table.kinds, strict=True)):
        at = f"position.chariots[{n}]"
        cid = typed_value(entry, "id", str, at)
        if any(c.id == cid for c in cars):
            raise ScenarioError(f"{at}.id", f"two chariots are called {cid!r}")
        wrecked = typed_value(entry, "wrecked", bool, at, False)
        values = {}
        for key, top in (("damage", kind.max_damage), ("speed", kind.max_speed), ("fortune", kind.max_fortune)):
            value = typed_value(entry, key, int, at, 0 if wrecked else ...)
            if not (0 if wrecked or key != "damage" else 1) <= value <= top:
                raise ScenarioError(f"{at}.{key}", f"expected {'1' if key == 'damage' else '0'}..{top}, got {value}")
            values[key] = 0 if wrecked and key == "damage" else value
        laps = typed_value(entry, "laps", int, at, 0)
        space = NO_SPACE
        if wrecked:
            if typed_value(entry, "space", (str, type(None)), at, None) is not None:
                raise ScenarioError(f"{at}.space", "a wrecked chariot has left the board: null")
        else:
            space = _space(board, typed_value(entry, "space", str, at), f"{at}.space")
            if board.rocks[space]:
                raise ScenarioError(f"{at}.space", f"{board.ids[space]} holds rocks; no chariot can stand there")
            if space in taken:
                raise ScenarioError(f"{at}.space", f"{board.ids[space]} is taken by {taken[space]}")
            taken[space] = cid
        cars.append(Car(id=cid, colour=typed_value(entry, "colour", str, at, _colour(cid)),
                        player=typed_value(entry, "player", str, at, cid), start=n + 1, space=space, laps=laps,
                        wrecked=wrecked, finished=typed_value(entry, "finished", bool, at, laps >= LAPS_TO_FINISH),
                        **values))
    caltrops = typed_value(position, "caltrops", list, where, [])
    spaces = frozenset(_space(board, sid, f"position.caltrops[{n}]") for n, sid in enumerate(caltrops))
    if len(spaces) != len(caltrops) or len(spaces) > CALTROP_SUPPLY:
        raise ScenarioError("position.caltrops", f"at most one caltrop per space and {CALTROP_SUPPLY} in all")
    state = State(table=table, cars=tuple(cars), caltrops=spaces, round=typed_value(position, "round", int, where, 1),
                  order=(), turn=0, phase="turn")
    ids = [c.id for c in cars]
    order = typed_value(position, "order", list, where, None)
    if "winner" in position:  # CR-24: the race is over
        winner = typed_value(position, "winner", (str, type(None)), where)
        if winner is not None and winner not in ids:
            raise ScenarioError("position.winner", f"{winner!r} is not a chariot; chariots: {ids}")
        if order:
            raise ScenarioError("position.order", "a race that is over has no chariot left to play: []")
        return state._replace(phase=OVER, winner=winner)
    if order is None:
        return state._replace(order=round_order(state, range(len(cars))))
    for n, cid in enumerate(order):
        if cid not in ids or cars[ids.index(cid)].wrecked:
            raise ScenarioError(f"position.order[{n}]", f"{cid!r} is not a chariot still racing")
    if len(set(order)) != len(order) or not order:
        raise ScenarioError("position.order", f"expected distinct chariot ids, got {order!r}")
    # The chariots left out have played this round: the round's order holds them first, so that the next round is
    # ordered over every chariot (CR-9 ties keep this order).
    to_play = [ids.index(cid) for cid in order]
    played = [k for k, car in enumerate(cars) if k not in to_play and not car.wrecked]
    return state._replace(order=tuple(played + to_play), turn=len(played))


def _colour(cid: str) -> str:
    """CR-7: a second chariot ``green-2`` has its player's colour."""
    return cid.split("-")[0]


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
        if car.colour != _colour(car.id):
            entry["colour"] = car.colour
        if car.player != car.id:
            entry["player"] = car.player
        chariots.append(entry)
    variants = {}
    if state.table.no_damage_after_finish:
        variants["no_damage_after_finish"] = True
    shipped = board.name in BOARD_FILES and board.data == load_board(board.name).data  # else the whole board
    result = {"board": board.name if shipped else board.data, "variants": variants, "round": state.round,
              "chariots": chariots, "caltrops": sorted(board.ids[s] for s in state.caltrops),
              "order": [] if state.phase == OVER else
              [state.cars[k].id for k in state.order[state.turn:] if not state.cars[k].wrecked]}
    if state.phase == OVER:
        result["winner"] = state.winner
    return result


class _Turn:
    """A Turn file read and checked for its shape; the rules judge its content when it is played."""

    def __init__(self, turn: Any) -> None:
        check_keys(turn, TURN_KEYS, "turn")
        self.chariot = typed_value(turn, "chariot", str, "turn")
        self.repair = typed_value(turn, "repair", bool, "turn", False)
        self.dice = typed_value(turn, "dice", list, "turn")
        free = typed_value(turn, "free_reroll", dict, "turn", None)
        self.free_reroll = None if free is None else _reroll(free, "turn.free_reroll")
        paid = typed_value(turn, "paid", list, "turn", [])
        self.paid = [_spend(entry, f"turn.paid[{n}]") for n, entry in enumerate(paid)]
        self.signs = typed_value(turn, "drive", list, "turn", [])
        self.path = typed_value(turn, "path", list, "turn", None)
        self.attacks = typed_value(turn, "attacks", list, "turn", [])
        for n, entry in enumerate(self.attacks):
            _attack(entry, f"turn.attacks[{n}]")


def _reroll(entry: Mapping[str, Any], where: str) -> dict[str, Any]:
    check_keys(entry, REROLL_KEYS, where)
    return {"type": "reroll", "reroll": typed_value(entry, "reroll", list, where),
            "dice": typed_value(entry, "dice", list, where)}


def _spend(entry: Any, where: str) -> dict[str, Any]:
    """CR-13: a paid reroll ``{"reroll": [i, ...], "dice": [...]}`` or a turned die ``{"turn": i, "face": f}``."""
    check_keys(entry, REROLL_KEYS + TURNED_KEYS, where)
    if "turn" in entry:
        check_keys(entry, TURNED_KEYS, where)
        return {"type": "turn", "die": typed_value(entry, "turn", int, where),
                "face": typed_value(entry, "face", str, where)}
    return _reroll(entry, where)


def _attack(entry: Any, where: str) -> dict[str, Any]:
    """CR-21: ``{"spear": chariot id}`` or ``{"caltrop": space id}``."""
    check_keys(entry, ATTACK_KEYS, where)
    if len(entry) != 1:
        raise ScenarioError(where, f'an attack is {{"spear": id}} or {{"caltrop": space}}, got {dict(entry)!r}')
    if "spear" in entry:
        return {"type": "spear", "target": typed_value(entry, "spear", str, where)}
    return {"type": "caltrop", "space": typed_value(entry, "caltrop", str, where)}


def run_scenario(position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    """Play ``turn`` from ``position``; the result is the table right after the turn and what the rules did.

    Raises ``IllegalAction`` (naming the rule) for a turn the rules forbid and ``ScenarioError`` / ``DataError``
    (both ``ValueError``, naming the key) for a malformed file.
    """
    state = state_from_position(position)
    told = _Turn(turn)
    if state.phase == OVER:
        raise IllegalAction("CR-24", f"the race is over (winner: {state.winner})")
    if told.chariot not in [c.id for c in state.cars]:
        raise ScenarioError("turn.chariot", f"unknown chariot {told.chariot!r}; chariots: "
                            f"{[c.id for c in state.cars]}")
    first = state.cars[state.current].id
    if first != told.chariot:
        raise IllegalAction("CR-9", f"it is {first}'s turn, not {told.chariot}'s", legal=first)
    mover = state.current
    paid = list(told.paid)
    attacks = list(told.attacks)  # as written, so that a left-over one is shown as the player wrote it
    events: list[Event] = []
    state = start_turn(state, events)
    seen = set()
    ended = state.phase == OVER
    while not ended:
        phase = state.phase
        seen.add(phase)
        action: dict[str, Any]
        if phase == "repair":
            action = {"type": "repair" if told.repair else "skip_repair"}
        elif phase == "roll":
            action = {"type": "roll", "dice": told.dice}
        elif phase == "reroll":
            _check_fortune(state.cars[mover], len(paid))
            action = told.free_reroll or {"type": "done"}
        elif phase == "fortune":
            action = paid.pop(0) if paid else {"type": "done"}
        elif phase == "drive":
            action = {"type": "drive", "signs": told.signs}
        elif phase == "move":
            action = {"type": "move", "path": told.path if told.path is not None else []}
        else:
            action = _attack(attacks.pop(0), "turn.attacks") if attacks else {"type": "done"}
        state, more = _GAME.apply(state, action)
        ended = any(e["type"] in ("turn", "game_over") for e in more)  # the next turn has begun, or the game ended
        events.extend(more)
    _check_unused(state, mover, told, attacks, seen, events)
    cut = next((n for n, e in enumerate(events) if e["type"] == "turn" and n > 0), len(events))
    result = position_from_state(state)
    for event in events[cut:]:  # the next chariot's start of turn is not part of this turn
        if event["type"] == "speed_capped":
            next(c for c in result["chariots"] if c["id"] == event["chariot"])["speed"] = event["was"]
    return {"position": result, "events": events[:cut]}


def _check_fortune(car: Car, spends: int) -> None:
    """CR-13: each paid reroll or turn takes 2 fortune from the track; what this roll shows is added only later."""
    if spends * FORTUNE_COST > car.fortune:
        raise IllegalAction("CR-13", f"{car.id} has {car.fortune} fortune on the track: {spends} paid rerolls or "
                            f"turns cost {spends * FORTUNE_COST} (fortune rolled this turn cannot pay)",
                            legal=f"at most {car.fortune // FORTUNE_COST} paid rerolls or turns")


def _check_unused(state: State, mover: int, told: _Turn, attacks: list[Any], seen: set[str],
                  events: list[Event]) -> None:
    """A turn file must describe what happened: parts the rules never reached are errors, not silently ignored."""
    car = state.cars[mover]
    if told.repair and "repair" not in seen:
        raise IllegalAction("CR-11", f"{car.id} cannot repair: that needs {REPAIR_COST} fortune and some damage lost")
    if told.signs and "drive" not in seen and not car.wrecked:
        raise IllegalAction("CR-15", f"drive choices {told.signs} given but the dice show no drive")
    moved = next((e for e in events if e["type"] == "moved"), None)
    path = told.path
    if path is not None and moved is not None and "move" not in seen:
        taken = moved["path"]
        if path[:len(taken)] != taken or (moved["to"] is not None and len(path) != len(taken)):
            raise IllegalAction("CR-16", f"without a steer die the path is {len(taken)} steps straight, got {path}",
                                legal=taken)
    if attacks:
        raise IllegalAction("CR-21", f"attacks left over {attacks}: {car.id} has no attack die or no target left")
