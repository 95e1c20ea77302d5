"""Card abilities (CU-75..CU-139): what the active dice grant and when, the red card's sword gates, and the effect
ops of ``cards.json`` carried out in order.

Each use is one listed option naming the ability, the die type and face that grant it and every choice its effects
need (which option of a ``choose_one``, which die to give back or to take), so the table applies only what a player
chose. An ability whose text the seed lacks (``"op": "unknown"``) is resolved by the players by hand (CU-89).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import product
from typing import Any

from companion.games.base import Action, Event, IllegalAction
from companion.games.cubitos.kit import Ability, played, steps_from
from companion.games.cubitos.state import (
    DANGER_THRESHOLD,
    ZONES,
    State,
    Table,
    advance_fans,
    changed,
    dice_in,
    die_in,
    face,
    from_stock,
    give_back,
    in_stock,
    lead_order,
    leave_active,
    parse_roll,
    reach_finish,
    receive_bonuses,
    remove_die,
    seat,
    shown_faces,
    track_of,
)

SWORDS_MOST_NEEDS_ONE = True
"""CU-45 **Decision**: 0 swords never win ``most``."""
ROLLING_OPS = ("add_dice", "distinct_colour_roll", "grey_rescue_roll")
RESCUE_ZONES = ("rest", "draw", "ready")
"""CU-117 **Decision**: Granatananas takes grey dice from the rest zone first, then the draw and ready zones (E-10
takes them from the rest zone, then from the draw zone)."""
DISTINCT_ZONES = ("draw", "ready")
"""CU-118 **Decision**: Punk Grapefruit's dice come from the draw zone first, then the ready zone."""
REFILL_MODIFIERS_COMBINE = True
"""CU-29 **Decision**: colours excluded by several effects add up (False: the last one counts); "no limit" beats
every exclusion."""


def sword_gate(state: State, p: int, gate: Mapping[str, Any], tie_rule: str | None) -> bool:
    """CU-45: ``most`` names the single player with the most swords (a tie by the card's rule: ``nase_vorn`` the
    first of them in lead order, ``nobody`` no one); ``at_least_1`` every player with a sword."""
    players = state.players
    mine = players[p].swords or 0
    if gate["swords"] == "at_least_1":
        return mine >= 1
    best = max(players[k].swords or 0 for k in state.racing)
    if (SWORDS_MOST_NEEDS_ONE and best < 1) or mine < best:
        return False
    top = [k for k in lead_order(state) if (players[k].swords or 0) == best]
    if len(top) > 1 and tie_rule != "nase_vorn":
        return False
    return top[0] == p


def _gate_open(state: State, p: int, ability: Ability, colour: str) -> bool:
    gate = ability.gate
    if gate is None or "swords" in gate:
        return gate is None or sword_gate(state, p, gate, state.table.cards[colour].sword_tie_rule)
    return bool(gate.get("busted_this_round")) and state.players[p].busted  # CU-118


def usable(state: State, p: int, *moments: str) -> list[tuple[int | None, str | None, Ability]]:
    """(die, face label, ability) player ``p`` can use at any of ``moments`` (``kit.WINDOWS``; CU-75, CU-76, CU-80).
    A sword-gated ability is the player's, once a round, not a die's (CU-46): its die and face are None."""
    found: list[tuple[int | None, str | None, Ability]] = []
    if "phase5" in moments:
        found += [(None, None, ability) for colour, card in state.table.cards.items() for ability in card.abilities
                  if ability.gate and "swords" in ability.gate and ability.id not in state.players[p].gated
                  and _gate_open(state, p, ability, colour)]
    for moment in moments:
        found += _usable_at(state, p, moment)
    return found


