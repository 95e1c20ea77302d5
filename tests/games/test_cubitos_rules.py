"""Cubitos core rules as positions: set-up, refill, rolls, danger and busts, movement, bonuses, buying, the end.

Named by the ids of ../shared/games/cubitos/RULES.md: E-n are the book's worked examples, S-n the spec's scenarios.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from companion.games.base import IllegalAction
from companion.games.cubitos.kit import kit_from, load_kit
from companion.games.cubitos.race_section import COINS_PER_STEP
from companion.games.cubitos.roll_section import refill_bounds
from companion.games.cubitos.state import draw_limit, ending, lines_passed
from companion.games.datafile import DataError, read_data
from tests.games.cubitos_positions import (
    GAME,
    THREE,
    TWO,
    begin,
    destinations,
    dice_of,
    line_track,
    options,
    play,
    race_phase,
    step,
    with_player,
)

FOUR = {"players": [{"name": n, "colour": c} for n, c in
                    (("Ada", "blue"), ("Bo", "red"), ("Cy", "yellow"), ("Di", "white"))]}


def types(state, dice):
    return sorted(state.table.types[d] for d in dice)


# ---------------------------------------------------------------------------------------------------------- data


def test_the_shipped_data_loads_and_marks_what_is_not_in_the_book_as_reference():
    kit = kit_from(*(read_data("companion.games.cubitos", name) for name in ("dice.json", "cards.json", "races.json")))
    assert len(kit.cards) == 56 and all(card.cost_is_reference for card in kit.cards.values())
    assert kit.dice["red"].reference and kit.dice["lead"].reference and not kit.dice["grey_light"].reference
    assert all(track.reference for track in kit.tracks.values())


@pytest.mark.parametrize(("file", "edit", "field"), [
    ("dice.json", lambda d: d["dice"][3]["faces"].pop(), "dice[3].faces"),
    ("cards.json", lambda d: d["cards"][5].update(cost="4"), "cards[5].cost"),
    ("races.json", lambda d: d["fan_track"]["spaces"][2].update(credits=-1), "fan_track.spaces[2].credits"),
    ("races.json", lambda d: d["races"][0]["cards"].update(red="bob"), "races[0].cards.red"),
])
def test_a_wrong_data_file_names_the_file_and_the_field(file, edit, field):
    files = {name: copy.deepcopy(read_data("companion.games.cubitos", name))
             for name in ("dice.json", "cards.json", "races.json")}
    edit(files[file])
    with pytest.raises(DataError) as refused:
        kit_from(files["dice.json"], files["cards.json"], files["races.json"])
    assert (refused.value.source, refused.value.field) == (file, field)


# ---------------------------------------------------------------------------------------------------------- set-up


def test_e6_first_game_two_players_start_with_nine_grey_dice_and_the_stock_keeps_the_rest():
    state = begin(TWO)
    assert state.table.race.id == "race_1" and state.table.laps == 1
    assert state.table.cards["blue"].id == "bob" and state.table.cards["green"].id == "einer_geht_noch"
    for player in state.players:
        assert types(state, player.draw) == ["grey_dark"] * 2 + ["grey_light"] * 7
    grey = [state.table.types[d] for d in state.stock if state.table.types[d].startswith("grey")]
    assert (grey.count("grey_light"), grey.count("grey_dark")) == (14, 8)
    assert state.players[0].ready == (state.table.lead_die,)


def test_e8_four_players_leave_only_four_dark_grey_dice_in_the_stock():
    state = begin(FOUR)
    grey = [state.table.types[d] for d in state.stock if state.table.types[d].startswith("grey")]
    assert (grey.count("grey_light"), grey.count("grey_dark")) == (0, 4)


def test_cu1_a_race_needs_two_to_four_players_of_different_colours():
    with pytest.raises(IllegalAction, match="CU-1"):
        begin({"players": [{"name": "Ada"}]})
    with pytest.raises(IllegalAction, match="CU-1"):
        begin({"players": [{"name": "Ada", "colour": "blue"}, {"name": "Bo", "colour": "blue"}]})


# ---------------------------------------------------------------------------------------------------------- refill


def test_s5_the_lead_die_does_not_count_toward_the_limit():
    state = begin(TWO)
    two = dice_of(state, "grey_light", 2)
    state = with_player(state, 0, ready=(state.table.lead_die, *two))
    assert refill_bounds(state, 0)[0] == 7
    assert options(state) == [{"type": "roll", "roll": 10}]


def test_s6_the_red_line_bonus_counts_the_lines_to_the_leader_at_the_round_start():
    state = begin(THREE)._replace(lines=(3, 7, 5))
    state = with_player(state, 0, limit_tokens=2)
    assert [draw_limit(state, p) for p in range(3)] == [15, 9, 11]


def test_s7_an_empty_draw_zone_is_refilled_from_the_rest_zone():
    state = begin(TWO)
    draw = state.players[0].draw[:3]
    rest = state.players[0].draw[3:] + tuple(dice_of(state, "grey_light", 4))
    state = with_player(state, 0, draw=draw, rest=rest, ready=())
    state = state._replace(current=0)
    roll = [f"{t}/blank" for t in types(state, draw)] + ["grey_light/blank"] * 6
    state, events = play(state, {"type": "roll", "roll": 9, "dice": roll})
    player = state.players[0]
    assert (len(player.draw), len(player.rest), len(player.ready)) == (4, 0, 9)
    assert any(e["type"] == "recycled" for e in events)


def test_cu27_the_refill_takes_only_dice_the_draw_zone_has():
    state = begin(TWO)
    with pytest.raises(IllegalAction, match="CU-27"):
        play(state, {"type": "roll", "roll": 10, "dice": ["lead/blank"] + ["red/blank"] + ["grey_light/blank"] * 8})


def test_cu30_a_roll_shows_every_die_of_the_ready_zone():
    state = begin(TWO)
    with pytest.raises(IllegalAction, match="CU-30"):
        play(state, {"type": "roll", "roll": 10, "dice": ["grey_light/blank"] * 8 + ["grey_dark/blank"] * 2})


def test_cu30_a_push_shows_the_ready_zone_each_face_on_the_lowest_die_of_its_type_not_yet_placed():
    state = with_player(begin(TWO), 0, draw=(0, 1, 2, 3, 4), ready=(5, 6, 28, 40), refilled=True)
    with pytest.raises(IllegalAction, match="CU-30.*lacks 1 grey_light"):
        play(state, {"type": "roll", "roll": 4, "dice": ["grey_light/blank", "red/team", "grey_dark/blank",
                                                         "lead/blank"]})
    state, events = play(state, {"type": "roll", "roll": 4, "dice": ["lead/blank", "grey_light/coin1",
                                                                     "grey_dark/step1", "grey_light/blank"]})
    player = state.players[0]
    assert player.ready == (40, 6) and player.active == ((5, "coin1"), (28, "step1"))
    assert [e["hits"] for e in events if e["type"] == "rolled"] == [["grey_light/coin1", "grey_dark/step1"]]


# ---------------------------------------------------------------------------------------------------------- rolls


def first_roll(state, hits=()):
    """The lead player's first roll: the lead die and the nine start dice, ``hits`` faces first, the rest blank."""
    dice = list(hits) + ["grey_light/blank"] * (7 - sum(h.startswith("grey_light") for h in hits))
    dice += ["grey_dark/blank"] * (2 - sum(h.startswith("grey_dark") for h in hits))
    if not any(h.startswith("lead") for h in hits):
        dice.append("lead/blank")
    return play(state, {"type": "roll", "roll": 10, "dice": dice})


