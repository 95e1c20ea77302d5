"""Cubitos rules (``../shared/games/cubitos/RULES.md``): a dice-building race, pure and over the data files.

The round is a table of phases (``PHASES``, ``base.Phase``): the phases a player decides in keep the names the
dashboard knows, and the steps that decide nothing (the roll order, a bust's dice, the round's end) run by
themselves. The table always waits for exactly one player's decision, and ``prompt`` lists every legal one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    Action,
    Event,
    IllegalAction,
    Phase,
    Prompt,
    apply_in_phase,
    by_itself,
    enter,
    read_seats,
)
from companion.games.cubitos import race_section as race
from companion.games.cubitos import roll_section as roll
from companion.games.cubitos.abilities import (
    ability_options,
    ability_roll_dice,
    adjust_options,
    owed,
    usable,
    use_ability,
)
from companion.games.cubitos.kit import LEAD, Kit, load_kit
from companion.games.cubitos.state import Player, State, Table, draw_limit, ending, lines_passed, seat

PLAYER_COLOURS = ("blue", "yellow", "red", "white")
"""CU-1."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def options(state: State) -> list[Action]:
    return PHASES[state.phase].options(state)


def prompt(state: State) -> Prompt:
    if state.phase == "over":
        return Prompt(actor=None, phase="over", info={"winners": [seat(state, p) for p in state.winners]})
    return Prompt(seat(state, state.current), state.phase, options(state), {})


def _player(state: State) -> Player:
    return state.players[state.current]


def _using(moment: str, done: str = "go", *more: str) -> Any:
    """The options of a moment that waits for abilities (``kit.WINDOWS``; phase 5 lists the any-time ones too):
    each use, and ``done`` unless a mandatory ability or an owed special of the moment still waits."""
    return lambda state: ([] if owed(state, moment) else [{"type": done}]) + ability_options(state, moment, *more)


def _use(*moments: str) -> Any:
    """The handler of a phase that uses abilities at ``moments``: an ability used, or on (``go``, ``done``)."""
    return lambda state, action, events: (use_ability(state, action, events, *moments)
                                          if action["type"] == "ability" else state)


def _again(moment: str, then: str) -> Any:
    """The ``next`` of such a moment: the moment again while an ability can still be used after one, else ``then``."""
    return lambda state, action: (moment if action.get("type") == "ability"
                                  and usable(state, state.current, moment) else then)


PHASES: dict[str, Phase] = {
    # the roll section, one roller at a time (CU-23)
    "order": Phase("CU-23", handler=roll.to_next_roller,
                   next=lambda state, action: "faces" if _player(state).done_rolling else "roll"),
    "roll": Phase("CU-30", ("roll",), roll.roll_options, roll.on_roll,
                  next=lambda state, action: "busting" if _player(state).busting else "event"),
    "busting": Phase("CU-34", ("ability", "bust"), roll.busting_options, roll.on_busting, roll.after_busting,
                     skip=race.usable_at("bust")),
    "bust_dice": Phase("CU-34", handler=roll.bust_dice, next="bust"),
    "bust": Phase("CU-34", ("rest",), roll.bust_options, roll.on_rest, "bust_fan",
                  skip=lambda state: not _player(state).ready),
    "bust_fan": Phase("CU-34", handler=roll.bust_fan, next="order"),
    "event": Phase("CU-40", ("ability", "go"), _using("event"), _use("event"), _again("event", "settle"),
                   skip=lambda state: (_player(state).pushed_active is None
                                       or not usable(state, state.current, "event"))),
    "settle": Phase("CU-37", handler=roll.settle,
                    next=lambda state, action: "order" if _player(state).done_rolling else "choice"),
    "choice": Phase("CU-37", ("push", "pass", "ability"), roll.choice_options, roll.on_choice,
                    next=lambda state, action: {"pass": "order", "push": "push"}.get(action.get("type"), "settle")),
    "push": Phase("CU-39", ("ability", "go"), _using("push"), _use("push"), _again("push", "order"),
                  skip=race.usable_at("push")),
    # the race section, phase by phase in lead order (CU-24)
    "faces": Phase("CU-43", handler=race.collect_faces, next="support"),
    "support": Phase("CU-43", ("ability", "done"), _using("phase5", "done", *race.ANY_TIME),
                     _use("phase5", *race.ANY_TIME), race.after_support,
                     skip=lambda state: options(state) == [{"type": "done"}]),
    "adjust": Phase("CU-89", ("adjust", "done"), adjust_options, race.on_adjust,
                    next=lambda state, action: "adjust" if action.get("type") == "adjust" else "support"),
    "again": Phase("CU-86", ("roll",), race.again_options, race.on_again,
                   next=lambda state, action: "again" if state.again else "support"),
    "support_next": Phase("CU-43", handler=race.pass_on, next=race.round_through("support", "move_begin")),
    "move_begin": Phase("CU-62", handler=race.begin_move,
                        next=lambda state, action: "shortcut" if state.shortcut else "move_start"),
    "move_start": Phase("CU-62", ("begin", "convert", "buy_step"), race.move_start_options, race.on_move_start,
                        next=lambda state, action: "move_start" if action.get("type") in ("convert", "buy_step")
                        else race.after_special(state, action),
                        skip=lambda state: not race.START_SPECIAL_AFTER_PURCHASES or not race.special_waits(state)),
    "move": Phase("CU-58", ("move", "done", "convert", "buy_step", "ability"), race.move_options, race.on_move,
                  next=lambda state, action: ("bonus" if action.get("type") == "done"
                                              else race.after_special(state, action)), alone=by_itself("done", prompt)),
    "shortcut": Phase("CU-63", ("shortcut", "skip", "convert", "buy_step"), race.shortcut_options,
                      race.on_shortcut, race.after_special),
    "bonus": Phase("CU-66", ("give_back", "take_die", "decline"), race.bonus_options, race.on_bonus,
                   next=lambda state, action: "bonus" if state.bonuses else "end6",
                   skip=lambda state: not state.bonuses),
    "end6": Phase("CU-119", ("ability", "go"), _using("end6"), _use("end6"),  # CU-67: Bob's bonuses, then on
                  next=lambda state, action: "bonus" if action.get("type") == "ability" else "move_next",
                  skip=race.usable_at("end6")),
    "move_next": Phase("CU-65", handler=race.pass_on, next=race.round_through("move_begin", "before7")),
    "before7": Phase("CU-101", ("ability", "go"), _using("before7"), _use("before7"), _again("before7", "buy"),
                     skip=race.usable_at("before7")),
    "buy": Phase("CU-48", ("buy", "done", "convert", "ability"), race.buy_options, race.on_buy,
                 next=lambda state, action: "buy_next" if action.get("type") == "done" else "buy",
                 alone=by_itself("done", prompt)),
    "buy_next": Phase("CU-48", handler=race.pass_on, next=race.round_through("before7", "rest")),
    "rest": Phase("CU-50", handler=race.rest_all, next=lambda state, action: "end" if ending(state) else "next_round"),
    "end": Phase("CU-147", handler=race.end,
                 next=lambda state, action: "over" if state.winners else "next_round"),
    "next_round": Phase("CU-55", handler=race.next_round, next="order"),
    "over": Phase("CU-147"),
}
ROLL_SECTION = ("roll", "busting", "bust", "event", "choice", "push")
"""The phases of the roll section a player decides in (phases 1-4)."""