def _usable_at(state: State, p: int, moment: str) -> list[tuple[int | None, str | None, Ability]]:
    """``usable`` at one moment through the active dice: once per activation, an event ability once per event and
    through a die active at the push (CU-40), one using several dice with that many unused (CU-138)."""
    player = state.players[p]
    found: list[tuple[int | None, str | None, Ability]] = []
    spent = player.event_used if moment == "event" else player.used
    for die, label in player.active:
        for ability in state.table.grants.get((state.table.types[die], label, moment), ()):  # CU-75
            if (die, ability.id) in spent or (moment == "event" and die not in (player.pushed_active or ())):
                continue
            if not played(ability) or (  # CU-89: an ability not played is resolved by hand
                    (ability.dice_used == 1 or len(_partners(state, p, die, ability)) >= ability.dice_used)
                    and _gate_open(state, p, ability, state.table.colour(die)) and _has_effect(state, p, ability)):
                found.append((die, label, ability))
    return found


def _partners(state: State, p: int, die: int, ability: Ability) -> list[int]:
    """The unused active dice of the ability's card that one use takes, ``die`` first (CU-138)."""
    table = state.table
    player = state.players[p]
    same = [d for d, label in player.active if table.colour(d) == table.colour(die) and (d, ability.id) not in
            player.used and (face(table, d, label).team or face(table, d, label).special)]
    return sorted(same, key=lambda d: d != die)[:ability.dice_used]


NEEDS: dict[str, Any] = {
    "other_active_to_ready": lambda state, p, ability: len(state.players[p].active) > 1,
    "immediate_step": lambda state, p, ability: bool(next_spaces(state, p)),
    "give_back_if_took_credit": lambda state, p, ability: state.players[p].took_credits,
    "credits_if_gave_back": lambda state, p, ability: state.players[p].gave_back,
    "ready_die_to_active_choose_face": lambda state, p, ability: bool(state.players[p].ready),
    "take_die": lambda state, p, ability: bool(take_targets(state, p, ability.effects[0])),
}
"""Op -> whether an ability of that one op can do anything now: one that cannot is not offered (Bar Bar's special
with no other active die, CU-115)."""


def _has_effect(state: State, p: int, ability: Ability) -> bool:
    need = NEEDS.get(next(iter(ability.ops))) if len(ability.ops) == 1 else None
    return need is None or need(state, p, ability)


def remote_spaces(state: State, p: int, distances: list[int]) -> list[str]:
    """CU-119: spaces 1 or 2 steps from the runner over every space (water too, shortcut lines not), not its own."""
    away = steps_from(state.players[p].space, track_of(state, p).neighbours)
    return [space for steps, space in sorted((n, s) for s, n in away.items() if n >= 1 and n in distances)]


def fewest_swords(state: State, p: int) -> list[int]:
    """CU-96: the other players with the fewest swords this round (**Decision**: never the player themself)."""
    others = [k for k in state.racing if k != p]
    least = min(state.players[k].swords or 0 for k in others)
    return [k for k in others if (state.players[k].swords or 0) == least]


def next_spaces(state: State, p: int) -> list[str]:
    """CU-58..CU-60: where one step takes the runner, whatever its steps (from a finish, off the start), as Mutiger
    Maasdamer's step does (CU-105)."""
    player = state.players[p]
    track = track_of(state, p)
    origin = track.start if player.space == track.finish else player.space
    return [there for there in track.neighbours[origin] if there != track.start
            and (track.spaces[there].kind != "water" or player.water >= 1)]