def test_cu33_the_first_roll_of_a_round_never_busts():
    state, events = first_roll(begin(TWO))
    assert state.phase == "choice" and not any(e["type"] == "bust" for e in events)


def test_cu23_the_player_with_the_most_dice_to_roll_rolls_next_a_tie_goes_to_lead_order():
    state = begin(TWO)
    assert state.current == 0  # 10 dice (the lead die) against 9
    state, _ = first_roll(state, ["grey_light/coin1", "grey_dark/step1"])
    state, _ = play(state, {"type": "push"})
    assert state.current == 1  # Bo has 9 dice to roll, Ada 8 left


def test_s1_two_active_dice_are_no_danger_a_blank_push_does_not_bust():
    state, _ = first_roll(begin(TWO), ["grey_light/coin1", "grey_dark/step1"])
    assert not state.players[0].danger
    state = state._replace(current=0, phase="roll")
    state, events = play(state, {"type": "roll", "roll": 8, "dice": ["grey_light/blank"] * 6 + ["grey_dark/blank",
                                                                                                   "lead/blank"]})
    assert state.phase == "choice" and not any(e["type"] == "bust" for e in events)


def test_s4_the_lead_die_makes_the_third_active_die_and_the_next_blank_push_busts():
    state, events = first_roll(begin(TWO), ["grey_light/coin1", "grey_dark/step1", "lead/credit1"])
    assert state.players[0].danger and any(e["type"] == "danger" for e in events)
    state = state._replace(current=0, phase="roll")
    state, events = play(state, {"type": "roll", "roll": 7, "dice": ["grey_light/blank"] * 6 + ["grey_dark/blank"]})
    assert any(e["type"] == "bust" for e in events) and state.phase == "bust"


