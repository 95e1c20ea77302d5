"""Sizes measured in Debian's Chromium, for each game at the kiosk's 1280x800 and 1920x1080, a tablet's 1024x768 and a
phone's 390x844: on the kiosk the track, every player's values and the prompt are above the fold, text is at least
18 px and the values at least 28 px; on tablets and phones every control is a 44 px target; nothing is wider than the
screen and the top bar overlaps nothing. Each case keeps its screenshot in docs/screenshots/ (the README shows them)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.bots import RandomBot, roll
from companion.lan import lan_addresses
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer
from tests.web.conftest import shoot
from tests.web.test_screens import boxes, overlaps

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

KIOSKS = {"kiosk": (1280, 800), "kiosk-fhd": (1920, 1080)}
HANDHELDS = {"tablet": (1024, 768), "phone": (390, 844)}
LOCALES = {"kiosk": "de-DE", "kiosk-fhd": "en-GB", "tablet": "nl-NL", "phone": "de-DE"}
"""Each screen in another language: German and Dutch words are the long ones."""
PLAYERS = [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "yellow"},
           {"name": "Ben", "colour": "blue"}]
GAMES = {
    # three players drive six chariots: the most values a kiosk shows
    "chariot-race": ({"players": PLAYERS, "board": "A"}, 40),
    "hexenrennen": ({"players": [*PLAYERS, {"name": "Anna", "colour": "orange"}], "tiles": "shuffled",
                     "piles": "shuffled"}, 120),
    "dice-race": ({"players": [{"name": p["name"]} for p in PLAYERS]}, 6),
    # four players, in the middle of the first roll section: every zone holds dice
    "cubitos": ({"players": [{"name": "Julia", "colour": "blue"}, {"name": "Klaus", "colour": "yellow"},
                             {"name": "Ben", "colour": "red"}, {"name": "Anna", "colour": "white"}]}, 12),
    "automobiles": ({"players": [{"name": p["name"], "colour": c} for p, c in zip(PLAYERS, ("red", "blue", "yellow"),
                                                                                 strict=True)],
                     "open_bags": True}, 150),
}
VALUES = {
    "chariot-race": ".scoreboard td.value",
    "hexenrennen": ".hx-score, .hx-where",
    "dice-race": "#view td",
    "cubitos": ".cu-value b",
    "automobiles": ".au-value",
}
"""Every player's values as the kiosk shows them."""
TRACK = {"chariot-race": "#track", "hexenrennen": "#track", "dice-race": "#view", "cubitos": "#track",
         "automobiles": "#track"}

TEXTS = """() => [...document.querySelectorAll('body *')].filter((node) => !node.closest('svg') && node.offsetParent
  !== null && [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()))
  .map((node) => ({text: node.textContent.trim().slice(0, 40), size: parseFloat(getComputedStyle(node).fontSize),
    cls: node.className, tag: node.tagName}))"""
"""Every visible element that holds text of its own (the track's drawing aside), with its computed font size."""
TARGETS = "button, a, summary, input, select, label:has(input)"


@pytest.fixture(params=sorted(GAMES))
def table(request, session) -> Iterator[LiveServer]:
    """A game of ``request.param`` played some way by random bots, on a real server."""
    game_id = request.param
    options, actions = GAMES[game_id]
    session.new_game(game_id, options, seed=5)
    rng = random.Random(5)
    bot = RandomBot()
    for _ in range(actions):
        prompt = session.prompt()
        if prompt is None or not prompt.options or session.snapshot()["game"]["over"]:
            break
        state = session.state  # Cubitos rolls the dice of the roller's zones
        choice = roll(session.game, bot.choose(session.game, state, prompt, rng), rng, state)
        session.act(choice, actor=prompt.actor or "table")
    app = create_app(session, control_pin=PIN)
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    # As a Pi serving the LAN: the kiosk shows its QR code for tablets too (where this machine has a LAN address).
    app.config["LISTEN_ON"] = ("0.0.0.0", server.port)
    live = LiveServer(session, server)
    live.game_id = game_id  # type: ignore[attr-defined]
    yield live
    session.broker.close()
    server.stop()


