"""Cubitos on the dashboard in Debian's Chromium: a roll typed in die by die, push or pass with the exact bust chance
of the next roll (the figure of ``rules.push_odds``), a bust and the dice it rests, a buy with what is affordable and
what is left in the stock, and a whole race section phase by phase (support with an ability resolved by hand,
moving by a tap on the track, buying, resting). The table has no camera (the Cubitos dice set has no model yet), so
the dice are typed in. Positions are reached as at a table: from the set-up, through the rules, with the dice the
Turn format of ``companion rules cubitos apply`` names (``"<die type>/<face label>"``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.cubitos.rules import push_odds
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer
from tests.web.conftest import shoot as shoot_page

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

L, D = "grey_light", "grey_dark"
TWO = {"players": [{"name": "Ada", "colour": "blue"}, {"name": "Bo", "colour": "red"}]}
"""Ada leads: she holds the lead die and rolls first (10 dice: the lead die and a refill of 9)."""
ADA_FIRST = ["lead/credit1", f"{D}/step1", f"{D}/blank", f"{L}/coin1"] + [f"{L}/blank"] * 6
"""Three hits, the lead die among them: Ada is in danger (CU-32, CU-53)."""
BO_FIRST = [f"{L}/coin1"] * 7 + [f"{D}/coin1"] * 2
"""Every die hits: nothing is left to roll, so Bo passes (CU-37) with 9 coins."""
ADA_PUSH_BLANK = [f"{D}/blank"] + [f"{L}/blank"] * 6
"""Ada's push: no hit while in danger, a bust (CU-33, CU-34)."""


@pytest.fixture
def table(session) -> Iterator[LiveServer]:
    """A two-player race on a real server, without a camera."""
    session.new_game("cubitos", TWO, seed=1)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    yield LiveServer(session, server)
    session.broker.close()
    server.stop()


def play(session: Any, *actions: dict[str, Any]) -> None:
    """Actions through the rules, each by whoever the table waits for. A "done" that the table played by itself
    just before (it was the only option: a ``by_itself`` event) is passed over, as nobody taps it."""
    told: list[dict[str, Any]] = []
    for action in actions:
        if set(action) == {"type"} and any(e["type"] == "by_itself" and e["action"] == action["type"] for e in told):
            continue
        told = session.act(action, actor=session.prompt().actor).payload["events"]


def roll(*dice: str) -> dict[str, Any]:
    return {"type": "roll", "dice": list(dice)}


def shoot(page: Any, name: str, **kwargs: Any) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    shoot_page(page, name, **kwargs)


def type_in(page: Any, faces: list[str]) -> None:
    """The roll typed in face by face, each from its die type's row, then confirmed."""
    for n, face in enumerate(faces, 1):
        page.click(f".manual .palette [data-face='{face}']")
        if n < len(faces):
            expect(page.locator(".manual .draft .die")).to_have_count(n)
    expect(page.locator("#pending .die")).to_have_count(len(faces))
    page.click("#confirm-roll")


def board(page: Any, colour: str, zone: str) -> Any:
    return page.locator(f".cu-board[data-player={colour}] [data-zone={zone}]")


