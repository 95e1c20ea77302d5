"""The teach page in Chromium: show a face to the camera and tap it; learn or throw away corrected dice."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import expect

from companion.games.cubitos.present import face_marks
from companion.teach import Teacher
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer
from tests.models.model_fixtures import shipped_card
from tests.vision.conftest import make_tiny_model
from tests.web.conftest import shoot
from vision.classify import Classifier
from vision.synth import render_scene

LEARN_MS = 30_000  # learning fits the head and renders its anchors: seconds on a loaded machine


@pytest.fixture
def teaching_table(session, tmp_path) -> Iterator[Any]:
    """A table whose camera has just read three dice showing 4, one of them corrected from a misread."""
    teacher = Teacher(tmp_path / "data", tmp_path / "data" / "enrol-d6.npz",
                      SimpleNamespace(classifier=Classifier.load(make_tiny_model(tmp_path))))
    scene = render_scene(["4", "4", "4"], "d6", np.random.default_rng(5))
    refs = teacher.keep_reading(1, scene.image, [d.box for d in scene.dice])
    teacher.keep_correction({"label": "4", "was": "1", "ref": refs[0], "corrected_by": "table"})
    app = create_app(session, control_pin=PIN)
    app.extensions["camera"] = SimpleNamespace(teacher=teacher, status=lambda: {"state": "ok"})
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    yield SimpleNamespace(live=LiveServer(session, server), teacher=teacher)
    session.broker.close()
    server.stop()


def test_tapping_a_face_teaches_the_dice_in_the_tray(teaching_table, open_page):
    page = open_page(f"http://127.0.0.1:{teaching_table.live.port}/teach", control=True)
    expect(page.locator("#teach-tray")).to_have_text("Dice in the tray now: 3")
    expect(page.locator(".correction figcaption")).to_have_text("1 → 4")
    page.wait_for_function("document.querySelector('.correction img').naturalWidth === 64")
    shoot(page, "teach")
    page.click(".face-button[data-face='4']")
    expect(page.locator("#teach-result")).to_have_text("Learnt 3 dice showing 4.", timeout=LEARN_MS)
    expect(page.locator(".taught-count[data-face='4']")).to_have_text("3 of 10 taught")
    assert teaching_table.teacher.enrolment().counts()["4"] == 3


def test_corrections_are_learnt_with_one_tap(teaching_table, open_page):
    page = open_page(f"http://127.0.0.1:{teaching_table.live.port}/teach", control=True)
    page.click("#learn-all")
    expect(page.locator("#teach-result")).to_have_text("Learnt 1 corrected die.", timeout=LEARN_MS)
    expect(page.locator("#corrections")).to_have_text("No corrections kept.")
    expect(page.locator(".taught-count[data-face='4']")).to_have_text("1 of 10 taught")


@pytest.fixture
def teaching_set(session, tmp_path) -> Iterator[Any]:
    """``teaching_set(dice_set)``: the teach page of a table whose camera reads that set with its shipped model."""
    servers = []

    def start(dice_set: str) -> int:
        teacher = Teacher(tmp_path / dice_set, tmp_path / dice_set / f"enrol-{dice_set}.npz",
                          SimpleNamespace(classifier=Classifier.load(shipped_card(dice_set))))
        app = create_app(session, control_pin=PIN)
        app.extensions["camera"] = SimpleNamespace(teacher=teacher, status=lambda: {"state": "ok"})
        servers.append(Server(app, host="127.0.0.1", port=0, threads=8).start())
        return servers[-1].port

    yield start
    session.broker.close()
    for server in servers:
        server.stop()


def test_cubitos_faces_are_shown_in_their_die_colour_with_translated_names(teaching_set, open_page):
    port = teaching_set("cubitos")
    page = open_page(f"http://127.0.0.1:{port}/teach", locale="de-DE")
    expect(page.locator(".teach-face")).to_have_count(33)
    expect(page.locator(".face-name[data-face='grey_light/coin1']")).to_have_text("hellgrau: 1 Münze")
    assert page.locator(".face-button[data-face='red/team'] rect").get_attribute("fill") == "#c8282d"
    assert page.locator(".face-button[data-face='red/team'] text").all_text_contents() == ["†", "★"]
    assert page.locator(".face-button[data-face='lead/coin2'] text").all_text_contents() == ["2●"]
    # every face with the marks the table's Cubitos dice show (the game's own drawing, not a copy)
    drawn = page.locator(".face-button").evaluate_all(
        "buttons => buttons.map((b) => [b.dataset.face, [...b.querySelectorAll('text')].map((t) => t.textContent)])")
    assert drawn == [[face, [m["text"] for m in face_marks(face)]] for face, _ in drawn]
    expect(page.locator("#teach-progress")).to_have_text("Gelernte Seiten: 0 von 33")
    shoot(page, "teach-cubitos")


def test_automobiles_cubes_are_shown_as_their_colours_with_translated_names(teaching_set, open_page):
    port = teaching_set("automobiles")
    page = open_page(f"http://127.0.0.1:{port}/teach", locale="nl-NL")
    expect(page.locator(".teach-face")).to_have_count(10)
    expect(page.locator(".face-name[data-face='light_grey']")).to_have_text("lichtgrijs")
    fills = page.locator(".face-button rect").evaluate_all("nodes => nodes.map((n) => n.getAttribute('fill'))")
    assert len(set(fills)) == 10  # every colour its own
    assert page.locator(".face-button text").count() == 0  # a plain cube: no clipped raw id on it


def test_a_spectator_is_asked_for_the_pin(teaching_table, open_page):
    page = open_page(f"http://127.0.0.1:{teaching_table.live.port}/teach")
    page.click(".face-button[data-face='4']")
    expect(page.locator("#login")).to_be_visible()
    assert teaching_table.teacher.summary()["taught"]["4"] == 0


def test_the_table_says_a_corrected_camera_die_is_kept_for_teaching(session, open_page):
    from tests.web.conftest import start_race

    start_race(session)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    try:
        session.offer_dice([{"label": "drive", "confidence": 0.97, "ref": "3:0"},
                            {"label": "fortune", "confidence": 0.5, "ref": "3:1"}])
        session.correct_die(1, "steer", actor="table")
        page = open_page(f"http://127.0.0.1:{server.port}/", control=True)
        expect(page.locator("#pending .die.corrected .tag")).to_have_text("set by hand · kept for Teach")
        session.offer_dice([{"label": "fortune", "confidence": 0.5}])  # no crop to keep
        session.correct_die(0, "steer", actor="table")
        expect(page.locator("#pending .die.corrected .tag")).to_have_text("set by hand")
    finally:
        session.broker.close()
        server.stop()


def test_face_looks_give_cubitos_types_and_automobiles_cubes_their_colours_and_their_game_s_marks():
    from companion.teach import face_looks

    cubitos = face_looks("cubitos", ["red/team", "lead/coin2", "white/blank"])
    assert cubitos["red/team"] == {"marks": [{"kind": "sword", "text": "†"}, {"kind": "team", "text": "★"}],
                                   "body": "#c8282d", "ink": "#f5f5f5"}
    assert cubitos["lead/coin2"]["marks"] == [{"kind": "coin", "text": "2●"}] and cubitos["white/blank"]["marks"] == []
    assert face_looks("automobiles", ["black"])["black"]["marks"] == []  # a plain cube
    assert "body" not in face_looks("d6", ["3"])["3"]  # any colour: the page draws a plain die with pips
    assert face_looks("a set the renderer does not know", ["x"]) == {}
