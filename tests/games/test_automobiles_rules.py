"""Automobiles rules the spec's examples do not walk through: set-up, the turn's frame, the remaining cards and the
drivers, the view's bag display and the season's flow (RULES.md AU-n, named in each test)."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.automobiles import GAME
from companion.games.automobiles.season import placings
from companion.games.automobiles.state import count
from companion.games.base import IllegalAction
from tests.games.automobiles_positions import act, car, end_turn, events_of, landings, options, player, table, zones

FAR = {"B": "L2-28"}
STOP = {"type": "stop"}
BUY = ({"type": "to_buy"}, {"type": "done"})


def activate(colour: str, **choice: str) -> dict:
    return {"type": "activate", "colour": colour, **choice}


def pick(colour: str, source: str) -> dict:
    return {"type": "pick", "colour": colour, "from": source}


def refused(state, action) -> str:
    with pytest.raises(IllegalAction) as error:
        act(state, action)
    return error.value.rule


def three(**options):
    return GAME.setup({"players": [{"name": n} for n in "ABC"], **options}, random.Random(4))


def test_setup_seats_the_start_player_first_on_p1_with_twelve_cubes_each():
    """AU-2, AU-4, AU-5, AU-6, AU-10, AU-11, AU-12, AU-16: a fixed turn order from the start player, cars on
    P1..Pn in that order, markers on "3", 5 W + 2 LG + 5 YE in each bag, the rest in the stock (AU-1)."""
    state = three(start=1)
    assert state.table.order == (1, 2, 0)
    assert [player(state, x).segment for x in "BCA"] == ["L0-30", "L1-30", "L2-30"]
    assert all(zones(state, x)["bag"] == {"white": 5, "light_grey": 2, "yellow": 5} for x in "ABC")
    assert GAME.view(state)["players"][0]["marker"] == "3" and state.phase == "opening_buy"
    assert sum(state.stock) == 282 - 36 and GAME.view(state)["cubes_total"] == 282


@pytest.mark.parametrize(("options", "rule"), [({"players": [{"name": "A"}]}, "AU-8"),
                                               ({"laps": "Final"}, "AU-8"), ({"track": "daytona_beach"}, "AU-4"),
                                               ({"card_pool": "expansion"}, "AU-121"),
                                               ({"cards": {"red": "base_yellow_1"}}, "AU-9"),
                                               ({"season": ["reference_oval"]}, "AU-111")])
def test_setup_refuses_a_table_the_rules_do_not_allow(options, rule):
    """AU-7, AU-8, AU-9, AU-111, AU-121: untranscribed printed tracks (AU-7) have no layout yet."""
    with pytest.raises(IllegalAction) as error:
        GAME.setup({"players": [{"name": "A"}, {"name": "B"}], **options}, random.Random(0))
    assert error.value.rule == rule


def test_cards_come_from_the_chosen_pool_one_per_action_colour():
    """AU-3, AU-9, AU-98, AU-121: cards are identified by id; names are display only."""
    for pool in ("base", "racing_season"):
        cards = GAME.view(three(card_pool=pool))["cards"]
        assert all(cards[c].startswith("base_" if pool == "base" else "rs_") for c in ("yellow", "red", "purple",
                                                                                      "blue", "green"))
        assert cards["white"] == "gear_3" and cards["brown"] == "wear"


def test_opening_draw_then_the_first_turn():
    """AU-13, AU-14: after everyone bought, each draws 7 in turn order; then the start player's action phase."""
    state = three(start=0)
    state, _ = act(state, *[{"type": "done"}] * 3)
    for _ in range(3):
        assert state.phase == "opening_draw" and options(state) == [{"type": "draw", "roll": 7}]
        state, _ = act(state, {"type": "draw", "dice": ["white"] * 5 + ["yellow"] * 2})
    assert state.phase == "action" and GAME.prompt(state).actor == car("A")


