"""Dice Race's ``scenario``: the smallest Position and Turn, checked as strictly as the real games'."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction, ScenarioError
from companion.games.dice_race import GAME, GOAL

START = {"players": [{"name": "Ann", "space": 17}, {"name": "Bo", "space": 12}], "current": "Bo"}


def test_a_roll_moves_the_player_on_turn_and_passes_the_turn():
    result = GAME.scenario(START, {"player": "Bo", "die": 4})
    assert result == {"position": {"players": [{"name": "Ann", "space": 17}, {"name": "Bo", "space": 16}],
                                   "current": "Ann"},
                      "events": [{"type": "moved", "player": "Bo", "steps": 4, "to": 16}]}


def test_the_winning_roll_prints_a_finished_game_that_refuses_another_roll():
    after = GAME.scenario(GAME.scenario(START, {"player": "Bo", "die": 1})["position"], {"player": "Ann", "die": 3})
    assert after["position"] == {"players": [{"name": "Ann", "space": GOAL}, {"name": "Bo", "space": 13}],
                                 "current": None}
    assert after["events"][-1] == {"type": "game_over", "winner": "Ann"}
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(after["position"], {"player": "Bo", "die": 2})
    assert err.value.rule == "DR-3"


@pytest.mark.parametrize("turn, rule", [({"player": "Ann", "die": 4}, "DR-1"), ({"player": "Bo", "die": 7}, "DR-2")])
def test_an_illegal_turn_names_the_rule(turn, rule):
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(START, turn)
    assert err.value.rule == rule


@pytest.mark.parametrize("position, turn, field", [
    ({**START, "curent": "Bo"}, {"player": "Bo", "die": 4}, "position.curent"),
    ({"players": [{"name": "Ann", "spaces": 3}, {"name": "Bo"}]}, {"player": "Ann", "die": 4},
     "position.players[0].spaces"),
    (START, {"player": "Bo", "dice": 4}, "turn.dice"),
    (START, {"player": "Bo", "die": "4"}, "turn.die"),
    (START, {"player": "Cy", "die": 4}, "turn.player"),
    ({**START, "current": "Cy"}, {"player": "Bo", "die": 4}, "position.current"),
    ({"players": [{"name": "Ann", "space": GOAL}, {"name": "Bo"}], "current": "Bo"}, {"player": "Bo", "die": 4},
     "position.current"),
])
def test_a_malformed_file_names_the_key(position, turn, field):
    with pytest.raises(ScenarioError) as err:
        GAME.scenario(position, turn)
    assert err.value.field == field
