"""Automobiles on screen and in the log: every event and option of bot races reads in every language with every
field filled, and the layout is plain JSON that says what is reference data."""

from __future__ import annotations

import json
import random
import string

import pytest

from companion import texts
from companion.games import GAMES
from companion.games.automobiles import GAME, present
from companion.games.bots import GreedyBot, RandomBot, roll

LANGUAGES = ("de", "nl", "en")
RACES = [{**present.DEMO_OPTIONS, "card_pool": "both", "drivers": True},
         {**present.DEMO_OPTIONS, "card_pool": "racing_season", "season": ["reference_oval"] * 3, "laps": "1"}]


@pytest.fixture(autouse=True)
def automobiles_texts(monkeypatch):
    """The package's catalogue merged as the registry will merge it."""
    monkeypatch.setitem(GAMES, "automobiles", "companion.games.automobiles")
    texts.catalog.cache_clear()
    yield
    texts.catalog.cache_clear()


def test_every_text_has_the_same_fields_in_every_language():
    catalogs = {lang: texts.catalog(lang) for lang in LANGUAGES}
    for section in ("ui", "log"):
        keys = {k for k in catalogs["en"][section] if k.startswith("au_")}
        for lang in LANGUAGES:
            assert {k for k in catalogs[lang][section] if k.startswith("au_")} == keys, lang
            for key in keys:
                fields = {f for _, f, _, _ in string.Formatter().parse(catalogs[lang][section][key]) if f}
                english = {f for _, f, _, _ in string.Formatter().parse(catalogs["en"][section][key]) if f}
                assert fields == english, (lang, key)


@pytest.mark.parametrize("seed", range(2))
def test_every_action_and_option_of_a_bot_race_reads_in_every_language(seed):
    rng = random.Random(seed)
    state = GAME.setup(RACES[seed], rng)
    bot = GreedyBot() if seed == 0 else RandomBot()
    seen, kinds = set(), set()
    for _ in range(4000):
        if GAME.is_over(state):
            break
        prompt = GAME.prompt(state)
        snapshot = {"view": GAME.view(state), "prompt": {"actor": prompt.actor, "phase": prompt.phase}}
        for option in prompt.options:
            for lang in LANGUAGES:
                label = present.option_label(option, snapshot, lang)
                assert label and "{" not in label and "?" not in label, (lang, option)
            kinds.add(option["type"])
        phase = state.phase
        action = roll(GAME, bot.choose(GAME, state, prompt, rng), rng, state)
        state, events = GAME.apply(state, action)
        view = GAME.view(state)
        for lang in LANGUAGES:
            lines = present.log_lines(action, phase, events, actor=prompt.actor, lang=lang,
                                      names=present.names(view, lang))
            assert lines, (action, events)
            for line in lines:
                assert "?" not in line["text"] and "{" not in line["text"], (lang, line)
            seen |= {line["event"] for line in lines}
    assert GAME.is_over(state)
    assert {"activated", "stepped", "car_moved", "drew", "wear_phase", "race_over"} <= seen
    assert {"activate", "step", "draw", "to_buy", "done", "stop"} <= kinds
    assert seed == 0 or "sponsor_taken" in seen


def test_the_layout_is_plain_json_and_says_what_is_reference_data():
    state = GAME.setup(present.DEMO_OPTIONS, random.Random(1))
    layout = present.layout(GAME.view(state))
    assert json.loads(json.dumps(layout, allow_nan=False)) == layout
    assert layout["track"]["reference"] and {s["id"] for s in layout["track"]["segments"]} >= {"L0-30", "L2-00"}
    assert all(card["cost_is_reference"] for colour, card in layout["cards"].items() if colour != "brown")
    assert layout["lap_track"][-1] == "Finish"


def test_standings_and_chart_follow_the_placings():
    from companion.games.bots import play_game

    final, _ = play_game(GAME, present.DEMO_OPTIONS, 2, GreedyBot())
    view = GAME.view(final)
    rows = present.standings(view, {})
    assert [r["actor"] for r in rows] == view["placings"] and rows[0]["why"] == "winner"
    done, metrics = present.chart_point(view)
    assert done == view["round"] and set(metrics["au_chart_distance"]) == {p["colour"] for p in view["players"]}