def test_a_roll_typed_in_die_by_die_places_its_hits_and_puts_the_roller_in_danger(table, open_page):
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Ada: Roll")
    expect(page.locator("#phases li.now")).to_have_text(["Refill", "Roll"])
    expect(page.locator(".cu-roll-info")).to_have_text(
        "Refill the ready zone (1) to the limit of 9 (+9) and roll all 10 dice.")
    expect(page.locator(".roll-box .waiting")).to_have_text("No camera: enter the faces below.")
    # one row per die type Ada owns: the start dice and the lead die
    expect(page.locator(".palette .cu-palette-row")).to_have_count(3)
    expect(page.locator(".palette [data-die=lead] .face-btn")).to_have_count(4)
    for face in ADA_FIRST[:-1]:
        page.click(f".manual .palette [data-face='{face}']")
    expect(page.locator(".manual .draft svg.cu-die")).to_have_count(9)  # drawn as Cubitos dice, in their colours
    shoot(page, "cubitos-roll-entry", full_page=True)
    page.click(f".manual .palette [data-face='{ADA_FIRST[-1]}']")
    expect(page.locator("#pending .die")).to_have_count(10)
    expect(page.locator("#pending .die .face").first).to_have_text("lead: 1 credit")
    page.click("#confirm-roll")

    expect(page.locator("#prompt")).to_have_text("Ada: Push or pass?")
    expect(board(page, "blue", "active")).to_have_attribute("data-count", "3")
    active = board(page, "blue", "active").locator("svg.cu-die")
    assert sorted(active.evaluate_all("(dice) => dice.map((d) => `${d.dataset.die}/${d.dataset.face}`)")) == \
        ["grey_dark/step1", "grey_light/coin1", "lead/credit1"]
    assert sorted(active.locator(".mark").all_text_contents()) == sorted(["»", "●", "▣"])  # what each face shows
    expect(board(page, "blue", "ready")).to_have_attribute("data-count", "7")
    expect(board(page, "blue", "draw")).to_have_attribute("data-count", "0")
    expect(page.locator(".cu-board[data-player=blue] .cu-status")).to_have_text("in danger")
    expect(page.locator("#events")).to_contain_text("Ada rolls 10 dice: lead: 1 credit, dark grey: 1 step, "
                                                    "light grey: 1 coin")
    expect(page.locator("#events")).to_contain_text("Ada is in danger (3 active dice)")
    shoot(page, "cubitos-roll", full_page=True)


def test_push_or_pass_shows_the_exact_bust_chance_of_the_next_roll_and_what_a_push_brings(table, open_page):
    session = table.session
    play(session, roll(*ADA_FIRST))
    odds = push_odds(session.state, 0)
    assert 0 < odds["bust"] < 1  # in danger: 1 dark and 6 light grey dice all blank
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Ada: Push or pass?")
    expect(page.locator("#phases li.now")).to_have_text("Push/pass")
    expect(page.locator("#cu-odds")).to_have_attribute("data-bust", repr(odds["bust"]))
    expect(page.locator("#cu-bust-chance")).to_have_text(f"{100 * odds['bust']:.1f} %")
    expect(page.locator(".cu-expect")).to_have_text(
        f"A push (7 dice) brings {odds['steps']:.2f} steps and {odds['coins']:.2f} coins on average.")
    expect(page.locator(".cu-push-pass .option")).to_have_text(["Pass", "Push"])
    expect(page.locator("#button-next .what")).to_have_text("option 2 of 2: Push")
    expect(page.locator("#buttons-panel")).not_to_contain_text("null")  # no stray text under the three buttons
    shoot(page, "cubitos-push")

    page.click("[data-lang=de]")  # the same figure as German writes it
    expect(page.locator("#cu-bust-chance")).to_have_text(f"{100 * odds['bust']:.1f} %".replace(".", ","))
    page.click("[data-lang=en]")

    page.click(".cu-push-pass .cu-push")
    expect(page.locator("#events")).to_contain_text("Ada pushes")
    # Bo now has the most dice to roll (CU-23): the refill of his 9
    expect(page.locator("#prompt")).to_have_text("Bo: Roll")
    expect(page.locator(".order-chip[data-player=blue] .cu-status")).to_have_text("in danger")
    assert session.snapshot()["prompt"]["options"] == [{"type": "roll", "roll": 9}]


