"""The server's memory under 10,000 fuzzed requests of every kind: within 20 % of where it started, with no 5xx.

    .venv/bin/python bench/fuzz_memory.py [--requests 10000]

The requests are bench/fuzz_requests.py's (the same generator the no-5xx test uses) over every route: 1 MB bodies,
large headers and cookies, bad JSON, lone surrogates, wrong PINs; a sixth of them the table's legal actions (with a
strange actor now and then) and one in twenty a browser's login with the right or a wrong PIN, an action with its
session and CSRF token, and its logout. They go to a whole companion (synthetic camera, mock pins) in its own
process. Memory is the server's resident set (VmRSS) after a warm-up of 300 requests, then every 1,000.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import served  # noqa: E402
from fuzz_requests import Request, legal_action, random_request, send  # noqa: E402
from machine import describe, machine_line, record  # noqa: E402

from companion.games import get_presentation  # noqa: E402

WARM_UP = 300


def browser(port: int, pin: str, rng: random.Random) -> list[int]:
    """A browser logs in (the right PIN, or a wrong one from an address of its own), acts once with its session
    cookie and CSRF token, and mostly logs out; the statuses of its requests."""
    cookie: dict[str, str] = {}
    source = "127.0.0.1" if rng.random() < 0.7 else f"127.0.2.{rng.randrange(1, 255)}"

    def call(method: str, path: str, body: dict | None = None, csrf: str = "") -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf}
        if cookie:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookie.items())
        request = Request(method, path, json.dumps(body).encode() if body is not None else b"", headers, source)
        status, raw, cookies = send_keeping_cookies(port, request)
        cookie.update(cookies)
        return status, json.loads(raw) if raw.startswith(b"{") else {}

    statuses = []
    status, who = call("GET", "/api/whoami")
    statuses.append(status)
    right = source == "127.0.0.1"
    status, answer = call("POST", "/api/login", {"pin": pin if right else "0000"}, who.get("csrf", ""))
    statuses.append(status)
    csrf = answer.get("csrf", "")
    statuses.append(call("POST", "/api/highlight", {"option": rng.randrange(3)}, csrf)[0])
    if rng.random() < 0.8:
        statuses.append(call("POST", "/api/logout", {}, csrf)[0])
    return statuses


def send_keeping_cookies(port: int, request: Request) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(request.source, 0))
    try:
        connection.request(request.method, request.path, body=request.body or None, headers=request.headers)
        response = connection.getresponse()
        cookies = {}
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                cookies[name] = rest.split(";", 1)[0]
        return response.status, response.read(), cookies
    finally:
        connection.close()


def one_round(port: int, pin: str, rng: random.Random) -> list[int]:
    """One fuzzed request, a legal action, or a browser's login and logout: the statuses answered."""
    kind = rng.random()
    if kind < 0.05:
        return browser(port, pin, rng)
    if kind < 0.22:
        state = json.loads(send(port, Request("GET", "/api/state"))[1])
        if state["game"] is None or state["game"]["over"]:  # the next race of the season
            options = get_presentation("chariot-race").DEMO_OPTIONS
            body = json.dumps({"game": "chariot-race", "options": options}).encode()
            headers = {"Content-Type": "application/json", "X-Table-Pin": pin}
            return [send(port, Request("POST", "/api/game", body, headers))[0]]
        return [send(port, legal_action(rng, state, pin))[0]]
    return [send(port, random_request(rng, pin))[0]]


def run(requests: int = 10_000, seed: int = 19) -> dict[str, object]:
    machine = describe()
    print(machine_line(machine))
    companion = served.start()
    rng = random.Random(seed)
    statuses: Counter[int] = Counter()
    try:
        for _ in range(WARM_UP):
            statuses.update(one_round(companion.port, companion.pin, rng))
        start_mb = companion.rss_mb()
        samples = [round(start_mb, 1)]
        began = time.monotonic()
        for n in range(1, requests + 1):
            statuses.update(one_round(companion.port, companion.pin, rng))
            if n % 1000 == 0:
                samples.append(round(companion.rss_mb(), 1))
        seconds = time.monotonic() - began
        end_mb = companion.rss_mb()
    finally:
        companion.stop()
    errors = sum(count for status, count in statuses.items() if status >= 500)
    growth = 100 * (end_mb - start_mb) / start_mb
    print(f"fuzzed requests: {requests} after {WARM_UP} to warm up, {requests / seconds:.0f} per second")
    print(f"answers: {dict(sorted(statuses.items()))}; 5xx: {errors}")
    print(f"server RSS: {start_mb:.1f} MB -> {end_mb:.1f} MB ({growth:+.1f} %; goal within 20 %); "
          f"every 1000: {samples}")
    return {"machine": machine, "requests": requests, "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "server_errors": errors, "rss_start_mb": round(start_mb, 1), "rss_end_mb": round(end_mb, 1),
            "rss_growth_percent": round(growth, 1), "rss_every_1000_mb": samples}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    record("fuzz_memory", run(parser.parse_args().requests))
