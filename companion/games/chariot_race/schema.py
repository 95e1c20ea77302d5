"""Schema checks for the Chariot Race data files: a wrong file fails at load with its name and the field.

The files are meant to be edited by a table whose printed board differs from ours (the reference boards are
reconstructions, the alternative chariots placeholders), so the checks explain what is expected rather than
raising a bare ``KeyError`` deep inside the rules.

>>> check_dice({"count": 5, "faces": ["drive"]}, "dice.json")
Traceback (most recent call last):
...
companion.games.chariot_race.schema.DataError: dice.json: faces: expected 6 faces, got 1
"""

from __future__ import annotations

from typing import Any

FACE_NAMES = ("drive", "gallop", "steer", "attack", "fortune")
"""The faces the rules give a meaning to (CR-1); a dice file may only use these."""
LANES = (0, 1, 2)
BOARD_KEYS = ("game", "side", "note", "lap_length", "lanes", "finish_line_u", "start_positions", "spaces")
SPACE_KEYS = ("id", "lane", "index", "segment", "back", "front", "x", "y", "max_speed", "rocks")
"""A board's keys: any other is a typo (``"max_sped"`` would drop a curve without a word) and fails the load."""


class DataError(ValueError):
    """A data file that does not match its schema; the message starts with ``file: field:``."""

    def __init__(self, source: str, field: str, message: str) -> None:
        self.source = source
        self.field = field
        super().__init__(f"{source}: {field}: {message}")


def _get(obj: Any, key: str, kind: type | tuple[type, ...], source: str, where: str, required: bool = True) -> Any:
    """``obj[key]`` checked for type; ``where`` is the dotted path of ``obj`` inside the file."""
    field = f"{where}.{key}" if where else key
    if not isinstance(obj, dict):
        raise DataError(source, where or "(top)", f"expected an object, got {type(obj).__name__}")
    if key not in obj:
        if required:
            raise DataError(source, field, "missing")
        return None
    value = obj[key]
    if kind in (int, (int, float)) and isinstance(value, bool):
        raise DataError(source, field, f"expected a number, got {value!r}")
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataError(source, field, f"expected {names}, got {value!r}")
    return value


def _int_range(obj: Any, key: str, lo: int, hi: int, source: str, where: str, required: bool = True) -> int | None:
    value = _get(obj, key, int, source, where, required)
    if value is not None and not lo <= value <= hi:
        raise DataError(source, f"{where}.{key}" if where else key, f"expected {lo}..{hi}, got {value}")
    return value


def check_dice(data: Any, source: str) -> None:
    """CR-1: ``{"count": 5, "faces": [6 face names]}``."""
    _int_range(data, "count", 1, 10, source, "")
    faces = _get(data, "faces", list, source, "")
    if len(faces) != 6:
        raise DataError(source, "faces", f"expected 6 faces, got {len(faces)}")
    for i, face in enumerate(faces):
        if face not in FACE_NAMES:
            raise DataError(source, f"faces[{i}]", f"expected one of {', '.join(FACE_NAMES)}, got {face!r}")


def check_chariot_board(data: Any, source: str) -> None:
    """CR-2..CR-4: maxima and start values of the three tracks, dice per start speed, speed cap per damage."""
    _get(data, "name", str, source, "")
    for track in ("damage", "speed", "fortune"):
        spec = _get(data, track, dict, source, "")
        top = _int_range(spec, "max", 1, 30, source, track)
        _int_range(spec, "start", 0 if track != "damage" else 1, top, source, track)
    top_speed = data["speed"]["max"]
    dice = _get(data, "dice_by_speed", list, source, "")
    if len(dice) != top_speed + 1:
        raise DataError(source, "dice_by_speed", f"expected {top_speed + 1} entries (one per speed 0..{top_speed}), "
                        f"got {len(dice)}")
    for i, n in enumerate(dice):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
            raise DataError(source, f"dice_by_speed[{i}]", f"expected 1..5 dice, got {n!r}")
    caps = _get(data, "speed_cap", list, source, "")
    top_damage = data["damage"]["max"]
    if len(caps) != top_damage + 1:
        raise DataError(source, "speed_cap", f"expected {top_damage + 1} entries (one per damage 0..{top_damage}), "
                        f"got {len(caps)}")
    for i, cap in enumerate(caps):
        if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= top_speed:
            raise DataError(source, f"speed_cap[{i}]", f"expected a speed 0..{top_speed}, got {cap!r}")


def _known_keys(obj: dict[str, Any], known: tuple[str, ...], source: str, where: str) -> None:
    for key in obj:
        if key not in known:
            raise DataError(source, f"{where}.{key}" if where else key, f"unknown key; known: {', '.join(known)}")


def check_board(data: Any, source: str) -> None:
    """CR-5: three lanes of spaces closing into a loop, progress coordinates, curves, rocks, six start spaces."""
    lap = _get(data, "lap_length", (int, float), source, "")
    _known_keys(data, BOARD_KEYS, source, "")
    if lap <= 0:
        raise DataError(source, "lap_length", f"expected a positive number, got {lap}")
    spaces = _get(data, "spaces", list, source, "")
    if not spaces:
        raise DataError(source, "spaces", "expected at least one space per lane, got none")
    seen: set[str] = set()
    by_lane: dict[int, list[tuple[int, str, float, float]]] = {lane: [] for lane in LANES}
    for i, space in enumerate(spaces):
        where = f"spaces[{i}]"
        sid = _get(space, "id", str, source, where)
        _known_keys(space, SPACE_KEYS, source, where)
        if sid in seen:
            raise DataError(source, f"{where}.id", f"duplicate space id {sid!r}")
        seen.add(sid)
        lane = _int_range(space, "lane", 0, 2, source, where)
        index = _int_range(space, "index", 0, 10_000, source, where)
        back = _get(space, "back", (int, float), source, where)
        front = _get(space, "front", (int, float), source, where)
        if not 0 <= back < front <= lap:
            raise DataError(source, f"{where}.front", f"expected 0 <= back < front <= lap_length ({lap}), "
                            f"got back {back}, front {front}")
        _int_range(space, "max_speed", 0, 30, source, where, required=False)
        _get(space, "rocks", bool, source, where, required=False)
        by_lane[lane].append((index, sid, back, front))
    for lane, entries in by_lane.items():
        if not entries:
            raise DataError(source, "spaces", f"lane {lane} has no spaces")
        entries.sort()
        for (_, prev_id, _, prev_front), (_, sid, _, front) in zip(entries, entries[1:], strict=False):
            if front <= prev_front:
                raise DataError(source, f"spaces[{sid}].front", f"lane {lane} must advance: {sid} front {front} is "
                                f"not ahead of {prev_id} front {prev_front}")
        if entries[-1][3] != lap:
            raise DataError(source, f"spaces[{entries[-1][1]}].front",
                            f"the last space of lane {lane} must end at lap_length {lap}, got {entries[-1][3]}")
    starts = _get(data, "start_positions", dict, source, "")
    for n in range(1, 7):
        sid = _get(starts, str(n), str, source, "start_positions")
        if sid not in seen:
            raise DataError(source, f"start_positions.{n}", f"unknown space {sid!r}")
        space = next(s for s in spaces if s["id"] == sid)
        if space["back"] >= lap / 2:
            raise DataError(source, f"start_positions.{n}", f"start space {sid} must lie just past the finish line "
                            f"(back < {lap / 2}); laps are counted as finish-line crossings (CR-23)")
    if len(set(starts[str(n)] for n in range(1, 7))) != 6:
        raise DataError(source, "start_positions", "the six start positions must be six different spaces")