def _choices(state: State, p: int, die: int | None, effects: Any) -> list[dict[str, Any]]:
    """Every combination of the choices the effects need, as the fields of an option."""
    points: list[list[dict[str, Any]]] = []
    for effect in effects:
        op = effect["op"]
        if op == "choose_one":
            points.append([{"choice": k} for k in range(len(effect["options"]))])
        elif op == "if_active_colour" and _colours_active(state, p, effect["colour"]):
            inner = _choices(state, p, die, effect["then"])
            points.append(([{"also": False}] if effect.get("optional") else []) +
                          [{**({"also": True} if effect.get("optional") else {}), **c} for c in inner])
        elif op == "give_back" and effect.get("which") == "choice":
            gives = [{"give": [zone, kind]} for zone, kind in give_back_targets(state, p, effect)]
            if gives:
                points.append(gives)
        elif op == "take_die":
            kinds = take_targets(state, p, effect)
            if effect.get("to", "rest") != "rest":  # CU-88: into the active zone, turned to a face of choice
                points.append([{"take": kind, "turn": label} for kind in kinds
                               for label in state.table.kit.dice[kind].by_label])  # each label once, in face order
            elif kinds:
                points.append([{"take": kind} for kind in kinds])
        elif op == "other_active_to_ready":
            others = sorted({(state.table.types[d], label) for d, label in state.players[p].active if d != die})
            if others:
                points.append([{"move": [kind, label]} for kind, label in others])
        elif op == "immediate_step":
            points.append([{"to": there} for there in next_spaces(state, p)])
        elif op == "remote_bonus":
            points.append([{"space": space} for space in remote_spaces(state, p, effect["distances"])])
        elif op == "give_back_if_took_credit":
            points.append([{"give": [zone, kind]} for zone, kind in give_back_targets(state, p, {"from": "any"})])
        elif op == "ready_die_to_active_choose_face":
            table = state.table
            kinds = sorted({table.types[d] for d in state.players[p].ready})
            points.append([{"pick": [kind, label]} for kind in kinds
                           for label in table.kit.dice[kind].by_label])
        elif op in ROLLING_OPS:
            points.append([{"roll": n} for n in roll_counts(state, p, die, effect)])
        elif op == "give_die_to_fewest_swords":
            targets = [state.table.colours[k] for k in fewest_swords(state, p)]
            passes = [{"pass": [zone, kind], "to": to} for zone, kind in give_back_targets(state, p, {"from": "any"})
                      for to in targets]
            if passes:
                points.append(passes)
    combos = ({key: value for part in parts for key, value in part.items()} for parts in product(*points))
    return [combo for combo in combos if _possible(state, p, combo)]


def _possible(state: State, p: int, choice: Mapping[str, Any]) -> bool:
    """E-7: a die given back first cannot also be passed on: both need a die there (Edward's only red die)."""
    if "give" not in choice or "pass" not in choice or choice["give"] != choice["pass"]:
        return True
    zone, kind = choice["give"]
    return sum(state.table.types[d] == kind for d in dice_in(state.players[p], zone)) >= 2


def _paired(state: State, die: int | None, label: str | None, ability: Ability) -> Ability | None:
    """CU-79: the special ability a normal one brings along when used through the special symbol, if it can be used
    at the same moment (Bar Bar); one with a later window is owed instead (``owes_special``)."""
    if die is None or ability.slot != "normal" or not face(state.table, die, label).special:
        return None
    return next((other for other in state.table.cards[state.table.colour(die)].abilities
                 if other.slot == "special" and played(other) and (other.timing, other.window) ==
                 (ability.timing, ability.window)), None)


def ability_options(state: State, *moments: str) -> list[Action]:
    """Each usable ability at ``moments`` with each combination of its choices (and of the special it brings)."""
    p = state.current
    types = state.table.types
    options: list[Action] = []
    for die, label, ability in usable(state, p, *moments):
        base = {"type": "ability", "ability": ability.id}
        if die is not None:
            base["die"], base["face"] = types[die], label
        if not played(ability):
            options.append({**base, "manual": True})
            continue
        pair = _paired(state, die, label, ability)
        effects = ability.effects + (pair.effects if pair else ())
        for choice in _choices(state, p, die, effects):
            option = {**base, **choice}
            if option not in options:
                options.append(option)
    return options


def owed(state: State, *moments: str) -> bool:
    """A mandatory ability, or a special owed by the special-pair rule (CU-79), is still to be used now."""
    p = state.current
    owes = state.players[p].owes_special
    return any(ability.mandatory or (die is not None and die in owes and ability.slot == "special")
               for die, _, ability in usable(state, p, *moments))


ANY_TIME = ("race", "any")
"""Abilities usable whenever the player decides in the race section (Azrael; Wadenbeißer, Draftodon, Mungojerrie)."""


def _colours_active(state: State, p: int, colour: str | list[str]) -> bool:
    wanted = [colour] if isinstance(colour, str) else colour
    active = {state.table.colour(d) for d, _ in state.players[p].active}
    return all(c in active for c in wanted)


