"""The pages players look at (table, new game, camera) and the endpoints only those pages need.

* ``/`` the table: track, chariot boards, the turn phase by phase, log; ``?kiosk=1`` for the big kiosk layout.
* ``/new`` game setup, ``/camera`` the live camera with the calibration wizard, ``/camera.mjpg`` its stream.
* ``/api/layout`` the static layout of the current game (board spaces as polygons for the SVG), ``/api/log`` the
  readable log in a language, ``/api/buttons/<name>`` the virtual GPIO buttons, ``/api/calibrate``.

The kiosk is the screen of the Pi itself: a page requested from the loopback address. Only there is the table PIN
shown; ``?kiosk=1`` asks for the kiosk layout anywhere, but never reveals the PIN to another machine.
"""

from __future__ import annotations

import ipaddress
import json
import math
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion import controls  # as a module: it reads its texts through companion.web.logtext (import order)
from companion.games import GAMES, get_game
from companion.session import TableSession
from companion.web import logtext
from companion.web.auth import csrf_token, has_control, requires_control
from companion.web.strict import GAME, SEQ, boolean, fields, json_object, query_int
from hw.buttons import BUTTONS
from hw.press import PressKind

pages = Blueprint("pages", __name__)

MJPEG_FRAME_SECONDS = 0.1
MJPEG_MAX_SECONDS = 600.0
"""A camera stream ends after this long; the page reopens it. Keeps a forgotten tab from holding a thread forever."""
MJPEG_REPEAT_SECONDS = 2.0
"""An unchanged frame is sent again this often, so a stalled camera still shows its last picture to a new page."""
MJPEG_MAX_VIEWERS = 4
"""Camera streams at once: each holds a request thread, so more would starve the players' actions (503 beyond)."""
SPACE_HALF_WIDTH = 0.46
"""Half the drawn width of a lane, in board units (lanes are 1 apart): a thin gap shows between lanes."""


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


def _language() -> str:
    accept = [lang for lang, _ in request.accept_languages]
    return logtext.pick_language(request.cookies.get("lang"), accept, current_app.config.get("LANGUAGE", "en"))


def render_page(template: str, **extra: Any) -> str:
    """A page with what every template needs (language, texts, control, kiosk PIN); the teach page uses it too."""
    lang = _language()
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
        "camera": current_app.extensions.get("camera") is not None,
        "games": [(game_id, get_game(game_id).title) for game_id in GAMES],
        "default_game": current_app.config.get("DEFAULT_GAME", "chariot-race"),
    }
    context.update(extra)
    return render_template(template, **context)


@pages.get("/")
def index() -> str:
    return render_page("table.html")


@pages.get("/new")
def new_game() -> str:
    return render_page("new.html")


@pages.get("/camera")
def camera_page() -> str:
    return render_page("camera.html")


@pages.get("/i18n/<lang>.json")
def i18n(lang: str) -> Any:
    if lang not in logtext.LANGUAGES:
        return jsonify(error=f"unknown language {lang!r}; known: {', '.join(logtext.LANGUAGES)}"), 404
    return jsonify(logtext.catalog(lang))


# ---------------------------------------------------------------------------------------------------- layout


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _edge(point: tuple[float, float], tangent: tuple[float, float], width: float) -> tuple[list[float], list[float]]:
    """The two points ``width`` either side of ``point`` across ``tangent`` (left, right)."""
    tx, ty = _unit(*tangent)
    nx, ny = -ty, tx
    x, y = point
    return [round(x + nx * width, 3), round(y + ny * width, 3)], [round(x - nx * width, 3), round(y - ny * width, 3)]


