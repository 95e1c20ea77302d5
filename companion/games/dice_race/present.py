"""How Dice Race reads in the log: a player moves, a player wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import ranked
from companion.texts import text


def layout(view: Mapping[str, Any]) -> dict[str, Any]:
    """Nothing to draw: the screens show the players' positions as a table."""
    return {}


def names(view: Mapping[str, Any] | None, lang: str) -> dict[str, str]:
    """The players are their own names."""
    return {p["name"]: p["name"] for p in (view or {}).get("players") or []}


def log_lines(action: Mapping[str, Any], phase: str | None, events: list[Mapping[str, Any]], *, actor: str,
              lang: str, names: Mapping[str, str]) -> list[dict[str, Any]]:
    lines = []
    for event in events:
        if event.get("type") == "moved":
            line = text(lang, "dice_moved", event, player=names.get(event["player"], event["player"]))
        elif event.get("type") == "game_over":
            line = text(lang, "dice_won", winner=names.get(event["winner"], event["winner"]))
        else:
            continue
        lines.append({"text": line, "forced": event.get("type") == "game_over", "event": event.get("type")})
    return lines


CHART_AXIS = "dr_chart_turn"
CHART_METRICS = ("dr_chart_position",)
"""ui keys: the steps of the chart and what it draws."""
LUCK_COUNTED = "dr_luck_counted"
"""ui key: what the stats page counts as this game's luck (``Game.luck``)."""


def chart_point(view: Mapping[str, Any]) -> tuple[int, dict[str, dict[str, float | None]]]:
    """Each player's space after the turns played."""
    return view["turn"], {"dr_chart_position": {p["name"]: p["position"] for p in view["players"]}}


def standings(view: Mapping[str, Any], series: Mapping[str, Mapping[str, list[Any]]]) -> list[dict[str, Any]]:
    """DR-3: the first at the goal wins; the others by how far they got."""
    rows = [{"actor": p["name"], "why": (why := "winner" if p["name"] == view["winner"] else "position"),
             "text": f"dr_standing_{why}",
             "values": {"position": p["position"], "goal": view["goal"]}} for p in view["players"]]
    return ranked(rows, key=lambda r: (r["why"] != "winner", -r["values"]["position"]))
