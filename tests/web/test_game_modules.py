"""Every registered game's browser module comes from its own package and draws its start position on the table page."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES, browser_module
from companion.runtime import demo_options
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer

expect = pytest.importorskip("playwright.sync_api").expect
WITH_MODULES = sorted(g for g in GAMES if browser_module(g) is not None)


def test_a_browser_module_is_served_from_its_game_package(session):
    client = create_app(session, control_pin=PIN).test_client()
    for game_id in WITH_MODULES:
        answer = client.get(f"/games/{game_id}.js")
        assert answer.status_code == 200 and f'registerGame("{game_id}"' in answer.get_data(as_text=True)
    for game_id in sorted(g for g in GAMES if browser_module(g, "css") is not None):
        assert client.get(f"/games/{game_id}.css").mimetype == "text/css"
    assert client.get("/games/no-such-game.js").status_code == 404
    assert client.get("/games/chariot-race.py").status_code == 404
    assert client.get("/games/..%2F..%2Fsecret_key.js").status_code == 404


@pytest.mark.browser
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_table_page_draws_each_games_start_position_without_an_error(session, open_page, game_id):
    session.new_game(game_id, demo_options(game_id), seed=random.Random(game_id).randrange(1000))
    app = create_app(session, control_pin=PIN)
    server = Server(app, host="127.0.0.1", port=0, threads=8).start()
    live = LiveServer(session, server)
    try:
        errors: list[str] = []
        page = open_page(f"http://127.0.0.1:{live.port}/?kiosk=0")
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.reload()
        expect(page.locator("#connection")).to_have_class("badge live")
        expect(page.locator("#prompt")).not_to_be_empty()
        if game_id in WITH_MODULES:
            expect(page.locator("#track")).to_be_visible()
            expect(page.locator(f"body.{game_id}")).to_be_attached()
        else:
            expect(page.locator("#view table")).to_be_visible()
        assert errors == []
    finally:
        session.broker.close()
        server.stop()


def test_the_state_names_every_option_in_every_language_as_the_buttons_do(session):
    from companion.controls import option_label

    session.new_game("chariot-race", demo_options("chariot-race"), seed=4)
    client = create_app(session, control_pin=PIN).test_client()
    state = client.get("/api/state").get_json()
    options, labels = state["prompt"]["options"], state["prompt"]["labels"]
    assert sorted(labels) == ["de", "en", "nl"]
    for lang, names in labels.items():
        assert names == [option_label(o, session.snapshot(), lang=lang) for o in options]
