"""Chariot Race rules CR-1..CR-25, each told as a position, a turn and what the rules must do.

Board A (reference) in short: lanes 0 inner, 1 middle, 2 outer; the home straight is spaces 00-07 of every lane;
curve limits: L0-11 max 3, L1-13 max 5, L2-14 max 7 (far curve), L0-25 max 4, L1-30 max 6, L2-34 max 8 (home curve).
Chariots get fortune 0 unless a test needs it, so no repair or fortune phase interrupts.
"""

from __future__ import annotations

import random

import pytest
from chariot_positions import (
    DONE,
    SIX,
    begin,
    car,
    chariot,
    keep,
    of_type,
    play,
    position,
    roll,
)

from companion.games.base import IllegalAction
from companion.games.chariot_race import GAME
from companion.games.chariot_race.board import NO_SPACE, load_board
from companion.games.chariot_race.components import load_chariot_board, load_dice
from companion.games.chariot_race.move import move_options
from companion.games.chariot_race.rules import PHASES, round_order
from companion.games.chariot_race.scenario import state_from_position
from companion.games.chariot_race.state import CALTROP_SUPPLY

QUIET4 = ("fortune", "fortune", "fortune", "fortune")
"""Four dice that change nothing but fortune: the chariot moves straight at its speed and does not attack."""


def options(state, kind=None):
    found = GAME.prompt(state).options
    return [o for o in found if kind is None or o["type"] == kind]


# ---------------------------------------------------------------------------------------------- components


def test_cr1_dice_faces_are_data():
    assert load_dice().count == 5
    assert GAME.die_faces == ("drive", "gallop", "steer", "steer", "attack", "fortune")


def test_cr1_a_face_the_die_does_not_have_is_refused():
    state, _ = begin(position(car("green", "L1-02")))
    with pytest.raises(IllegalAction) as err:
        play(state, roll("drive", "drive", "skull", "steer"))
    assert err.value.rule == "CR-1" and "skull" in str(err.value)


def test_cr2_speed_stops_at_0_and_fortune_at_its_maximum():
    state, _ = begin(position(car("green", "L1-02", speed=1, fortune=1)))  # 5 dice at speed 1
    state, events = play(state, roll("drive", "drive", "fortune", "fortune", "fortune"), DONE,
                         {"type": "drive", "signs": [-1, -1]})
    assert chariot(state, "green")["speed"] == 0
    assert chariot(state, "green")["space"] == "L1-02"
    assert chariot(state, "green")["fortune"] == 4


def test_cr2_damage_never_goes_below_0():
    state, _ = begin(position(car("green", "L1-02", damage=1, speed=1), car("red", "L1-03"), order=["green", "red"]))
    state, events = play(state, *keep("fortune", *QUIET4))
    assert of_type(events, "rammed")[0]["damage"] == 1  # a ram costs 2, only 1 was left to take
    assert chariot(state, "green")["damage"] == 0 and chariot(state, "green")["wrecked"]


@pytest.mark.parametrize("speed, dice", [(0, 5), (3, 5), (4, 4), (6, 4), (7, 3), (8, 3), (9, 2), (10, 2),
                                         (11, 1), (12, 1)])
def test_cr3_dice_count_follows_start_speed(speed, dice):
    state, _ = begin(position(car("green", "L1-02", speed=speed)))
    assert options(state) == [{"type": "roll", "roll": dice}]


def test_cr3_rolling_the_wrong_number_of_dice_is_refused():
    state, _ = begin(position(car("green", "L1-02", speed=4)))
    with pytest.raises(IllegalAction) as err:
        play(state, roll("drive", "drive", "drive"))
    assert err.value.rule == "CR-3"