def test_a_cube_not_in_the_active_area_cannot_be_activated():
    """AU-20."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 1}})
    assert refused(state, activate("black")) == "AU-20"


def test_a_gear_cube_moves_exactly_one_field_of_its_colour():
    """AU-61."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 1}})
    state, _ = act(state, activate("white"))
    assert STOP not in options(state) and state.stage.hi == 1


def test_the_end_phase_sweeps_everything_to_the_discard_and_draws_seven():
    """AU-47, AU-48, AU-24: bought and gained cubes arrive in the used area and leave with it."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 1, "YE": 4}}, bag={"A": {"LG": 9}},
                  prices={"W": (1, 1), "YE": (3, 1)})  # $1 left after the yellow buys a white: the table waits
    state, _ = act(state, activate("white"), {"type": "step", "to": "L0-06", "from": "L0-05"}, {"type": "to_buy"},
                   {"type": "buy", "colour": "yellow"})
    assert zones(state, "A")["used"] == {"white": 1, "yellow": 1}
    state, _ = act(state, {"type": "done"}, {"type": "draw", "dice": ["light_grey"] * 7})
    assert zones(state, "A") == {"bag": {"light_grey": 2}, "active": {"light_grey": 7}, "used": {},
                                 "discard": {"white": 1, "yellow": 5, "brown": 1}}


def test_turn_effects_end_with_the_turn():
    """AU-18: base_red_1's no-wear lasts only this turn; AU-67: no wear in the wear phase."""
    state = table({"A": "L2-02", "B": "L0-20"}, active={"A": {"RE": 1, "DG": 1}}, bag={"A": {"W": 7}, "B": {"W": 7}},
                  cards={"red": "base_red_1"})
    state, before = act(state, activate("red"), activate("dark_grey"), {"type": "step", "to": "L2-06", "from": "L2-02"})
    assert state.turn.no_wear
    state, events = end_turn(state)
    events = before + events  # nothing left to activate: the turn went on by itself
    assert events_of(events, "wear_phase")[0]["owed"] == 0 and not state.turn.no_wear


def test_mechanic_removes_one_active_then_returns_one_to_the_bag():
    """AU-65."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1, "BR": 1, "W": 1}}, discard={"A": {"LG": 1}},
                  cards={"yellow": "base_yellow_3"})
    state, _ = act(state, activate("yellow"), pick("brown", "active"), pick("light_grey", "discard"))
    assert zones(state, "A") == {"bag": {"light_grey": 1}, "active": {"white": 1}, "used": {"yellow": 1},
                                 "discard": {}}


def test_yellow_4_moves_another_active_cube_to_used_then_removes_from_the_discard():
    """AU-66: illegal with no other active cube."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1, "W": 2}}, discard={"A": {"BR": 3}},
                  cards={"yellow": "base_yellow_4"})  # a white left to activate: the table waits
    state, _ = act(state, activate("yellow"), pick("white", "active"), pick("brown", "discard"),
                   pick("brown", "discard"))
    assert zones(state, "A")["used"] == {"yellow": 1, "white": 1} and zones(state, "A")["discard"] == {"brown": 1}
    alone = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1}}, cards={"yellow": "base_yellow_4"})
    assert refused(alone, activate("yellow")) == "AU-66"


def test_purple_2_removes_up_to_six():
    """AU-72."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1, "W": 1}}, discard={"A": {"BR": 8}},
                  cards={"purple": "base_purple_2"})  # a white left to activate: the table waits
    state, _ = act(state, activate("purple"), *[pick("brown", "discard")] * 6)
    assert zones(state, "A")["discard"] == {"brown": 2} and state.phase == "action"


def test_purple_3_all_wear_or_exactly_two():
    """AU-73."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"PU": 2}}, discard={"A": {"BR": 3, "W": 1}},
                  cards={"purple": "base_purple_3"})
    wear, _ = act(state, activate("purple", option="wear"))
    assert zones(wear, "A")["discard"] == {"white": 1}
    two, _ = act(state, activate("purple", option="two"), pick("white", "discard"))
    assert STOP not in options(two)
    short = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1}}, discard={"A": {"W": 1}},
                  cards={"purple": "base_purple_3"})
    assert activate("purple", option="two") not in options(short)


