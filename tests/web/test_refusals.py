"""Every refusal a player can meet carries a code the screens translate: its English stays for scripts and the log,
and no screen shows a rule id, a Python list or English in German and Dutch."""

from __future__ import annotations

import re

import pytest

from companion.texts import LANGUAGES, catalog, field_names
from tests.conftest import PIN

SCRIPT = {"X-Table-Pin": PIN}


def refusals(live) -> dict[str, tuple[int, dict]]:
    """One of each refusal a player meets, by what they did."""
    spectator, player, guesser = live.client(), live.client(), live.client()
    csrf = player.login()
    signed = {"X-CSRF-Token": csrf}
    _, who = guesser.get("/api/whoami")
    seq = live.session.snapshot()["seq"]
    answers = {
        "spectator taps": spectator.post("/api/action", {"type": "roll", "dice": ["4"]}),
        "wrong PIN": guesser.post("/api/login", {"pin": "0000"}, headers={"X-CSRF-Token": who["csrf"]}),
        "no PIN": guesser.post("/api/login", {"pin": 1234}, headers={"X-CSRF-Token": who["csrf"]}),
        "old page": player.post("/api/action", {"type": "roll", "dice": ["4"]}, headers={"X-CSRF-Token": "old"}),
        "illegal": player.post("/api/action", {"type": "roll", "dice": ["9"]}, headers=signed),
        "stale": player.post("/api/action", {"type": "roll", "dice": ["4"], "seq": seq + 5}, headers=signed),
        "bad set-up": player.post("/api/game", {"game": "chariot-race", "options": {"players": [
            {"name": "A", "colour": "green"}, {"name": "B", "colour": "green"}]}}, headers=signed),
        "bad body": player.post("/api/confirm", {"option": "first"}, headers=signed),
        "no camera": player.post("/api/calibrate", {}, headers=signed),
        "no export": player.get("/api/games/99/export"),
        "no route": player.post("/api/nothing", {}, headers=signed),
    }
    for _ in range(5):
        guesser.post("/api/login", {"pin": "0000"}, headers={"X-CSRF-Token": who["csrf"]})
    answers["too many PINs"] = guesser.post("/api/login", {"pin": PIN}, headers={"X-CSRF-Token": who["csrf"]})
    return answers


def test_every_refusal_has_a_code_with_a_text_in_every_language_and_keeps_its_english(live):
    for what, (status, answer) in refusals(live).items():
        assert status >= 400 and answer["error"], what  # the English is kept for scripts
        code = answer["code"]
        for lang in LANGUAGES:
            text = catalog(lang)["ui"][f"err_{code}"]
            assert field_names(text) <= set(answer["values"]), (what, lang)
            assert not re.search(r"[A-Z]{2}-\d|\[|'", text), (what, lang, text)  # no rule id, no Python list


def test_the_rules_refusal_keeps_its_rule_for_scripts_and_says_it_in_words_for_players(live):
    status, answer = live.client().post("/api/action", {"type": "roll", "dice": ["9"]}, headers=SCRIPT)
    assert status == 409 and answer["code"] == "illegal" and answer["rule"]
    assert catalog("de")["ui"]["err_illegal"] == "Das erlauben die Regeln hier nicht."


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "Tap the 1 chariot still without a start position.", "Tap the 3 chariots still without a start position."),
    ("nl", "Tik nog 1 wagen zonder startpositie aan.", "Tik nog 3 wagens zonder startpositie aan.")])
def test_a_text_takes_the_form_its_count_needs(lang, one, many):
    from companion.texts import ui

    assert ui(lang, "start_order_incomplete", n=1) == one
    assert ui(lang, "start_order_incomplete", n=3) == many