# ------------------------------------------------------------------------------------------- CU-14..CU-19 set-up


def _race(kit: Kit, options: Mapping[str, Any]) -> tuple[Any, dict[str, Any], tuple[Any, ...]]:
    race_id = options.get("race", "race_1")
    if race_id not in kit.races:
        raise IllegalAction("CU-15", f"no race {race_id!r}", legal=sorted(kit.races))
    race_ = kit.races[race_id]
    chosen = race_.cards if race_.cards is not None else options.get("cards")
    if not isinstance(chosen, Mapping) or set(chosen) != set(kit.ability_colours):
        raise IllegalAction("CU-143", f"{race_id} needs one card of each colour {', '.join(kit.ability_colours)}, "
                            f"got {chosen!r}", legal="cards: {colour: card id}")
    cards = {}
    for colour, card_id in chosen.items():
        card = kit.cards.get(card_id)
        if card is None or card.colour != colour:
            raise IllegalAction("CU-143", f"cards.{colour}: expected a {colour} card, got {card_id!r}")
        cards[colour] = card
    segments = options.get("tracks", race_.segments or [options.get("track", "verflinkst_und_zugenaeht")])
    segments = [segments] if isinstance(segments, str) else segments
    if not isinstance(segments, list | tuple) or not segments or any(t not in kit.tracks for t in segments):
        raise IllegalAction("CU-15", f"tracks must name tracks of races.json, got {segments!r}",
                            legal=sorted(kit.tracks))
    return race_, cards, tuple(kit.tracks[t] for t in segments)


def setup(options: Mapping[str, Any], rng: random.Random | None = None) -> State:
    """CU-14..CU-19: seats clockwise as listed, start dice in the draw zones, the grey stock, the lead die."""
    kit = load_kit()
    seats = read_seats(options, PLAYER_COLOURS, range(MIN_PLAYERS, MAX_PLAYERS + 1), "CU-1")
    race_, cards, segments = _race(kit, options)
    types = tuple(kind.id for kind in kit.dice.values() for _ in range(kind.count_total))
    free = {kind: [d for d, t in enumerate(types) if t == kind] for kind in kit.dice}
    players = []
    for _ in seats:
        draw = []
        for kind, count in kit.start_dice.items():
            draw += free[kind][:count]
            del free[kind][:count]
        players.append(Player(draw=tuple(draw), space=segments[0].start))
    lead = options.get("lead", 0)
    if not isinstance(lead, int) or isinstance(lead, bool) or not 0 <= lead < len(seats):
        raise IllegalAction("CU-18", f"lead must be a seat 0..{len(seats) - 1}, got {lead!r}")
    lead_die = types.index(LEAD)
    players[lead] = players[lead]._replace(ready=(lead_die,))
    table = Table(kit=kit, race=race_, cards=cards, segments=segments, laps=race_.laps,
                  colours=tuple(s.colour for s in seats), names=tuple(s.name for s in seats),
                  bots=tuple(s.bot for s in seats), types=types, lead_die=lead_die)
    stock = frozenset(d for kind, dice in free.items() if kind != LEAD for d in dice)
    state = State(table=table, players=tuple(players), stock=stock, lead=lead, round=1, phase="order", current=lead,
                  racing=tuple(range(len(seats))), lines=(0,) * len(seats))
    return enter(state, "order", PHASES, [])


