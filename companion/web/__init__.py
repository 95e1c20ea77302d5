"""The Flask app factory. The app holds no state of its own: everything lives in the TableSession it is given."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from companion import __version__
from companion.games import DEFAULT_GAME, IllegalAction
from companion.games.base import NAME_LENGTH, BadName, UnknownField
from companion.session import GameIsOver, NoGame, NoSuchGame, Stale, TableSession
from companion.store import StoreError, StoreFull
from companion.web.api import api
from companion.web.auth import CONTROL_LIFETIME, WrongPinLimiter, start_control_sessions
from companion.web.join import join
from companion.web.pages import pages
from companion.web.race import race
from companion.web.stats import start_stats, stats
from companion.web.strict import MAX_BODY_BYTES, BadInput, refusal
from companion.web.teach import teach


class StrictJSON(DefaultJSONProvider):
    """Every answer is standard JSON: a NaN that slipped through would break every browser's ``JSON.parse``, so
    it fails here, loudly, instead of on the tablets."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)


def create_app(
    session: TableSession,
    *,
    control_pin: str,
    secret_key: str | None = None,
    default_game: str = DEFAULT_GAME,
    health: dict[str, Any] | None = None,
) -> Flask:
    """Build the dashboard app around a running table session.

    ``secret_key`` signs the session cookies and keys the hash of the PIN kept with each control session; pass a
    stable one (see :func:`load_secret_key`) so browsers stay logged in across restarts of the Pi. Control sessions
    of another ``control_pin`` end here.
    """
    app = Flask(__name__)
    app.json = StrictJSON(app)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
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
    app.register_blueprint(race)
    app.register_blueprint(join)
    start_stats(app, session)
    app.register_blueprint(stats)
    answer_errors(app)

    @app.get("/healthz")
    def healthz() -> Any:
        snapshot = session.snapshot()
        return jsonify(ok=True, version=__version__, game=snapshot["game"], seq=snapshot["seq"], **(health or {}))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if request.path.startswith("/api/") or request.path == "/healthz":
            return refusal(exc.code or 500, "http", f"{exc.code} {exc.name}: {exc.description}",
                           {"status": exc.code})
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        app.logger.exception("unexpected error on %s", request.path)
        return refusal(500, "internal", f"internal error: {type(exc).__name__}: {exc}")

    return app


def answer_errors(app: Flask) -> None:
    """What each refusal looks like, in one place: every route raises, none formats an error of its own.

    400 names the field that is wrong; 409 says the rules refuse (with the rule and what is legal), or that the table
    moved on since the choice was made (``"error": "stale"``), or that there is no game; 507 that the card is full
    and nothing was stored. Each carries a ``code`` (:func:`companion.web.strict.refusal`) the screens translate; the
    rule id stays in ``rule`` and the log.
    """

    @app.errorhandler(BadInput)
    def bad_input(exc: BadInput) -> Any:
        return refusal(400, exc.code, str(exc), field=exc.field)

    @app.errorhandler(UnknownField)
    def unknown_field(exc: UnknownField) -> Any:
        return refusal(400, "bad_input", str(exc), field=exc.field, legal=exc.legal)

    @app.errorhandler(BadName)
    def bad_name(exc: BadName) -> Any:
        # A name is input, on every route that takes one (a set-up, a rename): 400 naming the field
        low, high = NAME_LENGTH
        code, values = ("name_taken", {"name": exc.taken}) if exc.taken else ("bad_name", {"low": low, "high": high})
        return refusal(400, code, str(exc), values, field=exc.field, rule=exc.rule)

    @app.errorhandler(IllegalAction)
    def illegal(exc: IllegalAction) -> Any:
        if exc.field is not None:  # one value of the request is to blame: it is named
            return refusal(409, "illegal", str(exc), rule=exc.rule, legal=exc.legal, field=exc.field)
        return refusal(409, "illegal", str(exc), rule=exc.rule, legal=exc.legal)

    @app.errorhandler(NoSuchGame)
    def no_such_game(exc: NoSuchGame) -> Any:
        return refusal(404, "no_such_game", str(exc), {"number": exc.number})

    @app.errorhandler(GameIsOver)
    def game_is_over(exc: GameIsOver) -> Any:
        return refusal(409, "game_over", str(exc))

    @app.errorhandler(Stale)
    def stale(exc: Stale) -> Any:
        # "error": "stale" is what scripts test for; its English is in "message"
        return jsonify(error="stale", code="stale", values={}, message=str(exc), **{exc.what: exc.now}), 409

    @app.errorhandler(NoGame)
    def no_game(exc: NoGame) -> Any:
        return refusal(409, "no_game", str(exc))

    @app.errorhandler(StoreFull)
    def store_full(exc: StoreFull) -> Any:
        # 507 Insufficient Storage: the request was right, the card has no room; nothing was stored or lost
        return refusal(507, "disk_full", str(exc))

    @app.errorhandler(StoreError)
    def store_failed(exc: StoreError) -> Any:
        return refusal(503, "store_failed", str(exc))


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