def test_cr4_alternative_chariot_cap_takes_the_higher_value():
    # Rulebook: Julia (green, alternative side) has speed 11 and damage 8: she adjusts to 10, not 9.
    state, events = begin(position(car("green", "L1-02", damage=8, speed=11, chariot_board="alt-green")))
    assert chariot(state, "green")["speed"] == 10
    assert events[-1] == {"type": "speed_capped", "chariot": "green", "speed": 10, "was": 11, "damage": 8}


def test_cr4_alternative_chariots_are_marked_placeholders_and_chosen_at_setup():
    assert all(load_chariot_board(f"alt-{c}").placeholder for c in ("green", "red", "blue", "yellow", "purple"))
    assert not load_chariot_board("standard").placeholder
    options = {**SIX, "start": "random", "variants": {"alternative_chariots": True}}
    view = GAME.view(GAME.setup(options, random.Random(1)))
    assert {c["id"]: c["chariot_board"] for c in view["chariots"]}["green"] == "alt-green"
    assert len({c["chariot_board"] for c in view["chariots"]}) == 6
    two = {"players": [{"name": "A", "colour": "green"}, {"name": "B", "colour": "red"}],
           "variants": {"alternative_chariots": {"green-2": "purple"}}}
    view = GAME.view(GAME.setup(two, random.Random(1)))
    assert [c["chariot_board"] for c in view["chariots"]] == ["standard", "alt-purple", "standard", "standard"]


def test_cr5_reference_boards_have_three_lanes_curves_and_rocks_on_side_b():
    a, b = load_board("A"), load_board("B")
    assert set(a.lane) == {0, 1, 2} and a.lap_length == 34.0
    assert sum(m < 99 for m in a.max_speed) == 6
    assert not any(a.rocks) and [b.ids[k] for k, r in enumerate(b.rocks) if r] == ["L0-17", "L1-05", "L2-10"]
    assert [a.ids[s] for s in a.start_spaces] == ["L0-01", "L1-01", "L2-01", "L0-00", "L1-00", "L2-00"]


def test_cr5_lane_change_targets_the_smallest_front_strictly_ahead():
    a = load_board("A")
    target = {(sid, step): a.ids[a.step(a.index[sid], step)] for sid, step in
              [("L2-14", "in"), ("L1-05", "out"), ("L1-05", "in"), ("L2-39", "in"), ("L0-09", "out")]}
    assert target == {("L2-14", "in"): "L1-13", ("L1-05", "out"): "L2-06", ("L1-05", "in"): "L0-06",
                      ("L2-39", "in"): "L1-00", ("L0-09", "out"): "L1-11"}
    assert a.inward[a.index["L0-03"]] == NO_SPACE and a.outward[a.index["L2-03"]] == NO_SPACE


def test_cr6_without_caltrops_in_the_supply_none_is_dropped_and_a_wreck_leaves_none():
    twenty = [f"L0-{n:02d}" for n in range(14, 28)] + [f"L2-{n:02d}" for n in range(20, 26)]
    state, _ = begin(position(car("green", "L1-02", damage=12), car("red", "L1-05", damage=2),
                              caltrops=twenty, order=["green", "red"]))
    state, events = play(state, *keep("attack", "fortune", "fortune", "fortune"))
    assert of_type(events, "wrecked") == [{"type": "wrecked", "chariot": "red", "space": "L1-05", "caltrop": False}]
    assert len(GAME.view(state)["caltrops"]) == CALTROP_SUPPLY
    assert GAME.view(state)["caltrop_supply"] == 0


# ---------------------------------------------------------------------------------------------- set-up


def test_cr7_two_or_three_players_drive_two_chariots_each():
    two = {"players": [{"name": "Ada", "colour": "green"}, {"name": "Bo", "colour": "red"}]}
    view = GAME.view(GAME.setup(two, random.Random(0)))
    assert [(c["id"], c["player"]) for c in view["chariots"]] == [
        ("green", "Ada"), ("green-2", "Ada"), ("red", "Bo"), ("red-2", "Bo")]
    four = {"players": [{"name": n} for n in "ABCD"]}
    assert len(GAME.view(GAME.setup(four, random.Random(0)))["chariots"]) == 4


