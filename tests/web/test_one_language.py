"""One language per screen: every game played by bots into its phases, and every text its presentation gives a
screen (the options' names and help, the log, the cards' names) checked for words of another language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.controls import with_option_labels
from companion.games import GAMES, get_game, get_presentation
from companion.games.bots import RandomBot, roll
from companion.session import TableSession
from companion.texts import LANGUAGES, catalog, ui
from companion.web.logtext import log_entries
from tests.languages import foreign_in, foreign_words

PLAYERS = {"dice-race": {"players": [{"name": "Julia"}, {"name": "Klaus"}]}}
STEPS = 600


def options_of(game_id: str) -> dict[str, Any]:
    presentation = get_presentation(game_id)
    return PLAYERS.get(game_id) or presentation.DEMO_OPTIONS


def played(session: TableSession, game_id: str, seed: int = 3) -> list[dict[str, Any]]:
    """The snapshots (with their options' names) of a game the bots play from set-up to its end (or ``STEPS``)."""
    game = get_game(game_id)
    session.new_game(game_id, options_of(game_id), seed=seed)
    rng, bot, shots = random.Random(seed), RandomBot(), []
    for _ in range(STEPS):
        shots.append(with_option_labels(session.snapshot()))
        if game.is_over(session.state):
            break
        prompt = game.prompt(session.state)
        session.act(roll(game, bot.choose(game, session.state, prompt, rng), rng, session.state), actor=prompt.actor)
    return shots


def screen_texts(session: TableSession, game_id: str, lang: str) -> list[str]:
    """What the presentation gives a ``lang`` screen of a played game: option names, log lines, help texts."""
    presentation = get_presentation(game_id)
    shots = played(session, game_id)
    texts = [label for shot in shots for label in ((shot.get("prompt") or {}).get("labels") or {}).get(lang, [])
             if label]
    view = shots[-1]["view"]
    stored = [event.to_json() for event in session.events()]
    names = presentation.names(view, lang)
    texts += [line["text"] for entry in log_entries(stored, lang=lang, names=names, game=game_id)
              for line in entry["lines"]]
    texts += [f"{item['title']}: {item['text']}" for shot in shots
              for item in ((shot.get("prompt") or {}).get("help") or {}).get(lang, []) if item]
    return texts


def test_the_word_lists_know_the_languages_apart():
    assert {"verschleiß", "würfel"} <= foreign_words("en") and "dobbelsteen" in foreign_words("de")
    assert "turbo" not in foreign_words("en")  # a word every language uses is no language's own
    assert not {"julia", "klaus"} & foreign_words("en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_text_of_a_game_speaks_the_screens_language(session, game_id, lang):
    players = [p["name"] for p in options_of(game_id)["players"]]
    texts = screen_texts(session, game_id, lang)
    assert len(texts) > 10
    assert foreign_in(lang, texts, allowed=players) == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_screen_texts_speak_their_language(lang):
    assert foreign_in(lang, [ui(lang, key) for key in catalog(lang)["ui"]]) == {}


@pytest.mark.parametrize(("lang", "activated", "stepped"), [
    ("de", "Julia aktiviert einen weißen Würfel (3. Gang)", "Julia: der hellgraue Würfel fährt auf L1-9"),
    ("nl", "Julia activeert een wit blokje (3e versnelling)", "Julia: het lichtgrijze blokje rijdt naar L1-9"),
    ("en", "Julia activates a white cube (3rd gear)", "Julia's light grey cube enters L1-9")])
def test_a_cubes_colour_is_inflected_and_its_card_named_in_the_screens_language(lang, activated, stepped):
    from companion.games.automobiles.present import describe_event
    names = {"red": "Julia"}
    assert describe_event({"type": "activated", "player": "red", "colour": "white", "card": "gear_3"}, lang=lang,
                          names=names) == activated
    assert describe_event({"type": "stepped", "player": "red", "colour": "light_grey", "to": "L1-9"}, lang=lang,
                          names=names) == stepped


@pytest.mark.parametrize(("lang", "line"), [("de", "Der Tisch ist mit Einkaufen fertig"),
                                            ("nl", "De tafel is klaar met kopen"), ("en", "The table is done buying")])
def test_a_choice_without_a_player_is_the_tables(lang, line):
    stored = [{"seq": 1, "actor": "table", "type": "done", "payload": {"action": {"type": "done"}, "phase": "buy",
                                                                        "events": []}}]
    [entry] = log_entries(stored, lang=lang, names={"blue": "Julia"}, game="cubitos")
    assert entry["lines"][0]["text"] == line


@pytest.mark.parametrize("game_id", ["automobiles", "cubitos"])
def test_the_names_of_cards_and_tracks_are_texts_of_every_language(session, game_id):
    view = played(session, game_id)[0]["view"]
    layout = get_presentation(game_id).layout(view)
    keys = [card["name"] for card in layout["cards"].values()] + [t["name"] for t in layout.get("tracks") or []]
    for lang in LANGUAGES:
        assert all(key in catalog(lang)["ui"] for key in keys)


@pytest.mark.parametrize("game_id", ["automobiles", "chariot-race", "cubitos", "hexenrennen"])
def test_the_choices_of_a_game_say_what_they_do_in_every_language(session, game_id):
    helps = {lang: [h for shot in played(session, game_id) for h in (shot["prompt"].get("help") or {}).get(lang, [])
                    if h] for lang in LANGUAGES}
    assert helps["en"] and all(len(helps[lang]) == len(helps["en"]) for lang in LANGUAGES)
    assert all(h["title"] and h["text"] and isinstance(h["reference"], bool) for h in helps["de"])


def test_use_bob_says_what_bob_does():
    from companion.games.cubitos.present import option_help
    snapshot = {"game": {"id": "cubitos"}, "view": {"cards": {"blue": "bob"}}}
    bob = option_help({"type": "ability", "ability": "bob.1"}, snapshot, "en")
    assert bob == {"title": "Bob", "reference": False,
                   "text": "End of phase 6: receive every bonus of a space 1 or 2 spaces from your runner (not its own "
                           "space)."}
    krabs = option_help({"type": "ability", "ability": "mr_krabs.1"}, snapshot, "de")
    assert krabs["title"] == "Mr. Krabs" and krabs["reference"] is True
    assert option_help({"type": "buy", "die": "blue"}, snapshot, "nl")["title"] == "Bob"


def _cubitos_spaces(test):  # the first space of the reference track that ``test`` holds
    from companion.games.cubitos.kit import load_kit
    track = load_kit().tracks["verflinkst_und_zugenaeht"]
    return next(s for s in track.spaces.values() if test(s))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_cubitos_move_says_what_the_spaces_on_its_way_do(lang):
    from companion.games.cubitos.present import option_help
    jet = _cubitos_spaces(lambda s: (s.special or {}).get("type") == "jet")
    cut = _cubitos_spaces(lambda s: (s.special or {}).get("type") == "shortcut")
    water = _cubitos_spaces(lambda s: s.kind == "water")
    bonus = _cubitos_spaces(lambda s: any(b["type"] == "credits" for b in s.bonuses) and not s.special)
    snapshot = {"game": {"id": "cubitos"}, "view": {"current": "blue", "tracks": ["verflinkst_und_zugenaeht"],
                                                     "players": [{"colour": "blue", "track": 0, "space": cut.id}]}}
    words = catalog(lang)["ui"]
    move = option_help({"type": "move", "path": [water.id, jet.id, cut.id, bonus.id], "forward": True}, snapshot,
                       lang)
    assert move["reference"] is True and move["title"]  # the track's layout is reference data
    for key, space in (("cu_help_water", water), ("cu_help_jet", jet), ("cu_help_shortcut", cut)):
        assert words[key].split("{space}")[0] + space.id in move["text"]
    assert words["cu_help_bonus"].split("{space}")[0] + bonus.id in move["text"]
    passing = option_help({"type": "move", "path": [bonus.id, jet.id], "forward": True}, snapshot, lang)
    assert words["cu_help_bonus"].split("{space}")[0] + bonus.id not in passing["text"]  # passing gives nothing
    shortcut = option_help({"type": "shortcut"}, snapshot, lang)
    assert shortcut["title"] == words["cu_opt_shortcut"] and str(cut.special["to"]) in shortcut["text"]
    assert foreign_in(lang, [move["text"], shortcut["text"]]) == {}


def test_a_played_cubitos_offers_help_on_its_moves_in_every_language(session):
    shots = [s for s in played(session, "cubitos") if (s.get("prompt") or {}).get("phase") == "move"]
    helped = [(shot, i) for shot in shots for i, option in enumerate(shot["prompt"]["options"])
              if option["type"] == "move" and shot["prompt"]["help"]["en"][i]]
    assert helped
    assert all(shot["prompt"]["help"][lang][i]["text"] for shot, i in helped for lang in LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chariot_move_says_what_the_spaces_on_its_way_do(lang):
    from companion.games.chariot_race.present import option_help
    words = catalog(lang)["ui"]
    view = {"board": "B", "chariots": [{"id": "red", "colour": "red", "player": "Julia"},
                                       {"id": "blue", "colour": "blue", "player": "Klaus"}]}
    snapshot = {"game": {"id": "chariot-race"}, "view": view, "prompt": {"actor": "red", "phase": "move"}}
    effects = [{"type": "rammed", "chariot": "red", "target": "blue", "space": "L1-11"},
               {"type": "caltrop_hit", "chariot": "red", "space": "L1-12", "damage": 1},
               {"type": "curve_damage", "chariot": "red", "space": "L1-13", "speed": 7, "max_speed": 5, "damage": 2}]
    move = option_help({"type": "move", "path": ["straight"] * 3, "to": "L1-13", "damage": 5, "effects": effects},
                       snapshot, lang)
    assert move["reference"] is True and move["title"]  # the curve comes from the reconstructed board
    assert move["text"].startswith(words["cr_help_way"].format(to="L1-13"))
    assert ui(lang, "cr_help_curve", space="L1-13", max_speed=5, speed=7, damage=2) in move["text"]
    assert ui(lang, "cr_help_ram", space="L1-11", name="Klaus") in move["text"]
    assert ui(lang, "cr_help_caltrop_hit", space="L1-12") in move["text"]
    rocks = option_help({"type": "move", "path": ["straight"] * 2, "wrecked": True,
                         "effects": [{"type": "rocks", "chariot": "red", "space": "L1-05"}]}, snapshot, lang)
    assert ui(lang, "cr_help_rocks", space="L1-05") in rocks["text"]
    assert option_help({"type": "move", "path": ["straight"], "to": "L0-01", "effects": []}, snapshot, lang) is None
    assert foreign_in(lang, [move["text"], rocks["text"]], allowed=["Klaus"]) == {}


def test_a_played_chariot_race_offers_help_on_its_moves_in_every_language(session):
    helped = [(shot, i) for shot in played(session, "chariot-race")
              for i, option in enumerate(shot["prompt"]["options"] if shot.get("prompt") else [])
              if option["type"] == "move" and shot["prompt"]["help"]["en"][i]]
    assert helped
    assert all(shot["prompt"]["help"][lang][i]["text"] for shot, i in helped for lang in LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sponsor_says_what_it_does_at_the_choosers_place(lang):
    from companion.games.automobiles.present import option_help
    players = [{"colour": "red", "sponsor": "sponsor_B1"}, {"colour": "blue", "sponsor": None},
               {"colour": "green", "sponsor": None}]
    snapshot = {"game": {"id": "automobiles"}, "view": {"actor": "red", "players": players,
                                                         "placings": ["blue", "red", "green"]}}
    words = catalog(lang)["ui"]
    e1 = option_help({"type": "sponsor", "sponsor": "sponsor_E1"}, snapshot, lang)  # middle place: E1 verified
    assert e1["reference"] is False and e1["text"].startswith("E1: ")
    assert words["au_help_place_middle"] in e1["text"] and "6" in e1["text"]
    assert words["au_help_special_wear_per_nonwear_removed"].split("{")[0] in e1["text"]
    a1 = option_help({"type": "sponsor", "sponsor": "sponsor_A1"}, snapshot, lang)
    assert a1["reference"] is True and "$6" in a1["text"]  # a placeholder amount
    keep = option_help({"type": "keep_sponsor", "remove": "sponsor_A1"}, snapshot, lang)
    assert keep["text"].startswith(ui(lang, "au_help_sponsor_keep", sponsor="B1", removed="A1"))
    assert foreign_in(lang, [e1["text"], a1["text"], keep["text"]]) == {}


def test_a_played_automobiles_season_offers_help_on_its_sponsors_in_every_language(session):
    game, rng, bot = get_game("automobiles"), random.Random(3), RandomBot()
    players = options_of("automobiles")["players"][:2]
    session.new_game("automobiles", {"players": players, "season": ["reference_oval"] * 3}, seed=3)
    for _ in range(20 * STEPS):  # bots play the first race to its end, where the sponsors are chosen (AU-113)
        prompt = game.prompt(session.state)
        if any(o["type"] == "sponsor" for o in prompt.options):
            break
        session.act(roll(game, bot.choose(game, session.state, prompt, rng), rng, session.state), actor=prompt.actor)
    shot = with_option_labels(session.snapshot())
    helped = [i for i, option in enumerate(shot["prompt"]["options"]) if option["type"] == "sponsor"]
    assert helped and all(shot["prompt"]["help"][lang][i]["text"] for i in helped for lang in LANGUAGES)
