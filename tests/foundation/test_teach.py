"""Teach-your-dice at the table: faces shown to the camera and corrections made in play become the enrolment
that the live classifier uses, and everything taught can be thrown away again."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from companion.session import TableSession
from companion.teach import MAX_CORRECTIONS, Teacher, TeachError
from tests.conftest import PIN, Client, LiveServer
from tests.vision.conftest import make_tiny_model
from vision.classify import Classifier
from vision.synth import render_scene


@pytest.fixture
def teacher(tmp_path: Path) -> Teacher:
    # the tiny model reads colours, not faces; under a dice set the renderer does not know, its enrolment has no
    # rendered anchors of the other faces, which would (rightly) stop it reading one face into every colour
    card = make_tiny_model(tmp_path, dice_set="tiny-colours")
    pipeline = SimpleNamespace(classifier=Classifier.load(card))
    return Teacher(tmp_path / "data", tmp_path / "data" / "enrol-d6.npz", pipeline)


def tray(teacher: Teacher, labels: list[str], seed: int = 1, reading_id: int = 1) -> tuple[np.ndarray, list[str]]:
    """A settled synthetic tray whose dice the teacher keeps, as the camera does for every reading (the true
    boxes stand in for the segmenter's: these tests are about teaching, not finding)."""
    scene = render_scene(labels, "d6", np.random.default_rng(seed))
    refs = teacher.keep_reading(reading_id, scene.image, [d.box for d in scene.dice])
    return scene.image, refs


def read(teacher: Teacher) -> list[str]:
    return [p.label for p in teacher.pipeline.classifier.classify(teacher.latest_crops())]


def test_teaching_a_face_makes_the_live_classifier_read_those_dice_as_it(teacher):
    tray(teacher, ["3", "3", "3", "3"])
    assert read(teacher) != ["3"] * 4  # the tiny model reads colours, not faces
    assert teacher.teach_face("3") == 4
    assert read(teacher) == ["3"] * 4
    assert teacher.summary()["taught"]["3"] == 4
    assert teacher.enrolment_path.is_file()


def test_teaching_runs_the_live_classifiers_model_rather_than_a_second_copy(teacher):
    tray(teacher, ["2", "2"])
    teacher.teach_face("2")
    assert teacher.enrolment().model is teacher.pipeline.classifier.model
    teacher.pipeline.classifier = Classifier.load(teacher.card.path)  # e.g. a new model installed
    assert teacher.enrolment().model is teacher.pipeline.classifier.model


def test_forgetting_returns_to_the_shipped_model(teacher):
    tray(teacher, ["5", "5", "5"])
    before = read(teacher)
    teacher.teach_face("5")
    teacher.forget()
    assert not teacher.enrolment_path.exists()
    assert read(teacher) == before
    assert teacher.summary()["taught"] == {face: 0 for face in "123456"}


def test_teaching_needs_a_face_of_these_dice_and_dice_in_the_tray(teacher):
    with pytest.raises(TeachError, match="no dice read yet"):
        teacher.teach_face("3")
    tray(teacher, ["2", "2"])
    with pytest.raises(TeachError, match="'drive' is not a face of these dice; faces are 1, 2, 3, 4, 5, 6"):
        teacher.teach_face("drive")


def test_a_correction_keeps_the_crop_the_classifier_saw_until_it_is_learnt(teacher):
    _, refs = tray(teacher, ["6", "6", "6"])
    ids = [teacher.keep_correction({"label": "6", "was": "1", "ref": ref, "corrected_by": "table"}) for ref in refs]
    kept = teacher.corrections()
    assert [c["id"] for c in kept] == ids and {c["was"] for c in kept} == {"1"}
    assert all(teacher.correction_png(i) is not None for i in ids)
    assert teacher.learn(ids[:2]) == 2
    assert [c["id"] for c in teacher.corrections()] == ids[2:]
    assert teacher.summary()["taught"]["6"] == 2
    assert read(teacher) == ["6", "6", "6"]


def test_dice_typed_in_by_hand_or_long_gone_keep_nothing(teacher):
    tray(teacher, ["4"], reading_id=1)
    assert teacher.keep_correction({"label": "4", "was": "1"}) is None  # typed in: no camera reference
    for later in range(2, 40):
        tray(teacher, ["4"], seed=later, reading_id=later)
    assert teacher.keep_correction({"label": "4", "ref": "1:0"}) is None  # that reading's crops are gone
    assert teacher.corrections() == []


def test_discarded_corrections_teach_nothing(teacher):
    _, refs = tray(teacher, ["1", "2"])
    for ref in refs:
        teacher.keep_correction({"label": "3", "ref": ref})
    assert teacher.discard() == 2
    assert teacher.corrections() == [] and teacher.summary()["taught"]["3"] == 0
    with pytest.raises(TeachError, match="no kept correction"):
        teacher.learn(["123-3"])


def test_a_half_written_correction_after_a_power_cut_is_skipped(teacher):
    _, refs = tray(teacher, ["2"])
    kept = teacher.keep_correction({"label": "2", "ref": refs[0]})
    (teacher.folder / "999-2.png").write_bytes(b"")  # the crop was written, its note was not
    (teacher.folder / "998-2.json").write_text("{not json")
    assert [c["id"] for c in teacher.corrections()] == [kept]


def test_old_corrections_are_dropped_beyond_the_limit(teacher, monkeypatch):
    monkeypatch.setattr("companion.teach.MAX_CORRECTIONS", 3)
    _, refs = tray(teacher, ["1", "2", "3", "4", "5"])
    ids = [teacher.keep_correction({"label": "6", "ref": ref}) for ref in refs]
    assert [c["id"] for c in teacher.corrections()] == ids[-3:]
    assert MAX_CORRECTIONS >= 100


def test_the_session_tells_its_listeners_about_each_correction_and_survives_a_broken_one(session: TableSession):
    session.new_game("dice-race", {"players": [{"name": "Ada"}, {"name": "Bo"}]}, seed=1)
    heard = []
    session.correction_listeners += [lambda die: 1 / 0, heard.append]
    session.offer_dice([{"label": "2", "confidence": 0.5, "ref": "7:0"}])
    session.correct_die(0, "5", actor="table")
    assert heard == [{"label": "5", "confidence": 0.5, "ref": "7:0", "low": False, "corrected": True, "was": "2",
                      "corrected_by": "table"}]
    assert session.snapshot()["pending"]["dice"][0]["label"] == "5"


def test_the_teach_endpoints_need_control_and_explain_refusals(session, tmp_path):
    from companion.web import create_app
    from companion.web.server import Server

    card = make_tiny_model(tmp_path)
    teacher = Teacher(tmp_path / "data", tmp_path / "data" / "enrol-d6.npz",
                      SimpleNamespace(classifier=Classifier.load(card)))
    app = create_app(session, control_pin=PIN)
    app.extensions["camera"] = SimpleNamespace(teacher=teacher)
    server = Server(app, host="127.0.0.1", port=0, threads=4).start()
    try:
        live = LiveServer(session, server)
        spectator, player = live.client(), live.client()
        csrf = {"headers": {"X-CSRF-Token": player.login()}}
        assert spectator.post("/api/teach/face", {"face": "3"})[0] == 401
        status, body = player.post("/api/teach/face", {"face": "3"}, **csrf)
        assert status == 409 and "no dice read yet" in body["error"] and body["code"] == "no_dice_read"
        status, body = player.post("/api/teach/face", {"face": "drive"}, **csrf)
        assert (body["code"], body["values"]) == ("not_a_face", {"face": "drive"})  # the screens say it in words
        _, refs = tray(teacher, ["3", "3"])
        status, body = player.post("/api/teach/face", {"face": "3"}, **csrf)
        assert status == 200 and body["done"] == 2 and body["taught"]["3"] == 2
        correction = teacher.keep_correction({"label": "1", "was": "3", "ref": refs[0]})
        status, body = spectator.get("/api/teach")
        assert status == 200 and [c["id"] for c in body["corrections"]] == [correction]
        status, png = spectator.get(f"/api/teach/crops/{correction}.png")
        assert status == 200 and png[:4] == b"\x89PNG"
        assert spectator.get("/api/teach/crops/..%2Fsecret_key.png")[0] == 404
        status, body = player.post("/api/teach/learn", {"ids": "all"}, **csrf)
        assert status == 400 and body["field"] == "ids" and "must be a list" in body["error"]
        status, body = player.post("/api/teach/learn", {}, **csrf)
        assert status == 200 and body["done"] == 1 and body["taught"]["1"] == 1 and body["corrections"] == []
        status, body = player.post("/api/teach/forget", {}, **csrf)
        assert status == 200 and body["taught"] == {face: 0 for face in "123456"}
    finally:
        session.broker.close()
        server.stop()


def test_without_a_camera_there_is_nothing_to_teach(session):
    from companion.web import create_app
    from companion.web.server import Server

    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=4).start()
    try:
        client = Client(server.port)
        assert client.get("/api/teach") == (200, {"present": False})
        status, body = client.post("/api/teach/face", {"face": "1"}, headers={"X-CSRF-Token": client.login()})
        assert status == 409 and "no camera" in body["error"] and body["code"] == "no_camera"
    finally:
        session.broker.close()
        server.stop()


