"""The spec's own scenarios for the tricky rules (OX-n in ../shared/games/automobiles/RULES.md), each a test named by
its id, on ``reference_oval``. "Nobody near" puts the other car far behind in the outer lane."""

from __future__ import annotations

import random

import pytest

from companion.games.automobiles import GAME
from companion.games.automobiles.state import count, ranking
from companion.games.base import IllegalAction
from tests.games.automobiles_positions import (
    act,
    car,
    end_turn,
    events_of,
    landings,
    options,
    player,
    table,
    zones,
)

FAR = {"B": "L2-28"}
STOP = {"type": "stop"}
BUY = ({"type": "to_buy"}, {"type": "done"})


def activate(colour: str, **choice: str) -> dict:
    return {"type": "activate", "colour": colour, **choice}


def step(to: str, source: str | None = None) -> dict:
    return {"type": "step", "to": to, **({"from": source} if source else {})}


def refused(state, action) -> str:
    with pytest.raises(IllegalAction) as error:
        act(state, action)
    return error.value.rule


def wear_owed(events) -> int:
    return events_of(events, "wear_phase")[0]["owed"]


def test_ox_1_a_gear_chain_goes_on_from_the_cube_placed_before():
    """AU-26, AU-31, AU-38, AU-43."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 2}}, bag={"A": {"W": 7}})
    state, _ = act(state, activate("white"))
    assert landings(state) == {"L0-06"}
    state, _ = act(state, step("L0-06", "L0-05"), activate("white"))
    assert [o for o in options(state) if o["type"] == "step"] == [step("L0-07", "L0-06")]
    state, events = end_turn(state, step("L0-07", "L0-06"))
    assert player(state, "A").segment == "L0-07" and wear_owed(events) == 1


def test_ox_2_a_car_blocks_and_a_field_of_another_colour_cannot_be_entered():
    """AU-28, AU-30: passing B diagonally."""
    state = table({"A": "L0-05", "B": "L0-06"}, active={"A": {"W": 1, "LG": 1}}, bag={"A": {"W": 7}})
    assert refused(state, activate("white")) == "AU-28"
    state, _ = act(state, activate("light_grey"), step("L1-06", "L0-05"), activate("white"))
    assert landings(state) == {"L0-08", "L1-08"}
    state, events = end_turn(state, step("L0-08", "L1-06"))
    assert player(state, "A").segment == "L0-08" and wear_owed(events) == 2
    assert ranking(state)[0] == 0


@pytest.mark.parametrize("gear", ["light_grey", "white"])
def test_ox_3_a_multicolour_field_takes_either_colour_and_wears_as_its_highest(gear):
    """AU-30, AU-43."""
    state = table({"A": "L0-07", **FAR}, active={"A": {gear: 1}}, bag={"A": {"W": 7}})
    state, _ = act(state, activate(gear))
    assert landings(state) == ({"L1-08"} if gear == "light_grey" else {"L0-08", "L1-08"})
    _, events = end_turn(state, step("L1-08", "L0-07"))
    assert wear_owed(events) == 2


def test_ox_4_slipstream_behind_a_car_gives_no_wear():
    """AU-44."""
    state = table({"A": "L0-04", "B": "L0-07"}, active={"A": {"W": 2}}, bag={"A": {"W": 7}})
    state, events = end_turn(state, activate("white"), step("L0-05", "L0-04"), activate("white"),
                             step("L0-06", "L0-05"))
    assert player(state, "A").segment == "L0-06" and wear_owed(events) == 0
    assert events_of(events, "wear_phase")[0]["slipstream"]


def test_ox_5_slipstream_inside_a_two_segment_field_despite_black():
    """AU-29, AU-44: the cube cannot slide past B and rests on the rear segment."""
    state = table({"A": "L2-10", "B": "L2-14"}, active={"A": {"BK": 1}}, bag={"A": {"W": 7}})
    state, _ = act(state, activate("black"))
    assert landings(state) == {"L2-12"}
    state, events = end_turn(state, step("L2-12", "L2-10"))
    assert player(state, "A").segment == "L2-12" and wear_owed(events) == 0


def test_ox_6_weaving_lets_a_cube_stop_early_and_find_slipstream():
    """AU-29, AU-27, AU-118, AU-44 (and AU-26 ``SOURCE_SLIDE``)."""
    cars, active, bag = {"A": "L1-10", "B": "L0-16"}, {"A": {"DG": 1, "LG": 1}}, {"A": {"W": 7}}
    base = table(cars, active=active, bag=bag)
    state, _ = act(base, activate("dark_grey"))
    assert landings(state) == {"L1-14"}
    state, _ = act(state, step("L1-14", "L1-10"), activate("light_grey"))
    assert landings(state) == {"L0-12"}
    state, events = end_turn(state, step("L0-12", "L1-10"))
    assert player(state, "A").segment == "L1-14" and wear_owed(events) == 3
    weave = table(cars, active=active, bag=bag, weaving=True)
    state, _ = act(weave, activate("dark_grey"))
    assert landings(state) == {"L1-12", "L1-14"}
    state, _ = act(state, step("L1-12", "L1-10"), activate("light_grey"))
    assert "L0-14" in landings(state)
    state, events = end_turn(state, step("L0-14", "L1-12"))
    assert player(state, "A").segment == "L0-14" and wear_owed(events) == 0


def test_ox_7_only_the_highest_colour_counts_for_wear():
    """AU-43: W, LG and DG fields: 3, not 6."""
    state = table({"A": "L0-02", **FAR}, active={"A": {"W": 1, "LG": 1, "DG": 1}}, bag={"A": {"W": 7}})
    state, events = end_turn(state, activate("white"), step("L0-04", "L0-02"), activate("light_grey"),
                             step("L1-04", "L0-02"), activate("dark_grey"), step("L2-06", "L1-04"))
    assert player(state, "A").segment == "L2-06" and wear_owed(events) == 3


def test_ox_8_no_cube_on_the_track_no_car_move_no_wear():
    """AU-39, AU-46: the action-phase wear is still swept to the discard."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"BL": 1}}, discard={"A": {"W": 2}}, bag={"A": {"W": 9}},
                  cards={"blue": "base_blue_4"})
    state, _ = act(state, activate("blue"), {"type": "pick", "colour": "white", "from": "discard"},
                   {"type": "pick", "colour": "white", "from": "discard"})
    assert zones(state, "A")["used"] == {"blue": 1, "brown": 1} and zones(state, "A")["active"] == {"white": 2}
    state, events = end_turn(state)
    assert wear_owed(events) == 0 and player(state, "A").segment == "L0-05"
    assert count(player(state, "A").discard, "brown") == 1


