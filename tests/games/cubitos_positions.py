"""Helpers that let Cubitos tests read as positions: small line tracks, dice in zones, a phase, the outcome."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.cubitos import GAME, rules
from companion.games.cubitos.kit import build_track, load_kit
from companion.games.cubitos.state import Player, State

TWO = {"players": [{"name": "Ada", "colour": "blue"}, {"name": "Bo", "colour": "red"}]}
FOUR_PLAYERS = {"players": [{"name": n, "colour": c} for n, c in (("Ada", "blue"), ("Bo", "red"), ("Cy", "yellow"),
                                                                 ("Di", "white"))]}
THREE = {"players": [{"name": "Ada", "colour": "blue"}, {"name": "Bo", "colour": "red"},
                     {"name": "Cy", "colour": "yellow"}]}


def line_track(spec: str, **specials: dict[str, Any]) -> Any:
    """``"S - a - b(credits 2) - W:water - F"``: spaces joined in a line; ``name:water``; bonuses in brackets.

    ``specials`` gives spaces a special action (``J={"type": "jet"}``) and extra edges (``edges=[["p", "r0"]]``).
    """
    edges = specials.pop("edges", [])
    spaces, names = [], []
    for n, part in enumerate(p.strip() for p in spec.split("-")):
        bonuses = []
        if "(" in part:
            part, _, bonus = part.partition("(")
            kind, _, amount = bonus.rstrip(")").partition(" ")
            bonuses.append({"type": kind, **({"max_cost": int(amount)} if kind == "take_die_max_cost" else
                                              {"n": int(amount)} if amount else {})})
        name, _, kind = part.strip().partition(":")
        kind = kind or ("start" if name == "S" else "finish" if name == "F" else "open")
        spaces.append({"id": name, "kind": kind, "bonuses": bonuses, "special": specials.get(name),
                       "red_lines_passed": n if name != "S" else 0})
        names.append(name)
    for space in spaces:
        if space["special"] and space["special"].get("type") == "shortcut" and space["special"]["to"] not in names:
            raise ValueError(space)
    line = [[a, b] for a, b in zip(names, names[1:], strict=False)]
    return build_track("test", True, {"spaces": spaces, "edges": line + edges, "start": "S", "finish": "F",
                                      "red_lines_per_lap": len(names) - 1})


def begin(options: dict[str, Any] = TWO, seed: int = 0, track: Any = None, laps: int | None = None) -> State:
    state = GAME.setup(options, random.Random(seed))
    if track is not None:
        players = tuple(p._replace(space=track.start) for p in state.players)
        table = replace(state.table, segments=(track,), laps=laps or state.table.laps)
        state = state._replace(table=table, players=players)
    return state


def dice_of(state: State, die_type: str, n: int, *, taken: set[int] | None = None) -> list[int]:
    """``n`` die ids of ``die_type`` from the stock (then from nowhere else), for building zones by hand."""
    taken = taken if taken is not None else set()
    found = [d for d in sorted(state.stock) if state.table.types[d] == die_type and d not in taken][:n]
    taken.update(found)
    return found


def with_player(state: State, p: int, **changes: Any) -> State:
    """Player ``p`` changed; dice put into their zones leave the stock (dice are never in two places)."""
    used = set()
    for zone in ("draw", "ready", "rest"):
        used.update(changes.get(zone, ()))
    used.update(d for d, _ in changes.get("active", ()))
    players = list(state.players)
    players[p] = players[p]._replace(**changes)
    return state._replace(players=tuple(players), stock=state.stock - used)


def race_phase(state: State, phase: str, p: int = 0, **changes: Any) -> State:
    """Player ``p`` in ``phase`` of the race section (``move`` begins where the runner stands)."""
    state = with_player(state, p, done_rolling=True, **changes)
    player = state.players[p]
    players = list(state.players)
    players[p] = player._replace(moved_from=(player.segment, player.space))
    return state._replace(players=tuple(players), phase=phase, current=p)


def play(state: State, *actions: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Apply ``actions`` in turn; the events of all of them. A "done" that the table played by itself just before
    (it was the only option: a ``by_itself`` event) is passed over, as no player taps it."""
    events: list[dict[str, Any]] = []
    more: list[dict[str, Any]] = []
    for action in actions:
        if played_by_itself(more, action):
            continue
        state, more = GAME.apply(state, action)
        events += more
    return state, events


def played_by_itself(events: list[dict[str, Any]], action: dict[str, Any]) -> bool:
    """``action`` is a bare choice that ``events`` say the table made by itself (``Phase.alone``)."""
    return set(action) == {"type"} and any(e["type"] == "by_itself" and e["action"] == action["type"] for e in events)


def options(state: State) -> list[dict[str, Any]]:
    return GAME.prompt(state).options


def step(to: str) -> dict[str, Any]:
    """A move of one step (a path of one space)."""
    return {"type": "move", "path": [to]}


def destinations(state: State) -> set[str]:
    """Where the listed moves end."""
    return {o["path"][-1] for o in options(state) if o["type"] == "move"}


__all__ = ["GAME", "Player", "State", "load_kit", "rules"]


def with_cards(state: State, *card_ids: str) -> State:
    """The race's cards with these in play instead (each replaces the card of its colour)."""
    kit = state.table.kit
    cards = dict(state.table.cards)
    for card_id in card_ids:
        cards[kit.cards[card_id].colour] = kit.cards[card_id]
    return state._replace(table=replace(state.table, cards=cards))


def active(state: State, *faces: str, taken: set[int] | None = None) -> tuple[tuple[int, str], ...]:
    """Active dice from the stock showing ``"<die type>/<face label>"`` each (``"lead/credit1"`` is the lead die)."""
    taken = taken if taken is not None else set()
    dice = []
    for name in faces:
        die_type, _, label = name.partition("/")
        die = state.table.lead_die if die_type == "lead" else dice_of(state, die_type, 1, taken=taken)[0]
        dice.append((die, label))
    return tuple(dice)


def support(state: State, p: int = 0, **changes: Any) -> State:
    """Player ``p`` in phase 5 with ``changes`` (their active dice, swords ...), everyone else done rolling."""
    for k in range(len(state.players)):
        state = with_player(state, k, done_rolling=True, swords=0)
    return with_player(state, p, **changes)._replace(phase="support", current=p)