def test_purple_4_buys_exactly_one_cube_for_the_costs_removed():
    """AU-74: wear counts 0, the rest of the sum is lost."""
    prices = {"W": (2, 1), "LG": (4, 1), "DG": (6, 2), "BK": (8, 2), "YE": (3, 1), "RE": (4, 1), "PU": (5, 1),
              "BL": (6, 1), "GR": (6, 1)}
    state = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1, "W": 1}}, discard={"A": {"DG": 1, "BR": 1}},
                  cards={"purple": "base_purple_4"}, prices=prices)  # a white left to activate: the table waits
    state, _ = act(state, activate("purple"), pick("brown", "discard"))
    assert STOP not in options(state)  # $0 buys nothing
    state, _ = act(state, pick("dark_grey", "discard"))
    assert {o["colour"] for o in options(state)} == {"white", "light_grey", "dark_grey", "yellow", "red", "purple",
                                                      "blue", "green"}
    state, events = act(state, {"type": "buy", "colour": "blue"})
    assert zones(state, "A")["used"] == {"purple": 1, "blue": 1} and state.phase == "action"
    nothing = table({"A": "L0-05", **FAR}, active={"A": {"PU": 1}}, discard={"A": {"BR": 3}},
                    cards={"purple": "base_purple_4"}, prices=prices)
    assert refused(nothing, activate("purple")) == "AU-74"


def test_blue_4_takes_discard_cubes_back_into_the_active_area():
    """AU-78."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"BL": 1}}, discard={"A": {"BK": 2}},
                  cards={"blue": "base_blue_4"})
    state, _ = act(state, activate("blue"), pick("black", "discard"), STOP)
    assert zones(state, "A")["active"] == {"black": 1} and zones(state, "A")["used"] == {"blue": 1, "brown": 1}


def test_rs_yellow_2_draws_one_then_removes_one_the_drawn_one_allowed():
    """AU-84."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1, "W": 1}}, bag={"A": {"BR": 1}},
                  cards={"yellow": "rs_yellow_2"})  # a white left to activate: the table waits
    state, _ = act(state, activate("yellow"), {"type": "draw", "dice": ["brown"]}, pick("brown", "active"))
    assert zones(state, "A")["active"] == {"white": 1} and state.phase == "action"
    empty = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1}}, cards={"yellow": "rs_yellow_2"})
    assert refused(empty, activate("yellow")) == "AU-84"


def test_rs_yellow_3_removes_itself_then_draws_up_to_three():
    """AU-85."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 1}}, bag={"A": {"W": 5}}, cards={"yellow": "rs_yellow_3"})
    yellow = count(state.stock, "yellow")
    state, _ = act(state, activate("yellow"), {"type": "draw", "dice": ["white"]}, STOP)
    assert count(state.stock, "yellow") == yellow + 1 and zones(state, "A")["used"] == {}
    assert zones(state, "A")["active"] == {"white": 1}


def test_rs_blue_3_swaps_active_for_discard_cubes_with_wear_each():
    """AU-97."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"BL": 1, "BR": 1}}, discard={"A": {"BK": 2}},
                  cards={"blue": "rs_blue_3"})
    state, _ = act(state, activate("blue"), pick("brown", "active"), pick("black", "discard"),
                   pick("black", "discard"), pick("brown", "discard"))
    assert zones(state, "A")["active"] == {"black": 2, "brown": 1}
    assert zones(state, "A")["used"] == {"blue": 1, "brown": 3}


