"""Rule disputes for Cubitos: a position written by hand, one player's decisions, the table after them."""

from __future__ import annotations

import json

import pytest

from companion.games.base import IllegalAction, ScenarioError
from companion.games.cubitos import GAME
from companion.games.cubitos.scenario import position_from_state, state_from_position

START = {"race": "race_1", "lead": "blue", "players": [
    {"name": "Ada", "colour": "blue", "draw": {"grey_light": 7, "grey_dark": 2}, "ready": {"lead": 1}},
    {"name": "Bo", "colour": "red", "draw": {"grey_light": 7, "grey_dark": 2}}]}


def test_a_position_is_read_and_printed_back_the_same():
    state = state_from_position(START)
    again = state_from_position(json.loads(json.dumps(position_from_state(state))))
    assert again == state
    assert len(state.stock) == len(state.table.types) - 19


def test_a_turn_plays_the_players_decisions_and_prints_the_next_position():
    roll = ["grey_light/coin1", "grey_dark/step1", "lead/credit1"] + ["grey_light/blank"] * 6 + ["grey_dark/blank"]
    result = GAME.scenario(START, {"player": "blue", "actions": [{"type": "roll", "roll": 10, "dice": roll},
                                                                 {"type": "pass"}]})
    ada = result["position"]["players"][0]
    assert ada["active"] == ["grey_light/coin1", "grey_dark/step1", "lead/credit1"] and ada["done_rolling"]
    assert ada["danger"] and result["position"]["current"] == "red"
    nxt = GAME.scenario(result["position"], {"player": "red", "actions": [
        {"type": "roll", "roll": 9, "dice": ["grey_light/blank"] * 7 + ["grey_dark/blank"] * 2}]})
    assert nxt["position"]["phase"] == "choice"


def test_a_decision_out_of_turn_names_the_rule_of_the_phase():
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(START, {"player": "red", "actions": [{"type": "roll", "roll": 9, "dice": []}]})
    assert err.value.rule == "CU-30"


@pytest.mark.parametrize(("position", "field"), [
    ({**START, "notes": 1}, "position.notes"),
    ({**START, "players": [{**START["players"][0], "draw": {"grey_light": 40}}, START["players"][1]]},
     "position.players[0].draw"),
    ({**START, "players": [{**START["players"][0], "active": ["red/purple"]}, START["players"][1]]},
     "position.players[0].active[0]"),
    ({**START, "phase": "bonus"}, "position.phase"),
])
def test_a_malformed_position_names_the_field(position, field):
    with pytest.raises(ScenarioError) as err:
        state_from_position(position)
    assert err.value.field == field


def test_a_race_whose_runner_reached_the_finish_ends_when_its_turns_are_chained():
    """CU-145: the Position after a runner reached the finish carries it, so the round ends the game (S-24)."""
    position = {"race": "race_1", "lead": "blue", "phase": "buy", "current": "blue", "players": [
        {"name": "Ada", "colour": "blue", "draw": {"grey_light": 7, "grey_dark": 2}, "ready": {"lead": 1},
         "done_rolling": True, "reached": True, "space": "A05"},
        {"name": "Bo", "colour": "red", "draw": {"grey_light": 7, "grey_dark": 2}, "done_rolling": True,
         "coins": 9}]}  # Bo can buy: the turn waits for him
    first = GAME.scenario(position, {"player": "blue", "actions": [{"type": "done"}]})
    assert first["position"]["players"][0]["reached"] and first["position"]["current"] == "red"
    last = GAME.scenario(first["position"], {"player": "red", "actions": [{"type": "done"}]})
    assert last["position"]["phase"] == "over" and last["position"]["winners"] == ["blue"]
    assert [e["type"] for e in last["events"]][-1] == "game_over"


def test_a_tie_round_is_carried_by_the_position():
    state = state_from_position({**START, "racing": ["red"], "tiebreak": True})
    assert state.racing == (1,) and state.tiebreak
    assert position_from_state(state)["racing"] == ["red"]


def test_a_push_with_an_empty_ready_zone_is_refused_naming_cu37():
    position = {**START, "phase": "choice", "players": [{**START["players"][0], "ready": {}, "refilled": True},
                                                        START["players"][1]]}
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(position, {"player": "blue", "actions": [{"type": "push"}]})
    assert err.value.rule == "CU-37"
