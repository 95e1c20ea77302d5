"""The contents of the box, read from ``data/`` and checked at load: clans, witches, tiles, cards, the track."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from companion.games.datafile import read_data
from companion.games.hexenrennen.schema import check_clans, check_kit, check_track

MAGIC = 0
"""The value of a magic tile or card inside the engine; ``"magic"`` in actions, events and the view."""


@dataclass(frozen=True)
class Kit:
    """What a game is played with. Spaces: 0 is the start, 1..``track_length`` the tiles, then the finish fields."""

    clans: tuple[str, ...]
    witches_per_clan: int
    tile_numbers: tuple[int, ...]
    tile_magic: int
    card_numbers: tuple[int, ...]
    card_magic: int
    stages: int
    stage_length: int
    tiles_per_stage: int
    """HR-3: tiles each clan puts into each stage."""
    magic_per_stage: int
    finish_points: tuple[int, ...]

    @cached_property
    def track_length(self) -> int:
        return self.stages * self.stage_length

    @cached_property
    def last_space(self) -> int:
        """The finish field with the most points: nothing may move beyond it (HR-17)."""
        return self.track_length + len(self.finish_points)

    @cached_property
    def numbers_per_stage(self) -> int:
        return self.tiles_per_stage - self.magic_per_stage

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """HR-2: one clan's cards, sorted, magic (0) first."""
        return (MAGIC,) * self.card_magic + tuple(sorted(self.card_numbers))

    def stage_of(self, space: int) -> int:
        """HR-3: the stage (0-based) of a track space 1..track_length."""
        return (space - 1) // self.stage_length

    def points(self, space: int) -> int:
        """HR-19: points of a finish field, 0 anywhere else."""
        return self.finish_points[space - self.track_length - 1] if space > self.track_length else 0


def read_data_file(name: str) -> Any:
    """A JSON file of this package's ``data/`` folder (:func:`~companion.games.datafile.read_data`)."""
    return read_data(__package__, name)


def kit_from_data(clans: Any, track: Any) -> Kit:
    check_clans(clans, "clans.json")
    check_track(track, "track.json")
    check_kit(clans, track, "track.json")
    return Kit(
        clans=tuple(clans["clans"]),
        witches_per_clan=clans["witches_per_clan"],
        tile_numbers=tuple(sorted(clans["tiles"]["numbers"])),
        tile_magic=clans["tiles"]["magic"],
        card_numbers=tuple(sorted(clans["cards"]["numbers"])),
        card_magic=clans["cards"]["magic"],
        stages=track["stages"],
        stage_length=track["stage_length"],
        tiles_per_stage=track["tiles_per_clan_per_stage"],
        magic_per_stage=track["magic_per_clan_per_stage"],
        finish_points=tuple(track["finish_points"]),
    )


@cache
def load_kit() -> Kit:
    """The shipped box, checked once per process."""
    return kit_from_data(read_data_file("clans.json"), read_data_file("track.json"))