@pytest.mark.parametrize("players", [[], [{"name": "Solo"}], [{"name": str(n)} for n in range(7)]])
def test_cr7_a_race_needs_2_to_6_players(players):
    with pytest.raises(IllegalAction) as err:
        GAME.setup({"players": players}, random.Random(0))
    assert err.value.rule == "CR-7"


def test_cr8_chosen_start_positions_set_the_first_round_order():
    options = {**SIX, "start": {"order": ["white", "black", "yellow", "blue", "red", "green"]}}
    state = GAME.setup(options, random.Random(0))
    view = GAME.view(state)
    assert view["order"] == ["white", "black", "yellow", "blue", "red", "green"]
    assert chariot(state, "white")["space"] == "L0-01" and chariot(state, "green")["space"] == "L2-00"
    assert GAME.prompt(state).actor == "white"


def test_cr8_random_start_positions_come_from_the_seed():
    orders = {tuple(GAME.view(GAME.setup(SIX, random.Random(seed)))["order"]) for seed in range(6)}
    assert len(orders) > 1
    assert GAME.view(GAME.setup(SIX, random.Random(4))) == GAME.view(GAME.setup(SIX, random.Random(4)))


# ---------------------------------------------------------------------------------------------- order of play


def test_cr9_the_chariot_furthest_ahead_plays_first_whatever_its_lane():
    state = state_from_position(position(car("red", "L0-05"), car("green", "L2-06"), car("blue", "L0-01", laps=1)))
    assert [state.cars[k].id for k in state.order] == ["blue", "green", "red"]


def test_cr9_equal_front_lines_keep_the_previous_round_order():
    state = state_from_position(position(car("red", "L0-05"), car("green", "L1-05")))  # both fronts at 6
    assert round_order(state, [0, 1]) == (0, 1)
    assert round_order(state, [1, 0]) == (1, 0)


def test_cr9_a_new_round_orders_by_position():
    state, _ = begin(position(car("green", "L1-05"), car("red", "L1-02"), order=["green", "red"]))
    state, _ = play(state, *keep(*QUIET4))  # green to L1-09
    state, events = play(state, *keep("gallop", "gallop", "gallop", "fortune"))  # red 10 fast, to L1-12
    assert GAME.view(state)["order"] == ["red", "green"] and GAME.view(state)["round"] == 2


def test_cr10_a_turn_walks_its_phases_in_order():
    state, _ = begin(position(car("green", "L1-02", damage=9, fortune=6), car("red", "L1-04"),
                              order=["green", "red"]))
    seen = []
    for action in [{"type": "repair"}, roll("drive", "steer", "attack", "fortune"), DONE, DONE,
                   {"type": "drive", "signs": [1]}, {"type": "move", "path": ["straight"] * 5}]:
        seen.append(state.phase)
        state, _ = play(state, action)
    seen.append(state.phase)
    assert seen == ["repair", "roll", "reroll", "fortune", "drive", "move", "attack"]


def test_cr10_an_action_out_of_phase_names_the_phase_rule_and_what_is_legal():
    state, _ = begin(position(car("green", "L1-02", damage=9, fortune=3)))
    with pytest.raises(IllegalAction) as err:
        play(state, roll(*QUIET4))
    assert err.value.rule == "CR-11" and err.value.legal == ["repair", "skip_repair"]


# ---------------------------------------------------------------------------------------------- phases


def test_cr11_repair_spends_3_fortune_for_up_to_3_damage():
    state, _ = begin(position(car("green", "L1-02", damage=10, fortune=4)))
    state, events = play(state, {"type": "repair"})
    assert events[0] == {"type": "repair", "chariot": "green", "restored": 2, "damage": 12, "fortune": 1}


