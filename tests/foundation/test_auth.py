"""Control sessions end when they should (logout, a PIN change, expiry) and the PIN is never written out.

Served by real waitress over a real SQLite store; a "restart" is a new store, session and app over the same data dir.
"""

import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask

from companion.session import TableSession
from companion.store import EventStore
from companion.web import auth, create_app
from companion.web.server import Server
from tests.conftest import PIN, PLAYERS, Client

KEY = "this table's secret key, the same across restarts"
NEW_PIN = "1357"
LONG_PIN = "86420975"
"""A PIN no timestamp or port number in the output is likely to contain by chance."""
INSTALL = Path(__file__).resolve().parents[2] / "deploy" / "install-pi.sh"


@contextmanager
def running(data_dir: Path, pin: str = PIN) -> Iterator[tuple[Flask, Server]]:
    """One run of the companion over a data dir; leaving it stops the server and closes the store."""
    store = EventStore.in_data_dir(data_dir)
    session = TableSession(store)
    app = create_app(session, control_pin=pin, secret_key=KEY, default_game="dice-race")
    server = Server(app, host="127.0.0.1", port=0, threads=4).start()
    try:
        yield app, server
    finally:
        session.broker.close()
        server.stop()
        store.close()


def copy_of(browser: Client, server: Server) -> Client:
    """What someone who copied the browser's cookie holds, sent to this (maybe restarted) server."""
    return Client(server.port, dict(browser.cookies))


def acts(client: Client, csrf: str) -> int:
    """The status of a change (a new game) asked for with the browser's cookie and CSRF token."""
    return client.post("/api/game", {"game": "dice-race", "options": PLAYERS}, headers={"X-CSRF-Token": csrf})[0]


def test_a_copied_cookie_no_longer_acts_after_logout_even_after_a_restart(tmp_path):
    with running(tmp_path) as (_, server):
        browser = Client(server.port)
        csrf = browser.login()
        copy = copy_of(browser, server)
        assert acts(copy, csrf) == 200
        assert browser.post("/api/logout", headers={"X-CSRF-Token": csrf}) == (200, {"control": False})
        assert acts(copy, csrf) == 401
        assert copy.get("/api/whoami")[1]["control"] is False
    with running(tmp_path) as (_, server):
        assert acts(copy_of(copy, server), csrf) == 401


def test_a_pin_change_ends_every_control_session(tmp_path):
    with running(tmp_path) as (_, server):
        browsers = [Client(server.port) for _ in range(2)]
        tokens = [browser.login() for browser in browsers]
    with running(tmp_path, pin=NEW_PIN) as (_, server):
        for browser, csrf in zip(browsers, tokens, strict=True):
            assert acts(copy_of(browser, server), csrf) == 401
        fresh = Client(server.port)
        assert fresh.post("/api/login", {"pin": PIN}, headers={"X-CSRF-Token": fresh.get("/api/whoami")[1]["csrf"]}
                          )[0] == 403
        assert acts(fresh, fresh.login(NEW_PIN)) == 200
    with running(tmp_path) as (_, server):  # and back to the first PIN: what the change ended stays ended
        assert acts(copy_of(browsers[0], server), tokens[0]) == 401


def test_control_sessions_survive_a_restart_with_the_same_pin(tmp_path):
    with running(tmp_path) as (_, server):
        browser = Client(server.port)
        csrf = browser.login()
    with running(tmp_path) as (_, server):
        assert acts(copy_of(browser, server), csrf) == 200


def control_token(app: Flask, browser: Client) -> str:
    return app.session_interface.get_signing_serializer(app).loads(browser.cookies["session"])["control"]


def test_the_store_keeps_neither_the_pin_nor_the_token(tmp_path):
    with running(tmp_path, pin=LONG_PIN) as (app, server):
        browser = Client(server.port)
        browser.login(LONG_PIN)
        token = control_token(app, browser)
        db = sqlite3.connect(tmp_path / "events.sqlite3")
        rows = db.execute("SELECT * FROM control_sessions").fetchall()
        db.close()
    assert len(rows) == 1
    assert not any(LONG_PIN in str(value) or token in str(value) for value in rows[0])


def test_an_expired_control_session_no_longer_acts(tmp_path, monkeypatch):
    monkeypatch.setattr(auth, "CONTROL_LIFETIME", timedelta(0))  # granted already at its end
    with running(tmp_path) as (_, server):
        browser = Client(server.port)
        csrf = browser.login()
        assert acts(browser, csrf) == 401


