"""Who may change the table: whoever knows the table's PIN. Everyone else on the LAN is a spectator.

A browser proves the PIN once and keeps a signed session cookie. Because a cookie is sent by the browser on its
own, every changing request from a cookie-holder must also carry the session's CSRF token (``X-CSRF-Token``
header, or a ``csrf_token`` form field), which another site cannot read. Scripts send the PIN itself in
``X-Table-Pin``; a custom header cannot be forged cross-site, so they need no token.

Wrong PINs are rate limited per client address, since a four-digit PIN falls to a loop otherwise.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import current_app, jsonify, request, session

PIN_HEADER = "X-Table-Pin"
CSRF_HEADER = "X-CSRF-Token"
MAX_WRONG_PINS = 5
WRONG_PIN_WINDOW_SECONDS = 60.0


def csrf_token() -> str:
    """This browser's CSRF token, created on first use and kept in its session cookie."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def has_control() -> bool:
    return bool(session.get("control"))


def pin_matches(pin: Any) -> bool:
    return isinstance(pin, str) and hmac.compare_digest(pin.encode(), current_app.config["CONTROL_PIN"].encode())


class WrongPinLimiter:
    """Counts wrong PINs per address within a sliding window."""

    def __init__(self) -> None:
        self._wrong: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, address: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._wrong.get(address, []) if now - t < WRONG_PIN_WINDOW_SECONDS]
            self._wrong[address] = recent
            return len(recent) >= MAX_WRONG_PINS

    def wrong(self, address: str) -> None:
        with self._lock:
            self._wrong.setdefault(address, []).append(time.monotonic())


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
            return jsonify(error="too many wrong PINs; wait a minute"), 429
        if pin_matches(request.headers[PIN_HEADER]):
            return None
        limiter.wrong(address)
        return jsonify(error="wrong table PIN"), 403
    if not has_control():
        return jsonify(error="read-only: control needs the table PIN (shown on the kiosk screen)"), 401
    if not _csrf_ok():
        return jsonify(error="missing or wrong CSRF token; reload the page"), 403
    return None


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
            return jsonify(error="missing or wrong CSRF token; reload the page"), 403
        return view(*args, **kwargs)

    return wrapper
