"""Which words belong to another language's screen: built from the text catalogues (``companion/texts.py``) and
the German names in the games' data files, for the tests that check every screen speaks one language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from companion.texts import LANGUAGES, catalog

WORD = re.compile(r"[^\W\d_]{3,}")
"""A word as the check sees it: three letters or more (shorter ones, "de", "in", "an", mean too many things)."""
DATA = Path(__file__).parents[1] / "companion" / "games"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def words(texts: Iterable[str]) -> set[str]:
    """The words of ``texts``, lower case, the ``{fields}`` of a catalogue text left out."""
    found: set[str] = set()
    for text in texts:
        text = re.sub(r"\{\w+\}", " ", re.sub(r"\{\w+\|", " ", text)).replace("|", " ")
        found |= {w.lower() for w in WORD.findall(text)}
    return found


def _german_data_names() -> Iterator[str]:
    """The names the data files give in German only (``name_de``, ``card_de``, ``category_de``)."""
    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            for key, item in value.items():
                if key.endswith("_de") and isinstance(item, str):
                    yield item
                else:
                    yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)
    for path in sorted(DATA.glob("*/data/*.json")):
        yield from walk(json.loads(path.read_text(encoding="utf-8")))


@cache
def own_words(lang: str) -> frozenset[str]:
    return frozenset(words(_strings(catalog(lang))))


@cache
def foreign_words(lang: str) -> frozenset[str]:
    """Words of the other languages' catalogues (and the data's German names, on a Dutch or English screen) that
    this language's catalogue does not use: one of them on a ``lang`` screen is a text of another language."""
    other = set()
    for each in LANGUAGES:
        if each != lang:
            other |= words(_strings(catalog(each)))
    if lang != "de":
        other |= words(_german_data_names())
    return frozenset(other - own_words(lang))


def foreign_in(lang: str, texts: Iterable[str], allowed: Iterable[str] = ()) -> dict[str, str]:
    """The foreign words in ``texts`` -> the first text that shows each; ``allowed`` (players' names) never count."""
    allow = words(allowed)
    found: dict[str, str] = {}
    for text in texts:
        for word in words([text]) - allow:
            if word in foreign_words(lang):
                found.setdefault(word, text)
    return found