def test_a_bust_rests_the_active_dice_and_the_ready_dice_the_player_chooses(table, open_page):
    session = table.session
    play(session, roll(*ADA_FIRST), {"type": "push"}, roll(*BO_FIRST))
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Ada: Roll")
    expect(page.locator(".cu-roll-info")).to_have_text("Roll the 7 dice of the ready zone.")
    expect(page.locator(".order-chip[data-player=red] .cu-status")).to_have_text("passed")
    type_in(page, ADA_PUSH_BLANK)

    expect(page.locator("#prompt")).to_have_text("Ada: Bust!")
    expect(page.locator("#events")).to_contain_text("Ada busts: the active dice rest")
    expect(board(page, "blue", "active")).to_have_attribute("data-count", "0")
    expect(board(page, "blue", "rest")).to_have_attribute("data-count", "3")
    expect(page.locator(".cu-rest-row")).to_have_count(2)  # the ready zone's dark and light grey dice
    expect(page.locator("#cu-rest-confirm")).to_have_text("Keep them all in the ready zone")  # none chosen yet
    page.click("[data-more=grey_light]")
    page.click("[data-more=grey_light]")
    expect(page.locator(".cu-rest-row[data-die=grey_light] .cu-rest-name")).to_have_text("light grey: 2 / 6")
    expect(page.locator("#cu-rest-confirm")).to_have_text("Rest 2× light grey")
    shoot(page, "cubitos-bust", full_page=True)
    page.click("#cu-rest-confirm")

    # CU-34: one fan (its space pays 1 credit), and the roll section is over for Ada
    expect(page.locator("#events")).to_contain_text("Ada rests 2× light grey from the ready zone")
    expect(board(page, "blue", "rest")).to_have_attribute("data-count", "5")
    expect(board(page, "blue", "ready")).to_have_attribute("data-count", "5")
    expect(page.locator("#fan-track [data-fans='1'] [data-player=blue]")).to_have_count(1)
    expect(page.locator(".cu-board[data-player=blue] [data-value=credits] b")).to_have_text("1")
    expect(page.locator("#prompt")).to_have_text("Ada: Move (phase 6)")  # everyone is done rolling


def test_buying_offers_what_is_affordable_and_counts_the_stock(table, open_page):
    session = table.session
    play(session, roll(*ADA_FIRST), {"type": "push"}, roll(*BO_FIRST), roll(*ADA_PUSH_BLANK),
         {"type": "rest", "rest": {L: 2}}, {"type": "done"}, {"type": "done"}, {"type": "done"})
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True)
    expect(page.locator("#prompt")).to_have_text("Bo: Buy (phase 7)")
    expect(page.locator("#phases li.now")).to_have_text("Buy")
    expect(page.locator(".cu-buy-info")).to_have_text("9 coins, 0 credits; 2 more dice of different colours.")
    expect(page.locator("#cu-buy .cu-card.buyable")).to_have_count(8)  # every card costs 6 coins or less
    expect(page.locator("#cu-buy .cu-card[data-colour=red] .cu-cost")).to_have_text("4●*")  # a reference cost
    expect(page.locator("#cu-buy .cu-card[data-colour=red] .cu-left")).to_have_text("10 left")
    expect(page.locator("#cu-ref-note")).to_have_text(
        "* Reference value: not from the printed game; a table enters the real values in the data files.")
    page.click("#cu-buy .cu-card[data-colour=red]")

    expect(page.locator("#events")).to_contain_text("Bo buys a crab die for 4 coins")
    expect(page.locator(".cu-board[data-player=red] [data-value=coins] b")).to_have_text("5")
    expect(board(page, "red", "rest").locator("[data-die=red]")).to_have_count(1)
    expect(page.locator("#cu-buy .cu-card[data-colour=red] .cu-left")).to_have_text("9 left")
    expect(page.locator("#cu-buy .cu-card[data-colour=red] .cu-why")).to_have_text("bought")  # CU-48
    expect(page.locator("#cu-buy .cu-card[data-colour=blue] .cu-why")).to_have_text("too dear")  # 6 coins
    expect(page.locator("#cu-buy .cu-card.buyable")).to_have_count(6)
    expect(page.locator("#cu-market .cu-card[data-colour=red] .cu-left")).to_have_text("9 left")
    shoot(page, "cubitos-buy", full_page=True)


