"""No game is ever thrown away, in Chromium: New game asks before it replaces a running game and starts from the last
set-up, the games list resumes it and plays any game again, the game-over screen offers a rematch, and the players
of the game on the table are renamed or handed to a bot and back, each in the log."""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import shoot
from tests.web.test_race_over import play_to_the_end

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

PHONE = (390, 844)


def roll(session, face: str = "3") -> None:
    session.act({"type": "roll", "dice": [face]}, actor=session.prompt().actor)


def watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def test_new_game_asks_before_it_replaces_a_running_game_which_then_resumes_from_the_games_list(race, open_page):
    session = race.session
    running = session.record.id
    session.act({"type": "roll", "roll": 4, "dice": ["drive", "drive", "steer", "fortune"]}, actor="green")
    before = session.snapshot()
    base = f"http://127.0.0.1:{race.port}"
    page = open_page(f"{base}/new?kiosk=0", control=True)
    errors = watch_errors(page)
    # The form starts from the last set-up: the game on the table, its four players in their colours.
    expect(page.locator("#new-game")).to_have_attribute("data-last-setup", "loaded")
    expect(page.locator("input[name=game][value=chariot-race]")).to_be_checked()
    assert [page.input_value(f"input[name=player-{k}]") for k in range(4)] == ["Julia", "Klaus", "Ben", "Heidi"]
    expect(page.locator("[data-player='3'] .colour-red")).to_have_class("colour-red chosen")
    page.click("#start-game")
    question = page.locator("#replace-question")
    expect(question).to_be_visible()
    expect(question).to_contain_text(f"Chariot Race (game {running}) is still running")
    expect(question).to_contain_text("stays in the games list")
    question.locator("button.quiet").click()
    expect(question).to_be_hidden()
    assert session.record.id == running
    page.click("#start-game")
    page.click("#replace-confirm")
    page.wait_for_url(f"{base}/")
    assert session.record.id != running and session.record.options["players"] == before["game"]["options"]["players"]

    page.goto(f"{base}/games?kiosk=0")
    old = page.locator(f".game-item[data-game='{running}']")
    expect(old.locator(".game-status")).to_have_text("Julia's turn")
    expect(old.locator(".game-last")).to_contain_text("Last:")
    expect(page.locator(".game-item.current .resume")).to_have_count(0)  # the game on the table needs no resume
    old.locator("button.resume").click()
    page.wait_for_url(f"{base}/")
    assert session.record.id == running and session.snapshot()["view"] == before["view"]
    expect(page.locator("#prompt")).to_contain_text("Julia")
    assert errors == []


COLOURS = {"chariot-race": ["green", "yellow", "blue", "red"], "cubitos": ["blue", "yellow", "red", "white"],
           "automobiles": ["red", "blue", "yellow", "green"]}


@pytest.mark.parametrize(("game_id", "options", "shown"), [
    ("chariot-race", {"board": "B", "variants": {"no_damage_after_finish": True, "alternative_chariots": False},
                      "start": {"order": ["red", "blue", "yellow", "green"]}},
     ["input[name=board][value=B]", "input[name=no_damage_after_finish]", "input[name=start][value=chosen]"]),
    ("cubitos", {"race": "race_3"}, ["input[name=race][value=race_3]"]),
    ("automobiles", {"track": "reference_oval", "card_pool": "racing_season", "open_bags": False},
     ["input[name=au-pool][value=racing_season]"]),
])
def test_new_game_starts_from_the_last_games_own_settings_too(race, open_page, game_id, options, shown):
    """A second game of the evening is the same game again: its board, race, variants and start order carry over."""
    names = [p["name"] for p in race.session.record.options["players"]]
    colours = COLOURS[game_id]
    players = [{"name": name, "colour": colour} for name, colour in zip(names, colours, strict=True)]
    race.session.new_game(game_id, {"players": players, **options}, seed=3)
    last = race.session.record.options
    page = open_page(f"http://127.0.0.1:{race.port}/new?kiosk=0", control=True)
    expect(page.locator("#new-game")).to_have_attribute("data-last-setup", "loaded")
    for selector in shown:
        expect(page.locator(selector)).to_be_checked()
    if game_id == "automobiles":
        expect(page.locator("input[name=au-open-bags]")).not_to_be_checked()
    page.click("#start-game")
    page.click("#replace-confirm")
    page.wait_for_url(f"http://127.0.0.1:{race.port}/")
    assert race.session.record.options == last and race.session.record.seed != 3


