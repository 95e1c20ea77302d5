"""Schema checks for the Hexen Rennen data files: a wrong file fails at load with its name and the field.

The box is fixed (four clans, 48 tiles, 48 cards), but a table with a reprint or a home-made variant edits
``data/clans.json`` and ``data/track.json``; the checks say what is expected instead of failing deep in the rules.

>>> check_track({"stages": 3, "stage_length": 16, "tiles_per_clan_per_stage": 4, "magic_per_clan_per_stage": 1,
...              "finish_points": []}, "track.json")
Traceback (most recent call last):
...
companion.games.hexenrennen.schema.DataError: track.json: finish_points: expected at least one field, got none
"""

from __future__ import annotations

from typing import Any


class DataError(ValueError):
    """A data file that does not match its schema; the message starts with ``file: field:``."""

    def __init__(self, source: str, field: str, message: str) -> None:
        self.source = source
        self.field = field
        super().__init__(f"{source}: {field}: {message}")


def _get(obj: Any, key: str, kind: type, source: str, where: str = "") -> Any:
    field = f"{where}.{key}" if where else key
    if not isinstance(obj, dict):
        raise DataError(source, where or "(top)", f"expected an object, got {type(obj).__name__}")
    if key not in obj:
        raise DataError(source, field, "missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DataError(source, field, f"expected {kind.__name__}, got {value!r}")
    return value


def _count(obj: Any, key: str, lo: int, hi: int, source: str, where: str = "") -> int:
    value = _get(obj, key, int, source, where)
    if not lo <= value <= hi:
        raise DataError(source, f"{where}.{key}" if where else key, f"expected {lo}..{hi}, got {value}")
    return value


def _numbers(obj: Any, source: str, where: str) -> list[int]:
    """HR-2: a set of numbered tiles or cards: distinct integers 1..99 (2..10 in the box)."""
    numbers = _get(obj, "numbers", list, source, where)
    for i, n in enumerate(numbers):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 99:
            raise DataError(source, f"{where}.numbers[{i}]", f"expected a number 1..99, got {n!r}")
    if len(set(numbers)) != len(numbers):
        raise DataError(source, f"{where}.numbers", f"each number once, got {numbers}")
    return numbers


def check_clans(data: Any, source: str) -> None:
    """HR-2: the four clans (colour ids), witches per clan, each clan's tile set and card set."""
    clans = _get(data, "clans", list, source)
    if len(clans) < 2:
        raise DataError(source, "clans", f"expected at least 2 clans, got {len(clans)}")
    for i, clan in enumerate(clans):
        if not isinstance(clan, str) or not clan.isidentifier() or "-" in clan:
            raise DataError(source, f"clans[{i}]", f"expected a colour id such as 'blue', got {clan!r}")
    if len(set(clans)) != len(clans):
        raise DataError(source, "clans", f"each clan once, got {clans}")
    _count(data, "witches_per_clan", 1, 9, source)
    for part in ("tiles", "cards"):
        spec = _get(data, part, dict, source)
        _numbers(spec, source, part)
        _count(spec, "magic", 0, 9, source, part)


def check_track(data: Any, source: str) -> None:
    """HR-3/HR-17: stages, their length, each clan's tiles and magic tiles per stage, the finish points."""
    _count(data, "stages", 1, 9, source)
    _count(data, "stage_length", 1, 99, source)
    per_stage = _count(data, "tiles_per_clan_per_stage", 1, 20, source)
    _count(data, "magic_per_clan_per_stage", 0, per_stage, source)
    points = _get(data, "finish_points", list, source)
    if not points:
        raise DataError(source, "finish_points", "expected at least one field, got none")
    for i, p in enumerate(points):
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise DataError(source, f"finish_points[{i}]", f"expected points >= 0, got {p!r}")


def check_kit(clans: dict[str, Any], track: dict[str, Any], source: str) -> None:
    """The two files together: every stage is filled exactly by the clans' tiles (HR-3)."""
    n = len(clans["clans"])
    per_stage, stages = track["tiles_per_clan_per_stage"], track["stages"]
    if track["stage_length"] != per_stage * n:
        raise DataError(source, "stage_length", f"expected tiles_per_clan_per_stage x clans = {per_stage} x {n} = "
                        f"{per_stage * n}, got {track['stage_length']}")
    tiles = clans["tiles"]
    if tiles["magic"] != track["magic_per_clan_per_stage"] * stages:
        raise DataError(source, "magic_per_clan_per_stage", f"{tiles['magic']} magic tiles per clan do not fill "
                        f"{stages} stages with {track['magic_per_clan_per_stage']} each")
    if len(tiles["numbers"]) + tiles["magic"] != per_stage * stages:
        raise DataError(source, "tiles_per_clan_per_stage", f"{len(tiles['numbers'])} number and {tiles['magic']} "
                        f"magic tiles per clan do not fill {stages} stages with {per_stage} each")
