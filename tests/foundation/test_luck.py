"""Who was lucky: each game's luck on small known positions (the expected values worked out by hand from the odds in
each test's comment), and the statistics' luck per game, per player over the evening and over a game, kept up to
date event by event exactly as a rebuild from the log finds it."""

from __future__ import annotations

import csv
import io
import random

import pytest

from companion.games import get_game
from companion.games.base import GameBase, Luck
from companion.runtime import demo_options
from companion.stats import TableStats
from tests.foundation.test_stats import camera_roll, stats, typed_roll

__all__ = ["stats"]  # the statistics fixture, kept up to date by the session's events

PLAYERS = {"players": [{"name": "Ada"}, {"name": "Bo"}]}
LUCKY_RACE = ["6", "1"] * 3 + ["6"]
"""Dice Race to 20: Ada's 6s win on her fourth roll."""


def waiting_for_a_roll(game_id: str, options: dict, seed: int = 1):
    """The game set up and played by its first listed options until it waits for dice; the state and that option."""
    game = get_game(game_id)
    state = game.setup(options, random.Random(seed))
    for _ in range(100):
        prompt = game.prompt(state)
        rolls = [option for option in prompt.options if "roll" in option]
        if rolls:
            return game, state, rolls[0]
        state, _ = game.apply(state, prompt.options[0])
    raise AssertionError(f"{game_id} never asked for dice")


def test_dice_race_luck_is_the_roll_s_pips_against_a_fair_d6_s_mean():
    game = get_game("dice-race")
    state = game.setup(PLAYERS, random.Random(1))
    action = {"type": "roll", "roll": 1, "dice": ["5"]}
    after, _ = game.apply(state, action)
    # a fair d6: (1 + 2 + ... + 6) / 6 = 3.5 expected; 5 came
    assert game.luck(state, action, after) == [Luck("Ada", "pips", 3.5, 5.0)]
    assert game.player_of(state, "Ada") == "Ada"


def test_hexen_rennen_luck_is_the_pips_of_the_clan_on_turn_and_names_its_player():
    game, state, option = waiting_for_a_roll("hexenrennen", demo_options("hexenrennen"))
    action = {**option, "dice": ["2"]}
    after, _ = game.apply(state, action)
    (luck,) = game.luck(state, action, after)
    assert luck == Luck(state.current, "pips", 3.5, 2.0)  # 2 against 3.5
    assert game.player_of(state, luck.seat) == demo_options("hexenrennen")["players"][0]["name"]


def test_chariot_race_luck_counts_fortune_faces_against_one_in_six_a_die():
    game, state, option = waiting_for_a_roll("chariot-race", demo_options("chariot-race"))
    dice = ["fortune", "fortune", "drive", "steer", "attack"][: option["roll"]]
    action = {**option, "dice": dice}
    after, _ = game.apply(state, action)
    (luck,) = game.luck(state, action, after)
    # CR-1: one fortune face in six (drive, gallop, steer, steer, attack, fortune): n dice expect n / 6
    assert luck.kind == "fortune" and luck.actual == 2.0
    assert luck.expected == pytest.approx(option["roll"] / 6)
    chariot = next(c for c in state.cars if c.id == luck.seat)
    assert game.player_of(state, luck.seat) == chariot.player


def cubitos_in_danger():
    from tests.games.cubitos_positions import TWO, begin
    from tests.games.test_cubitos_rules import first_roll

    # Ada's first roll: three hits (a grey light, a grey dark and the lead die), the rest blank: in danger, with six
    # grey light dice and one grey dark die left in the ready zone
    state, _ = first_roll(begin(TWO), ["grey_light/coin1", "grey_dark/step1", "lead/credit1"])
    assert state.players[0].danger
    return get_game("cubitos"), state._replace(current=0, phase="roll")


