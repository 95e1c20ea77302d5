"""Readable log entries from stored events, in German, Dutch and English: "Julia rams Klaus: both -2".

Pure: stored events (``StoredEvent.to_json()``) and the actors' names in, lines of text out. What a game's actions
and events read like is the game's own (``log_lines`` and ``names`` of its presentation, ``<package>/present.py``,
with its texts in ``<package>/i18n/``); this module adds what every game shares: undo, dice set by hand, bots, dice
that moved after they were read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games import get_presentation
from companion.seating import SEAT
from companion.session import DIE_MOVED
from companion.texts import DEFAULT_LANGUAGE, LANGUAGES, catalog, face, text

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "catalog", "pick_language", "names_for", "bot_names",
           "log_entries"]


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


def names_for(game: str | None, view: Mapping[str, Any] | None,
              lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """How the log calls the actors and pieces of ``game`` (its presentation's ``names``)."""
    presentation = get_presentation(game) if game else None
    return presentation.names(view, lang) if presentation is not None else {}


TABLE_ACTOR = "table"
"""The actor of a choice no player made (a button on the Pi, a screen without a seat): the log names the table."""


def actor_name(names: Mapping[str, str], actor: Any, lang: str) -> str:
    """How the log names ``actor``: its player's name, "Der Tisch" for the table, else the id itself."""
    if actor in names:
        return names[actor]
    return text(lang, "table_actor") if actor == TABLE_ACTOR else str(actor or "?")


BOT_SOURCE = "bot"
"""The ``source`` of a stored event a bot made (``companion.runtime``): its log lines name the actor as a bot."""


def bot_names(names: Mapping[str, str], actor: str, lang: str) -> dict[str, str]:
    """``names`` with ``actor`` marked as a bot, also inside the names of its pieces (``<actor>-…``: a witch).

    >>> bot_names({"blue": "Julia", "blue-1": "Julia's witch 1", "red": "Ben"}, "blue", "en")
    {'blue': 'Julia (bot)', 'blue-1': "Julia (bot)'s witch 1", 'red': 'Ben'}
    """
    name = names.get(actor, actor)
    marked = text(lang, "bot_name", name=name)
    return {**{key: value.replace(name, marked, 1) if key.startswith(f"{actor}-") else value
               for key, value in names.items()}, actor: marked}


def _corrections(reading: Mapping[str, Any] | None, lang: str) -> list[str]:
    if not reading:
        return []
    lines = []
    for n, die in enumerate(reading.get("dice") or [], start=1):
        if die.get("corrected"):
            was, now = face(lang, die.get("was")), face(lang, die.get("label"))
            lines.append(text(lang, "corrected", n=n, was=was, face=now))
    if reading.get("source") == "manual":
        lines.append(text(lang, "manual"))
    return lines


def _seat_lines(change: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """A seat change's lines (``companion.seating``): a rename, a seat handed to a bot or taken back."""
    was = change.get("was") or {}
    name = change.get("name", was.get("name"))
    lines = []
    if "name" in change:
        lines.append(text(lang, "seat_renamed", was=was.get("name"), name=name))
    if "bot" in change:
        lines.append(text(lang, "seat_to_bot" if change["bot"] else "seat_to_person", name=name))
    return [{"text": line, "forced": False, "event": SEAT} for line in lines]


def _moved_lines(payload: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """A :data:`DIE_MOVED` event's lines: each die of a confirmed roll that moved or turned before it was picked up.

    >>> _moved_lines({"moved": [{"die": 2, "kind": "turned", "was": "5", "now": "3"}]}, "en")[0]["text"]
    'Die 2 moved after it was read: read 5, now 3 (the roll stands as confirmed)'
    """
    lines = []
    for die in payload.get("moved") or []:
        was, now = face(lang, die.get("was")), face(lang, die.get("now"))
        key = "die_moved_same_face" if die.get("was") == die.get("now") else "die_moved"
        lines.append({"text": text(lang, key, n=die.get("die"), was=was, face=now), "forced": False,
                      "event": DIE_MOVED})
    return lines


def log_entries(stored: list[Mapping[str, Any]], *, lang: str, names: Mapping[str, str],
                game: str | None = None,
                earlier: Callable[[int], Mapping[str, Any] | None] | None = None) -> list[dict[str, Any]]:
    """Every stored event of a game as a log entry: ``{"seq", "actor", "type", "lines": [{"text", "forced",
    "event"}], "undone", "undoes", "bot"}``, oldest first. The game's presentation (``log_lines``) says what each
    action and its rules events read like; this adds what every game shares: dice corrected by hand, undo (an
    undone action stays, marked ``undone``), and a bot's move naming its actor as a bot ("Julia (bot) rolls ...").

    Each entry depends on its own stored event only, but for an undo, which names what it took back: ``earlier``
    gives that event when it is not among ``stored`` (the log is sent in parts, ``/api/log?after=N``).

    >>> moved = {"type": "moved", "player": "Ada", "steps": 4, "to": 4}
    >>> stored = [{"seq": 1, "actor": "Ada", "type": "roll", "payload": {"action": {"type": "roll", "dice": ["4"]},
    ...            "events": [moved]}},
    ...           {"seq": 2, "actor": "table", "type": "undo", "payload": {"undoes": 1, "action": {}}}]
    >>> entries = log_entries(stored, lang="en", names={"Ada": "Ada"}, game="dice-race")
    >>> [(e["lines"][0]["text"], e["undone"]) for e in entries]
    [('Ada moves 4 to 4', True), ('Taken back: Ada moves 4 to 4', False)]
    """
    presentation = get_presentation(game) if game else None
    entries: list[dict[str, Any]] = []
    by_seq: dict[int, dict[str, Any]] = {}
    for event in stored:
        payload = event.get("payload") or {}
        seq = int(event.get("seq", 0))
        if event.get("type") == "undo":
            undone = by_seq.get(payload.get("undoes"))
            if undone is None and earlier is not None and isinstance(payload.get("undoes"), int):
                before = earlier(payload["undoes"])
                undone = log_entries([before], lang=lang, names=names, game=game)[0] if before else None
            what = undone["lines"][0]["text"] if undone and undone["lines"] else f"#{payload.get('undoes')}"
            if undone:
                undone["undone"] = True
            actor = actor_name(names, event.get("actor"), lang)
            line = {"text": text(lang, "undo", actor=actor, what=what), "forced": False, "event": "undo"}
            entries.append({"seq": seq, "actor": event.get("actor"), "type": "undo", "lines": [line],
                            "undone": False, "undoes": payload.get("undoes"), "bot": False})
            continue
        if event.get("type") == SEAT:
            entries.append({"seq": seq, "actor": event.get("actor"), "type": SEAT, "lines": _seat_lines(payload, lang),
                            "undone": False, "undoes": None, "bot": False})
            continue
        if event.get("type") == DIE_MOVED:
            entries.append({"seq": seq, "actor": event.get("actor"), "type": DIE_MOVED,
                            "lines": _moved_lines(payload, lang), "undone": False, "undoes": None, "bot": False})
            continue
        action = payload.get("action") or {}
        bot = payload.get("source") == BOT_SOURCE
        said = bot_names(names, str(event.get("actor")), lang) if bot else names  # a bot's move says so
        actor = actor_name(said, event.get("actor"), lang)
        lines: list[dict[str, Any]] = []
        if presentation is not None:
            lines = presentation.log_lines(action, payload.get("phase"), payload.get("events") or [], actor=actor,
                                           lang=lang, names=said)
        corrections = [{"text": t, "forced": False, "event": "corrected"} for t in _corrections(
            payload.get("reading"), lang)]
        if corrections:
            lines[1:1] = corrections
        if not lines:
            shown = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
            what = f"{action.get('type')} {shown}".strip()
            lines.append({"text": text(lang, "action", actor=actor, action=what), "forced": False,
                          "event": action.get("type")})
        entry = {"seq": seq, "actor": event.get("actor"), "type": event.get("type"), "lines": lines,
                 "undone": False, "undoes": None, "bot": bot}
        entries.append(entry)
        by_seq[seq] = entry
    return entries
