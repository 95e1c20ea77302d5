"""The Automobiles box as data: the shipped files load, placeholders say so, and a wrong file names its field."""

from __future__ import annotations

import copy

import pytest

from companion.games.automobiles.kit import kit_from
from companion.games.datafile import DataError, read_data

FILES = ("cubes.json", "cards.json", "tracks.json")


def files() -> dict[str, dict]:
    return {name: copy.deepcopy(read_data("companion.games.automobiles", name)) for name in FILES}


def test_the_shipped_box_loads_with_282_cubes_a_12_cube_bag_and_the_reference_oval():
    kit = kit_from(*files().values())
    assert sum(c.count for c in kit.cubes.values()) == 282  # AU-1
    assert {c: cube.starting_bag for c, cube in kit.cubes.items() if cube.starting_bag} == {
        "white": 5, "light_grey": 2, "yellow": 5}  # AU-12
    assert kit.draw_per_turn == 7 and kit.lap_start == "3"
    assert not kit.cubes["brown"].buyable  # WEAR_BUYABLE
    oval = kit.tracks["reference_oval"]
    assert oval.reference and oval.lap_length == 32 and len(oval.start_positions) == 5
    assert "daytona_beach" in kit.untranscribed


def test_card_costs_are_placeholders_until_a_table_verifies_them():
    kit = kit_from(*files().values())
    assert not any(card.verified for card in [*kit.fixed_cards.values(), *kit.action_cards.values()])
    assert {card.colour for card in kit.action_cards.values()} == {"yellow", "red", "purple", "blue", "green"}


@pytest.mark.parametrize(("file", "edit", "field"), [
    ("cubes.json", lambda d: d["cubes"][0].update(count="30"), "cubes[0].count"),
    ("cubes.json", lambda d: d.update(total=281), "total"),
    ("cubes.json", lambda d: d["cubes"][1].update(gear=5), "cubes[1].gear"),
    ("cards.json", lambda d: d["action_cards"][2].update(colour="pink"), "action_cards[2].colour"),
    ("cards.json", lambda d: d["action_cards"][4].update(duration="forever"), "action_cards[4].duration"),
    ("tracks.json", lambda d: d["tracks"][5]["segments"][3].update(ahead="L9-99"), "tracks[5].segments[3].ahead"),
    ("tracks.json", lambda d: d["tracks"][5]["start_positions"][0].update(segment="L7-00"),
     "tracks[5].start_positions[0].segment"),
    ("tracks.json", lambda d: d["lap_track"].update(default_start="9"), "lap_track.default_start"),
    ("tracks.json", lambda d: d["tracks"][5]["fields"][0]["segments"].append("L2-12"),
     "tracks[5].fields[0].segments[1]"),
])
def test_a_wrong_data_file_names_the_file_and_the_field(file, edit, field):
    data = files()
    edit(data[file])
    with pytest.raises(DataError) as refused:
        kit_from(*data.values())
    assert (refused.value.source, refused.value.field) == (file, field)