def test_drivers_are_chosen_last_player_first_from_one_more_than_the_players():
    """AU-99: the remaining driver goes back to the box."""
    state = three(drivers=True, start=0)
    assert state.phase == "driver" and len(state.revealed) == 4 and GAME.prompt(state).actor == car("C")
    revealed = list(state.revealed)
    state, _ = act(state, {"type": "driver", "driver": revealed[0]})
    assert GAME.prompt(state).actor == car("B")
    assert refused(state, {"type": "driver", "driver": revealed[0]}) == "AU-99"
    state, _ = act(state, {"type": "driver", "driver": revealed[1]}, {"type": "driver", "driver": revealed[2]})
    assert state.phase == "opening_buy" and player(state, "A").driver == revealed[2]


def test_driver_02_and_03_once_in_the_action_phase():
    """AU-100, AU-102, AU-103."""
    state = table({"A": "L0-05", **FAR}, discard={"A": {"BK": 4}}, drivers={"A": "driver_02"})
    state, _ = act(state, {"type": "use_driver", "driver": "driver_02"}, pick("black", "discard"))
    assert zones(state, "A")["active"] == {"black": 1}
    assert {"type": "use_driver", "driver": "driver_02"} not in options(state)
    three_back = table({"A": "L0-05", **FAR}, discard={"A": {"BK": 4}}, drivers={"A": "driver_03"})
    three_back, _ = act(three_back, {"type": "use_driver", "driver": "driver_03"}, *[pick("black", "discard")] * 3)
    assert zones(three_back, "A")["bag"] == {"black": 3}


def test_driver_04_draws_at_the_start_of_the_buy_phase_and_sorts_each_cube():
    """AU-104."""
    state = table({"A": "L0-05", **FAR}, bag={"A": {"BK": 3}}, drivers={"A": "driver_04"},
                  prices={"BK": (8, 2)})
    state, _ = act(state, {"type": "to_buy"}, {"type": "use_driver", "driver": "driver_04"},
                   {"type": "draw", "dice": ["black"] * 2},
                   {"type": "sort", "colour": "black", "to": "active"}, {"type": "sort", "colour": "black",
                                                                        "to": "stock"})
    assert zones(state, "A")["active"] == {"black": 1} and GAME.prompt(state).info["money"] == 2


