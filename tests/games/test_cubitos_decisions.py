"""Every Decision constant of the Cubitos rules changes what they do when flipped (RULES.md §15): each test shows
the table with the Decision as shipped, then flipped."""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import enter
from companion.games.cubitos import abilities, race_section, roll_section, state
from companion.games.cubitos.abilities import sword_gate
from companion.games.cubitos.race_section import rested
from companion.games.cubitos.rules import PHASES
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
    support,
    with_cards,
    with_player,
)


def test_cu26_red_lines_at_round_start(monkeypatch):
    track = line_track("S - a - b - c - F")
    table = begin(TWO, track=track)
    moved = with_player(table, 1, space="c")  # lines (0, 0) were taken when the round began
    assert state.draw_limit(moved, 0) == 9
    monkeypatch.setattr(state, "RED_LINES_AT_ROUND_START", False)
    assert state.draw_limit(moved, 0) == 9 + 3


def test_cu23_roll_order_counts_the_lead_die(monkeypatch):
    table = begin(TWO)
    lead = table.table.lead_die
    taken: set[int] = set()
    table = with_player(table, 0, ready=(lead, *dice_of(table, "grey_light", 8, taken=taken)), refilled=True)
    table = with_player(table, 1, ready=tuple(dice_of(table, "red", 9, taken=taken)), refilled=True)
    assert roll_section.next_roller(table) == 0  # 9 dice each, the tie to the lead player
    monkeypatch.setattr(roll_section, "ROLL_ORDER_COUNTS_LEAD_DIE", False)
    assert roll_section.next_roller(table) == 1


def test_cu23_roll_order_after_the_refill(monkeypatch):
    table = begin(TWO)
    table = with_player(table, 1, ready=tuple(dice_of(table, "grey_light", 5)))
    assert roll_section.next_roller(table) == 0  # 9 + the lead die against 9, once both filled up
    monkeypatch.setattr(roll_section, "ROLL_ORDER_AFTER_REFILL", False)
    assert roll_section.next_roller(table) == 1  # 1 against 5 before


def test_cu90_converting_is_not_taking(monkeypatch):
    table = race_phase(with_player(begin(TWO), 1, done_rolling=True), "buy", credits=1, coins=9)  # dice to buy
    assert not play(table, {"type": "convert"})[0].players[0].took_credits
    monkeypatch.setattr(race_section, "CONVERTING_IS_NOT_TAKING", False)
    assert play(table, {"type": "convert"})[0].players[0].took_credits


def test_cu62_start_special_after_purchases(monkeypatch):
    track = line_track("S - J - a - b - F", J={"type": "jet"})
    table = with_player(begin(TWO, track=track), 0, space="J", steps=3)
    started = enter(table._replace(current=0), "move_begin", PHASES, [])
    assert started.phase == "move_start" and started.players[0].steps == 3
    monkeypatch.setattr(race_section, "START_SPECIAL_AFTER_PURCHASES", False)
    started = enter(table._replace(current=0), "move_begin", PHASES, [])
    assert started.phase == "move" and started.players[0].steps == 6


def test_cu142_chain_transfer_cost(monkeypatch):
    first, second = line_track("S - a - F"), line_track("S - b - F")
    table = begin(TWO, track=first)
    table = table._replace(table=replace(table.table, segments=(first, second)))
    table = race_phase(table, "move", space="F", steps=2)
    assert play(table, {"type": "move", "path": ["next_track"]})[0].players[0].steps == 1
    monkeypatch.setattr(race_section, "CHAIN_TRANSFER_COST", 2)
    assert play(table, {"type": "move", "path": ["next_track"]})[0].players[0].steps == 0


def test_cu66_bonuses_may_be_declined(monkeypatch):
    table = race_phase(begin(TWO), "bonus")
    give, take = table._replace(bonuses=({"type": "give_back"},)), table._replace(bonuses=({"type": "take_die"},))
    assert {"type": "decline"} in options(give) and {"type": "decline"} in options(take)
    monkeypatch.setattr(race_section, "GIVE_BACK_BONUS_OPTIONAL", False)
    assert {"type": "decline"} not in options(give) and {"type": "decline"} in options(take)
    monkeypatch.setattr(race_section, "TAKE_DIE_BONUS_OPTIONAL", False)
    assert {"type": "decline"} not in options(take)


