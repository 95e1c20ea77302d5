"""The stats page and its API: a loaded die is named in the player's language, typed-in rolls are said to be left
out, wins by player and every game are shown; the answer is strict JSON and the CSV one line per game."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest

from companion.session import TableSession
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer
from tests.web.conftest import shoot


def loaded_evenings(session: TableSession, games: int = 8) -> None:
    """Dice Race games whose die shows 6 half the time, every roll read by the camera; one roll typed in."""
    rng = random.Random(4)
    for number in range(games):
        session.new_game("dice-race", {"players": ["Ada", "Bo"] if number % 2 else ["Cy", "Ada"]}, seed=number)
        while not session.game.is_over(session.state):
            face = "6" if rng.random() < 0.5 else rng.choice("12345")
            session.offer_dice([{"label": face, "confidence": 0.97}], source="camera")
            session.confirm(actor="table")
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=99)
    session.offer_dice([{"label": "2", "confidence": 1.0}], source="manual")
    session.confirm(actor="table")


def strict(text: str) -> dict:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_the_stats_answer_counts_the_camera_s_rolls_and_is_strict_json(session):
    app = create_app(session, control_pin=PIN)
    client = app.test_client()
    assert not app.extensions["table_stats"].built.is_set()  # a restart does not read the log before asked
    client.get("/api/stats")
    assert app.extensions["table_stats"].built.wait(10)
    nothing = {"games": [], "players": [], "lucky": {"pips": 1, "fortune": 1, "busts": -1, "wear": -1}}
    empty = {"dice": [], "players": [], "games": [], "luck": nothing, "complete": True}
    assert strict(client.get("/api/stats").get_data(as_text=True)) == empty
    loaded_evenings(session, games=3)
    answer = strict(client.get("/api/stats").get_data(as_text=True))
    (dice,) = answer["dice"]
    assert dice["dice_set"] == "d6" and dice["typed"] == 1 and dice["titles"] == ["Dice Race"]
    counted = sum(f["count"] for f in dice["kinds"][0]["verdict"]["faces"])
    assert counted == sum(len(session.store.events(g["number"])) for g in answer["games"][1:])
    assert [g["number"] for g in answer["games"]] == [4, 3, 2, 1] and answer["games"][0]["over"] is False
    assert {p["name"] for p in answer["players"]} == {"Ada", "Bo", "Cy"}


def test_the_csv_is_one_line_per_game_as_an_attachment(session):
    client = create_app(session, control_pin=PIN).test_client()
    loaded_evenings(session, games=2)
    response = client.get("/api/stats.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["number"] for r in rows] == ["1", "2", "3"] and rows[0]["over"] == "yes" and rows[0]["winners"]


def test_the_stats_page_is_in_the_menu(session):
    client = create_app(session, control_pin=PIN).test_client()
    page = client.get("/stats", headers={"Accept-Language": "nl"}).get_data(as_text=True)
    assert 'href="/stats"' in client.get("/").get_data(as_text=True)
    assert "Zijn onze dobbelstenen eerlijk?" in page


@pytest.mark.browser
def test_the_kiosk_names_the_loaded_six_in_german_and_shows_wins_by_player(session, open_page):
    expect = pytest.importorskip("playwright.sync_api").expect
    loaded_evenings(session)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    live = LiveServer(session, server)
    try:
        errors: list[str] = []
        page = open_page(f"http://127.0.0.1:{live.port}/stats?kiosk=1", locale="de-DE", viewport=(1280, 800))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        kind = page.locator('.dice-set[data-dice-set="d6"] .dice-kind')
        expect(kind.locator(".face-row")).to_have_count(6)
        expect(kind.locator('.face-row[data-face="6"]')).to_have_class("face-row out")
        expect(kind.locator(".verdict")).to_have_text(
            re.compile(r"^\d+ Würfe: 6 fällt zu oft, p (= 0,\d+|< 0,0001)$"))
        expect(page.locator("#stats-dice")).to_contain_text("1 von Hand eingetippter Würfel zählt nicht.")
        expect(page.locator("#stats-dice")).to_contain_text("Es zählen nur Würfe, die die Kamera gelesen")
        expect(page.locator("#players .player-row")).to_have_count(3)
        expect(page.locator("#games tbody tr")).to_have_count(9)
        # readable from a chair: the chart's text is drawn at least 18 px high on the kiosk
        height = page.evaluate("document.querySelector('.histogram .label').getBoundingClientRect().height")
        assert height >= 18
        assert float(page.evaluate("getComputedStyle(document.querySelector('.verdict')).fontSize")[:-2]) >= 18
        assert "{" not in page.locator("main").inner_text()
        shoot(page, "stats-kiosk", full_page=True)
        page.locator('[data-lang="en"]').click()
        expect(kind.locator(".verdict")).to_contain_text("rolls: the 6 comes up too often, p ")
        expect(page.locator("#players")).to_contain_text("wins in")
        assert errors == []
    finally:
        session.broker.close()
        server.stop()