def test_a_whole_race_section_phase_by_phase(table, open_page):
    session = table.session
    # Round 1 as above, Bo buying a crab (Mr. Krabs, an ability the seed does not describe); round 2's roll section:
    # Bo, now the lead, rolls the crab on its team face, two steps and two coins, and passes; Ada passes.
    play(session, roll(*ADA_FIRST), {"type": "push"}, roll(*BO_FIRST), roll(*ADA_PUSH_BLANK),
         {"type": "rest", "rest": {L: 2}}, {"type": "done"}, {"type": "done"}, {"type": "done"},
         {"type": "buy", "die": "red"}, {"type": "done"},
         roll("lead/coin2", "red/team", f"{D}/step1", f"{D}/step1", *[f"{L}/blank"] * 6), {"type": "pass"},
         roll(*[f"{D}/blank"] * 2, *[f"{L}/blank"] * 7))
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True)
    steps = lambda: page.locator("#phases li.now")  # noqa: E731

    # Ada passes: every round card is red, the race section begins with phase 5 (CU-22)
    page.click(".cu-push-pass .cu-pass")
    expect(page.locator("#prompt")).to_have_text("Bo: Support (phase 5)")
    expect(steps()).to_have_text("Support")
    expect(page.locator("#phases li.done")).to_have_count(4)
    expect(page.locator("#turn-banner")).to_contain_text("Round 2 · race section")
    expect(page.locator("#events")).to_contain_text("Bo's faces give +2 coins, +2 steps, swords: 1")
    expect(page.locator(".cu-board[data-player=red] [data-value=steps] b")).to_have_text("2")
    shoot(page, "cubitos-support", full_page=True)
    page.get_by_role("button", name="Resolve Mr. Krabs by hand", exact=True).click()
    expect(page.locator("#prompt")).to_have_text("Bo: Adjust by hand")
    page.get_by_role("button", name="+1 coins", exact=True).click()
    expect(page.locator(".cu-board[data-player=red] [data-value=coins] b")).to_have_text("3")
    expect(page.locator("#events")).to_contain_text("Bo adjusts by hand for Mr. Krabs: +1 coins")
    page.click(".cu-opt-done")

    # phase 6: a destination tapped on the track, then confirmed
    expect(page.locator("#prompt")).to_have_text("Bo: Move (phase 6)")
    expect(steps()).to_have_text("Move")
    expect(page.locator(".cu-move-info")).to_have_text("2 steps, 0 water entries, on space S.")
    expect(page.locator("#overlay .cu-dest[data-dest=A03]")).to_have_count(1)
    page.locator("#overlay .cu-dest[data-dest=A03]").dispatch_event("click")
    expect(page.locator(".move-summary .path")).to_have_text("S → A02 → A03")
    shoot(page, "cubitos-move", full_page=True)
    page.click("#cu-confirm-move")
    expect(page.locator("#overlay .cu-runner[data-player=red]")).to_have_attribute("data-space", "A03")
    expect(page.locator("#events")).to_contain_text("Bo moves 2 to A03")
    expect(page.locator("#events")).to_contain_text("Bo has no step to take and stops")  # a lone Done plays itself
    expect(page.locator("#events")).to_contain_text("Bo takes 1 credit from the space")  # A03's bonus
    expect(page.locator("#prompt")).to_have_text("Ada: Move (phase 6)")
    page.click(".cu-opt-done")

    # phase 7: Bo (3 coins and a credit) can afford the 3-coin dice only
    expect(page.locator("#prompt")).to_have_text("Bo: Buy (phase 7)")
    expect(steps()).to_have_text("Buy")
    expect(page.locator("#cu-buy .cu-card.buyable")).to_have_count(3)
    page.click(".cu-opt-done")
    expect(page.locator("#prompt")).to_have_text("Ada: Buy (phase 7)")
    page.click(".cu-opt-done")

    # phase 8: the active dice rest, coins and steps are lost, the lead die passes: round 3 begins
    expect(page.locator("#turn-banner")).to_contain_text("Round 3 · roll section")
    expect(page.locator("#events")).to_contain_text("Round 3: Ada leads")
    expect(board(page, "red", "active")).to_have_attribute("data-count", "0")
    expect(board(page, "red", "rest").locator("[data-die=red]")).to_have_count(1)
    expect(page.locator(".cu-board[data-player=red] [data-value=coins] b")).to_have_text("0")
    expect(page.locator(".cu-board[data-player=red] [data-value=credits] b")).to_have_text("1")  # credits stay
    expect(page.locator("#prompt")).to_have_text("Ada: Roll")


