"""No game is ever thrown away: a new game leaves the one before resumable, the games list shows every game without
replaying it, a rematch sets the same table up again, and seats change mid-game through the log."""


import pytest

import companion.session
from companion.games import get_game
from companion.games.base import BadName
from companion.session import GameIsOver, NoSuchGame, Stale, TableSession
from companion.store import EventStore
from tests.conftest import PIN

ADA_BO = {"players": ["Ada", "Bo"]}
RACE = {"players": [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "red"}], "board": "A"}
SCRIPT = {"X-Table-Pin": PIN}


def roll(session: TableSession, face: str = "3") -> None:
    session.act({"type": "roll", "dice": [face]}, actor=session.prompt().actor)


def finish_dice_race(session: TableSession) -> None:
    while not session.game.is_over(session.state):
        roll(session, "6")


# ---------------------------------------------------------------------------------------------------- session


def test_a_new_game_leaves_the_game_it_replaces_unfinished_and_resumable(session, store):
    first = session.new_game("dice-race", ADA_BO, seed=1)
    roll(session, "4")
    roll(session, "2")
    before = session.snapshot()
    second = session.new_game("chariot-race", RACE, seed=2)
    assert store.game(first.id).finished is None
    session.resume_game(first.id, current=second.id)
    assert session.snapshot()["view"] == before["view"] and session.snapshot()["seq"] == before["seq"] == 2
    restarted = TableSession(store)
    assert restarted.resume() and restarted.record.id == first.id, "a restart resumes the game on the table"


def test_a_finished_game_is_not_resumed_and_an_unknown_one_is_not_found(session):
    over = session.new_game("dice-race", ADA_BO, seed=1)
    finish_dice_race(session)
    session.new_game("dice-race", ADA_BO, seed=2)
    with pytest.raises(GameIsOver):
        session.resume_game(over.id)
    with pytest.raises(NoSuchGame):
        session.resume_game(99)


def test_a_choice_of_game_made_while_another_was_on_the_table_is_stale(session):
    first = session.new_game("dice-race", ADA_BO, seed=1)
    second = session.new_game("dice-race", ADA_BO, seed=2)
    with pytest.raises(Stale) as refused:
        session.resume_game(first.id, current=first.id)
    assert refused.value.now == second.id and session.record.id == second.id
    with pytest.raises(Stale):
        session.new_game("dice-race", ADA_BO, current=first.id)
    with pytest.raises(Stale):
        TableSession(EventStore(":memory:")).new_game("dice-race", ADA_BO, current=3)  # none was on the table


def test_resuming_a_game_tells_the_camera_its_dice_as_a_start_up_does(session):
    first = session.new_game("chariot-race", RACE, seed=1)
    session.new_game("dice-race", ADA_BO, seed=2)
    heard = []
    session.game_listeners.append(lambda game: heard.append(game.id))
    session.resume_game(first.id)
    assert heard == ["chariot-race"]


def test_a_rematch_is_the_same_game_players_and_options_with_a_new_seed(session):
    first = session.new_game("chariot-race", RACE, seed=1)
    session.change_seat(1, name="Klaas", actor="table")
    rematch = session.rematch(first.id, current=first.id)
    assert rematch.id != first.id and rematch.game == "chariot-race" and rematch.seed != first.seed
    assert rematch.options == {**RACE, "players": [RACE["players"][0], {"name": "Klaas", "colour": "red"}]}
    assert session.record.id == rematch.id and session.snapshot()["seq"] == 0


# ---------------------------------------------------------------------------------------------------- seats


def test_seat_changes_are_events_that_replay_to_the_same_table(session, store):
    record = session.new_game("chariot-race", RACE, seed=3)
    session.change_seat(0, name="Jule", actor="table")
    session.change_seat(1, bot=True, actor="table")
    seats = get_game("chariot-race").seats(session.state)
    assert seats["green"] is False and seats["red"] is True and seats["red-2"] is True
    session.change_seat(1, bot=False, actor="table")
    names = [p["name"] for p in session.snapshot()["game"]["options"]["players"]]
    assert names == ["Jule", "Klaus"]
    events = store.events(record.id)
    assert [e.type for e in events] == ["seat"] * 3
    assert events[0].payload == {"seat": 0, "name": "Jule", "was": {"name": "Julia", "bot": False},
                                 "source": "dashboard"}
    restarted = TableSession(store)
    assert restarted.resume()
    assert restarted.state == session.state and restarted.snapshot()["game"]["options"] == store.listing()[0] \
        .record.options | {"players": [{"name": "Jule", "colour": "green"}, {"name": "Klaus", "colour": "red",
                                                                              "bot": False}]}


