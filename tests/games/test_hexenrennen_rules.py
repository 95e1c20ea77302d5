"""Hexen Rennen rules HR-1..HR-20, each told as a position, a turn and what the rules must do.

Positions have four players in the order blue, yellow, green, orange unless a test says otherwise; spaces are 0 (the
start), 1..48 (the path, stages 1-16, 17-32, 33-48) and 49, 50, 51 (the finish fields worth 2, 3, 4 points).
Tiles are hidden unless the position reveals them, as at the real table.
"""

from __future__ import annotations

import random

import pytest
from hexen_positions import (
    STAY,
    at,
    card,
    cards_of,
    draw,
    move,
    of_type,
    play,
    prompt,
    reveal,
    roll,
    table,
    tile,
)

from companion.games.base import IllegalAction
from companion.games.hexenrennen import GAME
from companion.games.hexenrennen.kit import load_kit
from companion.games.hexenrennen.rules import PHASES
from companion.games.hexenrennen.setup import check_layout, shuffled_layout


def refused(state, action, rule):
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, action)
    assert err.value.rule == rule, str(err.value)
    return str(err.value)


# ---------------------------------------------------------------------------------------------- the chain example


def test_rulebook_chain_example_blue_3_own_10_own_4_yellow_7_green_forced_5_net_plus_5():
    """Blue rolls 3 onto a blue 10, on to a blue 4, onto yellow's magic; yellow sends it back 7 onto green's magic,
    green must play (a 5) and the witch ends on another clan's number: 3 + 10 + 4 - 7 - 5 = +5."""
    state = table(witches={"blue-1": 5})
    state, events = play(state, roll(3), move("blue-1"))
    assert prompt(state)[:2] == ("blue", "reveal") and at(state, "blue-1") == 8
    state, events = play(state, reveal("blue-10"))
    assert at(state, "blue-1") == 18 and prompt(state)[1] == "reveal"
    state, events = play(state, reveal("blue-4"))
    assert at(state, "blue-1") == 22
    state, events = play(state, reveal("yellow-magic"))
    actor, phase, options = prompt(state)
    assert (actor, phase) == ("yellow", "foreign_magic") and STAY in options  # yellow may let it stay
    assert of_type(events, "asks") == [{"type": "asks", "phase": "foreign_magic", "player": "yellow",
                                        "witch": "blue-1", "space": 22, "forced": False}]
    state, events = play(state, card(7), reveal("green-magic"))
    actor, phase, options = prompt(state)
    assert (actor, phase, at(state, "blue-1")) == ("green", "foreign_magic", 15)
    assert STAY not in options and GAME.prompt(state).info["forced"] is True  # HR-16: green must play
    state, events = play(state, card(5), reveal("orange-6"))
    assert at(state, "blue-1") == 10
    assert of_type(events, "chain_end")[0]["net"] == 5
    assert [(s["from"], s["to"], s["by"]) for s in GAME.view(state)["chain"]] == [
        (5, 8, "die"), (8, 18, "tile"), (18, 22, "tile"), (22, 15, "card"), (15, 10, "card")]
    assert 7 not in cards_of(state, "yellow") and 5 not in cards_of(state, "green")
    assert prompt(state)[:2] == ("yellow", "roll")


# ---------------------------------------------------------------------------------------------- set-up


def test_hr1_two_to_four_players_each_an_own_clan():
    rng = random.Random(0)
    for bad in ([{"name": "A"}], [{"name": c} for c in "ABCDE"], "Ada,Bo"):
        with pytest.raises(IllegalAction) as err:
            GAME.setup({"players": bad}, rng)
        assert err.value.rule == "HR-1"
    with pytest.raises(IllegalAction, match="colour 'red' is not one of the game's") as err:
        GAME.setup({"players": [{"name": "A", "colour": "red"}, {"name": "B"}]}, rng)
    assert err.value.field == "players[0].colour"
    with pytest.raises(IllegalAction, match="colour 'blue' is taken") as err:
        GAME.setup({"players": [{"name": "A", "colour": "blue"}, {"name": "B", "colour": "blue"}]}, rng)
    assert err.value.field == "players[1].colour"
    state = GAME.setup({"players": ["Ada", "Bo", "Cy"]}, rng)
    assert [p["clan"] for p in GAME.view(state)["players"]] == ["orange", "blue", "yellow"]


