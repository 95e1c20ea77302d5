"""Rule disputes for Automobiles: a position written by hand, one player's turn, the table after it; the same checks
the registry's scenario contract makes, with the sample the registry will take."""

from __future__ import annotations

import json

import pytest

from companion.games.automobiles import GAME
from companion.games.automobiles.scenario import position_from_state, state_from_position
from companion.games.base import IllegalAction, ScenarioError

CARDS = {"yellow": "base_yellow_2", "red": "base_red_3", "purple": "base_purple_1", "blue": "base_blue_2",
         "green": "base_green_2"}
START = {"track": "reference_oval", "cards": CARDS, "order": ["red", "blue"], "players": [
    {"name": "Ada", "colour": "red", "segment": "L0-30", "bag": {"white": 3, "yellow": 2},
     "active": {"white": 2, "light_grey": 2, "yellow": 3}},
    {"name": "Bo", "colour": "blue", "segment": "L1-30", "bag": {"white": 5, "yellow": 2},
     "active": {"white": 3, "light_grey": 2, "yellow": 2}}]}
SAMPLE = {
    "position": START,
    "turns": [{"player": "red", "actions": [{"type": "activate", "colour": "light_grey"},
                                            {"type": "step", "from": "L0-30", "to": "L0-00"},
                                            {"type": "to_buy"}, {"type": "done"},
                                            {"type": "draw", "dice": ["white"] * 3 + ["yellow"] * 2 + ["light_grey",
                                                                                                   "white"]}]},
              {"player": "blue", "actions": [{"type": "pit_stop"}, {"type": "draw", "dice": ["white"] * 5
                                                                    + ["yellow"] * 2}]},
              {"player": "red", "actions": [{"type": "to_buy"}, {"type": "done"},
                                            {"type": "draw", "dice": ["white", "light_grey"] + ["yellow"] * 3
                                             + ["brown"] * 2}]}],
    "illegal": ({"player": "blue", "actions": [{"type": "to_buy"}]}, "AU-16"),
}
"""The sample for ``tests/games/test_scenario_contract.py`` once the game is registered."""


def test_a_position_is_read_and_printed_back_the_same():
    state = state_from_position(START)
    again = state_from_position(json.loads(json.dumps(position_from_state(state))))
    assert again == state
    assert sum(state.stock) == 282 - 26


def test_each_printed_position_is_the_next_turns_position():
    position = SAMPLE["position"]
    for turn in SAMPLE["turns"]:
        result = GAME.scenario(position, turn)
        assert set(result) == {"position", "events"} and result["events"]
        assert json.loads(json.dumps(result["position"])) == result["position"]
        position = result["position"]
    ada = position["players"][0]
    assert ada["segment"] == "L0-00" and ada["marker"] == "2" and ada["active"]["brown"] == 2  # the wear of turn 1
    assert position["current"] == "blue" and position["players"][1]["discard"] == {"white": 3, "yellow": 2,
                                                                                    "light_grey": 2}


def test_an_illegal_turn_names_its_rule():
    turn, rule = SAMPLE["illegal"]
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(START, turn)
    assert err.value.rule == rule
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(START, {"player": "red", "actions": [{"type": "activate", "colour": "black"}]})
    assert err.value.rule == "AU-20"


@pytest.mark.parametrize(("position", "field"), [
    ({**START, "notes": 1}, "position.notes"),
    ({**START, "variants": {"weave": True}}, "position.variants.weave"),
    ({**START, "players": [{**START["players"][0], "bag": {"white": 40}}, START["players"][1]]},
     "position.players[0]"),
    ({**START, "players": [{**START["players"][0], "active": {"pink": 1}}, START["players"][1]]},
     "position.players[0].active.pink"),
    ({**START, "players": [{**START["players"][0], "segment": "L9-99"}, START["players"][1]]},
     "position.players[0].segment"),
    ({**START, "phase": "buy"}, "position.phase"),
    ({**START, "order": ["red"]}, "position.order"),
])
def test_a_malformed_position_names_the_field(position, field):
    with pytest.raises(ScenarioError) as err:
        state_from_position(position)
    assert err.value.field == field


def test_an_unknown_key_of_the_turn_is_refused_naming_it():
    with pytest.raises(ScenarioError) as err:
        GAME.scenario(START, {**SAMPLE["turns"][0], "notes": "by hand"})
    assert err.value.field == "turn.notes"


def test_deferred_entitlements_start_the_turn_and_survive_printing():
    """AU-119: a position with a deferred draw waits for it first."""
    position = {**START, "variants": {"accelerated": True},
                "players": [{**START["players"][0], "deferred_draws": 1}, START["players"][1]]}
    state = state_from_position(position)
    assert state.phase == "deferred" and position_from_state(state)["players"][0]["deferred_draws"] == 1
    result = GAME.scenario(position, {"player": "red", "actions": [{"type": "draw", "dice": ["white"]}]})
    assert result["position"]["players"][0]["deferred_draws"] == 0