def test_a_seat_handed_to_a_bot_is_played_as_the_bots_seat(session):
    session.new_game("dice-race", ADA_BO, seed=3)
    session.change_seat(1, bot=True, actor="table")
    roll(session)
    assert session.game.seats(session.state) == {"Ada": False, "Bo": True}
    assert session.prompt().actor == "Bo"


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "Bo\n", "bo", " BO "])
def test_a_rename_takes_only_a_name_a_set_up_would_take(session, name):
    session.new_game("dice-race", ADA_BO, seed=3)
    with pytest.raises(BadName) as refused:
        session.change_seat(0, name=name, actor="table")
    assert refused.value.field == "name" and session.snapshot()["seq"] == 0


def test_a_rename_to_the_same_name_or_of_no_seat_changes_nothing(session):
    session.new_game("dice-race", ADA_BO, seed=3)
    for change in ({"seat": 0, "name": " Ada "}, {"seat": 0, "bot": False}, {"seat": 2, "name": "Cy"}):
        with pytest.raises(companion.session.IllegalAction):
            session.change_seat(change.pop("seat"), actor="table", **change)
    assert session.snapshot()["seq"] == 0


def test_a_seat_change_chosen_on_an_older_state_is_stale(session):
    session.new_game("dice-race", ADA_BO, seed=3)
    roll(session)
    with pytest.raises(Stale):
        session.change_seat(0, name="Adele", actor="table", seq=0)


def test_undo_takes_back_the_last_move_not_a_rename(session):
    session.new_game("dice-race", ADA_BO, seed=3)
    roll(session, "5")
    session.change_seat(0, name="Adele", actor="table")
    session.undo(actor="table")
    view = session.snapshot()["view"]
    assert view["players"][0] == {"name": "Adele", "position": 0}


# ---------------------------------------------------------------------------------------------------- the list


def test_the_list_is_read_from_stored_summaries_without_replaying_a_game(session, monkeypatch):
    for seed in range(40):
        session.new_game("dice-race", ADA_BO, seed=seed)
        roll(session)
    monkeypatch.setattr(companion.session, "replay", lambda *a: pytest.fail("the list replayed a game"))
    listed = session.game_list()
    assert len(listed) == 40 and all(line.summary["players"] == ["Ada", "Bo"] for line in listed)
    assert listed[-1].summary["actor"] == "Bo" and listed[-1].seq == 1


def test_a_game_from_before_summaries_is_replayed_once_for_its_summary(session, store):
    record = store.new_game("dice-race", ADA_BO, seed=1)  # as a schema-2 log left it: no summary
    store.append(record.id, actor="Ada", type="roll", payload={"action": {"type": "roll", "dice": ["4"]}})
    [line] = session.game_list()
    assert line.summary["actor"] == "Bo" and line.names["de"] == {"Ada": "Ada", "Bo": "Bo"}
    assert store.listing()[0].summary == line.summary, "kept: the next list reads it"
    assert store.listing()[0].names == line.names


# ---------------------------------------------------------------------------------------------------- HTTP


def test_api_games_lists_every_game_with_its_players_turn_and_last_move(live):
    session = live.session
    first = session.record.id
    roll(session, "4")
    session.new_game("chariot-race", RACE, seed=2)
    status, body = live.client().get("/api/games?lang=en")
    assert status == 200 and body["current"] == first + 1
    newest, older = body["games"]
    assert newest["number"] == first + 1 and newest["current"] and newest["seq"] == 0 and newest["last"] is None
    assert older == {"number": first, "game": "dice-race", "title": "Dice Race", "players": ["Ada", "Bo"],
                     "started": older["started"], "seq": 1, "over": False, "current": False, "turn": "Bo",
                     "last": "Ada moves 4 to 4"}
    assert live.client().get("/api/games?lang=xx")[1]["field"] == "lang"


def test_api_resume_needs_control_and_refuses_a_finished_or_unknown_game(live):
    session = live.session
    first = session.record.id
    finish_dice_race(session)
    second = session.new_game("dice-race", ADA_BO, seed=5).id
    third = session.new_game("dice-race", ADA_BO, seed=6).id
    client = live.client()
    assert client.post(f"/api/games/{second}/resume", {"current": third})[0] == 401
    status, body = client.post(f"/api/games/{first}/resume", {"current": third}, headers=SCRIPT)
    assert status == 409 and body["code"] == "game_over"
    status, body = client.post("/api/games/999/resume", {"current": third}, headers=SCRIPT)
    assert status == 404 and body["code"] == "no_such_game"
    status, body = client.post(f"/api/games/{second}/resume", {"current": second}, headers=SCRIPT)
    assert status == 409 and body["error"] == "stale" and body["current"] == third
    status, body = client.post(f"/api/games/{second}/resume", {"current": "x"}, headers=SCRIPT)
    assert status == 400 and body["field"] == "current"
    status, body = client.post(f"/api/games/{second}/resume", {"current": third}, headers=SCRIPT)
    assert status == 200 and body["game"] == second and session.record.id == second


