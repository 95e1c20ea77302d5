"""Cubes and cars on the track: a step (AU-26..AU-34), the car's move and its crossings (AU-38, AU-41, AU-56), wear
(AU-42..AU-45) and Sog (AU-49)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.automobiles.state import (
    GEARS,
    Stage,
    State,
    car_at,
    entries,
    field_colours,
    field_of,
    field_segments,
    seat,
)
from companion.games.base import Event

SOURCE_SLIDE = True
"""AU-26 **Decision**: a step may start from a free segment further forward in the source's field (``False``: only
from the segment the cube or car rests on)."""

Landing = tuple[str, str, int, str, tuple[str, ...]]
"""(the source the step starts from, the landing, crossings on the way, the field entered, the field's colours)."""


def free(state: State, segment: str, mover: int | None) -> bool:
    """AU-28: no other car on the segment (the moving car itself does not block its own way)."""
    p = car_at(state, segment)
    return p is None or p == mover


def reach(state: State, source: str, mover: int | None) -> list[Landing]:
    """AU-26..AU-29: every landing of one step from ``source``. The step may start from the source or (AU-26) a
    segment further forward in its field up to the first car; it enters a field listed in the track data's
    ``entries`` (AU-27 **Decision**) and slides to the front-most free segment before a car (AU-29), or under the
    weaving variant stops on any free segment up to there (AU-118)."""
    cars = {player.segment for player in state.players} - {state.players[mover].segment if mover is not None else ""}
    track = state.table.track
    segments = field_segments(state, field_of(state, source))
    starts, crossed = [(source, 0)], 0
    if SOURCE_SLIDE and source in segments:
        for nxt in segments[segments.index(source) + 1:]:
            crossed += track.segments[nxt].line_at_back
            starts.append((nxt, crossed))
    found = []
    for k, (start, crossed) in enumerate(starts):
        if k and start in cars:
            break
        own = field_of(state, start)
        for entry in entries(state, start):
            target = field_of(state, entry)
            into = field_segments(state, target)
            if target == own or entry not in into:
                continue
            stops, n = [], crossed
            for seg in into[into.index(entry):]:
                if seg in cars:
                    break
                n += track.segments[seg].line_at_back
                stops.append((start, seg, n, target, field_colours(state, target)))
            found += stops if state.table.weaving else stops[-1:]
    return found


def barred(state: State, stage: Stage) -> frozenset[str]:
    """AU-31 **Decision**: the player's cubes enter each field at most once per turn, and never the car's own
    field; a car moving outside the movement phase only avoids the fields of its own move."""
    own = field_of(state, state.players[stage.who].segment)
    if stage.mover == "car" and not stage.counts_wear:
        return frozenset(stage.fields) | {own}
    return state.turn.entered | frozenset(stage.fields) | {own}


def step_choices(state: State, stage: Stage) -> dict[tuple[str, str, str], tuple[int, str]]:
    """The steps a move stage may take next: (from, to, colour named) -> (crossings after, field entered). A multi-
    colour field may be entered as any of its colours the stage allows (AU-30 **Decision**)."""
    player = state.players[stage.who]
    if stage.mover == "car":
        starts = [(player.segment, player.crossings)]
    elif stage.at is not None:
        starts = [(stage.at, stage.crossings)]
    else:
        starts = [(player.segment, player.crossings)] + [(c.segment, c.crossings) for c in state.turn.placed]
    shut = barred(state, stage)
    mover = stage.who if stage.mover == "car" else None
    found: dict[tuple[str, str, str], tuple[int, str]] = {}
    for start, crossings in dict.fromkeys(starts):
        for frm, to, n, target, colours in reach(state, start, mover):
            allowed = [c for c in colours if c in stage.colours]
            if target in shut or not allowed:
                continue
            for colour in allowed if stage.same_colour else ("",):
                found.setdefault((frm if stage.mover == "cube" and stage.at is None else "", to, colour),
                                 (crossings + n, target))
    return found


def steppable(state: State, p: int) -> frozenset[str]:
    """AU-21, AU-32: the gear colours a cube of ``p`` can take one step in now, from the car or a placed cube."""
    shut = state.turn.entered | {field_of(state, state.players[p].segment)}
    starts = dict.fromkeys([state.players[p].segment, *[c.segment for c in state.turn.placed]])
    return frozenset(c for start in starts for _, _, _, target, colours in reach(state, start, None)
                     if target not in shut for c in colours if c in GEARS)


def can_step(state: State, p: int, colours: tuple[str, ...]) -> bool:
    return not steppable(state, p).isdisjoint(colours)


def cross(state: State, p: int, crossings: int, events: list[Event], segment: str) -> State:
    """AU-41, AU-56: each crossing moves the lap marker one field towards Finish (AU-49 **Decision**: a crossing by
    Sog too); ``segment``: where the car that crossed now stands."""
    player = state.players[p]
    moved = crossings - player.crossings
    last = len(state.table.kit.lap_track) - 1
    marker = min(last, player.marker + max(0, moved))
    state = state.with_player(p, crossings=crossings, marker=marker, segment=segment)
    if moved > 0:
        events.append({"type": "crossed", "player": seat(state, p), "marker": state.table.kit.lap_track[marker]})
        if marker == last and player.marker < last:
            events.append({"type": "finished", "player": seat(state, p)})
    return state


def car_to(state: State, p: int, segment: str, crossings: int, events: list[Event], why: str) -> State:
    player = state.players[p]
    if player.segment in state.protected and segment != player.segment:  # AU-34: it has left its start field
        state = state._replace(protected=tuple(s for s in state.protected if s != player.segment))
    events.append({"type": "car_moved", "player": seat(state, p), "to": segment, "why": why})
    return cross(state, p, crossings, events, segment)


def sog(state: State, events: list[Event]) -> State:
    """AU-49: every car moves forward inside its own field to the front-most free segment (**Decision**: the
    front car of a field first)."""
    track = state.table.track

    def index(p: int) -> int:
        segment = state.players[p].segment
        return -field_segments(state, field_of(state, segment)).index(segment)

    for p in sorted(range(len(state.players)), key=index):
        segment = state.players[p].segment
        if segment in state.protected:
            continue
        segments = field_segments(state, field_of(state, segment))
        crossings, to = state.players[p].crossings, segment
        for nxt in segments[segments.index(segment) + 1:]:
            if car_at(state, nxt) is not None:
                break
            to, crossings = nxt, crossings + track.segments[nxt].line_at_back
        if to != segment:
            events.append({"type": "sog", "player": seat(state, p), "to": to})
            state = cross(state, p, crossings, events, to)
    return state


def slipstream(state: State, p: int) -> bool:
    """AU-44: the segment ahead of the car holds another player's car (checked after the movement phase)."""
    ahead = state.table.track.segments[state.players[p].segment].ahead
    return ahead is not None and car_at(state, ahead) not in (None, p)


def wear_table_value(state: State, fields: frozenset[str]) -> int:
    """AU-42 **Decision**: the wear table's value of the highest gear colour among every field a cube or (in the
    movement phase) the car entered; 0 for none."""
    return max((GEARS.index(c) + 1 for f in fields for c in field_colours(state, f) if c in GEARS), default=0)


def wear_owed(state: State, p: int) -> int:
    """AU-43: 0 without a car move, in slipstream or under base_red_1; else the wear table's value."""
    turn = state.turn
    if not turn.car_moved or slipstream(state, p) or turn.no_wear:
        return 0
    return wear_table_value(state, turn.entered)


def why_no_step(state: State, p: int, colours: tuple[str, ...]) -> tuple[str, str]:
    """AU-28, AU-31, AU-30: why no step of ``colours`` can be taken from the car or a placed cube."""
    shut = barred(state, Stage(kind="move", then="", who=p, colours=colours))
    reasons = set()
    for start in [state.players[p].segment] + [c.segment for c in state.turn.placed]:
        for entry in entries(state, start):
            target = field_of(state, entry)
            if not set(field_colours(state, target)) & set(colours):
                reasons.add("AU-30")
            elif not free(state, entry, None):
                reasons.add("AU-28")
            elif target in shut:
                reasons.add("AU-31")
    rule = next((r for r in ("AU-28", "AU-31", "AU-30") if r in reasons), "AU-27")
    return rule, f"no {'/'.join(colours)} field can be entered from the car or a placed cube"


def why_not_there(state: State, stage: Stage, action: Mapping[str, Any]) -> tuple[str, str]:
    """AU-27..AU-31: which rule a refused step breaks."""
    to = action.get("to")
    if to not in state.table.track.segments:
        return "AU-27", f"no segment {to!r} on this track"
    target = field_of(state, to)
    if target in barred(state, stage):
        return "AU-31", f"field {target} was already used this turn"
    if not free(state, to, stage.who if stage.mover == "car" else None):
        return "AU-28", f"{to} holds another car"
    if not set(field_colours(state, target)) & set(stage.colours):
        return "AU-30", (f"field {target} is {'/'.join(field_colours(state, target))}, the step needs "
                         f"{'/'.join(stage.colours)}")
    if any(key[1] != to and field_of(state, key[1]) == target for key in step_choices(state, stage)):
        return "AU-29", f"a cube entering {target} slides to its front-most free segment"
    return "AU-27", f"{to} cannot be entered from there"
