"""Rule disputes: one player's decisions from a table written by hand (``companion rules cubitos apply``).

The Position and Turn formats are in the package README ("Rule disputes"); the result is the table after the
decisions, as a Position, and the events they caused.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalAction, ScenarioError, check_keys, play_turn, turn_of, typed_value
from companion.games.cubitos import rules
from companion.games.cubitos.kit import LEAD, load_kit
from companion.games.cubitos.roll_section import next_roller
from companion.games.cubitos.state import Player, State, changed, lead_order, lines_passed

NUMBERS = ("coins", "steps", "water", "credits", "limit_tokens", "fans", "laps")
FLAGS = ("danger", "busted", "refilled", "done_rolling", "took_credits", "gave_back", "reached", "must_push",
         "refill_no_limit")
COUNTED = ("draw", "ready", "rest")
PLAYER_KEYS = ("name", "colour", *COUNTED, "active", *NUMBERS, *FLAGS, "track", "space", "bought", "swords",
               "refill_exclude", "moved_from")
POSITION_KEYS = ("race", "tracks", "cards", "round", "lead", "phase", "current", "players", "lines", "racing",
                 "tiebreak", "winners")
START_PHASES = ("roll", "choice", "support", "move", "buy")
"""The decisions a Position may wait for: a table in the middle of an ability is no place to start a dispute."""


def run_scenario(position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    state = state_from_position(position)
    player, actions = turn_of(turn, state.table.colours)

    def refusal(state: State) -> IllegalAction | None:
        actor = rules.prompt(state).actor
        if actor == player:
            return None
        return IllegalAction(rules.PHASES[state.phase].rule,
                             f"{actor or 'nobody'} decides now ({state.phase}), not {player}", legal=actor)

    state, events = play_turn(state, actions, rules.apply, refusal)
    return {"position": position_from_state(state), "events": events}


def _dice(value: Any, where: str, known: Mapping[str, Any]) -> Counter[str]:
    if not isinstance(value, Mapping):
        raise ScenarioError(where, f"expected {{die type: count}}, got {value!r}")
    for kind, n in value.items():
        if kind not in known or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ScenarioError(f"{where}.{kind}", f"expected a die type of dice.json with a count >= 0, got {n!r}")
    return Counter({kind: n for kind, n in value.items() if n})


def state_from_position(position: Any) -> State:
    """The table a Position describes; every die comes from the box, once."""
    kit = load_kit()
    check_keys(position, POSITION_KEYS, "position")
    entries = typed_value(position, "players", list, "position")
    places = [f"position.players[{n}]" for n in range(len(entries))]
    seats = [{key: typed_value(check_keys(entry, PLAYER_KEYS, at), key, str, at) for key in ("name", "colour")}
             for entry, at in zip(entries, places, strict=True)]
    state = rules.setup({"players": seats, "race": position.get("race", "race_1"),
                         **{key: position[key] for key in ("tracks", "cards") if key in position}}, random.Random(0))
    table = state.table
    free = {kind: [d for d, t in enumerate(table.types) if t == kind] for kind in kit.dice}

    def take(kind: str, where: str) -> int:
        if not free.get(kind):
            raise ScenarioError(where, f"more {kind} dice than the box holds ({kit.dice[kind].count_total})")
        return free[kind].pop(0)

    players = []
    for entry, at in zip(entries, places, strict=True):
        zones: dict[str, tuple[int, ...]] = {}
        for zone in COUNTED:
            counts = _dice(entry.get(zone, {}), f"{at}.{zone}", kit.dice)
            zones[zone] = tuple(take(kind, f"{at}.{zone}") for kind in sorted(counts.elements()))
        active = []
        for k, name in enumerate(typed_value(entry, "active", list, at, [])):
            kind, _, label = name.partition("/") if isinstance(name, str) else ("", "", "")
            if kind not in kit.dice or label not in kit.dice[kind].by_label:
                raise ScenarioError(f"{at}.active[{k}]", f"expected '<die type>/<face label>', got {name!r}")
            active.append((take(kind, f"{at}.active[{k}]"), label))
        values = {key: typed_value(entry, key, int, at, 0) for key in NUMBERS}
        values.update({key: typed_value(entry, key, bool, at, False) for key in FLAGS})
        segment = typed_value(entry, "track", int, at, 0)
        if not 0 <= segment < len(table.segments):
            raise ScenarioError(f"{at}.track", f"expected 0..{len(table.segments) - 1}, got {segment}")
        space = typed_value(entry, "space", str, at, table.segments[segment].start)
        if space not in table.segments[segment].spaces:
            raise ScenarioError(f"{at}.space", f"no space {space!r} on {table.segments[segment].id}")
        moved_from = typed_value(entry, "moved_from", (list, type(None)), at, None)
        players.append(Player(**zones, active=tuple(active), **values, segment=segment, space=space,
                              bought=tuple(typed_value(entry, "bought", list, at, [])),
                              swords=typed_value(entry, "swords", (int, type(None)), at, None),
                              refill_exclude=frozenset(typed_value(entry, "refill_exclude", list, at, [])),
                              moved_from=tuple(moved_from) if moved_from else None))
    holders = [p for p, player in enumerate(players)
               if table.lead_die in player.ready + player.rest or any(d == table.lead_die for d, _ in player.active)]
    if len(holders) > 1 or any(table.lead_die in player.draw for player in players):
        raise ScenarioError("position.players", "the lead die is in one ready, active or rest zone, never drawn "
                            "(CU-55)")
    lead = typed_value(position, "lead", str, "position", table.colours[0])
    if lead not in table.colours:
        raise ScenarioError("position.lead", f"expected a player's colour, got {lead!r}")
    phase = typed_value(position, "phase", str, "position", "roll")
    if phase not in START_PHASES:
        raise ScenarioError("position.phase", f"expected one of {', '.join(START_PHASES)}, got {phase!r}")
    stock = frozenset(d for kind, dice in free.items() if kind != LEAD for d in dice)
    racing = typed_value(position, "racing", list, "position", list(table.colours))
    if not racing or any(colour not in table.colours for colour in racing):
        raise ScenarioError("position.racing", f"expected players' colours, got {racing!r}")
    lines = position.get("lines")
    state = state._replace(players=tuple(players), stock=stock, lead=table.colours.index(lead),
                           round=typed_value(position, "round", int, "position", 1), phase=phase,
                           racing=tuple(p for p, colour in enumerate(table.colours) if colour in racing),
                           tiebreak=typed_value(position, "tiebreak", bool, "position", False),
                           lines=tuple(lines) if isinstance(lines, list) else
                           tuple(lines_passed(table, player) for player in players))
    current = position.get("current")
    if current is None:
        roller = next_roller(state) if phase == "roll" else None
        current = table.colours[roller if roller is not None else lead_order(state)[0]]
    if current not in table.colours:
        raise ScenarioError("position.current", f"expected a player's colour, got {current!r}")
    state = state._replace(current=table.colours.index(current))
    runner = state.players[state.current]
    if phase == "move" and runner.moved_from is None:
        state = changed(state, state.current, moved_from=(runner.segment, runner.space))
    return state


def position_from_state(state: State) -> dict[str, Any]:
    """A State as a Position (the format ``state_from_position`` reads), for the next turn."""
    table = state.table
    players = []
    for p, player in enumerate(state.players):
        entry: dict[str, Any] = {"name": table.names[p], "colour": table.colours[p]}
        for zone in COUNTED:
            entry[zone] = dict(sorted(Counter(table.types[d] for d in getattr(player, zone)).items()))
        entry["active"] = [f"{table.types[d]}/{label}" for d, label in player.active]
        entry.update({key: getattr(player, key) for key in NUMBERS})
        entry.update({key: getattr(player, key) for key in FLAGS if getattr(player, key)})
        entry.update(track=player.segment, space=player.space, bought=list(player.bought), swords=player.swords,
                     refill_exclude=sorted(player.refill_exclude),
                     moved_from=list(player.moved_from) if player.moved_from else None)
        players.append(entry)
    return {"race": table.race.id, "tracks": [t.id for t in table.segments],
            "cards": {colour: card.id for colour, card in table.cards.items()},
            "round": state.round, "lead": table.colours[state.lead], "phase": state.phase,
            "current": None if state.phase == "over" else table.colours[state.current],
            "players": players, "lines": list(state.lines), "racing": [table.colours[p] for p in state.racing],
            "tiebreak": state.tiebreak, "winners": [table.colours[p] for p in state.winners]}