def test_kept_corrections_are_plain_files_a_person_can_read(teacher):
    _, refs = tray(teacher, ["5"])
    kept = teacher.keep_correction({"label": "5", "was": "6", "ref": refs[0], "confidence": 0.41})
    meta = json.loads((teacher.folder / f"{kept}.json").read_text())
    assert meta["label"] == "5" and meta["was"] == "6" and meta["confidence"] == 0.41


def test_the_camera_offers_dice_with_crops_a_correction_then_keeps(session, tmp_path):
    """The whole path on a real pipeline: a settled roll becomes pending dice that refer to their crops, and a
    player's tap on one of them leaves a teachable correction in the data dir."""
    from companion.camera import TableCamera
    from companion.config import demo_config
    from vision.sources import Frame

    session.new_game("hexenrennen", {"players": [{"name": "Ada"}, {"name": "Bo"}]},
                     seed=1)
    camera = TableCamera(session, demo_config(tmp_path / "data"), "d6")
    scene = render_scene(["2", "6"], "d6", np.random.default_rng(8), background="felt", tilt=0.0)
    for i in range(12):
        camera.pipeline.process(Frame(scene.image, i, i * 0.1))
    pending = session.snapshot()["pending"]["dice"]
    assert len(pending) == 2 and all(":" in d["ref"] for d in pending)
    session.correct_die(0, "4", actor="table")
    kept = camera.teacher.corrections()
    assert [(c["label"], c["was"]) for c in kept] == [("4", pending[0]["label"])]
    assert camera.teacher.correction_png(kept[0]["id"]).parent == tmp_path / "data" / "teach"