def test_ox_9_money_is_the_value_of_the_cubes_still_active_and_is_lost_when_unspent():
    """AU-35, AU-36, AU-37."""
    prices = {"W": (2, 1), "YE": (3, 1), "PU": (5, 1), "LG": (4, 1), "DG": (6, 2), "BK": (8, 2), "RE": (4, 1),
              "BL": (6, 1), "GR": (6, 1)}
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 2, "YE": 1, "BR": 1}}, bag={"A": {"YE": 7}},
                  prices=prices)
    state, _ = act(state, {"type": "to_buy"})
    assert GAME.prompt(state).info["money"] == 3
    assert {o["colour"] for o in options(state) if o["type"] == "buy"} == {"white", "yellow"}
    assert refused(state, {"type": "buy", "colour": "purple"}) == "AU-36"
    assert refused(state, {"type": "buy", "colour": "brown"}) == "AU-36"
    state, events = act(state, {"type": "buy", "colour": "white"})
    assert events_of(events, "bought") == [{"type": "bought", "player": "red", "colour": "white", "cost": 2}]
    # $1 left buys nothing: the table says "Done" by itself and the dollar is lost
    assert events_of(events, "by_itself") == [{"type": "by_itself", "player": "red", "phase": "buy",
                                               "action": "done"}]
    assert events_of(events, "unspent")[0]["lost"] == 1
    assert zones(state, "A")["discard"] == {"white": 3, "yellow": 1, "brown": 1} and zones(state, "A")["bag"] \
        == {"yellow": 7}


