"""Schema checks for the Cubitos data files (``data/dice.json``, ``cards.json``, ``races.json``): a table's
mistake in them fails at load naming the file and the field, with what was expected (see ``kit.py``).

>>> check_dice({"dice": [{"id": "red", "faces": []}]}, "dice.json")
Traceback (most recent call last):
...
companion.games.datafile.DataError: dice.json: dice[0].name_de: missing
"""

from __future__ import annotations

from typing import Any

from companion.games.datafile import DataError, check_fields, field_name, get, int_range, one_of, unique_ids

FACE_AMOUNTS = ("coins", "steps", "credits", "swords")
FACE_SYMBOLS = ("team", "special")
DIE_KINDS = ("start", "lead", "ability")
SLOTS = ("normal", "special", "unknown")
TIMINGS = ("immediate", "activatable", "event", "support", "unknown")
WINDOWS = (None, "push_before_roll", "on_bust", "phase5", "phase5_after_swords", "end_of_phase6", "before_phase7",
           "race_section", "any")
EVENTS = (None, "push_without_bust")
SPACE_KINDS = ("start", "finish", "open", "water")
BONUS_TYPES = ("credits", "fans", "give_back", "take_die", "take_die_max_cost")
TIE_RULES = ("nase_vorn", "nobody")
SERIES = ("blue", "gold", "free")
DIE_FIELDS = {"name_de": str, "kind": DIE_KINDS, "colour": str, "count_total": range(1, 100),
              "start_per_player": range(100), "buyable": bool, "reference": bool}
CARD_FIELDS = {"name_de": str, "colour": str, "cost": range(100), "cost_is_reference": bool}
ABILITY_FIELDS = {"id": str, "slot": SLOTS, "timing": TIMINGS, "window": WINDOWS, "event": EVENTS, "mandatory": bool,
                  "dice_used": range(1, 10), "rule": str}
SPACE_FIELDS = {"kind": SPACE_KINDS, "red_lines_passed": range(1000), "bonuses": list}
SETUP_FIELDS = {"base_draw_limit": range(1, 100), "start_dice_per_player": dict, "grey_stock_by_players": dict}
FAN_FIELDS = {"n": range(1, 100), "credits": range(100), "limit_tokens": range(100)}
TRACK_FIELDS = {"name_de": str, "reference": bool, "layout": str}
RACE_FIELDS = {"name_de": str, "series": SERIES, "laps": range(1, 10), "segments": (list, type(None)),
               "cards": (dict, type(None))}


def _list(obj: Any, key: str, source: str, where: str = "", *, least: int = 0) -> list[Any]:
    items = get(obj, key, list, source, where)
    if len(items) < least:
        raise DataError(source, field_name(where, key), f"expected at least {least}, got {len(items)}")
    return items


def check_face(face: Any, source: str, where: str) -> None:
    """CU-6: a label, amounts >= 1 when present, team/special flags; a face with nothing is labelled blank."""
    label = get(face, "label", str, source, where)
    for amount in FACE_AMOUNTS:
        int_range(face, amount, 1, 99, source, where, required=False)
    for symbol in FACE_SYMBOLS:
        get(face, symbol, bool, source, where, required=False)
    blank = not any(face.get(k) for k in FACE_AMOUNTS + FACE_SYMBOLS)
    if blank != (label == "blank"):
        raise DataError(source, f"{where}.label", "a face showing nothing is labelled 'blank', and only such a face"
                        f" (got {label!r})")


def check_dice(data: Any, source: str) -> None:
    """CU-2..CU-5: every die type with exactly 6 faces."""
    dice = _list(data, "dice", source, least=1)
    unique_ids(dice, source, "dice")
    for i, die in enumerate(dice):
        where = f"dice[{i}]"
        kind = check_fields(die, DIE_FIELDS, source, where)["kind"]
        cost = die.get("cost")
        if kind == "ability" and cost != "from_card":
            raise DataError(source, f"{where}.cost", f"an ability die's cost comes from its card: 'from_card', got "
                            f"{cost!r}")
        if kind == "start" and cost != 0:
            raise DataError(source, f"{where}.cost", f"a start die costs 0 (CU-85), got {cost!r}")
        faces = _list(die, "faces", source, where)
        if len(faces) != 6:
            raise DataError(source, f"{where}.faces", f"expected 6 faces, got {len(faces)}")
        for k, face in enumerate(faces):
            check_face(face, source, f"{where}.faces[{k}]")
    if sum(d["kind"] == "lead" for d in dice) != 1:
        raise DataError(source, "dice", "expected exactly one die of kind 'lead' (CU-4)")


def check_effects(effects: Any, source: str, where: str) -> None:
    if not isinstance(effects, list) or not effects:
        raise DataError(source, where, f"expected a list of effects, got {effects!r}")
    for i, effect in enumerate(effects):
        get(effect, "op", str, source, f"{where}[{i}]")


def check_cards(data: Any, source: str) -> None:
    """CU-8: cards with a colour, a cost and abilities whose timing and window are known words."""
    cards = _list(data, "cards", source, least=1)
    unique_ids(cards, source, "cards")
    for i, card in enumerate(cards):
        where = f"cards[{i}]"
        check_fields(card, CARD_FIELDS, source, where)
        if card.get("sword_tie_rule") is not None:
            one_of(card, "sword_tie_rule", TIE_RULES, source, where)
        for k, ability in enumerate(_list(card, "abilities", source, where, least=1)):
            place = f"{where}.abilities[{k}]"
            check_fields(ability, ABILITY_FIELDS, source, place, optional=("window", "event", "dice_used"))
            check_effects(ability.get("effects"), source, f"{place}.effects")


