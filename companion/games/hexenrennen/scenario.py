"""Settle a Hexen Rennen rule dispute: a table position and one turn in, the rules' verdict out.

``run_scenario(position, turn)`` (the game's ``scenario`` hook) builds the position, plays the turn through the same
``apply`` as a real game (the roll, the witch moved, every tile revealed, card decision and card drawn on the way)
and returns ``{"position": ..., "events": [...]}``. The formats are in ``README.md`` beside this file;
``companion rules hexenrennen apply --position P.json --turn T.json`` wraps it. Files are written by hand in a
dispute, so every key is checked: a typo is refused, never ignored.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.base import OVER, Event, IllegalAction, ScenarioError, check_keys, enter, typed_value
from companion.games.hexenrennen.kit import Kit
from companion.games.hexenrennen.rules import PHASES, HexenRennen, all_home, decider, options, possible_tiles
from companion.games.hexenrennen.setup import new_state
from companion.games.hexenrennen.state import START, State, card_name, own_witches, parse_tile, parse_value, witch_id

_GAME = HexenRennen()

POSITION_KEYS = ("players", "current", "turn", "witches", "revealed", "cards", "piles")
PLAYER_KEYS = ("name", "colour")
TURN_KEYS = ("player", "die", "witch", "reveals", "cards", "draws")
STAY = "stay"
"""A ``cards`` answer: the decider lets the witch stay (HR-12, HR-13)."""


def state_from_position(position: Any) -> State:
    """The state at the start of ``current``'s turn (before the roll), or a game that is over (HR-18)."""
    where = "position"
    check_keys(position, POSITION_KEYS, where)
    players = typed_value(position, "players", list, where)
    setup = []
    for n, player in enumerate(players):
        at = f"position.players[{n}]"
        check_keys(player, PLAYER_KEYS, at)
        colour = typed_value(player, "colour", str, at)
        setup.append({"name": typed_value(player, "name", str, at, colour), "colour": colour})
    try:
        state = new_state({"players": setup}, random.Random(0))  # hidden tiles and piles: nothing is drawn
    except IllegalAction as exc:
        raise ScenarioError("position.players", str(exc)) from None
    kit = state.kit
    witches = list(state.witches)
    placed = check_keys(typed_value(position, "witches", dict, where, {}), state.ids, "position.witches")
    held: dict[int, str] = {}
    for wid, space in placed.items():
        at = f"position.witches.{wid}"
        if isinstance(space, bool) or not isinstance(space, int) or not START <= space <= kit.last_space:
            raise ScenarioError(at, f"expected a space {START}..{kit.last_space}, got {space!r}")
        if START < space <= kit.track_length:
            if space in held:
                raise ScenarioError(at, f"space {space} holds {held[space]} already; one witch per space (HR-6)")
            held[space] = wid
        witches[state.ids.index(wid)] = space
    state = state._replace(witches=tuple(witches), track=_revealed(state, position), turns=_turn_number(position),
                           hands=_cards(position, "cards", state.clans, state.hands, kit),
                           piles=_cards(position, "piles", state.neutrals, state.piles, kit))
    current = typed_value(position, "current", (str, type(None)), where, state.clans[0])
    if all_home(state):  # HR-18: the rules' own ending gives the winners
        return enter(state, "game_over", PHASES, [])
    if current not in state.clans:
        raise ScenarioError("position.current", f"expected the clan on turn, one of {', '.join(state.clans)}, "
                            f"got {current!r}")
    return state._replace(turn=state.clans.index(current))


def _turn_number(position: Mapping[str, Any]) -> int:
    number = typed_value(position, "turn", int, "position", 1)
    if number < 1:
        raise ScenarioError("position.turn", f"turns are counted from 1, got {number}")
    return number


