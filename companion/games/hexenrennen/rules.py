"""Hexen Rennen (Wolfgang Panning, Queen Games 2001) as pure functions over a small state, rules HR-1..HR-20.

The rulebook is ``shared/seeds/hexenrennen.de.txt``; ``README.md`` beside this file lists the rules by id, the
**Decisions** taken where it is silent, the action vocabulary, the set-up options and the view.

The physical tiles lie face down and were chosen in secret, so the companion does not know the track: it is a row of
unknown tiles that the players reveal one by one. Whenever a witch lands on a hidden tile the engine stops in the
``reveal`` phase and asks what the tile shows, offering only the tiles still possible there (HR-2, HR-3); then it
follows the chain of instructions (HR-10..HR-16) until the witch stops or somebody must decide about a card. Each
step is an entry of ``PHASES`` that says what comes after it. For bot games a seeded layout can stand in for the
table (``"tiles": "shuffled"``, ``setup.py``); it is kept out of the view and the reveal prompt then offers only the
true tile. The state and how its parts are named are ``state.py``.

==============  ==================================================================================  ======
roll            ``{"type": "roll", "roll": 1}`` + ``"dice": [face]``                                 HR-5
move            ``{"type": "move", "witch": "blue-2", "to": 14}``                                    HR-5
reveal          ``{"type": "reveal", "clan": "blue", "value": 10}`` (``"value": "magic"``)           HR-9
own_magic       ``{"type": "stay"}`` / ``{"type": "play", "card": 7, "witch": .., "to": ..}``        HR-12
foreign_magic   same, decided by the tile's owner; no ``stay`` when the card is forced                 HR-13
draw            ``{"type": "draw", "card": 5}``: the top card of a neutral pile                       HR-20
==============  ==================================================================================  ======
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.games.base import (
    OVER,
    Action,
    Event,
    GameBase,
    IllegalAction,
    Phase,
    Prompt,
    apply_in_phase,
)
from companion.games.hexenrennen import luck as odds
from companion.games.hexenrennen.kit import MAGIC
from companion.games.hexenrennen.setup import new_state
from companion.games.hexenrennen.state import (
    FACES,
    START,
    State,
    Step,
    Tile,
    card_name,
    clan_of,
    occupied,
    own_witches,
    parse_value,
    tile_json,
    where,
    witch_id,
)

# ---------------------------------------------------------------------------------------------------------- moves


def die_target(state: State, k: int, roll: int, occ: set[int]) -> int | None:
    """HR-5..HR-7, HR-17: where witch ``k`` lands with ``roll``, or ``None`` if it cannot move it in full."""
    kit = state.kit
    here = state.witches[k]
    if here > kit.track_length:
        return None  # HR-17: a witch in the finish stays there
    if here == START:  # HR-7: from the start, occupied spaces do not count, so it is never blocked
        there, left = START, roll
        while left:
            there += 1
            if there not in occ:
                left -= 1
        return there
    there = here + roll
    if there > kit.last_space or there in occ:  # HR-17 exact finish, HR-6 one witch per space
        return None
    return there


def move_options(state: State) -> list[tuple[int, int]]:
    """HR-5: (witch, target) for each own witch that can move the roll; witches at the start are one choice."""
    occ = occupied(state)
    result = []
    from_start = False
    for k in own_witches(state, state.current):
        there = die_target(state, k, state.roll, occ)
        if there is None:
            continue
        if state.witches[k] == START:
            if from_start:
                continue
            from_start = True
        result.append((k, there))
    return result


def possible_tiles(state: State, space: int) -> list[Tile]:
    """HR-2/HR-3/HR-9: what a hidden tile may show, given what is revealed: each clan's numbers once on the whole
    track, and per stage each clan's ``tiles_per_stage`` tiles with ``magic_per_stage`` magic ones."""
    kit = state.kit
    s = kit.stage_of(space)
    stage = [t for t in state.track[1 + s * kit.stage_length: 1 + (s + 1) * kit.stage_length] if t is not None]
    used = {t for t in state.track if t is not None and t.value != MAGIC}
    result = []
    for clan in kit.clans:
        mine = [t.value for t in stage if t.clan == clan]
        magic = mine.count(MAGIC)
        if len(mine) - magic < kit.numbers_per_stage:
            result.extend(Tile(clan, n) for n in kit.tile_numbers if Tile(clan, n) not in used)
        if magic < kit.magic_per_stage:
            result.append(Tile(clan, MAGIC))
    return result


