"""Readable log lines from stored events, in German, Dutch and English: "Julia rams Klaus: both -2".

Pure: a stored event (``StoredEvent.to_json()``) and the chariots' names in, lines of text out. The texts are the
``log`` sections of ``i18n/<lang>.json``, so a translator edits data, not code.

>>> names = {"green": "Julia", "yellow": "Klaus"}
>>> event = {"type": "rammed", "chariot": "green", "target": "yellow", "damage": 2, "target_damage": 2}
>>> describe_event(event, lang="en", names=names)
'Julia rams Klaus: both −2'
>>> describe_event(event, lang="de", names=names)
'Julia rammt Klaus: beide −2'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("de", "nl", "en")
DEFAULT_LANGUAGE = "en"
I18N_DIR = Path(__file__).parent / "i18n"

FORCED = frozenset({"speed_capped", "gallop_damage", "curve_damage", "rammed", "placed_behind", "caltrop_hit",
                    "rocks", "wrecked", "lap", "finished", "spear", "game_over", "fortune_gained"})
"""Events the rules force on the table (as opposed to a player's choice): the dashboard flashes these."""

ACTION_ONLY = {"skip_repair": "skip_repair", "drive": "drive"}
"""Actions whose choice no event repeats: they get a line of their own."""


@cache
def catalog(lang: str) -> dict[str, Any]:
    """The whole text catalogue of ``lang`` (``ui``, ``faces``, ``colours``, ``log``); unknown languages get English."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    return json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))


def pick_language(wanted: str | None, accept: list[str] | None = None, default: str = DEFAULT_LANGUAGE) -> str:
    """The first of ``wanted`` (a cookie), the ``Accept-Language`` entries, ``default`` that we speak.

    >>> pick_language(None, ["nl-BE", "en"])
    'nl'
    >>> pick_language("fr", ["fr-FR"], "de")
    'de'
    """
    for candidate in [wanted or "", *(accept or [])]:
        short = candidate.split("-")[0].split("_")[0].lower()
        if short in LANGUAGES:
            return short
    return default if default in LANGUAGES else DEFAULT_LANGUAGE


def names_for(view: Mapping[str, Any] | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """How the log calls the actors of the game in ``view``: chariots, or Hexen Rennen's clans and witches."""
    if view and view.get("game") == HEXEN:
        return hexen_names(view, lang)
    return chariot_names(view, lang)


def chariot_names(view: Mapping[str, Any] | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Chariot id -> how the log calls it: the player's name, plus the colour when a player drives two (CR-7).

    >>> view = {"chariots": [{"id": "green", "colour": "green", "player": "Julia"},
    ...                      {"id": "green-2", "colour": "green", "player": "Julia"}]}
    >>> chariot_names(view, "de")
    {'green': 'Julia (grün)', 'green-2': 'Julia (grün 2)'}
    """
    if not view:
        return {}
    chariots = view.get("chariots") or []
    colours = catalog(lang)["colours"]
    per_player: dict[str, int] = {}
    for chariot in chariots:
        per_player[chariot["player"]] = per_player.get(chariot["player"], 0) + 1
    names = {}
    for chariot in chariots:
        name = chariot["player"]
        if per_player[name] > 1:
            colour = colours.get(chariot["colour"], chariot["colour"])
            second = " 2" if chariot["id"].endswith("-2") else ""
            name = f"{name} ({colour}{second})"
        names[chariot["id"]] = name
    return names


class _Fields(dict):
    """Format fields that never raise: a missing one shows as '?' rather than breaking the log."""

    def __missing__(self, key: str) -> str:
        return "?"


def _text(lang: str, key: str, fields: Mapping[str, Any] | None = None, **more: Any) -> str:
    return catalog(lang)["log"][key].format_map(_Fields({**(fields or {}), **more}))


def _faces(dice: Any, lang: str) -> str:
    faces = catalog(lang)["faces"]
    return ", ".join(faces.get(str(d), str(d)) for d in dice or [])


def _signs(signs: Any) -> str:
    return " ".join("+1" if s > 0 else "−1" for s in signs or [])


def describe_event(event: Mapping[str, Any], *, lang: str, names: Mapping[str, str]) -> str | None:
    """One line for one rules event, or None for an event type this module does not know."""
    kind = event.get("type")
    name = names.get(event.get("chariot", ""), event.get("chariot") or event.get("player"))
    target = names.get(event.get("target", ""), event.get("target"))
    fields = {**event, "chariot": name, "target": target}
    if kind == "rolled":
        return _text(lang, "rolled", fields, dice=_faces(event.get("dice"), lang))
    if kind == "rerolled":
        chosen = event.get("reroll") or []
        new = [event["dice"][i] for i in chosen] if event.get("dice") else []
        key = "rerolled_paid" if event.get("cost") else "rerolled_free"
        return _text(lang, key, fields, n=len(chosen), dice=_faces(new, lang))
    if kind == "turned":
        face = catalog(lang)["faces"].get(event.get("face"), event.get("face"))
        return _text(lang, "turned", fields, die=int(event.get("die", 0)) + 1, face=face)
    if kind == "moved":
        steps = len(event.get("path") or [])
        if event.get("to") is None:
            return _text(lang, "moved_wrecked", fields, steps=steps)
        return _text(lang, "moved_damage" if event.get("damage") else "moved", fields, steps=steps)
    if kind == "rammed":
        even = event.get("damage") == event.get("target_damage")
        return _text(lang, "rammed" if even else "rammed_uneven", fields)
    if kind == "placed_behind":
        return _text(lang, "placed_behind", fields, behind=names.get(event.get("behind", ""), event.get("behind")))
    if kind == "wrecked":
        return _text(lang, "wrecked_caltrop" if event.get("caltrop") else "wrecked", fields)
    if kind == "game_over":
        winner = event.get("winner")
        if winner is None:
            return _text(lang, "game_over_none")
        return _text(lang, "game_over", winner=names.get(winner, winner))
    if kind == "speed_set" and event.get("speed") == event.get("was"):
        return None  # a gallop that could not add speed: its damage line says enough
    if kind in catalog(lang)["log"] and kind not in ("done", "action", "undo", "corrected", "manual"):
        return _text(lang, kind, fields)
    return None


def _dice_race_line(event: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> str | None:
    """Dice Race's move (a ``player``, where a chariot's names a ``chariot``): asked first, or it reads as a drive."""
    if event.get("type") == "moved" and "player" in event:
        return _text(lang, "dice_moved", event, player=names.get(event["player"], event["player"]))
    return None


BOT_SOURCE = "bot"
"""The ``source`` of a stored event a bot made (``companion.runtime``): its log lines name the actor as a bot."""


def bot_names(names: Mapping[str, str], actor: str, lang: str) -> dict[str, str]:
    """``names`` with ``actor`` marked as a bot, also inside the names of its pieces (``<actor>-…``: a witch).

    >>> bot_names({"blue": "Julia", "blue-1": "Julia's witch 1", "red": "Ben"}, "blue", "en")
    {'blue': 'Julia (bot)', 'blue-1': "Julia (bot)'s witch 1", 'red': 'Ben'}
    """
    name = names.get(actor, actor)
    marked = _text(lang, "bot_name", name=name)
    return {**{key: value.replace(name, marked, 1) if key.startswith(f"{actor}-") else value
               for key, value in names.items()}, actor: marked}


def _action_line(action: Mapping[str, Any], actor: str, phase: str | None, *, lang: str) -> str | None:
    """A line for a player's choice that no rules event describes (the rest is told by the events).
    ``phase`` is the phase the action was chosen in, as the session stored it with the action."""
    kind = action.get("type")
    if kind == "skip_repair":
        return _text(lang, "skip_repair", chariot=actor)
    if kind == "drive":
        return _text(lang, "drive", chariot=actor, signs=_signs(action.get("signs")))
    if kind == "done":
        key = {"reroll": "keeps_dice", "fortune": "stops_spending", "attack": "no_more_attacks"}.get(phase or "")
        return _text(lang, key or "done", chariot=actor)
    return None


def _corrections(reading: Mapping[str, Any] | None, lang: str) -> list[str]:
    if not reading:
        return []
    lines = []
    faces = catalog(lang)["faces"]
    for n, die in enumerate(reading.get("dice") or [], start=1):
        if die.get("corrected"):
            was, face = die.get("was"), die.get("label")
            lines.append(_text(lang, "corrected", n=n, was=faces.get(was, was), face=faces.get(face, face)))
    if reading.get("source") == "manual":
        lines.append(_text(lang, "manual"))
    return lines


def log_entries(stored: list[Mapping[str, Any]], *, lang: str, names: Mapping[str, str],
                game: str | None = None) -> list[dict[str, Any]]:
    """Every stored event of a game as a log entry: ``{"seq", "actor", "type", "lines": [{"text", "forced",
    "event"}], "undone", "undoes", "bot"}``, oldest first. An undone action stays, marked ``undone``. A bot's move
    (source ``"bot"``) names its actor as a bot: "Julia (bot) rolls ...".

    >>> stored = [{"seq": 1, "actor": "green", "type": "skip_repair", "payload": {"action": {"type": "skip_repair"},
    ...            "events": []}},
    ...           {"seq": 2, "actor": "table", "type": "undo", "payload": {"undoes": 1, "action": {}}}]
    >>> [(e["lines"][0]["text"], e["undone"]) for e in log_entries(stored, lang="en", names={"green": "Julia"})]
    [('Julia does not repair', True), ('Taken back: Julia does not repair', False)]
    """
    entries: list[dict[str, Any]] = []
    by_seq: dict[int, dict[str, Any]] = {}
    for event in stored:
        payload = event.get("payload") or {}
        seq = int(event.get("seq", 0))
        if event.get("type") == "undo":
            undone = by_seq.get(payload.get("undoes"))
            what = undone["lines"][0]["text"] if undone and undone["lines"] else f"#{payload.get('undoes')}"
            if undone:
                undone["undone"] = True
            actor = names.get(event.get("actor", ""), event.get("actor"))
            line = {"text": _text(lang, "undo", actor=actor, what=what), "forced": False, "event": "undo"}
            entry = {"seq": seq, "actor": event.get("actor"), "type": "undo", "lines": [line], "undone": False,
                     "undoes": payload.get("undoes"), "bot": False}
            entries.append(entry)
            continue
        action = payload.get("action") or {}
        bot = payload.get("source") == BOT_SOURCE
        said = bot_names(names, str(event.get("actor")), lang) if bot else names  # a bot's move says so
        actor = said.get(event.get("actor", ""), event.get("actor") or "?")
        lines: list[dict[str, Any]] = []
        text = None if game == HEXEN else _action_line(action, actor, payload.get("phase"), lang=lang)
        if text:
            lines.append({"text": text, "forced": False, "event": action.get("type")})
        for rules_event in payload.get("events") or []:
            if game == HEXEN:
                text, forced = describe_hexen(rules_event, lang=lang, names=said), hexen_forced(rules_event)
            else:
                text = _dice_race_line(rules_event, lang, said) or describe_event(rules_event, lang=lang, names=said)
                forced = rules_event.get("type") in FORCED
            if text:
                lines.append({"text": text, "forced": forced, "event": rules_event.get("type")})
        corrections = [{"text": t, "forced": False, "event": "corrected"} for t in _corrections(
            payload.get("reading"), lang)]
        if corrections:
            lines[1:1] = corrections
        if not lines:
            shown = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
            what = f"{action.get('type')} {shown}".strip()
            lines.append({"text": _text(lang, "action", actor=actor, action=what), "forced": False,
                          "event": action.get("type")})
        entry = {"seq": seq, "actor": event.get("actor"), "type": event.get("type"), "lines": lines,
                 "undone": False, "undoes": None, "bot": bot}
        entries.append(entry)
        by_seq[seq] = entry
    return entries


# ---------------------------------------------------------------------------------------------------- Hexen Rennen

HEXEN = "hexenrennen"
HEXEN_TRACK = 48
"""The last path space; 49.. are the finish fields (``companion/games/hexenrennen/data/track.json``)."""
HEXEN_FORCED = frozenset({"asks", "finished", "game_over", "passed"})
"""Hexen Rennen events the table must notice: a card decision that is due (and whose), a witch home, the end."""


def hexen_names(view: Mapping[str, Any] | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Clan -> the player's name (a neutral clan: its colour), witch id -> "Julia's witch 2".

    >>> view = {"game": "hexenrennen", "players": [{"clan": "blue", "name": "Julia"}],
    ...         "neutrals": [{"clan": "green"}], "witches": [{"id": "blue-2", "clan": "blue"}]}
    >>> hexen_names(view, "de")
    {'blue': 'Julia', 'green': 'grün (neutral)', 'blue-2': 'Hexe 2 von Julia'}
    """
    if not view:
        return {}
    colours = catalog(lang)["colours"]
    names = {p["clan"]: p["name"] for p in view.get("players") or []}
    for neutral in view.get("neutrals") or []:
        clan = neutral["clan"]
        names[clan] = _text(lang, "hx_neutral_name", colour=colours.get(clan, clan))
    for witch in view.get("witches") or []:
        n = witch["id"].rsplit("-", 1)[-1]
        names[witch["id"]] = _text(lang, "hx_witch", name=names.get(witch["clan"], witch["clan"]), n=n)
    return names


def hexen_place(space: Any, lang: str) -> str:
    """A space as the log says it: the start, space 14, the 3-point finish field."""
    if not isinstance(space, int) or space <= 0:
        return _text(lang, "hx_place_start")
    if space > HEXEN_TRACK:
        return _text(lang, "hx_place_finish", points=space - HEXEN_TRACK + 1)
    return _text(lang, "hx_place_space", n=space)


def _hexen_card(card: Any, lang: str) -> str:
    return _text(lang, "hx_card_magic") if card == "magic" else _text(lang, "hx_card_number", value=card)


def hexen_forced(event: Mapping[str, Any]) -> bool:
    """Whether a Hexen Rennen event is flashed on every screen (see :data:`HEXEN_FORCED`)."""
    return event.get("type") in HEXEN_FORCED or bool(event.get("type") == "card_played" and event.get("forced"))


STAYS_LINES: dict[str, str | None] = {
    "magic_ends_move": None, "drawn_card_void": None,  # the moved / drawn line before it says it all
    "chose_to_stay": "hx_stays_chosen", "foreign_number": "hx_stays_number", "occupied": "hx_stays_occupied",
    "beyond_finish": "hx_stays_beyond", "pile_empty": "hx_stays_pile_empty", "no_card": "hx_stays_no_card",
    "no_playable_card": "hx_stays_no_card",
}
"""The line of a ``stays`` event by its ``reason`` code; an unknown code gets the plain "stays"."""


def describe_hexen(event: Mapping[str, Any], *, lang: str, names: Mapping[str, str]) -> str | None:
    """One line for one Hexen Rennen event (``companion/games/hexenrennen/README.md``), or None.

    >>> names = {"blue": "Julia", "yellow": "Ben", "blue-1": "Julia's witch 1"}
    >>> describe_hexen({"type": "moved", "witch": "blue-1", "from": 3, "to": 13, "by": "tile", "value": 10},
    ...                lang="en", names=names)
    "Julia's witch 1 follows its own 10: on to space 13"
    >>> describe_hexen({"type": "asks", "phase": "foreign_magic", "player": "yellow", "witch": "blue-1",
    ...                 "space": 20, "forced": True}, lang="en", names=names)
    "Ben must play a card against Julia's witch 1"
    """
    kind = event.get("type")
    colours = catalog(lang)["colours"]
    witch = names.get(event.get("witch", ""), event.get("witch"))
    player = names.get(event.get("player", ""), event.get("player"))
    colour = colours.get(event.get("clan", ""), event.get("clan"))
    if kind == "turn":
        return _text(lang, "hx_turn", turn=event.get("turn"), player=player)
    if kind == "rolled":
        return _text(lang, "hx_rolled", player=player, die=event.get("die"))
    if kind == "passed":
        return _text(lang, "hx_passed", player=player, die=event.get("die"))
    if kind == "moved":
        by, value = event.get("by"), event.get("value")
        to = hexen_place(event.get("to"), lang)
        back = isinstance(event.get("to"), int) and isinstance(event.get("from"), int) and event["to"] < event["from"]
        key = {"die": "hx_moved_die", "tile": "hx_moved_tile", "draw": "hx_moved_card_back"}.get(by)
        if by in ("card", "magic"):
            key = f"hx_moved_{by}_{'back' if back else 'forward'}"
        if by == "magic" and back:
            key = "hx_moved_magic_back"
        return _text(lang, key or "hx_moved_die", witch=witch, value=value, to=to)
    if kind == "revealed":
        tile_colour = colours.get(event.get("clan", ""), event.get("clan"))
        tile = (_text(lang, "hx_tile_magic", colour=tile_colour) if event.get("value") == "magic"
                else _text(lang, "hx_tile_number", colour=tile_colour, value=event.get("value")))
        return _text(lang, "hx_revealed", space=event.get("space"), tile=tile)
    if kind == "asks":
        phase = event.get("phase")
        if phase == "draw":
            pile = event.get("pile", "")
            return _text(lang, "hx_asks_draw", player=player, witch=witch, colour=colours.get(pile, pile))
        if phase == "foreign_magic" and event.get("forced"):
            return _text(lang, "hx_asks_forced", player=player, witch=witch)
        return _text(lang, "hx_asks_own_magic" if phase == "own_magic" else "hx_asks_foreign_magic",
                     player=player, witch=witch)
    if kind == "card_played":
        key = ("hx_card_played_forced" if event.get("forced") else
               "hx_card_played_forward" if event.get("direction") == "forward" else "hx_card_played_back")
        return _text(lang, key, player=player, card=_hexen_card(event.get("card"), lang), witch=witch,
                     n=event.get("cards_left"))
    if kind == "drawn":
        return _text(lang, "hx_drawn_ignored" if event.get("ignored") else "hx_drawn", colour=colour,
                     card=_hexen_card(event.get("card"), lang), witch=witch)
    if kind == "stays":
        key = STAYS_LINES.get(str(event.get("reason")), "hx_stays")
        if key is None:
            return None
        clan = str(event.get("clan", ""))
        return _text(lang, key, witch=witch, place=hexen_place(event.get("space"), lang),
                     colour=colours.get(clan, clan), player=names.get(clan, clan))
    if kind == "finished":
        return _text(lang, "hx_finished", witch=witch, points=event.get("points"))
    if kind == "chain_end":
        if int(event.get("steps") or 0) < 2:
            return None  # a single move: its line said where the witch went
        net = int(event.get("net") or 0)
        return _text(lang, "hx_chain_end", witch=witch, net=f"{net:+d}", **{
            "from": hexen_place(event.get("from"), lang), "to": hexen_place(event.get("to"), lang)})
    if kind == "game_over":
        winners = list(event.get("winners") or [])
        points = (event.get("scores") or {}).get(winners[0], 0) if winners else 0
        joined = _text(lang, "hx_and").join(names.get(w, w) for w in winners)
        return _text(lang, "hx_game_over_shared" if len(winners) > 1 else "hx_game_over", winners=joined,
                     points=points)
    return None
