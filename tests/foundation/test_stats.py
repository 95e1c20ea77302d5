"""The table's statistics: only camera-read, confirmed rolls that stand count; history and players from the log; kept
up to date event by event exactly as a rebuild from the log finds them."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from companion.games import GAMES, get_game
from companion.games.base import LUCK_KINDS
from companion.runtime import demo_options
from companion.session import TableSession
from companion.stats import TableStats

PLAYERS = {"players": [{"name": "Ada"}, {"name": "Bo"}]}


@pytest.fixture
def stats(session: TableSession) -> TableStats:
    stats = TableStats(session.store)
    stats.rebuild()
    session.event_listeners.append(stats.update)
    return stats


def camera_roll(session: TableSession, faces: list[str], *, correct: dict[int, str] | None = None) -> None:
    session.offer_dice([{"label": face, "confidence": 0.97} for face in faces], source="camera")
    for index, label in (correct or {}).items():
        session.correct_die(index, label, actor="table")
    session.confirm(actor="table")


def typed_roll(session: TableSession, faces: list[str]) -> None:
    session.offer_dice([{"label": face, "confidence": 1.0} for face in faces], source="manual")
    session.confirm(actor="table")


def d6(stats: TableStats) -> dict:
    (dice,) = [d for d in stats.to_json()["dice"] if d["dice_set"] == "d6"]
    return dice


def counts(dice: dict, kind: str | None = None) -> dict[str, int]:
    found = next(k for k in dice["kinds"] if kind is None or k["kind"] == kind)
    return {f["face"]: f["count"] for f in found["verdict"]["faces"] if f["count"]}


def test_a_camera_roll_counts_and_a_corrected_die_counts_as_the_face_the_player_set(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    camera_roll(session, ["2"], correct={0: "5"})
    dice = d6(stats)
    assert counts(dice) == {"6": 1, "5": 1}
    assert dice["corrected"] == 1 and dice["typed"] == 0 and dice["games"] == ["dice-race"]


def test_rolls_typed_in_by_hand_do_not_count_and_are_reported_as_left_out(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    typed_roll(session, ["6"])
    session.act({"type": "roll", "dice": ["3"]}, actor="Bo")  # a script's roll, no reading at all
    camera_roll(session, ["4"])
    dice = d6(stats)
    assert counts(dice) == {"4": 1} and dice["typed"] == 2


def test_an_undone_roll_no_longer_counts(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    camera_roll(session, ["1"])
    session.undo(actor="table")
    assert counts(d6(stats)) == {"6": 1}


def test_a_cubitos_roll_counts_each_die_under_its_own_type(session, stats):
    session.new_game("cubitos", demo_options("cubitos", humans=4), seed=2)
    game, rng = session.game, random.Random(2)
    prompt = session.prompt()
    index, option = next((n, o) for n, o in enumerate(prompt.options) if "roll" in o)
    faces = game.roll_dice(session.state, option, rng)
    session.offer_dice([{"label": face, "confidence": 0.99} for face in faces], source="camera")
    session.confirm(actor="table", option=index)
    (dice,) = stats.to_json()["dice"]
    counted = {k["kind"]: counts(dice, k["kind"]) for k in dice["kinds"]}
    for face in faces:
        kind = face.split("/")[0]
        assert counted[kind].get(face, 0) >= 1
    assert sum(sum(c.values()) for c in counted.values()) == len(faces)
    assert {k["kind"] for k in dice["kinds"]} == set(game.dice_chances())


def play_dice_race_to_the_end(session: TableSession, faces: list[str]) -> None:
    for face in faces:
        if session.game.is_over(session.state):
            return
        camera_roll(session, [face])


def test_a_finished_game_is_in_the_history_with_its_players_winner_rounds_and_duration(session, stats):
    record = session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    play_dice_race_to_the_end(session, ["6", "1"] * 5)
    (game,) = stats.to_json()["games"]
    assert game["number"] == record.id and game["game"] == "dice-race" and game["title"] == "Dice Race"
    assert game["players"] == ["Ada", "Bo"] and game["winners"] == ["Ada"] and game["over"] is True
    assert game["rounds"] == 7 and game["axis"] == "dr_chart_turn"  # Ada's 4th six on the 7th turn
    assert game["luck_counted"] == "dr_luck_counted"  # the game's own words for what its luck counts
    assert game["duration"] >= 0 and game["started"] == pytest.approx(record.created, abs=1e-3)


def test_an_undo_of_the_winning_roll_takes_the_win_back(session, stats):
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    play_dice_race_to_the_end(session, ["6", "1"] * 5)
    session.undo(actor="table")
    (game,) = stats.to_json()["games"]
    assert game["over"] is False and game["winners"] == []
    assert stats.to_json()["players"][0]["wins"] == 0


def test_players_count_games_and_wins_by_game_ignoring_the_case_of_their_names(session, stats):
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    play_dice_race_to_the_end(session, ["6", "1"] * 5)
    session.new_game("dice-race", {"players": ["bo", "ada"]}, seed=2)
    play_dice_race_to_the_end(session, ["6", "1"] * 5)
    session.new_game("hexenrennen", demo_options("hexenrennen", humans=4), seed=3)
    camera_roll(session, ["3"])
    players = {p["name"]: p for p in stats.to_json()["players"]}
    assert players["ada"] == {"name": "ada", "games": 2, "wins": 1, "by_game": {"dice-race": {"games": 2, "wins": 1}}}
    assert players["bo"]["wins"] == 1 and players["Julia"]["by_game"] == {"hexenrennen": {"games": 1, "wins": 0}}


def test_kept_up_to_date_event_by_event_the_stats_are_what_a_rebuild_from_the_log_finds(session, stats):
    rng = random.Random(5)
    for number in range(3):
        session.new_game("dice-race", {"players": ["Ada", "Bo", "Cy"]}, seed=number)
        for _ in range(25):
            if session.game.is_over(session.state):
                break
            face = rng.choice("123456")
            (camera_roll if rng.random() < 0.7 else typed_roll)(session, [face])
            if rng.random() < 0.2:
                session.undo(actor="table")
    rebuilt = TableStats(session.store)
    rebuilt.rebuild()
    assert stats.to_json() == rebuilt.to_json()
    assert stats.to_csv() == rebuilt.to_csv()


def test_events_stored_while_the_log_is_read_are_counted_once(session, monkeypatch):
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    camera_roll(session, ["3"])
    stats = TableStats(session.store)
    session.event_listeners.append(stats.update)
    read, rolled = session.store.events, []

    def read_then_a_roll_meanwhile(game_id, **kwargs):
        found = read(game_id, **kwargs)
        if not rolled:  # the table plays on after the rebuild read this game
            rolled.append(True)
            camera_roll(session, ["5"])
        return found

    monkeypatch.setattr(session.store, "events", read_then_a_roll_meanwhile)
    stats.rebuild()
    monkeypatch.undo()
    assert counts(d6(stats)) == {"6": 1, "3": 1, "5": 1}
    rebuilt = TableStats(session.store)
    rebuilt.rebuild()
    assert stats.to_json() == rebuilt.to_json()


def test_a_log_read_cut_short_by_the_table_stopping_ends_quietly_and_incomplete(session, monkeypatch):
    """A companion stopping closes the store under the thread reading the log: that thread ends without a traceback,
    and the statistics never say they are complete."""
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    stats = TableStats(session.store)
    read = session.store.events

    def read_then_the_table_stops(game_id, **kwargs):
        session.store.close()
        return read(game_id, **kwargs)

    monkeypatch.setattr(session.store, "events", read_then_the_table_stops)
    stats.rebuild()
    assert not stats.built.is_set()


def test_the_answer_is_strict_json_even_before_any_roll(session, stats):
    session.new_game("chariot-race", demo_options("chariot-race", humans=4), seed=1)
    nothing = {"games": [], "players": [], "lucky": LUCK_KINDS}  # no event: nothing yet
    assert stats.to_json() == {"dice": [], "players": [], "games": [], "luck": nothing, "complete": True}
    json.dumps(stats.to_json(), allow_nan=False)


def test_the_csv_has_one_line_per_game_oldest_first(session, stats):
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    play_dice_race_to_the_end(session, ["6", "1"] * 5)
    session.new_game("dice-race", {"players": ["Cy", "Di"]}, seed=2)
    camera_roll(session, ["2"])
    rows = list(csv.DictReader(io.StringIO(stats.to_csv())))
    assert [(r["game"], r["players"], r["winners"], r["over"], r["rounds"], r["counted"]) for r in rows] == [
        ("dice-race", "Ada; Bo", "Ada", "yes", "7", "turn"), ("dice-race", "Cy; Di", "", "no", "1", "turn")]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_names_the_player_of_each_of_its_seats(game_id):
    game = get_game(game_id)
    for humans in (0, 2):
        options = demo_options(game_id, humans=humans)
        if game_id == "chariot-race":
            options = {"players": options["players"][:2]}  # two players drive two chariots each
        state = game.setup(options, random.Random(1))
        names = {game.player_of(state, seat) for seat in game.seats(state)}
        assert names == {p["name"] for p in options["players"]}
