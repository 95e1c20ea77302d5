"""Hexen Rennen on the dashboard in Debian's Chromium: a game set up through the new-game screen with the tiles face
down, a die entered by hand and one read by the camera, hidden tiles told to the companion by two taps (colour, then
number), a card decision by the player whose magic sign it is, undo, the choice of a witch, a spectator who watches
it live and is refused, and the language switch."""

from __future__ import annotations

import random

import pytest

from tests.web.conftest import shoot as shoot_page

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def reveal(page, clan, value):
    page.click(f"#reveal-picker [data-clan={clan}]")
    page.click(f"#reveal-picker .hx-values [data-value='{value}']")


def shoot(page, name, **kwargs):
    """A screenshot from the top of the page."""
    page.evaluate("window.scrollTo(0, 0)")
    shoot_page(page, name, **kwargs)


def enter_die(page, face):
    """The die typed in (this table has a camera, so the manual entry is folded away)."""
    page.click("details.manual summary")
    page.click(f".manual .palette [data-face='{face}']")


def test_a_hexen_rennen_game_at_a_real_table(empty_table, open_page):
    session = empty_table.session
    base = f"http://127.0.0.1:{empty_table.port}"

    # Set-up: Hexen Rennen, two players with clan colours, the tiles face down.
    page = open_page(f"{base}/new?kiosk=0", control=True)
    page.check("input[name=game][value=hexenrennen]")
    expect(page.locator("[data-player='0'] .colour-pick button")).to_have_count(4)
    expect(page.locator("[data-game-fields=hexenrennen]")).to_be_visible()
    expect(page.locator("[data-game-fields=chariot-race]")).to_have_count(0)
    page.fill("input[name=player-0]", "Julia")
    page.fill("input[name=player-1]", "Ben")
    page.click("[data-player='0'] [data-colour=blue]")
    page.click("[data-player='1'] [data-colour=yellow]")
    shoot(page, "hexen-new-game", full_page=True)
    page.click("#start-game")
    page.wait_for_url(f"{base}/")
    expect(page.locator("#connection")).to_have_class("badge live")
    record = session.record
    assert record.game == "hexenrennen"
    assert record.options == {"players": [{"name": "Julia", "colour": "blue"}, {"name": "Ben", "colour": "yellow"}],
                              "tiles": "hidden"}
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    expect(page.locator("#track .hx-tile.hidden")).to_have_count(48)
    expect(page.locator("#overlay .hx-witch")).to_have_count(6)
    expect(page.locator(".hx-board")).to_have_count(4)  # Julia, Ben and the two neutral piles
    expect(page.locator("#setup-card")).to_contain_text("Lay the track")
    spectator = open_page(f"{base}/?kiosk=0", viewport=(390, 844))
    expect(spectator.locator("#prompt")).to_have_text("Julia: Roll")

    # Julia's die entered by hand: a 3 takes a witch from the start onto hidden space 3.
    enter_die(page, 3)
    expect(page.locator("#pending .die")).to_have_count(1)
    expect(page.locator(".roll-box .source")).to_have_text("Entered by hand")
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Which tile is it?")
    expect(page.locator("#track .hx-tile.asking[data-space='3']")).to_have_count(1)
    expect(spectator.locator("#track .hx-tile.asking[data-space='3']")).to_have_count(1)

    # The tile shows yellow's magic sign: a tap on the colour, then on the sign.
    page.click("#reveal-picker [data-clan=yellow]")
    expect(page.locator("#reveal-picker .hx-values [data-value]")).to_have_count(10)  # 2..10 and the sign
    shoot(page, "hexen-reveal")
    page.click("#reveal-picker .hx-values [data-value=magic]")

    # Now Ben decides: his card against Julia's witch, or let it stay.
    expect(page.locator("#prompt")).to_have_text("Ben: Magic sign")
    expect(page.locator("#track .hx-tile[data-space='3']")).to_have_attribute("data-tile", "yellow-magic")
    expect(page.locator("#turn-banner .decider")).to_have_text("Ben decides")
    expect(page.locator("#just-now")).to_contain_text("Ben decides: play a card against Julia's witch 1")
    expect(page.locator(".hx-board[data-clan=yellow]")).to_contain_class("deciding")
    expect(page.locator(".hx-hand .hx-card.playable")).to_have_count(1)  # only the 2 fits: back to space 1
    expect(page.locator("#hx-stay")).to_be_visible()
    expect(spectator.locator("#prompt")).to_have_text("Ben: Magic sign")
    shoot(page, "hexen-card-decision")
    page.click(".hx-hand .hx-card.playable[data-card='2']")
    expect(page.locator("#just-now")).not_to_contain_text("Ben decides")  # the decision taken replaces its line

    # Sent back onto hidden space 1: the companion asks again.
    expect(page.locator("#prompt")).to_have_text("Julia: Which tile is it?")
    expect(page.locator("#track .hx-tile.asking[data-space='1']")).to_have_count(1)
    expect(page.locator(".hx-board[data-clan=yellow] .hx-cards-left")).to_have_attribute("data-left", "11")
    expect(page.locator("#chain li")).to_have_count(2)

    # Undo (two taps) takes the card back: Ben decides again; the log keeps both.
    page.click("#undo")
    page.click("#undo")
    expect(page.locator("#prompt")).to_have_text("Ben: Magic sign")
    expect(page.locator("#events li.undone")).to_have_count(1)
    expect(spectator.locator(".hx-board[data-clan=yellow] .hx-cards-left")).to_have_attribute("data-left", "12")
    page.click(".hx-hand .hx-card.playable[data-card='2']")
    expect(page.locator("#prompt")).to_have_text("Julia: Which tile is it?")

    # Space 1 is a green (neutral) number: the witch stays, Ben's turn.
    reveal(page, "green", 5)
    expect(page.locator("#prompt")).to_have_text("Ben: Roll")
    expect(page.locator("#events")).to_contain_text("Julia's witch 1 stays on space 1: another clan's number (green)")
    assert session.snapshot()["view"]["witches"][0] == {"id": "blue-1", "clan": "blue", "space": 1,
                                                        "where": "track", "points": 0}

    # Ben's die read by the camera (replayed): a 3 from the start skips the occupied space 1 and lands on 4.
    session.offer_dice([{"label": "3", "confidence": 0.97}], source="camera")
    expect(page.locator("#pending .die")).to_have_count(1)
    expect(page.locator(".roll-box .source")).to_have_text("Read by the camera")
    page.click("#confirm-roll")
    expect(page.locator("#track .hx-tile.asking[data-space='4']")).to_have_count(1)
    # Ben's own 6 carries his witch on to space 10, which is hidden too: the chain goes on there.
    reveal(page, "yellow", 6)
    expect(page.locator("#track .hx-tile.asking[data-space='10']")).to_have_count(1)
    reveal(page, "orange", 9)
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    expect(page.locator("#events")).to_contain_text("Ben's witch 1 follows its own 6: on to space 10")
    expect(page.locator("#events")).to_contain_text("All told: Ben's witch 1 start → space 10 (+10 spaces)")

    # Julia rolls 5: two witches can move, she chooses the one on space 1 by a tap on the track.
    enter_die(page, 5)
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Choose a witch")
    expect(page.locator("#turn-body .hx-move")).to_have_count(2)
    page.locator("#overlay .hx-witch[data-witch=blue-1]").dispatch_event("click")
    expect(page.locator("#hx-confirm-move")).to_be_visible()
    expect(page.locator(".move-summary")).to_contain_text("Julia's witch 1: space 1 → space 6")
    shoot(page, "hexen-move")
    page.click("#hx-confirm-move")
    expect(page.locator("#track .hx-tile.asking[data-space='6']")).to_have_count(1)
    assert session.snapshot()["view"]["witches"][0]["space"] == 6

    # The spectator saw it all live, without controls: the PIN is one tap away.
    expect(spectator.locator("#prompt")).to_have_text("Julia: Which tile is it?")
    expect(spectator.locator("#events")).to_contain_text("Julia's witch 1 moves 5 to space 6")
    expect(spectator.locator("#reveal-picker")).to_contain_text("space 6")
    expect(spectator.locator("#reveal-picker [data-clan]").first).to_be_hidden()
    spectator.click("#take-control")
    expect(spectator.locator("#login input[name=pin]")).to_be_focused()
    shoot(spectator, "hexen-spectator-phone", full_page=False)
    assert session.snapshot()["prompt"]["phase"] == "reveal"

    # German at the flip of a switch.
    page.click("[data-lang=de]")
    expect(page.locator("#prompt")).to_have_text("Julia: Welches Plättchen ist es?")
    expect(page.locator("#events")).to_contain_text("Hexe 1 von Julia zieht 5 auf Feld 6")
    expect(page.locator("#reveal-picker")).to_contain_text("Die Farbe")
    shoot(page, "hexen-table-de")


