"""The pages players look at (table, new game, camera) and the endpoints only those pages need.

* ``/`` the table: the game's track and boards, the turn phase by phase, log; ``?kiosk=1`` for the big kiosk layout.
* ``/new`` game setup, ``/games`` every game (resume, rematch, the current game's seats), ``/camera`` the live
  camera with the calibration wizard, ``/camera.mjpg`` its stream.
* ``/api/layout`` the static layout of the current game (board spaces as polygons for the SVG), ``/api/log`` the
  readable log in a language, ``/api/buttons/<name>`` the virtual GPIO buttons, ``/api/calibrate``.

The kiosk is the screen of the Pi itself: a page requested from the loopback address. Only there is the table PIN
shown; ``?kiosk=1`` asks for the kiosk layout anywhere, but never reveals the PIN to another machine.
"""

from __future__ import annotations

import ipaddress
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, send_file

from companion import controls
from companion.games import DEFAULT_GAME, GAMES, browser_module, get_game, get_presentation
from companion.session import TableSession
from companion.web import logtext
from companion.web.auth import csrf_token, has_control, requires_control
from companion.web.strict import GAME, SEQ, BadInput, boolean, fields, json_object, query_int, refusal
from hw.press import BUTTONS, PressKind
from vision.camera_state import CameraState

pages = Blueprint("pages", __name__)

MJPEG_FRAME_SECONDS = 0.1
MJPEG_MAX_SECONDS = 600.0
"""A camera stream ends after this long; the page reopens it. Keeps a forgotten tab from holding a thread forever."""
MJPEG_REPEAT_SECONDS = 2.0
"""An unchanged frame is sent again this often, so a stalled camera still shows its last picture to a new page."""
MJPEG_MAX_VIEWERS = 4
"""Camera streams at once: each holds a request thread, so more would starve the players' actions (503 beyond)."""


def table() -> TableSession:
    return current_app.extensions["table_session"]


# ---------------------------------------------------------------------------------------------------- page context


def _is_loopback() -> bool:
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def _kiosk() -> bool:
    """The kiosk layout: asked for with ``?kiosk=1``, or the Pi's own screen unless it says ``?kiosk=0``."""
    flag = request.args.get("kiosk")
    if flag is not None:
        return flag not in ("0", "false", "no")
    return _is_loopback()


def language() -> str:
    accept = [lang for lang, _ in request.accept_languages]
    return logtext.pick_language(request.cookies.get("lang"), accept, current_app.config.get("LANGUAGE", "en"))


def render_page(template: str, **extra: Any) -> str:
    """A page with what every template needs (language, texts, control, kiosk PIN); the teach page uses it too."""
    lang = language()
    kiosk = _kiosk()
    show_pin = kiosk and _is_loopback()
    context = {
        "lang": lang,
        "languages": [(code, logtext.catalog(code)["name"]) for code in logtext.LANGUAGES],
        "catalog": json.dumps(logtext.catalog(lang), ensure_ascii=False),
        "ui": logtext.catalog(lang)["ui"],
        "csrf": csrf_token(),
        "control": has_control(),
        "kiosk": kiosk,
        "pin": current_app.config["CONTROL_PIN"] if show_pin else None,
        "camera": _camera() is not None or _camera_state() == CameraState.STARTING,
        "games": [(game_id, get_game(game_id).title) for game_id in GAMES],
        "game_modules": [game_id for game_id in GAMES if browser_module(game_id) is not None],
        "game_styles": [game_id for game_id in GAMES if browser_module(game_id, "css") is not None],
        "default_game": current_app.config.get("DEFAULT_GAME", DEFAULT_GAME),
    }
    context.update(extra)
    return render_template(template, **context)


@pages.get("/")
def index() -> str:
    return render_page("table.html")


@pages.get("/new")
def new_game() -> str:
    return render_page("new.html")


@pages.get("/games")
def games_page() -> str:
    return render_page("games.html")


@pages.get("/camera")
def camera_page() -> str:
    return render_page("camera.html")


@pages.get("/games/<game_id>.<any(js, css):kind>")
def game_module(game_id: str, kind: str) -> Any:
    """A game's browser module or stylesheet, from its own package (loaded by the pages before table.js)."""
    path = browser_module(game_id, kind) if game_id in GAMES else None
    if path is None:
        abort(404, description=f"no browser {kind} for {game_id!r}")
    return send_file(path, mimetype="text/javascript" if kind == "js" else "text/css", max_age=300)


@pages.get("/i18n/<lang>.json")
def i18n(lang: str) -> Any:
    if lang not in logtext.LANGUAGES:
        return refusal(404, "http", f"unknown language {lang!r}; known: {', '.join(logtext.LANGUAGES)}",
                       {"status": 404})
    return jsonify(logtext.catalog(lang))


# ---------------------------------------------------------------------------------------------------- layout


@pages.get("/api/layout")
def layout() -> Any:
    """What never changes during a game, from the game's presentation (a board drawing, the box's contents), and
    the die faces."""
    session = table()
    game = session.game
    if game is None:
        return jsonify(game=None, number=None, board=None, faces=[])
    answer: dict[str, Any] = {"game": game.id, "number": session.record.id,
                              "faces": list(dict.fromkeys(game.die_faces)), "board": None}
    presentation = get_presentation(game.id)
    if presentation is not None:
        answer.update(presentation.layout(session.snapshot()["view"]))
    return jsonify(answer)


