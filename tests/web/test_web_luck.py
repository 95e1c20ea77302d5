"""Who was lucky, on the screens: the game-over screen and the stats page show each player's luck and a picture of
luck over the game; the kiosk shows the evening between games (attract mode), a tablet does not."""

from __future__ import annotations

import re

import pytest

from companion.session import TableSession
from tests.web.conftest import shoot

pytestmark = pytest.mark.browser

LUCKY = ["6", "1"] * 3 + ["6"]
"""Dice Race to 20: Ada rolls 6s, Bo 1s; Ada wins on her fourth roll."""


def camera_game(session: TableSession, faces: list[str], players: list[str] | None = None) -> None:
    session.new_game("dice-race", {"players": players or ["Ada", "Bo"]}, seed=1)
    for face in faces:
        session.offer_dice([{"label": face, "confidence": 0.97}], source="camera")
        session.confirm(actor="table")


def expect_of():
    return pytest.importorskip("playwright.sync_api").expect


def test_the_game_over_screen_shows_who_was_lucky_and_luck_over_the_game(served, open_page):
    expect = expect_of()
    camera_game(served.session, LUCKY)
    assert served.session.game.is_over(served.session.state)
    page = open_page(f"http://127.0.0.1:{served.port}/", locale="de-DE")
    luck = page.locator("#race-over .luck")
    expect(luck.locator(".luck-row")).to_have_count(2)
    # Ada: 4 sixes, 24 pips against 4 x 3.5 = 14; Bo: 3 ones against 10.5
    expect(luck.locator('.luck-row[data-player="Ada"]')).to_contain_text("+10 Glück")
    expect(luck.locator('.luck-row[data-player="Ada"]')).to_contain_text("24 Augen in 4 Würfen, 14 erwartet")
    expect(luck.locator('.luck-row[data-player="Bo"]')).to_contain_text("−7,5 Pech")
    expect(luck.locator(".luck-chart .luck-line")).to_have_count(2)
    expect(luck.locator(".luck-chart figcaption")).to_contain_text("über der Linie: mehr Glück als erwartet")
    shoot(page, "luck-game-over")
    page.locator('[data-lang="nl"]').click()
    expect(luck.locator('.luck-row[data-player="Bo"]')).to_contain_text("pech")


def test_the_stats_page_shows_tonight_s_luck_per_player_and_each_game_s_picture_with_what_it_counts(served,
                                                                                                      open_page):
    expect = expect_of()
    camera_game(served.session, LUCKY)
    camera_game(served.session, ["2", "3"], players=["Ada", "Cy"])
    page = open_page(f"http://127.0.0.1:{served.port}/stats?kiosk=1", locale="en-GB", viewport=(1280, 800))
    rows = page.locator("#luck .luck-list .luck-row")
    expect(rows).to_have_count(3)
    expect(rows.first).to_have_attribute("data-player", "Ada")  # luckiest first: 26 pips against 17.5
    expect(page.locator("#stats-luck")).to_contain_text("Counted: every roll a player confirmed")
    expect(page.locator("#luck .luck-game")).to_have_count(2)
    expect(page.locator('#luck .luck-game[data-game="1"] .luck-line')).to_have_count(2)
    # what counts as luck: the shared hint says what every game shares, each game's picture its own in the page's
    # language (Dice Race's own text, from its catalogue)
    expect(page.locator("#stats-luck > .hint")).not_to_contain_text("Dice Race")
    counted = page.locator('#luck .luck-game[data-game="1"] .luck-counted')
    expect(counted).to_have_text("Counted as luck here: the pips of each roll, against a fair die's average.")
    page.locator('[data-lang="de"]').click()
    expect(counted).to_have_text("Als Glück zählen hier die Augen jedes Wurfs, gegen den Schnitt eines fairen Würfels.")
    expect(page.locator("#stats-luck > .hint")).to_contain_text("Was als Glück zählt, sagt jedes Spiel")
    page.locator('[data-lang="en"]').click()
    expect(page.locator('#games tr[data-game="1"] .game-luck')).to_have_text("Ada +10 · Bo −7.5")
    # readable from a chair: the picture's names are drawn at least 18 px high on the kiosk
    assert page.evaluate("document.querySelector('.luck-name').getBoundingClientRect().height") >= 18


def test_the_kiosk_shows_the_evening_between_games_and_gives_way_to_the_next_game(served, open_page):
    expect = expect_of()
    camera_game(served.session, LUCKY)
    errors: list[str] = []
    page = open_page(f"http://127.0.0.1:{served.port}/?kiosk=1", locale="de-DE", viewport=(1280, 800))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    attract = page.locator("#attract")
    expect(attract).to_be_visible()
    expect(attract).to_have_attribute("data-slide", "0")
    expect(attract.locator("h2")).to_have_text("Die Spiele heute Abend")
    expect(attract).to_contain_text("Ada hat gewonnen")
    expect(page.locator("#track-panel")).to_be_hidden()
    expect(page.locator("#race-over")).to_be_visible()  # the game-over panel stays beside the evening, uncovered
    assert attract.locator("button, a, input").count() == 0  # no controls
    assert float(page.evaluate("getComputedStyle(document.querySelector('#attract li')).fontSize")[:-2]) >= 24
    expect(page.locator("#race-over .luck-name")).to_have_count(2)  # luck over the game, readable from a chair too
    assert page.evaluate("document.querySelector('#race-over .luck-name').getBoundingClientRect().height") >= 18
    # about ten seconds later: who was lucky, then the dice
    expect(attract).to_have_attribute("data-slide", "1", timeout=15_000)
    expect(attract.locator("h2")).to_have_text("Das Glück heute Abend")
    expect(attract.locator('.luck-row[data-player="Ada"]')).to_contain_text("Glück")
    shoot(page, "kiosk-evening")
    expect(attract).to_have_attribute("data-slide", "2", timeout=15_000)
    expect(attract).to_contain_text(re.compile(r"7 Würfe"))
    served.session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=2)
    expect(attract).to_have_count(0)
    expect(page.locator("#track-panel")).to_be_visible()
    assert errors == []


def test_a_tablet_shows_no_evening_between_games(served, open_page):
    expect = expect_of()
    camera_game(served.session, LUCKY)
    page = open_page(f"http://127.0.0.1:{served.port}/?kiosk=0", locale="en-GB")
    expect(page.locator("#race-over .luck")).to_be_visible()
    page.wait_for_timeout(1500)  # attract mode would have begun within a second
    expect(page.locator("#attract")).to_have_count(0)
    assert page.evaluate("typeof attractWatch") == "undefined"
