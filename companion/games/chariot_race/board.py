"""The race track as geometry computed once: who is next to whom, where a lane change lands, what is in range.

Spaces are numbered 0..n-1 in file order; the rules work on these integers and tuples so that a bot game does not
look anything up by string. ``Board.ids`` maps back to the printed ids (``"L2-14"``) for views and events.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.games.chariot_race.schema import DataError, check_board
from companion.games.datafile import read_data

NO_SPACE = -1
NO_LIMIT = 99
"""``max_speed`` of a space that is not a numbered curve space."""
SPEAR_RANGE = 2
"""CR-21: a spear reaches chariots at most this many steps away."""
STEPS = ("straight", "in", "out")
"""CR-16 path steps: same lane, towards lane 0, towards lane 2."""


@dataclass(frozen=True, eq=False)
class Board:
    """One side (A or B) of the board; compared by identity, loaded once per name (``load_board``)."""

    name: str
    data: dict[str, Any]
    ids: tuple[str, ...]
    index: dict[str, int]
    lane: tuple[int, ...]
    back: tuple[float, ...]
    front: tuple[float, ...]
    max_speed: tuple[int, ...]
    rocks: tuple[bool, ...]
    ahead: tuple[int, ...]
    """Next space of the same lane."""
    behind: tuple[int, ...]
    """Previous space of the same lane (CR-18: placing a rammer behind)."""
    inward: tuple[int, ...]
    """CR-16 lane-change target towards lane 0, ``NO_SPACE`` from lane 0."""
    outward: tuple[int, ...]
    """CR-16 lane-change target towards lane 2, ``NO_SPACE`` from lane 2."""
    links: tuple[frozenset[int], ...]
    """CR-21: the spaces one step away in any direction (ahead, behind, lane changes forwards and backwards)."""
    in_spear_range: tuple[frozenset[int], ...]
    """CR-21: spaces at most ``SPEAR_RANGE`` steps away in any direction, the own space excluded."""
    lap_length: float
    start_spaces: tuple[int, ...]
    """Start positions 1..6 (index 0 is position 1)."""

    def step(self, space: int, step: str) -> int:
        """Where one path step from ``space`` lands, ``NO_SPACE`` when the lane does not exist."""
        if step == "straight":
            return self.ahead[space]
        if step == "in":
            return self.inward[space]
        if step == "out":
            return self.outward[space]
        raise ValueError(f"unknown path step {step!r}; steps are {', '.join(STEPS)}")

    def steps_between(self, origin: int, target: int) -> int:
        """CR-21: how many steps apart two spaces are, counted over ``links``; a refused spear says it."""
        seen, frontier, steps = {origin}, {origin}, 0
        while target not in seen:
            frontier = {j for k in frontier for j in self.links[k]} - seen
            seen |= frontier
            steps += 1
        return steps

    def wraps(self, origin: int, target: int) -> bool:
        """True when going forwards from ``origin`` to ``target`` crosses the finish line (CR-23)."""
        return self.front[target] < self.front[origin]


def lane_change_target(fronts: list[float], lanes: list[int], lap: float, space: int, lane: int) -> int:
    """CR-16 **Decision**: the space of ``lane`` with the smallest ``front`` strictly ahead of ``space``'s front.

    "Ahead" is measured forwards around the lap, so a change at the end of the lap lands past the finish line.
    """
    best, best_gap = NO_SPACE, lap * 2
    for other, other_lane in enumerate(lanes):
        if other_lane != lane:
            continue
        gap = (fronts[other] - fronts[space]) % lap
        if 1e-9 < gap < best_gap:
            best, best_gap = other, gap
    return best


def build_board(data: dict[str, Any], source: str) -> Board:
    """Check ``data`` (CR-5 schema) and precompute the geometry; ``source`` names the file in errors."""
    check_board(data, source)
    spaces = data["spaces"]
    lap = float(data["lap_length"])
    ids = [s["id"] for s in spaces]
    index = {sid: i for i, sid in enumerate(ids)}
    lanes = [s["lane"] for s in spaces]
    fronts = [float(s["front"]) for s in spaces]
    order = {lane: sorted((s["index"], i) for i, s in enumerate(spaces) if s["lane"] == lane) for lane in (0, 1, 2)}
    ahead = [NO_SPACE] * len(spaces)
    behind = [NO_SPACE] * len(spaces)
    for entries in order.values():
        loop = [i for _, i in entries]
        for k, i in enumerate(loop):
            ahead[i] = loop[(k + 1) % len(loop)]
            behind[i] = loop[k - 1]
    inward = [lane_change_target(fronts, lanes, lap, i, lanes[i] - 1) if lanes[i] > 0 else NO_SPACE
              for i in range(len(spaces))]
    outward = [lane_change_target(fronts, lanes, lap, i, lanes[i] + 1) if lanes[i] < 2 else NO_SPACE
               for i in range(len(spaces))]
    neighbours: list[set[int]] = [set() for _ in spaces]
    for i in range(len(spaces)):
        for j in (ahead[i], inward[i], outward[i]):
            if j != NO_SPACE:
                neighbours[i].add(j)
                neighbours[j].add(i)
    links = tuple(frozenset(n) for n in neighbours)
    in_range = []
    for i in range(len(spaces)):
        reached, frontier = {i}, {i}
        for _ in range(SPEAR_RANGE):
            frontier = {j for k in frontier for j in links[k]} - reached
            reached |= frontier
        in_range.append(frozenset(reached - {i}))
    return Board(
        name=str(data.get("side", source)),
        data=data,
        ids=tuple(ids),
        index=index,
        lane=tuple(lanes),
        back=tuple(float(s["back"]) for s in spaces),
        front=tuple(fronts),
        max_speed=tuple(s.get("max_speed", NO_LIMIT) for s in spaces),
        rocks=tuple(bool(s.get("rocks", False)) for s in spaces),
        ahead=tuple(ahead),
        behind=tuple(behind),
        inward=tuple(inward),
        outward=tuple(outward),
        links=links,
        in_spear_range=tuple(in_range),
        lap_length=lap,
        start_spaces=tuple(index[data["start_positions"][str(n)]] for n in range(1, 7)),
    )


BOARD_FILES = {"A": "board-A.json", "B": "board-B.json"}


def read_data_file(name: str) -> Any:
    """A JSON file of this package's ``data/`` folder (:func:`~companion.games.datafile.read_data`)."""
    return read_data(__package__, name)


@cache
def load_board(side: str) -> Board:
    """The shipped board of ``side`` ("A" or "B"), checked and precomputed once per process."""
    if side not in BOARD_FILES:
        raise DataError("setup", "board", f"unknown board {side!r}; boards are {', '.join(BOARD_FILES)}")
    return build_board(read_data_file(BOARD_FILES[side]), BOARD_FILES[side])