def test_cubitos_a_push_in_danger_that_busts_counts_one_bust_against_the_chance_shown():
    game, state = cubitos_in_danger()
    action = {"type": "roll", "roll": 7, "dice": ["grey_light/blank"] * 6 + ["grey_dark/blank"]}
    after, _ = game.apply(state, action)
    # a grey light die shows a blank 5 times in 6, a grey dark one 2 in 3: all seven blank (5/6)^6 * 2/3
    (luck,) = game.luck(state, action, after)
    assert luck == Luck("blue", "busts", pytest.approx((5 / 6) ** 6 * 2 / 3), 1.0)
    assert game.player_of(state, "blue") == "Ada"


def test_cubitos_a_push_in_danger_with_a_hit_counts_no_bust():
    game, state = cubitos_in_danger()
    action = {"type": "roll", "roll": 7, "dice": ["grey_light/coin1"] + ["grey_light/blank"] * 5 + ["grey_dark/blank"]}
    after, _ = game.apply(state, action)
    assert game.luck(state, action, after) == [Luck("blue", "busts", pytest.approx((5 / 6) ** 6 * 2 / 3), 0.0)]


def test_cubitos_a_roll_that_cannot_bust_tells_no_luck():
    from tests.games.cubitos_positions import TWO, begin
    from tests.games.test_cubitos_rules import first_roll

    game, state = get_game("cubitos"), begin(TWO)
    action = {"type": "roll", "roll": 10, "dice": ["grey_light/blank"] * 7 + ["grey_dark/blank"] * 2 + ["lead/blank"]}
    after, _ = first_roll(state)
    assert game.luck(state, action, after) == []  # CU-33: the first roll of a round never busts


def test_automobiles_luck_is_the_wear_drawn_against_the_bag_s_odds():
    from tests.games.automobiles_positions import zone

    game, state, option = waiting_for_a_roll("automobiles", demo_options("automobiles"))
    p = state.actor
    state = state.with_player(p, bag=zone({"white": 3, "brown": 1}), discard=zone({}))
    action = {"type": option["type"], "roll": 2, "dice": ["brown", "white"]}
    after = state  # the luck is the draw's odds against its cubes: the state after does not enter
    # two cubes from a bag of three white and one brown (wear): the hypergeometric mean, 2 * 1/4 = 0.5
    assert game.luck(state, action, after) == [Luck(state.table.colours[p], "wear", 0.5, 1.0)]
    assert game.player_of(state, state.table.colours[p]) == demo_options("automobiles")["players"][p]["name"]


def test_a_game_tells_no_luck_and_names_seats_as_themselves_unless_it_says_otherwise():
    assert GameBase().luck(None, {"type": "roll", "dice": ["6"]}, None) == []
    assert GameBase().player_of(None, "Ada") == "Ada"


# -- the statistics ------------------------------------------------------------------------------------------------