def test_a_readings_crops_come_from_the_frame_it_was_read_from(session, tmp_path):
    """Still frames differ by sensor noise: the crop a correction would teach is cut from the reading's own frame
    (the one the vote ended on), not from the frame before it."""
    from companion.camera import TableCamera
    from companion.config import demo_config
    from companion.teach import CROP_PX
    from vision.crops import corners_crop
    from vision.sources import Frame

    session.new_game("hexenrennen", {"players": [{"name": "Ada"}, {"name": "Bo"}]}, seed=1)
    camera = TableCamera(session, demo_config(tmp_path / "data"), "d6")
    scene = render_scene(["2", "6"], "d6", np.random.default_rng(8), background="felt", tilt=0.0)
    noise = np.random.default_rng(9)
    frames = [np.clip(scene.image + noise.normal(0, 2, scene.image.shape), 0, 255).astype(np.uint8)
              for _ in range(12)]
    for i, image in enumerate(frames):
        camera.pipeline.process(Frame(image, i, i * 0.1))
    pending = session.snapshot()["pending"]["dice"]
    (frame_id,) = {int(d["ref"].split(":")[0]) for d in pending}
    kept = camera.teacher.latest_crops()
    assert len(kept) == len(pending) == 2
    for crop, die in zip(kept, pending, strict=True):
        assert np.array_equal(crop, corners_crop(frames[frame_id], die["box"], CROP_PX))
        assert not np.array_equal(crop, corners_crop(frames[frame_id - 1], die["box"], CROP_PX))


def test_another_dice_set_is_taught_apart_and_the_last_sets_crops_are_not_taught_as_its_faces(tmp_path):
    from vision.pipeline import Pipeline

    data = tmp_path / "data"
    colours = Classifier.load(make_tiny_model(tmp_path, dice_set="tiny-colours"))
    letters = Classifier.load(make_tiny_model(tmp_path, ["a", "b", "c"], name="letters", dice_set="letters"))
    pipeline = Pipeline(None, colours)
    teacher = Teacher(data, data / "enrol-tiny-colours.npz", pipeline)
    _, refs = tray(teacher, ["6", "6"])
    kept = teacher.keep_correction({"label": "6", "was": "1", "ref": refs[0]})
    teacher.use(data / "enrol-letters.npz", letters)
    assert pipeline.classifier is letters
    assert teacher.summary() == {"dice_set": "letters", "faces": ["a", "b", "c"], "looks": {},
                                 "taught": {"a": 0, "b": 0, "c": 0}, "goal": 10, "estimate": None,
                                 "corrections": [], "in_tray": 0}
    with pytest.raises(TeachError, match="no dice read yet"):
        teacher.teach_face("a")
    teacher.use(data / "enrol-tiny-colours.npz", colours)
    assert [c["id"] for c in teacher.corrections()] == [kept]  # kept for when those dice are played again