def test_api_rematch_starts_the_same_set_up_again(live):
    first = live.session.record.id
    status, body = live.client().post(f"/api/games/{first}/rematch", {"current": first}, headers=SCRIPT)
    assert status == 200 and live.session.record.id == body["game"] != first
    assert live.session.record.options == ADA_BO | {"players": [{"name": "Ada"}, {"name": "Bo"}]}


@pytest.mark.parametrize(("name", "code"), [("x" * 10_000, "bad_input"), ("x" * 25, "bad_name"), ("", "bad_name"),
                                            ("bo", "name_taken"), (" BO", "name_taken"), ("\u200b", "bad_name")])
def test_every_route_that_takes_a_name_refuses_a_bad_one_naming_the_field(live, name, code):
    client = live.client()
    status, body = client.post("/api/seats/0", {"name": name, "seq": 0}, headers=SCRIPT)
    assert (status, body["code"], body["field"]) == (400, code, "name")
    players = {"players": [{"name": "Bo"}, {"name": name}]}
    status, body = client.post("/api/game", {"game": "dice-race", "options": players}, headers=SCRIPT)
    assert status == 400 and body["field"] == "players[1].name"
    assert live.session.snapshot()["seq"] == 0 and len(live.session.store.games()) == 1


def test_api_seats_renames_and_hands_a_seat_to_a_bot_only_where_bots_play(live):
    client = live.client()
    status, body = client.post("/api/seats/1", {"name": "Bob", "seq": 0}, headers=SCRIPT)
    assert status == 200 and body["seq"] == 1
    status, body = client.post("/api/seats/1", {"bot": True, "seq": 1}, headers=SCRIPT)
    assert status == 400 and body["field"] == "bot"
    status, body = client.post("/api/seats/5", {"name": "Cy", "seq": 1}, headers=SCRIPT)
    assert status == 409 and body["field"] == "seat"
    assert client.post("/api/seats/1", {}, headers=SCRIPT)[1]["field"] == "name"
    status, log = client.get("/api/log?lang=de")
    assert [line["text"] for line in log["entries"][-1]["lines"]] == ["Bo heißt jetzt Bob"]


def test_the_log_tells_a_seat_handed_to_a_bot_and_taken_back_in_each_language(live):
    session = live.session
    session.change_seat(1, bot=True, actor="table")
    session.change_seat(1, bot=False, actor="table")
    texts = {lang: [e["lines"][0]["text"] for e in live.client().get(f"/api/log?lang={lang}")[1]["entries"]]
             for lang in ("en", "de", "nl")}
    assert texts == {"en": ["A bot plays Bo's seat from now on", "Bo takes the seat back from the bot"],
                     "de": ["Ab jetzt spielt ein Bot den Platz von Bo", "Bo übernimmt den Platz wieder vom Bot"],
                     "nl": ["Vanaf nu speelt een bot de plaats van Bo", "Bo neemt de plaats terug van de bot"]}


def test_the_statistics_count_a_renamed_player_under_the_new_name_live_and_rebuilt(session):
    from companion.stats import TableStats

    stats = TableStats(session.store)
    stats.rebuild()
    session.event_listeners.append(stats.update)
    session.new_game("dice-race", ADA_BO, seed=1)
    roll(session, "6")
    session.change_seat(0, name="Adele", actor="table")
    finish_dice_race(session)
    (game,) = stats.to_json()["games"]
    assert game["players"] == ["Adele", "Bo"] and game["winners"] == ["Adele"]
    rebuilt = TableStats(session.store)
    rebuilt.rebuild()
    assert rebuilt.to_json() == stats.to_json()


def test_a_game_new_game_replaced_before_schema_3_is_listed_and_resumed(tmp_path):
    from tests.foundation.test_store import version_2_database

    version_2_database(tmp_path / "events.sqlite3")
    session = TableSession(EventStore(tmp_path / "events.sqlite3"))
    assert session.resume() and session.record.id == 3
    listed = session.game_list()
    assert [(line.record.id, line.record.finished is None, line.summary["actor"]) for line in listed] == [
        (1, False, "Ada"), (2, True, "Bo"), (3, True, "Bo")]
    with pytest.raises(GameIsOver):
        session.resume_game(1, current=3)
    session.resume_game(2, current=3)
    assert session.record.id == 2 and session.snapshot()["view"]["players"][0] == {"name": "Ada", "position": 1}