# ---------------------------------------------------------------------------------------------------- log


@pages.get("/api/log")
def readable_log() -> Any:
    """The current game's log as readable lines: ``?lang=de|nl|en`` (default: the browser's), ``?after=seq``."""
    lang = request.args.get("lang") or language()
    if lang not in logtext.LANGUAGES:
        raise BadInput("lang", f"must be one of {', '.join(logtext.LANGUAGES)}")
    after = query_int("after")
    session = table()
    snapshot = session.snapshot()
    if snapshot["game"] is None:
        return jsonify(game=None, entries=[])
    names = logtext.names_for(snapshot["game"]["id"], snapshot.get("view"), lang)
    number = snapshot["game"]["number"]

    def earlier(seq: int) -> dict[str, Any] | None:
        event = session.store.event(number, seq)
        return event.to_json() if event else None

    # Only the events after ``after``: each entry is told by its own event (an undo looks up what it took back).
    stored = [event.to_json() for event in session.events(after=after)]
    entries = logtext.log_entries(stored, lang=lang, names=names, game=snapshot["game"]["id"], earlier=earlier)
    undone = session.store.undone_seqs(number)
    for entry in entries:
        entry["undone"] = entry["seq"] in undone
    return jsonify(game=number, lang=lang, entries=entries, undone=undone)


# ---------------------------------------------------------------------------------------------------- buttons


@pages.post("/api/buttons/<name>")
@requires_control
def press_button(name: str) -> Any:
    """A screen's button: the same press the wired button makes (``{"hold": true}`` for a long press), through
    the table's controls (``companion.controls.TableControls``: on mock pins the press travels the pins)."""
    if name not in BUTTONS:
        return refusal(404, "http", f"no button {name!r}; buttons are {', '.join(BUTTONS)}", {"status": 404})
    body = fields(json_object(), {"hold": boolean, "seq": SEQ, "game": GAME})
    hold, seen = body.get("hold", False), (body.get("seq"), body.get("game"))
    session = table()
    table_controls = current_app.extensions.get("buttons")
    try:
        if table_controls is not None:
            outcome = table_controls.press(name, hold=hold, seen=seen)
        else:  # an app without the table's controls (tests): do what that press would do
            outcome = controls.perform(session, name, PressKind.LONG if hold else PressKind.SHORT, seen=seen)
    except TimeoutError as exc:
        return refusal(503, "busy", str(exc))
    if outcome.rule == "stale":
        return jsonify(error="stale", code="stale", values={}, message=outcome.message,
                       seq=session.snapshot()["seq"]), 409
    if not outcome.ok:
        code = "illegal" if outcome.rule else "no_game" if session.game is None else "internal"
        return refusal(409, code, outcome.message, rule=outcome.rule, legal=outcome.legal)
    return jsonify(ok=True, seq=session.snapshot()["seq"], outcome=outcome.to_json())


# ---------------------------------------------------------------------------------------------------- camera


def _camera() -> Any:
    return current_app.extensions.get("camera")


def _camera_state() -> str | None:
    """What the session says of the camera: "starting" while a restarted table serves and its camera loads."""
    return table().status().get("camera", {}).get("state")


@pages.get("/api/camera")
def camera_status() -> Any:
    camera = _camera()
    if camera is None:
        return jsonify(present=False, state=_camera_state() or CameraState.OFF)
    return jsonify(present=True, **camera.status())


@pages.post("/api/calibrate")
@requires_control
def calibrate() -> Any:
    """Learn the empty tray now (step 2 of the wizard on /camera)."""
    camera = _camera()
    if camera is None:
        return refusal(409, "no_camera", "no camera: the dice are entered by hand")
    try:
        summary = camera.calibrate()
    except (RuntimeError, ValueError) as exc:
        return refusal(409, "calibration_failed", f"calibration failed: {exc}")
    return jsonify(ok=True, summary=summary)


@pages.get("/camera.mjpg")
def camera_stream() -> Any:
    """The newest frame with the dice overlay, as a multipart MJPEG stream (an ``<img>`` plays it)."""
    camera = _camera()
    if camera is None:
        abort(404, description="no camera on this table")
    viewers = current_app.extensions.setdefault("mjpeg_viewers", threading.BoundedSemaphore(MJPEG_MAX_VIEWERS))
    if not viewers.acquire(blocking=False):
        return Response(f"at most {MJPEG_MAX_VIEWERS} camera views at once; close one\n", status=503,
                        mimetype="text/plain", headers={"Retry-After": "10"})

    def frames() -> Iterator[bytes]:
        # Each part is followed at once by the next boundary: a browser shows a part only when it sees its end.
        yield b"--frame\r\n"
        last, sent_at = None, 0.0
        ends = time.monotonic() + MJPEG_MAX_SECONDS
        while time.monotonic() < ends:
            jpeg = camera.latest_jpeg()
            now = time.monotonic()
            if jpeg is not None and (jpeg is not last or now - sent_at > MJPEG_REPEAT_SECONDS):
                last, sent_at = jpeg, now
                head = f"Content-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                yield head + jpeg + b"\r\n--frame\r\n"
            time.sleep(MJPEG_FRAME_SECONDS)

    response = Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame",
                        headers={"Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(viewers.release)  # the server closes the response when the viewer goes or time is up
    return response
