"""The examples from the seed (SX-n in ../shared/games/automobiles/RULES.md), each a test named by its id, on the
track ``reference_oval`` unless the example says otherwise. Numbers on the printed cards are set by each test that
needs them (``prices``), never taken from the placeholders."""

from __future__ import annotations

import pytest

from companion.games.automobiles import GAME
from companion.games.automobiles.season import placings, season_points, season_winner, sponsor_place
from companion.games.automobiles.state import count
from companion.games.base import IllegalAction
from tests.games.automobiles_positions import act, car, end_turn, events_of, landings, options, player, table, zones

FAR = {"B": "L2-28"}
"""An opponent no example cares about: far behind, in the outer lane."""


def activate(colour: str, **choice: str) -> dict:
    return {"type": "activate", "colour": colour, **choice}


def step(to: str, **more: str) -> dict:
    return {"type": "step", "to": to, **more}


STOP = {"type": "stop"}


def test_sx_1_wear_counts_the_highest_colour_of_the_fields_used_once():
    """AU-43: four light grey fields and one dark grey give 3, not 2+2+2+2+3."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"LG": 4, "DG": 1}})
    state, events = end_turn(state, activate("light_grey"), step("L1-10", **{"from": "L0-09"}),
                             activate("light_grey"), step("L0-12", **{"from": "L1-10"}),
                             activate("light_grey"), step("L0-14", **{"from": "L0-12"}),
                             activate("light_grey"), step("L0-16", **{"from": "L0-14"}),
                             activate("dark_grey"), step("L1-18", **{"from": "L0-16"}))
    assert player(state, "A").segment == "L1-18"
    assert events_of(events, "wear_phase")[0]["owed"] == 3
    assert events_of(events, "gained")[0] == {"type": "gained", "player": "red", "colour": "brown", "n": 3}


@pytest.mark.parametrize(("gear", "gained"), [("W", "light_grey"), ("LG", "dark_grey"), ("DG", "black"),
                                              ("BK", None)])
def test_sx_2_engineer_upgrades_a_discarded_gear_and_black_gains_nothing(gear, gained):
    """AU-63."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"YE": 1, "W": 1}}, discard={"A": {gear: 1}},
                  cards={"yellow": "base_yellow_1"})  # a white left to activate: the table waits
    colour = {"W": "white", "LG": "light_grey", "DG": "dark_grey", "BK": "black"}[gear]
    stock = count(state.stock, colour)
    state, _ = act(state, activate("yellow", gear=colour))
    assert zones(state, "A")["used"] == ({"yellow": 1, gained: 1} if gained else {"yellow": 1})
    assert zones(state, "A")["discard"] == {} and count(state.stock, colour) == stock + 1
    assert state.phase == "action"