def test_the_games_list_speaks_german_and_shows_spectators_no_controls(race, open_page):
    session = race.session
    race_number = session.record.id
    session.act({"type": "roll", "roll": 4, "dice": ["drive", "drive", "steer", "fortune"]}, actor="green")
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    while not session.game.is_over(session.state):
        roll(session, "6")
    session.new_game("dice-race", {"players": ["Ada", "Bo", "Cy"]}, seed=2)
    roll(session, "4")
    base = f"http://127.0.0.1:{race.port}"
    page = open_page(f"{base}/games?kiosk=0", control=True, locale="de-DE")
    errors = watch_errors(page)
    items = page.locator(".game-item")
    expect(items).to_have_count(3)
    expect(items.nth(0)).to_contain_text("Auf dem Tisch")
    expect(items.nth(0).locator(".game-last")).to_have_text("Zuletzt: Ada zieht 4 nach 4")
    expect(items.nth(1).locator(".game-status")).to_have_text("Spiel vorbei")
    expect(items.nth(1).locator("button.resume")).to_have_count(0)
    expect(items.nth(2).locator(".game-players")).to_have_text("Julia, Klaus, Ben, Heidi")
    expect(items.nth(2).locator("button.resume")).to_have_text("Fortsetzen")
    expect(page.locator("#seats .seat-row")).to_have_count(3)
    # Measured in one step once shown: the list follows the table live, and a button taken from a list redrawn
    # since is gone. Twice in CI every button measured 0 x 0 (not shown) right after the first was seen, with the
    # list drawn and control on: the measure waits until they are laid out, and the body says why if they never are.
    expect(page.locator(".game-item button").first).to_be_visible()
    measure = "() => [...document.querySelectorAll('.game-item button')].map((b) => [b.offsetWidth, b.offsetHeight])"
    try:
        page.wait_for_function(f"({measure})().every(([w, h]) => w > 0 && h > 0)", timeout=5000)
    except sync_api.TimeoutError:  # the assert below says what was measured
        pass
    sizes = page.evaluate(measure)
    assert sizes and all(width >= 44 and height >= 44 for width, height in sizes), (  # thumb-sized
        sizes, page.evaluate("[document.body.dataset.control, document.body.className]"))
    shoot(page, "games-list", full_page=True)
    page.click("#seats > summary")
    expect(page.locator("#seats .seat-row input").first).to_be_visible()
    assert errors == []

    spectator = open_page(f"{base}/games?kiosk=0", locale="de-DE", viewport=PHONE)
    expect(spectator.locator(".game-item")).to_have_count(3)
    expect(spectator.locator(".game-item button")).to_have_count(4)  # in the page, never shown
    for button in spectator.locator(".game-item button").all():
        expect(button).to_be_hidden()
    expect(spectator.locator("#seats")).to_be_hidden()
    expect(spectator.locator(".game-item .export").first).to_be_visible()  # the log is everyone's to read
    assert spectator.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    assert race_number == session.store.listing()[0].record.id

    # A rematch over the running game asks first, as New game does; the running game stays listed.
    page.locator(f".game-item[data-game='{race_number}'] button.rematch").click()
    expect(page.locator("#games-question")).to_contain_text("Dice Race (Spiel 3) läuft noch")
    page.click("#games-question-confirm")
    page.wait_for_url(f"{base}/")
    assert session.record.game == "chariot-race" and session.record.id == 4
    assert [line.record.finished is None for line in session.store.listing()] == [True, False, True, True]


def test_players_are_renamed_and_a_seat_is_handed_to_a_bot_and_back_each_in_the_log(race, open_page):
    race.app.config["BOTS_PLAY"] = True  # the demo's table: bots play the seats given to them
    session = race.session
    base = f"http://127.0.0.1:{race.port}"
    page = open_page(f"{base}/games?kiosk=0", control=True)
    errors = watch_errors(page)
    page.click("#seats > summary")
    seat = page.locator(".seat-row[data-seat='1']")
    seat.locator("input").fill("klaus")
    seat.locator("input").fill("Julia ")
    seat.locator("button.rename").click()
    expect(page.locator("#seats-error")).to_have_text("Julia is taken: every player needs an own name.")
    seat.locator("input").fill("Klaas")
    seat.locator("button.rename").click()
    expect(page.locator(".seat-row[data-seat='1'] input")).to_have_value("Klaas")
    expect(page.locator("#seats-error")).to_have_text("")
    page.locator(".seat-row[data-seat='2'] [data-kind=bot]").click()
    expect(page.locator(".seat-row[data-seat='2'] [data-kind=bot]")).to_have_attribute("aria-pressed", "true")
    assert session.game.seats(session.state)["blue"] is True
    page.locator(".seat-row[data-seat='2'] [data-kind=person]").click()
    expect(page.locator(".seat-row[data-seat='2'] [data-kind=person]")).to_have_attribute("aria-pressed", "true")
    assert session.game.seats(session.state)["blue"] is False
    assert [e.type for e in session.events()] == ["seat"] * 3

    table = open_page(f"{base}/?kiosk=0", locale="nl-NL")
    log = table.locator("#log")
    expect(log).to_contain_text("Klaus heet nu Klaas")
    expect(log).to_contain_text("Vanaf nu speelt een bot de plaats van Ben")
    expect(log).to_contain_text("Ben neemt de plaats terug van de bot")
    assert errors == []