def test_cr11_no_repair_without_3_fortune():
    state, _ = begin(position(car("green", "L1-02", damage=6, fortune=2)))
    assert state.phase == "roll"


def test_cr12_ben_slows_to_his_damage_and_rolls_4_dice():
    # Rulebook: Ben starts his turn at speed 9 with damage 6: speed becomes 6 and he rolls 4 dice.
    state, events = begin(position(car("blue", "L1-02", damage=6, speed=9)))
    assert chariot(state, "blue")["speed"] == 6
    assert options(state) == [{"type": "roll", "roll": 4}]


def test_cr12_cap_comes_after_repair():
    state, _ = begin(position(car("green", "L1-02", damage=6, speed=9, fortune=3)))
    state, events = play(state, {"type": "repair"})
    assert chariot(state, "green")["speed"] == 9 and options(state) == [{"type": "roll", "roll": 2}]


def test_cr13_free_reroll_then_paid_rerolls_and_turns():
    state, _ = begin(position(car("green", "L1-02", fortune=4, speed=4)))
    state, _ = play(state, roll("attack", "attack", "attack", "attack"))
    assert state.phase == "reroll" and {o["type"] for o in options(state)} == {"done", "reroll"}
    assert len(options(state, "reroll")) == 15
    state, _ = play(state, {"type": "reroll", "reroll": [0, 2], "roll": 2, "dice": ["drive", "drive"]})
    assert state.phase == "fortune" and chariot(state, "green")["fortune"] == 4
    state, _ = play(state, {"type": "turn", "die": 1, "face": "steer"})
    state, events = play(state, {"type": "reroll", "reroll": [0], "roll": 1, "dice": ["gallop"]})
    assert chariot(state, "green")["fortune"] == 0
    assert list(state.dice) == ["gallop", "steer", "drive", "attack"] and state.phase == "drive"


def test_cr13_a_die_cannot_be_turned_to_fortune():
    state, _ = begin(position(car("green", "L1-02", fortune=2)))
    state, _ = play(state, roll(*QUIET4), DONE)
    assert not any(o["face"] == "fortune" for o in options(state, "turn"))
    with pytest.raises(IllegalAction) as err:
        play(state, {"type": "turn", "die": 0, "face": "fortune"})
    assert err.value.rule == "CR-13"


def test_cr13_fortune_rolled_this_turn_cannot_pay():
    state, _ = begin(position(car("green", "L1-02", fortune=1)))
    state, _ = play(state, roll(*QUIET4), DONE)
    assert state.phase != "fortune"
    assert chariot(state, "green")["fortune"] == 5


def test_cr14_fortune_gain_stops_at_6():
    state, _ = begin(position(car("green", "L1-02", fortune=1)))
    state, events = play(state, roll("fortune", "fortune", "fortune", "fortune"), DONE)
    assert chariot(state, "green")["fortune"] == 5
    state, _ = begin(position(car("green", "L1-02", fortune=5, damage=12)))
    state, events = play(state, roll(*QUIET4), DONE, DONE)
    assert chariot(state, "green")["fortune"] == 6
    assert of_type(events, "fortune_gained")[0]["gained"] == 1


def test_cr15_gallop_excess_is_lost_but_its_damage_taken():
    state, _ = begin(position(car("green", "L1-14", speed=11)))  # one die at speed 11
    state, events = play(state, roll("gallop"), DONE)
    assert of_type(events, "speed_set")[0]["speed"] == 12
    assert chariot(state, "green")["damage"] == 11 and chariot(state, "green")["space"] == "L1-26"


def test_cr15_every_drive_die_must_be_used():
    state, _ = begin(position(car("green", "L1-02")))
    state, _ = play(state, roll("drive", "drive", "fortune", "fortune"), DONE)
    assert options(state) == [{"type": "drive", "signs": [1, 1]}, {"type": "drive", "signs": [1, -1]},
                              {"type": "drive", "signs": [-1, -1]}]
    with pytest.raises(IllegalAction) as err:
        play(state, {"type": "drive", "signs": [1]})
    assert err.value.rule == "CR-15"


