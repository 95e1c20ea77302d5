"""The JSON API every screen and script uses. Reads are open to the LAN; changes need the table PIN.

An answer to a change is sent only after the event is durably in the store, so a tablet that saw "ok" never
shows something a power cut can take back.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, session

from companion.games import IllegalAction
from companion.session import NoGame, TableSession
from companion.web.auth import WrongPinLimiter, csrf_token, has_control, pin_matches, requires_control, requires_csrf

api = Blueprint("api", __name__, url_prefix="/api")


def table() -> TableSession:
    return current_app.extensions["table_session"]


def _json_body() -> dict[str, Any] | tuple[Response, int]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify(error="the body must be a JSON object (Content-Type: application/json)"), 400
    return body


def _illegal(exc: IllegalAction) -> tuple[Response, int]:
    return jsonify(error=str(exc), rule=exc.rule, legal=exc.legal), 409


@api.get("/state")
def state() -> Response:
    return jsonify(table().snapshot())


@api.get("/events")
def events() -> Any:
    try:
        after = int(request.args.get("after", "0"))
    except ValueError:
        return jsonify(error="after must be a whole number (the last seq you have)"), 400
    return jsonify(events=[e.to_json() for e in table().events(after=after)])


@api.get("/whoami")
def whoami() -> Response:
    return jsonify(control=has_control(), csrf=csrf_token())


@api.post("/login")
@requires_csrf
def login() -> Any:
    limiter: WrongPinLimiter = current_app.extensions["wrong_pins"]
    address = request.remote_addr or "?"
    if limiter.blocked(address):
        return jsonify(error="too many wrong PINs; wait a minute"), 429
    body = request.get_json(silent=True) if request.is_json else request.form
    pin = body.get("pin") if body else None
    if not pin_matches(pin):
        limiter.wrong(address)
        return jsonify(error="wrong table PIN"), 403
    session["control"] = True
    session.permanent = True
    return jsonify(control=True, csrf=csrf_token())


@api.post("/logout")
@requires_csrf
def logout() -> Response:
    session.pop("control", None)
    return jsonify(control=False)


@api.post("/action")
@requires_control
def action() -> Any:
    body = _json_body()
    if isinstance(body, tuple):
        return body
    actor = str(body.pop("actor", None) or "table")
    try:
        stored = table().act(body, actor=actor, source="dashboard")
    except IllegalAction as exc:
        return _illegal(exc)
    except NoGame as exc:
        return jsonify(error=str(exc)), 409
    return jsonify(seq=stored.seq, events=stored.payload.get("events", []))


@api.post("/confirm")
@requires_control
def confirm() -> Any:
    """Confirm an option of the current prompt by index (default: the highlighted one) with the pending dice."""
    body = _json_body()
    if isinstance(body, tuple):
        return body
    option = body.get("option")
    if option is not None and (not isinstance(option, int) or isinstance(option, bool)):
        return jsonify(error="option must be the index of one of prompt.options"), 400
    try:
        stored = table().confirm(actor=str(body.get("actor") or "table"), source="dashboard", option=option)
    except IllegalAction as exc:
        return _illegal(exc)
    except NoGame as exc:
        return jsonify(error=str(exc)), 409
    return jsonify(seq=stored.seq, events=stored.payload.get("events", []))


@api.post("/dice")
@requires_control
def enter_dice() -> Any:
    """Type in a whole roll (no camera, or a camera that cannot see): it becomes the pending reading."""
    body = _json_body()
    if isinstance(body, tuple):
        return body
    dice = body.get("dice")
    game = table().game
    if game is None:
        return jsonify(error="no game is being played"), 409
    if not isinstance(dice, list) or not all(isinstance(d, str) and d in game.die_faces for d in dice):
        return jsonify(error=f"dice must be a list of faces from {sorted(set(game.die_faces))}"), 400
    table().offer_dice([{"label": d, "confidence": 1.0} for d in dice], source="manual")
    return jsonify(pending=len(dice))


@api.post("/dice/<int:index>")
@requires_control
def correct_die(index: int) -> Any:
    """Set one pending die by a tap (index from 0); kept in the log as a correction when the roll is confirmed."""
    body = _json_body()
    if isinstance(body, tuple):
        return body
    try:
        table().correct_die(index, str(body.get("label")), actor=str(body.get("actor") or "table"))
    except IllegalAction as exc:
        return _illegal(exc)
    except NoGame as exc:
        return jsonify(error=str(exc)), 409
    return jsonify(ok=True)


@api.post("/game")
@requires_control
def new_game() -> Any:
    body = _json_body()
    if isinstance(body, tuple):
        return body
    game_id = body.get("game", current_app.config["DEFAULT_GAME"])
    options = body.get("options", {})
    seed = body.get("seed")
    if not isinstance(options, dict) or not (seed is None or isinstance(seed, int)):
        return jsonify(error="options must be an object and seed a whole number"), 400
    try:
        record = table().new_game(game_id, options, seed=seed)
    except KeyError as exc:
        return jsonify(error=exc.args[0]), 400
    except IllegalAction as exc:
        return _illegal(exc)
    return jsonify(game=record.id)


@api.get("/games/<int:game_id>/export")
def export(game_id: int) -> Any:
    store = table().store
    try:
        lines = list(store.export_jsonl(game_id))
    except KeyError:
        return jsonify(error=f"no game {game_id}"), 404
    return Response(
        "\n".join(lines) + "\n",
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"},
    )
