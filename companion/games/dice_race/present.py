"""How Dice Race reads in the log: a player moves, a player wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
