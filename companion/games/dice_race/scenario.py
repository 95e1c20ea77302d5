"""Settle a Dice Race dispute: a table position and one roll in, the rules' verdict out.

``run_scenario(position, turn)`` (the game's ``scenario`` hook) builds the position, plays the roll through the same
``apply`` as a real game and returns ``{"position": ..., "events": [...]}``; the formats are in ``README.md``
beside this file, and ``companion rules dice-race apply --position P.json --turn T.json`` wraps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import OVER, IllegalAction, ScenarioError, Seat, check_keys, typed_value
from companion.games.dice_race.rules import COLOURS, GOAL, DiceRace, State

_GAME = DiceRace()


def state_from_position(position: Any) -> State:
    """The table before a turn; a player on or past ``GOAL`` has won (DR-3)."""
    check_keys(position, ("players", "current"), "position")
    entries = typed_value(position, "players", list, "position")
    if not 2 <= len(entries) <= len(COLOURS):
        raise ScenarioError("position.players", f"a game has 2 to 6 players (DR-1), got {len(entries)}")
    names, spaces = [], []
    for n, entry in enumerate(entries):
        at = f"position.players[{n}]"
        check_keys(entry, ("name", "space"), at)
        name, space = typed_value(entry, "name", str, at), typed_value(entry, "space", int, at, 0)
        if name in names or space < 0:
            raise ScenarioError(at, f"expected a new name and a space >= 0, got {name!r} on {space}")
        names.append(name)
        spaces.append(space)
    home = [name for name, space in zip(names, spaces, strict=True) if space >= GOAL]
    current = typed_value(position, "current", (str, type(None)), "position", None if home else names[0])
    if len(home) > 1:
        raise ScenarioError("position.players", f"{' and '.join(home)} are on the goal, but the game ends when the "
                            "first reaches it (DR-3)")
    if home and current is not None:
        raise ScenarioError("position.current", f"{home[0]} reached the goal: the game is over (DR-3), nobody is on "
                            "turn: null")
    if not home and current not in names:
        raise ScenarioError("position.current", f"expected a player, one of {', '.join(names)}, got {current!r}")
    seats = tuple(Seat(name, colour, False) for name, colour in zip(names, COLOURS, strict=False))
    return State(seats=seats, positions=tuple(spaces), turn=names.index(current) if current else 0,
                 phase=OVER if home else "roll", winner=home[0] if home else None)


def position_from_state(state: State) -> dict[str, Any]:
    return {"players": [{"name": name, "space": space} for name, space in zip(state.players, state.positions,
                                                                               strict=True)],
            "current": None if state.winner else state.current}


def run_scenario(position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    """Play one roll (``{"player": "Bo", "die": 4}``) from ``position``."""
    state = state_from_position(position)
    check_keys(turn, ("player", "die"), "turn")
    player = typed_value(turn, "player", str, "turn")
    die = typed_value(turn, "die", int, "turn")
    if player not in state.players:
        raise ScenarioError("turn.player", f"expected a player, one of {', '.join(state.players)}, got {player!r}")
    if state.winner is None and player != state.current:
        raise IllegalAction("DR-1", f"it is {state.current}'s turn, not {player}'s", legal=state.current)
    state, events = _GAME.apply(state, {"type": "roll", "dice": [str(die)]})
    return {"position": position_from_state(state), "events": events}
