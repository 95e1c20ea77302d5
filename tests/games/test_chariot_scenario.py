"""``run_scenario``: a disputed position and turn in, the rules' verdict out, in the documented formats."""

from __future__ import annotations

import json

import pytest
from chariot_positions import car, position

from companion.games.base import IllegalAction
from companion.games.chariot_race.scenario import PositionError, run_scenario, state_from_position


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
    with pytest.raises(PositionError) as err:
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
    with pytest.raises(PositionError, match="turn.chariot: unknown chariot 'purple'"):
        run_scenario(start, {"chariot": "purple", "dice": []})
