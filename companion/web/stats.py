"""The table remembers: ``/stats`` (are our dice fair, who won what) and its data.

* ``GET /api/stats``: ``dice`` (per dice set and kind of die: each face's count, its band, the verdict), ``players``
  (games and wins, by game), ``games`` (newest first, each with its players' ``luck`` and ``luck_counted``, the ui
  key of what the game counts as luck) and ``luck`` (the evening's games and each player's luck in them); see
  ``companion/stats.py``.
* ``GET /api/stats/games/<number>/luck``: the luck over one game, per kind a running line per player (404 naming
  ``number`` for a game that is not counted).
* ``GET /api/stats.csv``: one line per game, oldest first.

The statistics are read from the log beside the app when first asked for (``complete`` says when that is done) and
counted on as events are stored: a request only reads.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify

from companion.session import TableSession
from companion.stats import TableStats
from companion.web.pages import render_page
from companion.web.strict import refusal

stats = Blueprint("stats", __name__)


def start_stats(app: Flask, session: TableSession) -> None:
    """The app's statistics of ``session``'s store, kept up to date by its events from now on; the log is read when
    somebody first asks (``TableStats.read_log``), so a restart never waits for it."""
    table_stats = TableStats(session.store)
    session.event_listeners.append(table_stats.update)
    app.extensions["table_stats"] = table_stats


def _stats() -> TableStats:
    table_stats = current_app.extensions["table_stats"]
    table_stats.read_log()
    return table_stats


@stats.get("/stats")
def stats_page() -> str:
    return render_page("stats.html")


@stats.get("/api/stats")
def stats_json() -> Any:
    return jsonify(_stats().to_json())


@stats.get("/api/stats/games/<int:number>/luck")
def game_luck(number: int) -> Any:
    table_stats = _stats()
    luck = table_stats.luck_of(number)
    if luck is None:
        if not table_stats.built.is_set():  # still reading the log: ask again in a moment
            return jsonify(number=number, complete=False, kinds=[], totals=[])
        return refusal(404, "no_such_game", f"number: no game {number} with a counted action", {"number": number})
    return jsonify(**luck, complete=True)


@stats.get("/api/stats.csv")
def stats_csv() -> Response:
    return Response(_stats().to_csv(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="table-games.csv"'})