def test_cr15_gallop_damage_can_wreck_before_moving():
    state, _ = begin(position(car("green", "L1-02", damage=1, speed=1), car("red", "L1-20"), order=["green", "red"]))
    state, events = play(state, *keep("gallop", *QUIET4))
    assert of_type(events, "wrecked") == [{"type": "wrecked", "chariot": "green", "space": "L1-02", "caltrop": True}]
    assert not of_type(events, "moved")


def test_cr16_lane_change_costs_a_steer():
    state, _ = begin(position(car("green", "L1-02")))
    state, _ = play(state, roll("drive", "steer", "fortune", "fortune"), DONE, {"type": "drive", "signs": [-1]})
    paths = [o["path"] for o in options(state)]
    assert len(paths) == 7  # 3 steps, at most one lane change from the middle lane
    assert ["straight", "in", "straight"] in paths and ["in", "out", "straight"] not in paths
    with pytest.raises(IllegalAction) as err:
        play(state, {"type": "move", "path": ["in", "out", "straight"]})
    assert err.value.rule == "CR-16" and "steer" in str(err.value)


def test_cr16_exactly_speed_steps_and_never_off_the_track():
    state, _ = begin(position(car("green", "L0-02")))
    state, _ = play(state, roll("steer", "fortune", "fortune", "fortune"), DONE)
    for bad in (["straight"] * 3, ["straight"] * 5, ["in", "straight", "straight", "straight"]):
        with pytest.raises(IllegalAction) as err:
            play(state, {"type": "move", "path": bad})
        assert err.value.rule == "CR-16"
    state, events = play(state, {"type": "move", "path": ["straight", "out", "straight", "straight"]})
    assert chariot(state, "green")["space"] == "L1-06"  # L0-03, then out to L1-04 (front 5 > 4), L1-05, L1-06


def test_cr17_passing_a_curve_space_too_fast_costs_the_excess():
    state, _ = begin(position(car("green", "L1-08", speed=7)))  # 3 dice at speed 7
    state, events = play(state, *keep("fortune", "fortune", "fortune"))
    assert of_type(events, "curve_damage") == [{"type": "curve_damage", "chariot": "green", "space": "L1-13",
                                                "speed": 7, "max_speed": 5, "damage": 2, "left": 10}]
    assert chariot(state, "green")["space"] == "L1-15"


def test_cr18_ramming_on_the_way_hurts_both_and_the_mover_goes_on():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-04"), order=["green", "red"]))
    state, events = play(state, *keep(*QUIET4))
    assert of_type(events, "rammed")[0] == {"type": "rammed", "chariot": "green", "target": "red",
                                                   "space": "L1-04", "damage": 2, "target_damage": 2, "left": 10,
                                                   "target_left": 10}
    assert chariot(state, "green")["space"] == "L1-06" and chariot(state, "red")["space"] == "L1-04"


def test_cr18_ramming_on_the_last_step_places_the_mover_behind_without_a_second_ram():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-06"), car("blue", "L1-05", damage=7),
                              order=["green", "red", "blue"]))
    state, events = play(state, *keep(*QUIET4))  # green rams blue at L1-05, then red at L1-06 on the last step
    assert [(e["target"], e["space"]) for e in of_type(events, "rammed")] == [("blue", "L1-05"), ("red", "L1-06")]
    assert of_type(events, "placed_behind") == [{"type": "placed_behind", "chariot": "green", "space": "L1-04",
                                                 "behind": "red"}]
    assert [chariot(state, c)["damage"] for c in ("green", "red", "blue")] == [8, 10, 5]


