"""``run_scenario``: a disputed position and turn in, the rules' verdict out, in the documented formats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from chariot_positions import board_a_with, car, position

from companion.games import chariot_race
from companion.games.base import IllegalAction, ScenarioError
from companion.games.chariot_race.scenario import position_from_state, run_scenario, state_from_position


def julia_position():
    return position(car("green", "L2-07", damage=11, speed=6, fortune=3), car("red", "L0-10"),
                    car("yellow", "L1-13", damage=2), car("blue", "L1-12", damage=6),
                    order=["green", "red", "yellow", "blue"])


JULIA_TURN = {"chariot": "green", "repair": False, "dice": ["drive", "drive", "gallop", "steer"], "drive": [1, -1],
              "path": ["straight"] * 7 + ["in"], "attacks": []}


def test_julia_scenario_gives_the_rulebook_verdict():
    result = run_scenario(julia_position(), JULIA_TURN)
    chariots = {c["id"]: c for c in result["position"]["chariots"]}
    assert chariots["green"] == {"id": "green", "space": "L1-11", "damage": 4, "speed": 8, "fortune": 3, "laps": 0}
    assert chariots["yellow"]["wrecked"] and chariots["yellow"]["space"] is None
    assert result["position"]["caltrops"] == ["L1-13"]
    assert result["position"]["order"] == ["red", "blue"]
    assert [e["type"] for e in result["events"]][-6:] == [
        "curve_damage", "curve_damage", "rammed", "placed_behind", "wrecked", "moved"]
    json.dumps(result)  # the CLI prints it


def test_the_resulting_position_is_a_valid_position_again():
    result = run_scenario(julia_position(), JULIA_TURN)
    state = state_from_position(result["position"])
    assert [c.id for c in state.cars if not c.wrecked] == ["green", "red", "blue"]


def test_attacks_in_a_turn_file():
    start = position(car("green", "L1-02"), car("red", "L1-08", damage=5), order=["green", "red"])
    turn = {"chariot": "green", "dice": ["attack", "attack", "fortune", "fortune"], "path": ["straight"] * 4,
            "attacks": [{"spear": "red"}, {"caltrop": "L1-04"}]}
    result = run_scenario(start, turn)
    assert [(e["type"], e.get("target") or e.get("space")) for e in result["events"][-2:]] == [
        ("spear", "red"), ("caltrop_dropped", "L1-04")]
    assert result["position"]["caltrops"] == ["L1-04"]
    assert result["position"]["chariots"][1]["damage"] == 4


def test_the_next_chariots_start_of_turn_is_not_part_of_the_verdict():
    start = position(car("green", "L1-02"), car("red", "L1-20", damage=5, speed=9), order=["green", "red"])
    result = run_scenario(start, {"chariot": "green", "dice": ["fortune"] * 4, "path": ["straight"] * 4})
    assert [e["type"] for e in result["events"]][0] == "turn" and len([e for e in result["events"]
                                                                     if e["type"] == "turn"]) == 1
    assert result["position"]["chariots"][1]["speed"] == 9


@pytest.mark.parametrize("break_it, field", [
    (lambda p: p.pop("chariots"), "position.chariots: missing"),
    (lambda p: p["chariots"][0].pop("damage"), "position.chariots[0].damage: missing"),
    (lambda p: p["chariots"][1].update(space="L1-02"), "position.chariots[1].space: L1-02 is taken by green"),
    (lambda p: p["chariots"][1].update(space="L5-02"), "position.chariots[1].space: unknown space 'L5-02'"),
    (lambda p: p["chariots"][0].update(speed=13), "position.chariots[0].speed: expected 0..12, got 13"),
    (lambda p: p.update(caltrops=["L1-04", "L1-04"]), "position.caltrops: at most one caltrop per space"),
    (lambda p: p.update(order=["green", "purple"]), "position.order[1]: 'purple' is not a chariot still racing"),
])
def test_a_malformed_position_names_the_field(break_it, field):
    start = position(car("green", "L1-02"), car("red", "L1-08"))
    break_it(start)
    with pytest.raises(ScenarioError) as err:
        run_scenario(start, {"chariot": "green", "dice": ["fortune"] * 4})
    assert str(err.value).startswith(field)


@pytest.mark.parametrize("turn, rule", [
    ({"chariot": "red", "dice": ["fortune"] * 4}, "CR-9"),
    ({"chariot": "green", "dice": ["fortune"] * 3}, "CR-3"),
    ({"chariot": "green", "repair": True, "dice": ["fortune"] * 4}, "CR-11"),
    ({"chariot": "green", "dice": ["fortune"] * 4, "drive": [1]}, "CR-15"),
    ({"chariot": "green", "dice": ["steer", "fortune", "fortune", "fortune"], "path": ["in", "out", "straight",
                                                                                       "straight"]}, "CR-16"),
    ({"chariot": "green", "dice": ["fortune"] * 4, "path": ["in", "straight", "straight", "straight"]}, "CR-16"),
    ({"chariot": "green", "dice": ["attack"] * 4, "attacks": [{"spear": "red"}]}, "CR-21"),
    ({"chariot": "green", "dice": ["fortune"] * 4, "attacks": [{"caltrop": "L1-03"}]}, "CR-21"),
])
def test_an_illegal_turn_names_the_rule(turn, rule):
    start = position(car("green", "L1-02"), car("red", "L1-20"), order=["green", "red"])
    with pytest.raises(IllegalAction) as err:
        run_scenario(start, {"path": ["straight"] * 4, **turn})
    assert err.value.rule == rule


def test_an_unknown_chariot_in_the_turn_is_named():
    start = position(car("green", "L1-02"), car("red", "L1-20"))
    with pytest.raises(ScenarioError, match="turn.chariot: unknown chariot 'purple'"):
        run_scenario(start, {"chariot": "purple", "dice": []})


# ---------------------------------------------------------------------------------------------- round trip


def test_a_printed_position_reads_back_to_itself():
    """Every field the Position format has survives reading and printing: wrecked and finished chariots, an
    alternative chariot board, a player's name and colour, a custom board object, the variant."""
    custom = board_a_with(**{"L0-20": {"max_speed": 2}})
    start = {"board": custom, "variants": {"no_damage_after_finish": True}, "round": 4,
             "chariots": [car("green", "L1-02", fortune=2, laps=1, player="Julia"),
                          car("green-2", "L0-05", damage=3, laps=0, chariot_board="alt-purple", player="Julia"),
                          car("red", "L2-05", laps=2, finished=True),
                          {"id": "blue", "space": None, "damage": 0, "speed": 0, "fortune": 1, "laps": 0,
                           "wrecked": True}, car("black", "L1-09", laps=0, colour="white")],
             "caltrops": ["L1-03", "L2-20"], "order": ["green", "black", "green-2"]}
    assert position_from_state(state_from_position(start)) == start


