"""The Flask app factory. The app holds no state of its own: everything lives in the TableSession it is given."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from companion import __version__
from companion.session import TableSession
from companion.web.api import api
from companion.web.auth import CONTROL_LIFETIME, WrongPinLimiter, start_control_sessions
from companion.web.pages import pages
from companion.web.teach import teach


def create_app(
    session: TableSession,
    *,
    control_pin: str,
    secret_key: str | None = None,
    default_game: str = "chariot-race",
    health: dict[str, Any] | None = None,
) -> Flask:
    """Build the dashboard app around a running table session.

    ``secret_key`` signs the session cookies and keys the hash of the PIN kept with each control session; pass a
    stable one (see :func:`load_secret_key`) so browsers stay logged in across restarts of the Pi. Control sessions
    of another ``control_pin`` end here.
    """
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_hex(32),
        CONTROL_PIN=control_pin,
        DEFAULT_GAME=default_game,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=CONTROL_LIFETIME,
        JSON_SORT_KEYS=False,
    )
    app.extensions["table_session"] = session
    app.extensions["wrong_pins"] = WrongPinLimiter()
    start_control_sessions(app, session.store)
    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.register_blueprint(teach)

    @app.get("/healthz")
    def healthz() -> Any:
        snapshot = session.snapshot()
        return jsonify(ok=True, version=__version__, game=snapshot["game"], seq=snapshot["seq"], **(health or {}))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if request.path.startswith("/api/") or request.path == "/healthz":
            return jsonify(error=f"{exc.code} {exc.name}: {exc.description}"), exc.code
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        app.logger.exception("unexpected error on %s", request.path)
        return jsonify(error=f"internal error: {type(exc).__name__}: {exc}"), 500

    return app


def load_secret_key(data_dir: Path) -> str:
    """The cookie-signing key, made once per table and kept private in the data dir."""
    path = Path(data_dir) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key
