"""Fixtures shared by every test folder: a real store in a temp dir, a session, a real waitress server."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.session import TableSession
from companion.store import EventStore
from companion.web import create_app
from companion.web.server import Server

PIN = "2468"
PLAYERS = {"players": [{"name": "Ada"}, {"name": "Bo"}]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    store = EventStore(tmp_path / "events.sqlite3")
    yield store
    store.close()


@pytest.fixture
def session(store: EventStore) -> TableSession:
    return TableSession(store)


@dataclass
class Client:
    """A tiny HTTP client with a cookie jar, enough to act as one browser or one script."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                raw: bytes | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        payload = response.read()
        connection.close()
        kind = response.getheader("Content-Type", "")
        if kind.startswith("application/json"):
            return response.status, json.loads(payload)
        return response.status, payload if kind.startswith("image/") else payload.decode()

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        return self.request("POST", path, body, **kw)

    def login(self, pin: str = PIN) -> str:
        _, who = self.get("/api/whoami")
        status, answer = self.post("/api/login", {"pin": pin}, headers={"X-CSRF-Token": who["csrf"]})
        assert status == 200, answer
        return answer["csrf"]


@dataclass
class LiveServer:
    session: TableSession
    server: Server

    @property
    def port(self) -> int:
        return self.server.port

    def client(self) -> Client:
        return Client(self.port)


@contextmanager
def serving(session: TableSession, **app_options: Any) -> Iterator[LiveServer]:
    """The real app served by real waitress on a free port, closed after."""
    app = create_app(session, control_pin=PIN, **app_options)
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    try:
        yield LiveServer(session, server)
    finally:
        session.broker.close()
        server.stop()


@pytest.fixture
def live(session: TableSession) -> Iterator[LiveServer]:
    """The real app on real waitress, with a Dice Race game begun."""
    session.new_game("dice-race", PLAYERS, seed=3)
    with serving(session, default_game="dice-race") as served:
        yield served


@pytest.fixture
def served(session: TableSession) -> Iterator[LiveServer]:
    """The real app on real waitress with no game begun: the test sets the table up."""
    with serving(session) as served:
        yield served