def test_cr18_move_options_show_the_place_behind_and_the_cost():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-05"), order=["green", "red"]))
    state, _ = play(state, roll("steer", "drive", "fortune", "fortune"), DONE, {"type": "drive", "signs": [-1]})
    straight = next(o for o in options(state) if o["path"] == ["straight"] * 3)
    effects = straight.pop("effects")
    assert straight == {"type": "move", "path": ["straight"] * 3, "to": "L1-04", "damage": 2, "wrecked": False}
    assert [(e["type"], e["space"]) for e in effects] == [("rammed", "L1-05"), ("placed_behind", "L1-04")]


def test_cr19_a_caltrop_costs_1_damage_and_returns_to_the_supply():
    state, _ = begin(position(car("green", "L1-02"), caltrops=["L1-04"]))
    state, events = play(state, *keep(*QUIET4))
    assert of_type(events, "caltrop_hit") == [{"type": "caltrop_hit", "chariot": "green", "space": "L1-04",
                                               "damage": 1, "left": 11}]
    assert GAME.view(state)["caltrops"] == [] and GAME.view(state)["caltrop_supply"] == CALTROP_SUPPLY


def test_cr19_order_on_entering_is_curve_then_ram_then_caltrop():
    state, _ = begin(position(car("green", "L1-10", speed=7), car("red", "L1-13"), caltrops=["L1-13"],
                              order=["green", "red"]))
    state, events = play(state, *keep("fortune", "fortune", "fortune"))
    assert [e["type"] for e in events if e.get("space") == "L1-13"] == ["curve_damage", "rammed", "caltrop_hit"]
    assert chariot(state, "green")["damage"] == 12 - 2 - 2 - 1


def test_cr20_rocks_wreck_at_once():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-20"), board="B", order=["green", "red"]))
    state, events = play(state, *keep(*QUIET4))
    assert [e["type"] for e in events][2:5] == ["rocks", "wrecked", "moved"]
    assert of_type(events, "moved")[0]["path"] == ["straight"] * 3
    assert chariot(state, "green")["wrecked"] and GAME.view(state)["caltrops"] == ["L1-05"]


def test_cr21_caltrops_only_on_passed_spaces_one_per_space():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L0-20"), caltrops=["L1-04"],
                              order=["green", "red"]))
    state, _ = play(state, *keep("attack", "attack", "fortune", "fortune"))  # to L1-06, passing L1-03..L1-05
    assert [o["space"] for o in options(state, "caltrop")] == ["L1-03", "L1-04", "L1-05"]
    for space in ("L1-02", "L1-06", "L1-07"):
        with pytest.raises(IllegalAction) as err:
            play(state, {"type": "caltrop", "space": space})
        assert err.value.rule == "CR-21"
    state, events = play(state, {"type": "caltrop", "space": "L1-03"})
    assert "L1-03" not in [o["space"] for o in options(state, "caltrop")]


def test_cr21_spear_reaches_two_steps_in_any_direction():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-08"), car("yellow", "L1-09"),
                              car("blue", "L0-06"), car("black", "L2-04"), car("white", "L2-03"),
                              order=["green", "red", "yellow", "blue", "black", "white"]))
    state, _ = play(state, *keep("attack", "fortune", "fortune", "fortune"))  # to L1-06
    assert sorted(o["target"] for o in options(state, "spear")) == ["black", "blue", "red"]
    state, events = play(state, {"type": "spear", "target": "red"})
    assert events[0] == {"type": "spear", "chariot": "green", "target": "red", "damage": 1, "left": 11}
    with pytest.raises(IllegalAction):
        play(state, {"type": "spear", "target": "yellow"})


def test_cr22_a_chariot_wrecked_on_its_move_stops_and_leaves_a_caltrop():
    state, _ = begin(position(car("green", "L1-02", damage=3, speed=3), car("red", "L0-20"), caltrops=["L1-04"],
                              order=["green", "red"]))
    state, events = play(state, *keep("gallop", "gallop", "fortune", "fortune", "fortune"))  # speed 7, damage 1
    moved = of_type(events, "moved")[0]
    assert (moved["path"], moved["to"]) == (["straight"] * 2, None)
    assert GAME.view(state)["caltrops"] == ["L1-04"] and GAME.prompt(state).actor == "red"


