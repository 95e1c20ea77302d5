"""The end of a race (AU-57..AU-59) and a season of races (AU-111..AU-117): placings, points, sponsors, the next
race."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.automobiles.setup import opening_draw
from companion.games.automobiles.stages import BIG, pick, wait
from companion.games.automobiles.state import COLOURS, EMPTY, WEAR, Stage, State, Turn, count, rank_key, seat, standing
from companion.games.base import Action, Event
from companion.games.datafile import read_data


def placings(state: State) -> list[int]:
    """AU-58, AU-59: finished players by distance (then the inner lane), then the others by AU-19."""
    last = len(state.table.kit.lap_track) - 1
    return sorted(range(len(state.players)), key=lambda p: (state.players[p].marker != last, rank_key(state, p)))


def season_points(place: int, players: int, race: int) -> int:
    """AU-115: first place 4..8 by race, a middle place 3, last place 2; the second of two scores as middle."""
    return read_data(__package__, "cards.json")["season_points"][standing(place, players)][race - 1]


def season_winner(points: list[int], last_placings: list[int]) -> int:
    """AU-117: the most points; on a tie the tied player who placed better in the last race."""
    return max(range(len(points)), key=lambda p: (points[p], -last_placings.index(p)))


def goes_on(state: State) -> bool:
    return bool(state.table.season) and state.race < len(state.table.season)


def race_over(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-57..AU-59: the placings; AU-119 **Decision**: deferred entitlements lapse; AU-115: season points."""
    order = placings(state)
    last = len(state.table.kit.lap_track) - 1
    events.append({"type": "race_over", "race": state.race, "placings": [seat(state, p) for p in order],
                   "winner": seat(state, order[0])})
    players = tuple(player._replace(deferred_draws=0, deferred_moves=0) for player in state.players)
    state = state._replace(players=players, placings=tuple(order), stage=None)
    if not state.table.season:
        return state._replace(winners=tuple(order[:1]) if state.players[order[0]].marker == last else ())
    for place, p in enumerate(order, start=1):
        points = season_points(place, len(order), state.race)
        state = state.with_player(p, points=state.players[p].points + points)
        events.append({"type": "points", "player": seat(state, p), "points": points, "total": state.players[p].points})
    if goes_on(state):
        return state
    best = season_winner([player.points for player in state.players], order)
    events.append({"type": "season_over", "winner": seat(state, best)})
    return state._replace(winners=(best,), actor=best)


def sponsors(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-113, AU-114: by placings each player takes a sponsor (or keeps theirs); every cube of theirs is within
    reach first, pooled in the discard (bought or gained cubes land there too)."""
    for p in state.placings:
        state = state.with_player(p, discard=state.players[p].owned(), bag=EMPTY, active=EMPTY, used=EMPTY,
                                  aside=EMPTY)
    return state._replace(turn=Turn(queue=state.placings), stage=None)


def next_sponsor(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """The next player by placings who has a sponsor to take or keep (none left to take and none kept: passed)."""
    queue = state.turn.queue
    while queue and not state.offered and state.players[queue[0]].sponsor is None:
        queue = queue[1:]
    state = state._replace(turn=Turn(queue=queue), stage=None)
    return state._replace(actor=queue[0], current=queue[0]) if queue else state


def sponsor_options(state: State) -> list[Action]:
    options: list[Action] = [{"type": "sponsor", "sponsor": s} for s in state.offered]
    if state.players[state.actor].sponsor is not None:
        options += [{"type": "keep_sponsor", "remove": s} for s in state.offered] or [{"type": "keep_sponsor"}]
    return options


def sponsor_place(state: State, p: int) -> str:
    """AU-113: ``first``, ``last`` or ``middle`` by the race's placings."""
    return standing(state.placings.index(p) + 1, len(state.placings))


def on_sponsor(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    p = state.actor
    if action["type"] == "sponsor":
        state = state.with_player(p, sponsor=action["sponsor"])
        state = state._replace(offered=tuple(s for s in state.offered if s != action["sponsor"]))
        events.append({"type": "sponsor_taken", "player": seat(state, p), "sponsor": action["sponsor"]})
    else:
        state = state._replace(offered=tuple(s for s in state.offered if s != action.get("remove")))
        events.append({"type": "sponsor_kept", "player": seat(state, p), "sponsor": state.players[p].sponsor})
    effect = _sponsor_effect(state, p)
    return wait(state, pick(p, "sponsor_special", ("discard",), "stock", 0, effect["standard_remove"],
                            card=state.players[p].sponsor or ""))


def _sponsor_effect(state: State, p: int) -> dict[str, Any]:
    sponsor = next(s for s in state.table.kit.sponsors if s["id"] == state.players[p].sponsor)
    return sponsor["effects"][sponsor_place(state, p)]


def sponsor_special(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-114: after the standard removal, the family's special part (F: removals, then $2 each to spend)."""
    last = state.stage
    assert last is not None
    p = last.who
    effect = _sponsor_effect(state, p)
    special, then = effect["special"], None
    if last.step == 0:
        if special == "buy":
            then = Stage("buy", "sponsor_special", p, dst="discard", hi=BIG, budget=effect["money"])
        elif special in ("remove_any", "remove_then_buy"):
            then = pick(p, "sponsor_special", ("discard",), "stock", 0, effect["count"])
        elif special == "remove_wear":
            then = pick(p, "sponsor_special", ("discard",), "stock", 0, effect["count"], only=(WEAR,))
        elif special == "gain_free":
            then = pick(p, "sponsor_special", ("stock",), "discard", 0, effect["count"],
                        only=tuple(c for c in COLOURS if c != WEAR))
        elif special == "wear_per_nonwear_removed" and effect.get("wear_per_nonwear"):
            removed = sum(last.picked) - count(last.picked, WEAR)
            then = pick(p, "sponsor_special", ("discard",), "stock", 0, effect["wear_per_nonwear"] * removed,
                        only=(WEAR,))
    elif last.step == 1 and special == "remove_then_buy" and last.done:
        then = Stage("buy", "sponsor_special", p, dst="discard", hi=BIG, budget=effect["money_per_removed"] * last.done)
    if then is not None:
        return wait(state, then._replace(card=last.card, step=last.step + 1))
    return state._replace(stage=None, turn=Turn(queue=state.turn.queue[1:]))


def next_race(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """AU-116: the next track, the placings as the new turn order, every cube into the bag, draw 7."""
    race, order = state.race + 1, state.placings
    track = state.table.kit.tracks[state.table.season[race - 1]]
    table = state.table._replace(track=track, order=order)
    seats = {p: state.players[p]._replace(bag=state.players[p].owned(), active=EMPTY, used=EMPTY, discard=EMPTY,
                                          aside=EMPTY, crossings=0, marker=table.lap_start,
                                          segment=track.start_positions[k][1]) for k, p in enumerate(order)}
    grid = {seats[p].segment for p in order}
    n = len(order)
    state = state._replace(table=table, players=tuple(seats[p] for p in range(n)), race=race, round=1,
                           protected=tuple(s for s in track.protected_start if s in grid), placings=(),
                           offered=state.deck[:n], deck=state.deck[n:], turn=Turn())
    events.append({"type": "next_race", "race": race, "track": track.id})
    return opening_draw(state, order[0])