def test_sx_3_manager_removes_exactly_as_many_as_it_discarded_the_same_cubes_allowed():
    """AU-64."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"YE": 1, "W": 2, "BR": 1}}, discard={"A": {"PU": 1}},
                  cards={"yellow": "base_yellow_2"})
    state, _ = act(state, activate("yellow"), {"type": "pick", "colour": "white", "from": "active"},
                   {"type": "pick", "colour": "brown", "from": "active"}, STOP)
    assert zones(state, "A")["discard"] == {"purple": 1, "white": 1, "brown": 1}
    assert STOP not in options(state)
    once, _ = act(state, {"type": "pick", "colour": "white", "from": "discard"})
    with pytest.raises(IllegalAction) as refused:
        act(once, STOP)
    assert refused.value.rule == "AU-21"
    state, _ = act(once, {"type": "pick", "colour": "brown", "from": "discard"})
    assert zones(state, "A")["discard"] == {"purple": 1} and state.phase == "action"


def test_sx_4_next_lower_colour_for_up_to_three_fields():
    """AU-68, AU-32: the black cube is discarded, 1 wear, then up to 3 dark grey fields."""
    state = table({"A": "L2-02", **FAR}, active={"A": {"RE": 1, "BK": 1}}, cards={"red": "base_red_2"})
    state, events = act(state, activate("red", gear="black"))
    assert zones(state, "A")["discard"] == {"black": 1} and zones(state, "A")["used"] == {"red": 1, "brown": 1}
    assert landings(state) == {"L2-06"}
    with pytest.raises(IllegalAction) as refused:
        act(state, step("L1-04", **{"from": "L2-02"}))
    assert refused.value.rule == "AU-30"
    state, _ = act(state, step("L2-06", **{"from": "L2-02"}), step("L2-10"))
    assert "L1-14" in landings(state)
    state, events = act(state, step("L1-14"))
    # nothing left to activate: the table goes on to the buy phase by itself, the cube resting on L1-14
    assert events_of(events, "placed")[-1]["segment"] == "L1-14"
    assert events_of(events, "by_itself")[0] == {"type": "by_itself", "player": "red", "phase": "action",
                                                 "action": "to_buy"}


def test_sx_5_discarded_gear_names_the_colour_of_exactly_one_field():
    """AU-69."""
    state = table({"A": "L2-02", **FAR}, active={"A": {"RE": 1}}, discard={"A": {"DG": 1}},
                  cards={"red": "base_red_3"})
    state, _ = act(state, activate("red", gear="dark_grey"))
    assert zones(state, "A")["discard"] == {"dark_grey": 1} and zones(state, "A")["used"] == {"red": 1, "brown": 1}
    assert landings(state) == {"L2-06"} and STOP not in options(state)
    blocked = table({"A": "L0-09", **FAR}, active={"A": {"RE": 1}}, discard={"A": {"DG": 1}},
                    cards={"red": "base_red_3"})
    with pytest.raises(IllegalAction) as refused:
        act(blocked, activate("red", gear="dark_grey"))
    assert refused.value.rule == "AU-69"


def test_sx_6_a_lower_colour_than_the_active_gear_which_stays_active():
    """AU-70."""
    state = table({"A": "L1-10", **FAR}, active={"A": {"RE": 1, "DG": 1}}, cards={"red": "base_red_4"})
    state, _ = act(state, activate("red", gear="dark_grey"))
    assert landings(state) == {"L0-12"}  # F1-12 is dark grey and F2-12 black: not lower
    assert zones(state, "A")["active"] == {"dark_grey": 1}


def test_sx_7_as_many_dark_grey_fields_as_dark_grey_cubes_in_the_discard():
    """AU-75."""
    state = table({"A": "L2-02", **FAR}, active={"A": {"BL": 1}}, discard={"A": {"DG": 3}},
                  cards={"blue": "base_blue_1"})
    state, _ = act(state, activate("blue"))
    assert zones(state, "A")["used"] == {"blue": 1, "brown": 2}
    assert GAME.prompt(state).info["at_most"] == 3
    state, events = act(state, step("L2-06", **{"from": "L2-02"}), step("L2-10"), step("L1-14"))
    assert events_of(events, "placed")[-1]["segment"] == "L1-14"  # then nothing left to activate:
    assert events_of(events, "by_itself")[0]["phase"] == "action"  # on to the buy phase by itself


@pytest.mark.parametrize(("b_blue", "moves"), [(3, True), (4, False)])
def test_sx_8_hybrid_counts_own_blue_cubes_against_each_other_discard(b_blue, moves):
    """AU-76: 1 active + this one + 2 in the discard = 4 > 3 and > 0; with 4 in B's discard it does not move, the
    wear is still gained and the activation is legal (AU-21)."""
    state = table({"A": "L0-09", "B": "L2-28", "C": "L2-24"}, active={"A": {"BL": 2}},
                  discard={"A": {"BL": 2}, "B": {"BL": b_blue}}, cards={"blue": "base_blue_2"})
    state, events = act(state, activate("blue"))
    assert zones(state, "A")["used"] == {"blue": 1, "brown": 1}
    if moves:
        assert state.stage.kind == "move" and state.stage.hi == 2 and state.stage.same_colour
    else:
        assert state.phase == "action" and events_of(events, "no_effect")


def test_sx_9_white_fields_per_colour_in_the_discard():
    """AU-77: W, LG, BL, BR are 4 colours."""
    state = table({"A": "L0-04", **FAR}, active={"A": {"BL": 1}},
                  discard={"A": {"W": 1, "LG": 3, "BL": 1, "BR": 2}}, cards={"blue": "base_blue_3"})
    state, _ = act(state, activate("blue"))
    assert (state.stage.hi, state.stage.colours) == (4, ("white",))


@pytest.mark.parametrize(("cars", "fields"), [({"A": "L0-09", "B": "L0-20", "C": "L0-22", "D": "L0-05"}, 3),
                                              ({"A": "L0-04", "B": "L0-20", "C": "L0-22", "D": "L0-16"}, 5)])
def test_sx_10_gearbox_fields_by_position_and_one_more_for_the_last(cars, fields):
    """AU-80: position 3 gives 3 light grey fields, position 4 of 4 (last) gives 5; 1 wear each time."""
    state = table(cars, active={"A": {"GR": 1}}, cards={"green": "base_green_2"})
    state, _ = act(state, activate("green"))
    assert (state.stage.hi, state.stage.colours) == (fields, ("light_grey",))
    assert zones(state, "A")["used"] == {"green": 1, "brown": 1}


def test_sx_11_turbo_counts_green_cubes_in_every_discard():
    """AU-82: 2 + (2 + 1 + 1 + 0)."""
    state = table({"A": "L0-09", "B": "L2-28", "C": "L2-24", "D": "L2-20"}, active={"A": {"GR": 1}},
                  discard={"A": {"GR": 2}, "B": {"GR": 1}, "C": {"GR": 1}}, cards={"green": "base_green_4"})
    state, _ = act(state, activate("green"))
    assert (state.stage.hi, state.stage.colours) == (6, ("light_grey",))
    assert zones(state, "A")["used"] == {"green": 1, "brown": 2}


def test_sx_12_accelerated_boost_defers_the_other_players_draws_to_their_turn():
    """AU-79, AU-119."""
    state = table({"A": "L0-09", "B": "L2-28", "C": "L2-24"}, active={"A": {"GR": 1}}, bag={"A": {"W": 9},
                  "B": {"YE": 3}, "C": {"YE": 3}}, cards={"green": "base_green_1"}, accelerated=True)
    state, _ = act(state, activate("green"), {"type": "draw", "dice": ["white"]}, STOP)
    assert state.phase == "action" and state.actor == 0
    assert (player(state, "B").deferred_draws, player(state, "C").deferred_draws) == (1, 1)
    state, _ = end_turn(state)
    assert GAME.prompt(state).actor == car("B") and state.phase == "deferred"
    assert {"type": "pit_stop"} not in options(state)  # the deferred draw comes before the choice (AU-17)
    state, _ = act(state, {"type": "draw", "dice": ["yellow"]})
    assert state.phase == "action" and zones(state, "B")["active"] == {"yellow": 1}
    assert {"type": "pit_stop"} in options(state)


def test_sx_13_crew_chief_draws_through_wear_then_clears_the_discard_of_wear():
    """AU-71: the drawn brown stays active."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"PU": 1}}, bag={"A": {"BR": 1, "W": 1}},
                  discard={"A": {"BR": 2, "YE": 1}}, cards={"purple": "base_purple_1"})
    state, _ = act(state, activate("purple"), {"type": "draw", "dice": ["brown"]})
    assert STOP not in options(state)
    state, _ = act(state, {"type": "draw", "dice": ["white"]})
    assert state.phase == "action"
    assert zones(state, "A")["active"] == {"brown": 1, "white": 1} and zones(state, "A")["discard"] == {"yellow": 1}


