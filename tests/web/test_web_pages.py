"""The other screens in Chromium: a new game set up through the UI, three languages, the kiosk with its PIN, the
camera page with its calibration wizard, and a table screen that heals itself after the server restarts."""

from __future__ import annotations

import pytest

from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN
from tests.web.conftest import shoot, start_race

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def test_a_four_player_race_is_set_up_through_the_new_game_screen(empty_table, open_page):
    page = open_page(f"http://127.0.0.1:{empty_table.port}/new?kiosk=0", control=True)
    page.click("#add-player")
    page.click("#add-player")
    for k, name in enumerate(["Julia", "Klaus", "Ben", "Heidi"]):
        page.fill(f"input[name=player-{k}]", name)
    page.click("[data-player='1'] [data-colour=purple]")
    page.check("input[name=board][value=B]")
    page.check("input[name=no_damage_after_finish]")
    page.check("input[name=start][value=chosen]")
    for chariot in ("yellow", "blue", "purple", "green"):
        page.click(f"#start-order [data-chariot={chariot}]")
    expect(page.locator("#start-order-hint")).to_contain_text("1 Heidi, 2 Ben, 3 Klaus, 4 Julia")
    expect(page.locator(".seat-kind")).to_have_count(0)  # no bots at this table: every seat is a person's
    shoot(page, "new-game", full_page=True)
    page.click("#start-game")

    page.wait_for_url(f"http://127.0.0.1:{empty_table.port}/")
    expect(page.locator("#prompt")).to_have_text("Heidi: Roll")
    expect(page.locator("#track .space.rocks")).to_have_count(3)
    expect(page.locator("#setup-card li")).to_have_count(4)
    expect(page.locator("#setup-card")).to_contain_text("Start 2: Ben → L1-01")
    options = empty_table.session.record.options
    assert options["players"][1] == {"name": "Klaus", "colour": "purple"}
    assert options["board"] == "B" and options["variants"]["no_damage_after_finish"] is True
    assert options["start"] == {"order": ["yellow", "blue", "purple", "green"]}
    shoot(page, "table-start-board-b")


def test_under_the_demo_s_bots_each_seat_is_chosen_person_or_bot_and_only_bots_move_theirs(tmp_path, open_page):
    from companion import runtime
    from companion.config import demo_config

    companion = runtime.build(demo_config(tmp_path / "data", port=0, pin=PIN))
    companion.server.start()
    runtime.start_bots(companion, seed=1, delay=0.05)
    try:
        page = open_page(f"{companion.url}new?kiosk=0", control=True, locale="nl-NL")
        # The form starts from the last set-up: the demo's four bots; two seats go, the first becomes a person's.
        expect(page.locator("#new-game")).to_have_attribute("data-last-setup", "loaded")
        expect(page.locator("[data-player='3'] [data-kind=bot]")).to_have_attribute("aria-pressed", "true")
        page.click("[data-player='3'] button.quiet")
        page.click("[data-player='2'] button.quiet")
        page.click("[data-player='0'] [data-kind=person]")
        seat = page.locator("[data-player='0'] .seat-kind")
        expect(seat).to_have_attribute("aria-label", "Wie speelt op deze plaats")
        expect(page.locator("[data-player='0'] [data-kind=person]")).to_have_attribute("aria-pressed", "true")
        page.fill("input[name=player-0]", "Ada")
        page.fill("input[name=player-1]", "Bea")
        page.click("[data-player='1'] [data-kind=bot]")
        expect(page.locator("[data-player='1'] [data-kind=bot]")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("[data-player='1'] [data-kind=bot]")).to_have_text("Bot")
        box = page.locator("[data-player='1'] [data-kind=bot]").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44  # thumb-sized
        page.click("#start-game")
        page.click("#replace-confirm")  # the bots' game stays in the games list
        page.wait_for_url(companion.url)
        record = companion.session.record
        assert [(p["name"], p["bot"]) for p in record.options["players"]] == [("Ada", False), ("Bea", True)]
        expect(page.locator("#prompt")).to_contain_text("Ada", timeout=20_000)  # after any turns of Bea's bot
        events = companion.session.events()
        assert all(e.actor in ("red", "red-2") and e.payload["source"] == "bot" for e in events)
    finally:
        companion.stop()