def test_cu48_buys_different(monkeypatch):
    table, _ = play(race_phase(begin(TWO), "buy", coins=30), {"type": "buy", "die": "red"})
    assert {"type": "buy", "die": "red"} not in options(table)
    monkeypatch.setattr(race_section, "BUYS_DIFFERENT", False)
    assert {"type": "buy", "die": "red"} in options(table)


def test_cu49_grey_buyable(monkeypatch):
    table = race_phase(begin(TWO), "buy", coins=30)
    assert {"type": "buy", "die": "grey_dark"} not in options(table)
    monkeypatch.setattr(race_section, "GREY_BUYABLE", True)
    assert {"type": "buy", "die": "grey_dark"} in options(table)


def test_cu50_steps_expire_at_round_end(monkeypatch):
    player = begin(TWO).players[0]._replace(steps=3, water=1, coins=2)
    assert (rested(player).steps, rested(player).water, rested(player).coins) == (0, 0, 0)
    monkeypatch.setattr(race_section, "STEPS_EXPIRE_AT_ROUND_END", False)
    assert (rested(player).steps, rested(player).water, rested(player).coins) == (3, 1, 0)


def test_cu148_tiebreak_only_tied(monkeypatch):
    track = line_track("S - a - b - F")
    table = begin(THREE, track=track)
    for p in (0, 1):
        table = with_player(table, p, reached=True, space="b")
    assert race_section.end(table, {}, []).racing == (0, 1)
    monkeypatch.setattr(race_section, "TIEBREAK_ONLY_TIED", False)
    assert race_section.end(table, {}, []).racing == (0, 1, 2)


def test_cu45_swords_most_needs_one(monkeypatch):
    table = support(begin(THREE))
    gate = {"swords": "most"}
    assert not any(sword_gate(table, p, gate, "nase_vorn") for p in range(3))
    monkeypatch.setattr(abilities, "SWORDS_MOST_NEEDS_ONE", False)
    assert [sword_gate(table, p, gate, "nase_vorn") for p in range(3)] == [True, False, False]


def test_cu117_rescue_zones(monkeypatch):
    table = with_cards(begin(TWO), "granatananas")
    taken: set[int] = set()
    rest, draw = dice_of(table, "grey_dark", 1, taken=taken), dice_of(table, "grey_light", 1, taken=taken)
    table = with_player(table, 0, active=active(table, "green/team", taken=taken), rest=tuple(rest), draw=tuple(draw))
    effect = {"op": "grey_rescue_roll"}
    assert abilities.candidates(table, 0, None, effect) == [*rest, *draw]
    monkeypatch.setattr(abilities, "RESCUE_ZONES", ("draw", "rest", "ready"))
    assert abilities.candidates(table, 0, None, effect) == [*draw, *rest]


def test_cu118_distinct_zones(monkeypatch):
    table = begin(TWO)
    taken: set[int] = set()
    ready, draw = dice_of(table, "red", 1, taken=taken), dice_of(table, "blue", 1, taken=taken)
    table = with_player(table, 0, ready=tuple(ready), draw=tuple(draw))
    effect = {"op": "distinct_colour_roll"}
    assert abilities.candidates(table, 0, None, effect) == [*draw, *ready]
    monkeypatch.setattr(abilities, "DISTINCT_ZONES", ("ready", "draw"))
    assert abilities.candidates(table, 0, None, effect) == [*ready, *draw]


def test_cu29_refill_modifiers_combine(monkeypatch):
    table = support(begin(TWO))
    green, white = ({"op": "refill_next_round", "exclude_colours": [c]} for c in ("green", "white"))

    def both() -> frozenset[str]:
        after = abilities.carry_out(abilities.carry_out(table, 0, None, green, {}, []), 0, None, white, {}, [])
        return after.players[0].next_exclude

    assert both() == {"green", "white"}
    monkeypatch.setattr(abilities, "REFILL_MODIFIERS_COMBINE", False)
    assert both() == {"white"}