def test_ox_10_an_empty_colour_in_the_stock_cannot_be_bought_or_gained():
    """AU-36, AU-23."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 2, "BK": 3, "DG": 6}}, discard={"A": {"DG": 1, "BK": 1}},
                  stock={"BK": 0}, prices={"BK": (8, 2), "DG": (6, 2), "YE": (3, 2)}, cards={"yellow": "base_yellow_1"})
    assert activate("yellow", gear="dark_grey") not in options(state)
    assert refused(state, activate("yellow", gear="dark_grey")) == "AU-63"
    assert activate("yellow", gear="black") in options(state)
    bought, _ = act(state, {"type": "to_buy"})
    assert GAME.prompt(bought).info["money"] >= 20
    assert refused(bought, {"type": "buy", "colour": "black"}) == "AU-36"


def test_ox_11_a_bag_that_runs_out_is_refilled_from_the_discard_and_the_draw_is_checked():
    """AU-50, AU-52."""
    state = table({"A": "L0-05", **FAR}, bag={"A": {"W": 2, "YE": 1}},
                  discard={"A": {"LG": 2, "PU": 1, "BR": 3, "W": 2, "BL": 1}})
    state, _ = act(state, *BUY)
    assert options(state) == [{"type": "draw", "roll": 7}]
    with pytest.raises(IllegalAction) as error:
        act(state, {"type": "draw", "dice": ["yellow", "yellow", "white", "white", "light_grey", "light_grey",
                                             "light_grey"]})
    assert error.value.rule == "AU-52"
    state, events = act(state, {"type": "draw", "dice": ["white"] * 3 + ["yellow", "brown", "brown", "blue"]})
    assert events_of(events, "refilled")
    assert zones(state, "A")["active"] == {"white": 3, "yellow": 1, "brown": 2, "blue": 1}
    assert zones(state, "A")["bag"] == {"light_grey": 2, "purple": 1, "brown": 1, "white": 1}
    assert zones(state, "A")["discard"] == {}


def test_ox_12_a_bag_emptied_by_the_last_draw_stays_empty_until_the_next_draw():
    """AU-50."""
    state = table({"A": "L0-05", **FAR}, bag={"A": {"W": 7}}, discard={"A": {"YE": 10}})
    state, _ = act(state, *BUY, {"type": "draw", "dice": ["white"] * 7})
    assert zones(state, "A")["bag"] == {} and zones(state, "A")["discard"] == {"yellow": 10}
    boost = table({"A": "L0-05", **FAR}, active={"A": {"GR": 1}}, discard={"A": {"YE": 10}},
                  cards={"green": "base_green_1"})
    boost, events = act(boost, activate("green"), {"type": "draw", "dice": ["yellow"]})
    assert events_of(events, "refilled") and zones(boost, "A")["bag"] == {"yellow": 9}


def test_ox_13_too_few_cubes_draws_what_there_is_but_an_exact_draw_is_illegal():
    """AU-51."""
    state = table({"A": "L0-05", **FAR}, bag={"A": {"W": 2}}, discard={"A": {"YE": 3}})
    state, _ = act(state, *BUY)
    assert options(state) == [{"type": "draw", "roll": 5}]
    nitro = table({"A": "L0-05", **FAR}, active={"A": {"GR": 1}}, discard={"A": {"YE": 1}},
                  cards={"green": "base_green_3"})
    assert refused(nitro, activate("green")) == "AU-81"


def test_ox_14_a_pit_stop_returns_wear_and_goes_to_the_end_phase():
    """AU-54: no buy, movement or wear phase; the marker stays; Sog follows."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"BR": 4, "W": 2, "YE": 1}}, bag={"A": {"W": 7}})
    brown = count(state.stock, "brown")
    state, events = act(state, {"type": "pit_stop"})
    assert count(state.stock, "brown") == brown + 4
    assert zones(state, "A")["discard"] == {"white": 2, "yellow": 1} and state.phase == "end"
    state, events = act(state, {"type": "draw", "dice": ["white"] * 7})
    assert not events_of(events, "wear_phase") and player(state, "A").marker == state.table.lap_start
    assert GAME.prompt(state).actor == car("B")


