"""In Chromium: a tray read again before its roll was confirmed says so beside the dice, and dice that moved after
the confirm are said on every screen (the kiosk, a spectator's tablet) in its language, and told in the log."""

from __future__ import annotations

import pytest

from companion.session import TableSession

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def read_by_camera(session: TableSession, faces: list[str]) -> None:
    """The camera offers `faces`, a die's width apart in a row, each with its box."""
    dice = [
        {
            "label": face,
            "confidence": 0.97,
            "center": [100.0 + 60 * i, 100.0],
            "box": [[80.0 + 60 * i, 80.0], [120.0 + 60 * i, 80.0], [120.0 + 60 * i, 120.0], [80.0 + 60 * i, 120.0]],
        }
        for i, face in enumerate(faces)
    ]
    session.offer_dice(dice, source="camera")


def test_a_tray_read_again_before_the_confirm_says_so_beside_the_dice(race, open_page):
    session = race.session
    needed = session.prompt().options[0]["roll"]
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)
    read_by_camera(session, ["drive"] * needed)
    expect(page.locator("#pending .die")).to_have_count(needed)
    expect(page.locator("#tray-changed")).to_have_count(0)
    read_by_camera(session, ["steer"] * needed)
    expect(page.locator("#tray-changed")).to_have_text("The tray changed: read again.")


def test_a_die_moved_after_the_confirm_is_said_on_every_screen_until_the_next_roll(race, open_page):
    session = race.session
    needed = session.prompt().options[0]["roll"]
    kiosk = open_page(f"http://127.0.0.1:{race.port}/?kiosk=1", locale="de-DE")
    spectator = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", locale="nl-NL")
    read_by_camera(session, ["drive"] + ["steer"] * (needed - 1))
    confirmed = session.confirm(actor="green")
    for page in (kiosk, spectator):
        expect(page.locator("#tray-notice")).to_be_hidden()

    session.die_moved([{"die": 1, "kind": "turned", "was": "drive", "now": "gallop"}], of=confirmed.seq)
    expect(kiosk.locator("#tray-notice")).to_have_text(
        "Ein Würfel hat sich nach dem Lesen bewegt. Der Wurf gilt, wie er bestätigt wurde."
    )
    expect(spectator.locator("#tray-notice")).to_contain_text("Een dobbelsteen is na het lezen verschoven")
    expect(kiosk.locator("#events")).to_contain_text("Würfel 1 hat sich nach dem Lesen bewegt")
    box, turn = kiosk.locator("#tray-notice").bounding_box(), kiosk.locator("#turn").bounding_box()
    assert turn["y"] <= box["y"] and box["y"] + box["height"] <= turn["y"] + turn["height"]  # in the turn, no overlay

    session.tray_as_read()  # the dice were picked up
    for page in (kiosk, spectator):
        expect(page.locator("#tray-notice")).to_be_hidden()
