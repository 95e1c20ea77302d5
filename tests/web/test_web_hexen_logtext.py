"""Readable Hexen Rennen log lines: the engine's events in, sentences in German, Dutch and English out."""

from __future__ import annotations

import random

import pytest

from companion.games import get_game
from companion.games.hexenrennen import present
from companion.web import logtext

PLAYERS = [{"name": "Julia", "colour": "blue"}, {"name": "Ben", "colour": "yellow"},
           {"name": "Ada", "colour": "green"}]


def play(actions, source="dashboard"):
    """A real table (tiles hidden): the actions through the engine, stored as the session stores them."""
    game = get_game("hexenrennen")
    state = game.setup({"players": PLAYERS}, random.Random(1))
    stored = []
    for seq, action in enumerate(actions, start=1):
        actor = game.prompt(state).actor
        state, events = game.apply(state, action)
        stored.append({"seq": seq, "actor": actor, "type": action["type"],
                       "payload": {"action": action, "events": events, "source": source}})
    return game.view(state), stored


RULEBOOK_CHAIN = [
    {"type": "roll", "roll": 1, "dice": ["3"]},
    {"type": "reveal", "clan": "blue", "value": 10},
    {"type": "reveal", "clan": "blue", "value": 4},
    {"type": "reveal", "clan": "yellow", "value": "magic"},
    {"type": "play", "card": 7},
    {"type": "reveal", "clan": "green", "value": "magic"},
    {"type": "play", "card": 5},
    {"type": "reveal", "clan": "orange", "value": 6},
]
"""The rulebook's example: blue rolls 3, own 10, own 4, yellow's magic sends it back 7 by a card, green is forced to
play a 5 against it, and it ends on another clan's number: net +5."""


def lines(view, stored, lang):
    names = logtext.names_for("hexenrennen", view, lang)
    return [[(line["text"], line["forced"]) for line in entry["lines"]]
            for entry in logtext.log_entries(stored, lang=lang, names=names, game="hexenrennen")]


def test_the_rulebook_chain_tells_where_the_witch_goes_and_whose_decision_is_due():
    view, stored = play(RULEBOOK_CHAIN)
    assert view["witches"][0]["space"] == 5
    assert lines(view, stored, "en") == [
        [("Julia rolls a 3", False), ("Julia's witch 1 moves 3 to space 3", False)],
        [("Space 3 is turned over: blue 10", False), ("Julia's witch 1 follows its own 10: on to space 13", False)],
        [("Space 13 is turned over: blue 4", False), ("Julia's witch 1 follows its own 4: on to space 17", False)],
        [("Space 17 is turned over: yellow magic sign", False),
         ("Ben decides: play a card against Julia's witch 1 or let it stay", True)],
        [("Ben plays a 7 against Julia's witch 1 (11 cards left)", False),
         ("Julia's witch 1 is sent 7 back to space 10", False)],
        [("Space 10 is turned over: green magic sign", False), ("Ada must play a card against Julia's witch 1", True)],
        [("Ada must play a 5 against Julia's witch 1 (11 cards left)", True),
         ("Julia's witch 1 is sent 5 back to space 5", False)],
        [("Space 5 is turned over: orange 6", False),
         ("Julia's witch 1 stays on space 5: another clan's number (orange)", False),
         ("All told: Julia's witch 1 start → space 5 (+5 spaces)", False),
         ("Turn 2: Ben", False)],
    ]


@pytest.mark.parametrize(("lang", "forced", "chain"), [
    ("de", "Ada muss eine Karte gegen Hexe 1 von Julia spielen",
     "Insgesamt: Hexe 1 von Julia Start → Feld 5 (+5 Felder)"),
    ("nl", "Ada moet een kaart spelen tegen heks 1 van Julia",
     "Alles bij elkaar: heks 1 van Julia start → vak 5 (+5 vakken)"),
])
def test_the_chain_in_german_and_dutch(lang, forced, chain):
    view, stored = play(RULEBOOK_CHAIN)
    texts = [text for entry in lines(view, stored, lang) for text, _ in entry]
    assert forced in texts
    assert chain in texts


def test_a_bot_s_roll_names_the_player_and_the_witch_as_a_bot_s():
    view, stored = play(RULEBOOK_CHAIN[:1], source="bot")
    assert lines(view, stored, "en") == [[("Julia (bot) rolls a 3", False),
                                          ("Julia (bot)'s witch 1 moves 3 to space 3", False)]]
    assert lines(view, stored, "de")[0][1][0] == "Hexe 1 von Julia (Bot) zieht 3 auf Feld 3"


def test_own_magic_a_magic_card_and_letting_it_stay():
    view, stored = play([
        {"type": "roll", "roll": 1, "dice": ["2"]},
        {"type": "reveal", "clan": "blue", "value": "magic"},
        {"type": "stay"},
    ])
    texts = [text for entry in lines(view, stored, "en") for text, _ in entry]
    assert "Julia decides: play a card for their own witch 1 or let it stay" in texts
    assert "Julia lets their own witch 1 stay on space 2" in texts  # not "Julia lets Julia's witch 1 stay"
    german = [text for entry in lines(view, stored, "de") for text, _ in entry]
    assert "Julia lässt die eigene Hexe 1 auf Feld 2 stehen" in german
    names = logtext.names_for("hexenrennen", view, "en")
    magic = {"type": "moved", "witch": "blue-1", "from": 2, "to": 11, "by": "magic", "value": "magic",
             "player": "blue"}
    assert present.describe(magic, lang="en", names=names) == \
        "Julia's witch 1 flies forward to the magic sign on space 11"
    back = {**magic, "from": 11, "to": 2, "player": "yellow"}
    assert present.describe(back, lang="de", names=logtext.names_for("hexenrennen", view, "de")) == \
        "Hexe 1 von Julia muss zurück zum Zauberzeichen auf Feld 2"