# ------------------------------------------------------------------------------------------------------ the game


def apply(state: State, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """An action is legal when it is one of the listed options; a roll is checked against the dice it shows, a
    move step by step (any path the steps allow)."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    if kind in PHASES[state.phase].actions and kind not in ("roll", "move") and "dice" not in action \
            and dict(action) not in options(state):
        raise _refusal(state, action, kind)
    if kind not in PHASES[state.phase].actions and kind in ("convert", "buy_step"):
        raise _refusal(state, action, kind)
    return apply_in_phase(state, action, PHASES, seat(state, state.current))


def _refusal(state: State, action: Mapping[str, Any], kind: Any) -> IllegalAction:
    """Why an action is not one of the options, naming the rule it breaks."""
    player = state.players[state.current]
    who = seat(state, state.current)
    if kind == "push" and not player.ready:
        return IllegalAction("CU-37", f"{who} has no die left in the ready zone and must pass", legal=options(state))
    if kind == "pass" and player.must_push:
        return IllegalAction("CU-110", f"a Käsehäppchen was placed: {who} must push once more", legal=options(state))
    if kind == "convert" and state.phase in ROLL_SECTION:
        return IllegalAction("CU-42", "credits turn into coins only in the race section (phases 5-8)")
    if kind == "buy_step":
        return IllegalAction("CU-47", "steps are bought in phase 6 only, for 4 coins each", legal=options(state))
    return IllegalAction(PHASES[state.phase].rule, f"{who} cannot {dict(action)} now", legal=options(state))


def roll_dice(state: State, option: Mapping[str, Any], rng: random.Random) -> list[str]:
    """The dice of a roll as the table would roll them: the ready zone and a refill, or an ability's added roll."""
    if option.get("type") == "ability" or state.phase == "again":
        moments = {"support": ("phase5", *race.ANY_TIME), "busting": ("bust",), "choice": ("any",),
                   "move": race.ANY_TIME, "buy": race.ANY_TIME}
        return ability_roll_dice(state, option, rng, *moments.get(state.phase, (state.phase,)))
    return roll.roll_dice(state, option, rng)


def push_odds(state: State, p: int) -> dict[str, float]:
    """What a push of the ready zone risks and brings, exactly from the dice's faces (CU-31, CU-33): the chance
    that it busts (no hit while in danger; 0 out of danger) and the coins and steps its plain faces bring on
    average."""
    player = state.players[p]
    blank, coins, steps = state.table.kit.pool_odds(tuple(state.table.types[d] for d in player.ready))
    return {"bust": float(blank) if player.danger and player.ready else 0.0, "coins": float(coins),
            "steps": float(steps)}


def view(state: State) -> dict[str, Any]:
    """Everything a dashboard shows, as JSON."""
    table = state.table
    types = table.types
    players = []
    for p, player in enumerate(state.players):
        players.append({
            "colour": table.colours[p], "name": table.names[p], "bot": table.bots[p],
            "draw": sorted(types[d] for d in player.draw), "ready": sorted(types[d] for d in player.ready),
            "active": sorted(f"{types[d]}/{label}" for d, label in player.active),
            "rest": sorted(types[d] for d in player.rest),
            "coins": player.coins, "steps": player.steps, "water": player.water, "credits": player.credits,
            "limit_tokens": player.limit_tokens, "fans": player.fans, "danger": player.danger,
            "busted": player.busted, "done_rolling": player.done_rolling, "track": player.segment,
            "space": player.space, "laps": player.laps, "reached": player.reached, "bought": list(player.bought),
            "swords": player.swords, "draw_limit": draw_limit(state, p), "lines_passed": lines_passed(table, player),
            "push": push_odds(state, p),
        })
    return {
        "game": "cubitos", "race": table.race.id, "round": state.round, "phase": state.phase,
        "current": None if state.phase == "over" else table.colours[state.current],
        "lead": table.colours[state.lead], "racing": [table.colours[p] for p in state.racing],
        "tracks": [t.id for t in table.segments], "laps": table.laps,
        "cards": {colour: card.id for colour, card in table.cards.items()},
        "costs": {kind: table.cost(kind) for kind in sorted(set(types)) if table.cost(kind) is not None},
        "stock": dict(sorted(Counter(types[d] for d in state.stock).items())), "players": players,
        "bonuses": [dict(b) for b in state.bonuses],
        "winners": [table.colours[p] for p in state.winners], "tiebreak": state.tiebreak,
        "over": state.phase == "over",
    }