def test_s2_a_bust_rests_the_active_dice_and_the_chosen_ready_dice_and_brings_a_fan():
    state, _ = first_roll(begin(TWO), ["grey_light/coin1", "grey_dark/step1", "lead/credit1"])
    state = state._replace(current=0, phase="roll")
    state, _ = play(state, {"type": "roll", "roll": 7, "dice": ["grey_light/blank"] * 6 + ["grey_dark/blank"]})
    assert {"type": "rest", "rest": {"grey_light": 2}} in options(state)
    state, events = play(state, {"type": "rest", "rest": {"grey_light": 2}})
    ada = state.players[0]
    assert len(ada.rest) == 5 and len(ada.ready) == 5 and not ada.active
    assert (ada.fans, ada.credits, ada.done_rolling, ada.busted) == (1, 1, True, True)


def test_cu37_with_nothing_left_to_roll_the_player_must_pass():
    hits = ["grey_light/coin1"] * 7 + ["grey_dark/step1"] * 2 + ["lead/coin2"]
    state, events = first_roll(begin(TWO), hits)
    assert state.players[0].done_rolling and any(e["type"] == "must_pass" for e in events)


def test_cu37_a_push_with_an_empty_ready_zone_is_refused_naming_the_rule():
    state = with_player(begin(TWO), 0, ready=(), refilled=True, must_push=True)._replace(phase="choice", current=0)
    assert options(state) == [{"type": "pass"}]  # CU-110: a push owed lapses with nothing to roll
    with pytest.raises(IllegalAction, match="CU-37"):
        play(state, {"type": "push"})
    state, _ = play(state, {"type": "pass"})
    assert state.players[0].done_rolling


# ------------------------------------------------------------------------------------------------------ race section


def test_s15_credits_turn_into_coins_only_in_the_race_section():
    state = begin(TWO)
    state = with_player(state, 0, credits=3)
    with pytest.raises(IllegalAction, match="CU-42"):  # the rule broken, not the roll's
        play(state, {"type": "convert"})
    with pytest.raises(IllegalAction, match="CU-42"):
        play(state._replace(phase="choice"), {"type": "convert"})
    state = race_phase(state, "buy", coins=5)
    state = with_player(state, 1, done_rolling=True)
    state, _ = play(state, {"type": "convert"}, {"type": "convert"}, {"type": "convert"})
    state = state._replace(table=replace(state.table, cards={**state.table.cards,
                                                            "red": replace(state.table.cards["red"], cost=8)}))
    assert state.players[0].coins == 8 and state.players[0].credits == 0
    state, _ = play(state, {"type": "buy", "die": "red"})
    assert (state.players[0].coins, state.players[0].credits) == (0, 0)


