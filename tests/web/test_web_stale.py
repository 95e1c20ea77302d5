"""In Chromium: a tablet that tapped on a table that has since moved on is told so and nothing happens; the green
Confirm after a hand-entered reroll rerolls."""

from __future__ import annotations

import pytest

from companion.web.server import Server
from tests.conftest import PIN, LiveServer

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

ROLL = ["drive", "steer", "steer", "fortune"]


@pytest.fixture
def race_with_buttons(session):
    """A Chariot Race at Julia's free reroll, with the virtual buttons on gpiozero's mock pins (as the demo)."""
    from companion.config import ButtonsConfig
    from companion.controls import attach
    from companion.web import create_app
    from tests.web.conftest import start_race

    start_race(session)
    session.act({"type": "roll", "dice": ROLL}, actor="green")
    controls = attach(session, ButtonsConfig(pin_factory="mock"), strict=True)
    app = create_app(session, control_pin=PIN)
    app.extensions["buttons"] = controls
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    yield LiveServer(session, server)
    session.broker.close()
    server.stop()
    controls.close()


def test_the_green_confirm_after_a_hand_entered_reroll_keeps_the_reroll(race_with_buttons, open_page):
    session = race_with_buttons.session
    page = open_page(f"http://127.0.0.1:{race_with_buttons.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    page.click("#current-dice .die[data-index='0']")
    expect(page.locator("#button-confirm .what")).to_contain_text("1")  # the highlight follows the selection
    page.click(".manual .palette [data-face=gallop]")
    expect(page.locator("#pending .die")).to_have_count(1)
    page.click("#button-confirm")
    expect(page.locator("#prompt")).not_to_have_text("Julia: Free reroll")
    assert session.events()[-1].payload["action"] == {"type": "reroll", "reroll": [0], "dice": ["gallop"]}
    assert session.snapshot()["view"]["dice"][0] == "gallop"


def test_a_tap_on_a_table_that_moved_on_is_refused_and_said_so(race_with_buttons, open_page):
    session = race_with_buttons.session
    page = open_page(f"http://127.0.0.1:{race_with_buttons.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    page.evaluate("S.source.close()")  # this tablet stops hearing the table, as a slow one would
    session.act({"type": "done"}, actor="green")  # another tablet keeps the dice
    events = len(session.events())
    page.click("#turn .choices button.primary")  # "Keep the dice", on the screen it still shows
    expect(page.locator("#action-error")).to_have_text(
        "The table moved on before your tap arrived: nothing was changed. Look again and choose.")
    assert len(session.events()) == events