def test_a_race_is_set_up_on_the_new_game_page(empty_table, open_page):
    base = f"http://127.0.0.1:{empty_table.port}"
    page = open_page(f"{base}/new?kiosk=0", control=True)
    page.check("input[name=game][value=cubitos]")
    expect(page.locator("[data-player='0'] .colour-pick button")).to_have_count(4)  # blue, yellow, red, white
    expect(page.locator("[data-game-fields=cubitos] input[name=race]")).to_have_count(7)
    page.fill("input[name=player-0]", "Ada")
    page.fill("input[name=player-1]", "Bo")
    page.click("[data-player='0'] [data-colour=white]")
    page.check("input[name=race][value=race_2]")
    expect(page.locator("#start-game")).to_have_text("Start the race")
    page.click("#start-game")
    page.wait_for_url(f"{base}/")
    assert empty_table.session.record.options == {
        "players": [{"name": "Ada", "colour": "white"}, {"name": "Bo", "colour": "red"}], "race": "race_2"}
    expect(page.locator("#prompt")).to_have_text("Ada: Roll")
    expect(page.locator("#track .cu-segment")).to_have_attribute("data-track", "eine_wuerfellaenge_voraus")
    expect(page.locator("#overlay .cu-runner")).to_have_count(2)
    expect(page.locator(".cu-board")).to_have_count(2)


def test_the_kiosk_shows_push_or_pass_with_its_odds_above_the_fold_in_german(table, open_page):
    session = table.session
    play(session, roll(*ADA_FIRST))
    bust = push_odds(session.state, 0)["bust"]
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=1", control=True, locale="de-DE", viewport=(1280, 800))
    expect(page.locator("#prompt")).to_have_text("Ada: Riskieren oder passen?")
    expect(page.locator("#cu-bust-chance")).to_have_text(f"{100 * bust:.1f} %".replace(".", ","))
    expect(page.locator("#cu-ref-note")).to_contain_text("Referenzwert: nicht vom gedruckten Spiel")
    for selector in ("#cu-odds", ".cu-push-pass", ".cu-board[data-player=red] .cu-values", "#cu-ref-note"):
        box = page.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= 800, selector
    shoot(page, "cubitos-kiosk-de")


def test_a_destination_on_the_track_is_a_44_px_target_on_a_tablet(table, open_page):
    session = table.session
    play(session, roll(*ADA_FIRST), {"type": "push"}, roll(*BO_FIRST), roll(*ADA_PUSH_BLANK),
         {"type": "rest", "rest": {}}, {"type": "done"}, {"type": "buy_step"}, {"type": "buy_step"})
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True, locale="nl-NL", viewport=(1024, 768))
    expect(page.locator("#prompt")).to_have_text("Bo: Bewegen (fase 6)")
    expect(page.locator(".cu-move-info")).to_have_text("2 stappen, 0 keer water, op veld S.")
    targets = page.locator("#overlay .cu-dest .tap")
    expect(targets).to_have_count(len([o for o in session.prompt().options if o["type"] == "move"]))
    assert min(min(b["width"], b["height"]) for b in (targets.nth(k).bounding_box()
                                                       for k in range(targets.count()))) >= 44


def test_a_tap_on_a_card_in_play_shows_what_it_does_in_german_and_it_stays_open(table, open_page):
    page = open_page(f"http://127.0.0.1:{table.port}/?kiosk=0", control=True, locale="de-DE", viewport=(1024, 768))
    expect(page.locator("#prompt")).to_have_text("Ada: Würfeln")
    maasdamer = page.locator("#cu-market .cu-card[data-colour=yellow]")
    texts = maasdamer.locator(".cu-card-texts")
    expect(texts).to_be_hidden()
    head = maasdamer.locator("summary").bounding_box()
    assert head["height"] >= 44 and head["width"] >= 44  # a thumb's target on a tablet
    maasdamer.locator("summary").click()
    expect(texts).to_have_text("Bei jedem Riskieren ohne Fehlwurf: Erhalte 1 Schritt und geh ihn sofort "
                               "(keine Sonderaktion, kein Bonus).")
    expect(maasdamer.locator(".cu-cost")).to_have_text("4●*")  # its cost is still marked as reference data
    page.click("#cu-market .cu-card[data-colour=red] summary")  # Mr. Krabs: the seed does not describe it
    krabs = page.locator("#cu-market .cu-card[data-colour=red] .cu-card-texts")
    expect(krabs).to_contain_text("Die Fähigkeit steht auf der Karte")

    play(table.session, roll(*ADA_FIRST))  # the table plays on: the open cards stay open
    expect(page.locator("#prompt")).to_have_text("Ada: Riskieren oder passen?")
    expect(texts).to_be_visible()
    page.locator("#cu-market").scroll_into_view_if_needed()
    shoot_page(page, "cubitos-card-texts-de")