def test_a_shipped_board_is_printed_by_name_a_changed_one_whole():
    assert position_from_state(state_from_position(position(car("green", "L1-02"))))["board"] == "A"
    changed = board_a_with(**{"L1-13": {"max_speed": 4}})
    assert position_from_state(state_from_position(position(car("green", "L1-02"), board=changed)))["board"] == changed


def test_turn_after_turn_from_each_printed_position_plays_a_round_and_the_next():
    table = position(car("green", "L1-02"), car("red", "L1-06", speed=5), car("blue", "L0-03", speed=3))
    dice = {"green": ["fortune"] * 4, "red": ["fortune"] * 4, "blue": ["fortune"] * 5}
    played = []
    for _ in range(6):
        state = state_from_position(table)
        chariot = state.cars[state.current].id
        speed = state.cars[state.current].speed
        result = run_scenario(table, {"chariot": chariot, "dice": dice[chariot], "path": ["straight"] * speed})
        played.append((state.round, chariot))
        table = json.loads(json.dumps(result["position"]))  # as the CLI prints it
    # Round 1 by front line: red (L1-06), blue (L0-03), green (L1-02). Round 2 over all three, although the last
    # position of round 1 listed only green still to play: red (L1-11), then blue and green both on front line 7,
    # in round 1's order (CR-9).
    assert played == [(1, "red"), (1, "blue"), (1, "green"), (2, "red"), (2, "blue"), (2, "green")]
    assert [c["space"] for c in table["chariots"]] == ["L1-10", "L1-16", "L0-09"]
    assert table["round"] == 3 and table["order"] == ["red", "blue", "green"]


def test_a_finished_race_reads_back_and_refuses_another_turn():
    start = position(car("green", "L1-30", laps=1), car("red", "L1-02", laps=1), order=["green", "red"])
    over = run_scenario(run_scenario(start, {"chariot": "green", "dice": ["fortune"] * 4,
                                             "path": ["straight"] * 4})["position"],
                        {"chariot": "red", "dice": ["fortune"] * 4, "path": ["straight"] * 4})
    assert over["position"]["winner"] == "green" and over["position"]["order"] == []
    assert position_from_state(state_from_position(over["position"])) == over["position"]
    with pytest.raises(IllegalAction) as err:
        run_scenario(over["position"], {"chariot": "green", "dice": ["fortune"] * 4})
    assert err.value.rule == "CR-24"


# ---------------------------------------------------------------------------------------------- unknown keys


START = position(car("green", "L1-02", fortune=4), car("red", "L1-20"), order=["green", "red"])
PLAIN = {"chariot": "green", "dice": ["fortune"] * 4, "path": ["straight"] * 4}


def test_a_misspelt_attacks_key_is_refused_instead_of_dropping_the_spear():
    turn = {"chariot": "green", "dice": ["attack", "fortune", "fortune", "fortune"], "path": ["straight"] * 4,
            "attack": [{"spear": "red"}]}
    with pytest.raises(ScenarioError) as err:
        run_scenario(position(car("green", "L1-02"), car("red", "L1-08"), order=["green", "red"]), turn)
    assert err.value.field == "turn.attack"
    assert "did you mean 'attacks'?" in str(err.value)