def test_s16_two_dice_of_different_colours_at_most_and_never_grey_or_from_an_empty_stock():
    state = race_phase(begin(TWO), "buy", coins=30)
    buys = {o.get("die") for o in options(state) if o["type"] == "buy"}
    assert "grey_light" not in buys and "grey_dark" not in buys and "red" in buys
    state, _ = play(state, {"type": "buy", "die": "red"})
    assert {"type": "buy", "die": "red"} not in options(state)
    state, _ = play(state, {"type": "buy", "die": "orange"})
    assert not [o for o in options(state) if o["type"] == "buy"]
    empty = state._replace(stock=frozenset(d for d in state.stock if state.table.types[d] != "blue"))
    empty = with_player(empty, 0, bought=())
    assert {"type": "buy", "die": "blue"} not in options(empty)


def test_s17_four_coins_buy_a_step_in_phase_6():
    state = race_phase(begin(TWO), "move", coins=9)
    state, _ = play(state, {"type": "buy_step"}, {"type": "buy_step"})
    assert (state.players[0].steps, state.players[0].coins) == (2, 9 - 2 * COINS_PER_STEP)
    assert {"type": "buy_step"} not in options(state)


def test_e1_a_shortcut_on_the_starting_space_is_paid_in_steps_and_is_not_a_step():
    track = line_track("S - p - a1 - a2 - a3 - r0 - r1 - r2 - r3 - F",
                       p={"type": "shortcut", "pay": {"steps": 7}, "to": "r0"})
    state = race_phase(begin(TWO, track=track), "move_start", space="p", steps=10)
    state, _ = play(state, {"type": "begin"})
    assert state.phase == "shortcut"
    state, _ = play(state, {"type": "shortcut"})
    assert (state.players[0].space, state.players[0].steps) == ("r0", 3)
    state, _ = play(state, step("r1"), step("r2"), step("r3"))
    assert state.players[0].steps == 0 and not destinations(state)


def test_s32_a_coin_shortcut_entered_on_the_way_is_paid_in_coins():
    track = line_track("S - j - k - l - m - F", k={"type": "shortcut", "pay": {"coins": 4}, "to": "m"})
    state = race_phase(begin(TWO, track=track), "move", space="j", steps=3, coins=5)
    state, _ = play(state, step("k"), {"type": "shortcut"})
    assert (state.players[0].space, state.players[0].steps, state.players[0].coins) == ("m", 2, 1)


def test_e2_a_jet_doubles_the_steps_left():
    track = line_track("S - a - J - b1 - b2 - b3 - b4 - b5 - b6 - b7 - b8 - b9 - F", J={"type": "jet"})
    state = race_phase(begin(TWO, track=track), "move", space="a", steps=5)
    assert "b8" in destinations(state) and "b9" not in destinations(state)  # one move: through the jet and on
    state, _ = play(state, step("J"))
    assert state.players[0].steps == 8


def test_s20_a_special_triggers_at_the_start_of_phase_6_and_once_a_round():
    track = line_track("S - a - J - b - c - d - e - f - F", J={"type": "jet"})
    state = race_phase(begin(TWO, track=track), "move_start", space="J", steps=3)
    state, _ = play(state, {"type": "begin"})
    assert state.players[0].steps == 6
    state, _ = play(state, step("b"), step("J"))
    assert state.players[0].steps == 4


def test_s18_water_needs_an_entry_and_a_jet_doubles_the_entries():
    track = line_track("S - J - a - W1:water - W2:water - b - F", J={"type": "jet"})
    state = race_phase(begin(TWO, track=track), "move", space="a", steps=3)
    assert "W1" not in destinations(state)
    with pytest.raises(IllegalAction, match="CU-59"):  # the water rule, not "no neighbour"
        play(state, step("W1"))
    state = with_player(state, 0, water=1)
    state, _ = play(state, step("W1"))
    assert "W2" not in destinations(state) and "a" in destinations(state)
    with pytest.raises(IllegalAction, match="CU-59"):
        play(state, step("W2"))
    jet = race_phase(begin(TWO, track=track), "move_start", space="J", steps=3, water=1)
    jet, _ = play(jet, {"type": "begin"}, *(step(s) for s in ("a", "W1", "W2", "b")))
    assert jet.players[0].space == "b"


