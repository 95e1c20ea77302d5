"""Cubitos on screen and in the log: every event of bot races reads in every language with every field filled."""

from __future__ import annotations

import json
import random

import pytest

from companion import texts
from companion.games import GAMES
from companion.games.bots import GreedyBot, choices, roll
from companion.games.cubitos import GAME, present
from tests.games.cubitos_positions import FOUR_PLAYERS

LANGUAGES = ("de", "nl", "en")


@pytest.fixture(autouse=True)
def cubitos_texts(monkeypatch):
    """The package's catalogue merged as the registry will merge it."""
    monkeypatch.setitem(GAMES, "cubitos", "companion.games.cubitos")
    texts.catalog.cache_clear() if hasattr(texts.catalog, "cache_clear") else None
    yield
    texts.catalog.cache_clear() if hasattr(texts.catalog, "cache_clear") else None


def test_every_text_has_the_same_fields_in_every_language():
    catalogs = {lang: texts.catalog(lang) for lang in LANGUAGES}
    for section in ("ui", "log"):
        keys = {k for k in catalogs["en"][section] if k.startswith("cu_")}
        for lang in LANGUAGES:
            assert {k for k in catalogs[lang][section] if k.startswith("cu_")} == keys, lang
            for key in keys:
                fields = texts.field_names(catalogs[lang][section][key])  # a plural's count is its field
                assert fields == texts.field_names(catalogs["en"][section][key]), (lang, key)


@pytest.mark.parametrize("seed", range(3))
def test_every_action_of_a_bot_race_has_log_lines_in_every_language_with_every_field(seed):
    rng = random.Random(seed)
    state = GAME.setup({**FOUR_PLAYERS, "race": ["race_2", "race_5", "combomania"][seed]}, rng)
    bot = GreedyBot()
    seen = set()
    while not GAME.is_over(state):
        prompt = GAME.prompt(state)
        phase = state.phase
        action = roll(GAME, bot.choose(GAME, state, prompt, rng), rng, state)
        state, events = GAME.apply(state, action)
        view = GAME.view(state)
        for lang in LANGUAGES:
            names = present.names(view, lang)
            lines = present.log_lines(action, phase, events, actor=prompt.actor, lang=lang, names=names)
            for line in lines:
                assert "?" not in line["text"] and "{" not in line["text"], (lang, line)
            seen |= {line["event"] for line in lines}
    assert {"rolled", "moved", "bought", "game_over"} <= seen


def test_the_layout_is_plain_json_and_says_what_is_reference_data():
    state = GAME.setup({**FOUR_PLAYERS, "race": "das_grosse_finale"}, random.Random(1))
    layout = present.layout(GAME.view(state))
    assert json.loads(json.dumps(layout)) == layout
    assert len(layout["tracks"]) == 2 and all(t["reference"] for t in layout["tracks"])
    assert layout["fan_track_reference"] and all(c["cost_is_reference"] for c in layout["cards"].values())


def test_a_face_s_marks_are_drawn_from_its_fields_alike_for_the_table_and_the_teach_page():
    assert present.face_marks("lead/coin2") == [{"kind": "coin", "text": "2●"}]  # a count above one is written
    assert [m["text"] for m in present.face_marks("red/team")] == ["†", "★"]
    assert present.face_marks("white/blank") == [] and present.face_marks("no_die/coin1") == []
    state = GAME.setup({**FOUR_PLAYERS, "race": "das_grosse_finale"}, random.Random(1))
    for die_id, die in present.layout(GAME.view(state))["dice"].items():
        for face in die["faces"]:
            assert face["marks"] == present.face_marks(f"{die_id}/{face['label']}"), (die_id, face)


def test_bots_take_no_by_hand_option_when_another_is_listed():
    from companion.games.base import Prompt

    prompt = Prompt(actor="blue", phase="adjust", options=[{"type": "done"},
                                                           {"type": "adjust", "what": "coins", "by": 1,
                                                            "manual": True}])
    assert choices(prompt) == [{"type": "done"}]


