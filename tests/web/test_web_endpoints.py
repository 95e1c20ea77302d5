"""The page routes and page endpoints with Flask's test client: layout, log, virtual buttons, camera, kiosk PIN."""

from __future__ import annotations

import pytest

from companion.controls import PressOutcome
from companion.games.chariot_race.board import load_board
from companion.games.chariot_race.present import board_layout
from companion.web import create_app
from tests.conftest import PIN
from tests.web.conftest import FakeCamera, start_race


class Buttons:
    def __init__(self) -> None:
        self.presses: list[tuple[str, bool]] = []

    def press(self, name: str, *, hold: bool = False, seen: tuple = (None, None)) -> PressOutcome:
        self.presses.append((name, hold))
        return PressOutcome(name, "long" if hold else "short", "test", True, "pressed")


@pytest.fixture
def app(session):
    start_race(session)
    return create_app(session, control_pin=PIN)


def controller(app):
    client = app.test_client()
    csrf = client.get("/api/whoami").get_json()["csrf"]
    assert client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf}).status_code == 200
    client.environ_base["HTTP_X_CSRF_TOKEN"] = csrf
    return client


def test_the_pages_render_for_everyone(app):
    client = app.test_client()
    for path in ("/?kiosk=0", "/new", "/camera"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert b'id="catalog"' in answer.data


def test_the_pin_shows_only_on_the_kiosk_screen_of_the_pi(app):
    client = app.test_client()
    assert f'data-pin="{PIN}"'.encode() in client.get("/").data  # the test client comes from 127.0.0.1
    assert PIN.encode() not in client.get("/?kiosk=0").data
    tablet = {"REMOTE_ADDR": "192.168.1.20"}
    assert PIN.encode() not in client.get("/", environ_base=tablet).data
    assert PIN.encode() not in client.get("/?kiosk=1", environ_base=tablet).data
    assert b"kiosk" in client.get("/?kiosk=1", environ_base=tablet).data


def test_the_page_speaks_the_browsers_language_or_the_chosen_one(app):
    client = app.test_client()
    assert b'<html lang="nl">' in client.get("/?kiosk=0", headers={"Accept-Language": "nl-BE,nl;q=0.9"}).data
    client.set_cookie("lang", "de")
    assert b'<html lang="de">' in client.get("/?kiosk=0", headers={"Accept-Language": "nl"}).data
    assert client.get("/i18n/nl.json").get_json()["ui"]["undo"] == "Ongedaan maken"
    assert client.get("/i18n/fr.json").status_code == 404


def test_the_layout_draws_every_space_of_the_board(app):
    layout = app.test_client().get("/api/layout").get_json()
    assert layout["game"] == "chariot-race"
    board = layout["board"]
    assert len(board["spaces"]) == len(load_board("A").ids)
    first = next(s for s in board["spaces"] if s["id"] == "L0-01")
    assert first["start"] == 1 and first["ahead"] == "L0-02" and first["out"] == "L1-02" and first["in"] is None
    assert len(first["points"]) == 6
    assert {s["max_speed"] for s in board["spaces"] if "max_speed" in s} == {3, 4, 5, 6, 7, 8}
    assert layout["chariot_boards"]["standard"]["dice_by_speed"][6] == 4
    assert set(layout["faces"]) == {"drive", "gallop", "steer", "attack", "fortune"}


def test_the_lane_change_targets_match_the_rules():
    board = load_board("B")
    layout = board_layout(board)
    for space in layout["spaces"]:
        k = board.index[space["id"]]
        for key, targets in (("in", board.inward), ("out", board.outward), ("ahead", board.ahead)):
            expected = None if targets[k] == -1 else board.ids[targets[k]]
            assert space[key] == expected, (space["id"], key)
    assert sum(1 for s in layout["spaces"] if s.get("rocks")) == 3


def test_no_game_no_layout(session):
    app = create_app(session, control_pin=PIN)
    assert app.test_client().get("/api/layout").get_json()["game"] is None
    assert app.test_client().get("/api/log").get_json() == {"game": None, "entries": []}


def test_the_log_in_a_language_and_after_a_seq(app, session):
    session.act({"type": "roll", "roll": 4, "dice": ["drive", "steer", "steer", "fortune"]}, actor="green")
    session.act({"type": "done"}, actor="green")
    client = app.test_client()
    answer = client.get("/api/log?lang=de").get_json()
    assert answer["entries"][0]["lines"][0]["text"] == "Julia würfelt Fahren, Lenken, Lenken, Fortuna"
    assert [e["seq"] for e in client.get("/api/log?lang=en&after=1").get_json()["entries"]] == [2]
    assert client.get("/api/log?lang=fr").status_code == 400
    session.undo(actor="table")
    assert client.get("/api/log?lang=en&after=2").get_json()["undone"] == [2]


def test_virtual_buttons_need_control_and_do_what_the_wired_ones_do(app, session):
    assert app.test_client().post("/api/buttons/confirm", json={}).status_code == 401
    client = controller(app)
    assert client.post("/api/buttons/confirm", json={}).status_code == 409  # no dice read yet
    session.offer_dice([{"label": "drive", "confidence": 0.99}] * 4)
    assert client.post("/api/buttons/confirm", json={}).status_code == 200
    assert session.snapshot()["prompt"]["phase"] == "reroll"
    assert client.post("/api/buttons/next", json={}).status_code == 200
    assert session.snapshot()["prompt"]["cursor"] == 1
    hint = client.post("/api/buttons/back", json={})
    assert hint.status_code == 200 and hint.get_json()["outcome"]["action"] == "hint"
    assert session.snapshot()["prompt"]["phase"] == "reroll"  # a brushed back button undoes nothing
    assert client.post("/api/buttons/back", json={"hold": True}).status_code == 200
    assert session.snapshot()["prompt"]["phase"] == "roll"
    assert client.post("/api/buttons/jump", json={}).status_code == 404


def test_virtual_buttons_go_through_the_button_driver_when_there_is_one(app):
    app.extensions["buttons"] = buttons = Buttons()
    client = controller(app)
    client.post("/api/buttons/back", json={"hold": True})
    client.post("/api/buttons/next", json={})
    assert buttons.presses == [("back", True), ("next", False)]


def test_camera_status_stream_and_calibration(app):
    client = app.test_client()
    assert client.get("/api/camera").get_json() == {"present": False, "state": "off"}
    assert client.get("/camera.mjpg").status_code == 404
    assert controller(app).post("/api/calibrate", json={}).status_code == 409
    app.extensions["camera"] = camera = FakeCamera()
    assert client.get("/api/camera").get_json() == {"present": True, "state": "ok", "source": "synthetic"}
    assert client.post("/api/calibrate", json={}).status_code == 401
    answer = controller(app).post("/api/calibrate", json={})
    assert answer.get_json()["summary"]["background"] == "learned" and camera.calibrations == 1
    stream = client.get("/camera.mjpg", buffered=False)
    assert stream.mimetype == "multipart/x-mixed-replace"
    chunks = iter(stream.response)
    assert next(chunks) == b"--frame\r\n"
    frame = next(chunks)
    stream.close()
    assert frame.startswith(b"Content-Type: image/jpeg") and b"\xff\xd8" in frame
    assert frame.endswith(b"\r\n--frame\r\n")