def test_s19_only_the_space_where_phase_6_ends_gives_its_bonus_and_not_the_one_it_began_on():
    track = line_track("S - a(credits 2) - b - c - F")
    state = race_phase(begin(TWO, track=track), "move", steps=2)
    state, _ = play(state, step("a"), step("b"), {"type": "done"})
    assert state.players[0].credits == 0
    back = race_phase(begin(TWO, track=track), "move", space="a", steps=2)
    back, _ = play(back, step("b"), step("a"), {"type": "done"})
    assert back.players[0].credits == 0
    stop = race_phase(begin(TWO, track=track), "move", steps=2)
    stop, _ = play(stop, step("a"), {"type": "done"})
    assert stop.players[0].credits == 2


def test_s21_a_runner_never_steps_back_onto_the_start():
    track = line_track("S - a - b - F")
    state = race_phase(begin(TWO, track=track), "move", space="a", steps=2)
    assert "S" not in destinations(state)
    with pytest.raises(IllegalAction, match="CU-60"):
        play(state, step("S"))
    with pytest.raises(IllegalAction, match="CU-58"):
        play(state, step("F"))


def test_s22_the_fan_marker_stays_on_13_and_pays_six_credits_for_each_space_beyond():
    track = line_track("S - a(fans 2) - F")
    state = race_phase(begin(TWO, track=track), "move", steps=1, fans=13)
    state, _ = play(state, step("a"), {"type": "done"})
    assert (state.players[0].fans, state.players[0].credits) == (13, 12)


def test_cu66_a_give_back_bonus_may_be_declined_or_returns_a_die_to_the_stock():
    track = line_track("S - a(give_back 1) - F")
    state = race_phase(begin(TWO, track=track), "move", steps=1, coins=9)  # dice to buy: the round goes on
    state, _ = play(state, step("a"), {"type": "done"})
    assert state.phase == "bonus" and {"type": "decline"} in options(state)
    before = len(state.stock)
    given, _ = play(state, {"type": "give_back", "zone": "draw", "die": "grey_light"})
    assert len(given.stock) == before + 1 and given.players[0].gave_back


def finish_round(state):
    """Everyone done moving (``done``) and buying: the round ends."""
    while state.phase in ("move", "move_start", "buy", "bonus", "shortcut"):
        kind = {"move": "done", "buy": "done", "move_start": "begin", "bonus": "decline", "shortcut": "skip"}
        state, _ = play(state, {"type": kind[state.phase]})
    return state


def test_s23_of_two_runners_that_reached_the_finish_the_farther_from_the_start_wins_a_tie_plays_on():
    track = line_track("S - a - b - c - F")
    state = begin(TWO, track=track)
    state = with_player(state, 1, space="c", steps=4, done_rolling=True)
    state = race_phase(state, "move", 0, space="c", steps=3)
    state, _ = play(state, step("F"), step("a"), step("b"),
                    {"type": "done"})
    assert state.current == 1
    b, _ = play(state, *(step(s) for s in ("F", "a", "b", "c")), {"type": "done"})
    b = finish_round(b)
    assert b.phase == "over" and b.winners == (1,)
    tie, _ = play(state, *(step(s) for s in ("F", "a", "b")), {"type": "done"})
    tie = finish_round(tie)
    assert tie.phase == "roll" and tie.tiebreak and tie.racing == (0, 1) and not tie.winners


