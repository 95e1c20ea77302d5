"""The Hexen Rennen data files load, a wrong one fails with its file name and the field, and the generic bots play
the game (the same ``companion.games.bots`` that play Chariot Race)."""

from __future__ import annotations

import copy

import pytest

from companion.games.bots import GreedyBot, RandomBot, play_game, replay
from companion.games.hexenrennen import GAME
from companion.games.hexenrennen.kit import kit_from_data, load_kit, read_data_file
from companion.games.hexenrennen.schema import DataError

TWO = {"players": [{"name": "Ada", "colour": "blue"}, {"name": "Bo", "colour": "green"}], "tiles": "shuffled"}


def test_every_shipped_file_passes_its_schema():
    kit = kit_from_data(read_data_file("clans.json"), read_data_file("track.json"))
    assert kit == load_kit()
    assert (kit.track_length, kit.last_space, kit.finish_points) == (48, 51, (2, 3, 4))


@pytest.mark.parametrize("change, message", [
    (lambda c, t: c.pop("clans"), "clans.json: clans: missing"),
    (lambda c, t: c["clans"].append("blue"), "clans.json: clans: each clan once"),
    (lambda c, t: c["clans"].__setitem__(2, "light-blue"), "clans.json: clans[2]: expected a colour id"),
    (lambda c, t: c["tiles"]["numbers"].__setitem__(4, "6"), "clans.json: tiles.numbers[4]: expected a number"),
    (lambda c, t: c["cards"].update(magic=True), "clans.json: cards.magic: expected int, got True"),
    (lambda c, t: c.update(witches_per_clan=0), "clans.json: witches_per_clan: expected 1..9, got 0"),
    (lambda c, t: t.update(stage_length=15), "track.json: stage_length: expected tiles_per_clan_per_stage x clans"),
    (lambda c, t: t.update(magic_per_clan_per_stage=2), "track.json: magic_per_clan_per_stage: 3 magic tiles"),
    (lambda c, t: t["finish_points"].append(-1), "track.json: finish_points[3]: expected points >= 0"),
    (lambda c, t: c["tiles"]["numbers"].pop(), "track.json: tiles_per_clan_per_stage: 8 number and 3 magic"),
])
def test_a_bad_file_names_the_file_and_the_field(change, message):
    clans, track = copy.deepcopy(read_data_file("clans.json")), copy.deepcopy(read_data_file("track.json"))
    change(clans, track)
    with pytest.raises(DataError) as err:
        kit_from_data(clans, track)
    assert str(err.value).startswith(message), str(err.value)


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()], ids=["random", "greedy"])
@pytest.mark.parametrize("tiles", ["shuffled", "hidden"])
def test_the_generic_bots_play_a_whole_game_that_replays(bot, tiles):
    options = {**TWO, "tiles": tiles}
    final, actions = play_game(GAME, options, seed=7, bots=bot)
    assert GAME.is_over(final) and actions
    assert all("dice" in a for a in actions if "roll" in a)
    assert replay(GAME, options, 7, actions) == final


def test_bots_per_actor_including_the_owner_of_a_magic_tile():
    final, actions = play_game(GAME, {**TWO, "players": TWO["players"] + [{"name": "Cy", "colour": "yellow"}]},
                               seed=3, bots={"blue": GreedyBot(), "green": RandomBot(), "yellow": RandomBot()})
    assert GAME.is_over(final)


def test_the_view_is_json_and_never_shows_the_layout():
    import json

    final, actions = play_game(GAME, TWO, seed=11, bots=RandomBot())
    view = GAME.view(final)
    assert json.loads(json.dumps(view)) == view
    assert set(view) >= {"track", "witches", "players", "scores", "current", "phase", "chain", "neutrals"}
    hidden = [t["space"] for t in view["track"] if t["tile"] is None]
    assert "truth" not in json.dumps(view) and hidden  # bots rarely reveal all 48 tiles