def test_sx_14_split_start_is_its_own_field_until_the_car_leaves_it():
    """AU-34, AU-49 on ``fixture_split_start``: P1 on SA1, P2 on SE2."""
    state = table({"A": "SA1", "B": "SE2"}, track="fixture_split_start", active={"A": {"W": 1}},
                  bag={"A": {"W": 7}, "B": {"W": 7}})
    assert state.protected == ("SA1",)
    moved, _ = act(state, activate("white"))
    assert landings(moved) == {"SA2"}
    moved, events = end_turn(moved, step("SA2", **{"from": "SA1"}))
    assert player(moved, "A").segment == "SA2" and events_of(events, "crossed")[0]["marker"] == "2"
    assert events_of(events, "wear_phase")[0]["owed"] == 1 and moved.protected == ()
    pit, _ = act(state, {"type": "pit_stop"}, {"type": "draw", "dice": ["white"] * 7})
    assert player(pit, "A").segment == "SA1" and pit.protected == ("SA1",)  # Sog leaves it where it is
    later = table({"A": "SC2", "B": "SE2"}, track="fixture_split_start", active={"B": {"W": 1}}, current="B",
                  protected=())
    later, _ = act(later, activate("white"))
    assert landings(later) == {"SA2"}
    behind = table({"A": "SA2", "B": "SE2"}, track="fixture_split_start", active={"B": {"W": 1}}, current="B",
                   protected=())
    behind, _ = act(behind, activate("white"))
    assert landings(behind) == {"SA1"}