def test_driver_05_removes_discard_cubes_for_a_dollar_each():
    """AU-105."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"YE": 2}}, discard={"A": {"BR": 5}},
                  drivers={"A": "driver_05"}, prices={"YE": (3, 1)})
    state, events = act(state, {"type": "to_buy"}, {"type": "use_driver", "driver": "driver_05"},
                        pick("brown", "discard"), pick("brown", "discard"))
    # $0 left closes the pick and buys nothing: the table says "Done" by itself and sweeps the yellows to the discard
    assert events_of(events, "by_itself") == [{"type": "by_itself", "player": "red", "phase": "buy", "action": "done"}]
    assert events_of(events, "unspent")[0]["lost"] == 0
    assert zones(state, "A")["discard"] == {"brown": 3, "yellow": 2} and state.phase == "end"


def test_driver_08_removes_wear_before_the_end_draw_and_works_in_a_pit_stop():
    """AU-108, AU-55."""
    state = table({"A": "L0-05", **FAR}, active={"A": {"W": 1}}, used={"A": {"BR": 1}}, discard={"A": {"BR": 2}},
                  bag={"A": {"W": 7}}, drivers={"A": "driver_08"})
    state, _ = act(state, {"type": "pit_stop"}, pick("brown", "used"), pick("brown", "discard"),
                   pick("brown", "discard"))
    assert state.stage.kind == "draw" and zones(state, "A")["discard"] == {"white": 1}


def test_driver_09_draws_up_to_two_more_even_after_a_pit_stop():
    """AU-109, AU-55."""
    state = table({"A": "L0-05", **FAR}, bag={"A": {"W": 12}}, drivers={"A": "driver_09"})
    state, _ = act(state, {"type": "pit_stop"})
    assert [o["roll"] for o in options(state)] == [7, 8, 9]


def test_a_finished_car_stays_and_still_blocks():
    """AU-60, AU-59: placings put the finished players first."""
    state = table({"A": "L0-05", "B": "L0-06"}, markers={"B": "Finish"}, active={"A": {"W": 1}})
    assert refused(state, activate("white")) == "AU-28"
    assert placings(state) == [1, 0]


def test_closed_bags_show_only_their_count_open_bags_their_colours():
    """AU-53, AU-120."""
    closed = GAME.view(table({"A": "L0-05", **FAR}, bag={"A": {"W": 3}}))
    assert closed["players"][0]["bag_count"] == 3 and "bag" not in closed["players"][0]
    opened = GAME.view(table({"A": "L0-05", **FAR}, bag={"A": {"W": 3}}, open_bags=True))
    assert opened["players"][0]["bag"] == {"white": 3}
    json.dumps(opened)


def test_a_season_goes_on_with_the_placing_order_and_the_same_bags():
    """AU-111, AU-115, AU-116: the winner starts the next race on P1; every cube goes into the bag and each draws 7."""
    state = table({"A": "L1-30", "B": "L0-30"}, markers={"A": "Final"}, active={"A": {"LG": 1}},
                  season=["reference_oval"] * 3, bag={"A": {"W": 7}, "B": {"W": 7}}, discard={"B": {"YE": 2}})
    state, events = end_turn(state, activate("light_grey"), {"type": "step", "to": "L0-00", "from": "L1-30"})
    assert events_of(events, "finished") and not GAME.is_over(state)
    state, events = end_turn(state)
    assert events_of(events, "race_over") and state.phase == "sponsor"  # AU-113: the sponsors come first
    assert [e["points"] for e in events_of(events, "points")] == [4, 3]
    while state.phase == "sponsor":  # each takes the first sponsor offered and declines its effects
        choice = STOP if STOP in options(state) else options(state)[0]
        state, _ = act(state, choice)
    assert state.race == 2 and state.phase == "opening_draw" and len(state.offered) == 2
    assert player(state, "A").segment == "L0-30" and player(state, "B").segment == "L1-30"
    assert zones(state, "B")["bag"] == {"white": 7, "yellow": 2} and player(state, "B").marker == 4
    assert player(state, "A").sponsor and player(state, "B").sponsor


def test_accelerated_rs_blue_1_moves_are_owed_to_the_players_behind_at_their_next_turn():
    """AU-119, AU-95: no move during A's turn; B's turn starts with up to 1 field of any colour, no wear, then Sog."""
    state = table({"A": "L0-18", "B": "L1-14", "C": "L0-05"}, active={"A": {"BL": 1}},
                  bag={x: {"W": 7} for x in "ABC"}, cards={"blue": "rs_blue_1"}, accelerated=True)
    state, _ = act(state, activate("blue"), STOP)
    state, _ = end_turn(state)
    assert (player(state, "B").deferred_moves, player(state, "C").deferred_moves) == (1, 1)
    assert state.phase == "deferred" and GAME.prompt(state).actor == car("B")
    assert {"type": "pit_stop"} not in options(state)
    state, events = act(state, {"type": "step", "to": "L1-18"})
    assert player(state, "B").segment == "L1-18" and player(state, "B").deferred_moves == 0
    assert state.phase == "action" and not events_of(events, "gained")


def test_equally_far_cubes_leave_the_car_s_destination_to_the_player():
    """AU-38 ``FARTHEST_TIE``: L0-14 and L1-14 are both at front 16."""
    state = table({"A": "L1-10", **FAR}, active={"A": {"LG": 2, "DG": 1}}, bag={"A": {"W": 7}})
    state, _ = act(state, activate("light_grey"), {"type": "step", "to": "L0-12", "from": "L1-10"},
                   activate("light_grey"), {"type": "step", "to": "L0-14", "from": "L0-12"},
                   activate("dark_grey"), {"type": "step", "to": "L1-14", "from": "L1-10"}, *BUY)
    assert state.phase == "movement" and options(state) == [{"type": "drive", "to": "L0-14"},
                                                             {"type": "drive", "to": "L1-14"}]
    state, events = act(state, {"type": "drive", "to": "L1-14"})
    assert player(state, "A").segment == "L1-14" and events_of(events, "wear_phase")[0]["owed"] == 3


@pytest.mark.parametrize(("weaving", "stops"), [(False, {"L0-12", "L1-14", "L2-14"}),
                                                (True, {"L0-12", "L1-12", "L1-14", "L2-12", "L2-14"})])
def test_weaving_lets_a_car_stop_early_too(weaving, stops):
    """AU-118 for a car's own steps (AU-40, AU-106): driver_06's field with no cube placed this turn."""
    state = table({"A": "L1-10", **FAR}, bag={"A": {"W": 7}}, drivers={"A": "driver_06"}, weaving=weaving)
    state, _ = act(state, *BUY)
    assert state.phase == "movement" and landings(state) == stops


def test_the_camera_labels_are_the_cube_colours_of_the_data():
    """AU-1, AU-52: a draw is read as cube colours; the rules count them in the data's order."""
    from companion.games.automobiles.kit import load_kit
    from companion.games.automobiles.state import COLOURS

    assert GAME.dice_set == "automobiles" and tuple(load_kit().cubes) == COLOURS == GAME.die_faces