def test_every_card_and_driver_has_its_text_in_every_language_and_no_text_is_left_over():
    """What a card does shows in the players' language: a card or driver added to ``cards.json`` without its texts
    fails here, naming it and the file to add them to."""
    from companion.games.automobiles.kit import load_kit

    kit = load_kit()
    ids = [*kit.fixed_cards, *kit.action_cards, *(d["id"] for d in kit.drivers)]
    for lang in LANGUAGES:
        ui = texts.catalog(lang)["ui"]
        missing = [i for i in ids if present.card_text_key(i) not in ui]
        assert not missing, f"no text in automobiles/i18n/{lang}.json for {missing}: add au_card_<card id>"
        left_over = {k for k in ui if k.startswith("au_card_")} - {present.card_text_key(i) for i in ids}
        assert not left_over, f"automobiles/i18n/{lang}.json: texts of no card in cards.json: {sorted(left_over)}"
    assert texts.ui("nl", present.card_text_key("base_purple_2")) == ("Verwijder tot 6 blokjes van willekeurige "
                                                                      "kleuren van je aflegstapel.")


def test_the_layout_names_each_cards_and_drivers_text_by_key_not_in_english():
    state = GAME.setup({**present.DEMO_OPTIONS, "drivers": True}, random.Random(1))
    layout = present.layout(GAME.view(state))
    assert {card["text"] for card in layout["cards"].values()} >= {"au_card_gear_3", "au_card_wear"}
    assert all("summary" not in card for card in layout["cards"].values())
    assert layout["drivers"]["driver_01"] == "au_card_driver_01"


@pytest.mark.parametrize(("lang", "track", "segment", "place"), [
    ("en", "reference_oval", "L0-00", "lane 1, field 1"),
    ("de", "reference_oval", "L2-30", "Spur 3, Feld 8, vorn"),  # P3: the outer lane's last field, before the line
    ("nl", "reference_oval", "L1-14", "rijstrook 2, veld 6, voor"),
    ("de", "fixture_split_start", "SB", "Feld 1"),  # one lane: no lane to name
    ("en", "fixture_split_start", "SA1", "field 5, rear"),
    ("en", "reference_oval", "Z9", "Z9"),  # not on the track: as it is
])
def test_a_segment_is_named_by_its_lane_and_field_as_players_count_them(lang, track, segment, place):
    assert present.place_name(lang, track, segment) == place


def test_a_move_and_its_log_line_name_the_field_not_the_segment_id():
    view = {"track": "reference_oval", "players": [{"colour": "red", "name": "Julia"}]}
    step = {"type": "step", "to": "L0-00", "from": "L0-30"}
    assert present.option_label(step, {"view": view}, "de") == "Auf Spur 1, Feld 1 fahren"
    names = present.names(view, "nl")
    moved = {"type": "car_moved", "player": "red", "to": "L1-14"}
    assert present.describe_event(moved, lang="nl", names=names) == "Julia: auto rijdt naar rijstrook 2, veld 6, voor"


def test_the_final_lap_is_a_word_in_the_log_and_the_standings_not_the_tracks_code():
    """The lap track's last fields are "Final" and "Finish" in the data: a Dutch screen says "Laatste ronde"."""
    crossed = {"type": "crossed", "player": "red", "marker": "Final"}
    assert present.describe_event(crossed, lang="nl", names={"red": "Ada"}) == \
        "Ada passeert de finish: rondemarker op Laatste ronde"
    assert present.describe_event({**crossed, "marker": "3"}, lang="en", names={"red": "Ada"}) == \
        "Ada crosses the finish line: lap marker on 3"
    view = {"players": [{"colour": "red", "position": 1, "finished": False, "marker": "Final", "distance": 40,
                         "points": 0}, {"colour": "blue", "position": 2, "finished": False, "marker": "2",
                                        "distance": 30, "points": 0}]}
    assert [(r["why"], r["text"]) for r in present.standings(view, {})] == [
        ("distance", "au_standing_final_lap"), ("distance", "au_standing_distance")]