def test_sx_15_removing_active_cubes_doubles_into_the_discard():
    """AU-83."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"YE": 1, "W": 2, "BR": 1}}, discard={"A": {"BR": 8}},
                  cards={"yellow": "rs_yellow_1"})
    pick = {"type": "pick", "from": "active"}
    state, _ = act(state, activate("yellow"), {**pick, "colour": "white"}, {**pick, "colour": "white"},
                   {**pick, "colour": "brown"})
    assert state.stage.src == ("discard",) and state.stage.hi == 6


def test_sx_16_discarded_black_gives_up_to_two_dark_grey_fields():
    """AU-86."""
    state = table({"A": "L2-02", **FAR}, active={"A": {"RE": 1}}, discard={"A": {"BK": 1}},
                  cards={"red": "rs_red_1"})
    state, _ = act(state, activate("red", gear="black"))
    assert (state.stage.hi, state.stage.colours) == (2, ("dark_grey",))
    assert zones(state, "A")["discard"] == {"black": 1} and zones(state, "A")["used"] == {"red": 1, "brown": 1}


def test_sx_17_discarding_an_active_gear_moves_one_field_of_any_colour():
    """AU-87."""
    state = table({"A": "L1-10", **FAR}, active={"A": {"RE": 1, "LG": 1}}, cards={"red": "rs_red_2"})
    state, _ = act(state, activate("red", gear="light_grey"))
    assert zones(state, "A")["discard"] == {"light_grey": 1}
    assert landings(state) == {"L0-12", "L1-14", "L2-14"} and STOP not in options(state)


@pytest.mark.parametrize(("c_discard", "bonus"), [(9, True), (5, False)])
def test_sx_18_two_more_only_with_strictly_the_smallest_discard(c_discard, bonus):
    """AU-89."""
    state = table({"A": "L0-09", "B": "L2-28", "C": "L2-24"}, active={"A": {"PU": 1}},
                  discard={"A": {"W": 5}, "B": {"W": 6}, "C": {"W": c_discard}}, cards={"purple": "rs_purple_1"})
    state, _ = act(state, activate("purple"), STOP)
    assert (state.phase == "effect" and state.stage.hi == 2) is bonus


def test_sx_19_remove_as_many_as_colours_in_the_discard():
    """AU-91."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"PU": 1}},
                  discard={"A": {"YE": 1, "DG": 2, "BL": 3, "GR": 1, "BR": 2}}, cards={"purple": "rs_purple_3"})
    state, _ = act(state, activate("purple"))
    assert state.stage.hi == 5