def test_ox_15_a_started_standard_turn_cannot_become_a_pit_stop():
    """AU-17."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 1, "BR": 1}})
    state, _ = act(state, activate("white"))
    state, _ = act(state, step("L0-06", "L0-05"))
    assert {"type": "pit_stop"} not in options(state)
    assert refused(state, {"type": "pit_stop"}) == "AU-17"


def test_ox_16_the_first_move_from_the_grid_crosses_the_line():
    """AU-33, AU-41, AU-56."""
    state = table({"A": "L0-30", "B": "L1-30"}, active={"A": {"LG": 1}}, bag={"A": {"W": 7}})
    state, events = end_turn(state, activate("light_grey"), step("L0-00", "L0-30"))
    assert player(state, "A").segment == "L0-00" and events_of(events, "crossed")[0]["marker"] == "2"
    assert wear_owed(events) == 2


def test_ox_17_the_round_is_played_out_and_the_inner_lane_wins_a_tie():
    """AU-57, AU-58."""
    state = table({"A": "L0-12", "B": "L1-30", "C": "L0-30"}, markers={"A": "1", "B": "Final", "C": "Final"},
                  bag={"A": {"W": 7}, "B": {"W": 7}, "C": {"W": 7}}, active={"B": {"DG": 1}, "C": {"LG": 2}})
    state, _ = end_turn(state)
    state, events = end_turn(state, activate("dark_grey"), step("L1-02", "L1-30"))
    assert events_of(events, "finished") and not GAME.is_over(state)
    state, events = end_turn(state, activate("light_grey"), step("L0-00", "L0-30"), activate("light_grey"),
                             step("L0-02", "L0-00"))
    assert GAME.is_over(state) and events_of(events, "race_over")
    view = GAME.view(state)
    assert view["winners"] == [car("C")] and view["placings"][:2] == [car("C"), car("B")]
    assert [p["distance"] for p in view["players"][1:]] == [132, 132]


def test_ox_18_laps_count_before_the_segment():
    """AU-19."""
    state = table({"A": "L0-02", "B": "L2-30", "C": "L2-02"}, crossings={"A": 2, "B": 1, "C": 2})
    assert ranking(state) == [0, 2, 1]


def test_ox_19_all_or_nothing_with_an_empty_stock():
    """AU-21, AU-23, AU-63."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1, "W": 1}}, discard={"A": {"W": 1, "DG": 1}},
                  stock={"LG": 0, "BK": 3}, cards={"yellow": "base_yellow_1"})  # a white to activate: it waits
    assert refused(state, activate("yellow", gear="white")) == "AU-63"
    state, _ = act(state, activate("yellow", gear="dark_grey"))
    assert zones(state, "A")["used"] == {"yellow": 1, "black": 1} and count(state.stock, "black") == 2


def test_ox_20_wear_takes_what_the_stock_has_and_the_effect_goes_on():
    """AU-22, AU-45."""
    state = table({"A": "L2-02", **FAR}, active={"A": {"BL": 1}}, discard={"A": {"DG": 2}}, stock={"BR": 1},
                  bag={"A": {"W": 7}}, cards={"blue": "base_blue_1"})
    state, _ = act(state, activate("blue"))
    assert count(state.stock, "brown") == 0 and state.stage.hi == 2
    state, events = end_turn(state, step("L2-06", "L2-02"), STOP)
    assert wear_owed(events) == 3 and count(player(state, "A").discard, "brown") == 1


def test_ox_21_sog_pulls_the_car_behind_to_the_front_of_its_field():
    """AU-49."""
    state = table({"A": "L2-14", "B": "L2-12"}, active={"A": {"BK": 1}}, bag={"A": {"W": 7}})
    state, events = end_turn(state, activate("black"), step("L2-18", "L2-14"))
    assert wear_owed(events) == 4 and player(state, "B").segment == "L2-14" and events_of(events, "sog")


