"""What every registered game owes the shared layers, checked over the registry: a game added without its log lines,
its texts in every language or a faithful replay fails here, not at a table."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from companion import texts
from companion.games import GAMES, get_game, get_presentation
from companion.games.base import GameBase
from companion.games.bots import RandomBot, roll
from companion.runtime import demo_options
from companion.session import replay
from companion.store import GameRecord
from companion.web import logtext

MAX_ACTIONS = 3000


def bot_game(game_id: str, seed: int) -> tuple[object, dict, list[dict]]:
    """A whole game of random bots, stored as the session stores it (the phase each action was chosen in)."""
    game, rng = get_game(game_id), random.Random(seed)
    options = demo_options(game_id)
    state = game.setup(options, random.Random(seed))
    stored = []
    for seq in range(1, MAX_ACTIONS + 1):
        if game.is_over(state):
            break
        prompt = game.prompt(state)
        choice = RandomBot().choose(game, state, prompt, rng)
        action = roll(game, choice, rng, state) if "roll" in choice else choice
        action = {k: v for k, v in action.items() if k != "roll"}
        state, events = game.apply(state, action)
        stored.append({"seq": seq, "actor": prompt.actor, "type": action["type"],
                       "payload": {"action": action, "events": events, "source": "bot", "phase": prompt.phase}})
    return state, options, stored


class Strict(dict):
    def __missing__(self, key: str) -> str:
        raise KeyError(f"a text asks for {{{key}}}, which its event does not give")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_action_of_a_bot_game_has_log_lines_in_every_language_with_every_field(game_id, monkeypatch):
    monkeypatch.setattr(texts, "_Fields", Strict)
    state, _, stored = bot_game(game_id, seed=3)
    game, presentation = get_game(game_id), get_presentation(game_id)
    assert presentation is not None, f"{game_id} has no present.py"
    for lang in texts.LANGUAGES:
        names = presentation.names(game.view(state), lang)
        entries = logtext.log_entries(stored, lang=lang, names=names, game=game_id)
        for entry in entries:
            assert entry["lines"], entry
            for line in entry["lines"]:
                assert "{" not in line["text"] and line["text"].strip(), (lang, line)


@pytest.mark.parametrize(("game_id", "action"), [("chariot-race", {"type": "skip_repair"}),
                                                ("cubitos", {"type": "skip"}), ("automobiles", {"type": "stop"})])
def test_the_log_names_who_chose_as_given_even_when_the_name_is_another_seats_id(game_id, action):
    presentation = get_presentation(game_id)
    names = {"green": "yellow", "yellow": "Klaus"}  # the player of green calls themself "yellow"
    [line] = presentation.log_lines(action, None, [], actor="yellow", lang="en", names=names)
    assert "yellow" in line["text"] and "Klaus" not in line["text"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_replaying_the_log_gives_the_state_of_live_play(game_id):
    state, options, stored = bot_game(game_id, seed=5)
    game = get_game(game_id)
    record = GameRecord(1, game_id, options, 5, 0.0, None)
    events = [type("Stored", (), {"type": e["type"], "seq": e["seq"], "payload": e["payload"]}) for e in stored]
    replayed, _ = replay(game, record, events)
    assert game.view(replayed) == game.view(state)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_layout_of_the_start_position_is_plain_json(game_id):
    game = get_game(game_id)
    state = game.setup(demo_options(game_id), random.Random(1))
    json.dumps(get_presentation(game_id).layout(game.view(state)), allow_nan=False)


def test_the_games_texts_merge_without_a_key_defined_twice():
    for lang in texts.LANGUAGES:
        texts.catalog.cache_clear()
        assert texts.catalog(lang)["log"]
    texts.catalog.cache_clear()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_that_tells_luck_says_in_its_own_texts_in_every_language_what_it_counts(game_id):
    if getattr(type(get_game(game_id)), "luck", GameBase.luck) is GameBase.luck:
        return  # tells no luck: nothing to explain
    key = getattr(get_presentation(game_id), "LUCK_COUNTED", None)
    assert key, f"{game_id}: its present.py names the ui key of what its luck counts (LUCK_COUNTED)"
    for lang in texts.LANGUAGES:
        own = json.loads(resources.files(GAMES[game_id]).joinpath("i18n", f"{lang}.json").read_text("utf-8"))
        assert own["ui"][key], (game_id, lang)


def test_the_shared_texts_name_no_game():
    titles = {get_game(game_id).title.lower() for game_id in GAMES}
    for lang in texts.LANGUAGES:
        shared = (texts.SHARED_DIR / f"{lang}.json").read_text("utf-8").lower()
        assert not [title for title in titles if title in shared], lang


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_face_the_camera_reads_is_a_face_of_one_kind_of_die_whose_chances_add_up_to_one(game_id):
    game = get_game(game_id)
    kinds = game.dice_chances()
    if not kinds:  # no dice (a bag of cubes): nothing to judge for fairness
        return
    faces = [face for chances in kinds.values() for face in chances]
    assert sorted(faces) == sorted(set(game.die_faces)), "each face of die_faces belongs to exactly one kind"
    for chances in kinds.values():
        assert sum(chances.values()) == pytest.approx(1.0) and min(chances.values()) > 0


def test_games_that_share_a_dice_set_agree_on_its_dice():
    by_set: dict[str, dict] = {}
    for game_id in GAMES:
        game = get_game(game_id)
        assert by_set.setdefault(game.dice_set, game.dice_chances()) == game.dice_chances(), game.dice_set


def test_a_face_printed_twice_is_twice_as_likely():
    chariot = get_game("chariot-race").dice_chances()["chariot_race"]
    assert chariot["steer"] == pytest.approx(2 / 6) and chariot["drive"] == pytest.approx(1 / 6)
    red = get_game("cubitos").dice_chances()["red"]
    assert red == pytest.approx({"red/team": 2 / 6, "red/special": 1 / 6, "red/blank": 3 / 6})