def check_layout(layout: Any, source: str, where: str) -> None:
    """CU-57: spaces of known kinds, one start and one finish, edges and shortcuts between existing spaces."""
    spaces = _list(layout, "spaces", source, where, least=2)
    ids = set(unique_ids(spaces, source, f"{where}.spaces"))
    for i, space in enumerate(spaces):
        place = f"{where}.spaces[{i}]"
        for k, bonus in enumerate(check_fields(space, SPACE_FIELDS, source, place)["bonuses"]):
            kind = one_of(bonus, "type", BONUS_TYPES, source, f"{place}.bonuses[{k}]")
            if kind == "take_die_max_cost":
                int_range(bonus, "max_cost", 0, 99, source, f"{place}.bonuses[{k}]")
            elif kind != "take_die":
                int_range(bonus, "n", 1, 99, source, f"{place}.bonuses[{k}]")
        special = space.get("special")
        if special is not None:
            kind = one_of(special, "type", ("jet", "shortcut"), source, f"{place}.special")
            if kind == "shortcut":
                pay = get(special, "pay", dict, source, f"{place}.special")
                if len(pay) != 1 or next(iter(pay)) not in ("steps", "coins"):
                    raise DataError(source, f"{place}.special.pay", f"expected {{'steps': n}} or {{'coins': n}}, got "
                                    f"{pay!r}")
                int_range(pay, next(iter(pay)), 0, 99, source, f"{place}.special.pay")
                if get(special, "to", str, source, f"{place}.special") not in ids:
                    raise DataError(source, f"{place}.special.to", f"no space {special['to']!r} on this track")
    for kind in ("start", "finish"):
        space = get(layout, kind, str, source, where)
        found = next((s for s in spaces if s.get("id") == space), None)
        if found is None or found.get("kind") != kind:
            raise DataError(source, f"{where}.{kind}", f"expected the id of the space of kind {kind!r}, got {space!r}")
    for i, edge in enumerate(_list(layout, "edges", source, where, least=1)):
        if (not isinstance(edge, list) or len(edge) != 2 or edge[0] not in ids or edge[1] not in ids
                or edge[0] == edge[1]):
            raise DataError(source, f"{where}.edges[{i}]", f"expected two different space ids of this track, got "
                            f"{edge!r}")


def check_races(data: Any, source: str) -> None:
    """CU-10, CU-11, CU-140: the set-up numbers, the fan track, the tracks with their layouts, the races."""
    check_fields(get(data, "setup", dict, source), SETUP_FIELDS, source, "setup")
    fan = get(data, "fan_track", dict, source)
    spaces = _list(fan, "spaces", source, "fan_track", least=1)
    for i, space in enumerate(spaces):
        if check_fields(space, FAN_FIELDS, source, f"fan_track.spaces[{i}]")["n"] != i + 1:
            raise DataError(source, f"fan_track.spaces[{i}].n", f"expected {i + 1} (spaces in order), got "
                            f"{space['n']}")
    int_range(fan, "overflow_credits_per_space", 0, 99, source, "fan_track")
    layouts = get(data, "layouts", dict, source)
    for name, layout in layouts.items():
        check_layout(layout, source, f"layouts.{name}")
    tracks = _list(data, "tracks", source, least=1)
    track_ids = set(unique_ids(tracks, source, "tracks"))
    for i, track in enumerate(tracks):
        if check_fields(track, TRACK_FIELDS, source, f"tracks[{i}]")["layout"] not in layouts:
            raise DataError(source, f"tracks[{i}].layout", f"no layout {track['layout']!r}; known: "
                            f"{', '.join(layouts)}")
    races = _list(data, "races", source, least=1)
    unique_ids(races, source, "races")
    for i, race in enumerate(races):
        for k, segment in enumerate(check_fields(race, RACE_FIELDS, source, f"races[{i}]")["segments"] or []):
            if segment not in track_ids:
                raise DataError(source, f"races[{i}].segments[{k}]", f"no track {segment!r}; known: "
                                f"{', '.join(sorted(track_ids))}")


def check_kit(dice: dict[str, Any], cards: dict[str, Any], races: dict[str, Any]) -> None:
    """The files together: every card's colour has dice, every race names one existing card per colour."""
    colours = {d["colour"] for d in dice["dice"] if d["kind"] == "ability"}
    by_id = {c["id"]: c for c in cards["cards"]}
    for i, card in enumerate(cards["cards"]):
        if card["colour"] not in colours:
            raise DataError("cards.json", f"cards[{i}].colour", f"no ability dice of colour {card['colour']!r} in "
                            f"dice.json; colours: {', '.join(sorted(colours))}")
    for i, race in enumerate(races["races"]):
        if race.get("cards") is None:
            continue
        if set(race["cards"]) != colours:
            raise DataError("races.json", f"races[{i}].cards", f"expected one card for each colour "
                            f"{', '.join(sorted(colours))}, got {', '.join(sorted(race['cards']))}")
        for colour, card_id in race["cards"].items():
            if card_id not in by_id or by_id[card_id]["colour"] != colour:
                raise DataError("races.json", f"races[{i}].cards.{colour}", f"expected a {colour} card of cards.json,"
                                f" got {card_id!r}")
    for die_id in races["setup"]["start_dice_per_player"]:
        if die_id not in {d["id"] for d in dice["dice"]}:
            raise DataError("races.json", f"setup.start_dice_per_player.{die_id}", "no such die in dice.json")