@pytest.mark.parametrize("change, field", [
    (lambda p, t: p.update(caltrop=["L1-05"]), "position.caltrop"),
    (lambda p, t: p["chariots"][0].update(damge=3), "position.chariots[0].damge"),
    (lambda p, t: p.update(variants={"no_damage_after_finnish": True}), "position.variants.no_damage_after_finnish"),
    (lambda p, t: p.update(board=board_a_with(**{"L1-13": {"max_sped": 4}})), "position.board: spaces[41].max_sped"),
    (lambda p, t: t.update(drives=[1]), "turn.drives"),
    (lambda p, t: t.update(attacks=[{"spaer": "red"}]), "turn.attacks[0].spaer"),
    (lambda p, t: t.update(attacks=[{"spear": "red", "caltrop": "L1-03"}]), "turn.attacks[0]"),
    (lambda p, t: t.update(free_reroll={"reroll": [0], "dice": ["drive"], "cost": 0}), "turn.free_reroll.cost"),
    (lambda p, t: t.update(paid=[{"turn": 0, "fce": "drive"}]), "turn.paid[0].fce"),
    (lambda p, t: t.update(paid=[{"turn": 0, "face": "drive", "dice": ["steer"]}]), "turn.paid[0].dice"),
])
def test_an_unknown_key_anywhere_is_refused_naming_it(change, field):
    start, turn = json.loads(json.dumps(START)), dict(PLAIN)
    change(start, turn)
    with pytest.raises(ValueError) as err:
        run_scenario(start, turn)
    assert not isinstance(err.value, IllegalAction)
    assert str(err.value).startswith(field + ":") or str(err.value).startswith(field + " "), str(err.value)


# ---------------------------------------------------------------------------------------------- CR-13 fortune


def test_the_free_reroll_is_free_and_paid_rerolls_and_turns_cost_2_fortune_each():
    start = position(car("green", "L1-02", fortune=5), car("red", "L1-20"), order=["green", "red"])
    turn = {"chariot": "green", "dice": ["attack", "attack", "fortune", "gallop"],
            "free_reroll": {"reroll": [0, 1], "dice": ["fortune", "steer"]},
            "paid": [{"reroll": [2], "dice": ["drive"]}, {"turn": 3, "face": "drive"}],
            "drive": [1, 1], "path": ["straight"] * 6}
    result = run_scenario(start, turn)
    spends = [(e["type"], e["cost"], e["dice"]) for e in result["events"] if e["type"] in ("rerolled", "turned")]
    assert spends == [("rerolled", 0, ["fortune", "steer", "fortune", "gallop"]),
                      ("rerolled", 2, ["fortune", "steer", "drive", "gallop"]),
                      ("turned", 2, ["fortune", "steer", "drive", "drive"])]
    green = result["position"]["chariots"][0]
    assert (green["fortune"], green["speed"], green["space"]) == (5 - 2 - 2 + 1, 6, "L1-08")


def test_paid_spends_need_the_fortune_on_the_track_not_the_fortune_rolled():
    start = position(car("green", "L1-02", fortune=3), car("red", "L1-20"), order=["green", "red"])
    turn = {"chariot": "green", "dice": ["fortune", "fortune", "attack", "attack"],
            "paid": [{"turn": 2, "face": "drive"}, {"turn": 3, "face": "drive"}], "drive": [1, 1]}
    with pytest.raises(IllegalAction) as err:
        run_scenario(start, turn)
    assert err.value.rule == "CR-13"
    assert "green has 3 fortune on the track: 2 paid rerolls or turns cost 4" in str(err.value)


def test_a_die_is_never_turned_to_fortune():
    turn = {**PLAIN, "dice": ["drive", "steer", "steer", "steer"], "paid": [{"turn": 0, "face": "fortune"}]}
    with pytest.raises(IllegalAction) as err:
        run_scenario(START, turn)
    assert err.value.rule == "CR-13" and "cannot be turned to 'fortune'" in str(err.value)


# ---------------------------------------------------------------------------------------------- CR-21 spears


def test_a_spear_out_of_range_says_how_far_the_target_is():
    start = position(car("green", "L1-02"), car("red", "L1-10"), order=["green", "red"])
    turn = {"chariot": "green", "dice": ["attack", "fortune", "fortune", "fortune"], "path": ["straight"] * 4,
            "attacks": [{"spear": "red"}]}
    with pytest.raises(IllegalAction) as err:
        run_scenario(start, turn)
    assert err.value.rule == "CR-21"
    assert "red on L1-10 is 4 steps from L1-06, a spear reaches 2" in str(err.value)


# ---------------------------------------------------------------------------------------------- the README


def readme_examples() -> list[dict]:
    """The JSON examples of the README's rule-dispute section, in order."""
    text = (Path(chariot_race.__file__).parent / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Rule disputes"):]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)]


def test_the_readme_example_gives_the_verdict_the_readme_states():
    start, turn = readme_examples()[:2]
    result = run_scenario(start, turn)
    green = result["position"]["chariots"][0]
    assert (green["space"], green["speed"], green["damage"], green["fortune"]) == ("L1-15", 8, 9, 1)
    assert [(e["type"], e.get("cost")) for e in result["events"] if "cost" in e] == [("rerolled", 0), ("turned", 2)]
