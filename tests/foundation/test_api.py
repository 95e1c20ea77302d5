"""The HTTP API, served by real waitress: spectators read, PIN holders act, nothing answers 500 to bad input."""

import http.client
import json
import threading

from tests.conftest import PIN


def test_healthz_is_ok(live):
    status, body = live.client().get("/healthz")
    assert status == 200 and body["ok"] is True and body["game"]["id"] == "dice-race"


def test_state_is_readable_without_a_pin(live):
    status, body = live.client().get("/api/state")
    assert status == 200
    assert body["prompt"]["actor"] == "Ada" and body["prompt"]["phase"] == "roll"


def test_spectator_post_is_refused_and_changes_nothing(live):
    status, body = live.client().post("/api/action", {"type": "roll", "dice": ["3"]})
    assert status == 401 and "PIN" in body["error"]
    assert live.session.snapshot()["seq"] == 0


def test_post_with_the_pin_header_is_stored_before_the_answer(live):
    status, body = live.client().post("/api/action", {"type": "roll", "dice": ["3"]}, headers={"X-Table-Pin": PIN})
    assert status == 200 and body["seq"] == 1
    assert live.session.store.events(live.session.record.id)[0].payload["action"] == {"type": "roll", "dice": ["3"]}


def test_wrong_pin_header_is_refused_and_repeated_guessing_is_blocked(live):
    client = live.client()
    statuses = [client.post("/api/action", {"type": "roll", "dice": ["3"]}, headers={"X-Table-Pin": "0000"})[0]
                for _ in range(6)]
    assert statuses[:5] == [403] * 5 and statuses[5] == 429
    assert client.post("/api/action", {"type": "roll", "dice": ["3"]}, headers={"X-Table-Pin": PIN})[0] == 429


def test_browser_login_then_post_needs_the_csrf_token(live):
    browser = live.client()
    csrf = browser.login()
    refused, body = browser.post("/api/action", {"type": "roll", "dice": ["3"]})
    assert refused == 403 and "CSRF" in body["error"]
    status, body = browser.post("/api/action", {"type": "roll", "dice": ["3"]}, headers={"X-CSRF-Token": csrf})
    assert status == 200 and body["seq"] == 1


def test_login_without_csrf_token_is_refused(live):
    status, body = live.client().post("/api/login", {"pin": PIN})
    assert status == 403 and "CSRF" in body["error"]


def test_bad_json_is_answered_400_with_a_message(live):
    client = live.client()
    status, body = client.post("/api/action", raw=b"{not json", headers={"X-Table-Pin": PIN,
                                                                          "Content-Type": "application/json"})
    assert status == 400 and "not JSON" in body["error"] and body["field"] == "body"
    status, body = client.post("/api/action", [1, 2], headers={"X-Table-Pin": PIN})
    assert status == 400 and "JSON object" in body["error"]


def test_illegal_action_names_the_rule(live):
    status, body = live.client().post("/api/action", {"type": "roll", "dice": ["9"]}, headers={"X-Table-Pin": PIN})
    assert status == 409 and body["rule"] == "DR-2" and "DR-2" in body["error"]


def test_action_without_a_type_is_a_400_naming_the_field(live):
    status, body = live.client().post("/api/action", {"dice": ["3"]}, headers={"X-Table-Pin": PIN})
    assert status == 400 and body["field"] == "type"


def test_events_after_n(live):
    client = live.client()
    for face in "123":
        client.post("/api/action", {"type": "roll", "dice": [face]}, headers={"X-Table-Pin": PIN})
    status, body = client.get("/api/events?after=1")
    assert status == 200 and [e["seq"] for e in body["events"]] == [2, 3]
    assert client.get("/api/events?after=x")[0] == 400


def test_unknown_api_path_is_json_404(live):
    status, body = live.client().get("/api/nope")
    assert status == 404 and "error" in body


def test_new_game_needs_the_pin_and_valid_options(live):
    client = live.client()
    assert client.post("/api/game", {"game": "dice-race", "options": {"players": ["a", "b"]}})[0] == 401
    status, body = client.post("/api/game", {"game": "dice-race", "options": {"players": ["a"]}},
                               headers={"X-Table-Pin": PIN})
    assert status == 409 and body["rule"] == "DR-1"
    status, body = client.post("/api/game", {"game": "nope"}, headers={"X-Table-Pin": PIN})
    assert status == 400 and "unknown game" in body["error"]
    status, body = client.post("/api/game", {"game": "dice-race", "options": {"players": ["a", "b"]}},
                               headers={"X-Table-Pin": PIN})
    assert status == 200 and live.session.record.id == body["game"]


def test_export_gives_json_lines(live):
    client = live.client()
    client.post("/api/action", {"type": "roll", "dice": ["4"]}, headers={"X-Table-Pin": PIN})
    status, text = client.get(f"/api/games/{live.session.record.id}/export")
    lines = [json.loads(line) for line in text.splitlines()]
    assert status == 200 and lines[0]["kind"] == "game" and lines[1]["payload"]["action"]["dice"] == ["4"]


def read_sse_message(response: http.client.HTTPResponse) -> dict:
    fields = {}
    while True:
        line = response.readline().decode().rstrip("\n")
        if line == "" and fields:
            return fields
        if line.startswith(":") or not line:
            continue
        key, _, value = line.partition(": ")
        fields[key] = value


def test_sse_delivers_a_new_event_to_a_connected_client(live):
    connection = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    connection.request("GET", "/api/stream")
    response = connection.getresponse()
    assert response.getheader("Content-Type").startswith("text/event-stream")
    hello = read_sse_message(response)
    assert hello["event"] == "hello"
    assert live.server.streams.count == 1

    answers = []
    poster = threading.Thread(target=lambda: answers.append(live.client().post(
        "/api/action", {"type": "roll", "dice": ["6"]}, headers={"X-Table-Pin": PIN})))
    poster.start()
    message = read_sse_message(response)
    data = json.loads(message["data"])
    assert message["event"] == "event" and message["id"] == "1"
    assert data["event"]["payload"]["action"]["dice"] == ["6"]
    assert data["state"]["view"]["players"][0]["position"] == 6
    # the message carries its own log lines, in every language: screens need not ask for the log again
    assert data["log"]["en"]["lines"][0]["text"] == "Ada moves 6 to 6"
    assert data["log"]["de"]["lines"][0]["text"] == "Ada zieht 6 nach 6"
    assert data["log"]["nl"]["seq"] == 1
    # the player's request is answered too, before the test's server stops under it
    poster.join(timeout=10)
    assert answers and answers[0][0] == 200
    connection.close()


def test_manual_dice_then_confirm_over_http(live):
    client = live.client()
    pin = {"X-Table-Pin": PIN}
    assert client.post("/api/dice", {"dice": ["9"]}, headers=pin)[0] == 400
    assert client.post("/api/dice", {"dice": ["2"]}, headers=pin)[0] == 200
    assert client.post("/api/dice/0", {"label": "6"}, headers=pin)[0] == 200
    status, body = client.post("/api/confirm", {}, headers=pin)
    assert status == 200 and body["seq"] == 1
    assert live.session.snapshot()["view"]["players"][0]["position"] == 6