def test_a_suggested_set_puts_its_named_cards_in_play():
    """AU-9, AU-98: the beginner set by name; Federung has no known card, so red comes from the pool."""
    cards = GAME.view(three(card_set="beginner"))["cards"]
    assert {c: cards[c] for c in ("yellow", "purple", "blue", "green")} == {
        "yellow": "base_yellow_2", "purple": "base_purple_1", "blue": "base_blue_2", "green": "base_green_2"}
    assert cards["red"].startswith("base_red_")
    with pytest.raises(IllegalAction) as error:
        three(card_set="rs_only")
    assert error.value.rule == "AU-98"


def test_a_season_is_refused_at_set_up_when_a_later_track_has_too_few_start_positions():
    """AU-15 for every race of the season, not only the first: a later track short of start positions used to fail
    with an IndexError when the first race ended."""
    four = [{"name": f"P{n}"} for n in range(4)]
    with pytest.raises(IllegalAction) as refused:
        GAME.setup({"players": four, "season": ["reference_oval", "fixture_split_start", "reference_oval"]},
                   random.Random(1))
    assert refused.value.rule == "AU-15" and "fixture_split_start has 2 start positions" in str(refused.value)
    two = GAME.setup({"players": four[:2], "season": ["reference_oval", "fixture_split_start", "reference_oval"]},
                     random.Random(1))
    assert two.table.track.id == "reference_oval"


def test_the_flow_is_the_phases_table_and_names_only_its_own_phases():
    """AU-16: every phase but the end of the game says what comes next (no handler sets the phase), and every phase
    named, by a phase or by the stages of seeded bot races, is one of the table's."""
    from companion.games.automobiles.rules import PHASES
    from companion.games.bots import RandomBot, play_game

    for name, phase in PHASES.items():
        assert (phase.next is None) == (name == "over"), name
        assert not isinstance(phase.next, str) or phase.next in PHASES, name
    seen = set()
    for seed in range(3):
        options = {"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "card_pool": "both", "drivers": True}
        state = GAME.setup(options, random.Random(seed))
        _, actions = play_game(GAME, options, seed, RandomBot())
        for action in actions[:600]:
            seen.add(state.phase)
            if state.stage is not None:
                seen.add(state.stage.then)
            state, _ = GAME.apply(state, action)
    assert seen <= set(PHASES) and {"action", "buy", "effect", "end"} <= seen
