"""The contents of the Automobiles box, read from ``data/`` and checked at load (``schema.py``). Costs, values,
sponsor amounts and track layouts not in the rules text are placeholders a table corrects there (README), so
nothing here or in the rules hard-codes them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.games.automobiles.schema import check_cards, check_cubes, check_tracks
from companion.games.datafile import read_data, record


@dataclass(frozen=True)
class Cube:
    id: str
    name_de: str
    count: int
    kind: str
    """``gear``, ``action`` or ``wear`` (AU-1)."""
    starting_bag: int
    buyable: bool


@dataclass(frozen=True)
class Card:
    id: str
    name_de: str | None
    colour: str
    category: str
    source: str
    cost: int | None
    value: int
    verified: bool
    """False while cost and value are placeholders (AU-3)."""
    effect: dict[str, Any]
    rule: str


@dataclass(frozen=True)
class Segment:
    id: str
    field: str
    lane: int
    back: float
    front: float
    line_at_back: bool
    entries: tuple[str, ...]
    """AU-27: the segments of other fields a move may enter from this one."""
    ahead: str | None
    """AU-44: the next segment in the same lane."""


@dataclass(frozen=True)
class Field:
    id: str
    lane: int
    back: float
    front: float
    colours: tuple[str, ...]
    segments: tuple[str, ...]
    """Rear to front."""


@dataclass(frozen=True)
class Track:
    id: str
    name: str
    reference: bool
    lap_length: float
    fields: dict[str, Field]
    segments: dict[str, Segment]
    start_positions: tuple[tuple[str, str, int], ...]
    """(P1.., segment, money for the opening buy) in grid order (AU-11, AU-13)."""
    protected_start: tuple[str, ...] = ()
    """AU-34: start segments (``own_field_until_left``) that are a field of their own until their car leaves."""

    def along(self, crossings: int, segment: str) -> float:
        """AU-19: how far a car or a cube has come, its crossings of the finish line times the lap length plus the
        front of its segment: the one measure of who leads and which placed cube is furthest."""
        return crossings * self.lap_length + self.segments[segment].front


@dataclass(frozen=True)
class Kit:
    cubes: dict[str, Cube]
    draw_per_turn: int
    fixed_cards: dict[str, Card]
    action_cards: dict[str, Card]
    drivers: tuple[dict[str, Any], ...]
    sponsors: tuple[dict[str, Any], ...]
    lap_track: tuple[str, ...]
    lap_start: str
    tracks: dict[str, Track]
    """The tracks whose layout is known (the printed ones once transcribed; ``reference_oval`` until then)."""
    untranscribed: tuple[str, ...]
    """Printed tracks the data names but does not yet lay out (``geometry: null``)."""


def _card(data: dict[str, Any]) -> Card:
    return record(Card, data, verified=data["cost_value_verified"], effect=dict(data["effect"]))


def _track(data: dict[str, Any]) -> Track:
    fields = {f["id"]: Field(id=f["id"], lane=f["lane"], back=f["back"], front=f["front"],
                             colours=tuple(f["colours"]), segments=tuple(f["segments"])) for f in data["fields"]}
    segments = {s["id"]: record(Segment, s, line_at_back=bool(s.get("line_at_back")), entries=tuple(s["entries"]))
                for s in data["segments"]}
    starts = tuple((p["id"], p["segment"], p["money"]) for p in data["start_positions"])
    return Track(id=data["id"], name=data.get("name", data["id"]), reference=data["reference"],
                 lap_length=data["lap_length"], fields=fields, segments=segments, start_positions=starts,
                 protected_start=tuple(p["segment"] for p in data["start_positions"] if p.get("own_field_until_left")))


def kit_from(cubes: dict[str, Any], cards: dict[str, Any], tracks: dict[str, Any]) -> Kit:
    """The kit from the three files' contents, checked; each error names its file and field."""
    check_cubes(cubes, "cubes.json")
    check_cards(cards, {c["id"] for c in cubes["cubes"]}, "cards.json")
    check_tracks(tracks, "tracks.json")
    laid_out = [t for t in tracks["tracks"] if "segments" in t]
    return Kit(
        cubes={c["id"]: record(Cube, c) for c in cubes["cubes"]},
        draw_per_turn=cubes["draw_per_turn"],
        fixed_cards={c["id"]: _card(c) for c in cards["fixed_cards"]},
        action_cards={c["id"]: _card(c) for c in cards["action_cards"]},
        drivers=tuple(cards["drivers"]), sponsors=tuple(cards["sponsors"]),
        lap_track=tuple(tracks["lap_track"]["fields"]), lap_start=tracks["lap_track"]["default_start"],
        tracks={t["id"]: _track(t) for t in laid_out},
        untranscribed=tuple(t["id"] for t in tracks["tracks"] if "segments" not in t))


@cache
def load_kit() -> Kit:
    return kit_from(*(read_data(__package__, name) for name in ("cubes.json", "cards.json", "tracks.json")))
