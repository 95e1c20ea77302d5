"""The JSON API every screen and script uses. Reads are open to the LAN; changes need the table PIN.

An answer to a change is sent only after the event is durably in the store, so a tablet that saw "ok" never
shows something a power cut can take back. A change carries ``"seq"``, the state it was chosen on; when the table
has moved on since, it is answered 409 ``{"error": "stale"}`` and nothing happens. Every body and parameter is
checked strictly (:mod:`companion.web.strict`): a bad one is a 400 naming its field. The errors themselves are
answered in one place (:func:`companion.web.answer_errors`).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.controls import with_option_labels
from companion.games import GAMES, IllegalAction, get_game
from companion.seating import seat_names
from companion.session import MAX_SEED, NoGame, TableSession
from companion.texts import LANGUAGES
from companion.web.auth import (
    WrongPinLimiter,
    csrf_token,
    end_control,
    grant_control,
    has_control,
    pin_matches,
    requires_control,
    requires_csrf,
    too_many_pins,
    wrong_pin,
)
from companion.web.logtext import log_entries
from companion.web.pages import language
from companion.web.strict import (
    ACTOR,
    GAME,
    MAX_INT,
    READING,
    SEQ,
    BadInput,
    an_object,
    boolean,
    fields,
    json_object,
    json_value,
    query_int,
    refusal,
    text,
    texts,
    whole,
)

log = logging.getLogger(__name__)

api = Blueprint("api", __name__, url_prefix="/api")


def table() -> TableSession:
    return current_app.extensions["table_session"]


MAX_OPTION = 10_000
MAX_DICE = 100
MAX_SEATS = 100
MAX_TEXT_NAME = 1_000
"""A name's text is read up to here (``check_name`` then says 1-24 characters, naming the field); longer is
refused before that, as any text too long is."""


@api.get("/state")
def state() -> Response:
    return jsonify(with_option_labels(table().snapshot()))


@api.get("/events")
def events() -> Any:
    """The current game's events after ``?after=`` (the last seq you have)."""
    return jsonify(events=[e.to_json() for e in table().events(after=query_int("after"))])


@api.get("/whoami")
def whoami() -> Response:
    return jsonify(control=has_control(), csrf=csrf_token())


@api.post("/login")
@requires_csrf
def login() -> Any:
    try:  # strictly, like every body: Flask's own parser recurses into a deeply nested one until it fails
        body = json_object() if request.is_json else request.form
    except BadInput:
        body = None
    pin = body.get("pin") if body is not None else None
    if not isinstance(pin, str):
        return refusal(400, "pin_missing",
                       'pin must be the table PIN as a string: {"pin": "2468"} (JSON) or a pin form field',
                       field="pin")
    limiter: WrongPinLimiter = current_app.extensions["wrong_pins"]
    address = request.remote_addr or "?"
    if limiter.blocked(address):
        return too_many_pins()
    if not pin_matches(pin):
        limiter.wrong(address)
        return wrong_pin()
    grant_control()
    return jsonify(control=True, csrf=csrf_token())


@api.post("/logout")
@requires_csrf
def logout() -> Response:
    end_control()
    return jsonify(control=False)


@api.post("/action")
@requires_control
def action() -> Any:
    """One action of the current game (``{"type": ..., its fields, "seq": N}``), or ``{"type": "undo"}``."""
    body = fields(json_object(empty_ok=False), {"type": text(40), "actor": ACTOR, "seq": SEQ, "game": GAME},
                  required=("type",), rest=json_value)
    actor = body.pop("actor", None) or "table"
    seq, game = body.pop("seq", None), body.pop("game", None)
    stored = table().act(body, actor=actor, source="dashboard", seq=seq, game=game)
    return jsonify(seq=stored.seq, events=stored.payload.get("events", []))


@api.post("/confirm")
@requires_control
def confirm() -> Any:
    """Confirm an option of the current prompt by index (default: the highlighted one) with the pending dice;
    ``reading`` names the pending reading the player saw."""
    body = fields(json_object(), {"option": whole(0, MAX_OPTION), "actor": ACTOR, "seq": SEQ, "game": GAME,
                                  "reading": READING})
    stored = table().confirm(actor=body.get("actor") or "table", source="dashboard", option=body.get("option"),
                             seq=body.get("seq"), game=body.get("game"), reading=body.get("reading"))
    return jsonify(seq=stored.seq, events=stored.payload.get("events", []))


@api.post("/highlight")
@requires_control
def highlight() -> Any:
    """Highlight an option (``{"option": i, "seq": N}``): what the confirm buttons, wired or on screen, will do."""
    body = fields(json_object(empty_ok=False), {"option": whole(0, MAX_OPTION), "seq": SEQ, "game": GAME},
                  required=("option",))
    table().highlight(body["option"], seq=body.get("seq"), game=body.get("game"))
    return jsonify(ok=True)


@api.post("/dice")
@requires_control
def enter_dice() -> Any:
    """Type in a whole roll (no camera, or a camera that cannot see): it becomes the pending reading."""
    body = fields(json_object(empty_ok=False), {"dice": texts(MAX_DICE, 40), "seq": SEQ, "game": GAME},
                  required=("dice",))
    session = table()
    game = session.game
    if game is None:
        raise NoGame("no game is being played")
    wrong = [d for d in body["dice"] if d not in game.die_faces]
    if wrong:
        raise BadInput("dice", f"{wrong[0]!r} is not a face; faces: {', '.join(dict.fromkeys(game.die_faces))}")
    session.offer_dice([{"label": d, "confidence": 1.0} for d in body["dice"]], source="manual", seq=body.get("seq"),
                       game=body.get("game"))
    return jsonify(pending=len(body["dice"]))