def test_a_neutral_pile_a_pass_the_finish_and_the_end():
    view, _ = play([])
    names = logtext.names_for("hexenrennen", view, "en")
    assert names["orange"] == "orange (neutral)"
    say = lambda event, lang="en": present.describe(event, lang=lang, names=present.names(view, lang))  # noqa: E731
    assert say({"type": "asks", "phase": "draw", "player": "blue", "witch": "blue-2", "space": 6,
                "pile": "orange"}) == "Julia turns over the top card of the orange pile for Julia's witch 2"
    assert say({"type": "drawn", "clan": "orange", "card": 3, "witch": "blue-2", "ignored": False,
                "pile_left": 11}) == "The orange pile turns up a 3 against Julia's witch 2"
    assert say({"type": "drawn", "clan": "orange", "card": "magic", "witch": "blue-2", "ignored": True,
                "pile_left": 10}) == "The orange pile turns up a magic card: it cannot be carried out and is discarded"
    assert say({"type": "moved", "witch": "blue-2", "from": 6, "to": 3, "by": "draw", "value": 3,
                "player": "orange"}) == "Julia's witch 2 is sent 3 back to space 3"
    assert say({"type": "passed", "player": "yellow", "die": 6}, "nl") == \
        "Ben kan 6 met geen enkele heks zetten en past"
    assert say({"type": "moved", "witch": "green-3", "from": 46, "to": 50, "by": "die", "value": 4}) == \
        "Ada's witch 3 moves 4 to the 3-point finish field"
    assert say({"type": "finished", "witch": "green-3", "space": 50, "points": 3}, "de") == \
        "Hexe 3 von Ada ist im Ziel: 3 Punkte"
    assert say({"type": "game_over", "scores": {"blue": 9, "yellow": 9, "green": 5},
                "winners": ["blue", "yellow"]}) == "Game over: Julia and Ben share the win with 9 points"
    assert say({"type": "game_over", "scores": {"blue": 9, "green": 5}, "winners": ["blue"]}, "de") == \
        "Spielende: Julia gewinnt mit 9 Punkten"


def test_flashed_lines_are_the_decisions_due_and_the_forced_card():
    assert present.forced({"type": "asks", "phase": "own_magic"})
    assert present.forced({"type": "card_played", "forced": True})
    assert not present.forced({"type": "card_played", "forced": False})
    assert not present.forced({"type": "moved"})


def test_an_undone_reveal_is_named_by_its_line():
    view, stored = play(RULEBOOK_CHAIN[:2])
    stored.append({"seq": 3, "actor": "table", "type": "undo", "payload": {"undoes": 2, "action": {}}})
    entries = logtext.log_entries(stored, lang="en", names=present.names(view, "en"), game="hexenrennen")
    assert entries[1]["undone"] is True
    assert entries[2]["lines"][0]["text"] == "Taken back: Space 3 is turned over: blue 10"


def test_each_game_names_its_own_actors_and_tells_its_own_events():
    view = {"chariots": [{"id": "green", "colour": "green", "player": "Julia"}]}
    assert logtext.names_for("chariot-race", view, "en") == {"green": "Julia"}
    event = {"type": "moved", "chariot": "green", "to": "L1-05", "path": ["straight"] * 4, "damage": 0}
    stored = [{"seq": 1, "actor": "green", "type": "move", "payload": {"action": {"type": "move"}, "events": [event]}}]
    [entry] = logtext.log_entries(stored, lang="en", names={"green": "Julia"}, game="chariot-race")
    assert entry["lines"][0]["text"] == "Julia drives 4 spaces to L1-05"


@pytest.mark.parametrize("seed", range(6))
def test_every_reason_a_witch_stays_is_a_code_with_a_line_in_every_language(seed):
    """Bot games with shuffled tiles: each ``stays`` event says why as a code the log knows, not as English."""
    from companion.games.bots import RandomBot, roll
    from companion.games.hexenrennen.rules import STAYS_REASONS

    game, rng = get_game("hexenrennen"), random.Random(seed)
    state = game.setup({"players": PLAYERS, "tiles": "shuffled", "piles": "shuffled"}, rng)
    names = {lang: present.names(game.view(state), lang) for lang in logtext.LANGUAGES}
    seen = set()
    while not game.is_over(state):
        prompt = game.prompt(state)
        choice = RandomBot().choose(game, state, prompt, rng)
        if "roll" in choice:
            choice = roll(game, choice, rng)
        state, events = game.apply(state, choice)
        for event in (e for e in events if e["type"] == "stays"):
            assert event["reason"] in STAYS_REASONS, event
            seen.add(event["reason"])
            for lang in logtext.LANGUAGES:
                line = present.describe(event, lang=lang, names=names[lang])
                assert line is None or ("?" not in line and "{" not in line), (event, lang, line)
    assert seen
