"""Random requests over every route, for the no-5xx test and the fuzz memory benchmark (one generator, shared).

Each request mixes what a fuzzer finds first: right shapes with wrong values, wrong shapes, NaN and Infinity,
huge numbers, deep nesting, lone UTF-16 surrogates, bodies that are not UTF-8 or not JSON or 1 MB long, unknown
fields, path numbers past 2**64, large and odd headers and cookies, logins with good and bad PINs and CSRF tokens,
and the legal actions of the table's state with strange actors. Most carry the table's PIN so they reach the
routes' checks; some carry a wrong one, from an address of their own (``Request.source``), so the wrong-PIN limit
of 127.0.0.1 never shuts the others out. Streaming routes (``/api/stream``, ``/camera.mjpg``) are left out: a
request there does not end.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

ROUTES: list[tuple[str, str]] = [
    ("GET", "/api/state"), ("GET", "/api/events?after={n}"), ("GET", "/api/whoami"), ("POST", "/api/login"),
    ("POST", "/api/logout"), ("POST", "/api/action"), ("POST", "/api/confirm"), ("POST", "/api/highlight"),
    ("POST", "/api/dice"), ("POST", "/api/dice/{n}"), ("POST", "/api/game"), ("GET", "/api/games/{n}/export"),
    ("GET", "/"), ("GET", "/new"), ("GET", "/camera"), ("GET", "/i18n/{word}.json"), ("GET", "/api/layout"),
    ("GET", "/api/log?after={n}&lang={word}"), ("POST", "/api/buttons/{word}"), ("GET", "/api/camera"),
    ("POST", "/api/calibrate"), ("GET", "/teach"), ("GET", "/api/teach"), ("GET", "/api/teach/crops/{word}.png"),
    ("POST", "/api/teach/face"), ("POST", "/api/teach/learn"), ("POST", "/api/teach/discard"),
    ("POST", "/api/teach/forget"), ("GET", "/healthz"), ("GET", "/static/{word}"), ("GET", "/api/race"),
    ("GET", "/join.svg"), ("GET", "/games/{word}.js"), ("GET", "/?kiosk={word}"), ("GET", "/nowhere/{word}"),
]

FIELDS = ["type", "dice", "seq", "option", "reading", "actor", "label", "game", "options", "seed", "hold", "pin",
          "face", "ids", "note", "players", "reroll", "signs", "path", "to", "roll"]
WORDS = ["roll", "reroll", "done", "move", "undo", "repair", "drive", "confirm", "next", "back", "de", "nl", "en",
         "dice-race", "chariot-race", "hexenrennen", "4", "6", "gallop", "", "..%2Fsecret_key", "\u00e9\u00e9",
         "%ED%A0%80", "%FF%FE", "x" * 300]
NUMBERS = [0, 1, -1, 2, 7, 2**31, 2**63 - 1, 2**63, 2**64 + 1, 10**30, 0.5, 1e308]
SURROGATES = ['"\\ud800"', '"a\\udfff"', '"\\udc00\\ud800"', '["\\ud83d"]']
"""Half a UTF-16 pair, as JSON can spell it: Python keeps it in a str, UTF-8 cannot hold it."""
PIN_HEADER = "X-Table-Pin"


@dataclass
class Request:
    method: str
    path: str
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    source: str = "127.0.0.1"
    """The client address to send from: a wrong PIN comes from an address of its own (127.0.1.x)."""


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
    kind = rng.randrange(14)
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
    if kind == 6:  # a lone surrogate as a value or a key
        name, value = rng.choice(FIELDS), rng.choice(SURROGATES)
        return rng.choice([f'{{"{name}": {value}}}', f'{{{value}: 1}}', f'{{"pin": {value}}}']).encode()
    if kind == 7:  # 1 MB: past every limit
        return b'{"note": "' + b"x" * (1 << 20) + b'"}'
    if kind == 8:
        return b"{" * rng.choice([1, 40]) + b'"pin": "1'
    body = {rng.choice(FIELDS): _scalar(rng) for _ in range(rng.randrange(1, 5))}
    return json.dumps(body).encode()


def _headers(rng: random.Random, pin: str) -> tuple[dict[str, str], str]:
    """The headers of one request and the address it comes from."""
    headers = {"Content-Type": rng.choice(["application/json", "application/json", "text/plain",
                                           "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])}
    source = "127.0.0.1"
    kind = rng.randrange(12)
    if kind < 7:
        headers[PIN_HEADER] = pin
    elif kind == 7:  # a wrong PIN, from an address of its own
        headers[PIN_HEADER] = rng.choice(["0000", pin + "0", "", "\u00e9", "x" * 100])
        source = f"127.0.1.{rng.randrange(1, 255)}"
    elif kind == 8:  # large headers (waitress takes up to 256 KB of them)
        headers["X-Padding"] = "y" * rng.choice([8_000, 60_000, 200_000])
        headers[PIN_HEADER] = pin
    elif kind == 9:  # a session cookie of someone else's making, and a CSRF token that matches nothing
        headers["Cookie"] = rng.choice(["session=" + "z" * 3000, "session=eyJjb250cm9sIjp0cnVlfQ.x.y",
                                        "lang=%ED%A0%80", 'lang="\\355\\240\\200"'])
        headers["X-CSRF-Token"] = rng.choice(["", "nope", "\u00ff" * 10])
    elif kind == 10:
        headers["Accept-Language"] = rng.choice(["de;q=x", "*" * 5000, "nl-NL,nl;q=0.9,en;q=0.8", ";;;"])
        headers[PIN_HEADER] = pin
    return headers, source


def random_request(rng: random.Random, pin: str = "2468") -> Request:
    """One random request to a random route."""
    method, template = rng.choice(ROUTES)
    word = quote(rng.choice(WORDS), safe="%/.")
    path = template.format(n=rng.choice([0, 1, 3, 2**63, 2**64 + 1, 10**30, -1]), word=word)
    body = _body(rng) if method == "POST" else b""
    headers, source = _headers(rng, pin)
    return Request(method, path, body, headers, source)


def legal_action(rng: random.Random, state: dict[str, Any], pin: str = "2468") -> Request:
    """One of the options the table offers now (``state``: ``GET /api/state``), sent as an action with a strange
    actor or extra field now and then: what a script gets right but for one value."""
    prompt = state.get("prompt") or {}
    options = prompt.get("options") or [{"type": "undo"}]
    action = dict(rng.choice(options))
    if "roll" in action:
        faces = ["1", "2", "3", "4", "5", "6", "drive", "steer", "fortune", "attack", "gallop"]
        action["dice"] = [rng.choice(faces) for _ in range(action.pop("roll"))]
    odd = rng.randrange(5)
    raw = json.dumps({**action, "seq": state.get("seq", 0)})
    if odd == 0:  # a lone surrogate as the actor
        raw = raw[:-1] + ', "actor": ' + rng.choice(SURROGATES[:3]) + "}"
    elif odd == 1:
        actor = rng.choice(["Ada", "", "\u00e9" * 64, "x" * 65, "\U0001f3b2"])
        raw = raw[:-1] + ', "actor": ' + json.dumps(actor) + "}"
    elif odd == 2:
        raw = json.dumps({**action, "seq": state.get("seq", 0), "game": rng.choice([1, 2**63, 0])})
    headers = {"Content-Type": "application/json", PIN_HEADER: pin}
    return Request("POST", "/api/action", raw.encode(), headers)


def send(port: int, request: Request, *, timeout: float = 30) -> tuple[int, bytes]:
    """Send one request to the companion on 127.0.0.1:``port``; its status and body."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(request.source, 0))
    try:
        connection.putrequest(request.method, request.path, skip_accept_encoding=True)
        for name, value in {**request.headers, "Content-Length": str(len(request.body))}.items():
            connection.putheader(name, value.encode("utf-8"))  # as a browser sends them: UTF-8 bytes
        connection.endheaders(request.body or None)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()