def fits_the_width(page: Any, width: int) -> None:
    wider = [b["id"] or b["text"][:30] for b in boxes(page, "body *:not(svg *)") if b["x"] + b["w"] > width + 0.5]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wider[-5:]


def inside_its_panel(page: Any) -> None:
    """No part of the turn panel (the phases, the prompt, the choices) runs out of it."""
    [panel] = boxes(page, "#turn")
    for part in boxes(page, "#turn *:not(svg *)"):
        assert part["x"] >= panel["x"] - 1 and part["x"] + part["w"] <= panel["x"] + panel["w"] + 1, part["text"][:40]


def header_overlaps_nothing(page: Any) -> None:
    parts = boxes(page, ".topbar > *:not(#turn-banner), #turn-banner > *")
    for k, a in enumerate(parts):
        for b in parts[k + 1:]:
            assert not overlaps(a, b), (a["text"], b["text"])


def laid_out(table, open_page, screen: str, size: tuple[int, int], *, kiosk: bool):
    """The table page at ``size`` in the screen's language, checked for what every size needs: nothing wider
    than the screen, a header that overlaps nothing, every part inside its panel."""
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk={int(kiosk)}", control=True, viewport=size,
                     locale=LOCALES[screen])
    expect(page.locator("#prompt")).not_to_be_empty()
    fits_the_width(page, size[0])
    header_overlaps_nothing(page)
    inside_its_panel(page)
    return page


@pytest.mark.parametrize("screen", sorted(KIOSKS))
def test_the_kiosk_shows_the_track_the_values_and_the_prompt_above_the_fold_readable_from_two_metres(
        table, open_page, screen):
    width, height = KIOSKS[screen]
    game_id = table.game_id
    page = laid_out(table, open_page, screen, (width, height), kiosk=True)
    if lan_addresses():
        expect(page.locator("#join img")).to_be_visible()  # beside the values, never pushing them down
    for selector in (TRACK[game_id], "#prompt", VALUES[game_id]):
        found = boxes(page, selector)
        assert found, selector
        for box in found:
            assert box["y"] + box["h"] <= height, (selector, box["text"], box["y"] + box["h"])
    small = [t for t in page.evaluate(TEXTS) if t["size"] < 18]
    assert small == [], small[:5]
    values = page.evaluate("(s) => [...document.querySelectorAll(s)].map((n) => parseFloat(getComputedStyle(n)"
                           ".fontSize))", VALUES[game_id])
    assert min(values) >= 28
    shoot(page, f"screen-{game_id}-{screen}")


@pytest.mark.parametrize("screen", sorted(HANDHELDS))
def test_tablets_and_phones_get_44_px_targets_and_nothing_wider_than_the_screen(table, open_page, screen):
    width, height = HANDHELDS[screen]
    game_id = table.game_id
    page = laid_out(table, open_page, screen, (width, height), kiosk=False)
    small = [t for t in boxes(page, TARGETS) if t["h"] < 44 or t["w"] < 44]
    assert small == [], small[:5]
    shoot(page, f"screen-{game_id}-{screen}")


@pytest.mark.parametrize("screen", sorted(HANDHELDS))
def test_a_spear_target_on_the_track_is_a_44_px_target_on_tablets_and_phones(session, open_page, screen):
    session.new_game("chariot-race", GAMES["chariot-race"][0], seed=11)
    rng, bot = random.Random(11), RandomBot()
    while not any(o["type"] == "spear" for o in session.prompt().options):  # random play until a spear can fly
        prompt = session.prompt()
        session.act(roll(session.game, bot.choose(session.game, None, prompt, rng), rng), actor=prompt.actor)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    try:
        page = open_page(f"http://127.0.0.1:{server.port}/?kiosk=0", control=True, viewport=HANDHELDS[screen])
        expect(page.locator("#overlay .chariot.spear-target").first).to_be_visible()
        halos = boxes(page, "#overlay .chariot.spear-target .tap-area")
        assert halos and min(min(h["w"], h["h"]) for h in halos) >= 44
    finally:
        session.broker.close()
        server.stop()