def test_a_late_game_shows_the_track_the_finish_and_the_cards(session, open_page):
    """A demo-like game (the layout shuffled by the companion) played far by random choices, then to its end."""
    from companion.web import create_app
    from companion.web.server import Server
    from tests.conftest import PIN, LiveServer

    session.new_game("hexenrennen", {"players": [{"name": "Julia", "colour": "blue"},
                                                 {"name": "Ben", "colour": "yellow"},
                                                 {"name": "Ada", "colour": "green"}], "tiles": "shuffled"}, seed=3)
    rng = random.Random(5)

    def play(steps):
        for _ in range(steps):
            prompt = session.prompt()
            if prompt.phase == "over":
                return
            option = dict(rng.choice(prompt.options))
            if option["type"] == "roll":
                option["dice"] = [str(rng.randint(1, 6))]
            session.act(option, actor=prompt.actor)

    play(150)
    app = create_app(session, control_pin=PIN)
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    live = LiveServer(session, server)
    try:
        page = open_page(f"http://127.0.0.1:{live.port}/?kiosk=0", control=True)
        revealed = session.snapshot()["view"]["revealed"]
        expect(page.locator("#track .hx-tile.revealed")).to_have_count(revealed)
        expect(page.locator(".hx-board[data-clan=green] .hx-card.played")).to_have_count(
            12 - session.snapshot()["view"]["players"][2]["cards_left"])
        shoot(page, "hexen-late-game", full_page=True)
        play(2000)
        view = session.snapshot()["view"]
        assert view["over"]
        winner = next(p["name"] for p in view["players"] if p["clan"] == view["winners"][0])
        expect(page.locator("#turn-banner .winner")).to_contain_text(f"{winner} wins with")
        expect(page.locator("#prompt")).to_have_text("Game over")
        expect(page.locator("#events")).to_contain_text("Game over:")
    finally:
        session.broker.close()
        server.stop()