def board_layout(data: dict[str, Any]) -> dict[str, Any]:
    """The drawing of a Chariot Race board (its JSON data): one polygon per space, the spina, the outer wall,
    the finish line. The board's y axis points up; SVG's points down, so y is flipped here once."""
    spaces = data["spaces"]
    centre = {s["id"]: (float(s["x"]), -float(s["y"])) for s in spaces}
    lanes: dict[int, list[dict[str, Any]]] = {}
    for space in spaces:
        lanes.setdefault(space["lane"], []).append(space)
    ahead: dict[str, str] = {}
    behind: dict[str, str] = {}
    for lane in lanes.values():
        lane.sort(key=lambda s: s["index"])
        for k, space in enumerate(lane):
            ahead[space["id"]] = lane[(k + 1) % len(lane)]["id"]
            behind[space["id"]] = lane[k - 1]["id"]
    start = {sid: int(n) for n, sid in data.get("start_positions", {}).items()}
    lap = float(data["lap_length"])

    def across(space: dict[str, Any], lane: int) -> str | None:
        """CR-16: the lane-change target, the space of ``lane`` with the smallest front strictly ahead."""
        best, gap = None, lap * 2
        for other in lanes.get(lane, []):
            d = (float(other["front"]) - float(space["front"])) % lap
            if 1e-9 < d < gap:
                best, gap = other["id"], d
        return best

    out_spaces = []
    sides: dict[str, tuple[list[list[float]], list[list[float]]]] = {}
    for space in spaces:
        sid = space["id"]
        c, a, b = centre[sid], centre[ahead[sid]], centre[behind[sid]]
        p_back = ((b[0] + c[0]) / 2, (b[1] + c[1]) / 2)
        p_front = ((c[0] + a[0]) / 2, (c[1] + a[1]) / 2)
        back_l, back_r = _edge(p_back, (c[0] - b[0], c[1] - b[1]), SPACE_HALF_WIDTH)
        mid_l, mid_r = _edge(c, (a[0] - b[0], a[1] - b[1]), SPACE_HALF_WIDTH)
        front_l, front_r = _edge(p_front, (a[0] - c[0], a[1] - c[1]), SPACE_HALF_WIDTH)
        sides[sid] = ([back_l, mid_l, front_l], [back_r, mid_r, front_r])
        entry: dict[str, Any] = {
            "id": sid, "lane": space["lane"], "index": space["index"], "x": round(c[0], 3), "y": round(c[1], 3),
            "points": [back_l, mid_l, front_l, front_r, mid_r, back_r],
            "angle": round(math.degrees(math.atan2(a[1] - b[1], a[0] - b[0])), 1),
            "ahead": ahead[sid], "in": across(space, space["lane"] - 1), "out": across(space, space["lane"] + 1),
        }
        if "max_speed" in space:
            entry["max_speed"] = space["max_speed"]
        if space.get("rocks"):
            entry["rocks"] = True
        if sid in start:
            entry["start"] = start[sid]
        out_spaces.append(entry)

    middle = sum(c[0] for c in centre.values()) / len(centre), sum(c[1] for c in centre.values()) / len(centre)

    def boundary(lane: int, inner: bool) -> list[list[float]]:
        points: list[list[float]] = []
        for space in lanes.get(lane, []):
            left, right = sides[space["id"]]
            dist = [math.dist(left[1], middle), math.dist(right[1], middle)]
            closer_left = dist[0] < dist[1]
            points.extend(left if closer_left == inner else right)
        return points

    inner_lane, outer_lane = min(lanes), max(lanes)
    firsts = [lane[0] for lane in lanes.values()]
    ends = []
    for space in firsts:
        left, right = sides[space["id"]]
        ends.extend([left[0], right[0]])
    ends.sort(key=lambda p: math.dist(p, middle))
    xs = [p[0] for s in out_spaces for p in s["points"]]
    ys = [p[1] for s in out_spaces for p in s["points"]]
    margin = 0.7
    return {
        "board": str(data.get("side", "?")),
        "viewBox": [round(min(xs) - margin, 3), round(min(ys) - margin, 3),
                    round(max(xs) - min(xs) + 2 * margin, 3), round(max(ys) - min(ys) + 2 * margin, 3)],
        "spaces": out_spaces,
        "spina": boundary(inner_lane, inner=True),
        "outer": boundary(outer_lane, inner=False),
        "finish": [ends[0], ends[-1]] if ends else None,
        "lanes": data.get("lanes", {}),
    }