def test_ox_22_a_side_branch_from_the_car_and_the_car_goes_to_the_furthest():
    """AU-38, AU-42, AU-31."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 2, "LG": 1}}, bag={"A": {"W": 7}})
    state, _ = act(state, activate("white"), step("L0-06", "L0-05"), activate("light_grey"))
    assert landings(state) == {"L1-06"}
    state, _ = act(state, step("L1-06", "L0-05"))
    second, _ = act(state, activate("white"))
    assert step("L0-06", "L0-05") not in options(second)
    assert refused(second, step("L0-06", "L0-05")) == "AU-31"
    state, events = end_turn(state)
    assert player(state, "A").segment == "L1-06" and wear_owed(events) == 2


def test_ox_23_the_last_of_two_is_position_two():
    """AU-80, AU-15."""
    for a, fields in (("L0-24", 1), ("L2-02", 3)):
        state = table({"A": a, "B": "L0-20"}, active={"A": {"GR": 1}}, cards={"green": "base_green_2"})
        state, _ = act(state, activate("green"))
        assert state.stage.hi == fields


def test_ox_24_boost_lets_every_other_player_draw_one_at_once():
    """AU-79, AU-50: B's bag is empty, so B's discard goes into it first."""
    state = table({"A": "L0-05", "B": "L2-28", "C": "L2-24"}, active={"A": {"GR": 1}},
                  bag={"A": {"W": 5}, "C": {"W": 3}}, discard={"B": {"YE": 2}}, cards={"green": "base_green_1"})
    state, _ = act(state, activate("green"), {"type": "draw", "dice": ["white"]}, {"type": "draw", "dice": ["white"]},
                   STOP)
    assert zones(state, "A")["used"] == {"green": 1, "brown": 2}
    assert state.phase == "boost" and GAME.prompt(state).actor == car("B")
    state, events = act(state, {"type": "draw", "dice": ["yellow"]})
    assert events_of(events, "refilled") and zones(state, "B")["active"] == {"yellow": 1}
    assert GAME.prompt(state).actor == car("C")
    state, _ = act(state, {"type": "decline"})
    assert state.phase == "action" and GAME.prompt(state).actor == car("A")
    assert count(player(state, "B").used, "brown") == 0


def test_ox_25_a_red_cube_naming_an_active_gear_leaves_it_active():
    """AU-70, AU-35."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"RE": 1, "DG": 1, "W": 1}}, cards={"red": "base_red_4"})
    assert activate("red", gear="white") not in options(state)
    assert refused(state, activate("red", gear="white")) == "AU-70"
    state, _ = act(state, activate("red", gear="dark_grey"))
    assert landings(state) == {"L0-06", "L1-06"}
    state, _ = act(state, step("L1-06", "L0-05"))
    assert zones(state, "A")["active"] == {"dark_grey": 1, "white": 1}


def test_ox_26_red_line_with_double_gears():
    """AU-88, AU-96: 2 + 1 + 4 = 7 wear, and a white cube before rs_blue_2 moves one field."""
    state = table({"A": "L2-10", **FAR}, active={"A": {"BL": 1, "RE": 1, "W": 2}}, bag={"A": {"W": 7}},
                  cards={"blue": "rs_blue_2", "red": "rs_red_3"})
    early, _ = act(state, activate("red"), activate("white", **{"as": "black"}))
    assert early.stage.hi == 1
    state, _ = act(state, activate("blue"), activate("red"), activate("white", **{"as": "black"}),
                   step("L2-14", "L2-10"), step("L2-18"))
    assert zones(state, "A")["used"]["brown"] == 3
    state, events = end_turn(state)
    assert player(state, "A").segment == "L2-18" and wear_owed(events) == 4
    assert sum(e["n"] for e in events_of(events, "gained")) == 4
    assert count(player(state, "A").discard, "brown") == 7


def test_ox_27_adrenaline_without_a_place_gained_gives_nothing():
    """AU-92."""
    state = table({"A": "L0-05", "B": "L0-20", "C": "L0-22"}, active={"A": {"GR": 1, "W": 1}}, bag={"A": {"W": 7}},
                  cards={"green": "rs_green_1"})
    state, _ = act(state, activate("green", option="b"), activate("white"), step("L0-06", "L0-05"), *BUY)
    assert state.phase == "end"
    assert state.turn.adrenaline == 1 and state.turn.start_rank == 3


