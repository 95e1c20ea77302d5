"""Cubitos phase-5 abilities as positions, named by the spec's example and scenario ids (RULES.md §17-18)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import IllegalAction
from companion.games.cubitos.abilities import sword_gate
from companion.games.cubitos.race_section import rest_all
from tests.games.cubitos_positions import (
    THREE,
    TWO,
    active,
    begin,
    dice_of,
    line_track,
    options,
    play,
    race_phase,
    step,
    support,
    with_cards,
    with_player,
)

FOUR = {"players": [{"name": n, "colour": c} for n, c in
                    (("Ada", "blue"), ("Bo", "red"), ("Cy", "yellow"), ("Di", "white"))]}


def use(state, ability, **choice):
    """The listed option using ``ability`` (with ``choice``'s fields), applied."""
    matching = [o for o in options(state) if o.get("ability") == ability
                and all(o.get(k) == v for k, v in choice.items())]
    assert matching, (ability, choice, options(state))
    return play(state, matching[0])


def test_e3_obatzda_special_gives_a_step_per_four_active_dice():
    state = with_cards(begin(TWO), "obatzda")
    taken: set[int] = set()
    dice = active(state, "yellow/special", *["grey_light/blank"] * 9, taken=taken)
    ten = support(state, active=dice)
    ten, _ = use(ten, "obatzda.2")
    assert ten.players[0].steps == 2
    seven = support(state, active=dice[:7])
    seven, _ = use(seven, "obatzda.2")
    assert seven.players[0].steps == 1


def test_obatzda_special_needs_the_special_symbol():
    state = with_cards(begin(TWO), "obatzda")
    state = support(state, active=active(state, "yellow/team", "grey_light/blank"))
    assert not [o for o in options(state) if o.get("ability") == "obatzda.2"]


def test_e4_pronto_bronto_gives_two_steps_per_three_red_lines_to_the_finish():
    state = with_cards(begin(TWO), "pronto_bronto")
    track = state.table.segments[0]
    space = next(s for s, sp in track.spaces.items() if track.red_lines_per_lap - sp.red_lines_passed == 14)
    state = support(state, active=active(state, "purple/team"), space=space)
    state, _ = use(state, "pronto_bronto.1")
    assert state.players[0].steps == 8


def test_e14_pronto_bronto_counts_the_lines_of_the_current_lap_only():
    state = with_cards(begin(TWO), "pronto_bronto")
    track = state.table.segments[0]
    space = next(s for s, sp in track.spaces.items() if sp.red_lines_passed == 9)
    state = support(state, active=active(state, "purple/team"), space=space, laps=0)
    state = state._replace(table=replace(state.table, laps=2))
    state, _ = use(state, "pronto_bronto.1")
    assert state.players[0].steps == 4


def test_pronto_bronto_does_nothing_in_a_tie_round():
    state = with_cards(begin(TWO), "pronto_bronto")
    state = support(state, active=active(state, "purple/team"))._replace(tiebreak=True)
    state, _ = use(state, "pronto_bronto.1")
    assert state.players[0].steps == 0


def test_e5_two_daisy_mooshammer_repeat_the_grey_yield_twice_and_go_back_to_the_stock():
    state = with_cards(begin(TWO), "daisy_mooshammer")
    dice = active(state, "brown/team", "brown/team", "grey_light/coin1", "grey_light/coin1", "grey_dark/step1")
    state = support(state, active=dice, coins=2, steps=1)  # the plain faces, collected
    brown_in_stock = sum(state.table.types[d] == "brown" for d in state.stock)
    state, _ = use(state, "daisy_mooshammer.1")
    state, _ = use(state, "daisy_mooshammer.1")
    ada = state.players[0]
    assert (ada.coins, ada.steps) == (6, 3)
    assert sum(state.table.types[d] == "brown" for d in state.stock) == brown_in_stock + 2


def test_e8_garfield_with_four_players_takes_the_last_dark_grey_dice():
    state = with_cards(begin(FOUR), "garfield")
    state = support(state, active=active(state, "white/team"))
    state, _ = use(state, "garfield.1", take="grey_dark")
    grey = [state.table.types[d] for d in state.stock if state.table.types[d].startswith("grey")]
    ada = state.players[0]
    assert (ada.coins, ada.steps, grey.count("grey_dark")) == (1, 3, 3)
    assert state.table.types[ada.rest[-1]] == "grey_dark"


def test_e8_garfield_with_an_empty_grey_stock_still_gives_the_coin_and_steps():
    state = with_cards(begin(FOUR), "garfield")
    state = state._replace(stock=frozenset(d for d in state.stock if not state.table.types[d].startswith("grey")))
    state = support(state, active=active(state, "white/team"))
    assert [o for o in options(state) if o.get("ability") == "garfield.1"] == [
        {"type": "ability", "ability": "garfield.1", "die": "white", "face": "team"}]
    state, _ = use(state, "garfield.1")
    assert (state.players[0].coins, state.players[0].steps) == (1, 3)


@pytest.mark.parametrize(("also", "coins"), [(("brown/team", "green/blank"), 5), (("brown/blank",), 2), ((), 0)])
def test_e12_ted_the_cat_pays_for_active_brown_and_green_dice(also, coins):
    state = with_cards(begin(TWO), "ted_the_cat")
    state = support(state, steps=1, active=active(state, "white/team", *also))  # a step keeps the round in phase 6
    state, _ = use(state, "ted_the_cat.1")
    assert state.players[0].coins == coins


def test_s13_the_most_swords_tie_goes_to_lead_order_or_to_nobody():
    state = begin(THREE)
    for p, swords in enumerate((2, 2, 1)):
        state = with_player(state, p, swords=swords)
    gate = {"swords": "most"}
    assert [sword_gate(state, p, gate, "nase_vorn") for p in range(3)] == [True, False, False]
    assert [sword_gate(state, p, gate, "nobody") for p in range(3)] == [False, False, False]
    zero = begin(THREE)
    assert not any(sword_gate(zero, p, gate, "nase_vorn") for p in range(3))
    c_leads = state._replace(lead=2)
    assert [sword_gate(c_leads, p, gate, "nase_vorn") for p in range(3)] == [True, False, False]


def test_s14_katrin_gives_a_credit_per_player_with_fewer_swords():
    state = with_cards(begin(FOUR), "katrin")
    for p, swords in enumerate((3, 1, 0, 1)):
        state = with_player(state, p, swords=swords, done_rolling=True)
    credits = []
    for p in range(4):
        turn = state._replace(phase="support", current=p)
        uses = [o for o in options(turn) if o.get("ability") == "katrin.2"]
        if uses:
            turn, _ = play(turn, uses[0])
        credits.append(turn.players[p].credits)
    assert credits == [3, 1, 0, 1]


def test_a_sword_gated_ability_is_used_once_a_round():
    state = with_cards(begin(TWO), "katrin")
    state = support(state, swords=2)
    state, _ = use(state, "katrin.2")
    assert not [o for o in options(state) if o.get("ability") == "katrin.2"]


def test_s25_lieber_o_and_king_kaes_let_the_player_choose():
    state = with_cards(begin(TWO), "lieber_o", "king_kaes")
    dice = active(state, "orange/team", "yellow/team")
    five = support(state, active=dice, fans=5)
    coins, _ = use(five, "lieber_o.1", choice=0)
    credits, _ = use(five, "lieber_o.1", choice=1)
    assert (coins.players[0].coins, credits.players[0].credits) == (2, 2)
    one, _ = use(five, "king_kaes.1", choice=1)
    assert one.players[0].steps == 2
    low = support(state, active=dice, fans=1)
    low, _ = use(low, "king_kaes.1", choice=1)
    assert low.players[0].steps == 0


def test_s26_taktopterix_counts_distinct_colours_grey_once_and_the_lead_die_as_black():
    state = with_cards(begin(TWO), "taktopterix")
    dice = active(state, "grey_light/blank", "grey_dark/blank", "purple/team", "red/blank", "lead/blank")
    state = support(state, active=dice, ready=())
    state, _ = use(state, "taktopterix.1")
    assert state.players[0].steps == 4


@pytest.mark.parametrize("fans", [0, 4])
def test_s30_snowball_takes_a_die_costing_at_most_the_fans(fans):
    state = with_cards(begin(TWO), "snowball")
    state = support(state, active=active(state, "white/team"), fans=fans)
    takes = {o["take"] for o in options(state) if o.get("ability") == "snowball.1"}
    in_stock = {state.table.types[d] for d in state.stock}
    assert takes == {k for k in in_stock if state.table.cost(k) is not None and state.table.cost(k) <= fans}
    assert {"grey_light", "grey_dark"} <= takes
    if fans == 4:
        assert "red" in takes and "blue" not in takes  # the reference costs: red 4, blue 6


def test_alexander_g_bell_is_mandatory_and_gives_itself_back():
    state = with_cards(begin(TWO), "alexander_g_bell")
    state = support(state, active=active(state, "brown/team", "white/blank", "red/blank"))
    assert {"type": "done"} not in options(state)
    state, events = use(state, "alexander_g_bell.1")
    ada = state.players[0]
    assert (ada.credits, ada.fans, ada.gave_back) == (2, 1, True)
    assert all(state.table.types[d] != "brown" for d, _ in ada.active)


def test_an_ability_is_used_once_per_activation():
    state = with_cards(begin(TWO), "dalai")
    state = support(state, active=active(state, "blue/team", "grey_light/blank"))
    state, _ = use(state, "dalai.1")
    with pytest.raises(IllegalAction):
        play(state, {"type": "ability", "ability": "dalai.1", "die": "blue", "face": "team"})
    state, _ = use(state, "dalai.2")
    assert (state.players[0].coins, state.players[0].steps, state.players[0].water) == (3, 1, 1)


def test_phase_5_asks_only_a_player_with_an_ability_to_use():
    state = with_cards(begin(TWO), "dalai")
    taken: set[int] = set()
    state = with_player(state, 1, active=active(state, "blue/team", taken=taken), done_rolling=True)
    state = with_player(state, 0, active=active(state, "grey_light/coin1", taken=taken), ready=(), refilled=True)
    state = state._replace(phase="choice", current=0)
    state, events = play(state, {"type": "pass"})
    assert (state.phase, state.current) == ("support", 1)
    assert [e["coins"] for e in events if e["type"] == "support"] == [1, 0]


def test_phase_5_asks_a_player_whose_ability_may_be_used_any_time():
    state = with_cards(begin(TWO), "wadenbeisser")
    taken: set[int] = set()
    state = with_player(state, 1, active=active(state, "orange/team", taken=taken), done_rolling=True,
                        ready=tuple(dice_of(state, "grey_light", 1, taken=taken)))
    state = with_player(state, 0, ready=(), refilled=True)._replace(phase="choice", current=0)
    state, _ = play(state, {"type": "pass"})
    assert (state.phase, state.current) == ("support", 1)
    assert any(o.get("ability") == "wadenbeisser.1" for o in options(state))


def test_cu37_an_ability_that_empties_the_ready_zone_before_the_choice_leaves_a_pass():
    state = with_cards(others_done(begin(TWO)), "wadenbeisser")
    taken: set[int] = set()
    state = with_player(state, 0, active=active(state, "orange/team", taken=taken), refilled=True,
                        ready=tuple(dice_of(state, "grey_light", 1, taken=taken)))._replace(phase="choice", current=0)
    state, events = use(state, "wadenbeisser.1", pick=["grey_light", "coin1"])
    kinds = [e["type"] for e in events]
    assert kinds.index("must_pass") < kinds.index("passed") < kinds.index("race_section")


# ------------------------------------------------------------------------------------------------------ roll section


def rolling(state, p=0, **changes):
    """Player ``p`` deciding to push or pass after a roll (their first roll made)."""
    return with_player(state, p, refilled=True, **changes)._replace(phase="choice", current=p)


def push_roll(state, dice):
    """Push, go past the push-time abilities, and roll ``dice`` (the ready zone's, in order)."""
    state, events = play(state, {"type": "push"})
    if state.phase == "push":
        state, more = play(state, {"type": "go"})
        events += more
    state = state._replace(current=0, phase="roll")  # the other player has finished rolling
    more_state, more = play(state, {"type": "roll", "roll": len(dice), "dice": dice})
    return more_state, events + more


def others_done(state):
    for k in range(1, len(state.players)):
        state = with_player(state, k, done_rolling=True)
    return state


def test_s3_danger_stays_when_einer_geht_noch_leaves_the_active_zone():
    state = with_cards(others_done(begin(TWO)), "einer_geht_noch")
    dice = active(state, "green/team", "grey_light/coin1", "grey_dark/step1")
    ready = tuple(state.players[0].draw[:3])
    state = rolling(state, active=dice, danger=True, ready=ready, draw=state.players[0].draw[3:])
    state, _ = play(state, {"type": "push"})
    state, _ = use(state, "einer_geht_noch.1")
    assert len(state.players[0].active) == 2 and state.players[0].danger
    roll = ["grey_light/blank"] * 3 + ["green/blank"]
    state = state._replace(current=0, phase="roll")
    state, events = play(state, {"type": "roll", "roll": 4, "dice": roll})
    assert any(e["type"] == "bust" for e in events)


def test_s8_with_an_empty_ready_zone_the_player_must_pass_even_with_einer_geht_noch():
    state = with_cards(others_done(begin(TWO)), "einer_geht_noch")
    state = with_player(state, 0, active=active(state, "green/team"))
    state = state._replace(phase="roll", current=0)
    draw = state.players[0].draw
    roll = [f"{state.table.types[d]}/{'coin1'}" for d in draw] + ["lead/coin2"]
    state, events = play(state, {"type": "roll", "roll": 10, "dice": roll})
    assert any(e["type"] == "must_pass" for e in events) and state.players[0].done_rolling


def test_s9_pina_cubelada_prevents_the_bust_and_maasdamer_steps_at_once_without_a_bonus():
    track = line_track("S - a - b(credits 2) - c - F")
    state = with_cards(others_done(begin(TWO, track=track)), "pina_cubelada", "mutiger_maasdamer")
    dice = active(state, "green/team", "yellow/team", "grey_light/coin1")
    ready = tuple(state.players[0].draw[:2])
    state = rolling(state, active=dice, danger=True, ready=ready, draw=state.players[0].draw[2:], space="a")
    state, _ = play(state, {"type": "push"})
    state, _ = use(state, "pina_cubelada.1")
    state = state._replace(current=0, phase="roll")
    state, events = play(state, {"type": "roll", "roll": 2, "dice": ["grey_light/blank"] * 2})
    assert not any(e["type"] == "bust" for e in events) and state.phase == "event"
    state, _ = use(state, "mutiger_maasdamer.1", to="b")
    ada = state.players[0]
    assert (ada.space, ada.credits, ada.steps) == ("b", 0, 0) and state.phase == "choice"


def test_s10_cubela_libre_ignores_one_bust_and_the_danger_stays():
    state = with_cards(others_done(begin(TWO)), "cubela_libre")
    dice = active(state, "green/team", "grey_light/coin1", "grey_dark/step1")
    ready = tuple(state.players[0].draw[:4])
    state = rolling(state, active=dice, danger=True, ready=ready, draw=state.players[0].draw[4:])
    green_in_stock = sum(state.table.types[d] == "green" for d in state.stock)
    state, _ = push_roll(state, ["grey_light/blank"] * 4)
    assert state.phase == "busting"
    state, events = use(state, "cubela_libre.1")
    assert state.phase == "choice" and state.players[0].danger and not state.players[0].busted
    assert sum(state.table.types[d] == "green" for d in state.stock) == green_in_stock + 1
    state, events = push_roll(state, ["grey_light/blank"] * 4)
    assert any(e["type"] == "bust" for e in events)


def test_s12_bar_bar_through_its_special_face_must_also_move_another_die():
    state = with_cards(others_done(begin(TWO)), "bar_bar")
    dice = active(state, "green/special", "grey_light/coin1")
    state = rolling(state, active=dice, ready=tuple(state.players[0].draw[:2]), draw=state.players[0].draw[2:])
    state, _ = play(state, {"type": "push"})
    assert not [o for o in options(state) if o.get("ability") == "bar_bar.1" and "move" not in o]
    state, _ = use(state, "bar_bar.1", move=["grey_light", "coin1"])
    assert not state.players[0].active and len(state.players[0].ready) == 4


def test_s12_bar_bar_special_alone_leaves_bar_bar_active():
    state = with_cards(others_done(begin(TWO)), "bar_bar")
    dice = active(state, "green/special", "grey_light/coin1")
    state = rolling(state, active=dice, ready=tuple(state.players[0].draw[:2]), draw=state.players[0].draw[2:])
    state, _ = play(state, {"type": "push"})
    state, _ = use(state, "bar_bar.2", move=["grey_light", "coin1"])
    assert [state.table.types[d] for d, _ in state.players[0].active] == ["green"]


def test_e9_kaesehaeppchen_placed_owes_one_push_and_a_later_one_another():
    state = with_cards(others_done(begin(TWO)), "kaesehaeppchen")
    yellow = dice_of(state, "yellow", 3)
    state = with_player(state, 0, draw=tuple(yellow) + state.players[0].draw[:6], rest=state.players[0].draw[6:])
    state = state._replace(phase="roll", current=0)
    roll = ["yellow/team", "yellow/team", "yellow/blank"] + ["grey_light/blank"] * 6 + ["lead/blank"]
    state, events = play(state, {"type": "roll", "roll": 10, "dice": roll})
    assert options(state) == [{"type": "push"}]
    with pytest.raises(IllegalAction, match="CU-110"):  # the push owed, not push-or-pass
        play(state, {"type": "pass"})
    state, _ = push_roll(state, ["yellow/blank"] + ["grey_light/blank"] * 6 + ["lead/blank"])
    assert {"type": "pass"} in options(state)
    again = state._replace(phase="choice")
    again, _ = push_roll(again, ["yellow/team"] + ["grey_light/blank"] * 6 + ["lead/blank"])
    assert options(again) == [{"type": "push"}]


def test_s33_punk_grapefruit_keeps_the_green_and_grey_dice_active_through_a_bust():
    state = with_cards(others_done(begin(TWO)), "punk_grapefruit")
    dice = active(state, "green/team", "green/blank", "grey_light/coin1", "grey_dark/step1", "red/team")
    state = rolling(state, active=dice, danger=True, ready=tuple(state.players[0].draw[:2]),
                    draw=state.players[0].draw[2:])
    state, _ = push_roll(state, ["grey_light/blank"] * 2)
    state, _ = use(state, "punk_grapefruit.1")  # no reaction left: the bust goes on at once
    assert state.phase == "bust"
    ada = state.players[0]
    assert sorted(state.table.types[d] for d, _ in ada.active) == ["green", "green", "grey_dark", "grey_light"]
    assert state.table.types[ada.rest[-1]] == "red" and ada.busted


# ------------------------------------------------------------------------------------------------------ by hand


def test_cu89_an_ability_the_book_does_not_describe_is_resolved_by_hand_and_logged():
    state = with_cards(begin(TWO), "tom")
    state = support(state, active=active(state, "white/team"))
    manual = {"type": "ability", "ability": "tom.1", "die": "white", "face": "team", "manual": True}
    assert manual in options(state)
    state, _ = play(state, manual)
    assert state.phase == "adjust" and {"type": "done"} in options(state)
    state, events = play(state, {"type": "adjust", "what": "coins", "by": 1, "manual": True},
                         {"type": "adjust", "die": "grey_light", "from": "draw", "to": "stock", "manual": True})
    assert [e["ability"] for e in events if e["type"] == "adjusted"] == ["tom.1", "tom.1"]
    assert state.players[0].coins == 1 and len(state.players[0].draw) == 8
    state, _ = play(state, {"type": "done"})
    assert state.phase != "adjust" and state.adjusting is None


def test_cu89_the_lead_die_is_never_put_into_the_stock_by_hand():
    state = with_cards(begin(TWO), "tom")
    state = support(state, active=active(state, "white/team"))
    state, _ = play(state, {"type": "ability", "ability": "tom.1", "die": "white", "face": "team", "manual": True})
    moves = [o for o in options(state) if o.get("die") == "lead"]
    assert moves and all(o["to"] not in ("stock", "draw") for o in moves)


def test_dieter_is_mandatory_for_the_most_swords_and_gives_back_a_red_die():
    state = with_cards(begin(TWO), "dieter")
    state = support(state, swords=2, steps=1, active=active(state, "red/team"))  # a step keeps the round going
    uses = [o for o in options(state) if o.get("ability") == "dieter.1"]
    assert uses and {"type": "done"} not in options(state)
    state, _ = play(state, uses[0])
    ada = state.players[0]
    assert ada.next_exclude == {"green", "white"} and not ada.active and ada.gave_back


# ------------------------------------------------------------------------------------------------------ race section


def test_s29_bob_takes_the_bonuses_of_a_space_one_or_two_away_through_water_but_not_its_own():
    track = line_track("S - a(credits 1) - b - W:water - c(take_die) - F")
    state = with_cards(begin(TWO, track=track), "bob")
    state = with_player(state, 1, done_rolling=True)
    state = race_phase(state, "move", space="a", steps=1, active=active(state, "blue/team"))
    state, _ = play(state, step("b"), {"type": "done"})
    assert state.phase == "end6"
    spaces = {o["space"] for o in options(state) if o.get("ability") == "bob.1"}
    assert spaces == {"a", "W", "S", "c"}  # two away through the water; never b itself
    credit, _ = use(state, "bob.1", space="a")
    assert credit.players[0].credits == 1
    die, _ = use(state, "bob.1", space="c")
    assert die.phase == "bonus" and {"type": "decline"} in options(die)


def test_s28_schlaegertyp_gives_back_a_die_before_phase_7_after_credits_were_taken():
    state = with_cards(begin(TWO), "schlaegertyp")
    state = with_player(state, 1, done_rolling=True)
    state = race_phase(state, "move", active=active(state, "orange/team"), took_credits=True, coins=9)  # to buy
    state = race_phase(state, "move", 1)
    state, _ = play(state, {"type": "done"})
    assert (state.phase, state.current) == ("before7", 0)
    assert {"type": "go"} not in options(state)
    before = len(state.stock)
    state, _ = use(state, "schlaegertyp.2", give=["draw", "grey_light"])
    assert state.phase == "buy" and len(state.stock) == before + 1
    clean = with_player(state._replace(phase="move", current=1), 0, took_credits=False)
    clean, _ = play(clean, {"type": "done"})
    assert clean.phase == "buy"


def test_e13_two_azrael_give_three_credits_each_after_a_die_was_given_back():
    state = with_cards(begin(TWO), "azrael")
    dice = active(state, "white/team", "white/team")
    given = support(state, active=dice, gave_back=True)
    given, _ = use(given, "azrael.2")
    given, _ = use(given, "azrael.2")
    assert given.players[0].credits == 6
    none = support(state, active=dice)
    assert not [o for o in options(none) if o.get("ability") == "azrael.2"]


def test_e11_mungojerrie_needs_two_active_dice_for_one_use():
    state = with_cards(begin(TWO), "mungojerrie")
    for count, uses in ((1, 0), (2, 1), (3, 1), (4, 2)):
        turn = support(state, active=active(state, *["white/team"] * count))
        used = 0
        while [o for o in options(turn) if o.get("ability") == "mungojerrie.1"]:
            turn, _ = use(turn, "mungojerrie.1", take="red", turn="team")
            used += 1
        assert used == uses, count


def test_s34_a_die_draftodon_borrows_goes_back_to_the_stock_at_the_round_end_wherever_it_is():
    state = with_cards(begin(TWO), "draftodon")
    state = support(state, active=active(state, "purple/team"))
    yellow = sum(state.table.types[d] == "yellow" for d in state.stock)
    assert not [o for o in options(state) if o.get("take") == "purple"]
    state, _ = use(state, "draftodon.1", take="yellow", turn="special")
    assert sum(state.table.types[d] == "yellow" for d in state.stock) == yellow - 1
    assert ("yellow", "special") in {(state.table.types[d], label) for d, label in state.players[0].active}
    state = rest_all(state, {}, [])
    assert sum(state.table.types[d] == "yellow" for d in state.stock) == yellow


def test_wadenbeisser_turns_a_ready_die_to_a_face_and_it_counts_for_danger():
    state = with_cards(others_done(begin(TWO)), "wadenbeisser")
    dice = active(state, "orange/team", "grey_light/coin1")
    state = rolling(state, active=dice, ready=tuple(state.players[0].draw[:2]), draw=state.players[0].draw[2:])
    state, events = use(state, "wadenbeisser.1", pick=["grey_light", "coin1"])
    ada = state.players[0]
    assert len(ada.active) == 3 and ada.danger and any(e["type"] == "danger" for e in events)


def test_e7_edward_with_one_red_die_gives_it_back_and_passes_another_die_to_the_fewest_swords():
    state = with_cards(begin(THREE), "edward")
    state = support(state, active=active(state, "red/team"), swords=2)
    state = with_player(state, 2, swords=1)
    uses = [o for o in options(state) if o.get("ability") == "edward.2"]
    assert uses and all(o["give"] == ["active", "red"] for o in uses)
    assert all(o["pass"] != ["active", "red"] and o["to"] == "red" for o in uses)
    state, _ = play(state, next(o for o in uses if o["pass"] == ["draw", "grey_dark"]))
    assert state.table.types[state.players[1].rest[-1]] == "grey_dark"
    assert not state.players[0].active


def test_s27_dieter_next_round_fills_the_limit_with_other_colours_and_green_and_white_may_come_along():
    state = others_done(begin(TWO))
    taken: set[int] = set()
    grey = dice_of(state, "grey_light", 10, taken=taken)
    green, white = dice_of(state, "green", 3, taken=taken), dice_of(state, "white", 2, taken=taken)
    state = with_player(state, 0, draw=tuple(grey[:6] + green + white), rest=tuple(grey[6:]), ready=(),
                        refill_exclude=frozenset({"green", "white"}))
    state = state._replace(phase="roll", current=0)
    assert [o["roll"] for o in options(state)] == list(range(9, 15))
    roll = ["grey_light/blank"] * 9 + ["green/blank", "white/blank"]
    state, events = play(state, {"type": "roll", "roll": 11, "dice": roll})
    ada = state.players[0]
    assert len(ada.ready) == 11 and len(ada.draw) == 4 and not ada.rest
    assert any(e["type"] == "recycled" for e in events)


def test_uppercut_uwe_next_round_takes_any_number_of_dice_from_any_zone():
    state = others_done(begin(TWO))
    player = state.players[0]
    state = with_player(state, 0, draw=player.draw[:4], rest=player.draw[4:], ready=(), refill_no_limit=True)
    state = state._replace(phase="roll", current=0)
    assert [o["roll"] for o in options(state)] == list(range(0, 10))
    state, _ = play(state, {"type": "roll", "roll": 9, "dice": ["grey_light/blank"] * 7 + ["grey_dark/blank"] * 2})
    assert len(state.players[0].ready) == 9 and not state.players[0].draw and not state.players[0].rest


# ------------------------------------------------------------------------------------------------------ added rolls


def test_e10_granatananas_chain_a_blank_rescue_lets_the_second_one_try_and_one_hit_ignores_the_bust():
    state = with_cards(others_done(begin(TWO)), "granatananas")
    player = state.players[0]
    greys = [d for d in player.draw if state.table.types[d] == "grey_light"]
    darks = tuple(d for d in player.draw if state.table.types[d] == "grey_dark")
    dice = active(state, "green/team", "green/team", "red/blank")
    state = rolling(state, active=dice, danger=True, ready=tuple(greys[:2]), rest=tuple(greys[2:5]),
                    draw=tuple(greys[5:]) + darks)
    state, _ = push_roll(state, ["grey_light/blank"] * 2)
    assert state.phase == "busting"
    uses = [o for o in options(state) if o.get("ability") == "granatananas.1"]
    state, _ = play(state, {**next(o for o in uses if o["roll"] == 3), "dice": ["grey_light/blank"] * 3})
    ada = state.players[0]
    assert state.phase == "busting" and not ada.rest and len(ada.ready) == 5  # the three from the rest zone
    uses = [o for o in options(state) if o.get("ability") == "granatananas.1"]
    state, events = play(state, {**next(o for o in uses if o["roll"] == 2), "dice": ["grey_light/coin1",
                                                                                      "grey_light/blank"]})
    ada = state.players[0]
    assert any(e["type"] == "bust_ignored" for e in events) and not ada.busted and ada.danger
    assert ("grey_light", "coin1") in {(state.table.types[d], label) for d, label in ada.active}
    assert state.phase == "choice"


def test_s11_obatzda_adds_a_die_from_the_draw_zone_recycling_the_rest_zone():
    state = with_cards(others_done(begin(TWO)), "obatzda")
    player = state.players[0]
    dice = active(state, "yellow/team")
    state = rolling(state, active=dice, ready=player.draw[:2], draw=(), rest=player.draw[2:7])
    state, _ = push_roll(state, ["grey_light/coin1", "grey_light/blank"])
    assert state.phase == "event"
    obatzda = next(o for o in options(state) if o.get("ability") == "obatzda.1")
    assert obatzda["roll"] == 1
    state, events = play(state, {**obatzda, "dice": ["grey_light/blank"]})
    ada = state.players[0]
    assert any(e["type"] == "recycled" for e in events)
    assert (len(ada.draw), len(ada.rest)) == (4, 0) and len(ada.ready) == 2


def test_s35_mahatma_rolls_the_ready_zone_twice_and_a_kaesehaeppchen_placed_then_owes_nothing():
    state = with_cards(begin(TWO), "mahatma", "kaesehaeppchen")
    yellow = dice_of(state, "yellow", 1)
    state = support(state, active=active(state, "blue/team"), ready=tuple(yellow) + state.players[0].draw[:3],
                    draw=state.players[0].draw[3:], steps=1)  # a step to take: the table waits in phase 6
    mahatma = next(o for o in options(state) if o.get("ability") == "mahatma.1")
    assert mahatma["roll"] == 4
    state, _ = play(state, {**mahatma, "dice": ["yellow/team", "grey_light/blank", "grey_light/blank",
                                                "grey_light/blank"]})
    assert state.phase == "again" and state.players[0].coins == 2
    assert options(state) == [{"type": "roll", "roll": 3}]
    state, _ = play(state, {"type": "roll", "roll": 3, "dice": ["grey_light/coin1"] * 3})
    ada = state.players[0]
    assert len(ada.active) == 5 and not ada.ready and not ada.must_push  # S-35: the owed push lapses at once
    assert (state.phase, state.current) == ("move", 0)


def test_lamalala_rolls_every_grey_and_white_die_of_the_ready_and_draw_zones():
    state = with_cards(begin(TWO), "lamalala")
    white = dice_of(state, "white", 1)
    state = support(state, active=active(state, "blue/team"), ready=tuple(white), draw=state.players[0].draw)
    lamalala = next(o for o in options(state) if o.get("ability") == "lamalala.1")
    assert lamalala["roll"] == 10
    with pytest.raises(IllegalAction, match="CU-86.*every die the ability names"):
        play(state, {**lamalala, "dice": ["grey_light/blank"] * 10})
    state, _ = play(state, {**lamalala, "dice": ["white/blank"] + ["grey_light/blank"] * 7 + ["grey_dark/step1"] * 2})
    assert len(state.players[0].ready) == 8 and not state.players[0].draw


def punk_grapefruit_after_a_bust():
    """Phase 5 after a bust, Punk Grapefruit active, two red dice and the grey ones in the draw zone; its second
    ability's options (S-33)."""
    state = with_cards(begin(TWO), "punk_grapefruit")
    red = dice_of(state, "red", 2)
    state = support(state, active=active(state, "green/team"), busted=True,
                    draw=tuple(red) + state.players[0].draw)
    return state, [o for o in options(state) if o.get("ability") == "punk_grapefruit.2"]


def test_s33_punk_grapefruit_second_rolls_dice_of_different_colours_after_a_bust():
    state, punk = punk_grapefruit_after_a_bust()
    assert [o["roll"] for o in punk] == [0, 1, 2, 3]  # red, grey and black (the lead die is in the ready zone)
    with pytest.raises(IllegalAction, match="CU-118"):
        play(state, {**punk[2], "dice": ["red/blank", "red/team"]})
    state, _ = play(state, {**punk[2], "dice": ["red/team", "grey_dark/blank"]})
    assert ("red", "team") in {(state.table.types[d], label) for d, label in state.players[0].active}


def test_an_added_roll_is_refused_when_it_shows_a_count_it_cannot_or_a_die_its_pool_lacks():
    state, punk = punk_grapefruit_after_a_bust()
    with pytest.raises(IllegalAction, match="CU-86.*shows 5 dice"):
        play(state, {**punk[2], "dice": ["red/team", "grey_dark/blank", "grey_light/blank", "black/blank",
                                         "yellow/team"]})
    with pytest.raises(IllegalAction, match="CU-86.*no yellow die"):  # different colours, but no yellow to take
        play(state, {**punk[2], "dice": ["red/team", "yellow/team"]})



def test_jacques_couteau_rolls_two_non_red_dice_per_player_with_fewer_swords():
    state = with_cards(begin(THREE), "jacques_couteau")
    state = support(state, swords=2)
    state = with_player(state, 1, swords=1)
    jacques = next(o for o in options(state) if o.get("ability") == "jacques_couteau.2")
    assert jacques["roll"] == 4


def test_s31_mutiger_maasdamer_moving_the_runner_in_the_roll_section_triggers_no_bonus_in_phase_6():
    track = line_track("S - a - b(credits 2) - c - F")
    state = with_cards(others_done(begin(TWO, track=track)), "mutiger_maasdamer")
    dice = active(state, "yellow/team")
    state = rolling(state, active=dice, ready=state.players[0].draw[:2], draw=state.players[0].draw[2:], space="a")
    state, _ = push_roll(state, ["grey_light/blank"] * 2)
    state, _ = use(state, "mutiger_maasdamer.1", to="b")
    state, events = play(state, {"type": "pass"})
    ended = {"type": "by_itself", "player": state.table.colours[0], "phase": "move", "action": "done"}
    while ended not in events:  # no step to take: phase 6 ends by itself, on b
        state, events = play(state, options(state)[0])
    assert state.players[0].space == "b" and state.players[0].credits == 0


def test_s22_rama_lama_on_the_last_fan_space_gives_nothing():
    state = with_cards(begin(TWO), "rama_lama")
    state = support(state, active=active(state, "blue/special"), fans=13)
    state, _ = use(state, "rama_lama.2")
    assert (state.players[0].fans, state.players[0].credits) == (13, 0)