@pages.get("/api/layout")
def layout() -> Any:
    """What never changes during a game: for Chariot Race the board drawing, for Hexen Rennen the box (clans, tile
    numbers, stages, finish fields); the die faces for every game."""
    session = table()
    game = session.game
    if game is None:
        return jsonify(game=None, number=None, board=None, faces=[])
    faces = list(dict.fromkeys(game.die_faces))
    answer: dict[str, Any] = {"game": game.id, "number": session.record.id, "faces": faces, "board": None}
    if game.id == "chariot-race":
        from companion.games.chariot_race.board import load_board
        from companion.games.chariot_race.components import load_chariot_board

        view = session.snapshot()["view"]
        answer["board"] = board_layout(load_board(view["board"]).data)
        kinds = {c["chariot_board"] for c in view["chariots"]}
        answer["chariot_boards"] = {}
        for name in sorted(kinds):
            kind = load_chariot_board(name if name == "standard" or name.startswith("alt-") else f"alt-{name}")
            answer["chariot_boards"][name] = {"dice_by_speed": list(kind.dice_by_speed),
                                              "speed_cap": list(kind.speed_cap), "placeholder": kind.placeholder}
    elif game.id == "hexenrennen":
        from companion.games.hexenrennen.kit import load_kit

        kit = load_kit()
        answer["kit"] = {"clans": list(kit.clans), "witches_per_clan": kit.witches_per_clan,
                         "tile_numbers": list(kit.tile_numbers), "card_numbers": list(kit.card_numbers),
                         "card_magic": kit.card_magic, "stages": kit.stages, "stage_length": kit.stage_length,
                         "finish_points": list(kit.finish_points)}
    return jsonify(answer)


# ---------------------------------------------------------------------------------------------------- log


@pages.get("/api/log")
def readable_log() -> Any:
    """The current game's log as readable lines: ``?lang=de|nl|en`` (default: the browser's), ``?after=seq``."""
    lang = request.args.get("lang") or _language()
    if lang not in logtext.LANGUAGES:
        return jsonify(error=f"lang must be one of {', '.join(logtext.LANGUAGES)}"), 400
    after = query_int("after")
    session = table()
    snapshot = session.snapshot()
    if snapshot["game"] is None:
        return jsonify(game=None, entries=[])
    names = logtext.names_for(snapshot.get("view"), lang)
    # Entries need their predecessors (an undo names what it undid, "done" needs the phase): build from the start.
    stored = [event.to_json() for event in session.events()]
    every = logtext.log_entries(stored, lang=lang, names=names, game=snapshot["game"]["id"])
    entries = [e for e in every if e["seq"] > after]
    undone = [e["seq"] for e in every if e["undone"]]
    return jsonify(game=snapshot["game"]["number"], lang=lang, entries=entries, undone=undone)


# ---------------------------------------------------------------------------------------------------- buttons


@pages.post("/api/buttons/<name>")
@requires_control
def press_button(name: str) -> Any:
    """A screen's button: the same press the wired button makes (``{"hold": true}`` for a long press), through
    the table's controls (``companion.controls.TableControls``: on mock pins the press travels the pins)."""
    if name not in BUTTONS:
        return jsonify(error=f"no button {name!r}; buttons are {', '.join(BUTTONS)}"), 404
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
        return jsonify(error=str(exc)), 503
    if outcome.rule == "stale":
        return jsonify(error="stale", message=outcome.message, seq=session.snapshot()["seq"]), 409
    if not outcome.ok:
        return jsonify(error=outcome.message, rule=outcome.rule, legal=outcome.legal), 409
    return jsonify(ok=True, seq=session.snapshot()["seq"], outcome=outcome.to_json())


# ---------------------------------------------------------------------------------------------------- camera


def _camera() -> Any:
    return current_app.extensions.get("camera")


@pages.get("/api/camera")
def camera_status() -> Any:
    camera = _camera()
    if camera is None:
        return jsonify(present=False, state="off")
    return jsonify(present=True, **camera.status())


@pages.post("/api/calibrate")
@requires_control
def calibrate() -> Any:
    """Learn the empty tray now (step 2 of the wizard on /camera)."""
    camera = _camera()
    if camera is None:
        return jsonify(error="no camera: the dice are entered by hand"), 409
    try:
        summary = camera.calibrate()
    except (RuntimeError, ValueError) as exc:
        return jsonify(error=f"calibration failed: {exc}"), 409
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