def test_ox_28_crew_chief_across_a_refill():
    """AU-71, AU-50."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1}}, bag={"A": {"BR": 1}},
                  discard={"A": {"BR": 2, "W": 1}}, cards={"purple": "base_purple_1"})
    state, events = act(state, activate("purple"), {"type": "draw", "dice": ["brown"]},
                        {"type": "draw", "dice": ["brown"]}, {"type": "draw", "dice": ["white"]})
    assert events_of(events, "refilled") and state.phase == "action"
    assert zones(state, "A")["active"] == {"brown": 2, "white": 1} and zones(state, "A")["bag"] == {"brown": 1}
    assert zones(state, "A")["discard"] == {}


@pytest.mark.parametrize(("driver", "wear"), [("driver_06", 0), (None, 1)])
def test_ox_29_driver_06_moves_into_slipstream(driver, wear):
    """AU-106, AU-44."""
    state = table({"A": "L0-04", "B": "L0-08"}, active={"A": {"W": 2}}, bag={"A": {"W": 7}},
                  drivers={"A": driver} if driver else None)
    state, events = act(state, activate("white"), step("L0-05", "L0-04"), activate("white"), step("L0-06", "L0-05"),
                        *BUY)
    if driver:
        assert state.phase == "movement" and "L0-07" in landings(state)
        state, events = act(state, step("L0-07"))
    assert wear_owed(events) == wear


def test_ox_30_the_opening_buy_spends_the_start_money_and_fills_the_bags_after_everyone():
    """AU-13: the third player starts on P3 ($12)."""
    state = GAME.setup({"players": [{"name": n} for n in "ABC"], "start": 0, "card_pool": "base"},
                       random.Random(0))
    state = _priced(state, {"blue": 6, "purple": 5})
    state, _ = act(state, {"type": "done"}, {"type": "done"})
    assert state.actor == 2 and player(state, "C").segment == "L2-30"
    assert refused(_priced(state, {"purple": 13}), {"type": "buy", "colour": "purple"}) == "AU-13"
    # $1 or $0 left buys nothing (a white costs more): the table ends C's opening buy by itself
    for second in ("purple", "blue"):
        done, events = act(state, {"type": "buy", "colour": "blue"}, {"type": "buy", "colour": second})
        assert [(e["phase"], e["action"]) for e in events_of(events, "by_itself")] == [("opening_buy", "done")]
    one, _ = act(state, {"type": "buy", "colour": "blue"})
    assert one.phase == "opening_buy" and zones(one, "C")["bag"] == {"white": 5, "light_grey": 2, "yellow": 5}
    assert zones(done, "C")["bag"]["blue"] == 2 and done.phase == "opening_draw"


def _priced(state, costs):
    from dataclasses import replace

    cards = dict(state.table.cards)
    for colour, cost in costs.items():
        cards[colour] = replace(cards[colour], cost=cost)
    return state._replace(table=state.table._replace(cards=cards))


@pytest.mark.parametrize("setting", ["to_discard", "none"])
def test_ox_31_an_activated_wear_cube_goes_straight_to_the_discard(setting):
    """AU-62."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"BR": 2, "PU": 1, "W": 1}}, discard={"A": {"W": 1}},
                  cards={"purple": "base_purple_2"}, wear_activation=setting)  # a white to activate: it waits
    if setting == "none":
        assert refused(state, activate("brown")) == "AU-62"
        return
    state, _ = act(state, activate("brown"), activate("brown"), activate("purple"),
                   {"type": "pick", "colour": "brown", "from": "discard"},
                   {"type": "pick", "colour": "brown", "from": "discard"}, STOP)
    assert zones(state, "A")["discard"] == {"white": 1} and zones(state, "A")["used"] == {"purple": 1}


def test_ox_31_a_printed_wear_card_may_move_more_active_wear_along():
    """AU-62 ``extra_active_wear_moved``: with 1, one activation moves two active wear cubes to the discard."""
    from dataclasses import replace as copy

    state = table({"A": "L0-05", **FAR}, active={"A": {"BR": 3}})
    wear = state.table.cards["brown"]
    cards = {**state.table.cards, "brown": copy(wear, effect={**wear.effect, "extra_active_wear_moved": 1})}
    state = state._replace(table=state.table._replace(cards=cards))
    state, _ = act(state, activate("brown"))
    assert zones(state, "A")["active"] == {"brown": 1} and zones(state, "A")["discard"] == {"brown": 2}


def test_ox_32_a_marker_cube_on_the_wear_table_is_not_money():
    """AU-35, AU-25."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 1, "YE": 2, "GR": 1}}, cards={"green": "rs_green_1"},
                  prices={"W": (2, 1), "YE": (3, 2), "GR": (6, 5)})
    state, _ = act(state, activate("green", option="b"), {"type": "to_buy"})
    assert GAME.prompt(state).info["money"] == 1 + 2 * 2