def wait_for_the_answer(race, page, changes: int) -> None:
    """Until the table has logged `changes` seat changes or the page shows a refusal."""
    deadline = time.monotonic() + 10
    while len(race.session.events()) < changes and not page.locator("#seats-error").text_content():
        assert time.monotonic() < deadline, "the change was never answered"
        page.wait_for_timeout(50)


def test_a_seat_change_right_after_another_is_taken_before_the_page_has_reloaded(race, open_page):
    """The page's next change carries the seq its own last change left, not the one of a reload still on its way
    (a second tap once came back "the table has moved on"); here every reload is lost on the way."""
    race.app.config["BOTS_PLAY"] = True
    page = open_page(f"http://127.0.0.1:{race.port}/games?kiosk=0", control=True)
    page.click("#seats > summary")
    expect(page.locator(".seat-row[data-seat='1'] input")).to_be_visible()

    page.route("**/api/state", lambda route: route.abort())  # the reload after a change never comes back
    page.locator(".seat-row[data-seat='1'] input").fill("Klaas")
    page.locator(".seat-row[data-seat='1'] button.rename").click()
    expect(page.locator("#seats-error")).to_have_text("")
    page.locator(".seat-row[data-seat='2'] [data-kind=bot]").click()
    wait_for_the_answer(race, page, changes=2)
    expect(page.locator("#seats-error")).to_have_text("")
    assert [e.type for e in race.session.events()] == ["seat"] * 2
    assert race.session.game.seats(race.session.state)["blue"] is True


def test_a_reload_sent_before_a_seat_change_and_answered_after_it_does_not_take_the_table_back(race, open_page):
    """A reload of the list already on its way when a seat is renamed comes back with the table before the change;
    the next change is still made on the table the rename left, not refused as stale."""
    race.app.config["BOTS_PLAY"] = True
    page = open_page(f"http://127.0.0.1:{race.port}/games?kiosk=0", control=True)
    page.click("#seats > summary")
    expect(page.locator(".seat-row[data-seat='1'] input")).to_be_visible()
    held = []

    def hold_the_first(route):
        if held:
            route.abort()  # every later reload is lost on the way
        else:
            held.append((route, route.fetch()))  # answered now, handed to the page later

    page.route("**/api/state", hold_the_first)
    page.evaluate("() => { loadGames(); }")
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the reload never left"
        page.wait_for_timeout(50)
    before = page.evaluate("GAMES.state.seq")
    page.locator(".seat-row[data-seat='1'] input").fill("Klaas")
    page.locator(".seat-row[data-seat='1'] button.rename").click()
    page.wait_for_function(f"() => GAMES.state.seq > {before}")
    page.evaluate("() => document.querySelectorAll('#games > *').forEach((item) => { item.dataset.old = '1'; })")
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(page.locator("#games [data-old]")).to_have_count(0)  # the old reload came back and was drawn
    page.locator(".seat-row[data-seat='2'] [data-kind=bot]").click()
    wait_for_the_answer(race, page, changes=2)
    expect(page.locator("#seats-error")).to_have_text("")
    assert [e.type for e in race.session.events()] == ["seat"] * 2


def test_the_game_over_screen_offers_a_rematch_of_the_same_table(session, open_page):
    from companion.web import create_app
    from companion.web.server import Server
    from tests.conftest import PIN, LiveServer

    play_to_the_end(session, "chariot-race", seed=8)
    over = session.record
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    live = LiveServer(session, server)
    try:
        page = open_page(f"http://127.0.0.1:{live.port}/?kiosk=0", control=True)
        errors = watch_errors(page)
        page.locator("#race-over button.rematch").click()
        expect(page.locator("#race-over")).to_have_count(0)
        assert session.record.id != over.id and session.record.options == over.options
        assert session.record.seed != over.seed and session.snapshot()["seq"] == 0
        spectator = open_page(f"http://127.0.0.1:{live.port}/games?kiosk=0")
        expect(spectator.locator(f".game-item[data-game='{over.id}'] .game-status")).to_have_text("Game over")
        assert errors == []
    finally:
        session.broker.close()
        server.stop()


def test_new_game_has_no_script_error_when_the_screen_turns(empty_table, open_page):
    page = open_page(f"http://127.0.0.1:{empty_table.port}/new?kiosk=0", control=True)
    errors = watch_errors(page)
    for size in (PHONE, (1024, 768), PHONE):  # across the game modules' 700 px breakpoint, as a turned tablet does
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(100)
    page.check("input[name=game][value=automobiles]")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_timeout(100)
    assert errors == []