def reveal_options(state: State, space: int) -> list[Tile]:
    """HR-9: the true tile in a game with a layout, else every tile still possible there."""
    if state.truth is not None:
        return [state.truth[space]]
    return possible_tiles(state, space)


def decider(state: State) -> str:
    """Who decides now: the tile's owner on a foreign magic tile (HR-13), else the player on turn."""
    if state.phase == "foreign_magic":
        return state.track[state.witches[state.witch]].clan
    return state.current


def card_target(state: State, card: int, forward: bool, symbol: str,
                occ: set[int] | None = None) -> tuple[int | None, str, str]:
    """HR-12/HR-13/HR-17: where ``card`` moves the witch on the move: ``(space, "", "")`` or
    ``(None, rule, why not)``. A magic card goes to the nearest revealed free tile with ``symbol``'s magic sign."""
    kit = state.kit
    here = state.witches[state.witch]
    occ = occupied(state) if occ is None else occ
    rule = "HR-12" if forward else "HR-13"
    if card == MAGIC:
        spaces = range(here + 1, kit.track_length + 1) if forward else range(here - 1, START, -1)
        for q in spaces:
            tile = state.track[q]
            if tile is not None and tile.value == MAGIC and tile.clan == symbol and q not in occ:
                return q, "", ""
        return None, rule, f"no revealed free {symbol} magic tile {'ahead' if forward else 'behind'}"
    there = here + card if forward else here - card
    if there > kit.last_space:
        return None, "HR-17", f"{card} would go beyond the last finish field {kit.last_space}"
    if there <= START:
        return None, "HR-13", f"{card} would go behind the first tile (space {here} - {card})"
    if there in occ:
        return None, rule, f"space {there} is occupied"
    return there, "", ""


def playable(state: State, clan: str, forward: bool) -> list[Action]:
    """HR-12/HR-13: each distinct card of ``clan``'s hand that can be played on the witch on the move now, forward
    (its own magic sign) or back (the clan's sign it landed on), with its target."""
    hand = state.hands[state.clans.index(clan)]
    wid = witch_id(state, state.witch)
    options: list[Action] = []
    occ = occupied(state)
    for value in dict.fromkeys(hand):
        there, _, _ = card_target(state, value, forward, clan, occ)
        if there is not None:
            options.append({"type": "play", "card": card_name(value), "witch": wid, "to": there})
    return options


def card_options(state: State) -> list[Action]:
    """HR-12/HR-13: the cards the decider can play in a card phase."""
    return playable(state, decider(state), state.phase == "own_magic")


def draw_options(state: State) -> list[int]:
    """HR-20: the top card of the neutral pile if the layout is known, else every card still in it."""
    pile = state.piles[state.neutrals.index(state.track[state.witches[state.witch]].clan)]
    return [pile[0]] if state.piles_known else list(dict.fromkeys(pile))


# ---------------------------------------------------------------------------------------------------------- the turn
# One function per step of a turn, in the order of PHASES below: each applies its rule and returns the state; what
# comes next is PHASES' ``next``. A witch's move is a chain: the tile it lands on may move it on (HR-10), stop it
# (HR-11) or ask a player about a card (HR-12, HR-13, HR-20), until it stops.


