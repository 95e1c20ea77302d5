"""What Hexen Rennen's bots know: how good the race looks for a clan (``companion.games.base.Heuristic``)."""

from __future__ import annotations

from companion.games.hexenrennen.state import State, own_witches


def score(state: State, actor: str) -> float:
    """Greedy-bot heuristic: own witches' progress (finish fields worth much more), cards in hand a little,
    the opponents' average progress against it."""
    kit = state.kit
    last = kit.track_length

    def progress(clan: str) -> float:
        return sum(min(p, last) + 12 * kit.points(p) for p in (state.witches[k] for k in own_witches(state, clan)))

    others = [progress(c) for c in state.clans if c != actor]
    total = progress(actor) + 0.5 * len(state.hands[state.clans.index(actor)]) - 0.5 * sum(others) / len(others)
    if actor in state.winners:
        total += 1000.0
    return total