def test_cr22_a_rammed_wreck_leaves_its_caltrop_after_the_rammer_is_placed():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-06", damage=2), order=["green", "red"]))
    state, events = play(state, *keep(*QUIET4))
    assert [e["type"] for e in events][2:5] == ["rammed", "placed_behind", "wrecked"]
    assert chariot(state, "green")["space"] == "L1-05" and GAME.view(state)["caltrops"] == ["L1-06"]


# ---------------------------------------------------------------------------------------------- laps and the end


def test_cr23_crossing_the_finish_line_completes_a_lap():
    state, _ = begin(position(car("green", "L1-31"), car("red", "L0-20"), order=["green", "red"]))
    state, events = play(state, *keep(*QUIET4))
    assert of_type(events, "lap") == [{"type": "lap", "chariot": "green", "laps": 1}]
    assert chariot(state, "green")["laps"] == 1 and chariot(state, "green")["space"] == "L1-01"


def test_cr23_a_lane_change_over_the_line_counts_too():
    state, _ = begin(position(car("green", "L2-38"), car("red", "L0-20"), order=["green", "red"]))
    state, _ = play(state, roll("steer", "fortune", "fortune", "fortune"), DONE)
    state, events = play(state, {"type": "move", "path": ["straight", "in", "straight", "straight"]})
    assert chariot(state, "green")["space"] == "L1-02" and chariot(state, "green")["laps"] == 1


def test_cr24_the_game_ends_at_the_end_of_the_round_of_the_second_lap():
    state, _ = begin(position(car("green", "L1-31", laps=1), car("red", "L1-08", laps=1), order=["green", "red"]))
    state, events = play(state, *keep(*QUIET4))
    assert of_type(events, "finished") and not GAME.is_over(state) and GAME.prompt(state).actor == "red"
    state, events = play(state, *keep(*QUIET4))
    assert events[-1] == {"type": "game_over", "winner": "green", "round": 1} and GAME.is_over(state)


def test_cr24_the_finisher_furthest_beyond_the_line_wins():
    state, _ = begin(position(car("green", "L1-31", laps=1), car("red", "L0-27", laps=1, speed=6),
                              order=["green", "red"]))
    state, _ = play(state, *keep(*QUIET4), *keep(*QUIET4))
    assert GAME.view(state)["winner"] == "red"


def test_cr24_all_wrecked_means_no_winner():
    state, _ = begin(position(car("green", "L1-02", damage=1, speed=1), car("red", "L1-20", damage=1, speed=1),
                              order=["green", "red"]))
    state, events = play(state, *keep("gallop", *QUIET4), *keep("gallop", *QUIET4))
    assert events[-1] == {"type": "game_over", "winner": None, "round": 1}


def test_cr24_a_lone_survivor_must_still_finish():
    state, _ = begin(position(car("green", "L1-02", damage=1, speed=1), car("red", "L1-20"), order=["green", "red"]))
    state, _ = play(state, *keep("gallop", *QUIET4), *keep(*QUIET4))
    assert not GAME.is_over(state) and GAME.view(state)["round"] == 2 and GAME.prompt(state).actor == "red"


def test_cr25_finished_chariots_can_still_be_rammed_and_speared():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-04", laps=2), order=["green"]))
    state, events = play(state, *keep("attack", "fortune", "fortune", "fortune"))
    assert of_type(events, "rammed")[0]["target_damage"] == 2
    assert [o["target"] for o in options(state, "spear")] == ["red"]