def give_back_targets(state: State, p: int, effect: Mapping[str, Any]) -> list[tuple[str, str]]:
    """CU-87: (zone, die type) the player may give back; never the lead die."""
    table = state.table
    player = state.players[p]
    zones = ZONES if effect.get("from") in (None, "any") else effect["from"]
    return [(zone, kind) for zone in zones
            for kind in sorted({table.types[d] for d in dice_in(player, zone) if d != table.lead_die})
            if effect.get("colour") in (None, table.kit.dice[kind].colour)]


def take_targets(state: State, p: int, effect: Mapping[str, Any]) -> list[str]:
    """CU-12, CU-85: die types the stock still has, of the allowed colours and cost."""
    table = state.table
    limit = effect.get("max_cost")
    if isinstance(limit, Mapping):
        limit = _metric(state, p, limit["metric"], {})
    colour, cost = (lambda kind: table.kit.dice[kind].colour), table.cost
    return [kind for kind in in_stock(state) if (not effect.get("colours") or colour(kind) in effect["colours"])
            and colour(kind) not in (effect.get("exclude_colours") or ())
            and (limit is None or (cost(kind) is not None and cost(kind) <= limit))]


def _metric(state: State, p: int, metric: str, effect: Mapping[str, Any]) -> int:
    """The counts ``gain_per`` multiplies (RULES.md §16)."""
    player = state.players[p]
    colours = [state.table.colour(d) for d, _ in player.active]
    if metric == "red_lines_to_lap_finish":  # CU-69: the current lap and segment only
        track = track_of(state, p)
        return track.red_lines_per_lap - track.spaces[player.space].red_lines_passed
    return {"fans": player.fans, "active_dice": len(colours), "active_distinct_colours": len(set(colours)),
            "active_of_colours": sum(c in (effect.get("colours") or ()) for c in colours),
            "players_with_fewer_swords": sum((state.players[k].swords or 0) < (player.swords or 0)
                                             for k in state.racing if k != p)}[metric]


def use_ability(state: State, action: Mapping[str, Any], events: list[Event], *moments: str) -> State:
    """One listed ability use: its effects in order with the action's choices (CU-78: as far as possible)."""
    p = state.current
    table = state.table
    player = state.players[p]
    die, label, ability = _matched(state, action, moments)
    pair = _paired(state, die, label, ability)
    if die is None:
        state = changed(state, p, gated=player.gated | {ability.id})
    elif moments[0] == "event":
        state = changed(state, p, event_used=player.event_used | {(die, ability.id)})
    else:
        owes = player.owes_special
        card = table.cards[table.colour(die)]
        if ability.slot == "special":
            owes = owes - {die}
        elif pair is None and face(table, die, label).special and any(a.slot == "special" and played(a)
                                                                     for a in card.abilities):
            owes = owes | {die}  # CU-79: the special of a later window is owed
        partners = (die,) if ability.dice_used == 1 else _partners(state, p, die, ability)  # CU-138
        spent = {(d, ability.id) for d in partners} | ({(die, pair.id)} if pair else set())
        state = changed(state, p, used=player.used | spent, owes_special=owes)
    events.append({"type": "ability", "player": seat(state, p), "ability": ability.id, "rule": ability.rule,
                   **({"manual": True} if not played(ability) else {})})
    if not played(ability):
        return state._replace(adjusting=ability.id)
    state = _effects(state, p, die, ability.effects, action, events)
    if pair is not None:
        events.append({"type": "ability", "player": seat(state, p), "ability": pair.id, "rule": pair.rule})
        state = _effects(state, p, die, pair.effects, action, events)
    return state


def _matched(state: State, action: Mapping[str, Any], moments: tuple[str, ...]) -> tuple[int | None, str | None,
                                                                                         Ability]:
    """(die, face label, ability) of the use ``action`` names among those usable now at ``moments``."""
    p = state.current
    types = state.table.types
    for die, label, ability in usable(state, p, *moments):
        if ability.id == action["ability"] and (die is None or (types[die], label) ==
                                                (action.get("die"), action.get("face"))):
            return die, label, ability
    raise IllegalAction("CU-76", f"{seat(state, p)} cannot use {action['ability']} now")


