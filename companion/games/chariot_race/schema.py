"""Schema checks for the Chariot Race data files: a wrong file fails at load with its name and the field.

The files are meant to be edited by a table whose printed board differs from ours (the reference boards are
reconstructions, the alternative chariots placeholders), so the checks explain what is expected rather than
raising a bare ``KeyError`` deep inside the rules.

>>> check_dice({"count": 5, "faces": ["drive"]}, "dice.json")
Traceback (most recent call last):
...
companion.games.datafile.DataError: dice.json: faces: expected 6 faces, got 1
"""

from __future__ import annotations

from typing import Any

from companion.games.datafile import DataError, get, int_range, known_keys

FACE_NAMES = ("drive", "gallop", "steer", "attack", "fortune")
"""The faces the rules give a meaning to (CR-1); a dice file may only use these."""
LANES = (0, 1, 2)
BOARD_KEYS = ("game", "side", "note", "lap_length", "lanes", "finish_line_u", "start_positions", "spaces")
SPACE_KEYS = ("id", "lane", "index", "segment", "back", "front", "x", "y", "max_speed", "rocks")
"""A board's keys: any other is a typo (``"max_sped"`` would drop a curve without a word) and fails the load."""


def check_dice(data: Any, source: str) -> None:
    """CR-1: ``{"count": 5, "faces": [6 face names]}``."""
    int_range(data, "count", 1, 10, source, "")
    faces = get(data, "faces", list, source, "")
    if len(faces) != 6:
        raise DataError(source, "faces", f"expected 6 faces, got {len(faces)}")
    for i, face in enumerate(faces):
        if face not in FACE_NAMES:
            raise DataError(source, f"faces[{i}]", f"expected one of {', '.join(FACE_NAMES)}, got {face!r}")


def check_chariot_board(data: Any, source: str) -> None:
    """CR-2..CR-4: maxima and start values of the three tracks, dice per start speed, speed cap per damage."""
    get(data, "name", str, source, "")
    for track in ("damage", "speed", "fortune"):
        spec = get(data, track, dict, source, "")
        top = int_range(spec, "max", 1, 30, source, track)
        int_range(spec, "start", 0 if track != "damage" else 1, top, source, track)
    top_speed = data["speed"]["max"]
    dice = get(data, "dice_by_speed", list, source, "")
    if len(dice) != top_speed + 1:
        raise DataError(source, "dice_by_speed", f"expected {top_speed + 1} entries (one per speed 0..{top_speed}), "
                        f"got {len(dice)}")
    for i, n in enumerate(dice):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
            raise DataError(source, f"dice_by_speed[{i}]", f"expected 1..5 dice, got {n!r}")
    caps = get(data, "speed_cap", list, source, "")
    top_damage = data["damage"]["max"]
    if len(caps) != top_damage + 1:
        raise DataError(source, "speed_cap", f"expected {top_damage + 1} entries (one per damage 0..{top_damage}), "
                        f"got {len(caps)}")
    for i, cap in enumerate(caps):
        if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= top_speed:
            raise DataError(source, f"speed_cap[{i}]", f"expected a speed 0..{top_speed}, got {cap!r}")


def check_board(data: Any, source: str) -> None:
    """CR-5: three lanes of spaces closing into a loop, progress coordinates, curves, rocks, six start spaces."""
    lap = get(data, "lap_length", (int, float), source, "")
    known_keys(data, BOARD_KEYS, source, "")
    if lap <= 0:
        raise DataError(source, "lap_length", f"expected a positive number, got {lap}")
    spaces = get(data, "spaces", list, source, "")
    if not spaces:
        raise DataError(source, "spaces", "expected at least one space per lane, got none")
    seen: set[str] = set()
    by_lane: dict[int, list[tuple[int, str, float, float]]] = {lane: [] for lane in LANES}
    for i, space in enumerate(spaces):
        where = f"spaces[{i}]"
        sid = get(space, "id", str, source, where)
        known_keys(space, SPACE_KEYS, source, where)
        if sid in seen:
            raise DataError(source, f"{where}.id", f"duplicate space id {sid!r}")
        seen.add(sid)
        lane = int_range(space, "lane", 0, 2, source, where)
        index = int_range(space, "index", 0, 10_000, source, where)
        back = get(space, "back", (int, float), source, where)
        front = get(space, "front", (int, float), source, where)
        if not 0 <= back < front <= lap:
            raise DataError(source, f"{where}.front", f"expected 0 <= back < front <= lap_length ({lap}), "
                            f"got back {back}, front {front}")
        int_range(space, "max_speed", 0, 30, source, where, required=False)
        get(space, "rocks", bool, source, where, required=False)
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
    starts = get(data, "start_positions", dict, source, "")
    for n in range(1, 7):
        sid = get(starts, str(n), str, source, "start_positions")
        if sid not in seen:
            raise DataError(source, f"start_positions.{n}", f"unknown space {sid!r}")
        space = next(s for s in spaces if s["id"] == sid)
        if space["back"] >= lap / 2:
            raise DataError(source, f"start_positions.{n}", f"start space {sid} must lie just past the finish line "
                            f"(back < {lap / 2}); laps are counted as finish-line crossings (CR-23)")
    if len(set(starts[str(n)] for n in range(1, 7))) != 6:
        raise DataError(source, "start_positions", "the six start positions must be six different spaces")
