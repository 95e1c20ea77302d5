"""Schema checks for the Hexen Rennen data files: a wrong file fails at load with its name and the field.

The box is fixed (four clans, 48 tiles, 48 cards), but a table with a reprint or a home-made variant edits
``data/clans.json`` and ``data/track.json``; the checks say what is expected instead of failing deep in the rules.

>>> check_track({"stages": 3, "stage_length": 16, "tiles_per_clan_per_stage": 4, "magic_per_clan_per_stage": 1,
...              "finish_points": []}, "track.json")
Traceback (most recent call last):
...
companion.games.datafile.DataError: track.json: finish_points: expected at least one field, got none
"""

from __future__ import annotations

from typing import Any

from companion.games.datafile import DataError, get, int_range


def _numbers(obj: Any, source: str, where: str) -> list[int]:
    """HR-2: a set of numbered tiles or cards: distinct integers 1..99 (2..10 in the box)."""
    numbers = get(obj, "numbers", list, source, where)
    for i, n in enumerate(numbers):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 99:
            raise DataError(source, f"{where}.numbers[{i}]", f"expected a number 1..99, got {n!r}")
    if len(set(numbers)) != len(numbers):
        raise DataError(source, f"{where}.numbers", f"each number once, got {numbers}")
    return numbers


def check_clans(data: Any, source: str) -> None:
    """HR-2: the four clans (colour ids), witches per clan, each clan's tile set and card set."""
    clans = get(data, "clans", list, source)
    if len(clans) < 2:
        raise DataError(source, "clans", f"expected at least 2 clans, got {len(clans)}")
    for i, clan in enumerate(clans):
        if not isinstance(clan, str) or not clan.isidentifier() or "-" in clan:
            raise DataError(source, f"clans[{i}]", f"expected a colour id such as 'blue', got {clan!r}")
    if len(set(clans)) != len(clans):
        raise DataError(source, "clans", f"each clan once, got {clans}")
    int_range(data, "witches_per_clan", 1, 9, source)
    for part in ("tiles", "cards"):
        spec = get(data, part, dict, source)
        _numbers(spec, source, part)
        int_range(spec, "magic", 0, 9, source, part)


def check_track(data: Any, source: str) -> None:
    """HR-3/HR-17: stages, their length, each clan's tiles and magic tiles per stage, the finish points."""
    int_range(data, "stages", 1, 9, source)
    int_range(data, "stage_length", 1, 99, source)
    per_stage = int_range(data, "tiles_per_clan_per_stage", 1, 20, source)
    int_range(data, "magic_per_clan_per_stage", 0, per_stage, source)
    points = get(data, "finish_points", list, source)
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
