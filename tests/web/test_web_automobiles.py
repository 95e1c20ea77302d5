"""Automobiles on the dashboard in Debian's Chromium: a race of three on the reference oval with open bags, played
from the screen: the first draw typed in colour by colour with its odds, a gear cube placed by a tap on the track
with the wear that landing costs, a buy with only the affordable cards as buttons, a car that ends in another's
slipstream and owes no wear, and a pit stop that returns every active wear cube. The set-up steps nobody needs to
see (the other players' buys and draws) go straight to the session."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion.session import TableSession
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer
from tests.web.conftest import shoot as shoot_page

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

CARDS = {"yellow": "base_yellow_2", "red": "base_red_3", "purple": "base_purple_1", "blue": "base_blue_2",
         "green": "base_green_2"}
RACE = {"players": [{"name": "Julia", "colour": "red"}, {"name": "Ben", "colour": "blue"},
                    {"name": "Anna", "colour": "yellow"}],
        "track": "reference_oval", "cards": CARDS, "start": 0, "open_bags": True}
"""Julia drives from P1 (L0-30), Ben from P2 (L1-30), Anna from P3 (L2-30); every bag starts 5 W, 2 LG, 5 YE."""
FIRST_DRAW = ["white"] * 3 + ["light_grey"] * 2 + ["yellow"] * 2


@pytest.fixture
def race(session: TableSession) -> Iterator[LiveServer]:
    """The opening buys done (nobody buys), on a real server without a camera: draws are typed in."""
    session.new_game("automobiles", RACE, seed=1)
    for _ in range(3):
        session.act({"type": "done"}, actor=session.prompt().actor)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    yield LiveServer(session, server)
    session.broker.close()
    server.stop()


def shoot(page, name):
    page.evaluate("window.scrollTo(0, 0)")
    shoot_page(page, name)


def act(session: TableSession, *actions: dict) -> None:
    for action in actions:
        session.act(action, actor=session.prompt().actor)


def test_a_race_played_from_the_screen(race, open_page):
    session = race.session
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)

    # Julia's first draw: the odds from her bag (12 cubes, no wear), then seven colours tapped in.
    expect(page.locator("#prompt")).to_have_text("Julia: First draw")
    expect(page.locator("#au-odds")).to_contain_text("no wear possible")
    expect(page.locator("#au-odds .au-odd.any[data-colour=light_grey]")).to_have_text("85 %")  # 1 - C(10,7)/C(12,7)
    expect(page.locator("#track .au-car")).to_have_count(3)
    expect(page.locator(".au-board[data-colour=red] .au-zone.bag")).to_have_attribute("data-count", "12")
    for colour in FIRST_DRAW[:-1]:
        page.click(f".manual .palette [data-face={colour}]")
    expect(page.locator(".manual .draft .die")).to_have_count(6)
    shoot(page, "automobiles-draw")
    page.click(".manual .palette [data-face=yellow]")
    expect(page.locator("#pending .die")).to_have_count(7)
    page.click("#confirm-roll")
    julia = page.locator(".au-board[data-colour=red]")
    expect(julia.locator(".au-zone.active .au-cubes[data-colour=light_grey]")).to_have_attribute("data-n", "2")
    expect(page.locator("#events")).to_contain_text("Julia draws 3× white, 2× light grey, 2× yellow")
    act(session, {"type": "draw", "dice": FIRST_DRAW}, {"type": "draw", "dice": FIRST_DRAW})

    # Her action phase: each cube with its card and what it can do now; a light grey cube goes forward.
    expect(page.locator("#prompt")).to_have_text("Julia: Action phase")
    cubes = page.locator("#au-cubes")
    expect(cubes.locator(".au-cube-row[data-colour=white]")).to_contain_text("not usable now")  # no white field ahead
    expect(cubes.locator(".au-cube-row[data-colour=yellow]")).to_contain_text("Manager")
    cubes.locator(".au-cube-row[data-colour=light_grey] button.option").click()
    expect(page.locator("#prompt")).to_have_text("Julia: Card effect")
    destination = page.locator("#overlay .au-dest[data-dest=L0-00]")
    expect(destination).to_have_count(1)
    expect(destination.locator(".au-wear-badge")).to_have_text("2")  # a light grey field: wear 2 on the wear table
    expect(page.locator("#au-moves")).to_contain_text("Move to lane 1, field 1 · wear 2")  # L0-00: a place, not an id
    expect(destination).to_have_attribute("aria-label", "Move to lane 1, field 1 · wear 2")
    shoot(page, "automobiles-action")
    destination.dispatch_event("click")
    expect(page.locator("#overlay .au-cube[data-segment=L0-00]")).to_have_count(1)
    cubes.locator(".au-cube-row[data-colour=light_grey] button.option").click()
    expect(page.locator("body")).not_to_have_class(re.compile(r"\bbusy\b"))  # a tap while a send is out is dropped
    page.locator("#overlay .au-dest[data-dest=L0-02]").dispatch_event("click")
    expect(page.locator("#overlay .au-cube.cube-light_grey")).to_have_count(2)

    # The buy: $5 from the active cubes; what costs more is shown, not offered.
    page.click("#turn-body [data-type=to_buy]")
    expect(page.locator("#prompt")).to_have_text("Julia: Buy phase")
    expect(page.locator("#au-buy .au-money")).to_have_text("$5 to spend")
    expect(page.locator("#au-buy button.au-buy")).to_have_count(5)
    expect(page.locator("#au-buy .au-buy.too-dear[data-colour=black]")).to_contain_text("not affordable")
    expect(page.locator("#au-buy .au-ref").first).to_be_visible()  # the costs are reference values
    expect(page.locator("#au-buy .au-ref-note")).to_contain_text("reference value")
    shoot(page, "automobiles-buy")
    page.click("#au-buy button.au-buy[data-colour=white]")
    expect(page.locator("#au-buy .au-money")).to_have_text("$3 to spend")
    page.click("#turn-body [data-type=done]")

    # Movement and wear: her car follows her cubes; light grey fields cost 2 wear. The end draw refills the bag.
    expect(page.locator("#overlay .au-car[data-car=red]")).to_have_count(1)
    expect(page.locator("#events")).to_contain_text("Julia owes 2 wear")
    expect(page.locator("#prompt")).to_have_text("Julia: End phase")
    assert session.snapshot()["view"]["players"][0]["segment"] == "L0-02"  # read once the tap has been played
    expect(page.locator("#au-odds")).to_contain_text("≥1 wear 38 %")  # 2 of the 9 cubes the discard refills with
    expect(page.locator("#au-odds")).to_contain_text("2 from the discard after the bag runs out")
    act(session, {"type": "draw", "dice": ["white"] * 2 + ["yellow"] * 3 + ["brown"] * 2})

    # Ben's light grey cube lands right behind Julia's car: his car is in her slipstream and owes no wear.
    act(session, {"type": "activate", "colour": "light_grey"})
    page.locator("#overlay .au-dest[data-dest=L0-00]").dispatch_event("click")
    expect(page.locator("#prompt")).to_have_text("Ben: Action phase")
    page.click("#turn-body [data-type=to_buy]")
    page.click("#turn-body [data-type=done]")
    expect(page.locator("#events")).to_contain_text("Ben is in the slipstream: no wear")
    expect(page.locator(".au-board[data-colour=blue] .au-slip")).to_have_text("≋ slipstream")
    expect(page.locator("#overlay .au-car.slipstream[data-car=blue]")).to_have_count(1)
    shoot(page, "automobiles-slipstream")
    act(session, {"type": "draw", "dice": ["white"] * 2 + ["yellow"] * 3 + ["white"] * 2},
        {"type": "to_buy"}, {"type": "done"}, {"type": "draw", "dice": ["white"] * 2 + ["yellow"] * 3
                                                + ["white", "light_grey"]})

    # Julia's two wear cubes came back in her draw: a pit stop returns both to the stock.
    expect(page.locator("#prompt")).to_have_text("Julia: Action phase")
    expect(julia.locator(".au-zone.active .au-cubes[data-colour=brown]")).to_have_attribute("data-n", "2")
    pit = page.locator("#turn-body [data-type=pit_stop]")
    expect(pit).to_have_text("Pit stop: 2 wear back to the stock")
    shoot(page, "automobiles-pit-stop")
    brown = session.snapshot()["view"]["stock"]["brown"]
    pit.click()
    expect(page.locator("#events")).to_contain_text("Julia makes a pit stop: 2 wear back to the stock")
    expect(page.locator("#prompt")).to_have_text("Julia: End phase")
    assert session.snapshot()["view"]["stock"]["brown"] == brown + 2

    # German at the flip of a switch: the phase, the cubes, the odds.
    page.click("[data-lang=de]")
    expect(page.locator("#prompt")).to_have_text("Julia: Endphase")
    expect(page.locator("#au-odds")).to_contain_text("Nächstes Ziehen von 7")
    expect(page.locator(".au-board[data-colour=red] .au-zone-name").first).to_have_text("Beutel")


def test_a_race_is_set_up_on_the_new_game_page(empty_table, open_page):
    session = empty_table.session
    base = f"http://127.0.0.1:{empty_table.port}"
    page = open_page(f"{base}/new?kiosk=0", control=True)
    page.check("input[name=game][value=automobiles]")
    expect(page.locator("[data-game-fields=automobiles]")).to_be_visible()
    expect(page.locator("[data-player='0'] .colour-pick button")).to_have_count(5)
    page.fill("input[name=player-0]", "Julia")
    page.fill("input[name=player-1]", "Ben")
    page.click("[data-player='1'] [data-colour=blue]")
    page.click("[data-player='0'] [data-colour=red]")
    page.check("input[name=au-pool][value=both]")
    page.click("#start-game")
    page.wait_for_url(f"{base}/")
    assert session.record.game == "automobiles"
    players = [{"name": "Julia", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    assert session.record.options == {"players": players, "track": "reference_oval", "card_pool": "both",
                                      "open_bags": True}
    first = {"red": "Julia", "blue": "Ben"}[session.prompt().actor]  # the start player is drawn (AU-10), on P1
    expect(page.locator("#prompt")).to_have_text(f"{first}: Opening buy")
    expect(page.locator("#au-buy .au-money")).to_have_text("$10 to spend★")  # the reference oval's start money
    expect(page.locator("#track .au-name")).to_have_text("Reference oval")


def test_a_tap_on_a_card_in_play_shows_what_it_does_in_german_and_a_move_names_its_field(race, open_page):
    session = race.session
    act(session, *[{"type": "draw", "dice": FIRST_DRAW}] * 3, {"type": "activate", "colour": "light_grey"})
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True, locale="de-DE", viewport=(1024, 768))
    expect(page.locator("#prompt")).to_have_text("Julia: Kartenwirkung")
    expect(page.locator("#au-moves")).to_contain_text("Auf Spur 1, Feld 1 fahren · Verschleiß 2")

    manager = page.locator("#au-cards .au-card[data-colour=yellow]")
    text = manager.locator(".au-card-text")
    expect(text).to_be_hidden()
    head = manager.locator("summary").bounding_box()
    assert head["height"] >= 44 and head["width"] >= 44  # a thumb's target on a tablet
    manager.locator("summary").click()
    expect(text).to_have_text("Lege 0–3 Würfel aus deinem aktiven Bereich auf deine Ablage, dann entferne genau so "
                              "viele Würfel aus deiner Ablage (die gerade abgelegten dürfen dabei sein).")
    expect(manager.locator(".au-ref")).to_have_text("★")  # its cost is still marked as reference data

    page.locator("#overlay .au-dest[data-dest=L0-00]").dispatch_event("click")  # the table plays on: it stays open
    expect(page.locator("#events")).to_contain_text("Julia: der hellgraue Würfel fährt auf Spur 1, Feld 1")
    expect(text).to_be_visible()
    page.locator("#au-cards").scroll_into_view_if_needed()
    shoot_page(page, "automobiles-card-texts-de")
