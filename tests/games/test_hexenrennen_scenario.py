"""Hexen Rennen's ``scenario``: a disputed position and turn in, the rules' verdict out, in the README's formats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.games import hexenrennen
from companion.games.base import IllegalAction, ScenarioError
from companion.games.hexenrennen import GAME
from companion.games.hexenrennen.scenario import position_from_state, state_from_position

FOUR = [{"name": "Julia", "colour": "blue"}, {"name": "Ben", "colour": "yellow"}, {"name": "Ada", "colour": "green"},
        {"name": "Bo", "colour": "orange"}]
THREE = FOUR[:3]


def readme_examples() -> list[dict]:
    text = (Path(hexenrennen.__file__).parent / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Rule disputes"):]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)]


def refused(position, turn, rule):
    with pytest.raises(IllegalAction) as err:
        GAME.scenario(position, turn)
    assert err.value.rule == rule, str(err.value)
    return err.value


def malformed(position, turn, field):
    with pytest.raises(ScenarioError) as err:
        GAME.scenario(position, turn)
    assert err.value.field == field, str(err.value)
    return str(err.value)


# ---------------------------------------------------------------------------------------------- the README


def test_the_readme_example_is_the_rulebook_chain():
    start, turn = readme_examples()[:2]
    result = GAME.scenario(start, turn)
    after = result["position"]
    assert after["witches"]["blue-1"] == 10 and after["current"] == "yellow" and after["turn"] == 2
    assert after["revealed"] == {"8": "blue-10", "10": "orange-6", "15": "green-magic", "18": "blue-4",
                                 "22": "yellow-magic"}
    assert after["cards"]["yellow"] == ["magic", 2, 3, 5, 9] and 5 not in after["cards"]["green"]
    assert [e["type"] for e in result["events"]][-2:] == ["stays", "chain_end"]
    assert result["events"][-1]["net"] == 5
    json.dumps(result)


# ---------------------------------------------------------------------------------------------- round trip


def test_a_printed_position_reads_back_to_itself():
    start = GAME.scenario({"players": THREE}, {"player": "blue", "die": 2, "reveals": ["yellow-9"]})["position"]
    start.update(witches={**start["witches"], "yellow-2": 30, "green-1": 49, "green-2": 51}, turn=7,
                 revealed={**start["revealed"], "20": "green-magic", "33": "orange-4"},
                 cards={**start["cards"], "green": ["magic", 2, 10]}, piles={"orange": ["magic", 3, 6, 7]})
    assert position_from_state(state_from_position(start)) == start


def test_turn_after_turn_from_each_printed_position():
    """Three players (orange is neutral): a neutral magic sign draws from its pile, a roll that cannot be moved
    passes (HR-8), and each printed position is the start of the next turn."""
    table = {"players": THREE, "witches": {"blue-1": 5, "yellow-1": 50, "yellow-2": 51, "yellow-3": 47},
             "revealed": {"8": "orange-magic"}}
    turns = [{"player": "blue", "die": 3, "witch": "blue-1", "draws": [4], "reveals": ["yellow-3"]},
             {"player": "yellow", "die": 6},
             {"player": "green", "die": 1, "reveals": ["yellow-5"]}]
    played = []
    for turn in turns:
        result = GAME.scenario(table, turn)
        played.append([e["type"] for e in result["events"] if e["type"] in ("drawn", "passed", "stays")])
        table = json.loads(json.dumps(result["position"]))
    assert played == [["drawn", "stays"], ["passed"], ["stays"]]
    assert table["witches"]["blue-1"] == 4 and table["witches"]["green-1"] == 1
    assert 4 not in table["piles"]["orange"] and len(table["piles"]["orange"]) == 11
    assert table["current"] == "blue" and table["turn"] == 4


def test_the_turn_that_ends_the_game_prints_a_finished_position_that_refuses_another_turn():
    start = {"players": FOUR, "witches": {"blue-1": 48, "blue-2": 49, "blue-3": 50}}
    result = GAME.scenario(start, {"player": "blue", "die": 3, "witch": "blue-1"})
    assert result["events"][-1] == {"type": "game_over", "scores": {"blue": 9, "yellow": 0, "green": 0, "orange": 0},
                                    "winners": ["blue"]}
    assert result["position"]["current"] is None
    assert position_from_state(state_from_position(result["position"])) == result["position"]
    refused(result["position"], {"player": "yellow", "die": 1}, "HR-18")


# ---------------------------------------------------------------------------------------------- malformed files


@pytest.mark.parametrize("change, field", [
    (lambda p, t: p.update(witch={"blue-1": 5}), "position.witch"),
    (lambda p, t: p["players"][0].update(clan="blue"), "position.players[0].clan"),
    (lambda p, t: p.update(witches={"blue-4": 5}), "position.witches.blue-4"),
    (lambda p, t: p.update(cards={"orange": [2]}), "position.cards.orange"),
    (lambda p, t: p.update(piles={"yellow": [2]}), "position.piles.yellow"),
    (lambda p, t: t.update(reveal=["blue-10"]), "turn.reveal"),
    (lambda p, t: t.update(card=[7]), "turn.card"),
])
def test_an_unknown_key_anywhere_is_refused_naming_it(change, field):
    start, turn = {"players": json.loads(json.dumps(THREE)), "witches": {"blue-1": 5}}, {"player": "blue", "die": 3}
    change(start, turn)
    assert "unknown key" in malformed(start, turn, field)


@pytest.mark.parametrize("change, field, says", [
    (lambda p: p.update(witches={"blue-1": 5, "yellow-1": 5}), "position.witches.yellow-1", "one witch per space"),
    (lambda p: p.update(witches={"blue-1": 52}), "position.witches.blue-1", "expected a space 0..51"),
    (lambda p: p.update(revealed={"3": "blue-7", "40": "blue-7"}), "position.revealed.40", "HR-2, HR-3"),
    (lambda p: p.update(revealed={"49": "blue-7"}), "position.revealed.49", "expected a track space 1..48"),
    (lambda p: p.update(revealed={"4": "purple-7"}), "position.revealed.4", "is no tile of the box"),
    (lambda p: p.update(cards={"blue": [7, 7]}), "position.cards.blue", "at most once"),
    (lambda p: p.update(current="orange"), "position.current", "expected the clan on turn"),
    (lambda p: p.update(players=THREE[:1]), "position.players", "HR-1"),
])
def test_a_malformed_position_names_the_key(change, field, says):
    start = {"players": json.loads(json.dumps(THREE))}
    change(start)
    assert says in malformed(start, {"player": "blue", "die": 3}, field)


# ---------------------------------------------------------------------------------------------- illegal turns


def test_a_turn_out_of_order_names_hr1():
    refused({"players": FOUR}, {"player": "yellow", "die": 3}, "HR-1")


def test_a_roll_with_a_choice_needs_the_witch_and_gets_the_choices():
    err = refused({"players": FOUR, "witches": {"blue-1": 5}, "revealed": {"8": "yellow-3", "3": "green-4"}},
                  {"player": "blue", "die": 3}, "HR-5")
    assert err.legal == ["blue-1", "blue-2"]


def test_a_hidden_tile_the_turn_does_not_reveal_is_asked_for_with_the_possible_tiles():
    err = refused({"players": FOUR}, {"player": "blue", "die": 3}, "HR-9")
    assert "landed on hidden space 3: 'reveals' must say what it shows" in str(err)
    assert "blue-10" in err.legal and "green-magic" in err.legal


def test_answers_the_chain_never_asked_for_are_refused():
    refused({"players": FOUR, "revealed": {"3": "yellow-3"}}, {"player": "blue", "die": 3, "reveals": ["blue-5"]},
            "HR-9")
    refused({"players": FOUR, "revealed": {"3": "yellow-3"}}, {"player": "blue", "die": 3, "cards": ["stay"]},
            "HR-14")


def test_a_witch_named_when_none_can_move_names_hr8():
    start = {"players": FOUR, "witches": {"blue-1": 47, "blue-2": 50, "blue-3": 51}}
    assert [e["type"] for e in GAME.scenario(start, {"player": "blue", "die": 6})["events"]] == ["rolled", "passed"]
    refused(start, {"player": "blue", "die": 6, "witch": "blue-1"}, "HR-8")


def test_a_card_the_decider_has_played_already_names_hr15():
    start = {"players": FOUR, "witches": {"blue-1": 5}, "revealed": {"8": "yellow-magic"},
             "cards": {"yellow": ["magic", 2]}}
    refused(start, {"player": "blue", "die": 3, "witch": "blue-1", "cards": [7]}, "HR-15")


def test_any_witch_at_the_start_may_be_named_for_a_move_from_the_start():
    result = GAME.scenario({"players": FOUR, "revealed": {"2": "yellow-3"}},
                           {"player": "blue", "die": 2, "witch": "blue-3"})
    assert sorted(result["position"]["witches"][w] for w in ("blue-1", "blue-2", "blue-3")) == [0, 0, 2]