@api.post(f"/dice/<int(max={MAX_DICE}):index>")
@requires_control
def correct_die(index: int) -> Any:
    """Set one pending die by a tap (index from 0); kept in the log as a correction when the roll is confirmed."""
    body = fields(json_object(empty_ok=False), {"label": text(40), "actor": ACTOR, "seq": SEQ, "game": GAME,
                                                "reading": READING}, required=("label",))
    table().correct_die(index, body["label"], actor=body.get("actor") or "table", seq=body.get("seq"),
                        reading=body.get("reading"), game=body.get("game"))
    return jsonify(ok=True)


CURRENT = whole(0)
"""The number of the game on the table when a game was chosen (0: none), so a second tablet's choice of another
game in the meantime is not overruled unseen (409 stale with ``current``)."""


@api.post("/game")
@requires_control
def new_game() -> Any:
    """Start a game: ``{"game": id, "options": {...}, "seed": n, "current": n}`` (all optional). The game it
    replaces stays unfinished, in ``/api/games``."""
    body = fields(json_object(), {"game": text(40), "options": an_object, "seed": whole(0, MAX_SEED),
                                  "current": CURRENT})
    game_id = body.get("game", current_app.config["DEFAULT_GAME"])
    if game_id not in GAMES:
        raise BadInput("game", f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}")
    try:
        record = table().new_game(game_id, body.get("options", {}), seed=body.get("seed"),
                                  current=body.get("current"))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        if isinstance(exc, IllegalAction):
            raise
        # A set-up the game's own checks did not foresee (a list where a name belongs): refused, not a crash.
        log.warning("set-up of %s refused: %r", game_id, exc)
        raise BadInput("options", f"not a valid set-up for {game_id}: {exc}", code="bad_setup") from None
    return jsonify(game=record.id)


@api.get(f"/games/<int(max={MAX_INT}):game_id>/export")
def export(game_id: int) -> Any:
    store = table().store
    try:
        lines = list(store.export_jsonl(game_id))
    except KeyError:
        return refusal(404, "no_such_game", f"no game {game_id}", {"number": game_id})
    return Response(
        "\n".join(lines) + "\n",
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"},
    )


@api.get("/games")
def games() -> Any:
    """Every game the table has played, newest first: ``number``, ``game``, ``title``, ``players``, ``started``,
    ``seq`` (its last event), ``over``, ``current``, ``turn`` (who decides next, named as the log names them) and
    ``last`` (its last move as the log tells it), in ``?lang=`` (default: the browser's). Read from the summary each
    event stores, so a long evening's hundreds of games are never replayed for it."""
    session = table()
    lang = request.args.get("lang") or language()
    if lang not in LANGUAGES:
        raise BadInput("lang", f"must be one of {', '.join(LANGUAGES)}")
    current = session.record.id if session.record is not None else None
    listed = []
    for line in reversed(session.game_list()):
        record, summary = line.record, line.summary or {}
        names = (line.names or {}).get(lang) or {}
        last = None
        if line.last is not None and record.game in GAMES:
            earlier = partial(_earlier, session, record.id)
            entry = log_entries([line.last.to_json()], lang=lang, names=names, game=record.game, earlier=earlier)[0]
            last = " · ".join(item["text"] for item in entry["lines"])
        actor = summary.get("actor")
        listed.append({"number": record.id, "game": record.game,
                       "title": get_game(record.game).title if record.game in GAMES else record.game,
                       "players": summary.get("players") or seat_names(record.options),
                       "started": record.created, "seq": line.seq, "over": record.finished is not None,
                       "current": record.id == current, "turn": names.get(actor, actor) if actor else None,
                       "last": last})
    return jsonify(current=current, games=listed)


def _earlier(session: TableSession, number: int, seq: int) -> dict[str, Any] | None:
    event = session.store.event(number, seq)
    return event.to_json() if event else None


@api.post(f"/games/<int(max={MAX_INT}):number>/resume")
@requires_control
def resume(number: int) -> Any:
    """Put an unfinished game back on the table (``{"current": n}``: the game on it when chosen). 404 for no such
    game, 409 ``game_over`` for a finished one."""
    body = fields(json_object(), {"current": CURRENT})
    record = table().resume_game(number, current=body.get("current"))
    return jsonify(game=record.id, seq=table().snapshot()["seq"])


@api.post(f"/games/<int(max={MAX_INT}):number>/rematch")
@requires_control
def rematch(number: int) -> Any:
    """A new game of game ``number``'s game, players and options, with a new seed (``{"current": n}``)."""
    body = fields(json_object(), {"current": CURRENT})
    record = table().rematch(number, current=body.get("current"))
    return jsonify(game=record.id)


@api.post(f"/seats/<int(max={MAX_SEATS}):seat>")
@requires_control
def change_seat(seat: int) -> Any:
    """Rename a seat of the current game or hand it to a bot and back: ``{"name": ..., "bot": true|false,
    "seq": N, "game": n}`` (name or bot, or both). Kept in the log; a name is checked as a set-up's is."""
    body = fields(json_object(empty_ok=False), {"name": text(MAX_TEXT_NAME), "bot": boolean, "actor": ACTOR,
                                                "seq": SEQ, "game": GAME})
    if "name" not in body and "bot" not in body:
        raise BadInput("name", "give a name, or bot: true or false")
    if body.get("bot") and not current_app.config.get("BOTS_PLAY"):
        raise BadInput("bot", "no bots play at this table: nobody would move the seat")
    stored = table().change_seat(seat, name=body.get("name"), bot=body.get("bot"), actor=body.get("actor") or "table",
                                 seq=body.get("seq"), game=body.get("game"))
    return jsonify(seq=stored.seq)
