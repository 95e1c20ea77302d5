"""Every text a player reads, in German, Dutch and English, as data: the shared catalogue plus each game's own.

The shared texts (the screens' buttons and messages, die faces, colours, the log's undo and correction lines) live
in ``companion/web/i18n/<lang>.json``; a game keeps its own (its log lines, its screens' texts) in
``<package>/i18n/<lang>.json``, so adding a game adds its texts beside its rules and a translator edits data, not
code. :func:`catalog` merges them section by section; a key two catalogues both define is an error, found when the
catalogue loads.

Games use this module for their log lines (they must not import the web layer); the web layer serves the merged
catalogue to the browsers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES = ("de", "nl", "en")
DEFAULT_LANGUAGE = "en"
SHARED_DIR = Path(__file__).parent / "web" / "i18n"


class TextError(ValueError):
    """A catalogue that cannot be used: two catalogues define the same key, or a file is not JSON."""


def _read(path: Any) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TextError(f"{path}: not valid JSON: {exc}") from None


@cache
def catalog(lang: str) -> dict[str, Any]:
    """The whole text catalogue of ``lang`` (``ui``, ``faces``, ``colours``, ``log``); unknown languages get English."""
    from companion.games import GAMES

    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    merged = _read(SHARED_DIR / f"{lang}.json")
    for module in GAMES.values():
        try:
            own = resources.files(module).joinpath("i18n", f"{lang}.json")
        except (ModuleNotFoundError, TypeError):  # a game that is a module, not a package, has no catalogue
            continue
        if not own.is_file():
            continue
        for section, texts in _read(own).items():
            known = merged.setdefault(section, {})
            clash = sorted(set(known) & set(texts))
            if clash:
                raise TextError(f"{module}/i18n/{lang}.json: [{section}] {clash[0]!r} is already defined")
            known.update(texts)
    return merged


_PLURAL = re.compile(r"\{(\w+)\|((?:[^{}|]|\{\w+\})*)\|((?:[^{}|]|\{\w+\})*)\}")
"""``{n|die|dice}``: the first form when ``n`` is 1, else the second (German, Dutch and English have these two); a
form may hold fields (``{n|the die|the {n} dice}``)."""


def plural(template: str, fields: Mapping[str, Any]) -> str:
    """``template`` with each ``{n|one|other}`` replaced by the form ``fields[n]`` needs (common.js's ``T`` does the
    same for the screens).

    >>> plural("{n} {n|Würfel|Würfel} gewählt, {k} {k|Feld|Felder}", {"n": 1, "k": 3})
    '{n} Würfel gewählt, {k} Felder'
    """
    return _PLURAL.sub(lambda m: m.group(2) if str(fields.get(m.group(1))) in ("1", "-1") else m.group(3), template)


def field_names(template: str) -> set[str]:
    """The fields a text uses, its plural forms' counts among them: every language of a text needs the same."""
    import string

    return {name for _, name, _, _ in string.Formatter().parse(_PLURAL.sub(r"{\1}", template)) if name}


class _Fields(dict):
    """Format fields that never raise: a missing one shows as '?' rather than breaking the log."""

    def __missing__(self, key: str) -> str:
        return "?"


def text(lang: str, key: str, fields: Mapping[str, Any] | None = None, **more: Any) -> str:
    """The log text ``key`` of ``lang`` with its ``{fields}`` filled in."""
    values = {**(fields or {}), **more}
    return plural(catalog(lang)["log"][key], values).format_map(_Fields(values))


def face(lang: str, value: Any) -> str:
    """A die face as the players call it ("Fahren"); a number stays a number."""
    return catalog(lang)["faces"].get(str(value), str(value))


def colour(lang: str, value: Any) -> str:
    return catalog(lang)["colours"].get(str(value), str(value))


def ui(lang: str, key: str, **fields: Any) -> str:
    """A screen's text (``ui``), as the buttons and their hints say it too; a missing field shows as '?'."""
    return plural(catalog(lang)["ui"][key], fields).format_map(_Fields(fields))
