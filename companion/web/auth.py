"""Who may change the table: whoever knows the table's PIN. Everyone else on the LAN is a spectator.

A browser proves the PIN once and gets a control session: a random token in its signed session cookie, kept
server-side in the store with a keyed hash of the PIN it was granted under, so that it can end. A logout deletes it
(a copy of the cookie stops working too); a PIN change ends every one (the hash no longer matches); one unused for
30 days expires. A plain restart with the same PIN keeps them.

Because a cookie is sent by the browser on its own, every changing request from a cookie-holder must also carry the
session's CSRF token (``X-CSRF-Token`` header, or a ``csrf_token`` form field), which another site cannot read.
Scripts send the PIN itself in ``X-Table-Pin``; a custom header cannot be forged cross-site, so they need no token.

Wrong PINs are rate limited per client address, since a four-digit PIN falls to a loop otherwise.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Flask, current_app, request, session

from companion.store import EventStore
from companion.web.strict import refusal

PIN_HEADER = "X-Table-Pin"
CSRF_HEADER = "X-CSRF-Token"
MAX_WRONG_PINS = 5
WRONG_PIN_WINDOW_SECONDS = 60.0
CONTROL_LIFETIME = timedelta(days=30)
"""How long an unused control session lasts. Use pushes it out again, as it does the cookie's (at most once a day,
to spare the SD card a write per request)."""
CONTROL_RENEW_AFTER = timedelta(days=1)


def csrf_token() -> str:
    """This browser's CSRF token, created on first use and kept in its session cookie."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def pin_key(secret_key: str, pin: str) -> str:
    """What a control session remembers of its PIN: an HMAC under the table's secret key, so the store never holds
    the PIN, and a four-digit PIN cannot be found from the store alone by trying all ten thousand."""
    return hmac.new(secret_key.encode(), b"control PIN\0" + pin.encode(), hashlib.sha256).hexdigest()


def token_hash(token: str) -> str:
    """The store keeps this, not the token: a copy of the store is no copy of anyone's cookie."""
    return hashlib.sha256(token.encode()).hexdigest()


def _store() -> EventStore:
    return current_app.extensions["control_store"]


def start_control_sessions(app: Flask, store: EventStore) -> None:
    """At start: sessions granted under another PIN (it was changed) or expired are ended for good."""
    app.extensions["control_store"] = store
    app.config["CONTROL_PIN_KEY"] = pin_key(app.config["SECRET_KEY"], app.config["CONTROL_PIN"])
    store.prune_control_sessions(pin_key=app.config["CONTROL_PIN_KEY"], now=time.time())


def grant_control() -> None:
    """Give this browser a new control session (ending the one it had); expired ones of others are pruned here."""
    end_control()
    now = time.time()
    store = _store()
    store.prune_control_sessions(pin_key=current_app.config["CONTROL_PIN_KEY"], now=now)
    token = secrets.token_urlsafe(32)
    store.add_control_session(token_hash(token), pin_key=current_app.config["CONTROL_PIN_KEY"],
                              expires=now + CONTROL_LIFETIME.total_seconds())
    session["control"] = token
    session.permanent = True


def end_control() -> None:
    """Logout: the session ends in the store, so every copy of this cookie loses control too."""
    token = session.pop("control", None)
    if isinstance(token, str):
        _store().end_control_session(token_hash(token))


def has_control() -> bool:
    token = session.get("control")
    if not isinstance(token, str):  # none, or a cookie from before control sessions (True)
        return False
    store, now = _store(), time.time()
    held = store.control_session(token_hash(token))
    if held is None or held.expires <= now or held.pin_key != current_app.config["CONTROL_PIN_KEY"]:
        return False
    lifetime = CONTROL_LIFETIME.total_seconds()
    if held.expires - now < lifetime - CONTROL_RENEW_AFTER.total_seconds():
        store.renew_control_session(held.token_hash, expires=now + lifetime)
    return True


def pin_matches(pin: Any) -> bool:
    return isinstance(pin, str) and hmac.compare_digest(pin.encode(), current_app.config["CONTROL_PIN"].encode())


class WrongPinLimiter:
    """Counts wrong PINs per address within a sliding window; addresses whose window has passed are forgotten, so a
    guesser cycling through addresses cannot make it grow without bound."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._wrong: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def __len__(self) -> int:
        """How many addresses it remembers."""
        with self._lock:
            return len(self._wrong)

    def blocked(self, address: str) -> bool:
        now = self._clock()
        with self._lock:
            recent = [t for t in self._wrong.pop(address, []) if now - t < WRONG_PIN_WINDOW_SECONDS]
            if recent:
                self._wrong[address] = recent
            return len(recent) >= MAX_WRONG_PINS

    def wrong(self, address: str) -> None:
        now = self._clock()
        with self._lock:
            self._wrong = {a: times for a, times in self._wrong.items() if now - times[-1] < WRONG_PIN_WINDOW_SECONDS}
            self._wrong.setdefault(address, []).append(now)


def _csrf_ok() -> bool:
    sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf_token", "")
    expected = session.get("csrf")
    return bool(expected) and hmac.compare_digest(str(sent).encode(), expected.encode())


def check_control() -> tuple[Any, int] | None:
    """None when the request may change the table, else the JSON error response to send."""
    limiter: WrongPinLimiter = current_app.extensions["wrong_pins"]
    address = request.remote_addr or "?"
    if PIN_HEADER in request.headers:
        if limiter.blocked(address):
            return too_many_pins()
        if pin_matches(request.headers[PIN_HEADER]):
            return None
        limiter.wrong(address)
        return wrong_pin()
    if not has_control():
        return refusal(401, "read_only", "read-only: control needs the table PIN (shown on the kiosk screen)")
    if not _csrf_ok():
        return stale_page()
    return None


def too_many_pins() -> tuple[Any, int]:
    return refusal(429, "too_many_pins", "too many wrong PINs; wait a minute",
                   {"seconds": int(WRONG_PIN_WINDOW_SECONDS)})


def wrong_pin() -> tuple[Any, int]:
    return refusal(403, "wrong_pin", "wrong table PIN")


def stale_page() -> tuple[Any, int]:
    return refusal(403, "stale_page", "missing or wrong CSRF token; reload the page")


def requires_control(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        refused = check_control()
        return refused if refused is not None else view(*args, **kwargs)

    return wrapper


def requires_csrf(view: Callable[..., Any]) -> Callable[..., Any]:
    """For the PIN login itself: a foreign page must not log a browser in (login CSRF)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not _csrf_ok():
            return stale_page()
        return view(*args, **kwargs)

    return wrapper
