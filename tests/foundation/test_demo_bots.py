"""The demo's bots play only the seats that are bots': never a person's move, not after a restart, and a finished
game of people stays on the table. A whole demo companion runs in-process (store, server, synthetic camera, bots)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from companion import runtime
from companion.cli import main
from companion.config import demo_config
from companion.session import TableSession
from companion.store import EventStore
from tests.conftest import PIN, Client

DELAY = 0.05
"""Seconds between the bots' looks at the table."""
QUIET = 1.5
"""How long a table must stay untouched by the bots: many of their looks, and longer than a bot's roll through the
synthetic camera takes (so a bot that did play would be seen)."""
PEOPLE = [{"name": "Ada", "colour": "green"}, {"name": "Bo", "colour": "blue"}]
PIN_HEADER = {"X-Table-Pin": PIN}


@pytest.fixture
def tables(tmp_path):
    """Start the demo on one data folder (again, for a restart); everything started is stopped at the end."""
    running: list[runtime.Companion] = []

    def start(*, game: str = "chariot-race", humans: int = 0, bots: bool = True) -> runtime.Companion:
        for companion in running:
            companion.stop()
        running.clear()
        config = demo_config(tmp_path / "data", port=0, pin=PIN)
        companion = runtime.build(replace(config, game=replace(config.game, id=game)))
        companion.server.start()
        running.append(companion)
        if bots:
            runtime.start_bots(companion, seed=1, delay=DELAY, humans=humans)
        return companion

    yield start
    for companion in running:
        companion.stop()


def start_from_new_game(companion: runtime.Companion, game: str, players: list[dict], **options) -> int:
    """What the New game page posts."""
    status, body = Client(companion.server.port).post(
        "/api/game", {"game": game, "options": {"players": players, **options}}, headers=PIN_HEADER)
    assert status == 200, body
    return body["game"]


def events_of(companion: runtime.Companion, game: int) -> list:
    return companion.session.store.events(game)


def wait_for(condition, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(DELAY)
    return False


def play_dice_race_to_the_end(session: TableSession) -> None:
    """As people do on the dashboard: the first player rolls 6 each turn, the second 1; the first wins."""
    while not session.game.is_over(session.state):
        six = session.state.current == session.state.players[0]
        session.act({"type": "roll", "dice": ["6" if six else "1"]}, actor="table", source="dashboard")


@pytest.mark.parametrize(("game", "options"), [
    ("chariot-race", {"board": "A", "start": "random"}),
    ("hexenrennen", {"tiles": "hidden"}),
    ("dice-race", {}),
])
def test_a_game_of_people_started_from_new_game_gets_no_bot_moves(tables, game, options):
    companion = tables(game=game)  # the demo of the same game: its bots could roll these dice in the tray
    assert wait_for(lambda: companion.session.record is not None), "the demo did not start its own game"
    number = start_from_new_game(companion, game, [dict(p, bot=False) for p in PEOPLE], **options)
    time.sleep(QUIET)
    assert companion.session.record.id == number
    assert events_of(companion, number) == []


def test_a_game_of_people_resumed_after_a_restart_gets_no_bot_move(tables, tmp_path):
    (tmp_path / "data").mkdir()
    store = EventStore.in_data_dir(tmp_path / "data")
    number = TableSession(store).new_game("chariot-race", {"players": PEOPLE}, seed=3).id  # stored before seat kinds
    store.close()
    for _ in range(2):
        companion = tables()
        time.sleep(QUIET)
        assert companion.session.record.id == number
        assert events_of(companion, number) == []


def test_in_a_mixed_game_the_bot_plays_its_seat_only_and_its_move_is_stored_and_logged_as_a_bot_s(tables):
    companion = tables(game="dice-race")
    number = start_from_new_game(companion, "dice-race", [{"name": "Ada", "bot": False}, {"name": "Bea", "bot": True}])
    time.sleep(QUIET)
    assert events_of(companion, number) == [], "a bot played Ada's first turn"

    client = Client(companion.server.port)
    assert client.post("/api/action", {"type": "roll", "dice": ["3"]}, headers=PIN_HEADER)[0] == 200
    assert wait_for(lambda: len(events_of(companion, number)) == 2), "the bot did not play its seat"
    time.sleep(QUIET)
    ada, bea = events_of(companion, number)
    assert len(events_of(companion, number)) == 2, "the table did not wait for Ada"
    assert (ada.actor, ada.payload["source"]) == ("table", "dashboard")
    assert (bea.actor, bea.payload["source"], bea.type) == ("Bea", "bot", "roll")

    status, log = client.get("/api/log?lang=en")
    assert status == 200
    first, second = (entry["lines"][0]["text"] for entry in log["entries"])
    assert first == "Ada moves 3 to 3"
    assert second.startswith("Bea (bot) moves ")
    assert Client(companion.server.port).get("/api/log?lang=de")[1]["entries"][1]["lines"][0]["text"].startswith(
        "Bea (Bot) zieht ")


def test_a_finished_game_of_people_stays_on_the_table(tables):
    companion = tables(game="dice-race")
    number = start_from_new_game(companion, "dice-race", PEOPLE)
    play_dice_race_to_the_end(companion.session)
    time.sleep(5 * DELAY + QUIET)
    assert companion.session.record.id == number
    assert all(event.payload["source"] == "dashboard" for event in events_of(companion, number))


def test_a_finished_game_of_bots_makes_way_for_the_next_demo_game(tables):
    companion = tables(game="dice-race", bots=False)
    session = companion.session
    finished = session.new_game("dice-race", {"players": [dict(p, bot=True) for p in PEOPLE]}, seed=1).id
    play_dice_race_to_the_end(session)
    runtime.start_bots(companion, seed=1, delay=DELAY)
    assert wait_for(lambda: session.record.id != finished), "no new demo game"
    assert all(session.game.seats(session.state).values())


def test_the_demo_with_one_human_keeps_the_first_seat_for_a_person(tables):
    companion = tables(game="dice-race", humans=1)
    assert wait_for(lambda: companion.session.record is not None)
    assert companion.session.record.options["players"][0]["bot"] is False
    time.sleep(QUIET)
    assert events_of(companion, companion.session.record.id) == [], "a bot played Julia's first turn"


def test_demo_humans_beyond_the_demo_s_seats_is_a_usage_error(tmp_path, capsys):
    assert main(["demo", "--humans", "5", "--data-dir", str(tmp_path)]) == 2
    assert "--humans 5" in capsys.readouterr().err


def test_a_finished_demo_game_stays_up_while_the_kiosk_shows_the_evening(tables):
    companion = tables(game="dice-race", bots=False)
    session = companion.session
    finished = session.new_game("dice-race", {"players": [dict(p, bot=True) for p in PEOPLE]}, seed=1).id
    play_dice_race_to_the_end(session)
    runtime.start_bots(companion, seed=1, delay=DELAY, between=2 * QUIET)
    time.sleep(QUIET)  # well past five looks of the bots, still within the evening's pause
    assert session.record.id == finished
    assert wait_for(lambda: session.record.id != finished), "no new demo game after the evening"
