"""What a table reads from its chairs, measured in Debian's Chromium at the kiosk's, a tablet's and a phone's size:
messages that cover no control, texts in the player's language, spectators without controls, and sizes readable from
two metres (computed font sizes and bounding boxes of named elements)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

KIOSK, TABLET, PHONE = (1280, 800), (1024, 768), (390, 844)

BOXES = """(selector) => [...document.querySelectorAll(selector)].filter((node) => node.offsetParent !== null)
  .map((node) => { const r = node.getBoundingClientRect();
    return {x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height, id: node.id, text: node.textContent}; })"""


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """The page boxes of every visible element matching ``selector``."""
    return page.evaluate(BOXES, selector)


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a[
        "h"]


def play_a_roll_with_forced_lines(session) -> None:
    """Julia rolls two fortune faces (each a forced "gains fortune" line), keeps her dice and spends nothing."""
    session.act({"type": "roll", "dice": ["fortune", "fortune", "drive", "gallop"]}, actor="green")
    session.act({"type": "done"}, actor="green")
    session.act({"type": "done"}, actor="green")


@pytest.mark.parametrize("viewport", [KIOSK, TABLET, PHONE])
def test_messages_keep_their_place_and_cover_no_control(race, open_page, viewport):
    page = open_page(f"http://127.0.0.1:{race.port}/", control=True, viewport=viewport)
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    [before] = boxes(page, "#just-now")
    play_a_roll_with_forced_lines(race.session)
    expect(page.locator("#prompt")).to_have_text("Julia: Speed")
    expect(page.locator("#just-now .line.forced").first).to_be_visible()
    [after] = boxes(page, "#just-now")
    assert (after["y"], after["h"]) == (before["y"], before["h"])  # it pushed nothing
    assert page.locator("#just-now .line").count() <= 2
    assert page.locator(".toast, #toasts").count() == 0
    controls = boxes(page, "button, a, input, summary, #track .dest, #track [data-chariot]")
    assert controls and not [c for c in controls if overlaps(after, c)]


def test_a_wrong_pin_is_said_in_german(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/", locale="de-DE", viewport=PHONE)
    page.click("#login-open")
    page.fill("input[name=pin]", "0000")
    page.click("#login button")
    expect(page.locator("#login-error")).to_have_text("Falsche Tisch-PIN.")


def test_start_waits_for_a_set_up_that_can_be_played_and_says_why_in_dutch(empty_table, open_page):
    page = open_page(f"http://127.0.0.1:{empty_table.port}/new", control=True, locale="nl-NL", viewport=PHONE)
    start = page.locator("#start-game")
    expect(start).to_be_enabled()
    page.fill("input[name=player-0]", "Anna")
    page.fill("input[name=player-1]", "anna ")
    expect(start).to_be_disabled()
    expect(page.locator("#setup-problem")).to_have_text(
        "Twee spelers hebben dezelfde naam (Anna): het logboek kan ze niet uit elkaar houden.")
    page.fill("input[name=player-1]", "Ben")
    expect(start).to_be_enabled()
    page.check("input[name=start][value=chosen]")  # two players: two chariots each, all four need a place
    expect(start).to_be_disabled()
    expect(page.locator("#setup-problem")).to_have_text("Tik nog 4 wagens zonder startpositie aan.")
    for chariot in ("green", "red", "green-2"):
        page.click(f"#start-order [data-chariot={chariot}]")
    expect(page.locator("#setup-problem")).to_have_text("Tik nog 1 wagen zonder startpositie aan.")
    page.click("#start-order [data-chariot=red-2]")
    expect(start).to_be_enabled()
    start.click()
    page.wait_for_url("**/")
    assert empty_table.session.snapshot()["game"]["id"] == "chariot-race"


CONTROLS = "#turn button:not(.take-control), #turn details, #turn input, #log button"


@pytest.mark.parametrize("viewport", [KIOSK, TABLET, PHONE])
def test_a_spectator_sees_no_control_and_is_one_tap_from_the_pin(race, open_page, viewport):
    session = race.session
    page = open_page(f"http://127.0.0.1:{race.port}/", viewport=viewport)
    expect(page.locator(".roll-box")).to_contain_text("Roll 4 dice")  # the roll: no palette, no confirm
    assert boxes(page, CONTROLS) == []
    session.act({"type": "roll", "dice": ["fortune", "drive", "steer", "gallop"]}, actor="green")
    expect(page.locator("#current-dice .die")).to_have_count(4)  # the free reroll: the dice, no "Keep the dice"
    assert boxes(page, CONTROLS) == []
    page.click("#take-control")
    expect(page.locator("#login input[name=pin]")).to_be_focused()
    page.fill("#login input[name=pin]", "2468")
    page.press("#login input[name=pin]", "Enter")
    expect(page.locator("#role")).to_have_text("control")
    expect(page.locator("button.option:has-text('Keep the dice')")).to_be_visible()


def test_dice_typed_in_say_by_hand_and_back_asks_before_it_undoes(race, open_page):
    session = race.session
    page = open_page(f"http://127.0.0.1:{race.port}/", control=True, viewport=TABLET)
    for face in ("steer", "steer", "drive", "fortune"):
        page.click(f".manual .palette [data-face={face}]")
    expect(page.locator("#pending .die")).to_have_count(4)
    expect(page.locator("#pending .die").first).to_contain_text("by hand")
    expect(page.locator("#pending")).not_to_contain_text("%")
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    seq = session.snapshot()["seq"]
    page.click("#button-back")
    expect(page.locator("#button-back")).to_contain_text("Tap again to undo")
    assert session.snapshot()["seq"] == seq  # one tap took nothing back
    page.click("#button-back")
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")


def test_a_table_with_a_camera_says_the_dice_can_be_typed_in(empty_table, open_page):
    from tests.web.conftest import start_race

    start_race(empty_table.session)
    page = open_page(f"http://127.0.0.1:{empty_table.port}/", control=True, viewport=PHONE)
    expect(page.locator(".roll-box .waiting")).to_have_text("Waiting for the camera… or enter the faces by hand below.")


def test_a_wrecks_caltrop_under_a_standing_chariot_is_drawn_beside_it(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/", viewport=KIOSK)
    expect(page.locator("#overlay [data-chariot=green]")).to_be_visible()
    # A ram that wrecks the rammed chariot leaves its caltrop under the rammer (CR-18, CR-22): drawn from that view.
    space = page.evaluate("""() => { const julia = S.state.view.chariots.find((c) => c.id === "green");
      S.state.view.caltrops = [...(S.state.view.caltrops || []), julia.space]; render(); return julia.space; }""")
    mark = page.locator(f"#overlay .caltrop-beside[data-caltrop='{space}']")
    expect(mark).to_be_visible()
    [token] = boxes(page, "#overlay [data-chariot=green] .body")
    [beside] = boxes(page, f"#overlay .caltrop-beside[data-caltrop='{space}']")
    inside = (token["x"] <= beside["x"] and beside["x"] + beside["w"] <= token["x"] + token["w"]
              and token["y"] <= beside["y"] and beside["y"] + beside["h"] <= token["y"] + token["h"])
    assert beside["w"] >= 8 and not inside  # drawn on top, and not hidden within the token


def test_a_game_without_a_browser_module_names_its_columns_in_the_players_language(live, open_page):
    page = open_page(f"http://127.0.0.1:{live.port}/", locale="de-DE", viewport=PHONE)
    expect(page.locator("#view th")).to_have_text(["Spieler", "Feld"])


def test_on_a_phone_the_pages_links_open_from_the_menu(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", viewport=PHONE)
    expect(page.locator("#menu-links a[href='/new']")).to_be_hidden()
    page.click(".menu-toggle")
    expect(page.locator(".menu-toggle")).to_have_attribute("aria-expanded", "true")
    page.click("#menu-links a[href='/new']")
    page.wait_for_url("**/new")


def test_the_kiosks_pin_field_opens_within_the_screen(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=1", locale="de-DE", viewport=KIOSK)
    [bar] = boxes(page, ".topbar")
    page.click("#login-open")
    expect(page.locator("#login input[name=pin]")).to_be_focused()
    assert page.evaluate("document.documentElement.scrollWidth") <= KIOSK[0]
    assert bar["h"] < 80  # one row until the field opens


def test_an_armed_back_asks_again_once_the_table_has_moved_on(race, open_page):
    session = race.session
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True, viewport=TABLET)
    session.act({"type": "roll", "dice": ["drive", "drive", "steer", "steer"]}, actor="green")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    page.click("#button-back")
    expect(page.locator("#button-back")).to_contain_text("Tap again to undo")
    session.act({"type": "done"}, actor="green")  # another tablet keeps the dice
    expect(page.locator("#prompt")).to_have_text("Julia: Fortune")
    expect(page.locator("#button-back")).not_to_contain_text("Tap again to undo")
    seq = session.snapshot()["seq"]
    page.click("#button-back")
    expect(page.locator("#button-back")).to_contain_text("Tap again to undo")
    page.wait_for_timeout(300)
    assert session.snapshot()["seq"] == seq  # asked again instead of undoing what it was not asked about


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_the_header_of_a_finished_race_overlaps_nothing_at_1280(race, open_page, locale):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", locale=locale, viewport=(1280, 800))
    expect(page.locator("#turn-banner .round")).to_be_visible()  # "Runde 1" ran under "Tisch"
    parts = boxes(page, ".topbar > *:not(#turn-banner), #turn-banner > *")
    assert not [(a["text"], b["text"]) for k, a in enumerate(parts) for b in parts[k + 1:] if overlaps(a, b)]
    # the race over without a winner, as the screens draw it ("The race is over: no winner." ran under "Table")
    page.evaluate("() => { S.state.game.over = true; S.state.view.winner = null; render(); }")
    expect(page.locator("#turn-banner .winner")).to_be_visible()
    parts = boxes(page, ".topbar > *:not(#turn-banner), #turn-banner > *")
    assert not [(a["text"], b["text"]) for k, a in enumerate(parts) for b in parts[k + 1:] if overlaps(a, b)]
