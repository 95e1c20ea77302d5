"""The teach page (``/teach``) and its endpoints: teach the companion the table's own dice.

* ``GET /api/teach`` taught examples per face, kept corrections, dice in the tray now.
* ``GET /api/teach/crops/<id>.png`` the crop of a kept correction, as the classifier saw it.
* ``POST /api/teach/face`` ``{"face": "5"}``: every die of the latest reading shows that face.
* ``POST /api/teach/learn`` / ``/api/teach/discard`` ``{"ids": [...]}`` (all when absent): kept corrections.
* ``POST /api/teach/forget`` ``{"face": "5"}`` or ``{}`` for every face: back to the shipped model.

Changing what the companion has learnt needs control (the PIN); looking does not.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, jsonify, send_file

from companion.teach import Teacher, TeachError
from companion.web.auth import requires_control
from companion.web.pages import render_page
from companion.web.strict import fields, json_object, refusal, text, texts

teach = Blueprint("teach", __name__)


def _teacher() -> Teacher | None:
    camera = current_app.extensions.get("camera")
    return getattr(camera, "teacher", None)


FACE = {"face": text(40)}
IDS = {"ids": texts(10_000, 100)}


def _do(action: Any, spec: dict[str, Any], *, required: tuple[str, ...] = ()) -> Any:
    body = fields(json_object(), spec, required=required)
    teacher = _teacher()
    if teacher is None:
        return refusal(409, "no_camera", "no camera on this table: there is nothing to teach")
    try:
        done = action(teacher, body)
    except TeachError as exc:
        return refusal(409, exc.code, str(exc), exc.values)
    return jsonify(ok=True, done=done, **teacher.summary())


@teach.get("/teach")
def teach_page() -> str:
    return render_page("teach.html")


@teach.get("/api/teach")
def summary() -> Any:
    teacher = _teacher()
    if teacher is None:
        return jsonify(present=False)
    return jsonify(present=True, **teacher.summary())


@teach.get("/api/teach/crops/<correction_id>.png")
def correction_crop(correction_id: str) -> Any:
    teacher = _teacher()
    path = teacher.correction_png(correction_id) if teacher is not None else None
    if path is None:
        abort(404, description=f"no kept correction {correction_id!r}")
    return send_file(path, mimetype="image/png", max_age=3600)


@teach.post("/api/teach/face")
@requires_control
def teach_face() -> Any:
    return _do(lambda teacher, body: teacher.teach_face(body["face"]), FACE, required=("face",))


@teach.post("/api/teach/learn")
@requires_control
def learn() -> Any:
    return _do(lambda teacher, body: teacher.learn(body.get("ids")), IDS)


@teach.post("/api/teach/discard")
@requires_control
def discard() -> Any:
    return _do(lambda teacher, body: teacher.discard(body.get("ids")), IDS)


@teach.post("/api/teach/forget")
@requires_control
def forget() -> Any:
    return _do(lambda teacher, body: teacher.forget(body.get("face") or None), FACE)
