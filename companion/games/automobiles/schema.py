"""Schema checks for the Automobiles data files (``data/cubes.json``, ``cards.json``, ``tracks.json``): a table's
mistake in them fails at load naming the file and the field, with what was expected (see ``kit.py``).

>>> check_cubes({"cubes": [{"id": "white", "count": "30"}]}, "cubes.json")
Traceback (most recent call last):
...
companion.games.datafile.DataError: cubes.json: cubes[0].name_de: missing
"""

from __future__ import annotations

from typing import Any

from companion.games.datafile import DataError, check_fields, get, int_range, one_of, unique_ids

CUBE_KINDS = ("gear", "action", "wear")
GEARS = {"white": 3, "light_grey": 4, "dark_grey": 5, "black": 6}
"""AU-1: the gear cubes' colours and the gear each stands for (the colour order white < ... < black, AU glossary)."""
GRID_SIDES = ("behind_line", "ahead_of_line")
CUBE_FIELDS = {"name_de": str, "count": range(1, 1000), "kind": CUBE_KINDS, "starting_bag": range(100), "buyable": bool}
CARD_FIELDS = {"colour": str, "category": str, "source": ("base", "racing_season"), "value": range(100),
               "cost_value_verified": bool, "duration": ("instant", "turn"), "effect": dict}


def check_cubes(data: Any, source: str) -> None:
    """AU-1, AU-12: the ten colours with their counts, kinds and the starting bag."""
    cubes = get(data, "cubes", list, source)
    unique_ids(cubes, source, "cubes")
    for i, cube in enumerate(cubes):
        where = f"cubes[{i}]"
        kind = check_fields(cube, CUBE_FIELDS, source, where)["kind"]
        if kind == "gear" and GEARS.get(cube["id"]) != int_range(cube, "gear", 3, 6, source, where):
            raise DataError(source, f"{where}.gear", f"{cube['id']} is gear {GEARS.get(cube['id'])} (AU-1)")
    total = sum(c["count"] for c in cubes)
    if int_range(data, "total", 1, 9999, source) != total:
        raise DataError(source, "total", f"the colours' counts add up to {total}, not {data['total']}")
    bag = sum(c["starting_bag"] for c in cubes)
    if int_range(data, "starting_bag_total", 1, 99, source) != bag:
        raise DataError(source, "starting_bag_total", f"the colours' starting_bag add up to {bag}")
    int_range(data, "draw_per_turn", 1, 99, source)


def check_cards(data: Any, cube_ids: set[str], source: str) -> None:
    """AU-3, AU-9: the fixed cards (gears, wear) and the action cards, each of a colour the cubes have."""
    for section in ("fixed_cards", "action_cards"):
        cards = get(data, section, list, source)
        unique_ids(cards, source, section)
        for i, card in enumerate(cards):
            where = f"{section}[{i}]"
            effect = check_fields(card, CARD_FIELDS, source, where)["effect"]
            if card.get("cost") is not None:  # null: a cost not printed in the rules text
                int_range(card, "cost", 0, 99, source, where)
            get(effect, "type", str, source, f"{where}.effect")
            get(card, "rule", str, source, where)
            if card["colour"] not in cube_ids:
                raise DataError(source, f"{where}.colour", f"no cubes of colour {card['colour']!r}")
    drivers = get(data, "drivers", list, source)
    unique_ids(drivers, source, "drivers")
    for i, driver in enumerate(drivers):
        get(driver, "phase", str, source, f"drivers[{i}]")
        get(get(driver, "effect", dict, source, f"drivers[{i}]"), "type", str, source, f"drivers[{i}].effect")
    sponsors = get(data, "sponsors", list, source)
    unique_ids(sponsors, source, "sponsors")
    families = get(data, "sponsor_families", dict, source)
    for i, sponsor in enumerate(sponsors):
        if one_of(sponsor, "family", tuple(families), source, f"sponsors[{i}]") is None:
            continue
        effects = get(sponsor, "effects", dict, source, f"sponsors[{i}]")
        for place in ("first", "middle", "last"):
            int_range(get(effects, place, dict, source, f"sponsors[{i}].effects"), "standard_remove", 0, 99, source,
                      f"sponsors[{i}].effects.{place}")


def check_tracks(data: Any, source: str) -> None:
    """AU-4, AU-5: the lap track and each track; a track with its geometry has fields and segments whose
    references (``field``, ``entries``, ``ahead``, start positions) all name segments of that track."""
    lap = get(data, "lap_track", dict, source)
    fields = get(lap, "fields", list, source, "lap_track")
    if get(lap, "default_start", str, source, "lap_track") not in fields:
        raise DataError(source, "lap_track.default_start", f"expected one of {fields}, got {lap['default_start']!r}")
    tracks = get(data, "tracks", list, source)
    unique_ids(tracks, source, "tracks")
    for t, track in enumerate(tracks):
        where = f"tracks[{t}]"
        get(track, "reference", bool, source, where)
        if "segments" not in track:
            continue  # a printed track not transcribed yet (geometry: null)
        length = int_range(track, "lap_length", 1, 9999, source, where)
        one_of(track, "grid_side", GRID_SIDES, source, where)
        field_ids = set(unique_ids(get(track, "fields", list, source, where), source, f"{where}.fields"))
        segments = get(track, "segments", list, source, where)
        segment_ids = set(unique_ids(segments, source, f"{where}.segments"))
        for s, segment in enumerate(segments):
            at = f"{where}.segments[{s}]"
            if get(segment, "field", str, source, at) not in field_ids:
                raise DataError(source, f"{at}.field", f"no field {segment['field']!r} on this track")
            int_range(segment, "back", 0, length, source, at)
            int_range(segment, "front", 0, 2 * length, source, at)
            for e, entry in enumerate(get(segment, "entries", list, source, at)):
                if entry not in segment_ids:
                    raise DataError(source, f"{at}.entries[{e}]", f"no segment {entry!r} on this track")
            ahead = segment.get("ahead")
            if ahead is not None and ahead not in segment_ids:
                raise DataError(source, f"{at}.ahead", f"no segment {ahead!r} on this track")
        owner = {segment["id"]: segment["field"] for segment in segments}
        for f, field in enumerate(track["fields"]):
            for k, segment_id in enumerate(get(field, "segments", list, source, f"{where}.fields[{f}]")):
                if owner.get(segment_id) != field["id"]:
                    raise DataError(source, f"{where}.fields[{f}].segments[{k}]",
                                    f"expected a segment of field {field['id']!r}, got {segment_id!r}")
        for p, start in enumerate(get(track, "start_positions", list, source, where)):
            if get(start, "segment", str, source, f"{where}.start_positions[{p}]") not in segment_ids:
                raise DataError(source, f"{where}.start_positions[{p}].segment",
                                f"no segment {start['segment']!r} on this track")
            int_range(start, "money", 0, 99, source, f"{where}.start_positions[{p}]")
