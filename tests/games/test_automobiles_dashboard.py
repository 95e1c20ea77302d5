"""What the Automobiles dashboard shows beyond the rules' state: the exact odds of the next draw (checked against
counting every possible draw), the wear each landing costs, slipstream, and a pit stop that carries no fields."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest

from companion.games.automobiles import GAME
from companion.games.automobiles.present import draw_odds, option_label
from companion.games.base import IllegalAction
from tests.games.automobiles_positions import act, options, table


def counted(bag: dict[str, int], n: int, refill: dict[str, int]) -> dict[str, list[Fraction]]:
    """Every draw enumerated, cube by cube (AU-50: the bag drawn empty, then the rest from the refilled discard)."""
    cubes = [c for c, k in bag.items() for _ in range(k)]
    spare = [c for c, k in refill.items() for _ in range(k)]
    if len(cubes) >= n:
        draws = [list(d) for d in itertools.combinations(cubes, n)]
    else:
        draws = [cubes + list(d) for d in itertools.combinations(spare, min(n - len(cubes), len(spare)))]
    colours = sorted({*bag, *refill})
    return {c: [Fraction(sum(d.count(c) >= k for d in draws), len(draws)) for k in range(1, n + 1)] for c in colours}


@pytest.mark.parametrize(("bag", "n", "refill"), [
    ({"white": 5, "yellow": 5, "light_grey": 2}, 7, {}),
    ({"white": 3, "brown": 4, "yellow": 2}, 7, {"brown": 9}),
    ({"brown": 2, "white": 1}, 7, {"white": 4, "brown": 3, "red": 2}),
    ({"brown": 3}, 3, {"white": 2}),
    ({"white": 1}, 7, {"brown": 1}),  # bag and discard both run out: fewer are drawn (AU-51)
    ({"white": 2, "brown": 1}, 1, {}),
])
def test_the_odds_of_a_draw_are_those_of_counting_every_draw(bag, n, refill):
    odds = draw_odds(bag, n, refill)
    truth = counted(bag, n, refill)
    assert odds["wear"] == [round(float(p), 4) for p in truth.get("brown", []) if p]
    assert odds["any"] == {c: round(float(p[0]), 4) for c, p in truth.items() if p[0]}
    assert odds["drawn"] == min(n, sum(bag.values()) + sum(refill.values()))


def test_a_draw_of_seven_from_five_white_five_yellow_and_two_light_grey_has_known_chances():
    odds = draw_odds({"white": 5, "yellow": 5, "light_grey": 2}, 7)
    assert odds["wear"] == [] and odds["any"]["light_grey"] == round(1 - comb(10, 7) / comb(12, 7), 4) == 0.8485


def test_open_bags_show_each_players_next_draw_and_closed_bags_show_only_counts():
    cars = {"A": "L0-09", "B": "L2-20"}
    zones = {"bag": {"A": {"W": 4, "BR": 2}}, "discard": {"A": {"BR": 3}}, "active": {"A": {"W": 2}}}
    closed = GAME.view(table(cars, **zones))["players"][0]
    assert "bag" not in closed and "odds" not in closed and closed["bag_count"] == 6
    opened = GAME.view(table(cars, open_bags=True, **zones))["players"][0]
    assert opened["bag"] == {"white": 4, "brown": 2}
    assert opened["odds"] == draw_odds({"white": 4, "brown": 2}, 7, {"brown": 3, "white": 2})
    assert opened["odds"]["wear"][:2] == [1.0, 1.0] and opened["odds"]["from_bag"] == 6


def test_the_draw_the_table_waits_for_has_its_odds_from_the_bag_and_the_discard_now():
    state = table({"A": "L0-09", "B": "L2-20"}, open_bags=True, bag={"A": {"W": 3, "BR": 1, "YE": 3}},
                  discard={"A": {"BR": 2}})
    state, _ = act(state, {"type": "to_buy"}, {"type": "done"})
    while not any("roll" in o for o in options(state)):
        state, _ = act(state, {"type": "stop"})
    shown = GAME.view(state)["next_draw"]
    assert shown == {"player": "red", **draw_odds({"white": 3, "brown": 1, "yellow": 3}, 7, {"brown": 2})}
    assert GAME.view(table({"A": "L0-09", "B": "L2-20"}))["next_draw"] is None


def test_each_landing_of_a_gear_cube_shows_the_wear_the_turn_reaches_there():
    """The reference oval's lane 0 has white curves (wear 1) and light grey straights (wear 2)."""
    state = table({"A": "L0-09", "B": "L2-20"}, active={"A": {"LG": 1, "W": 1}})
    state, _ = act(state, {"type": "activate", "colour": "white"})
    view = GAME.view(state)
    assert view["landing_wear"] == {o["to"]: 1 for o in options(state) if o["type"] == "step"}
    step = next(o for o in options(state) if o["type"] == "step")
    assert option_label(step, {"view": view}, "en").endswith("· wear 1")
    state, _ = act(state, step)
    assert state.phase == "action"  # a 3rd gear moves its cube one field
    state, _ = act(state, {"type": "activate", "colour": "light_grey"})
    assert set(GAME.view(state)["landing_wear"].values()) == {2}


def test_a_car_right_behind_another_is_in_the_slipstream():
    view = GAME.view(table({"A": "L0-09", "B": "L0-10"}))
    assert [p["slipstream"] for p in view["players"]] == [True, False]


def test_a_pit_stop_carries_no_fields_as_its_listed_option_has_none():
    state = table({"A": "L0-09", "B": "L2-20"}, active={"A": {"BR": 3, "W": 4}}, bag={"A": {"W": 7}})
    assert {"type": "pit_stop"} in options(state)
    for wear in (3, 2):
        with pytest.raises(IllegalAction) as refused:
            act(state, {"type": "pit_stop", "wear": wear})
        assert refused.value.rule == "AU-54"
    assert option_label({"type": "pit_stop"}, {"view": GAME.view(state)}, "en") == \
        "Pit stop: 3 wear back to the stock"


def test_the_opening_buy_shows_the_start_positions_money_left():
    import random

    from companion.games.automobiles.present import DEMO_OPTIONS

    state = GAME.setup({**DEMO_OPTIONS, "start": 0}, random.Random(0))
    assert GAME.view(state)["turn"]["money"] == 10  # P1 on the reference oval (AU-13)
    state, _ = act(state, {"type": "buy", "colour": "white"})
    assert GAME.view(state)["turn"]["money"] == 10 - GAME.view(state)["costs"]["white"]


def test_draw_odds_list_equal_chances_in_the_colours_order_not_by_string_hashing():
    """The same view on every Python and every run: a set's order (string hashing) never decides a tie."""
    odds = draw_odds({"blue": 2, "red": 2, "white": 2}, 2)
    assert list(odds["any"]) == ["white", "red", "blue"]
