"""Readable log lines: stored events in, sentences in German, Dutch and English out."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import GAMES, get_presentation
from companion.games.bots import GreedyBot, RandomBot, roll
from companion.games.chariot_race import present
from companion.session import TableSession
from companion.store import EventStore
from companion.web import logtext
from tests.web.test_one_language import options_of

GAME = "chariot-race"

NAMES = {"green": "Julia", "yellow": "Klaus", "blue": "Ben"}


def stored(seq, action, events=(), actor="green", reading=None, type_=None, source="dashboard", phase=None):
    payload = {"action": action, "events": list(events), "source": source}
    if phase is not None:
        payload["phase"] = phase
    if reading is not None:
        payload["reading"] = reading
    return {"seq": seq, "actor": actor, "type": type_ or action["type"], "payload": payload}


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Julia rams Klaus: both −2"),
    ("de", "Julia rammt Klaus: beide −2"),
    ("nl", "Julia ramt Klaus: allebei −2"),
])
def test_a_ram_in_three_languages(lang, text):
    event = {"type": "rammed", "chariot": "green", "target": "yellow", "space": "L1-12", "damage": 2,
             "target_damage": 2, "left": 4, "target_left": 0}
    assert present.describe_event(event, lang=lang, names=NAMES) == text


def test_an_uneven_ram_says_who_took_what():
    event = {"type": "rammed", "chariot": "green", "target": "yellow", "damage": 2, "target_damage": 0}
    assert present.describe_event(event, lang="en", names=NAMES) == "Julia rams Klaus: −2 and −0"


def test_the_forced_effects_of_a_move_are_lines_of_their_own_and_marked_forced():
    move = stored(5, {"type": "move", "path": ["straight"] * 7 + ["in"]}, [
        {"type": "curve_damage", "chariot": "green", "space": "L2-14", "speed": 8, "max_speed": 7, "damage": 1,
         "left": 9},
        {"type": "rammed", "chariot": "green", "target": "yellow", "space": "L1-12", "damage": 2,
         "target_damage": 2},
        {"type": "placed_behind", "chariot": "green", "space": "L1-10", "behind": "yellow"},
        {"type": "wrecked", "chariot": "yellow", "space": "L1-12", "caltrop": True},
        {"type": "moved", "chariot": "green", "from": "L2-06", "to": "L1-10", "path": ["straight"] * 8,
         "damage": 7, "left": 4},
    ])
    [entry] = logtext.log_entries([move], lang="en", names=NAMES, game=GAME)
    texts = [line["text"] for line in entry["lines"]]
    assert texts == [
        "Julia takes the curve at speed 8 (max 7): −1",
        "Julia rams Klaus: both −2",
        "Julia is placed behind Klaus on L1-10",
        "Klaus is wrecked! The wreck leaves a caltrop on L1-12",
        "Julia drives 8 spaces to L1-10: −7 in all",
    ]
    assert [line["forced"] for line in entry["lines"]] == [True, True, True, True, False]


def test_a_corrected_die_is_kept_in_the_log():
    reading = {"source": "camera", "dice": [
        {"label": "drive", "confidence": 0.97, "low": False},
        {"label": "steer", "confidence": 0.55, "low": False, "corrected": True, "was": "fortune"},
    ]}
    roll = stored(1, {"type": "roll", "roll": 2, "dice": ["drive", "steer"]},
                  [{"type": "rolled", "chariot": "green", "dice": ["drive", "steer"]}], reading=reading)
    [entry] = logtext.log_entries([roll], lang="de", names=NAMES, game=GAME)
    assert [line["text"] for line in entry["lines"]] == [
        "Julia würfelt Fahren, Lenken",
        "Würfel 2 von Hand gesetzt: Fortuna → Lenken",
    ]


def test_done_is_told_by_the_phase_it_ends():
    log = [
        stored(1, {"type": "roll", "roll": 2, "dice": ["attack", "fortune"]},
               [{"type": "rolled", "chariot": "green", "dice": ["attack", "fortune"]}]),
        stored(2, {"type": "done"}, phase="reroll"),
        stored(3, {"type": "turn", "die": 0, "face": "steer", "cost": 2},
               [{"type": "turned", "chariot": "green", "die": 0, "face": "steer", "cost": 2}]),
        stored(4, {"type": "done"}, phase="fortune", events=[
            {"type": "fortune_gained", "chariot": "green", "gained": 1, "fortune": 2},
            {"type": "moved", "chariot": "green", "from": "L0-01", "to": "L0-05", "path": ["straight"] * 4,
             "damage": 0, "left": 12}]),
        stored(5, {"type": "done"}, [{"type": "turn", "chariot": "yellow", "round": 1}], phase="attack"),
    ]
    lines = [e["lines"][0]["text"] for e in logtext.log_entries(log, lang="en", names=NAMES, game=GAME)]
    assert lines == ["Julia rolls Attack, Fortune", "Julia keeps the dice",
                     "Julia pays 2 fortune and turns die 1 to Steer", "Julia spends no more fortune",
                     "Julia makes no more attacks"]


def test_an_undo_marks_what_it_took_back():
    log = [stored(1, {"type": "skip_repair"}),
           {"seq": 2, "actor": "table", "type": "undo", "payload": {"undoes": 1, "action": {"type": "skip_repair"}}}]
    entries = logtext.log_entries(log, lang="nl", names=NAMES, game=GAME)
    assert entries[0]["undone"] is True
    assert entries[1]["lines"][0]["text"] == "Teruggenomen: Julia repareert niet"
    assert entries[1]["undoes"] == 1


@pytest.mark.parametrize(("lang", "bot", "person"), [
    ("en", ["Julia (bot) rams Klaus: both −2", "Julia (bot) drives 3 spaces to L1-10"], "Klaus does not repair"),
    ("de", ["Julia (Bot) rammt Klaus: beide −2", "Julia (Bot) fährt 3 Felder nach L1-10"], "Klaus repariert nicht"),
    ("nl", ["Julia (bot) ramt Klaus: allebei −2", "Julia (bot) rijdt 3 velden naar L1-10"], "Klaus repareert niet"),
])
def test_a_bot_s_move_names_its_actor_as_a_bot_and_a_person_s_does_not(lang, bot, person):
    log = [stored(1, {"type": "move", "path": ["straight"] * 3}, [
               {"type": "rammed", "chariot": "green", "target": "yellow", "damage": 2, "target_damage": 2},
               {"type": "moved", "chariot": "green", "from": "L1-07", "to": "L1-10", "path": ["straight"] * 3}],
               source="bot"),
           stored(2, {"type": "skip_repair"}, actor="yellow")]
    entries = logtext.log_entries(log, lang=lang, names=NAMES, game=GAME)
    assert [[line["text"] for line in entry["lines"]] for entry in entries] == [bot, [person]]
    assert [entry["bot"] for entry in entries] == [True, False]


def test_two_chariots_of_one_player_are_told_apart_by_colour():
    view = {"chariots": [{"id": "green", "colour": "green", "player": "Julia"},
                         {"id": "green-2", "colour": "green", "player": "Julia"},
                         {"id": "blue", "colour": "blue", "player": "Ben"},
                         {"id": "blue-2", "colour": "blue", "player": "Ben"}]}
    names = present.names(view, "nl")
    assert names["green-2"] == "Julia (groen 2)"
    event = {"type": "spear", "chariot": "blue", "target": "green-2", "damage": 1, "left": 5}
    assert present.describe_event(event, lang="en", names=present.names(view, "en")) == \
        "Ben (blue) throws a spear at Julia (green 2): −1"


def test_the_end_of_the_race_with_and_without_a_winner():
    assert present.describe_event({"type": "game_over", "winner": "blue"}, lang="de", names=NAMES) == \
        "Ben gewinnt das Rennen!"
    assert present.describe_event({"type": "game_over", "winner": None}, lang="en", names=NAMES) == \
        "The race is over: no winner"


def test_an_unknown_action_still_gets_a_line():
    [entry] = logtext.log_entries([stored(1, {"type": "roll", "dice": ["5"]}, [], actor="Ada")], lang="en",
                                  names={})
    assert entry["lines"][0]["text"] == "Ada: roll dice=['5']"


def test_every_language_has_every_text_with_the_same_fields():
    from companion.texts import field_names

    english = logtext.catalog("en")
    for lang in ("de", "nl"):
        other = logtext.catalog(lang)
        for section in ("ui", "faces", "colours", "log"):
            assert set(other[section]) == set(english[section]), (lang, section)
        for section in ("ui", "log"):
            for key, text in english[section].items():
                assert field_names(text) == field_names(other[section][key]), (lang, section, key)


def test_language_choice():
    assert logtext.pick_language("nl", ["de-DE"]) == "nl"
    assert logtext.pick_language(None, ["fr-FR", "de-AT"]) == "de"
    assert logtext.pick_language(None, [], "nl") == "nl"
    assert json.dumps(logtext.catalog("xx")["lang"]) == '"en"'


def test_the_session_stores_the_phase_an_action_was_chosen_in(session):
    """The log's "keeps the dice" reads the phase off the stored action, not off a second copy of the phases."""
    from tests.web.conftest import start_race

    start_race(session)
    session.act({"type": "roll", "dice": ["attack", "fortune", "drive", "steer"]}, actor="green")
    stored = session.act({"type": "done"}, actor="green")
    assert stored.payload["phase"] == "reroll"
    lines = logtext.log_entries([e.to_json() for e in session.events()], lang="en", names={"green": "Julia"},
                                game=GAME)
    assert lines[-1]["lines"][0]["text"] == "Julia keeps the dice"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_choice_a_whole_game_makes_has_a_log_line_of_its_games_own(game_id):
    """The log's fallback ("Julia: go") names an action by its code, in no player's language: no game needs it."""
    session = TableSession(EventStore(":memory:"))
    session.new_game(game_id, options_of(game_id), seed=11)
    rng = random.Random(11)
    for bot in [RandomBot()] * 400 + [GreedyBot()] * 5000:  # greedy bots end a Cubitos race in about 1,500 actions
        if session.game.is_over(session.state):
            break
        prompt = session.prompt()
        session.act(roll(session.game, bot.choose(session.game, session.state, prompt, rng), rng, session.state),
                    actor=prompt.actor or "table")
    presentation = get_presentation(game_id)
    untold = {(event.payload["action"]["type"], event.payload.get("phase")) for event in session.events()
              if not presentation.log_lines(event.payload["action"], event.payload.get("phase"),
                                            event.payload["events"], actor=event.actor, lang="en", names={})}
    assert session.game.is_over(session.state) and untold == set()