def test_sx_20_adrenaline_gives_two_light_grey_fields_per_place_gained():
    """AU-92, AU-19, AU-40: position 4 to 2 after the car's move, so up to 4 fields; wear 2."""
    cars = {"A": "L0-05", "B": "L0-09", "C": "L1-10", "D": "L0-04", "E": "L2-18"}
    state = table(cars, active={"A": {"W": 5, "GR": 1, "YE": 1}}, cards={"green": "rs_green_1"},
                  bag={"A": {"W": 7}})
    state, _ = act(state, activate("green", option="b"), activate("white"), step("L0-06", **{"from": "L0-05"}),
                   activate("white"), step("L0-07", **{"from": "L0-06"}),
                   activate("white"), step("L1-08", **{"from": "L0-07"}),
                   activate("white"), step("L0-10", **{"from": "L1-08"}),
                   activate("white"), step("L0-11", **{"from": "L0-10"}), {"type": "to_buy"}, {"type": "done"})
    assert player(state, "A").segment == "L0-11" and GAME.view(state)["players"][0]["position"] == 2
    assert state.phase == "movement" and state.stage.hi == 4 and state.stage.colours == ("light_grey",)
    state, events = act(state, step("L0-12"), step("L0-14"), step("L0-16"), step("L0-18"))
    assert events_of(events, "wear_phase")[0]["owed"] == 2


@pytest.mark.parametrize(("cars", "fields"), [({"A": "L2-02", "B": "L0-20", "C": "L0-22", "D": "L0-16"}, 3),
                                              ({"A": "L0-24", "B": "L0-20", "C": "L0-22", "D": "L0-16"}, 0)])
def test_sx_21_catch_up_moves_only_behind_the_leader(cars, fields):
    """AU-93: last of 4: 3 dark grey fields; first: no movement, 1 wear, still legal."""
    state = table(cars, active={"A": {"GR": 1, "W": 1}}, cards={"green": "rs_green_2"})  # a white to activate yet
    state, events = act(state, activate("green"))
    assert zones(state, "A")["used"] == {"green": 1, "brown": 1}
    if fields:
        assert (state.stage.hi, state.stage.colours) == (3, ("dark_grey",))
    else:
        assert state.phase == "action" and events_of(events, "no_effect")


@pytest.mark.parametrize(("a", "colours"), [("L0-09", ("white", "light_grey")), ("L0-04", ("white", "light_grey",
                                                                                           "dark_grey")),
                                            ("L0-24", ("white",))])
def test_sx_22_overdrive_colours_by_position(a, colours):
    """AU-94: 3 players; second: W or LG, last: also DG, first: W only."""
    state = table({"A": a, "B": "L0-20", "C": "L0-05"}, active={"A": {"GR": 1}}, cards={"green": "rs_green_3"})
    state, _ = act(state, activate("green"))
    assert (state.stage.hi, state.stage.colours) == (3, colours)


def test_sx_23_the_players_behind_move_best_placed_first_each_followed_by_sog():
    """AU-95, AU-49."""
    state = table({"A": "L0-18", "B": "L1-14", "C": "L1-12"}, active={"A": {"BL": 2}}, bag={"A": {"W": 7}},
                  cards={"blue": "rs_blue_1"})
    state, _ = act(state, activate("blue"), STOP, activate("blue"), STOP)
    assert state.turn.advance == 2
    state, _ = end_turn(state)
    assert state.phase == "advance" and GAME.prompt(state).actor == car("B") and state.stage.hi == 2
    state, events = act(state, step("L1-18"), step("L1-20"))
    assert player(state, "B").segment == "L1-20" and player(state, "C").segment == "L1-14"
    assert not events_of(events, "gained")
    assert GAME.prompt(state).actor == car("C")
    state, _ = act(state, STOP)
    assert [state.table.colours[p] for p in placings(state)] == [car("B"), car("A"), car("C")]


