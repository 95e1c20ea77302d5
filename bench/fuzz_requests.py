"""Random requests over every route, for the no-5xx test and the fuzz memory benchmark (one generator, shared).

Each request mixes what a fuzzer finds first: right shapes with wrong values, wrong shapes, NaN and Infinity,
huge numbers, deep nesting, bodies that are not UTF-8 or not JSON, unknown fields, path numbers past 2**64.
Streaming routes (``/api/stream``, ``/camera.mjpg``) are left out: a request there does not end.
"""

from __future__ import annotations

import json
import random

ROUTES: list[tuple[str, str]] = [
    ("GET", "/api/state"), ("GET", "/api/events?after={n}"), ("GET", "/api/whoami"), ("POST", "/api/login"),
    ("POST", "/api/logout"), ("POST", "/api/action"), ("POST", "/api/confirm"), ("POST", "/api/highlight"),
    ("POST", "/api/dice"), ("POST", "/api/dice/{n}"), ("POST", "/api/game"), ("GET", "/api/games/{n}/export"),
    ("GET", "/"), ("GET", "/new"), ("GET", "/camera"), ("GET", "/i18n/{word}.json"), ("GET", "/api/layout"),
    ("GET", "/api/log?after={n}&lang={word}"), ("POST", "/api/buttons/{word}"), ("GET", "/api/camera"),
    ("POST", "/api/calibrate"), ("GET", "/teach"), ("GET", "/api/teach"), ("GET", "/api/teach/crops/{word}.png"),
    ("POST", "/api/teach/face"), ("POST", "/api/teach/learn"), ("POST", "/api/teach/discard"),
    ("POST", "/api/teach/forget"), ("GET", "/healthz"), ("GET", "/static/{word}"),
]

FIELDS = ["type", "dice", "seq", "option", "reading", "actor", "label", "game", "options", "seed", "hold", "pin",
          "face", "ids", "note", "players", "reroll", "signs", "path", "to", "roll"]
WORDS = ["roll", "reroll", "done", "move", "undo", "repair", "drive", "confirm", "next", "back", "de", "nl", "en",
         "dice-race", "chariot-race", "hexenrennen", "4", "6", "gallop", "", "..%2Fsecret_key", "\u00e9\u00e9",
         "x" * 300]
NUMBERS = [0, 1, -1, 2, 7, 2**31, 2**63 - 1, 2**63, 2**64 + 1, 10**30, 0.5, 1e308]


def _scalar(rng: random.Random) -> object:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(NUMBERS)
    if kind == 1:
        return rng.choice(WORDS)
    if kind == 2:
        return rng.choice([True, False, None])
    if kind == 3:
        return [rng.choice(WORDS) for _ in range(rng.randrange(4))]
    if kind == 4:
        return {"players": [rng.choice(WORDS), rng.choice([{"name": rng.choice(WORDS)}, [1], None])]}
    return [[rng.choice(NUMBERS)]]


def _body(rng: random.Random) -> bytes:
    kind = rng.randrange(10)
    if kind == 0:
        return b""
    if kind == 1:
        return b"[" * rng.choice([33, 3000, 50_000]) + b"]" * 10
    if kind == 2:
        return b'{"type": "roll", "dice": ["4"], "note": ' + rng.choice([b"NaN", b"Infinity", b"-Infinity"]) + b"}"
    if kind == 3:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 4:
        return json.dumps(rng.choice([[1, 2], "text", 5, None, True])).encode()
    if kind == 5:
        return b'{"seq": ' + str(rng.choice([10**40, -(10**40), 2**64])).encode() + b"}"
    body = {rng.choice(FIELDS): _scalar(rng) for _ in range(rng.randrange(1, 5))}
    return json.dumps(body).encode()


def random_request(rng: random.Random) -> tuple[str, str, bytes, dict[str, str]]:
    """``(method, path, body, headers)`` of one random request."""
    method, template = rng.choice(ROUTES)
    path = template.format(n=rng.choice([0, 1, 3, 2**63, 2**64 + 1, 10**30, -1]), word=rng.choice(WORDS[:20]))
    body = _body(rng) if method == "POST" else b""
    headers = {"Content-Type": rng.choice(["application/json", "application/json", "text/plain"])}
    return method, path, body, headers
