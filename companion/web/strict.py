"""Strict input for every route: a bad value is a 400 that names its field, never a 500, never stored.

Why strict rather than lenient: what a request carries ends up in the event log, the export and every dashboard's
stream. Python's ``json`` accepts ``NaN`` and ``Infinity``, which no browser can parse, and Python happily stores a
list where a number belongs; either would poison the table for everyone after one bad request. So a body is parsed
as standard JSON only (UTF-8, no NaN/Infinity, no duplicate keys, no lone UTF-16 surrogates, nested at most
:data:`MAX_DEPTH` deep), and each
route names the fields it takes and what each allows; anything else is refused before the table sees it.

    body = fields(json_object(), {"option": whole(0, MAX_OPTION), "seq": SEQ, "actor": ACTOR})
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, jsonify, request

MAX_DEPTH = 32
MAX_BODY_BYTES = 256 * 1024
"""Flask answers 413 beyond this (``MAX_CONTENT_LENGTH``): the largest real body, a game's set-up, is ~1 KB."""
MAX_INT = 2**63 - 1
"""SQLite's largest integer: sequence numbers, game numbers and seeds live there."""
MAX_TEXT = 200

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")

Check = Callable[[str, Any], Any]
"""``check(field, value) -> value``: raises :class:`BadInput` naming ``field``."""


def refusal(status: int, code: str, message: str, values: Mapping[str, Any] | None = None,
            **extra: Any) -> tuple[Response, int]:
    """Every refusal the API answers: ``{"error": <English, for scripts and the log>, "code": ..., "values": {...}}``.

    The screens never show ``error``: they show the text ``err_<code>`` of the player's language with ``values``
    filled in (``refusalText`` in common.js), so no player reads English, a rule id or a Python list.
    """
    return jsonify(error=message, code=code, values=dict(values or {}), **extra), status


class BadInput(ValueError):
    """A request value the route does not take; answered 400 with ``{"error": ..., "field": ...}`` and the ``code``
    the screens translate (``bad_input``: no screen sends one, so it says "reload the page")."""

    def __init__(self, field: str, message: str, *, code: str = "bad_input") -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code


def loads(raw: bytes | str, *, field: str = "body") -> Any:
    """Standard JSON only. The depth is checked on the text first, so a 100,000-deep body costs one scan, not a
    recursion."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(field, f"not UTF-8 (byte {exc.start})") from None
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", raw)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise BadInput(field, f"nested {deepest} deep; at most {MAX_DEPTH}")

    def constant(name: str) -> Any:
        raise BadInput(field, f"{name} is not a JSON number")

    try:
        value = json.loads(raw, parse_constant=constant, object_pairs_hook=_no_duplicates(field))
    except BadInput:
        raise
    except json.JSONDecodeError as exc:
        raise BadInput(field, f"not JSON: {exc.msg} (line {exc.lineno} column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
        raise BadInput(field, f"not usable JSON: {exc}") from None
    _text_only(value, field)
    return value


def _text_only(value: Any, field: str) -> None:
    """Refuse a lone surrogate (``"\\ud800"``): JSON's escapes can spell half a UTF-16 pair, which Python keeps
    in a str but no UTF-8 file, database or stream can hold, so it would fail later, where it is stored or sent."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise BadInput(field, "holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape), which is not text")
    elif isinstance(value, dict):
        for key, item in value.items():
            name = key if field == "body" and not _SURROGATE.search(key) else field
            _text_only(key, name)
            _text_only(item, name)
    elif isinstance(value, list):
        for item in value:
            _text_only(item, field)


def _no_duplicates(field: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise BadInput(key if field == "body" else field, "given twice")
            result[key] = value
        return result

    return build


def json_object(*, empty_ok: bool = True) -> dict[str, Any]:
    """The request's body as a JSON object. An empty body is ``{}`` where a route has only optional fields."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if empty_ok:
            return {}
        raise BadInput("body", "a JSON object is needed (Content-Type: application/json)")
    body = loads(raw)
    if not isinstance(body, dict):
        raise BadInput("body", f"must be a JSON object, not {_kind(body)}")
    return body


def fields(body: Mapping[str, Any], spec: Mapping[str, Check], *, required: tuple[str, ...] = (),
           rest: Check | None = None) -> dict[str, Any]:
    """Check each field of ``body`` against ``spec``; unknown fields are refused unless ``rest`` checks them
    (an action's own fields, which the rules and the listed options judge)."""
    out: dict[str, Any] = {}
    for name in required:
        if name not in body:
            raise BadInput(name, "is missing")
    for name, value in body.items():
        check = spec.get(name, rest)
        if check is None:
            raise BadInput(name, f"is not a field here; known: {', '.join(spec) or 'none'}")
        out[name] = check(name, value)
    return out


# -- checks ---------------------------------------------------------------------------------------------------------


def whole(low: int = 0, high: int = MAX_INT) -> Check:
    def check(field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(field, f"must be a whole number, not {_kind(value)}")
        if not low <= value <= high:
            raise BadInput(field, f"must be from {low} to {high}")
        return value

    return check


def text(max_length: int = MAX_TEXT, *, allowed: tuple[str, ...] | None = None) -> Check:
    def check(field: str, value: Any) -> str:
        if not isinstance(value, str):
            raise BadInput(field, f"must be text, not {_kind(value)}")
        if len(value) > max_length:
            raise BadInput(field, f"must be at most {max_length} characters")
        if allowed is not None and value not in allowed:
            raise BadInput(field, f"must be one of {', '.join(allowed)}")
        return value

    return check


def boolean(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadInput(field, f"must be true or false, not {_kind(value)}")
    return value


def texts(max_items: int = 100, max_length: int = MAX_TEXT) -> Check:
    item = text(max_length)

    def check(field: str, value: Any) -> list[str]:
        if not isinstance(value, list):
            raise BadInput(field, f"must be a list, not {_kind(value)}")
        if len(value) > max_items:
            raise BadInput(field, f"must have at most {max_items} items")
        return [item(field, v) for v in value]

    return check


def json_value(field: str, value: Any) -> Any:
    """Any JSON value: parsed strictly already, so it can be stored and sent as it is."""
    return value


def an_object(field: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadInput(field, f"must be an object, not {_kind(value)}")
    return value


SEQ = whole(0)
"""The ``seq`` of ``/api/state`` a choice was made on (see ``TableSession.act``)."""
GAME = whole(1)
"""The number of the game a choice was made in (``/api/state``'s ``game.number``)."""
READING = whole(1)
ACTOR = text(64)


def query_int(name: str, default: int = 0, low: int = 0, high: int = MAX_INT) -> int:
    """A whole number in the query string (``?after=12``)."""
    raw = request.args.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]{1,19}", raw):
        raise BadInput(name, f"must be a whole number from {low} to {high}")
    return whole(low, high)(name, int(raw))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)
