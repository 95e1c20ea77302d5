"""In Chromium, the layout defects an evening at the table found (issue 35, point 5), each pinned: a name in the top
bar never cut, five Automobiles boards above the kiosk's fold, Cubitos' dice zones and cards in play on the kiosk,
the next decision brought into view, a refusal that clears, a roll line never cut in "just now", the phase strip in
Chariot Race's fortune, and no draw odds once the race is over."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion.games.bots import GreedyBot, RandomBot, roll
from companion.session import TableSession
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN
from tests.web.test_screens import KIOSK, PHONE, TABLET, boxes

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

LONG = "Alexandra-Sophie Müller"
"""23 of the 24 characters a name may have."""


@contextmanager
def served(session: TableSession) -> Iterator[int]:
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    try:
        yield server.port
    finally:
        session.broker.close()
        server.stop()


def play(session: TableSession, *, until, seed: int = 5, bot: Any = None, limit: int = 3000) -> None:
    """Bots play through the session until ``until(session)`` holds."""
    rng, bot = random.Random(seed), bot or RandomBot()
    for _ in range(limit):
        if until(session):
            return
        prompt = session.prompt()
        session.act(roll(session.game, bot.choose(session.game, session.state, prompt, rng), rng, session.state),
                    actor=prompt.actor)
    raise AssertionError("the table never got there")


def not_cut(page: Any, selector: str) -> None:
    """Every element of ``selector`` shows its whole text: nothing runs out of it, and it stays inside its parent."""
    cut = page.evaluate("""(s) => [...document.querySelectorAll(s)].filter((n) => n.offsetParent !== null)
      .filter((n) => n.scrollWidth > n.clientWidth + 1
        || n.getBoundingClientRect().right > n.parentElement.getBoundingClientRect().right + 1)
      .map((n) => n.textContent)""", selector)
    assert cut == [], cut


@pytest.mark.parametrize(("viewport", "kiosk"), [(KIOSK, 1), ((1920, 1080), 1), (TABLET, 0), (PHONE, 0)])
def test_the_name_of_whose_turn_it_is_is_never_cut(session, open_page, viewport, kiosk):
    players = [{"name": LONG, "colour": "blue"}, {"name": "Klaus", "colour": "yellow"}]
    session.new_game("cubitos", {"players": players}, seed=5)
    with served(session) as port:
        page = open_page(f"http://127.0.0.1:{port}/?kiosk={kiosk}", control=True, viewport=viewport, locale="de-DE")
        expect(page.locator("#turn-banner .who")).to_have_text(f"{LONG} ist am Zug")
        not_cut(page, "#turn-banner .who")


def test_five_automobiles_boards_stand_above_the_kiosks_fold(session, open_page):
    players = [{"name": n, "colour": c} for n, c in zip(("Julia", "Klaus", "Ben", "Anna", "Heidi"),
                                                          ("red", "blue", "yellow", "green", "white"), strict=True)]
    session.new_game("automobiles", {"players": players, "open_bags": True}, seed=5)
    play(session, until=lambda s: s.snapshot()["seq"] >= 40)
    with served(session) as port:
        page = open_page(f"http://127.0.0.1:{port}/?kiosk=1", control=True, viewport=KIOSK, locale="de-DE")
        expect(page.locator(".au-board[data-seat]")).to_have_count(5)
        for board in boxes(page, ".au-board[data-seat], .au-value, #prompt"):
            assert board["y"] + board["h"] <= KIOSK[1], (board["text"][:30], board["y"] + board["h"])


def test_the_kiosks_cubitos_boards_show_the_dice_zones_and_the_cards_in_play(session, open_page):
    players = [{"name": n, "colour": c} for n, c in zip(("Julia", "Klaus", "Ben", "Anna"),
                                                          ("blue", "yellow", "red", "white"), strict=True)]
    session.new_game("cubitos", {"players": players}, seed=5)
    play(session, until=lambda s: s.snapshot()["seq"] >= 12)
    with served(session) as port:
        page = open_page(f"http://127.0.0.1:{port}/?kiosk=1", control=True, viewport=KIOSK, locale="de-DE")
        expect(page.locator(".cu-board .cu-zones").first).to_be_visible()
        expect(page.locator(".cu-board .cu-zones")).to_have_count(4)
        for zones in page.locator(".cu-board .cu-zones").all():
            expect(zones).to_be_visible()
        expect(page.locator("#boards .cu-market")).to_be_visible()


def test_after_confirming_a_roll_on_a_tablet_the_next_decision_is_in_view(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True, viewport=TABLET)
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    for face in ("drive", "drive", "steer", "gallop"):
        page.click(f".manual .palette [data-face={face}]")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # her thumb at the foot of the page
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    expect(page.locator("#prompt")).to_be_in_viewport()


def test_the_table_moved_on_clears_once_the_screen_has_the_new_table(race, open_page):
    session = race.session
    session.act({"type": "roll", "dice": ["drive", "steer", "steer", "fortune"]}, actor="green")
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    page.evaluate("S.source.close()")  # this tablet stops hearing the table, as a slow one would
    session.act({"type": "done"}, actor="green")
    page.click("#turn .choices button.primary")
    expect(page.locator("#action-error")).to_contain_text("The table moved on")
    page.evaluate("connect()")  # it hears the table again
    expect(page.locator("#prompt")).not_to_have_text("Julia: Free reroll")
    expect(page.locator("#action-error")).to_be_empty(timeout=8000)


@pytest.mark.parametrize("viewport", [KIOSK, TABLET, PHONE])
def test_just_now_shows_a_whole_roll(session, open_page, viewport):
    players = [{"name": "Julia", "colour": "blue"}, {"name": "Klaus", "colour": "yellow"}]
    session.new_game("cubitos", {"players": players}, seed=5)
    play(session, until=lambda s: any(e.payload.get("action", {}).get("type") == "roll" for e in s.events()[-1:]))
    with served(session) as port:
        page = open_page(f"http://127.0.0.1:{port}/?kiosk={int(viewport == KIOSK)}", control=True, viewport=viewport,
                         locale="de-DE")
        newest = page.locator("#just-now .line").last
        expect(newest).to_contain_text("Würfel")
        [box] = boxes(page, "#just-now")
        [line] = boxes(page, "#just-now .line:last-child")
        assert line["y"] >= box["y"] - 1 and line["y"] + line["h"] <= box["y"] + box["h"] + 1, (line, box)
        assert page.evaluate("(n) => n.scrollWidth <= n.clientWidth", newest.element_handle())


def test_chariot_races_phase_strip_says_fortune_during_fortune(race, open_page):
    session = race.session
    session.act({"type": "roll", "dice": ["drive", "steer", "steer", "fortune"]}, actor="green")
    session.act({"type": "done"}, actor="green")
    assert session.prompt().phase == "fortune"
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)
    expect(page.locator("#phases li.now")).to_have_text("Fortune")


def test_no_draw_odds_once_the_race_is_over(session, open_page):
    players = [{"name": "Julia", "colour": "red"}, {"name": "Klaus", "colour": "blue"}]
    session.new_game("automobiles", {"players": players, "open_bags": True}, seed=5)
    play(session, until=lambda s: s.snapshot()["game"]["over"], bot=GreedyBot(), limit=5000)
    with served(session) as port:
        page = open_page(f"http://127.0.0.1:{port}/?kiosk=0", control=True, viewport=TABLET)
        expect(page.locator(".au-board[data-seat]")).to_have_count(2)
        assert page.locator(".au-odds, #au-odds").count() == 0
