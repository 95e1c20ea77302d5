"""What a dashboard shows of the table, as JSON (``Game.view``)."""

from __future__ import annotations

from typing import Any

from companion.games.automobiles.present import draw_odds
from companion.games.automobiles.setup import start_money
from companion.games.automobiles.state import (
    COLOURS,
    State,
    as_dict,
    distance,
    field_of,
    money,
    plus,
    position,
    total_cubes,
)
from companion.games.automobiles.track import slipstream, wear_table_value
from companion.games.base import Action


def view(state: State, listed: list[Action]) -> dict[str, Any]:
    """Everything a dashboard shows (``listed``: the table's options). AU-120 **Decision**: with closed bags only
    how many cubes each bag holds.

    With open bags it also gives the odds of each player's next draw of 7 (the end phase's, AU-48: the discard it
    is refilled from then holds the active and used areas too) and of the draw the table waits for now: a closed
    bag's odds would tell its contents. ``landing_wear`` is the wear table's value (AU-42) the turn reaches if the
    cube or car the table moves now lands there, per listed destination.
    """
    table = state.table
    lap_track = table.kit.lap_track
    players = []
    for p, player in enumerate(state.players):
        entry = {"colour": table.colours[p], "name": table.names[p], "bot": table.bots[p],
                 "bag_count": sum(player.bag), "active": as_dict(player.active), "used": as_dict(player.used),
                 "discard": as_dict(player.discard), "aside": as_dict(player.aside), "segment": player.segment,
                 "crossings": player.crossings, "marker": lap_track[player.marker],
                 "finished": player.marker == len(lap_track) - 1, "distance": distance(state, p),
                 "position": position(state, p), "driver": player.driver, "sponsor": player.sponsor,
                 "points": player.points,
                 "deferred": {"draws": player.deferred_draws, "moves": player.deferred_moves},
                 "slipstream": slipstream(state, p)}
        if table.open_bags:
            entry["bag"] = as_dict(player.bag)
            entry["odds"] = draw_odds(entry["bag"], table.kit.draw_per_turn,
                                      as_dict(plus(player.discard, plus(player.active, player.used))))
        players.append(entry)
    turn, stage = state.turn, state.stage
    landing_wear = {}
    if stage is not None and stage.kind in ("move", "choose") and stage.who == state.current and stage.counts_wear \
            and state.phase in ("effect", "movement"):
        landing_wear = {o["to"]: wear_table_value(state, turn.entered | {field_of(state, o["to"])})
                        for o in listed if o["type"] in ("step", "drive")}
    draw = next((o for o in listed if "roll" in o), None)
    next_draw = None
    if draw is not None and table.open_bags:
        drawer = state.players[state.actor]
        next_draw = {"player": table.colours[state.actor],
                     **draw_odds(as_dict(drawer.bag), draw["roll"], as_dict(drawer.discard))}
    money_now = money(state, state.current) if state.phase == "buy" else \
        start_money(state, state.actor) - turn.spent if state.phase == "opening_buy" else None
    over = state.phase == "over"
    return {
        "game": "automobiles", "track": table.track.id, "race": state.race, "round": state.round,
        "phase": state.phase, "current": None if over else table.colours[state.current],
        "actor": None if over else table.colours[state.actor],
        "order": [table.colours[p] for p in table.order], "lap_track": list(lap_track),
        "cards": {colour: card.id for colour, card in table.cards.items()},
        "costs": {c: table.cost(c) for c in COLOURS if table.cost(c) is not None},
        "values": {c: table.value(c) for c in COLOURS},
        "variants": {"weaving": table.weaving, "accelerated": table.accelerated, "open_bags": table.open_bags,
                     "drivers": table.drivers, "wear_activation": table.wear_activation},
        "season": list(table.season), "stock": as_dict(state.stock), "players": players,
        "placed": [{"colour": c.colour, "segment": c.segment} for c in turn.placed],
        "turn": {"committed": turn.committed, "no_wear": turn.no_wear, "red_line": turn.red_line,
                 "double_gears": turn.double_gears, "adrenaline": turn.adrenaline, "advance": turn.advance,
                 "entered": sorted(turn.entered), "money": money_now,
                 "wear_table": wear_table_value(state, turn.entered), "pit_stop": turn.pit_stop},
        "landing_wear": landing_wear, "next_draw": next_draw,
        "stage": None if stage is None else {"kind": stage.kind, "card": stage.card, "done": stage.done,
                                             "at_most": stage.hi},
        "revealed_drivers": list(state.revealed), "sponsors_offered": list(state.offered),
        "placings": [table.colours[p] for p in state.placings],
        "winners": [table.colours[p] for p in state.winners], "over": over,
        "cubes_total": sum(total_cubes(state)),
    }