def test_a_game_s_luck_sums_each_player_s_confirmed_rolls(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    for face in ["6", "1", "5", "2"]:  # Ada 6 and 5, Bo 1 and 2
        camera_roll(session, [face])
    session.act({"type": "roll", "roll": 1, "dice": ["6"]}, actor="Ada")  # not confirmed: no reading, not counted
    (game,) = stats.to_json()["games"]
    assert game["luck"] == [
        {"player": "Ada", "kind": "pips", "rolls": 2, "expected": 7.0, "actual": 11.0, "luck": 4.0},
        {"player": "Bo", "kind": "pips", "rolls": 2, "expected": 7.0, "actual": 3.0, "luck": -4.0},
    ]


def test_a_roll_typed_in_and_confirmed_counts_for_luck_and_an_undone_one_does_not(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    typed_roll(session, ["4"])
    camera_roll(session, ["6"])
    session.undo(actor="table")
    (row,) = stats.to_json()["games"][0]["luck"]
    assert (row["player"], row["rolls"], row["actual"]) == ("Ada", 1, 4.0)


def test_the_evening_sums_each_player_s_luck_over_tonight_s_games_by_kind(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    session.new_game("dice-race", {"players": ["bo", "Cy"]}, seed=2)
    camera_roll(session, ["1"])
    camera_roll(session, ["3"])
    luck = stats.to_json()["luck"]
    assert luck["games"] == [2, 1] and luck["lucky"]["busts"] == -1
    assert {row["player"]: (row["games"], row["actual"], row["luck"]) for row in luck["players"]} == {
        "Ada": (1, 6.0, 2.5),
        "bo": (1, 1.0, -2.5),
        "Cy": (1, 3.0, -0.5),
    }


def test_a_renamed_player_s_luck_counts_under_the_new_name(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    session.change_seat(0, name="Ada Lovelace", actor="table")
    assert [row["player"] for row in stats.to_json()["luck"]["players"]] == ["Ada Lovelace"]


def test_luck_over_a_game_is_each_player_s_running_sum_of_actual_minus_expected(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    for face in ["6", "1", "2"]:
        camera_roll(session, [face])
    luck = stats.luck_of(1)
    (kind,) = luck["kinds"]
    # after each roll: Ada +2.5 (6), Bo -2.5 (1), Ada 2.5 - 1.5 = 1
    assert kind == {
        "kind": "pips",
        "lucky": 1,
        "x": 3,
        "series": {"Ada": [0.0, 2.5, 2.5, 1.0], "Bo": [0.0, 0.0, -2.5, -2.5]},
    }
    assert stats.luck_of(2) is None


def test_kept_up_to_date_event_by_event_the_luck_is_what_a_rebuild_finds(session, stats):
    rng = random.Random(3)
    session.new_game("hexenrennen", demo_options("hexenrennen", humans=4), seed=1)
    session.new_game("chariot-race", demo_options("chariot-race", humans=4), seed=2)
    for game_id in ("hexenrennen", "chariot-race"):
        number = session.new_game(game_id, demo_options(game_id, humans=4), seed=3).id
        for _ in range(60):
            prompt = session.game.prompt(session.state)
            option = next((i for i, o in enumerate(prompt.options) if "roll" in o), None)
            if option is None:
                session.act(rng.choice(prompt.options), actor=str(prompt.actor))
                continue
            faces = session.game.roll_dice(session.state, prompt.options[option], rng)
            session.offer_dice([{"label": f, "confidence": 0.97} for f in faces], source="camera")
            session.confirm(actor="table", option=option)
            if rng.random() < 0.1:
                session.undo(actor="table")
        assert stats.luck_of(number)["kinds"]
    session.change_seat(1, name="Renamed", actor="table")
    rebuilt = TableStats(session.store)
    rebuilt.rebuild()
    assert stats.to_json() == rebuilt.to_json()
    assert [stats.luck_of(n) for n in (1, 2, 3, 4)] == [rebuilt.luck_of(n) for n in (1, 2, 3, 4)]
    assert stats.to_csv() == rebuilt.to_csv()


def test_the_csv_gives_each_game_s_luck(session, stats):
    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    camera_roll(session, ["2"])
    (row,) = csv.DictReader(io.StringIO(stats.to_csv()))
    assert row["luck"] == "Ada pips 6/3.5; Bo pips 2/3.5"


def test_a_fault_in_a_game_s_luck_loses_neither_the_game_nor_its_winner(session, stats, monkeypatch):
    def broken(self, before, action, after):
        raise ZeroDivisionError("a bug in a luck module")

    monkeypatch.setattr(type(get_game("dice-race")), "luck", broken)
    session.new_game("dice-race", PLAYERS, seed=1)
    for face in LUCKY_RACE:
        camera_roll(session, [face])
    (game,) = stats.to_json()["games"]
    assert game["over"] and game["winners"] == ["Ada"] and game["luck"] == []


def test_the_evening_ends_where_a_game_begins_more_than_twelve_hours_after_another(session, stats, monkeypatch):
    import companion.store

    session.new_game("dice-race", PLAYERS, seed=1)
    camera_roll(session, ["6"])
    later = companion.store.time.time() + 13 * 3600
    monkeypatch.setattr(companion.store.time, "time", lambda: later)
    session.new_game("dice-race", {"players": ["Cy", "Di"]}, seed=2)
    camera_roll(session, ["2"])
    luck = stats.to_json()["luck"]
    assert luck["games"] == [2] and [row["player"] for row in luck["players"]] == ["Cy"]
    rebuilt = TableStats(session.store)
    rebuilt.rebuild()
    assert rebuilt.to_json()["luck"] == luck