def test_sx_24_double_gears_reach_white_as_black_but_not_red_moves():
    """AU-96, AU-88."""
    state = table({"A": "L2-10", **FAR}, active={"A": {"BL": 2, "RE": 1, "W": 2}},
                  cards={"blue": "rs_blue_2", "red": "rs_red_3"})  # a white left after all: the table waits
    state, events = act(state, activate("blue"), activate("red"), activate("white", **{"as": "black"}))
    assert state.stage.hi == 2
    twice, _ = act(state, step("L2-14", **{"from": "L2-10"}), STOP, activate("blue"))
    assert zones(twice, "A")["used"]["brown"] == 2 + 1 + 2 and twice.turn.double_gears  # Rote Linie's 1 between
    red = table({"A": "L2-02", **FAR}, active={"A": {"BL": 1, "RE": 1}}, discard={"A": {"BK": 1}},
                cards={"blue": "rs_blue_2", "red": "rs_red_1"})
    red, _ = act(red, activate("blue"), activate("red", gear="black"))
    assert red.stage.hi == 2


def test_sx_25_pit_crew_removes_the_wear_already_used_not_later_wear():
    """AU-90."""
    state = table({"A": "L2-02", **FAR}, active={"A": {"PU": 1, "BL": 1}}, used={"A": {"BR": 2}},
                  cards={"purple": "rs_purple_2", "blue": "base_blue_1"})
    state, _ = act(state, activate("purple"))  # an empty discard: nothing to choose
    assert zones(state, "A")["used"] == {"purple": 1}
    state, _ = act(state, activate("blue"))
    assert zones(state, "A")["used"] == {"purple": 1, "blue": 1, "brown": 2}


@pytest.mark.parametrize(("b", "moves"), [("L0-20", 3), ("L2-08", 0)])
def test_sx_26_driver_01_turns_wear_gained_into_light_grey_fields(b, moves):
    """AU-101: 3 wear: up to 3 light grey fields without more wear; in slipstream nothing."""
    state = table({"A": "L2-02", "B": b}, active={"A": {"DG": 1}}, bag={"A": {"W": 7}}, drivers={"A": "driver_01"})
    state, _ = act(state, activate("dark_grey"), step("L2-06", **{"from": "L2-02"}), {"type": "to_buy"},
                   {"type": "done"})
    if moves:
        assert state.phase == "wear" and (state.stage.hi, state.stage.colours) == (3, ("light_grey",))
        state, events = act(state, step("L1-08"))
        assert zones(state, "A")["used"] == {"dark_grey": 1, "brown": 3}
    else:
        assert state.phase == "end" and state.stage.kind == "draw"


@pytest.mark.parametrize(("b", "sizes"), [("L0-20", [7, 8, 9, 10]), ("L2-08", [7])])
def test_sx_27_driver_07_draws_up_to_the_wear_gained_more(b, sizes):
    """AU-107."""
    state = table({"A": "L2-02", "B": b}, active={"A": {"DG": 1}}, bag={"A": {"W": 12}}, drivers={"A": "driver_07"})
    state, _ = act(state, activate("dark_grey"), step("L2-06", **{"from": "L2-02"}), {"type": "to_buy"},
                   {"type": "done"})
    assert [o["roll"] for o in options(state)] == sizes


def test_sx_28_driver_10_puts_drawn_cubes_back_and_draws_as_many_again_once():
    """AU-110."""
    state = table({"A": "L0-09", **FAR}, bag={"A": {"W": 7, "BK": 4}}, drivers={"A": "driver_10"})
    state, _ = act(state, {"type": "to_buy"}, {"type": "done"}, {"type": "draw", "dice": ["white"] * 7})
    pick = {"type": "pick", "colour": "white", "from": "active"}
    state, _ = act(state, pick, pick, pick, pick, STOP)
    assert options(state) == [{"type": "draw", "roll": 4}]
    state, _ = act(state, {"type": "draw", "dice": ["black"] * 4})
    assert GAME.prompt(state).actor == car("B")
    assert zones(state, "A")["active"] == {"white": 3, "black": 4}