def test_cr25_variant_no_damage_after_the_finish_line():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-04", laps=2), order=["green"],
                              variants={"no_damage_after_finish": True}))
    state, events = play(state, *keep("attack", "fortune", "fortune", "fortune"))
    rammed = of_type(events, "rammed")[0]
    assert (rammed["damage"], rammed["target_damage"]) == (2, 0)
    assert not options(state, "spear")


# ---------------------------------------------------------------------------------------------- rulebook examples


def test_julia_rulebook_example_costs_7_damage_and_wrecks_klaus():
    """Rulebook movement example, on the shipped board A: by the CR-16 lane-change Decision the outer max-7 space
    L2-14 leads in to L1-13, which carries the middle lane's max-5 label."""
    state, _ = begin(position(car("green", "L2-07", damage=11, speed=6), car("red", "L0-10"),
                              car("yellow", "L1-13", damage=2), car("blue", "L1-12", damage=6),
                              order=["green", "red", "yellow", "blue"]))
    state, events = play(state, roll("drive", "drive", "gallop", "steer"), DONE, {"type": "drive", "signs": [1, -1]})
    assert chariot(state, "green")["speed"] == 8 and chariot(state, "green")["damage"] == 10
    move = next(o for o in options(state) if o["path"] == ["straight"] * 7 + ["in"])
    assert {k: v for k, v in move.items() if k != "effects"} == {
        "type": "move", "path": ["straight"] * 7 + ["in"], "to": "L1-11", "damage": 6, "wrecked": False}
    state, events = play(state, move)
    assert move["effects"] == events[:5]
    assert [(e["type"], e.get("space"), e.get("damage")) for e in events[:5]] == [
        ("curve_damage", "L2-14", 1), ("curve_damage", "L1-13", 3), ("rammed", "L1-13", 2),
        ("placed_behind", "L1-11", None), ("wrecked", "L1-13", None)]
    assert of_type(events, "rammed")[0]["target"] == "yellow" and len(of_type(events, "rammed")) == 1
    assert chariot(state, "green")["damage"] == 4  # 11 - 7
    assert chariot(state, "yellow")["wrecked"] and GAME.view(state)["caltrops"] == ["L1-13"]
    assert chariot(state, "blue")["damage"] == 6


def test_ben_rulebook_example_through_setup_options():
    state, events = begin(position(car("blue", "L0-05", damage=6, speed=9)))
    assert GAME.prompt(state).info["dice_count"] == 4 and GAME.prompt(state).info["speed"] == 6


# ---------------------------------------------------------------------------------------------- protocol


def test_apply_does_not_change_the_state_it_was_given():
    state, _ = begin(position(car("green", "L1-02"), car("red", "L1-04"), order=["green", "red"]))
    before = GAME.view(state)
    after, _ = play(state, *keep(*QUIET4))
    assert GAME.view(state) == before and GAME.view(after) != before


def test_move_options_agree_with_what_the_move_does():
    state, _ = begin(position(car("green", "L1-08", damage=5), car("red", "L1-11", damage=2), car("blue", "L0-11"),
                              caltrops=["L2-12", "L1-10"], order=["green", "red", "blue"]))
    state, _ = play(state, roll("steer", "steer", "gallop", "fortune"), DONE)
    found = move_options(state)
    assert len(found) > 10
    for option in found:
        _, events = play(state, option)
        moved = of_type(events, "moved")[0]
        assert (moved["to"], moved["damage"], moved["path"]) == (option["to"], option["damage"], option["path"])
        assert option["effects"] == events[:events.index(moved)]  # the spaces' events, told before the choice
    assert {e["type"] for option in found for e in option["effects"]} >= {"curve_damage", "rammed", "caltrop_hit"}


def test_every_phase_declares_what_comes_next():
    """The flow is data: no handler sets the phase itself (``Phase.next`` is never left to it)."""
    for name, phase in PHASES.items():
        assert phase.handler is None or phase.next is not None, name
        assert callable(phase.next) or phase.next is None or phase.next in PHASES, name