def _revealed(state: State, position: Mapping[str, Any]) -> tuple[Any, ...]:
    """HR-2/HR-3: the face-up tiles by space, each one that could lie there given the others."""
    kit = state.kit
    given = typed_value(position, "revealed", dict, "position", {})
    spaces = {}
    for key, text in given.items():
        at = f"position.revealed.{key}"
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= kit.track_length):
            raise ScenarioError(at, f"expected a track space 1..{kit.track_length}")
        if parse_tile(text, kit) is None:
            raise ScenarioError(at, f"{text!r} is no tile of the box: <clan>-<number> or <clan>-magic, clans "
                                f"{', '.join(kit.clans)}")
        spaces[int(key)] = key
    for space in sorted(spaces):
        tile = parse_tile(given[spaces[space]], kit)
        if tile not in possible_tiles(state, space):
            raise ScenarioError(f"position.revealed.{spaces[space]}", f"{tile} cannot lie there as well: each clan "
                                "has each number once, and puts its tiles, one of them magic, into each stage "
                                "(HR-2, HR-3)")
        track = list(state.track)
        track[space] = tile
        state = state._replace(track=tuple(track))
    return state.track


def _cards(position: Mapping[str, Any], key: str, clans: tuple[str, ...], full: tuple[tuple[int, ...], ...],
           kit: Kit) -> tuple[tuple[int, ...], ...]:
    """HR-15/HR-20: the cards each clan (``cards``: players, ``piles``: neutral clans) has left; default all."""
    given = check_keys(typed_value(position, key, dict, "position", {}), clans, f"position.{key}")
    result = []
    for clan, deck in zip(clans, full, strict=True):
        if clan not in given:
            result.append(deck)
            continue
        at = f"position.{key}.{clan}"
        cards = given[clan]
        values = [parse_value(c, kit.card_numbers) for c in cards] if isinstance(cards, list) else [None]
        if None in values or Counter(values) - Counter(kit.deck):
            raise ScenarioError(at, f"expected a list of cards left, each of {[card_name(v) for v in kit.deck]} "
                                f"at most once (magic {kit.card_magic} times), got {cards!r}")
        result.append(tuple(sorted(values)))
    return tuple(result)


def position_from_state(state: State) -> dict[str, Any]:
    """The Position format of ``state`` (between turns)."""
    return {
        "players": [{"name": name, "colour": clan} for clan, name in zip(state.clans, state.names, strict=True)],
        "current": None if state.phase == OVER else state.current,
        "turn": state.turns,
        "witches": {witch_id(state, k): space for k, space in enumerate(state.witches)},
        "revealed": {str(space): str(tile) for space, tile in enumerate(state.track) if tile is not None},
        "cards": {clan: [card_name(v) for v in hand] for clan, hand in zip(state.clans, state.hands, strict=True)},
        "piles": {clan: [card_name(v) for v in pile] for clan, pile in zip(state.neutrals, state.piles, strict=True)},
    }


class _Turn:
    """A Turn file read and checked for its shape; the rules judge its content when it is played."""

    def __init__(self, turn: Any, kit: Kit) -> None:
        check_keys(turn, TURN_KEYS, "turn")
        self.player = typed_value(turn, "player", str, "turn")
        self.die = typed_value(turn, "die", int, "turn")
        self.witch = typed_value(turn, "witch", str, "turn", None)
        self.reveals = []
        for n, text in enumerate(typed_value(turn, "reveals", list, "turn", [])):
            tile = parse_tile(text, kit)
            if tile is None:
                raise ScenarioError(f"turn.reveals[{n}]", f"{text!r} is no tile of the box: <clan>-<number> or "
                                    f"<clan>-magic, clans {', '.join(kit.clans)}")
            self.reveals.append({"type": "reveal", "clan": tile.clan, "value": card_name(tile.value)})
        self.cards = [{"type": "stay"} if card == STAY else {"type": "play", "card": card}
                      for card in _answers(turn, "cards", (str, int))]
        self.draws = [{"type": "draw", "card": card} for card in _answers(turn, "draws", (str, int))]


def _answers(turn: Mapping[str, Any], key: str, kinds: tuple[type, ...]) -> list[Any]:
    answers = typed_value(turn, key, list, "turn", [])
    for n, answer in enumerate(answers):
        if isinstance(answer, bool) or not isinstance(answer, kinds):
            raise ScenarioError(f"turn.{key}[{n}]", f"expected a card (a number or \"magic\"), got {answer!r}")
    return answers