def test_a_control_session_in_use_is_pushed_out_to_30_days(tmp_path):
    with running(tmp_path) as (app, server):
        browser = Client(server.port)
        browser.login()
        held = auth.token_hash(control_token(app, browser))
        store = app.extensions["table_session"].store
        store.renew_control_session(held, expires=time.time() + 3600)  # as if granted 30 days ago, less an hour
        assert browser.get("/api/whoami")[1]["control"] is True
        assert store.control_session(held).expires > time.time() + timedelta(days=29).total_seconds()


def test_logging_in_again_ends_the_session_it_replaces(tmp_path):
    with running(tmp_path) as (app, server):
        browser = Client(server.port)
        csrf = browser.login()
        first = auth.token_hash(control_token(app, browser))
        browser.login()
        store = app.extensions["table_session"].store
        assert store.control_session(first) is None
        assert acts(browser, csrf) == 200


BAD_LOGIN_BODIES = [b"[1, 2]", b'"2468"', b"2468", b'{"pin": 2468}', b"NaN", b'{"pin": NaN}', b'{"pin": null}',
                    b'{"pin": ["2468"]}', b"{}", b"null", b"", b"{not json"]


def test_login_bodies_that_are_not_a_pin_string_answer_400_naming_pin(live):
    client = live.client()
    csrf = client.get("/api/whoami")[1]["csrf"]
    for raw in BAD_LOGIN_BODIES:
        status, body = client.post("/api/login", raw=raw, headers={"X-CSRF-Token": csrf,
                                                                   "Content-Type": "application/json"})
        assert (status, "pin" in body["error"]) == (400, True), raw
    assert client.login() and client.get("/api/whoami")[1]["control"] is True  # none of them counted as a guess


def test_wrong_pin_limiter_forgets_addresses_whose_window_has_passed():
    now = [0.0]
    limiter = auth.WrongPinLimiter(clock=lambda: now[0])
    for i in range(1000):
        limiter.wrong(f"10.0.{i // 250}.{i % 250}")
    for _ in range(auth.MAX_WRONG_PINS):
        limiter.wrong("10.9.9.9")
    assert limiter.blocked("10.9.9.9") and len(limiter) == 1001
    now[0] += auth.WRONG_PIN_WINDOW_SECONDS + 1
    assert not limiter.blocked("10.9.9.9")
    limiter.wrong("10.1.1.1")
    assert len(limiter) == 1


def test_the_demo_shows_its_pin_on_the_kiosk_page_and_nowhere_in_its_output(tmp_path):
    demo = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--port", "0", "--pin", LONG_PIN, "--data-dir", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    output = []
    try:
        for line in demo.stdout:
            output.append(line)
            if "dashboard at" in line:
                break
        client = Client(int(re.search(r"dashboard at http://127\.0\.0\.1:(\d+)/", output[-1]).group(1)))
        status, page = client.get("/")  # from the loopback address: the kiosk
        assert status == 200 and f'data-pin="{LONG_PIN}"' in page
        csrf = client.get("/api/whoami")[1]["csrf"]
        assert client.post("/api/login", {"pin": "97531086"}, headers={"X-CSRF-Token": csrf})[0] == 403
        client.login(LONG_PIN)
    finally:
        demo.send_signal(signal.SIGTERM)
        output.append(demo.communicate(timeout=20)[0])
    text = "".join(output)
    assert LONG_PIN not in text
    assert demo.returncode == 0 and "control PIN: shown on the kiosk page" in text


@pytest.mark.parametrize("line", [f"control_pin = {LONG_PIN}", f'control_pin = "{LONG_PIN}0"'])
def test_a_mistyped_pin_in_the_config_is_not_repeated_in_the_error(tmp_path, line):
    config = tmp_path / "table.toml"
    config.write_text(line + "\n")
    result = subprocess.run([sys.executable, "-m", "companion", "serve", "--config", str(config)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "control_pin" in result.stderr
    assert LONG_PIN not in result.stderr + result.stdout


@pytest.mark.skipif(Path("/etc/table-companion/config.toml").exists(), reason="the installer keeps a config it finds")
def test_the_installer_does_not_print_the_pin_it_makes():
    plan = subprocess.run(["bash", str(INSTALL), "--dry-run", "--no-kiosk"], capture_output=True, text=True,
                          timeout=60).stdout
    assert "random control PIN" in plan and not re.search(r"PIN \d", plan)
