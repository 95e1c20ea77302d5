"""How Chariot Race looks on a screen, from its own data: the board drawn as polygons, the chariot boards' tables.

Pure, like the rules: the web layer asks the game's presentation for what never changes during a game and sends it
to the browser as it is, so the shared layers never learn what a lane or a spina is. The lane geometry (which space
lies ahead, where a lane change lands) is the rules' own, read off :class:`~companion.games.chariot_race.board.Board`,
never worked out a second time here.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from companion.games.base import log_lines_by, ranked
from companion.games.chariot_race.board import NO_SPACE, Board, load_board
from companion.games.chariot_race.components import load_chariot_board
from companion.games.chariot_race.state import LAPS_TO_FINISH
from companion.texts import catalog, colour, face, text, ui

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


# -- the log ---------------------------------------------------------------------------------------------------------

FORCED = frozenset({"speed_capped", "gallop_damage", "curve_damage", "rammed", "placed_behind", "caltrop_hit",
                    "rocks", "wrecked", "lap", "finished", "spear", "game_over", "fortune_gained"})
"""Events the rules force on the table (as opposed to a player's choice): the dashboard flashes these."""
DONE_LINES = {"reroll": "keeps_dice", "fortune": "stops_spending", "attack": "no_more_attacks"}
"""What a ``done`` says, by the phase it was chosen in (the session stores the phase with the action)."""
QUIET = ("done", "action", "undo", "corrected", "manual")


def names(view: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
    """Chariot id -> how the log calls it: the player's name, plus the colour when a player drives two (CR-7).

    >>> view = {"chariots": [{"id": "green", "colour": "green", "player": "Julia"},
    ...                      {"id": "green-2", "colour": "green", "player": "Julia"}]}
    >>> names(view, "de")
    {'green': 'Julia (grün)', 'green-2': 'Julia (grün 2)'}
    """
    chariots = (view or {}).get("chariots") or []
    per_player: dict[str, int] = {}
    for chariot in chariots:
        per_player[chariot["player"]] = per_player.get(chariot["player"], 0) + 1
    out = {}
    for chariot in chariots:
        name = chariot["player"]
        if per_player[name] > 1:
            second = " 2" if chariot["id"].endswith("-2") else ""
            name = f"{name} ({colour(lang, chariot['colour'])}{second})"
        out[chariot["id"]] = name
    return out


def _faces(dice: Any, lang: str) -> str:
    return ", ".join(face(lang, d) for d in dice or [])


def _signs(signs: Any) -> str:
    return " ".join("+1" if s > 0 else "−1" for s in signs or [])


def describe_event(event: Mapping[str, Any], *, lang: str, names: Mapping[str, str]) -> str | None:
    """One line for one rules event, or None for an event the log leaves out.

    >>> event = {"type": "rammed", "chariot": "green", "target": "yellow", "damage": 2, "target_damage": 2}
    >>> describe_event(event, lang="de", names={"green": "Julia", "yellow": "Klaus"})
    'Julia rammt Klaus: beide −2'
    """
    kind = event.get("type")
    name = names.get(event.get("chariot", ""), event.get("chariot"))
    target = names.get(event.get("target", ""), event.get("target"))
    fields = {**event, "chariot": name, "target": target}
    if kind == "rolled":
        return text(lang, "rolled", fields, dice=_faces(event.get("dice"), lang))
    if kind == "rerolled":
        chosen = event.get("reroll") or []
        new = [event["dice"][i] for i in chosen] if event.get("dice") else []
        key = "rerolled_paid" if event.get("cost") else "rerolled_free"
        return text(lang, key, fields, n=len(chosen), dice=_faces(new, lang))
    if kind == "turned":
        return text(lang, "turned", fields, die=int(event.get("die", 0)) + 1, face=face(lang, event.get("face")))
    if kind == "moved":
        steps = len(event.get("path") or [])
        if event.get("to") is None:
            return text(lang, "moved_wrecked", fields, steps=steps)
        return text(lang, "moved_damage" if event.get("damage") else "moved", fields, steps=steps)
    if kind == "rammed":
        even = event.get("damage") == event.get("target_damage")
        return text(lang, "rammed" if even else "rammed_uneven", fields)
    if kind == "curve_damage":  # what the curve costs, and what the chariot had left to lose when that was less
        over = int(event.get("speed") or 0) - int(event.get("max_speed") or 0)
        clamped = int(event.get("damage") or 0) < over and event.get("left") == 0
        return text(lang, "curve_damage_all" if clamped else "curve_damage", fields, over=over)
    if kind == "placed_behind":
        return text(lang, "placed_behind", fields, behind=names.get(event.get("behind", ""), event.get("behind")))
    if kind == "wrecked":
        return text(lang, "wrecked_caltrop" if event.get("caltrop") else "wrecked", fields)
    if kind == "game_over":
        winner = event.get("winner")
        if winner is None:
            return text(lang, "game_over_none")
        return text(lang, "game_over", winner=names.get(winner, winner))
    if kind == "speed_set" and event.get("speed") == event.get("was"):
        return None  # a gallop that could not add speed: its damage line says enough
    if kind in catalog(lang)["log"] and kind not in QUIET:
        return text(lang, kind, fields)
    return None


def action_line(action: Mapping[str, Any], actor: str, phase: str | None, *, lang: str) -> str | None:
    """A line for a player's choice that no rules event describes (the rest is told by the events)."""
    kind = action.get("type")
    if kind == "skip_repair":
        return text(lang, "skip_repair", chariot=actor)
    if kind == "drive":
        return text(lang, "drive", chariot=actor, signs=_signs(action.get("signs")))
    if kind == "done":
        return text(lang, DONE_LINES.get(phase or "", "done"), chariot=actor)
    return None


log_lines = log_lines_by(action_line, describe_event, FORCED)
"""The lines of one stored action: the choice when no event tells it, then each event the log shows."""


# -- the options, as the screens and the buttons name them ----------------------------------------------------


def option_label(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> str | None:
    """How the screens and the buttons name one of this game's options, in ``lang`` (None: no text for it)."""
    view, prompt = snapshot.get("view") or {}, snapshot.get("prompt") or {}
    car = next((c for c in view.get("chariots") or [] if c.get("id") == prompt.get("actor")), None)
    kind = option.get("type")
    if kind == "repair":
        return ui(lang, "repair", n=min(3, car["max_damage"] - car["damage"]) if car else 3)
    if kind == "skip_repair":
        return ui(lang, "skip_repair")
    if kind == "reroll":
        chosen = option.get("reroll") or []
        return (f"{ui(lang, 'reroll_paid' if option.get('cost') else 'reroll_selected', n=len(chosen))}: "
                + ", ".join(str(i + 1) for i in chosen))
    if kind == "turn":
        face_name = face(lang, option.get("face"))
        turn = ui(lang, "turn_die", n=int(option.get("die", 0)) + 1)
        return f"{turn} {face_name}"
    if kind == "done":
        key = {"reroll": "keep_dice", "fortune": "no_more_fortune", "attack": "no_attack"}.get(prompt.get("phase"))
        return ui(lang, key) if key else None
    if kind == "drive":
        signs = option.get("signs") or []
        speed: Any = "?"
        if car is not None:
            gallops = sum(1 for d in view.get("dice") or [] if d == "gallop")
            speed = max(0, min(car["max_speed"], car["speed"] + sum(signs) + 2 * gallops))
        return ui(lang, "drive_option", signs=" ".join("+1" if s > 0 else "−1" for s in signs), speed=speed)
    if kind == "move":
        if option.get("wrecked"):
            return f"{_steps(option.get('path') or [], lang)}: {ui(lang, 'move_wreck')}"
        damage = ui(lang, "move_damage", damage=option["damage"]) if option.get("damage") else ui(lang, "move_safe")
        return f"{ui(lang, 'move_to', to=option.get('to'))} · {damage}"
    if kind == "caltrop":
        return ui(lang, "drop_caltrop", space=option.get("space"))
    if kind == "spear":
        target = option.get("target")
        return ui(lang, "throw_spear", name=names(view, lang).get(target, target))
    return None


def _steps(path: list[str], lang: str) -> str:
    """A move's steps as the dashboard says them: "2× straight, left"."""
    groups = [(step, len(list(run))) for step, run in itertools.groupby(path)]
    return ", ".join((f"{n}× " if n > 1 else "") + ui(lang, f"step_{step}") for step, n in groups)


# ---------------------------------------------------------------------------------------------------- game over

CHART_AXIS = "cr_chart_round"
CHART_METRICS = ("cr_chart_laps", "cr_chart_damage")
"""ui keys: the steps of the chart and what it draws."""
LUCK_COUNTED = "cr_luck_counted"
"""ui key: what the stats page counts as this game's luck (``Game.luck``)."""


def chart_point(view: Mapping[str, Any]) -> tuple[int, dict[str, dict[str, float | None]]]:
    """Each chariot's laps driven (2 is the finish) and the damage it can still take, after the rounds played: a
    round is played once the next begins, or the race ends (CR-24 ends it at a round's end)."""
    done = view["round"] if view["over"] else view["round"] - 1
    chariots = view["chariots"]
    return done, {"cr_chart_laps": {c["id"]: c["progress"] for c in chariots},
                  "cr_chart_damage": {c["id"]: c["damage"] for c in chariots}}


def standings(view: Mapping[str, Any], series: Mapping[str, Mapping[str, list[Any]]]) -> list[dict[str, Any]]:
    """CR-24: the winner, then the chariots that crossed the line, then the racing ones by how far they got; the
    wrecked last, the one that got furthest first (its last laps on the chart, ``series``). The ``why`` keys name
    the ui texts ``cr_standing_winner`` ... ``cr_standing_wrecked``."""
    rank = {"winner": 0, "finished": 1, "racing": 2, "wrecked": 3}
    rows = []
    for c in view["chariots"]:
        why = ("winner" if c["id"] == view["winner"] else "wrecked" if c["wrecked"]
               else "finished" if c["finished"] else "racing")
        laps = c["progress"]
        if laps is None:
            laps = next((v for v in reversed(series.get("cr_chart_laps", {}).get(c["id"], [])) if v is not None), None)
        race = None if laps is None else round(100 * min(laps, LAPS_TO_FINISH) / LAPS_TO_FINISH)
        rows.append({"actor": c["id"], "colour": c["colour"], "why": why, "text": f"cr_standing_{why}",
                     "values": {"laps": laps, "race": race, "damage": c["damage"], "max_damage": c["max_damage"]}})
    return ranked(rows, key=lambda r: (rank[r["why"]], -(r["values"]["laps"] or 0)))


HELP = {"repair": "cr_help_repair", "reroll": "cr_help_reroll", "turn": "cr_help_turn", "drive": "cr_help_drive",
        "caltrop": "cr_help_caltrop", "spear": "cr_help_spear"}
"""The ``ui`` key of what each kind of option does (CR-11, CR-13, CR-15, CR-21), for the help beside the choice."""


def option_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What an option does by the rules, in ``lang``, titled as its button says it; None for one without a text."""
    if option.get("type") == "move":
        return move_help(option, snapshot, lang)
    key = HELP.get(str(option.get("type")))
    if key is None:
        return None
    return {"title": option_label(option, snapshot, lang) or ui(lang, key), "text": ui(lang, key), "reference": False}


def move_help(option: Mapping[str, Any], snapshot: Mapping[str, Any], lang: str) -> dict[str, Any] | None:
    """What the spaces a move enters do, in ``lang``, read from the option's ``effects`` (the rules' events for
    CR-20 rocks, CR-17 curves, CR-18 rams and CR-19 caltrops, in the order the move meets them); None for a move that
    meets none. ``reference`` when rocks or a curve come from the board data, a reconstruction of the printed
    board."""
    names_ = names(snapshot.get("view"), lang)
    texts, from_board = [], False
    for effect in option.get("effects") or []:
        kind, where = effect.get("type"), effect.get("space")
        if kind == "rocks":
            texts.append(ui(lang, "cr_help_rocks", space=where))
        elif kind == "curve_damage":
            texts.append(ui(lang, "cr_help_curve", space=where, max_speed=effect["max_speed"], speed=effect["speed"],
                            damage=effect["damage"]))
        elif kind == "rammed":
            texts.append(ui(lang, "cr_help_ram", space=where, name=names_.get(effect["target"], effect["target"])))
        elif kind == "caltrop_hit":
            texts.append(ui(lang, "cr_help_caltrop_hit", space=where))
        from_board = from_board or kind in ("rocks", "curve_damage")
    if not texts:
        return None
    # The destination leads the text: two ways through the same curve are two helps, not one (controls.option_help)
    return {"title": option_label(option, snapshot, lang) or ui(lang, "move_to", to=option.get("to")),
            "text": " ".join([ui(lang, "cr_help_way", to=option.get("to") or where), *texts]),
            "reference": from_board}
