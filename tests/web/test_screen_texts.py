"""Texts as a player reads them: plural forms in German, Dutch and English, a repair that reads as a repair, a curve
that says what the rules did, and a held Next that reaches every destination in a few holds."""

from __future__ import annotations

import pytest

from companion.controls import perform
from companion.games.chariot_race import present
from companion.texts import ui
from hw.press import PressKind
from tests.web.conftest import start_race

NAMES = {"green": "Julia", "yellow": "Klaus"}


@pytest.mark.parametrize(("lang", "one", "three"), [
    ("en", "Julia drives 1 space to L1-05", "Julia drives 3 spaces to L1-05"),
    ("de", "Julia fährt 1 Feld nach L1-05", "Julia fährt 3 Felder nach L1-05"),
    ("nl", "Julia rijdt 1 veld naar L1-05", "Julia rijdt 3 velden naar L1-05")])
def test_a_move_of_one_space_says_space(lang, one, three):
    moved = {"type": "moved", "chariot": "green", "to": "L1-05"}
    assert present.describe_event({**moved, "path": ["straight"]}, lang=lang, names=NAMES) == one
    assert present.describe_event({**moved, "path": ["straight"] * 3}, lang=lang, names=NAMES) == three


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "Roll the 1 chosen die again.", "Roll the 2 chosen dice again."),
    ("de", "Den 1 gewählten Würfel neu werfen.", "Die 2 gewählten Würfel neu werfen."),
    ("nl", "Gooi de gekozen dobbelsteen opnieuw.", "Gooi de 2 gekozen dobbelstenen opnieuw.")])
def test_one_chosen_die_is_a_die(lang, one, two):
    assert (ui(lang, "reroll_now", n=1), ui(lang, "reroll_now", n=2)) == (one, two)


def test_a_repair_reads_as_a_repair():
    assert ui("en", "repair", n=3) == "Repair: −3 fortune, +3 durability"
    assert ui("de", "repair", n=3) == "Reparieren: −3 Schicksal, +3 Haltbarkeit"
    line = present.describe_event({"type": "repair", "chariot": "green", "restored": 3, "fortune": 1}, lang="en",
                                  names=NAMES)
    assert line == "Julia repairs: +3 durability, fortune now 1"


def test_a_curve_taken_too_fast_says_what_the_rules_did():
    curve = {"type": "curve_damage", "chariot": "green", "space": "L1-12", "speed": 11, "max_speed": 4}
    assert present.describe_event({**curve, "damage": 6, "left": 0}, lang="en", names=NAMES) == \
        "Julia takes the curve at speed 11 (max 4): 7 too fast, loses the last 6"
    assert present.describe_event({**curve, "speed": 6, "damage": 2, "left": 5}, lang="en", names=NAMES) == \
        "Julia takes the curve at speed 6 (max 4): −2"


def test_holding_next_reaches_every_destination_once_in_a_cycle(session):
    start_race(session)
    for action in ({"type": "roll", "dice": ["steer", "steer", "steer", "drive"]}, {"type": "done"},
                   {"type": "done"}, {"type": "drive", "signs": [1]}):
        session.act(action, actor="green")
    prompt = session.snapshot()["prompt"]
    assert prompt["phase"] == "move"
    destinations = {o.get("to") for o in prompt["options"]}
    assert len(prompt["options"]) > 8 and len(destinations) < len(prompt["options"])
    seen = set()
    for _ in destinations:
        assert perform(session, "next", PressKind.LONG).ok
        snapshot = session.snapshot()["prompt"]
        seen.add(snapshot["options"][snapshot["cursor"]].get("to"))
    assert seen == destinations


def test_a_card_for_a_players_own_witch_says_their_own_and_counts_one_card():
    from companion.games.hexenrennen import present as hexen

    names = {"blue": "Julia", "yellow": "Ben", "blue-1": "Julia's witch 1"}
    played = {"type": "card_played", "player": "blue", "witch": "blue-1", "card": 7, "direction": "forward",
              "cards_left": 1}
    assert hexen.describe(played, lang="en", names=names) == "Julia plays a 7 for their own witch 1 (1 card left)"
    against = {**played, "player": "yellow", "direction": "back", "cards_left": 9}
    assert hexen.describe(against, lang="en", names=names) == "Ben plays a 7 against Julia's witch 1 (9 cards left)"
