"""What Automobiles' bots know: how good the race looks for a player (``companion.games.base.Heuristic``)."""

from __future__ import annotations

from companion.games.automobiles.state import GEARS, WEAR, State, count

GEAR_WEIGHTS = {"white": 1, "light_grey": 2, "dark_grey": 3, "black": 4}
"""What a gear cube owned is worth."""


def score(state: State, actor: str) -> float:
    """Distance, cubes on the track ahead of the car (the current player's), fewer wear cubes, higher gears owned;
    the end of the game outweighs them all."""
    p = state.table.colours.index(actor)
    if state.phase == "over":
        return 1000.0 if p in state.winners else -1000.0
    player, track = state.players[p], state.table.track
    here = track.along(player.crossings, player.segment)
    ahead = 0.0
    if p == state.current and state.turn.placed:
        ahead = max(track.along(c.crossings, c.segment) for c in state.turn.placed) - here
    owned = player.owned()
    gears = sum(GEAR_WEIGHTS[g] * count(owned, g) for g in GEARS)
    return 10 * here + 9 * ahead - 3 * count(owned, WEAR) + 0.5 * gears
