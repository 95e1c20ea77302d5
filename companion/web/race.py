"""``GET /api/race``: the standings and the chart of the game on the table, for the game-over screen."""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.games import get_presentation
from companion.race import race_summary

race = Blueprint("race", __name__, url_prefix="/api")


class LastSummary:
    """The summary of the latest game and seq asked for: every screen asks at the same moment, when the race ends,
    and the replay runs once for them all. One per app (``app.extensions["race_summary"]``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[int, int] | None = None
        self._answer: dict[str, Any] = {}

    def of(self, game: Any, record: Any, actions: list[Any], seq: int) -> dict[str, Any]:
        with self._lock:
            if self._key != (record.id, seq):
                self._answer = race_summary(game, get_presentation(record.game), record, actions)
                self._key = (record.id, seq)
            return self._answer


@race.record_once
def _setup(state: Any) -> None:
    state.app.extensions["race_summary"] = LastSummary()


@race.get("/race")
def summary() -> Any:
    history = current_app.extensions["table_session"].history()
    if history is None:
        return jsonify(game=None, standings=[], chart=None)
    game, record, actions, seq = history
    answer = current_app.extensions["race_summary"].of(game, record, actions, seq)
    return jsonify(game=record.id, seq=seq, **answer)