@pytest.mark.parametrize("seed", range(2))
def test_every_option_of_a_bot_race_has_a_label_in_every_language(seed):
    rng = random.Random(seed)
    state = GAME.setup({**FOUR_PLAYERS, "race": ["race_3", "race_6"][seed]}, rng)
    bot = GreedyBot()
    kinds = set()
    while not GAME.is_over(state):
        prompt = GAME.prompt(state)
        snapshot = {"view": GAME.view(state), "prompt": {"actor": prompt.actor, "phase": prompt.phase}}
        for option in prompt.options:
            for lang in LANGUAGES:
                label = present.option_label(option, snapshot, lang)
                assert label and "{" not in label and "?" not in label, (lang, option)
            kinds.add(option["type"])
        state, _ = GAME.apply(state, roll(GAME, bot.choose(GAME, state, prompt, rng), rng, state))
    assert {"roll", "push", "pass", "move", "buy", "done"} <= kinds


@pytest.mark.parametrize(("option", "en", "de"), [
    ({"pick": ["brown", "team"]}, "Use Ankle Biter (dog: team symbol)", "Wadenbeißer nutzen (Hund: Team-Symbol)"),
    ({"give": ["draw", "green"]}, "Use Ankle Biter (give back a pineapple die from the draw zone)",
     "Wadenbeißer nutzen (Ananas zurückgeben, aus: Nachschub)"),
    ({"roll": 1}, "Use Ankle Biter (roll 1 die)", "Wadenbeißer nutzen (1 Würfel werfen)"),
    ({"pass": ["rest", "red"], "to": "red"}, "Use Ankle Biter (pass on a crab die from the rest zone, to Bo)",
     "Wadenbeißer nutzen (Krabbe weitergeben, aus: Ruhezone, an Bo)"),
])
def test_an_abilitys_choices_read_as_words_in_the_players_language(option, en, de):
    ability = {"type": "ability", "ability": "wadenbeisser.1", "die": "orange", "face": "team", **option}
    view = {"players": [{"colour": "blue", "name": "Ada"}, {"colour": "red", "name": "Bo"}]}
    assert present.option_label(ability, {"view": view}, "en") == en
    assert present.option_label(ability, {"view": view}, "de") == de


def test_every_ability_of_every_card_has_its_text_in_every_language_and_no_text_is_left_over():
    """What a card does shows in the players' language: a card or ability added to ``cards.json`` without its texts
    fails here, naming it and the file to add them to."""
    from companion.games.cubitos.kit import load_kit

    abilities = [a for card in load_kit().cards.values() for a in card.abilities]
    for lang in LANGUAGES:
        ui = texts.catalog(lang)["ui"]
        missing = [a.id for a in abilities if present.ability_key(a) not in ui]
        assert not missing, f"no text in cubitos/i18n/{lang}.json for {missing}: add cu_ab_<ability id>"
        left_over = {k for k in ui if k.startswith("cu_ab_")} - {present.ability_key(a) for a in abilities}
        assert not left_over, f"cubitos/i18n/{lang}.json: texts of no ability in cards.json: {sorted(left_over)}"
    described = next(a for a in abilities if a.id == "mutiger_maasdamer.1")
    assert texts.ui("de", present.ability_key(described)).startswith("Bei jedem Riskieren ohne Fehlwurf")


def test_the_layout_names_each_abilitys_text_by_key_not_in_english():
    state = GAME.setup({**FOUR_PLAYERS, "race": "race_1"}, random.Random(1))
    cards = present.layout(GAME.view(state))["cards"]
    keys = {a["text"] for card in cards.values() for a in card["abilities"]}
    assert "cu_ab_mutiger_maasdamer.1" in keys and "cu_ab_unknown" in keys  # Mr. Krabs: not in the seed
    assert all("summary" not in a for card in cards.values() for a in card["abilities"])
