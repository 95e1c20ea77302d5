"""Game over shows the standings, a chart of the race drawn from the log, and a way to a new game."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES, get_game, get_presentation
from companion.games.bots import GreedyBot, roll
from companion.race import race_summary
from companion.runtime import demo_options
from companion.session import TableSession
from companion.texts import catalog
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer
from tests.web.conftest import shoot

LANGUAGES = ("de", "nl", "en")
WITH_SUMMARY = sorted(g for g in GAMES if hasattr(get_presentation(g), "standings"))


def play_to_the_end(session: TableSession, game_id: str, seed: int) -> None:
    """A whole game of greedy bots through the session, as a table plays it: every action stored in the log."""
    session.new_game(game_id, demo_options(game_id), seed=seed)
    rng = random.Random(seed)
    while not session.snapshot()["game"]["over"]:
        prompt = session.prompt()
        action = roll(session.game, GreedyBot().choose(session.game, session.state, prompt, rng), rng, session.state)
        session.act(action, actor=prompt.actor)


def summary_of(session: TableSession) -> dict:
    game, record, actions, _ = session.history()
    return race_summary(game, get_presentation(record.game), record, actions)


@pytest.mark.parametrize("game_id", WITH_SUMMARY)
def test_the_standings_rank_every_seat_and_read_in_every_language(session, game_id):
    play_to_the_end(session, game_id, seed=5)
    standings = summary_of(session)["standings"]
    seats = get_game(game_id).seats(session.state)
    assert sorted(row["actor"] for row in standings) == sorted(seats)
    places = [row["place"] for row in standings]
    assert places == sorted(places) and places[0] == 1
    for lang in LANGUAGES:
        ui = catalog(lang)["ui"]
        for row in standings:
            text = ui[row["text"]]  # a missing text is a KeyError naming it
            assert all(f"{{{name}}}" not in text or row["values"][name] is not None
                       for name in row["values"]), (lang, row)


@pytest.mark.parametrize("game_id", WITH_SUMMARY)
def test_the_chart_has_a_point_per_step_and_ends_at_the_final_table(session, game_id):
    play_to_the_end(session, game_id, seed=11)
    chart = summary_of(session)["chart"]
    presentation = get_presentation(game_id)
    assert chart["x"] == list(range(chart["x"][0], chart["x"][0] + len(chart["x"])))
    last_x, final = presentation.chart_point(session.snapshot()["view"])
    assert chart["x"][-1] == last_x
    for metric in chart["metrics"]:
        assert all(metric in catalog(lang)["ui"] for lang in (*LANGUAGES,)), metric
        assert {actor: line[-1] for actor, line in chart["series"][metric].items()} == final[metric]
        assert all(len(line) == len(chart["x"]) for line in chart["series"][metric].values())
    assert chart["axis"] in catalog("de")["ui"]


def test_a_wrecked_chariot_ranks_by_how_far_it_got_before_the_wreck(session):
    for seed in range(40):  # a seed whose race wrecks chariots at different distances
        play_to_the_end(session, "chariot-race", seed)
        wrecked = [row for row in summary_of(session)["standings"] if row["why"] == "wrecked"]
        distances = [row["values"]["race"] for row in wrecked]
        if len(set(distances)) > 1:
            break
    else:
        pytest.fail("no race in 40 seeds wrecked two chariots at different distances")
    assert distances == sorted(distances, reverse=True)
    assert [row["place"] for row in wrecked] == sorted(row["place"] for row in wrecked)
    standings = summary_of(session)["standings"]
    assert all(row["why"] == "wrecked" for row in standings[len(standings) - len(wrecked):])


def test_the_race_route_answers_the_summary_of_the_game_on_the_table(session):
    client = create_app(session, control_pin=PIN).test_client()
    assert client.get("/api/race").get_json() == {"game": None, "standings": [], "chart": None}
    play_to_the_end(session, "chariot-race", seed=3)
    answer = client.get("/api/race").get_json()
    assert answer["game"] == session.record.id and answer["seq"] == session.snapshot()["seq"]
    assert answer["standings"] == summary_of(session)["standings"]
    assert answer["chart"]["metrics"] == ["cr_chart_laps", "cr_chart_damage"]


@pytest.mark.browser
@pytest.mark.parametrize("game_id", WITH_SUMMARY)
def test_game_over_shows_standings_a_chart_and_new_game_to_the_table_only(session, open_page, game_id):
    expect = pytest.importorskip("playwright.sync_api").expect
    play_to_the_end(session, game_id, seed=8)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0, threads=8).start()
    live = LiveServer(session, server)
    try:
        errors: list[str] = []
        page = open_page(f"http://127.0.0.1:{live.port}/?kiosk=0", control=True, locale="de-DE")
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        standings = page.locator("#race-over .standing")
        expect(standings).to_have_count(len(get_game(game_id).seats(session.state)))
        expect(standings.first.locator(".place")).to_have_text("1.")
        expect(page.locator("#race-over .race-chart")).to_have_count(len(get_presentation(game_id).CHART_METRICS))
        expect(page.locator("#race-over .race-chart path.series").first).to_be_visible()
        expect(page.locator("#race-over a.new-game")).to_have_attribute("href", "/new")
        assert "{" not in page.locator("#race-over").inner_text()  # every text filled in
        if game_id == "chariot-race":
            shoot(page, "game-over")
        spectator = open_page(f"http://127.0.0.1:{live.port}/?kiosk=0")
        expect(spectator.locator("#race-over .standing")).to_have_count(standings.count())
        expect(spectator.locator("#race-over a.new-game")).to_have_count(0)
        assert errors == []
    finally:
        session.broker.close()
        server.stop()
