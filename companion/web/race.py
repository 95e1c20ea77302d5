"""``GET /api/race``: the standings and the chart of the game on the table, for the game-over screen."""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.games import get_presentation
from companion.race import race_summary

race = Blueprint("race", __name__, url_prefix="/api")

_cache: dict[str, Any] = {}
_cache_lock = threading.Lock()


@race.get("/race")
def summary() -> Any:
    """Every screen asks at the same moment, when the race ends: the replay runs once per game and seq."""
    history = current_app.extensions["table_session"].history()
    if history is None:
        return jsonify(game=None, standings=[], chart=None)
    game, record, actions, seq = history
    key = (id(current_app), record.id, seq)
    with _cache_lock:
        if _cache.get("key") != key:
            _cache.update(key=key, answer=race_summary(game, get_presentation(record.game), record, actions))
        answer = _cache["answer"]
    return jsonify(game=record.id, seq=seq, **answer)