def test_hr1_play_goes_round_in_the_order_of_players():
    state = table(witches={"blue-1": 5, "yellow-1": 7}, tiles={8: "orange-2", 10: "orange-3"})
    state, events = play(state, roll(3), move("blue-1"))
    assert of_type(events, "turn") == [{"type": "turn", "player": "yellow", "turn": 2}]
    state, _ = play(state, roll(3), move("yellow-1"))
    assert prompt(state)[:2] == ("green", "roll")


def test_hr2_each_clan_has_three_witches_twelve_tiles_and_twelve_cards():
    kit = load_kit()
    assert kit.clans == ("orange", "blue", "yellow", "green") and kit.witches_per_clan == 3
    assert kit.tile_numbers == tuple(range(2, 11)) and kit.tile_magic == 3
    assert kit.deck == (0, 0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    view = GAME.view(table())
    assert len(view["witches"]) == 12 and all(p["cards_left"] == 12 for p in view["players"])
    assert cards_of(table(), "blue") == ["magic"] * 3 + list(range(2, 11))


def test_hr3_a_shuffled_track_has_three_stages_of_16_with_four_tiles_and_one_magic_per_clan():
    kit = load_kit()
    track = shuffled_layout(kit, random.Random(5))
    assert len(track) == 49 and track[0] is None
    for s in range(3):
        stage = track[1 + 16 * s: 17 + 16 * s]
        for clan in kit.clans:
            mine = [t for t in stage if t.clan == clan]
            assert len(mine) == 4 and sum(t.value == 0 for t in mine) == 1
    numbers = [t for t in track[1:] if t.value]
    assert len(numbers) == len(set(numbers)) == 36
    assert shuffled_layout(kit, random.Random(6)) != track  # the secret choice differs per game


def test_hr3_a_given_layout_must_be_a_possible_table():
    kit = load_kit()
    good = [str(t) for t in shuffled_layout(kit, random.Random(1))[1:]]
    assert check_layout(good, kit)[1:] == shuffled_layout(kit, random.Random(1))[1:]
    stage1, stage2 = good[:16], good[16:32]
    magic = next(i for i, t in enumerate(stage2) if t.endswith("magic"))
    number = next(i for i, t in enumerate(stage1) if t.split("-")[0] == stage2[magic].split("-")[0]
                  and not t.endswith("magic"))
    swapped = list(good)
    swapped[number], swapped[16 + magic] = stage2[magic], stage1[number]  # two magic tiles of one clan in stage 1
    with pytest.raises(IllegalAction) as err:
        check_layout(swapped, kit)
    assert err.value.rule == "HR-3" and "stage 1" in str(err.value)
    with pytest.raises(IllegalAction) as err:
        check_layout(good[:47] + ["purple-3"], kit)
    assert err.value.rule == "HR-2"


def test_hr3_reveal_offers_only_what_the_secret_choice_allows_in_that_stage():
    """Blue's magic tile of stage 1 and three blue numbers of stage 1 lie open: a stage-1 tile cannot be blue."""
    state = table(witches={"yellow-1": 2}, turn="yellow",
                  tiles={1: "blue-magic", 3: "blue-2", 6: "blue-3", 7: "blue-4", 20: "green-magic"})
    state, _ = play(state, roll(2), move("yellow-1"))
    options = prompt(state)[2]
    assert not [o for o in options if o["clan"] == "blue"]
    assert {"type": "reveal", "clan": "green", "value": "magic"} in options  # green's stage-2 magic is elsewhere
    assert len(options) == 3 * 10
    message = refused(state, reveal("blue-9"), "HR-3")
    assert "stage 1" in message


def test_hr4_witches_start_before_the_first_tile_and_the_finish_fields_score_2_3_4():
    view = GAME.view(table())
    assert {w["space"] for w in view["witches"]} == {0} and {w["where"] for w in view["witches"]} == {"start"}
    assert [(f["space"], f["points"]) for f in view["finish"]] == [(49, 2), (50, 3), (51, 4)]
    assert len(view["track"]) == 48 and all(t["tile"] is None for t in view["track"])


# ---------------------------------------------------------------------------------------------- moving


def test_hr5_the_roll_is_moved_in_full_by_one_own_witch_of_the_players_choice():
    state = table(witches={"blue-1": 5, "blue-2": 9}, tiles={8: "green-4", 12: "green-5"})
    state, events = play(state, roll(3))
    actor, phase, options = prompt(state)
    assert (actor, phase) == ("blue", "move")
    assert options == [{"type": "move", "witch": "blue-1", "to": 8}, {"type": "move", "witch": "blue-2", "to": 12},
                       {"type": "move", "witch": "blue-3", "to": 3}]  # the start witches are one choice
    refused(state, move("yellow-1"), "HR-5")
    state, events = play(state, move("blue-2"))
    assert at(state, "blue-2") == 12 and at(state, "blue-1") == 5
    assert of_type(events, "moved") == [{"type": "moved", "witch": "blue-2", "from": 9, "to": 12, "by": "die",
                                         "value": 3}]


def test_hr5_one_d6_face_per_roll():
    state = table()
    assert prompt(state)[2] == [{"type": "roll", "roll": 1}]
    refused(state, {"type": "roll", "dice": ["7"]}, "HR-5")
    refused(state, {"type": "roll", "dice": ["3", "4"]}, "HR-5")
    refused(state, {"type": "move", "witch": "blue-1"}, "HR-5")  # roll first
    assert GAME.die_faces == ("1", "2", "3", "4", "5", "6") and GAME.dice_set == "d6"


def test_hr5_a_single_possible_move_is_made_at_once():
    state = table(witches={"blue-1": 41, "blue-2": 46, "blue-3": 50}, tiles={46: "yellow-2"})
    state, events = play(state, roll(5))  # blue-1 would land on blue-2 and blue-3 is home: only blue-2 can go
    assert at(state, "blue-2") == 51 and of_type(events, "finished")[0]["points"] == 4
    assert prompt(state)[:2] == ("yellow", "roll")


def test_hr6_one_witch_per_space_the_landing_space_must_be_free():
    state = table(witches={"blue-1": 5, "blue-2": 6, "yellow-1": 8}, tiles={9: "green-2"})
    state, _ = play(state, roll(3))
    assert [o["witch"] for o in prompt(state)[2]] == ["blue-2", "blue-3"]  # blue-1 would land on yellow-1
    message = refused(state, move("blue-1"), "HR-6")
    assert "space 8 is occupied" in message


def test_hr6_the_finish_fields_hold_any_number_of_witches():
    state = table(witches={"blue-1": 47, "yellow-1": 49, "green-1": 49})
    state, _ = play(state, roll(2), move("blue-1"))
    assert at(state, "blue-1") == 49
    assert GAME.view(state)["finish"][0]["witches"] == ["blue-1", "yellow-1", "green-1"]


def test_hr7_overtaken_witches_count_as_spaces():
    state = table(witches={"blue-1": 5, "yellow-1": 6, "green-1": 7}, tiles={8: "orange-5"})
    state, _ = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 8


def test_hr7_from_the_start_occupied_spaces_are_not_counted():
    state = table(witches={"yellow-1": 1, "green-1": 2, "orange-1": 4}, tiles={5: "orange-5"})
    state, _ = play(state, roll(3))  # free spaces 3, 5 and 6: the third is 6
    assert at(state, "blue-1") == 6 and prompt(state)[1] == "reveal"


def test_hr8_no_witch_can_move_the_roll_so_the_player_passes():
    state = table(witches={"blue-1": 48, "blue-2": 50, "blue-3": 51})
    state, events = play(state, roll(4))
    assert of_type(events, "passed") == [{"type": "passed", "player": "blue", "die": 4}]
    assert prompt(state)[:2] == ("yellow", "roll") and at(state, "blue-1") == 48


# ---------------------------------------------------------------------------------------------- the tiles


def test_hr9_a_hidden_tile_is_revealed_on_landing_and_stays_revealed():
    state = table(witches={"blue-1": 5})
    state, _ = play(state, roll(2), move("blue-1"))
    actor, phase, options = prompt(state)
    assert (actor, phase) == ("blue", "reveal") and GAME.prompt(state).info["space"] == 7
    assert len(options) == 4 * 10  # every clan, 2..10 and magic
    state, events = play(state, reveal("green-7"))
    assert of_type(events, "revealed") == [{"type": "revealed", "space": 7, "clan": "green", "value": 7}]
    assert GAME.view(state)["track"][6] == {"space": 7, "stage": 1, "tile": {"clan": "green", "value": 7},
                                            "witch": "blue-1"}
    state, _ = play(state, roll(2), reveal("blue-5"))  # yellow's only choice: from the start to space 2
    assert tile(state, 7) == "green-7"


def test_hr9_a_number_tile_already_revealed_cannot_be_revealed_again():
    state = table(witches={"blue-1": 5}, tiles={30: "green-7"})
    state, _ = play(state, roll(2), move("blue-1"))
    assert {"type": "reveal", "clan": "green", "value": 7} not in prompt(state)[2]
    message = refused(state, reveal("green-7"), "HR-2")
    assert "space 30" in message


def test_hr9_a_game_with_a_layout_asks_only_for_the_true_tile():
    state = table(layout="shuffled")
    truth = state.truth
    state, _ = play(state, roll(4))
    assert prompt(state)[2] == [{"type": "reveal", "clan": truth[4].clan, "value": truth[4].value or "magic"}]
    wrong = next(t for t in ("blue-2", "blue-3") if t != str(truth[4]))
    refused(state, reveal(wrong), "HR-9")
    assert all(t["tile"] is None for t in GAME.view(state)["track"])  # the layout is never shown


def test_hr10_own_number_moves_on_and_the_next_tile_counts_too():
    state = table(witches={"blue-1": 5}, tiles={8: "blue-6", 14: "blue-2", 16: "yellow-9"})
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 16
    assert [(e["from"], e["to"], e["by"]) for e in of_type(events, "moved")] == [(5, 8, "die"), (8, 14, "tile"),
                                                                                 (14, 16, "tile")]


def test_hr10_own_number_onto_an_occupied_space_stays():
    state = table(witches={"blue-1": 5, "green-1": 14}, tiles={8: "blue-6"})
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 8
    assert of_type(events, "stays")[0]["rule"] == "HR-10"


def test_hr11_another_clans_number_ends_the_move():
    state = table(witches={"blue-1": 5}, tiles={8: "yellow-10"})
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 8 and of_type(events, "stays")[0]["rule"] == "HR-11"
    assert prompt(state)[:2] == ("yellow", "roll")


def test_hr12_own_magic_the_player_may_stay_or_play_a_card_forward():
    state = table(witches={"blue-1": 5, "green-1": 16}, tiles={8: "blue-magic", 20: "blue-magic"},
                  hands={"blue": ["magic", 4, 8, 10]})
    state, _ = play(state, roll(3), move("blue-1"))
    actor, phase, options = prompt(state)
    assert (actor, phase) == ("blue", "own_magic")
    assert options == [STAY, {"type": "play", "card": "magic", "witch": "blue-1", "to": 20},
                       {"type": "play", "card": 4, "witch": "blue-1", "to": 12},
                       {"type": "play", "card": 10, "witch": "blue-1", "to": 18}]  # 8 would land on green-1
    refused(state, card(8), "HR-12")
    stayed, events = play(state, STAY)
    assert at(stayed, "blue-1") == 8 and prompt(stayed)[:2] == ("yellow", "roll")


def test_hr12_a_number_card_forward_follows_the_tile_it_lands_on():
    state = table(witches={"blue-1": 5}, tiles={8: "blue-magic", 12: "blue-3", 15: "orange-2"},
                  hands={"blue": [4]})
    state, events = play(state, roll(3), move("blue-1"), card(4))
    assert at(state, "blue-1") == 15
    assert of_type(events, "card_played")[0] == {"type": "card_played", "player": "blue", "card": 4,
                                                 "witch": "blue-1", "direction": "forward", "forced": False,
                                                 "cards_left": 0}


def test_hr12_a_magic_card_goes_to_the_next_free_revealed_own_magic_tile_and_stops():
    state = table(witches={"blue-1": 5, "orange-1": 20}, hands={"blue": ["magic"]},
                  tiles={8: "blue-magic", 20: "blue-magic", 36: "blue-magic", 12: "yellow-magic"})
    state, events = play(state, roll(3), move("blue-1"), card("magic"))
    assert at(state, "blue-1") == 36  # past the yellow magic tile; 20 is occupied
    assert of_type(events, "stays")[0]["reason"] == "magic_ends_move"


def test_hr12_without_a_playable_card_the_witch_just_stays():
    state = table(witches={"blue-1": 5}, tiles={8: "blue-magic"}, hands={"blue": ["magic"]})  # no own magic ahead
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 8 and prompt(state)[:2] == ("yellow", "roll")
    assert of_type(events, "stays")[0]["rule"] == "HR-12"


def test_hr12_also_when_a_card_sends_the_witch_back_onto_its_own_magic_tile():
    state = table(witches={"blue-1": 14}, hands={"yellow": [6], "blue": [2]},
                  tiles={17: "yellow-magic", 11: "blue-magic", 13: "orange-5"})
    state, _ = play(state, roll(3), move("blue-1"), card(6))
    assert prompt(state) == ("blue", "own_magic", [STAY, {"type": "play", "card": 2, "witch": "blue-1", "to": 13}])
    state, events = play(state, card(2))
    assert at(state, "blue-1") == 13 and of_type(events, "chain_end")[0]["net"] == -1


def test_hr13_foreign_magic_the_tiles_owner_decides():
    state = table(witches={"blue-1": 14, "orange-1": 10}, hands={"yellow": ["magic", 4, 9]},
                  tiles={17: "yellow-magic", 12: "yellow-magic", 8: "green-2"})
    state, _ = play(state, roll(3), move("blue-1"))
    actor, phase, options = prompt(state)
    assert (actor, phase) == ("yellow", "foreign_magic")
    assert options == [STAY, {"type": "play", "card": "magic", "witch": "blue-1", "to": 12},
                       {"type": "play", "card": 4, "witch": "blue-1", "to": 13},
                       {"type": "play", "card": 9, "witch": "blue-1", "to": 8}]
    back, events = play(state, card("magic"))
    assert at(back, "blue-1") == 12 and prompt(back)[:2] == ("yellow", "roll")
    kept, _ = play(state, STAY)
    assert at(kept, "blue-1") == 17 and cards_of(kept, "yellow") == ["magic", 4, 9]


def test_hr13_a_number_card_back_needs_a_free_space_and_not_behind_the_first_tile():
    state = table(witches={"blue-1": 2, "orange-1": 3}, hands={"yellow": [2, 4, 5]},
                  tiles={5: "yellow-magic"})
    state, _ = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 5
    assert [o.get("card") for o in prompt(state)[2]] == [None, 4]  # 2 -> occupied 3, 5 -> before the start
    assert "behind the first tile" in refused(state, card(5), "HR-13")
    assert "occupied" in refused(state, card(2), "HR-13")


def test_hr13_a_magic_card_back_needs_a_revealed_free_tile_with_that_sign():
    state = table(witches={"blue-1": 14, "green-1": 6}, hands={"yellow": ["magic"]},
                  tiles={17: "yellow-magic", 6: "yellow-magic"})
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 17 and prompt(state)[:2] == ("yellow", "roll")  # nothing yellow could play
    assert of_type(events, "stays")[0]["rule"] == "HR-13"


def test_hr14_the_tile_under_a_card_move_counts_like_any_other():
    state = table(witches={"blue-1": 14}, hands={"yellow": [6]}, tiles={17: "yellow-magic", 11: "blue-9"})
    state, events = play(state, roll(3), move("blue-1"), card(6))
    assert at(state, "blue-1") == 20 and prompt(state)[1] == "reveal"  # back 6 onto its own 9: on to 20
    state, events = play(state, reveal("green-3"))
    assert of_type(events, "chain_end")[0] == {"type": "chain_end", "witch": "blue-1", "from": 14, "to": 20,
                                               "net": 6, "steps": 3}


def test_hr15_a_played_card_is_gone_for_good():
    state = table(witches={"blue-1": 14, "blue-2": 30}, hands={"yellow": [3, "magic"]},
                  tiles={17: "yellow-magic", 33: "yellow-magic", 14: "green-2"})
    state, _ = play(state, roll(3), move("blue-1"), card(3))
    assert cards_of(state, "yellow") == ["magic"] and GAME.view(state)["players"][1]["cards_left"] == 1
    state = state._replace(turn=0)  # blue again, for brevity
    state, _ = play(state, roll(3), move("blue-2"))
    assert prompt(state) == ("yellow", "foreign_magic", [STAY, {"type": "play", "card": "magic", "witch": "blue-2",
                                                                "to": 17}])
    refused(state, card(3), "HR-15")


def test_hr15_a_card_not_in_hand_is_refused():
    state = table(witches={"blue-1": 14}, hands={"yellow": [2, 9]}, tiles={17: "yellow-magic"})
    state, _ = play(state, roll(3), move("blue-1"))
    message = refused(state, card(7), "HR-15")
    assert "[2, 9]" in message


def test_hr16_sent_back_by_a_number_card_onto_foreign_magic_the_owner_must_play():
    state = table(witches={"blue-1": 20}, hands={"yellow": [5], "green": [4, "magic"]},
                  tiles={23: "yellow-magic", 18: "green-magic", 14: "orange-9"})
    state, _ = play(state, roll(3), move("blue-1"), card(5))
    actor, phase, options = prompt(state)
    assert (actor, phase, at(state, "blue-1")) == ("green", "foreign_magic", 18)
    assert options == [{"type": "play", "card": 4, "witch": "blue-1", "to": 14}]  # no stay; no green magic behind
    refused(state, STAY, "HR-16")
    state, events = play(state, card(4))
    assert at(state, "blue-1") == 14 and of_type(events, "card_played")[0]["forced"] is True


def test_hr16_the_forced_owner_without_a_playable_card_lets_it_stay():
    state = table(witches={"blue-1": 20, "orange-1": 14}, hands={"yellow": [5], "green": [4]},
                  tiles={23: "yellow-magic", 18: "green-magic"})
    state, events = play(state, roll(3), move("blue-1"), card(5))
    assert at(state, "blue-1") == 18 and prompt(state)[:2] == ("yellow", "roll")


def test_hr16_no_forced_card_after_a_die_or_a_tile():
    state = table(witches={"blue-1": 20}, hands={"green": [4]}, tiles={21: "green-magic", 22: "blue-3",
                                                                     25: "green-magic"})
    landed, _ = play(state, roll(1), move("blue-1"))  # a die onto green's magic: green may let it stay
    assert prompt(landed)[1:] == ("foreign_magic", [STAY, {"type": "play", "card": 4, "witch": "blue-1", "to": 17}])
    landed, _ = play(state, roll(2), move("blue-1"))  # its own 3 onto green's magic: green may let it stay
    assert at(landed, "blue-1") == 25 and STAY in prompt(landed)[2]


# ---------------------------------------------------------------------------------------------- finish and end


def test_hr17_the_finish_is_reached_exactly_and_a_finished_witch_stays():
    state = table(witches={"blue-1": 46, "blue-2": 49, "blue-3": 30}, tiles={36: "orange-2"})
    state, _ = play(state, roll(6))  # 46 + 6 = 52 is beyond the 4-point field; blue-2 stays in the finish
    assert at(state, "blue-3") == 36 and at(state, "blue-1") == 46
    state, _ = play(table(witches={"blue-1": 47, "blue-2": 30, "blue-3": 20}), roll(5))
    assert "beyond" in refused(state, move("blue-1"), "HR-17")
    state, _ = play(table(witches={"blue-1": 49, "blue-2": 30, "blue-3": 20}), roll(5))
    assert "in the finish" in refused(state, move("blue-1"), "HR-17")


def test_hr17_a_number_card_or_tile_may_not_overshoot_the_finish():
    state = table(witches={"blue-1": 42}, tiles={45: "blue-magic"}, hands={"blue": [5, 6, 7]})
    state, _ = play(state, roll(3), move("blue-1"))
    assert [o.get("to") for o in prompt(state)[2]] == [None, 50, 51]
    assert "beyond" in refused(state, card(7), "HR-17")
    state, events = play(state, card(6))
    assert at(state, "blue-1") == 51 and of_type(events, "finished")[0]["points"] == 4
    state = table(witches={"blue-1": 42}, tiles={45: "blue-8"})
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 45 and of_type(events, "stays")[0]["rule"] == "HR-17"
    state = table(witches={"blue-1": 42}, tiles={45: "blue-5"})
    state, events = play(state, roll(3), move("blue-1"))  # a tile reaching a finish field exactly brings it home
    assert at(state, "blue-1") == 50 and of_type(events, "finished")[0]["points"] == 3


def test_hr18_the_game_ends_at_once_when_a_player_has_all_three_witches_home():
    state = table(witches={"blue-1": 49, "blue-2": 51, "blue-3": 47, "yellow-1": 50, "yellow-2": 51,
                           "green-1": 46})
    state, events = play(state, roll(3))
    assert GAME.is_over(state) and prompt(state) == (None, "over", [])
    assert of_type(events, "game_over") == [{"type": "game_over", "winners": ["blue"],
                                             "scores": {"blue": 9, "yellow": 7, "green": 0, "orange": 0}}]
    refused(state, roll(2), "HR-18")


def test_hr19_points_of_the_finish_fields_and_a_tie_is_shared():
    state = table(witches={"blue-1": 49, "blue-2": 49, "blue-3": 48, "yellow-1": 51})
    state, _ = play(state, roll(1))
    assert GAME.view(state)["scores"] == {"blue": 6, "yellow": 4, "green": 0, "orange": 0}
    state = table(witches={"blue-1": 49, "blue-2": 49, "blue-3": 48, "yellow-1": 51, "yellow-2": 49})
    state, _ = play(state, roll(1))
    assert GAME.view(state)["winners"] == ["blue", "yellow"]


# ---------------------------------------------------------------------------------------------- neutral colours


def test_hr20_with_two_or_three_players_the_other_colours_are_neutral_with_a_face_down_pile():
    view = GAME.view(table(players=["blue", "yellow", "green"]))
    assert view["neutrals"] == [{"clan": "orange", "pile_left": 12}]
    view = GAME.view(table(players=["blue", "yellow"]))
    assert [n["clan"] for n in view["neutrals"]] == ["orange", "green"]
    assert {w["clan"] for w in view["witches"]} == {"blue", "yellow"}


def test_hr20_a_neutral_magic_tile_draws_the_top_card_and_carries_it_out():
    state = table(players=["blue", "yellow"], witches={"blue-1": 14}, tiles={17: "green-magic", 10: "yellow-8"})
    state, events = play(state, roll(3), move("blue-1"))
    actor, phase, options = prompt(state)
    assert (actor, phase) == ("blue", "draw") and len(options) == 10  # the table tells which card came up
    state, events = play(state, draw(7))
    assert at(state, "blue-1") == 10
    assert of_type(events, "drawn")[0] == {"type": "drawn", "clan": "green", "card": 7, "witch": "blue-1",
                                           "ignored": False, "pile_left": 11}
    assert 7 not in state.piles[1] and GAME.view(state)["neutrals"][1]["pile_left"] == 11


def test_hr20_a_drawn_card_that_cannot_be_carried_out_is_discarded_anyway():
    state = table(players=["blue", "yellow"], witches={"blue-1": 14, "yellow-1": 10},
                  tiles={17: "green-magic"})
    state, _ = play(state, roll(3), move("blue-1"))
    state, events = play(state, draw(7))
    assert at(state, "blue-1") == 17 and of_type(events, "drawn")[0]["ignored"] is True
    assert GAME.view(state)["neutrals"][1]["pile_left"] == 11 and prompt(state)[:2] == ("yellow", "roll")


def test_hr20_a_known_pile_offers_only_its_top_card_and_a_drawn_number_forces_the_next_owner():
    state = table(players=["blue", "yellow"], witches={"blue-1": 14}, tiles={17: "green-magic", 10: "yellow-magic"},
                  piles={"orange": list(range(2, 11)) + ["magic"] * 3, "green": [7] + list(range(2, 7)) +
                         list(range(8, 11)) + ["magic"] * 3}, hands={"yellow": [3]})
    state, _ = play(state, roll(3), move("blue-1"))
    assert prompt(state)[2] == [{"type": "draw", "card": 7}]
    refused(state, draw(2), "HR-20")
    state, events = play(state, draw(7))
    actor, phase, options = prompt(state)
    assert (actor, phase, at(state, "blue-1")) == ("yellow", "foreign_magic", 10)
    assert options == [{"type": "play", "card": 3, "witch": "blue-1", "to": 7}]  # HR-16 after a drawn number


def test_hr20_an_empty_neutral_pile_does_nothing():
    state = table(players=["blue", "yellow"], witches={"blue-1": 14}, tiles={17: "green-magic"})
    state = state._replace(piles=(state.piles[0], ()))
    state, events = play(state, roll(3), move("blue-1"))
    assert at(state, "blue-1") == 17 and of_type(events, "stays")[0]["rule"] == "HR-20"


def test_every_phase_declares_what_comes_next():
    """The flow is data: no handler sets the phase itself (``Phase.next`` is never left to it)."""
    for name, phase in PHASES.items():
        assert phase.handler is None or phase.next is not None, name
        assert callable(phase.next) or phase.next is None or phase.next in PHASES, name