def test_s24_the_round_is_played_to_its_end_after_a_runner_reaches_the_finish():
    track = line_track("S - a - F")
    state = begin(TWO, track=track)
    state = with_player(state, 1, done_rolling=True, steps=1)
    state = race_phase(state, "move", 0, space="a", steps=1)
    lead = state.lead
    state, _ = play(state, step("F"), {"type": "done"})
    assert ending(state) and state.phase == "move" and state.current == 1
    state, events = play(state, {"type": "done"})
    assert [e["phase"] for e in events if e["type"] == "by_itself"] == ["buy", "buy"]  # nothing to buy
    assert state.phase == "over" and state.winners == (0,) and state.lead == lead


def test_s36_in_a_two_lap_race_the_finish_of_lap_1_sends_the_runner_on_from_the_start():
    track = line_track("S - a - b - c - F")
    state = race_phase(begin(TWO, track=track, laps=2), "move", space="c", steps=3)
    state, events = play(state, step("F"), step("a"))
    player = state.players[0]
    assert (player.laps, player.space, player.reached) == (1, "a", False)
    assert lines_passed(state.table, player) == 4 + 1


# ---------------------------------------------------------------------------------------------------------- bots


@pytest.mark.parametrize("seed", [3, 5, 10])  # random races last hundreds of rounds or thousands: these end soonest
def test_random_bot_games_end_with_a_winner_and_every_die_in_one_place(seed):
    from companion.games.bots import RandomBot, play_game

    state, actions = play_game(GAME, TWO, seed, RandomBot())
    assert state.phase == "over" and len(state.winners) == 1
    places = list(state.stock)
    for player in state.players:
        places += [*player.draw, *player.ready, *player.rest, *(d for d, _ in player.active)]
    assert sorted(places) == list(range(len(state.table.types)))


def test_a_roll_answers_the_option_it_was_offered():
    state = begin(TWO)
    dice = GAME.roll_dice(state, options(state)[0], random.Random(1))
    assert len(dice) == 10 and "lead/" in " ".join(dice)


@pytest.mark.parametrize("race", sorted(load_kit().races))
def test_greedy_bot_races_end_and_replay_exactly_with_every_die_in_one_place(race):
    from companion.games.bots import GreedyBot, play_game, replay

    options = {**FOUR, "race": race}
    if load_kit().races[race].cards is None:
        options["cards"] = {"red": "katrin", "orange": "justin", "yellow": "king_kaes", "green": "cubela_libre",
                            "blue": "dalai", "purple": "taktopterix", "brown": "trueffelterrier", "white": "garfield"}
    state, actions = play_game(GAME, options, 3, GreedyBot())
    assert state.phase == "over" and len(state.winners) == 1
    places = list(state.stock)
    for player in state.players:
        places += [*player.draw, *player.ready, *player.rest, *(d for d, _ in player.active)]
    assert sorted(places) == list(range(len(state.table.types)))
    assert replay(GAME, options, 3, actions) == state


def test_a_move_is_a_listed_path_and_a_path_through_a_shortcut_stops_there():
    track = line_track("S - a - k - l - m - F", k={"type": "shortcut", "pay": {"coins": 4}, "to": "m"})
    state = race_phase(begin(TWO, track=track), "move", space="a", steps=3, coins=4)
    assert {"type": "move", "path": ["k"], "forward": True} in options(state) and "l" not in destinations(state)
    with pytest.raises(IllegalAction, match="CU-63"):
        play(state, {"type": "move", "path": ["k", "l"]})
    with pytest.raises(IllegalAction, match="CU-58"):
        play(state, {"type": "move", "path": ["m"]})


def test_the_bust_chance_of_a_push_is_exact_from_the_ready_dice_faces():
    from companion.games.cubitos.rules import push_odds

    state = begin(TWO)
    three = dice_of(state, "grey_light", 2) + dice_of(state, "grey_dark", 1)
    safe = with_player(state, 0, ready=tuple(three))
    assert push_odds(safe, 0) == {"bust": 0.0, "coins": 3 / 6, "steps": 1 / 6}
    danger = with_player(safe, 0, danger=True)
    assert push_odds(danger, 0)["bust"] == float(Fraction(5, 6) ** 2 * Fraction(4, 6))
