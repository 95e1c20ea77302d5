"""How Chariot Race looks on a screen, from its own data: the board drawn as polygons, the chariot boards' tables.

Pure, like the rules: the web layer asks the game's presentation for what never changes during a game and sends it
to the browser as it is, so the shared layers never learn what a lane or a spina is. The lane geometry (which space
lies ahead, where a lane change lands) is the rules' own, read off :class:`~companion.games.chariot_race.board.Board`,
never worked out a second time here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from companion.games.chariot_race.board import NO_SPACE, Board, load_board
from companion.games.chariot_race.components import load_chariot_board

DEMO_OPTIONS: dict[str, Any] = {"players": [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "red"},
                                            {"name": "Ben", "colour": "blue"}, {"name": "Anna", "colour": "yellow"}]}
"""The set-up ``companion demo`` plays (its bots fill the seats)."""
SPACE_HALF_WIDTH = 0.46
"""Half the drawn width of a lane, in board units (lanes are 1 apart): a thin gap shows between lanes."""
MARGIN = 0.7


def layout(view: Mapping[str, Any]) -> dict[str, Any]:
    """What never changes during this game (``/api/layout``): the board drawing and each chariot board's table."""
    kinds = sorted({car["chariot_board"] for car in view["chariots"]})
    boards = {}
    for name in kinds:
        kind = load_chariot_board(name if name == "standard" or name.startswith("alt-") else f"alt-{name}")
        boards[name] = {"dice_by_speed": list(kind.dice_by_speed), "speed_cap": list(kind.speed_cap),
                        "placeholder": kind.placeholder}
    return {"board": board_layout(load_board(view["board"])), "chariot_boards": boards}


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _edge(point: tuple[float, float], tangent: tuple[float, float], width: float) -> tuple[list[float], list[float]]:
    """The two points ``width`` either side of ``point`` across ``tangent`` (left, right)."""
    tx, ty = _unit(*tangent)
    nx, ny = -ty, tx
    x, y = point
    return [round(x + nx * width, 3), round(y + ny * width, 3)], [round(x - nx * width, 3), round(y - ny * width, 3)]


def board_layout(board: Board) -> dict[str, Any]:
    """The drawing of a board: one polygon per space, the spina, the outer wall, the finish line. The board's y axis
    points up; SVG's points down, so y is flipped here once."""
    spaces = board.data["spaces"]
    centre = [(float(s["x"]), -float(s["y"])) for s in spaces]
    start = {board.start_spaces[n]: n + 1 for n in range(len(board.start_spaces))}

    def name(index: int) -> str | None:
        return None if index == NO_SPACE else board.ids[index]

    out_spaces = []
    sides: dict[int, tuple[list[list[float]], list[list[float]]]] = {}
    for k, space in enumerate(spaces):
        c, a, b = centre[k], centre[board.ahead[k]], centre[board.behind[k]]
        p_back = ((b[0] + c[0]) / 2, (b[1] + c[1]) / 2)
        p_front = ((c[0] + a[0]) / 2, (c[1] + a[1]) / 2)
        back_l, back_r = _edge(p_back, (c[0] - b[0], c[1] - b[1]), SPACE_HALF_WIDTH)
        mid_l, mid_r = _edge(c, (a[0] - b[0], a[1] - b[1]), SPACE_HALF_WIDTH)
        front_l, front_r = _edge(p_front, (a[0] - c[0], a[1] - c[1]), SPACE_HALF_WIDTH)
        sides[k] = ([back_l, mid_l, front_l], [back_r, mid_r, front_r])
        entry: dict[str, Any] = {
            "id": board.ids[k], "lane": space["lane"], "index": space["index"], "x": round(c[0], 3),
            "y": round(c[1], 3), "points": [back_l, mid_l, front_l, front_r, mid_r, back_r],
            "angle": round(math.degrees(math.atan2(a[1] - b[1], a[0] - b[0])), 1),
            "ahead": name(board.ahead[k]), "in": name(board.inward[k]), "out": name(board.outward[k]),
        }
        if "max_speed" in space:
            entry["max_speed"] = space["max_speed"]
        if space.get("rocks"):
            entry["rocks"] = True
        if k in start:
            entry["start"] = start[k]
        out_spaces.append(entry)

    middle = sum(c[0] for c in centre) / len(centre), sum(c[1] for c in centre) / len(centre)
    lanes: dict[int, list[int]] = {}
    for k in sorted(range(len(spaces)), key=lambda k: spaces[k]["index"]):
        lanes.setdefault(board.lane[k], []).append(k)

    def boundary(lane: int, inner: bool) -> list[list[float]]:
        points: list[list[float]] = []
        for k in lanes.get(lane, []):
            left, right = sides[k]
            closer_left = math.dist(left[1], middle) < math.dist(right[1], middle)
            points.extend(left if closer_left == inner else right)
        return points

    ends = []
    for lane in lanes.values():
        left, right = sides[lane[0]]
        ends.extend([left[0], right[0]])
    ends.sort(key=lambda p: math.dist(p, middle))
    xs = [p[0] for s in out_spaces for p in s["points"]]
    ys = [p[1] for s in out_spaces for p in s["points"]]
    return {
        "board": board.name,
        "viewBox": [round(min(xs) - MARGIN, 3), round(min(ys) - MARGIN, 3),
                    round(max(xs) - min(xs) + 2 * MARGIN, 3), round(max(ys) - min(ys) + 2 * MARGIN, 3)],
        "spaces": out_spaces,
        "spina": boundary(min(lanes), inner=True),
        "outer": boundary(max(lanes), inner=False),
        "finish": [ends[0], ends[-1]] if ends else None,
        "lanes": board.data.get("lanes", {}),
    }
