"""The contract of the ``scenario`` hook, for every registered game: the printed position is the next turn's position,
unknown keys are refused naming them, an illegal turn names its rule, and ``companion rules <game> apply`` says so
with its exit status. A game registered without a sample here fails ``test_every_game_has_a_scenario``."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.games import GAMES, get_game
from companion.games.base import IllegalAction, ScenarioError
from tests.games.test_automobiles_scenario import SAMPLE as AUTOMOBILES

SAMPLES = {
    "automobiles": AUTOMOBILES,  # the sample its own scenario tests check turn by turn
    "chariot-race": {
        "position": {"board": "A", "chariots": [
            {"id": "green", "space": "L1-02", "damage": 12, "speed": 4, "fortune": 0},
            {"id": "red", "space": "L1-20", "damage": 12, "speed": 4, "fortune": 0}], "order": ["green", "red"]},
        "turns": [{"chariot": "green", "dice": ["fortune"] * 4, "path": ["straight"] * 4},
                  {"chariot": "red", "dice": ["drive", "fortune", "fortune", "fortune"], "drive": [1],
                   "path": ["straight"] * 5},
                  {"chariot": "red", "dice": ["fortune"] * 4, "path": ["straight"] * 5}],
        "illegal": ({"chariot": "red", "dice": ["fortune"] * 4}, "CR-9"),
    },
    "hexenrennen": {
        "position": {"players": [{"name": "Julia", "colour": "blue"}, {"name": "Ben", "colour": "yellow"}],
                     "revealed": {"3": "yellow-3", "2": "blue-5", "1": "green-4"}},
        "turns": [{"player": "blue", "die": 3}, {"player": "yellow", "die": 2}, {"player": "blue", "die": 1,
                                                                                  "witch": "blue-2"}],
        "illegal": ({"player": "yellow", "die": 3}, "HR-1"),
    },
    "cubitos": {
        "position": {"race": "race_1", "lead": "blue", "players": [
            {"name": "Ada", "colour": "blue", "draw": {"grey_light": 7, "grey_dark": 2}, "ready": {"lead": 1}},
            {"name": "Bo", "colour": "red", "draw": {"grey_light": 7, "grey_dark": 2}}]},
        "turns": [{"player": "blue", "actions": [
                      {"type": "roll", "dice": ["grey_dark/step1", "lead/coin2"] + ["grey_light/blank"] * 7
                       + ["grey_dark/blank"]}, {"type": "pass"}]},
                  {"player": "red", "actions": [
                      {"type": "roll", "dice": ["grey_light/coin1"] + ["grey_light/blank"] * 6
                       + ["grey_dark/blank"] * 2}, {"type": "pass"}]},
                  {"player": "blue", "actions": [{"type": "move", "path": ["A01"]}]}],
        "illegal": ({"player": "red", "actions": [{"type": "pass"}]}, "CU-30"),
    },
    "dice-race": {
        "position": {"players": [{"name": "Ann", "space": 3}, {"name": "Bo", "space": 5}], "current": "Ann"},
        "turns": [{"player": "Ann", "die": 4}, {"player": "Bo", "die": 6}, {"player": "Ann", "die": 2}],
        "illegal": ({"player": "Bo", "die": 4}, "DR-1"),
    },
}

IDS = sorted(GAMES)


def test_every_game_has_a_scenario():
    assert set(IDS) <= set(SAMPLES)  # a game on its way into the registry brings its sample first (Cubitos)
    for game_id in IDS:
        assert callable(getattr(get_game(game_id), "scenario", None)), game_id


@pytest.mark.parametrize("game_id", IDS)
def test_each_printed_position_is_the_next_turns_position(game_id):
    game, sample = get_game(game_id), SAMPLES[game_id]
    position = sample["position"]
    for turn in sample["turns"]:
        result = game.scenario(position, turn)
        assert set(result) == {"position", "events"} and result["events"]
        printed = json.loads(json.dumps(result["position"]))  # as the CLI prints it: standard JSON
        assert printed == result["position"]
        position = printed
    replayed = sample["position"]
    for turn in sample["turns"]:
        replayed = game.scenario(replayed, turn)["position"]
    assert replayed == position  # the same turns from the same table give the same verdict


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("where", ["position", "turn"])
def test_an_unknown_key_is_refused_naming_it(game_id, where):
    sample = SAMPLES[game_id]
    files = {"position": dict(sample["position"]), "turn": dict(sample["turns"][0])}
    files[where]["notes"] = "written by hand"
    with pytest.raises(ScenarioError) as err:
        get_game(game_id).scenario(files["position"], files["turn"])
    assert err.value.field == f"{where}.notes" and "unknown key" in str(err.value)


@pytest.mark.parametrize("game_id", IDS)
def test_an_illegal_turn_names_its_rule(game_id):
    turn, rule = SAMPLES[game_id]["illegal"]
    with pytest.raises(IllegalAction) as err:
        get_game(game_id).scenario(SAMPLES[game_id]["position"], turn)
    assert err.value.rule == rule


def rules_apply(tmp_path, capsys, game_id, position, turn):
    files = tmp_path / "position.json", tmp_path / "turn.json"
    for path, content in zip(files, (position, turn), strict=True):
        path.write_text(json.dumps(content), encoding="utf-8")
    status = main(["rules", game_id, "apply", "--position", str(files[0]), "--turn", str(files[1])])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("game_id", IDS)
def test_the_command_prints_the_verdict_as_json(tmp_path, capsys, game_id):
    sample = SAMPLES[game_id]
    status, out, _ = rules_apply(tmp_path, capsys, game_id, sample["position"], sample["turns"][0])
    assert status == 0
    assert json.loads(out) == get_game(game_id).scenario(sample["position"], sample["turns"][0])


@pytest.mark.parametrize("game_id", IDS)
def test_the_command_exits_1_with_the_rule_of_an_illegal_turn(tmp_path, capsys, game_id):
    turn, rule = SAMPLES[game_id]["illegal"]
    status, out, err = rules_apply(tmp_path, capsys, game_id, SAMPLES[game_id]["position"], turn)
    assert (status, out) == (1, "")
    assert json.loads(err)["rule"] == rule


@pytest.mark.parametrize("game_id", IDS)
def test_the_command_exits_2_naming_the_key_of_a_malformed_file(tmp_path, capsys, game_id):
    sample = SAMPLES[game_id]
    status, out, err = rules_apply(tmp_path, capsys, game_id, sample["position"], {**sample["turns"][0], "x": 1})
    assert (status, out) == (2, "")
    assert err.startswith("companion rules: turn.x: unknown key")
