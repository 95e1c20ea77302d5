"""Rule disputes: one player's turn from a table written by hand (``companion rules automobiles apply``); the
Position and Turn formats are in the package README ("Rule disputes")."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.automobiles import rules
from companion.games.automobiles.kit import load_kit
from companion.games.automobiles.state import ACTION_COLOURS, COLOURS, Player, State, Turn, as_dict, cubes, minus, plus
from companion.games.base import IllegalAction, ScenarioError, check_keys, enter, play_turn, turn_of, typed_value

ZONES = ("bag", "active", "used", "discard")
PLAYER_KEYS = ("name", "colour", "segment", "crossings", "marker", *ZONES, "driver", "sponsor", "deferred_draws",
               "deferred_moves", "points")
POSITION_KEYS = ("track", "laps", "cards", "variants", "season", "race", "round", "order", "current", "phase",
                 "protected", "sponsors_offered", "players")
VARIANT_KEYS = ("weaving", "accelerated", "open_bags", "wear_activation")


def run_scenario(position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    state = state_from_position(position)
    player, actions = turn_of(turn, state.table.colours)

    def refusal(state: State) -> IllegalAction | None:
        whose = "nobody" if state.phase == "over" else state.table.colours[state.current]
        return None if whose == player else IllegalAction("AU-16", f"it is {whose}'s turn, not {player}'s", legal=whose)

    state, events = play_turn(state, actions, rules.apply, refusal)
    return {"position": position_from_state(state), "events": events}


def _cubes(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise ScenarioError(where, f"expected {{colour: count}}, got {value!r}")
    for colour, n in value.items():
        if colour not in COLOURS or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ScenarioError(f"{where}.{colour}", f"expected a cube colour of cubes.json with a count >= 0, "
                                f"got {colour!r}: {n!r}")
    return cubes(dict(value))


def state_from_position(position: Any) -> State:
    """The table a Position describes, at the start of ``current``'s turn; every cube comes from the box, once."""
    kit = load_kit()
    check_keys(position, POSITION_KEYS, "position")
    entries = typed_value(position, "players", list, "position")
    variants = check_keys(typed_value(position, "variants", dict, "position", {}), VARIANT_KEYS,
                          "position.variants")
    places = [f"position.players[{n}]" for n in range(len(entries))]
    seats = [{key: typed_value(check_keys(entry, PLAYER_KEYS, at), key, str, at) for key in ("name", "colour")}
             for entry, at in zip(entries, places, strict=True)]
    colours = [s["colour"] for s in seats]
    order = typed_value(position, "order", list, "position", colours)
    if sorted(order) != sorted(colours):
        raise ScenarioError("position.order", f"expected every player's colour once, got {order!r}")
    options = {"players": seats, "start": colours.index(order[0]), **variants,
               **{key: position[key] for key in ("track", "laps", "cards", "season") if key in position}}
    state = rules.setup(options, random.Random(0))
    table = state.table._replace(order=tuple(colours.index(c) for c in order), drivers=any(
        e.get("driver") for e in entries) or state.table.drivers)
    track = table.track
    box = cubes({c.id: c.count for c in kit.cubes.values()})
    players = []
    for entry, at in zip(entries, places, strict=True):
        zones = {zone: _cubes(entry.get(zone, {}), f"{at}.{zone}") for zone in ZONES}
        segment = typed_value(entry, "segment", str, at)
        if segment not in track.segments:
            raise ScenarioError(f"{at}.segment", f"no segment {segment!r} on {track.id}")
        marker = typed_value(entry, "marker", str, at, kit.lap_track[table.lap_start])
        if marker not in kit.lap_track:
            raise ScenarioError(f"{at}.marker", f"expected one of {', '.join(kit.lap_track)}, got {marker!r}")
        marker_index = kit.lap_track.index(marker)
        cards = {}
        for key, known in (("driver", kit.drivers), ("sponsor", kit.sponsors)):
            cards[key] = typed_value(entry, key, (str, type(None)), at, None)
            if cards[key] is not None and cards[key] not in {c["id"] for c in known}:
                raise ScenarioError(f"{at}.{key}", f"no {key} {cards[key]!r} in cards.json")
        player = Player(segment=segment, **zones, marker=marker_index, **cards,
                        crossings=typed_value(entry, "crossings", int, at, marker_index - table.lap_start),
                        **{key: typed_value(entry, key, int, at, 0) for key in ("deferred_draws", "deferred_moves",
                                                                                  "points")})
        box = minus(box, player.owned())
        if min(box) < 0:
            short = COLOURS[min(range(len(box)), key=lambda i: box[i])]
            raise ScenarioError(at, f"more {short} cubes than the box holds")
        players.append(player)
    if len({p.segment for p in players}) != len(players):
        raise ScenarioError("position.players", "two cars on one segment")
    protected = typed_value(position, "protected", list, "position", [])
    for k, segment in enumerate(protected):
        if segment not in table.track.protected_start:
            raise ScenarioError(f"position.protected[{k}]", f"{segment!r} is no start segment of its own (AU-34)")
    phase = typed_value(position, "phase", str, "position", "action")
    if phase != "action":
        raise ScenarioError("position.phase", f"a Position starts a turn: 'action', got {phase!r}")
    current = typed_value(position, "current", str, "position", order[0])
    if current not in colours:
        raise ScenarioError("position.current", f"expected a player's colour, got {current!r}")
    p = colours.index(current)
    offered = typed_value(position, "sponsors_offered", list, "position", list(state.offered))
    for k, sponsor in enumerate(offered):
        if sponsor not in {s["id"] for s in kit.sponsors}:
            raise ScenarioError(f"position.sponsors_offered[{k}]", f"no sponsor {sponsor!r} in cards.json")
    held = set(offered) | {player.sponsor for player in players}
    deck = tuple(s["id"] for s in kit.sponsors if s["id"] not in held) if table.season else ()
    state = state._replace(table=table, offered=tuple(offered), deck=deck, players=tuple(players), stock=box,
                   phase="action", current=p, actor=p, turn=Turn(), stage=None, revealed=(),
                   protected=tuple(protected), round=typed_value(position, "round", int, "position", 1),
                   race=typed_value(position, "race", int, "position", 1))
    return enter(state, "begin_turn", rules.PHASES, [])