def _roll(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-5: one d6."""
    if action.get("roll", 1) != 1:
        raise IllegalAction("HR-5", f"Hexen Rennen rolls one die, not {action.get('roll')!r}", legal=1)
    dice = action.get("dice")
    if not (isinstance(dice, list) and len(dice) == 1 and dice[0] in FACES):
        raise IllegalAction("HR-5", f"a roll is one d6 face, got {dice!r}", legal=list(FACES))
    roll = int(dice[0])
    events.append({"type": "rolled", "player": state.current, "die": roll})
    return state._replace(roll=roll, chain=(), witch=-1, forced=False)


def _after_roll(state: State, action: Mapping[str, Any]) -> str:
    """HR-5/HR-8: the player chooses which witch moves the roll; one that can moves at once; none: the turn passes."""
    moves = len(move_options(state))
    return "move" if moves > 1 else "only_move" if moves == 1 else "pass"


def _pass(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-8: no witch can move the roll in full."""
    events.append({"type": "passed", "player": state.current, "die": state.roll})
    return state


def _move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-5..HR-7, HR-17: the witch the player chose moves the roll."""
    wid = action.get("witch")
    mine = {witch_id(state, k): k for k in own_witches(state, state.current)}
    if wid not in mine:
        movable = [witch_id(state, k) for k, _ in move_options(state)]
        raise IllegalAction("HR-5", f"{state.current} moves one of its own witches, not {wid!r}", legal=movable)
    k = mine[wid]
    there = die_target(state, k, state.roll, occupied(state))
    here = state.witches[k]
    if there is None or ("to" in action and action["to"] != there):
        movable = [witch_id(state, k) for k, _ in move_options(state)]
    if there is None:
        if here > state.kit.track_length:
            raise IllegalAction("HR-17", f"{wid} is in the finish and stays there", legal=movable)
        if here + state.roll > state.kit.last_space:
            raise IllegalAction("HR-17", f"{wid} on {here} would go beyond the last finish field with "
                                f"{state.roll}", legal=movable)
        raise IllegalAction("HR-6", f"{wid} cannot move {state.roll} from {here}: space {here + state.roll} "
                            "is occupied", legal=movable)
    if "to" in action and action["to"] != there:
        raise IllegalAction("HR-7", f"{wid} moves {state.roll} from {here} to space {there}, not {action['to']!r}",
                            legal=movable)
    return _place(state._replace(witch=k), there, "die", events, value=state.roll)


def _only_move(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-5: the only witch that can move the roll moves it."""
    k, there = move_options(state)[0]
    return _place(state._replace(witch=k), there, "die", events, value=state.roll)


def _follow(state: State, action: Mapping[str, Any]) -> str:
    """HR-9..HR-13, HR-17, HR-20: what the space under the witch on the move does, unless the witch has stopped."""
    k = state.witch
    here = state.witches[k]
    if state.stopped or here > state.kit.track_length:
        return "chain_end"
    tile = state.track[here]
    if tile is None:
        return "reveal"
    own = tile.clan == clan_of(state, k)
    if tile.value != MAGIC:
        return "own_number" if own else "foreign_number"
    if own:
        return "own_magic_sign"
    return "neutral_magic_sign" if tile.clan in state.neutrals else "foreign_magic_sign"


def _reveal_problem(state: State, space: int, tile: Tile | None) -> tuple[str, str]:
    kit = state.kit
    if tile is None:
        return "HR-2", f"no such tile; tiles are a clan of {', '.join(kit.clans)} and a number 2..10 or magic"
    if state.truth is not None:
        return "HR-9", f"this game's layout has {state.truth[space]} on space {space}, not {tile}"
    if tile.value != MAGIC and tile in state.track:
        return "HR-2", f"{tile} already lies on space {state.track.index(tile)}; each clan has each number once"
    s = kit.stage_of(space)
    kind = "magic tile(s)" if tile.value == MAGIC else "number tiles"
    return "HR-3", f"stage {s + 1} already shows all {tile.clan} {kind} chosen for it"


def _reveal(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-9: a witch landing on a hidden tile turns it face up; it stays revealed."""
    kit = state.kit
    space = state.witches[state.witch]
    clan, value = action.get("clan"), parse_value(action.get("value"), kit.tile_numbers)
    tile = Tile(clan, value) if clan in kit.clans and value is not None else None
    legal = reveal_options(state, space)
    if tile not in legal:
        rule, message = _reveal_problem(state, space, tile)
        raise IllegalAction(rule, f"space {space} cannot show {action.get('clan')}-{action.get('value')}: "
                            f"{message}", legal=[str(t) for t in legal])
    track = list(state.track)
    track[space] = tile
    events.append({"type": "revealed", "space": space, "clan": tile.clan, "value": card_name(tile.value)})
    return state._replace(track=tuple(track))


def _own_number(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-10: the clan's own number moves the witch on that many spaces, unless that goes beyond the last finish
    field (HR-17) or onto a witch (HR-6)."""
    here = state.witches[state.witch]
    value = state.track[here].value
    there = here + value
    if there > state.kit.last_space:
        return _stays(state, events, "beyond_finish", "HR-17", value=value)
    if there in occupied(state):
        return _stays(state, events, "occupied", "HR-10", at=there)
    return _place(state, there, "tile", events, value=value)


def _foreign_number(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-11: another clan's number stops the witch."""
    return _stays(state, events, "foreign_number", "HR-11", clan=state.track[state.witches[state.witch]].clan)


def _own_magic_sign(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-12: on its own clan's magic sign the player may play a card forward, if one can be played."""
    if playable(state, state.current, forward=True):
        return _asks(state, "own_magic", state.current, events)
    return _stays(state, events, "no_playable_card", "HR-12")


def _foreign_magic_sign(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-13/HR-16: on another player's magic sign that player may play a card back (must, after a number card)."""
    owner = state.track[state.witches[state.witch]].clan
    if playable(state, owner, forward=False):
        return _asks(state, "foreign_magic", owner, events, forced=state.forced)
    return _stays(state, events, "no_card", "HR-13", clan=owner)


def _neutral_magic_sign(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-20: on a neutral clan's magic sign the top card of its pile is played against the witch."""
    k = state.witch
    here = state.witches[k]
    neutral = state.track[here].clan
    if not state.piles[state.neutrals.index(neutral)]:
        return _stays(state, events, "pile_empty", "HR-20", clan=neutral)
    events.append({"type": "asks", "phase": "draw", "player": state.current, "witch": witch_id(state, k),
                   "space": here, "pile": neutral})
    return state


def _play_card(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-12/HR-13 (``stay`` or ``play``), HR-15 (a card once), HR-16 (forced); a magic card ends the move."""
    forward = state.phase == "own_magic"
    rule = PHASES[state.phase].rule
    clan = decider(state)
    options = card_options(state)
    wid = witch_id(state, state.witch)
    if action["type"] == "stay":
        if not forward and state.forced and options:  # HR-16
            raise IllegalAction("HR-16", f"{wid} was sent back onto {clan}'s magic tile by a number card: {clan} "
                                "must play a card against it", legal=options)
        return _stays(state, events, "chose_to_stay", rule, clan=clan)
    i = state.clans.index(clan)
    hand = state.hands[i]
    value = parse_value(action.get("card"), state.kit.card_numbers)
    if value is None or value not in hand:
        raise IllegalAction("HR-15", f"{clan} has no card {action.get('card')!r} left; played cards are discarded",
                            legal=[card_name(v) for v in dict.fromkeys(hand)])
    there, why_rule, why = card_target(state, value, forward, clan)
    if there is None:
        raise IllegalAction(why_rule, f"{clan} cannot play {card_name(value)} on {wid}: {why}", legal=options)
    if "to" in action and action["to"] != there:
        raise IllegalAction(why_rule, f"{card_name(value)} takes {wid} to space {there}, not {action['to']!r}",
                            legal=options)
    hands = list(state.hands)
    left = list(hand)
    left.remove(value)
    hands[i] = tuple(left)
    events.append({"type": "card_played", "player": clan, "card": card_name(value), "witch": wid,
                   "direction": "forward" if forward else "back", "forced": not forward and state.forced,
                   "cards_left": len(left)})
    state = _place(state._replace(hands=tuple(hands)), there, "magic" if value == MAGIC else "card", events,
                   value=value, player=clan, back_by_number=not forward and value != MAGIC)
    return _stays(state, events, "magic_ends_move", rule) if value == MAGIC else state


def _draw(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-20: the top card of the neutral pile is played against the witch; if it cannot be, it is discarded."""
    neutral = state.track[state.witches[state.witch]].clan
    n = state.neutrals.index(neutral)
    legal = draw_options(state)
    value = parse_value(action.get("card"), state.kit.card_numbers)
    if value not in legal:
        why = "the top card of this game's pile" if state.piles_known else "the cards still in the pile"
        raise IllegalAction("HR-20", f"{action.get('card')!r} is not {why} of {neutral}",
                            legal=[card_name(v) for v in legal])
    pile = list(state.piles[n])
    pile.remove(value)
    piles = list(state.piles)
    piles[n] = tuple(pile)
    state = state._replace(piles=tuple(piles))
    there, _, why = card_target(state, value, False, neutral)
    wid = witch_id(state, state.witch)
    events.append({"type": "drawn", "clan": neutral, "card": card_name(value), "witch": wid,
                   "ignored": there is None, "pile_left": len(pile)})
    if there is None:
        return _stays(state, events, "drawn_card_void", "HR-20", card=card_name(value))
    state = _place(state, there, "magic" if value == MAGIC else "draw", events, value=value, player=neutral,
                   back_by_number=value != MAGIC)
    return _stays(state, events, "magic_ends_move", "HR-20") if value == MAGIC else state


def _end_chain(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """The witch stopped: the chain of its moves summed up."""
    k = state.witch
    first = next(step for step in state.chain if step.witch == k)
    here = state.witches[k]
    events.append({"type": "chain_end", "witch": witch_id(state, k), "from": first.start, "to": here,
                   "net": here - first.start, "steps": len(state.chain)})
    return state._replace(witch=-1, forced=False, stopped=False)


def all_home(state: State) -> bool:
    """HR-18: a clan has all its witches in the finish."""
    last = state.kit.track_length
    w = state.kit.witches_per_clan
    return any(all(p > last for p in state.witches[i * w:(i + 1) * w]) for i in range(len(state.clans)))


def _after_chain(state: State, action: Mapping[str, Any]) -> str:
    """HR-18: the game ends at once when a clan has all its witches home."""
    return "game_over" if all_home(state) else "turn_end"


def _next_turn(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-5: clockwise, i.e. the order of ``players``."""
    turn = (state.turn + 1) % len(state.clans)
    events.append({"type": "turn", "player": state.clans[turn], "turn": state.turns + 1})
    return state._replace(turn=turn, turns=state.turns + 1, roll=0, witch=-1, forced=False)


def scores(state: State) -> dict[str, int]:
    """HR-19: points of the finish fields the clan's witches stand on."""
    kit = state.kit
    return {clan: sum(kit.points(state.witches[k]) for k in own_witches(state, clan)) for clan in state.clans}


def _game_over(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """HR-18/HR-19: most points win; **Decision**: a tie is a shared win."""
    points = scores(state)
    best = max(points.values())
    winners = tuple(clan for clan in state.clans if points[clan] == best)
    events.append({"type": "game_over", "scores": points, "winners": list(winners)})
    return state._replace(winners=winners, roll=0)


def _place(state: State, there: int, by: str, events: list[Event], value: int | None = None,
           player: str | None = None, back_by_number: bool = False) -> State:
    """Put the witch on the move on ``there`` and tell the table."""
    k = state.witch
    here = state.witches[k]
    witches = list(state.witches)
    witches[k] = there
    wid = witch_id(state, k)
    event: Event = {"type": "moved", "witch": wid, "from": here, "to": there, "by": by}
    if value is not None:
        event["value"] = card_name(value)
    if player is not None:
        event["player"] = player
    events.append(event)
    if there > state.kit.track_length:  # HR-17
        events.append({"type": "finished", "witch": wid, "space": there, "points": state.kit.points(there)})
    return state._replace(witches=tuple(witches), chain=state.chain + (Step(k, here, there, by, value, player),),
                          forced=back_by_number)


STAYS_REASONS = ("beyond_finish", "occupied", "no_playable_card", "foreign_number", "pile_empty", "no_card",
                 "chose_to_stay", "magic_ends_move", "drawn_card_void")
"""Why a witch stays, as the ``reason`` code of a ``stays`` event; ``clan`` or ``card`` name whose, or which."""


def _stays(state: State, events: list[Event], reason: str, rule: str, **details: Any) -> State:
    """The witch on the move stops where it is: its chain ends."""
    k = state.witch
    events.append({"type": "stays", "witch": witch_id(state, k), "space": state.witches[k], "reason": reason,
                   "rule": rule, **details})
    return state._replace(stopped=True)


def _asks(state: State, phase: str, player: str, events: list[Event], **details: Any) -> State:
    """Say whose card decision the table waits for (the prompt repeats it with the options)."""
    k = state.witch
    events.append({"type": "asks", "phase": phase, "player": player, "witch": witch_id(state, k),
                   "space": state.witches[k], **details})
    return state


def _then(phase: str) -> Callable[[State, Mapping[str, Any]], str]:
    """The phase after a magic sign: the card decision it asked for, unless the witch stopped there."""
    return lambda state, action: "chain_end" if state.stopped else phase


# ---------------------------------------------------------------------------------------------------------- options


def options(state: State) -> list[Action]:
    return PHASES[state.phase].options(state)


def _roll_options(state: State) -> list[Action]:
    return [{"type": "roll", "roll": 1}]


def _move_options(state: State) -> list[Action]:
    return [{"type": "move", "witch": witch_id(state, k), "to": there} for k, there in move_options(state)]


def _reveal_options(state: State) -> list[Action]:
    return [{"type": "reveal", "clan": t.clan, "value": card_name(t.value)}
            for t in reveal_options(state, state.witches[state.witch])]


def _card_decision_options(state: State) -> list[Action]:
    cards = card_options(state)
    forced = state.phase == "foreign_magic" and state.forced and cards
    return cards if forced else [{"type": "stay"}, *cards]


def _draw_options(state: State) -> list[Action]:
    return [{"type": "draw", "card": card_name(v)} for v in draw_options(state)]


PHASES: dict[str, Phase] = {
    "roll": Phase("HR-5", ("roll",), _roll_options, _roll, next=_after_roll),
    "pass": Phase("HR-8", handler=_pass, next="turn_end"),
    "move": Phase("HR-5", ("move",), _move_options, _move, next=_follow),
    "only_move": Phase("HR-5", handler=_only_move, next=_follow),
    "reveal": Phase("HR-9", ("reveal",), _reveal_options, _reveal, next=_follow),
    "own_number": Phase("HR-10", handler=_own_number, next=_follow),
    "foreign_number": Phase("HR-11", handler=_foreign_number, next=_follow),
    "own_magic_sign": Phase("HR-12", handler=_own_magic_sign, next=_then("own_magic")),
    "own_magic": Phase("HR-12", ("stay", "play"), _card_decision_options, _play_card, next=_follow),
    "foreign_magic_sign": Phase("HR-13", handler=_foreign_magic_sign, next=_then("foreign_magic")),
    "foreign_magic": Phase("HR-13", ("stay", "play"), _card_decision_options, _play_card, next=_follow),
    "neutral_magic_sign": Phase("HR-20", handler=_neutral_magic_sign, next=_then("draw")),
    "draw": Phase("HR-20", ("draw",), _draw_options, _draw, next=_follow),
    "chain_end": Phase("HR-10", handler=_end_chain, next=_after_chain),
    "turn_end": Phase("HR-5", handler=_next_turn, next="roll"),
    "game_over": Phase("HR-18", handler=_game_over, next=OVER),
    OVER: Phase("HR-18"),
}
"""A turn's steps: the roll, the witch's move and the chain of tiles it follows, the end of the turn or of the game;
each with its rule, its actions, its options, its handler and what comes next. Those without actions play
themselves."""


# ---------------------------------------------------------------------------------------------------------- the game


class HexenRennen(GameBase):
    """The Hexen Rennen rules, implementing ``companion.games.base.Game``; ``scenario`` is ``scenario.py``'s
    (the package gives it: that module builds on this one)."""

    id = "hexenrennen"
    title = "Hexen Rennen"
    dice_set = "d6"
    die_faces = FACES
    luck, player_of = staticmethod(odds.luck), staticmethod(odds.player_of)

    def __init__(self, scenario: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None):
        if scenario is not None:
            self.scenario = scenario

    def setup(self, options: Mapping[str, Any], rng: random.Random) -> State:
        return new_state(options, rng)

    def prompt(self, state: State) -> Prompt:
        if state.phase == OVER:
            return Prompt(actor=None, phase=OVER, info={"winners": list(state.winners), "scores": scores(state)})
        return Prompt(actor=decider(state), phase=state.phase, options=options(state), info=info(state))

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        if state.phase == OVER:
            raise IllegalAction("HR-18", f"the game is over (winners: {', '.join(state.winners)})")
        return apply_in_phase(state, action, PHASES, decider(state))

    def view(self, state: State) -> dict[str, Any]:
        return view(state)

    def seats(self, state: State) -> dict[str, bool]:
        return {clan: clan in state.bots for clan in state.clans}


def info(state: State) -> dict[str, Any]:

    """``Prompt.info``: whose turn, the roll, and for decisions the witch, its space and tile."""
    result: dict[str, Any] = {"player": state.current, "name": state.names[state.turn], "turn": state.turns,
                              "roll": state.roll or None}
    if state.witch >= 0:
        space = state.witches[state.witch]
        result.update(witch=witch_id(state, state.witch), space=space, stage=state.kit.stage_of(space) + 1,
                      tile=tile_json(state.track[space]))
    if state.phase in ("own_magic", "foreign_magic"):
        clan = decider(state)
        result.update(decides=clan, forced=state.phase == "foreign_magic" and state.forced,
                      cards=[card_name(v) for v in state.hands[state.clans.index(clan)]])
    if state.phase == "draw":
        neutral = state.track[state.witches[state.witch]].clan
        result.update(pile=neutral, pile_left=len(state.piles[state.neutrals.index(neutral)]))
    return result


# ---------------------------------------------------------------------------------------------------------- view


def view(state: State) -> dict[str, Any]:
    """Everything a dashboard shows, as JSON; the layout of a bot game (``truth``) is never part of it."""
    kit = state.kit
    last = kit.track_length
    on = {p: witch_id(state, k) for k, p in enumerate(state.witches) if START < p <= last}
    points = scores(state)
    over = state.phase == OVER
    return {
        "game": "hexenrennen",
        "phase": state.phase,
        "current": None if over else state.current,
        "decides": None if over else decider(state),
        "turn": state.turns,
        "roll": state.roll or None,
        "moving": witch_id(state, state.witch) if state.witch >= 0 else None,
        "forced": state.forced,
        "track": [{"space": p, "stage": kit.stage_of(p) + 1, "tile": tile_json(state.track[p]), "witch": on.get(p)}
                  for p in range(1, last + 1)],
        "finish": [{"space": last + 1 + i, "points": pts,
                    "witches": [witch_id(state, k) for k, p in enumerate(state.witches) if p == last + 1 + i]}
                   for i, pts in enumerate(kit.finish_points)],
        "witches": [{"id": witch_id(state, k), "clan": clan_of(state, k), "space": p, "where": where(state, p),
                     "points": kit.points(p)} for k, p in enumerate(state.witches)],
        "players": [{"clan": clan, "name": name, "cards": [card_name(v) for v in hand], "cards_left": len(hand),
                     "magic_cards": hand.count(MAGIC), "score": points[clan],
                     "home": sum(state.witches[k] > last for k in own_witches(state, clan))}
                    for clan, name, hand in zip(state.clans, state.names, state.hands, strict=True)],
        "neutrals": [{"clan": clan, "pile_left": len(pile)} for clan, pile in zip(state.neutrals, state.piles,
                                                                                 strict=True)],
        "revealed": sum(t is not None for t in state.track),
        "chain": [{"witch": witch_id(state, s.witch), "from": s.start, "to": s.end, "by": s.by,
                   "value": None if s.value is None else card_name(s.value), "player": s.player} for s in state.chain],
        "scores": points,
        "winners": list(state.winners),
        "over": over,
    }
