"""The data files load, and a wrong one fails with its file name and the field at fault."""

from __future__ import annotations

import copy
from unittest import mock

import pytest

from companion.games import datafile
from companion.games.chariot_race.board import BOARD_FILES, build_board, read_data_file
from companion.games.chariot_race.components import (
    ALTERNATIVES,
    chariot_board_from_data,
    chariot_file,
    load_chariot_board,
)
from companion.games.chariot_race.schema import DataError, check_dice


def test_every_shipped_file_passes_its_schema():
    for name in BOARD_FILES.values():
        build_board(read_data_file(name), name)
    for name in ["standard"] + [f"alt-{c}" for c in ALTERNATIVES]:
        load_chariot_board(name)
    check_dice(read_data_file("dice.json"), "dice.json")


def broken_board(change):
    data = copy.deepcopy(read_data_file("board-A.json"))
    change(data)
    return data


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("lap_length"), "lap_length: missing"),
    (lambda d: d["spaces"][3].update(front="far"), "spaces[3].front: expected int or float, got 'far'"),
    (lambda d: d["spaces"][3].update(front=0.5), "spaces[3].front: expected 0 <= back < front"),
    (lambda d: d["spaces"][11].update(max_speed="3"), "spaces[11].max_speed: expected int"),
    (lambda d: d["spaces"][5].update(lane=3), "spaces[5].lane: expected 0..2, got 3"),
    (lambda d: d["spaces"][6].update(id="L0-05"), "spaces[6].id: duplicate space id 'L0-05'"),
    (lambda d: d["start_positions"].update({"2": "L7-01"}), "start_positions.2: unknown space 'L7-01'"),
    (lambda d: d["start_positions"].update({"2": "L1-20"}), "start_positions.2: start space L1-20 must lie"),
    (lambda d: d["spaces"][0].update(rocks="yes"), "spaces[0].rocks: expected bool"),
    (lambda d: d["spaces"][40].update(max_sped=5), "spaces[40].max_sped: unknown key; known: id, lane"),
    (lambda d: d.update(laps=3), "laps: unknown key; known: game, side"),
])
def test_a_bad_board_names_the_file_and_the_field(change, field):
    with pytest.raises(DataError) as err:
        build_board(broken_board(change), "board-A.json")
    assert str(err.value).startswith(f"board-A.json: {field}")


@pytest.mark.parametrize("change, field", [
    (lambda d: d["damage"].pop("max"), "damage.max: missing"),
    (lambda d: d.update(speed_cap=d["speed_cap"][:-1]), "speed_cap: expected 13 entries"),
    (lambda d: d["speed_cap"].__setitem__(4, 13), "speed_cap[4]: expected a speed 0..12, got 13"),
    (lambda d: d["dice_by_speed"].__setitem__(0, 6), "dice_by_speed[0]: expected 1..5 dice, got 6"),
    (lambda d: d["fortune"].update(start=7), "fortune.start: expected 0..6, got 7"),
])
def test_a_bad_chariot_board_names_the_file_and_the_field(change, field):
    data = copy.deepcopy(read_data_file(chariot_file("standard")))
    change(data)
    with pytest.raises(DataError) as err:
        chariot_board_from_data(data, "chariot-standard.json")
    assert str(err.value).startswith(f"chariot-standard.json: {field}")


def test_a_bad_die_face_is_named():
    with pytest.raises(DataError, match=r"dice.json: faces\[2\]: expected one of .* got 'skull'"):
        check_dice({"count": 5, "faces": ["drive", "gallop", "skull", "steer", "attack", "fortune"]}, "dice.json")


def test_a_file_that_is_not_json_is_named():
    class Broken:
        def joinpath(self, *parts):
            return self

        def read_text(self, encoding):
            return '{"count": 5,'

    with mock.patch.object(datafile.resources, "files", return_value=Broken()):
        with pytest.raises(DataError, match=r"^dice.json: line 1: not valid JSON"):
            read_data_file("dice.json")