def run_scenario(position: Mapping[str, Any], turn: Mapping[str, Any]) -> dict[str, Any]:
    """Play ``turn`` from ``position``; the result is the table right after the turn and what the rules did.

    Raises ``IllegalAction`` (naming the rule) for a turn the rules forbid or leave incomplete, and
    ``ScenarioError`` (a ``ValueError`` naming the key) for a malformed file.
    """
    state = state_from_position(position)
    told = _Turn(turn, state.kit)
    if state.phase == OVER:
        raise IllegalAction("HR-18", f"the game is over (winners: {', '.join(state.winners)})")
    if told.player not in state.clans:
        raise ScenarioError("turn.player", f"expected a clan in play, one of {', '.join(state.clans)}, "
                            f"got {told.player!r}")
    if told.player != state.current:
        raise IllegalAction("HR-1", f"it is {state.current}'s turn, not {told.player}'s", legal=state.current)
    own = [witch_id(state, k) for k in own_witches(state, state.current)]
    if told.witch is not None and told.witch not in own:
        raise IllegalAction("HR-5", f"{told.player} moves one of its own witches, not {told.witch!r}", legal=own)
    before = state
    state, events = _GAME.apply(state, {"type": "roll", "dice": [str(told.die)]})
    queues = {"reveal": told.reveals, "own_magic": told.cards, "foreign_magic": told.cards, "draw": told.draws}
    while state.phase not in ("roll", OVER):
        if state.phase == "move":
            action = _move(state, told)
        else:
            queue = queues[state.phase]
            if not queue:
                raise _missing(state)
            action = queue.pop(0)
        state, more = _GAME.apply(state, action)
        events.extend(more)
    _check_unused(before, told, events)
    cut = next((n for n, e in enumerate(events) if e["type"] == "turn"), len(events))
    return {"position": position_from_state(state), "events": events[:cut]}


def _move(state: State, told: _Turn) -> dict[str, Any]:
    """HR-5: the roll leaves a choice, so the turn must name the witch."""
    if told.witch is None:
        raise IllegalAction("HR-5", f"{state.current} can move more than one witch {state.roll}: the turn must name "
                            "it in 'witch'", legal=_answers_now(state))
    return {"type": "move", "witch": told.witch}


def _missing(state: State) -> IllegalAction:
    """The chain stopped for an answer the turn does not give: say which list must give it, and what is possible."""
    wid = witch_id(state, state.witch)
    space = state.witches[state.witch]
    if state.phase == "reveal":
        what = f"{wid} landed on hidden space {space}: 'reveals' must say what it shows"
    elif state.phase == "draw":
        what = f"{wid} landed on a neutral magic sign on space {space}: 'draws' must say which card came up"
    else:
        what = f"{decider(state)} decides about {wid} on space {space}: 'cards' must say \"stay\" or the card played"
    return IllegalAction(PHASES[state.phase].rule, what, legal=_answers_now(state))


def _answers_now(state: State) -> list[Any]:
    """The legal options in the Turn's words: witch ids, tiles as ``blue-10``, ``"stay"`` or cards."""
    result = []
    for option in options(state):
        if option["type"] == "move":
            result.append(option["witch"])
        elif option["type"] == "reveal":
            result.append(f"{option['clan']}-{option['value']}")
        else:
            result.append(STAY if option["type"] == "stay" else option["card"])
    return result


def _check_unused(before: State, told: _Turn, events: list[Event]) -> None:
    """A turn file must describe what happened: a named witch that did not move, answers the chain never asked for."""
    moved = next((e for e in events if e["type"] == "moved"), None)
    if told.witch is not None:
        if moved is None:
            raise IllegalAction("HR-8", f"no {before.current} witch can move {told.die}: the turn passes", legal=[])
        start = {witch_id(before, k) for k in own_witches(before, before.current) if before.witches[k] == START}
        if moved["witch"] != told.witch and not {moved["witch"], told.witch} <= start:
            raise IllegalAction("HR-5", f"with {told.die} only {moved['witch']} can move", legal=[moved["witch"]])
    end = next((e for e in events if e["type"] in ("chain_end", "passed")), None)
    where = f"the move ended on space {end['to']}" if end and end["type"] == "chain_end" else "the turn passed"
    for key, rule in (("reveals", "HR-9"), ("cards", "HR-14"), ("draws", "HR-20")):
        left = getattr(told, key)
        if left:
            raise IllegalAction(rule, f"{where}: nothing more was asked, but '{key}' has {len(left)} left over",
                                legal=[])
