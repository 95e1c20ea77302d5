"""Checks shared by every game's data files: a wrong file fails at load naming the file and the field.

The data files are meant to be edited by a table whose printed material differs from ours (reference boards,
placeholder costs), so the checks say what is expected rather than raising a bare ``KeyError`` deep in the rules.

>>> get({"cost": "4"}, "cost", int, "cards.json", "cards[3]")
Traceback (most recent call last):
...
companion.games.datafile.DataError: cards.json: cards[3].cost: expected int, got '4'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import fields
from importlib import resources
from typing import Any


class DataError(ValueError):
    """A data file that does not match its schema; the message starts with ``file: field:``."""

    def __init__(self, source: str, field: str, message: str) -> None:
        self.source = source
        self.field = field
        super().__init__(f"{source}: {field}: {message}")


def read_data(package: str, name: str) -> Any:
    """The JSON file ``name`` of ``package``'s ``data/`` folder (``companion.games.chariot_race``): every game reads
    its box through here, so a file that is no JSON fails the same way in each, naming the file and the line."""
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(name, f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None


def record(kind: Any, data: Mapping[str, Any], **made: Any) -> Any:
    """A ``kind`` dataclass from a checked object of a data file: each field as named there (None when left out),
    but those ``made`` from it."""
    return kind(**{f.name: data.get(f.name) for f in fields(kind)} | made)


def field_name(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def get(obj: Any, key: str, kind: type | tuple[type, ...], source: str, where: str = "", required: bool = True) -> Any:
    """``obj[key]`` checked for type; ``where`` is the dotted path of ``obj`` inside the file. A bool is never a
    number, though Python says it is an int."""
    field = field_name(where, key)
    if not isinstance(obj, dict):
        raise DataError(source, where or "(top)", f"expected an object, got {type(obj).__name__}")
    if key not in obj:
        if required:
            raise DataError(source, field, "missing")
        return None
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise DataError(source, field, f"expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}")
    if not isinstance(value, kind):
        raise DataError(source, field, f"expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}")
    return value


def int_range(obj: Any, key: str, lo: int, hi: int, source: str, where: str = "", required: bool = True) -> int | None:
    value = get(obj, key, int, source, where, required)
    if value is not None and not lo <= value <= hi:
        raise DataError(source, field_name(where, key), f"expected {lo}..{hi}, got {value}")
    return value


def unique_ids(items: list[Any], source: str, where: str) -> list[str]:
    """The ``id`` of each object of ``items`` (found at ``where``), each a string and none used twice: a copied entry
    whose id was not changed would otherwise hide the first one."""
    ids: list[str] = []
    for i, item in enumerate(items):
        one = get(item, "id", str, source, field_name(where, i))
        if one in ids:
            raise DataError(source, f"{field_name(where, i)}.id", f"{one!r} is used twice")
        ids.append(one)
    return ids


def known_keys(obj: dict[str, Any], known: Iterable[str], source: str, where: str = "") -> None:
    """Any other key is a typo (``"max_sped"`` would drop a curve without a word) and fails the load."""
    known = tuple(known)
    for key in obj:
        if key not in known:
            raise DataError(source, field_name(where, key), f"unknown key; known: {', '.join(known)}")


def one_of(obj: Any, key: str, choices: Iterable[Any], source: str, where: str = "", required: bool = True) -> Any:
    choices = tuple(choices)
    if not isinstance(obj, dict):
        raise DataError(source, where or "(top)", f"expected an object, got {type(obj).__name__}")
    if key not in obj:
        if required:
            raise DataError(source, field_name(where, key), "missing")
        return None
    if obj[key] not in choices:
        raise DataError(source, field_name(where, key), f"expected one of {', '.join(map(repr, choices))}, "
                        f"got {obj[key]!r}")
    return obj[key]


def check_fields(obj: Any, spec: Mapping[str, Any], source: str, where: str = "",
                 optional: Iterable[str] = ()) -> dict[str, Any]:
    """The fields of ``spec`` checked in its order, each by its kind: a type or tuple of types (:func:`get`), a
    ``range`` of ints (:func:`int_range`), else its choices (:func:`one_of`); an ``optional`` one may be absent."""
    values = {}
    for key, kind in spec.items():
        required = key not in optional
        if isinstance(kind, range):
            values[key] = int_range(obj, key, kind.start, kind.stop - 1, source, where, required)
        elif isinstance(kind, type) or isinstance(kind, tuple) and all(isinstance(k, type) for k in kind):
            values[key] = get(obj, key, kind, source, where, required)
        else:
            values[key] = one_of(obj, key, kind, source, where, required)
    return values
