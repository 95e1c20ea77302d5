"""What Cubitos' bots know: how good the race looks for a player (``companion.games.base.Heuristic``).

``bots.GreedyBot`` plays every option through the rules' own ``apply`` and scores the table after it with this.
The score is exact (``Fraction``), so no float sum or rounding decides between two options on any Python.
"""

from __future__ import annotations

from fractions import Fraction

from companion.games.cubitos.state import Player, State, Table, face, spaces_left


def score(state: State, actor: str) -> float:
    """How little of the race is left, what the active dice and resources will bring, and, while the player still
    rolls, what pushing the ready zone is worth against losing the active dice."""
    p = state.table.colours.index(actor)
    if state.phase == "over":
        return 1000.0 if p in state.winners else -1000.0
    return float(rating(state.table, state.players[p]))


def rating(table: Table, player: Player) -> Fraction:
    owned = len(player.draw) + len(player.ready) + len(player.active) + len(player.rest)
    worth = sum((_worth(table, die, label) for die, label in player.active), Fraction(0))
    total = (-2 * spaces_left(table, player) + 40 * player.reached + Fraction(3, 2) * player.steps
             + Fraction(3, 10) * player.coins + Fraction(2, 5) * player.credits + Fraction(3, 10) * player.fans
             + Fraction(4, 5) * owned + worth)
    if not player.done_rolling and player.ready:
        blank, coins, steps = table.kit.pool_odds(tuple(table.types[d] for d in player.ready))
        bust = blank if player.danger else 0
        gain = Fraction(3, 2) * steps + coins / 3 + Fraction(3, 10) * len(player.ready)
        total += (1 - bust) * gain - bust * worth
    return total


def _worth(table: Table, die: int, label: str) -> Fraction:
    """What an active face brings: steps most, then credits, coins, and an ability."""
    shown = face(table, die, label)
    return Fraction(3, 2) * shown.steps + Fraction(shown.coins, 3) + Fraction(shown.credits, 2) \
        + (shown.team or shown.special)