def position_from_state(state: State) -> dict[str, Any]:
    """A State as a Position (the format ``state_from_position`` reads), for the next turn."""
    table = state.table
    lap_track = table.kit.lap_track
    players = []
    for p, player in enumerate(state.players):
        entry: dict[str, Any] = {"name": table.names[p], "colour": table.colours[p], "segment": player.segment,
                                 "crossings": player.crossings, "marker": lap_track[player.marker]}
        entry.update({zone: as_dict(getattr(player, zone)) for zone in ZONES})
        if sum(player.aside):  # cubes between zones only mid-turn (driver_04): shown as active
            entry["active"] = as_dict(plus(player.active, player.aside))
        entry.update(driver=player.driver, sponsor=player.sponsor, deferred_draws=player.deferred_draws,
                     deferred_moves=player.deferred_moves, points=player.points)
        players.append(entry)
    return {"track": table.track.id, "laps": lap_track[table.lap_start],
            "cards": {c: card.id for c, card in table.cards.items() if c in ACTION_COLOURS},
            "variants": {key: getattr(table, key) for key in VARIANT_KEYS},
            "season": list(table.season), "race": state.race, "round": state.round,
            "order": [table.colours[p] for p in table.order],
            "current": None if state.phase == "over" else table.colours[state.current],
            "phase": "action" if state.phase == "deferred" else state.phase,
            "protected": list(state.protected), "sponsors_offered": list(state.offered), "players": players}