def test_sx_29_sponsor_e_removes_four_wear_per_other_cube_removed():
    """AU-112, AU-113, AU-114 (E1 at first place): 2 W and 1 BR removed, then up to 2 × 4 = 8 BR."""
    state = table({"A": "L1-30", "B": "L0-20"}, markers={"A": "Final"}, active={"A": {"LG": 1}},
                  bag={"A": {"W": 7}, "B": {"W": 7}}, discard={"A": {"W": 2, "BR": 9}},
                  season=["reference_oval"] * 3)
    state = state._replace(offered=("sponsor_E1", "sponsor_A1"))
    state, _ = act(state, activate("light_grey"), step("L0-00", **{"from": "L1-30"}))
    state, _ = end_turn(state)
    state, events = end_turn(state)
    assert state.phase == "sponsor" and GAME.prompt(state).actor == car("A")
    assert {o["sponsor"] for o in options(state)} == {"sponsor_E1", "sponsor_A1"}
    pick = {"type": "pick", "from": "discard"}
    state, events = act(state, {"type": "sponsor", "sponsor": "sponsor_E1"}, {**pick, "colour": "white"},
                        {**pick, "colour": "white"}, {**pick, "colour": "brown"})
    assert events_of(events, "sponsor_taken") and state.stage.hi == 8 and state.stage.only == ("brown",)
    state, _ = act(state, *[{**pick, "colour": "brown"}] * 8)
    assert GAME.prompt(state).actor == car("B") and options(state) == [{"type": "sponsor", "sponsor": "sponsor_A1"}]


def test_sx_30_sponsor_f_at_a_middle_place_removes_three_for_six_dollars():
    """AU-114 (F2, 4 players, third place is a middle place): up to 3 more cubes removed, $2 each to spend."""
    cars = {"A": "L0-16", "B": "L0-20", "C": "L0-10", "D": "L1-30"}
    bag = {x: {"W": 7} for x in "ABCD"}
    state = table(cars, markers={"D": "Final"}, active={"D": {"LG": 1}}, bag=bag, discard={"A": {"BR": 6}},
                  current="D", season=["reference_oval"] * 3)
    state = state._replace(offered=("sponsor_A1", "sponsor_B1", "sponsor_F2", "sponsor_C1"))
    state, _ = act(state, activate("light_grey"), step("L0-00", **{"from": "L1-30"}))
    state, _ = end_turn(state)
    assert [state.table.colours[p] for p in state.placings] == [car(x) for x in "DBAC"]
    state, _ = act(state, {"type": "sponsor", "sponsor": "sponsor_A1"}, STOP, STOP,
                   {"type": "sponsor", "sponsor": "sponsor_B1"}, STOP, STOP,
                   {"type": "sponsor", "sponsor": "sponsor_F2"})
    assert sponsor_place(state, 0) == "middle" and state.stage.hi == 6
    pick = {"type": "pick", "colour": "brown", "from": "discard"}
    state, _ = act(state, STOP, pick, pick, pick)
    assert state.stage.kind == "buy" and state.stage.budget == 6


def test_sx_31_season_points_and_the_tie_goes_to_the_better_last_placing():
    """AU-115, AU-117."""
    races = [[0, 1, 2], [1, 2, 0], [0, 2, 1]]
    points = [0, 0, 0]
    for race, order in enumerate(races, start=1):
        for place, p in enumerate(order, start=1):
            points[p] += season_points(place, 3, race)
    assert points == [12, 10, 8]
    assert [season_points(1, 2, 1), season_points(2, 2, 1)] == [4, 3]
    assert season_winner([12, 12], [0, 1]) == 0 and season_winner([12, 12], [1, 0]) == 1


def test_sx_32_a_pit_stop_returns_every_active_wear_cube():
    """AU-54."""
    state = table({"A": "L0-09", **FAR}, active={"A": {"BR": 3, "W": 4}}, bag={"A": {"W": 7}})
    with pytest.raises(IllegalAction) as refused:
        act(state, {"type": "pit_stop", "wear": 2})
    assert refused.value.rule == "AU-54"
    brown = count(state.stock, "brown")
    state, events = act(state, {"type": "pit_stop"})
    assert count(state.stock, "brown") == brown + 3 and events_of(events, "pit_stop")[0]["wear"] == 3