def test_a_spectator_cannot_start_a_game(empty_table, open_page):
    page = open_page(f"http://127.0.0.1:{empty_table.port}/new?kiosk=0")
    page.fill("input[name=player-0]", "Eve")
    page.click("#start-game")
    expect(page.locator("#setup-error")).to_contain_text("You are watching")
    assert empty_table.session.game is None


def test_language_follows_the_browser_and_can_be_switched(race, open_page):
    race.session.act({"type": "roll", "roll": 4, "dice": ["drive", "steer", "steer", "fortune"]}, actor="green")
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", locale="de-DE")
    expect(page.locator("#prompt")).to_have_text("Julia: Freier Wurf")
    expect(page.locator("#events")).to_contain_text("Julia würfelt Fahren, Lenken, Lenken, Fortuna")
    expect(page.locator(".chariot-card[data-chariot=green] .track-label").first).to_contain_text("Schaden")
    page.click("[data-lang=nl]")
    expect(page.locator("#prompt")).to_have_text("Julia: Gratis worp")
    expect(page.locator("#events")).to_contain_text("Julia gooit Rijden, Sturen, Sturen, Fortuna")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    page.reload()
    expect(page.locator("#prompt")).to_have_text("Julia: Gratis worp")
    page.click("[data-lang=en]")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")


def test_the_kiosk_shows_the_pin_and_other_screens_do_not(race, open_page):
    kiosk = open_page(f"http://127.0.0.1:{race.port}/", locale="de-DE", viewport=(1280, 800))
    expect(kiosk.locator("#kiosk-pin")).to_have_text(f"PIN zum Steuern: {PIN}")
    expect(kiosk.locator("body")).to_contain_class("kiosk")
    shoot(kiosk, "kiosk-de")
    tablet = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0")
    expect(tablet.locator("#kiosk-pin")).to_have_count(0)
    assert PIN not in tablet.content()


def test_the_camera_page_streams_and_calibrates(empty_table, open_page):
    page = open_page(f"http://127.0.0.1:{empty_table.port}/camera", control=True)
    expect(page.locator("#camera-status")).to_have_text("Camera: ok")
    page.wait_for_function("document.getElementById('camera-frame').naturalWidth > 0")
    page.click("#calibrate")
    expect(page.locator("#calibrate-result")).to_contain_text("Tray learned: background: learned")
    assert empty_table.camera.calibrations == 1
    shoot(page, "camera")


def test_the_table_screen_recovers_after_the_server_restarts(session, open_page):
    start_race(session)
    app = create_app(session, control_pin=PIN, secret_key="steady")
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    port = server.port
    page = open_page(f"http://127.0.0.1:{port}/?kiosk=0")
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    session.broker.close()  # as the companion stops: the streams end, then the server goes
    server.stop()
    for channel in list(server._server._map.values()):  # and the process with it: its sockets close
        channel.close()
    expect(page.locator("#connection")).to_have_class("badge down")
    session.act({"type": "roll", "roll": 4, "dice": ["drive", "steer", "steer", "fortune"]}, actor="green")
    again = Server(create_app(session, control_pin=PIN, secret_key="steady"), host="127.0.0.1", port=port,
                   threads=8).start()
    try:
        expect(page.locator("#connection")).to_have_class("badge live", timeout=15000)
        expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
        expect(page.locator("#events li")).to_have_count(1)
    finally:
        session.broker.close()
        again.stop()


def test_no_game_and_no_camera(empty_table, open_page):
    page = open_page(f"http://127.0.0.1:{empty_table.port}/?kiosk=0")
    expect(page.locator("#prompt")).to_have_text("No game is being played.")
    expect(page.locator("#turn-body a[href='/new']")).to_be_visible()


def test_without_a_camera_the_camera_page_says_so(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/camera")
    expect(page.locator("#camera-none")).to_contain_text("No camera is connected")
    expect(page.locator("#camera-frame")).to_have_count(0)