def _zones_of(effect: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
    """CU-86: the zones an added roll takes dice from, in order, and whether the rest zone is recycled into the
    draw zone when it runs short (only when the ability names no zones)."""
    op = effect["op"]
    if op == "grey_rescue_roll":
        return RESCUE_ZONES, False
    if op == "distinct_colour_roll":
        return tuple(effect.get("from") or DISTINCT_ZONES), False
    zones = effect.get("from")
    if zones in (None, ["draw"]):
        return ("draw",), True
    return tuple(ZONES if zones == "any" else zones), False


def candidates(state: State, p: int, die: int | None, effect: Mapping[str, Any]) -> list[int]:
    """The dice an added roll may take, in the order it takes them (never the ability's own die, never the lead
    die unless its colour, black, qualifies)."""
    table = state.table
    player = state.players[p]
    zones, recycle = _zones_of(effect)
    pool = [d for zone in (*zones, *(("rest",) if recycle else ())) for d in dice_in(player, zone)]
    colours = ["grey"] if effect["op"] == "grey_rescue_roll" else effect.get("colours")
    exclude = effect.get("exclude_colours") or []
    return [d for d in pool if d != die and (not colours or table.colour(d) in colours)
            and table.colour(d) not in exclude]


def roll_counts(state: State, p: int, die: int | None, effect: Mapping[str, Any]) -> list[int]:
    """How many dice the added roll may show (CU-86, CU-117, CU-118)."""
    pool = candidates(state, p, die, effect)
    if effect["op"] == "grey_rescue_roll":
        return list(range(1, len(pool) + 1))
    if effect["op"] == "distinct_colour_roll":
        colours = {state.table.colour(d) for d in pool}
        return list(range(0, min(effect.get("max", 9), len(colours)) + 1))
    n = effect["n"]
    if n == "all":
        return [len(pool)]
    if effect.get("per_player_with_fewer_swords"):
        n *= _metric(state, p, "players_with_fewer_swords", effect)
    return [min(n, len(pool))]


def roll_in(state: State, p: int, die: int | None, effect: Mapping[str, Any], dice: Any,
            events: list[Event]) -> State:
    """CU-86: dice taken from their zones and rolled: hits become active (placed, CU-81), the rest go to the ready
    zone. This roll cannot bust and no push follows it."""
    table = state.table
    types = table.types
    player = state.players[p]
    op = effect["op"]
    pool = candidates(state, p, die, effect)
    n = len(dice) if isinstance(dice, list) else -1
    counts = roll_counts(state, p, die, effect)
    if n not in counts:
        raise IllegalAction("CU-86", f"the roll shows {n} dice", legal=counts)
    rolled = parse_roll(state, dice, n)
    _, recycle = _zones_of(effect)
    if op == "add_dice":  # CU-86: the dice shown, by type, against those the ability takes
        wanted = Counter(kind for kind, _ in rolled)
        if effect["n"] == "all" and wanted != Counter(map(types.__getitem__, pool)):
            raise IllegalAction("CU-86", "the roll shows every die the ability names")
        if recycle:  # all of the draw zone, then the rest
            draw = [d for d in pool if d in player.draw]
            if n > len(draw) and Counter(map(types.__getitem__, draw)) - wanted:
                raise IllegalAction("CU-86", "the draw zone runs out: every die left in it is rolled first")
    if op == "distinct_colour_roll" and len({table.kit.dice[k].colour for k, _ in rolled}) != n:
        raise IllegalAction("CU-118", "the dice rolled are of different colours")
    taken, left = [], list(pool)
    for kind, _ in rolled:  # the first die of the pool of each type shown
        found = next((d for d in left if types[d] == kind), None)
        if found is None:
            raise IllegalAction("CU-86", f"no {kind} die to take for this roll")
        left.remove(found)
        taken.append(found)
    gone = set(taken)
    draw, ready, rest = ([d for d in getattr(player, zone) if d not in gone] for zone in ("draw", "ready", "rest"))
    if recycle and not gone.isdisjoint(player.rest):
        draw, rest = draw + rest, []
        events.append({"type": "recycled", "player": seat(state, p), "dice": len(draw)})
    shown = list(zip(taken, (label for _, label in rolled), strict=True))
    new = [(d, label) for d, label in shown if not face(table, d, label).blank]
    events.append({"type": "added_roll", "player": seat(state, p), "dice": list(dice),
                   "hits": [f"{types[d]}/{label}" for d, label in new]})
    state = changed(state, p, active=tuple(a for a in player.active if a[0] not in gone) + tuple(new),
                    used=frozenset(u for u in player.used if u[0] not in gone or u[0] == die), draw=tuple(draw),
                    ready=tuple(ready + [d for d, label in shown if face(table, d, label).blank]), rest=tuple(rest))
    state = placed(state, p, new, events)
    if op == "grey_rescue_roll" and new:  # CU-117: one hit ignores the bust
        state = changed(state, p, busting=False)
    return state


def placed(state: State, p: int, dice: list[tuple[int, str]], events: list[Event]) -> State:
    """Dice just placed in the active zone (CU-81, CU-88), the zone already holding them: a Käsehäppchen owes a
    push (CU-110), and a third active die puts the player in danger (CU-32)."""
    player = state.players[p]
    if any(owes_push(state.table, die, label) for die, label in dice) and not player.done_rolling:
        if not player.must_push:  # S-35: after the roll section the duty lapses at once
            events.append({"type": "must_push", "player": seat(state, p),
                           "die": next(state.table.types[d] for d, shown in dice if owes_push(state.table, d, shown))})
        state = changed(state, p, must_push=True)
    if not player.danger and len(player.active) >= DANGER_THRESHOLD:
        events.append({"type": "danger", "player": seat(state, p), "active": len(player.active)})
        state = changed(state, p, danger=True)
    return state


def owes_push(table: Table, die: int, label: str) -> bool:
    """CU-110: the face's card owes a push once it is placed (Käsehäppchen, immediate and mandatory)."""
    shown = face(table, die, label)
    card = table.cards.get(table.colour(die))
    return card is not None and (shown.team or shown.special) and any(
        ability.timing == "immediate" and any(e["op"] == "must_push" for e in ability.effects)
        for ability in card.abilities)


def _effects(state: State, p: int, die: int | None, effects: Any, action: Mapping[str, Any],
             events: list[Event]) -> State:
    for effect in effects:
        state = carry_out(state, p, die, effect, action, events)
    return state


def _gain(state: State, p: int, events: list[Event], **amounts: int) -> State:
    player = state.players[p]
    amounts = {k: v for k, v in amounts.items() if v}
    if not amounts:
        return state
    events.append({"type": "gained", "player": seat(state, p), **amounts})
    return changed(state, p, **{k: getattr(player, k) + v for k, v in amounts.items()},
                   took_credits=player.took_credits or amounts.get("credits", 0) > 0)


def carry_out(state: State, p: int, die: int | None, effect: Mapping[str, Any], action: Mapping[str, Any],
            events: list[Event]) -> State:
    op = effect["op"]
    table = state.table
    player = state.players[p]
    if op == "gain":
        return _gain(state, p, events, **{k: effect.get(k, 0) for k in ("coins", "steps", "credits")})
    if op == "gain_per":
        if effect.get("disabled_in_tiebreak") and state.tiebreak:
            return state  # CU-128: Pronto Bronto does nothing in tie rounds
        amount = effect.get("times", 1) * (_metric(state, p, effect["metric"], effect) // effect.get("per", 1))
        return _gain(state, p, events, **{effect["resource"]: amount})
    if op == "water_steps":
        return _gain(state, p, events, steps=effect["steps"], water=effect["water_entries"])
    if op == "if_active_colour":
        if not _colours_active(state, p, effect["colour"]) or (effect.get("optional") and not action.get("also")):
            return state
        return _effects(state, p, die, effect["then"], action, events)
    if op == "choose_one":
        return _effects(state, p, die, effect["options"][action["choice"]], action, events)
    if op == "gain_fan":
        return advance_fans(state, p, effect["n"], events, take_credits=effect.get("take_credits", True))
    if op == "repeat_grey_yield":  # CU-134
        shown = [face(table, d, label) for d, label in player.active if table.colour(d) == "grey"]
        return _gain(state, p, events, coins=sum(f.coins for f in shown), steps=sum(f.steps for f in shown))
    if op == "give_back" and effect.get("which") == "self":
        if die is None or all(d != die for d, _ in player.active):
            return state
        return give_back(state, p, "active", table.types[die], events, die=die)
    if op in ("give_back", "give_back_if_took_credit"):  # CU-87, CU-101
        if "give" not in action:
            return state  # nothing of the kind left to give back
        zone, kind = action["give"]
        return give_back(state, p, zone, kind, events)
    if op == "take_die":
        if "take" not in action:
            return state  # CU-12: the stock has none
        state, got = from_stock(state, action["take"])
        events.append({"type": "took_die", "player": seat(state, p), "die": action["take"],
                       **({"face": action["turn"]} if "turn" in action else {})})
        if effect.get("return_at_round_end"):  # CU-127, CU-138: borrowed for this round
            state = changed(state, p, borrowed=player.borrowed | {got})
        if "turn" in action:  # CU-88
            state = changed(state, p, active=player.active + ((got, action["turn"]),))
            return placed(state, p, [(got, action["turn"])], events)
        return changed(state, p, rest=player.rest + (got,))
    if op == "self_to_ready":  # CU-112: rolled again with the push
        events.append({"type": "to_ready", "player": seat(state, p), "die": table.types[die]})
        return leave_active(state, p, die, "ready")
    if op == "other_active_to_ready":  # CU-115: another active die, if there is one
        if "move" not in action:
            return state
        kind, label = action["move"]
        other = min(d for d, shown in player.active if d != die and (table.types[d], shown) == (kind, label))
        events.append({"type": "to_ready", "player": seat(state, p), "die": kind})
        return leave_active(state, p, other, "ready")
    if op == "prevent_bust":  # CU-113
        return changed(state, p, safe_roll=True)
    if op == "ignore_bust":  # CU-114
        return changed(state, p, busting=False)
    if op == "keep_active_on_bust":  # CU-118
        return changed(state, p, keep_on_bust=player.keep_on_bust | frozenset(effect["colours"]))
    if op == "immediate_step":  # CU-105: a step used at once; no special action, no bonus
        events.append({"type": "stepped", "player": seat(state, p), "to": action["to"], "now": True})
        water = player.water - (track_of(state, p).spaces[action["to"]].kind == "water")
        state = changed(state, p, space=action["to"], water=water)
        if action["to"] == track_of(state, p).finish:
            return reach_finish(state, p, events)
        return state
    if op == "remote_bonus":  # CU-119: the bonuses of a space near the runner, no special action
        events.append({"type": "remote_bonus", "player": seat(state, p), "space": action["space"]})
        return receive_bonuses(state, p, action["space"], events)
    if op == "credits_if_gave_back":  # CU-139
        return _gain(state, p, events, credits=effect["credits"])
    if op == "ready_die_to_active_choose_face":  # CU-104, CU-88
        kind, label = action["pick"]
        chosen = die_in(state, p, "ready", kind)
        state = changed(remove_die(state, p, "ready", chosen), p, active=player.active + ((chosen, label),))
        events.append({"type": "turned", "player": seat(state, p), "die": kind, "face": label})
        return placed(state, p, [(chosen, label)], events)
    if op == "give_die_to_fewest_swords":  # CU-96
        zone, kind = action["pass"]
        target = table.colours.index(action["to"])
        passed = die_in(state, p, zone, kind)
        state = remove_die(state, p, zone, passed)
        state = changed(state, target, rest=state.players[target].rest + (passed,))
        events.append({"type": "passed_die", "player": seat(state, p), "to": action["to"], "die": kind})
        return state
    if op == "refill_next_round":  # CU-94, CU-99, CU-108: next round's phase 1
        events.append({"type": "next_refill", "player": seat(state, p),
                       **({"no_limit": True} if effect.get("no_limit") else
                          {"exclude": sorted(effect.get("exclude_colours", []))})})
        excluded = frozenset(effect.get("exclude_colours", []))
        if effect.get("no_limit"):
            return changed(state, p, next_no_limit=True)
        return changed(state, p, next_exclude=player.next_exclude | excluded if REFILL_MODIFIERS_COMBINE else excluded)
    if op in ROLLING_OPS:
        state = roll_in(state, p, die, effect, action.get("dice"), events)
        if effect.get("repeat", 1) > 1:  # CU-123: Mahatma rolls the ready zone once more
            return state._replace(again=(effect, effect["repeat"] - 1))
        return state
    raise ValueError(f"effect op {op!r} is not played yet")


# ---------------------------------------------------------------------------------------------------------- by hand

ADJUSTABLE = ("coins", "steps", "credits", "fans", "limit_tokens", "water")
PLACES = ("stock", "draw", "ready", "active", "rest")


def adjust_options(state: State) -> list[Action]:
    """CU-89: what the players may change by hand while they resolve an ability the engine does not play: a
    resource up or down by one, or a die from one place to another (never the lead die into the stock or the draw
    zone, CU-52, CU-55; a die enters the active zone only by a roll)."""
    p = state.current
    table = state.table
    player = state.players[p]
    options: list[Action] = [{"type": "done"}]
    for what in ADJUSTABLE:
        options.append({"type": "adjust", "what": what, "by": 1, "manual": True})
        if getattr(player, what) > 0:
            options.append({"type": "adjust", "what": what, "by": -1, "manual": True})
    for origin in PLACES:
        dice = state.stock if origin == "stock" else dice_in(player, origin)
        for kind in sorted({table.types[d] for d in dice}):
            for target in PLACES:
                if target in (origin, "active") or (kind == "lead" and target in ("stock", "draw")):
                    continue
                options.append({"type": "adjust", "die": kind, "from": origin, "to": target, "manual": True})
    return options


def adjust(state: State, action: Mapping[str, Any], events: list[Event]) -> State:
    """One listed change by hand, logged with the ability it resolves."""
    p = state.current
    player = state.players[p]
    events.append({"type": "adjusted", "player": seat(state, p), "ability": state.adjusting,
                   **{k: v for k, v in action.items() if k != "type"}})
    if "what" in action:
        if action["what"] == "fans" and action["by"] > 0:
            return advance_fans(state, p, 1, events)
        return changed(state, p, **{action["what"]: getattr(player, action["what"]) + action["by"]})
    origin, target = action["from"], action["to"]
    if origin == "stock":
        state, die = from_stock(state, action["die"])
    else:
        die = die_in(state, p, origin, action["die"])
        state = remove_die(state, p, origin, die)
    if target == "stock":
        return state._replace(stock=state.stock | {die})
    return changed(state, p, **{target: getattr(state.players[p], target) + (die,)})


def ability_roll_dice(state: State, option: Mapping[str, Any], rng: Any, *moments: str) -> list[str]:
    """What a bot's added roll shows: the dice the option takes (in the rules' order), on random faces. ``moments``
    are those the phase uses the option at: the die is the one the rules will match (``_matched``), found among
    the uses worked out for the state's options."""
    table = state.table
    p = state.current
    if option.get("type") == "roll" and state.again is not None:
        effect, die = state.again[0], None
    else:
        die, _, ability = _matched(state, option, moments)
        effect = next(e for e in ability.effects if e["op"] in ROLLING_OPS)
    pool = candidates(state, p, die, effect)
    n = option["roll"]
    if effect["op"] == "distinct_colour_roll":
        seen: dict[str, int] = {}
        for d in pool:
            seen.setdefault(table.colour(d), d)
        chosen = rng.sample(list(seen.values()), n)
    else:
        chosen = pool[:n]
    return shown_faces(table, chosen, rng)
