"""The game log's trouble on the screens, in Chromium: a damaged log moved aside at the start, a full card."""

from __future__ import annotations

import pytest

from companion import runtime
from companion.config import demo_config
from tests.conftest import PIN
from tests.foundation.test_data_folder import a_season, damage

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def test_the_kiosk_says_the_damaged_log_was_moved_aside_and_a_new_one_started(tmp_path, open_page):
    a_season(tmp_path / "data" / "events.sqlite3")
    damage(tmp_path / "data" / "events.sqlite3")
    companion = runtime.build(demo_config(tmp_path / "data", port=0, pin=PIN), devices=False)
    companion.server.start()
    try:
        moved = companion.session.status()["store"]["file"]
        page = open_page(f"{companion.url}?kiosk=1", locale="de-DE")
        expect(page.locator("#store-alert")).to_be_visible()
        expect(page.locator("#store-alert")).to_contain_text("beiseitegelegt; ein neues Protokoll")
        expect(page.locator("#store-alert")).to_contain_text(moved)
    finally:
        companion.stop()


def test_a_full_card_is_said_on_the_table_until_a_move_is_stored_again(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)
    expect(page.locator("#store-alert")).to_be_hidden()
    db = race.session.store._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    client = race.client()
    roll, undo = {"type": "roll", "dice": ["drive"] * 4, "actor": "x" * 60}, {"type": "undo"}
    refused = None
    for _ in range(500):  # rolled and taken back until the card has no room
        for body in (roll, undo):
            status, answer = client.post("/api/action", body, headers={"X-Table-Pin": PIN})
            if status != 200:
                refused = body
                break
        if refused:
            break
    assert (status, answer["code"]) == (507, "disk_full")
    expect(page.locator("#store-alert")).to_contain_text("The storage card is full")
    db.execute(f"PRAGMA max_page_count = {pages + 1000}")
    assert client.post("/api/action", refused, headers={"X-Table-Pin": PIN})[0] == 200
    expect(page.locator("#store-alert")).to_be_hidden()
