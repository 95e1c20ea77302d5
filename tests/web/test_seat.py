"""In Chromium: "this phone is my seat". A phone or tablet takes a seat (remembered in the browser per game, given
back from the same chooser): it shows the turn and that seat's board first, the other seats folded, and an unmistakable
"your turn" that vibrates once when a turn comes to the seat. Spectators may follow a seat without controls; the
kiosk stays the whole table."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.games.bots import RandomBot, roll
from tests.web import test_screen_sizes
from tests.web.conftest import shoot
from tests.web.test_screen_sizes import fits_the_width
from tests.web.test_screens import PHONE, TABLET, boxes

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

VIBRATIONS = "() => { window.vibrations = []; navigator.vibrate = (pattern) => window.vibrations.push(pattern) > 0; }"
"""A stand-in for the phone's vibration: headless Chromium has none, so the calls are counted."""
SEATED = re.compile(r"\bseated\b")
MY_TURN = re.compile(r"\bseated\b.*\bmy-turn\b")
every_game = test_screen_sizes.table
"""test_screen_sizes' fixture ``table``: each game played a while by bots, on a real server."""


def take_seat(page: Any, name: str) -> None:
    page.click("#seat-take")
    page.locator(".seat-choice", has_text=name).click()
    page.click("#seat-done")
    expect(page.locator("#seat-bar .seat-mine")).to_contain_text(name)


def play_until(session, actor: str) -> None:
    """Random moves until the table waits for ``actor``."""
    rng, bot = random.Random(3), RandomBot()
    for _ in range(200):
        prompt = session.prompt()
        if prompt.actor == actor:
            return
        session.act(roll(session.game, bot.choose(session.game, session.state, prompt, rng), rng, session.state),
                    actor=prompt.actor)
    raise AssertionError(f"the table never came to {actor}")


def test_a_phone_takes_a_seat_and_sees_its_turn_and_board_first_the_others_folded(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True, viewport=PHONE)
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    assert page.locator("#your-turn").is_hidden()
    [track] = boxes(page, "#track-panel")
    [turn] = boxes(page, "#turn")
    assert track["y"] < turn["y"]  # not seated: the whole table, the track first

    take_seat(page, "Julia")
    expect(page.locator("#your-turn")).to_have_text("Your turn, Julia!")
    expect(page.locator("body")).to_have_class(MY_TURN)
    [turn] = boxes(page, "#turn")
    [track] = boxes(page, "#track-panel")
    [mine] = boxes(page, "#boards > [data-seat]")  # only her own board unfolded
    assert turn["y"] < mine["y"] < track["y"]
    assert turn["y"] < PHONE[1] / 3  # the decision without scrolling past the track
    expect(page.locator("#other-seats > summary")).to_have_text("The other seats (3)")
    expect(page.locator("#other-seats [data-seat]")).to_have_count(3)
    assert page.locator("#other-seats [data-seat]").first.is_hidden()
    page.click("#other-seats summary")
    expect(page.locator("#other-seats [data-seat]").first).to_be_visible()
    race.session.act({"type": "roll", "dice": ["drive", "drive", "steer", "gallop"]}, actor="green")
    expect(page.locator("#other-seats [data-seat]").first).to_be_visible()  # stays open as the table moves on

    page.reload()  # remembered on this phone, for this game
    expect(page.locator("#seat-bar .seat-mine")).to_have_text("My seat: Julia")
    expect(page.locator("#your-turn")).to_have_text("Your turn, Julia!")
    page.click("#seat-change")
    page.click("#seat-give-back")
    expect(page.locator("#seat-take")).to_be_visible()
    expect(page.locator("body")).not_to_have_class(SEATED)
    expect(page.locator("#your-turn")).to_be_hidden()
    assert page.locator("#boards > [data-seat]").count() == 4


def test_your_turn_vibrates_once_when_the_turn_comes_to_the_seat(race, open_page):
    session = race.session
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True, viewport=PHONE)
    page.evaluate(VIBRATIONS)
    take_seat(page, "Klaus")
    expect(page.locator("#your-turn")).to_have_text("Waiting for Julia")
    assert page.evaluate("window.vibrations.length") == 0
    play_until(session, "yellow")
    expect(page.locator("#your-turn")).to_have_text("Your turn, Klaus!")
    expect(page.locator("body")).to_have_class(MY_TURN)
    assert page.evaluate("window.vibrations.length") == 1
    session.act({"type": "roll", "dice": ["drive", "drive", "steer", "gallop"]}, actor="yellow")
    expect(page.locator("#prompt")).not_to_have_text("Klaus: Roll")
    expect(page.locator("#your-turn")).to_have_text("Your turn, Klaus!")
    assert page.evaluate("window.vibrations.length") == 1  # once per turn, not per step
    shoot(page, "seat-phone")


def test_a_spectator_may_follow_a_seat_and_still_sees_no_controls(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", viewport=TABLET)
    take_seat(page, "Julia")
    expect(page.locator("#your-turn")).to_have_text("Your turn, Julia!")
    assert boxes(page, "#turn-body button:not(.take-control), #options button, #buttons-panel button") == []
    [board] = boxes(page, "#boards > [data-seat]")
    assert board["y"] < TABLET[1]  # her board above the fold, beside the turn


def test_the_kiosk_stays_the_whole_table(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=1", control=True, viewport=(1280, 800))
    page.evaluate("localStorage.setItem(`seat:${S.state.game.number}`, JSON.stringify(['green']))")
    page.reload()
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    assert page.locator("#seat-bar, #your-turn, #other-seats").count() == 0
    expect(page.locator("body")).not_to_have_class(SEATED)


def test_a_seat_change_alone_leaves_nothing_to_undo(race, open_page):
    """A rename is in the log but is no action: Undo (and the wired Back) would take back nothing."""
    race.session.change_seat(0, name="Jule", actor="table")
    assert race.session.snapshot()["undoable"] is False
    page = open_page(f"http://127.0.0.1:{race.port}/", control=True, viewport=TABLET)
    expect(page.locator("#prompt")).to_contain_text("Jule")
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#button-back .what")).to_have_text("—")
    play_until(race.session, "red")
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#button-back .what")).to_have_text("Undo")


def test_every_game_seats_a_phone_within_its_width(every_game, open_page):
    page = open_page(f"http://127.0.0.1:{every_game.port}/?kiosk=0", control=True, viewport=PHONE, locale="de-DE")
    expect(page.locator("#prompt")).not_to_be_empty()
    seat = page.evaluate("S.state.seats[0].id")
    page.click("#seat-take")
    small = [t for t in boxes(page, "#seat-bar button") if t["h"] < 44 or t["w"] < 44]
    assert small == [], small
    page.click(f".seat-choice[data-seat='{seat}']")
    page.click("#seat-done")
    expect(page.locator("body")).to_have_class(SEATED)
    fits_the_width(page, PHONE[0])
    [turn] = boxes(page, "#turn")
    assert turn["y"] < PHONE[1] / 3
    if page.locator("#boards [data-seat]").count():  # a game with boards: the seat's own comes first
        assert page.evaluate("document.querySelector('#boards > *').dataset.seat") == seat
