"""Card abilities of phase 5 (CU-75..CU-139): what the active dice grant, the red card's sword gates, and the
effect ops of ``cards.json`` carried out in order.

An ability is data (its timing, window, gate and effects); this module interprets the effect ops. Each use is one
listed option naming the ability, the die type and face that grant it and every choice its effects need (which
option of a ``choose_one``, which die to give back or to take), so the table applies only what a player chose.

Played here: every support ability whose effects are ``gain``, ``gain_per``, ``if_active_colour``, ``choose_one``,
``gain_fan``, ``give_back``, ``take_die`` (to the rest zone), ``water_steps`` and ``repeat_grey_yield``, with the
sword gates (CU-45, CU-46), mandatory abilities (CU-78) and the special-pair rule (CU-79). Not yet: abilities that
roll dice or act in the roll section (see the package README).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import product
from typing import Any

from companion.games.base import Action, Event, IllegalAction
from companion.games.cubitos.kit import Ability, Card
from companion.games.cubitos.state import (
    DANGER_THRESHOLD,
    FIRST,
    ZONES,
    Offering,
    State,
    Table,
    advance_fans,
    changed,
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
    replaced,
    seat,
    shown_faces,
    track_of,
)

MUST_PASS_OVERRIDES_MUST_PUSH = True
"""CU-110 **Decision**: a push owed with an empty ready zone, or after the roll section, lapses."""
SWORDS_MOST_NEEDS_ONE = True
"""CU-45 **Decision**: 0 swords never win ``most``."""
SWORD_GATE_REPLACES_TEAM_SYMBOL, SWORD_GATED_ONCE = True, True
"""CU-46 **Decision**: a sword-gated ability is used by the players the gate names, once each per round."""
PRONTO_STEPS_PER_GROUP, PRONTO_LINES_PER_GROUP = 2, 3
"""CU-128 (the data's ``gain_per`` of Pronto Bronto carries them: times 2, per 3)."""
PLAYED_OPS = frozenset({"gain", "gain_per", "if_active_colour", "choose_one", "gain_fan", "give_back", "take_die",
                        "water_steps", "repeat_grey_yield", "self_to_ready", "other_active_to_ready",
                        "prevent_bust", "ignore_bust", "keep_active_on_bust", "immediate_step", "remote_bonus",
                        "give_back_if_took_credit", "credits_if_gave_back", "ready_die_to_active_choose_face",
                        "give_die_to_fewest_swords", "refill_next_round", "add_dice", "distinct_colour_roll",
                        "grey_rescue_roll", "must_push"})
ROLLING_OPS = ("add_dice", "distinct_colour_roll", "grey_rescue_roll")
RESCUE_ZONES = ("rest", "draw", "ready")
"""CU-117 **Decision**: Granatananas takes grey dice from the rest zone first, then the draw and ready zones (E-10
takes them from the rest zone, then from the draw zone)."""
DISTINCT_ZONES = ("draw", "ready")
"""CU-118 **Decision**: Punk Grapefruit's dice come from the draw zone first, then the ready zone."""
REFILL_MODIFIERS_COMBINE = True
"""CU-29 **Decision**: colours excluded by several effects add up; "no limit" beats every exclusion."""
WINDOWS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "phase5": (("support", None), ("support", "phase5"), ("support", "phase5_after_swords"),
               ("activatable", "phase5")),
    "push": (("activatable", "push_before_roll"),),
    "bust": (("activatable", "on_bust"),),
    "event": (("event", None),),
    "end6": (("activatable", "end_of_phase6"),),
    "before7": (("activatable", "before_phase7"),),
    "race": (("activatable", "race_section"),),
    "any": (("activatable", "any"),),
}
"""When an ability may be used: the (timing, window) pairs of each moment the rules offer abilities at."""


def _ops(effects: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> set[str]:
    found = set()
    for effect in effects:
        found.add(effect["op"])
        found |= _ops(effect.get("then", []))
        for option in effect.get("options", []):
            found |= _ops(option)
    return found


_PLAYED: dict[str, bool] = {}


def played(ability: Ability) -> bool:
    """Whether this module carries the ability out (else the table adjusts by hand, CU-89)."""
    known = _PLAYED.get(ability.id)
    if known is None:
        known = _PLAYED[ability.id] = _ops(ability.effects) <= PLAYED_OPS
    return known


def sword_gate(state: State, p: int, gate: Mapping[str, Any], tie_rule: str | None) -> bool:
    """CU-45: ``most`` names the single player with the most swords (a tie by the card's rule: ``nase_vorn`` the
    first of them in lead order, ``nobody`` no one); ``at_least_1`` every player with a sword."""
    players = state.players
    mine = players[p].swords or 0
    if gate["swords"] == "at_least_1":
        return mine >= 1
    best = 0
    for k in state.racing:
        best = max(best, players[k].swords or 0)
    if (SWORDS_MOST_NEEDS_ONE and best < 1) or mine < best:
        return False
    top = [k for k in lead_order(state) if (players[k].swords or 0) == best]
    if len(top) > 1 and tie_rule != "nase_vorn":
        return False
    return top[0] == p


def _gate_open(state: State, p: int, ability: Ability, colour: str) -> bool:
    gate = ability.gate
    if gate is None:
        return True
    if "swords" in gate:
        return sword_gate(state, p, gate, state.table.cards[colour].sword_tie_rule)
    if gate.get("busted_this_round"):
        return state.players[p].busted
    return False


def usable(state: State, p: int, *moments: str) -> list[tuple[int | None, str | None, Ability]]:
    """(die, face label, ability) that player ``p`` can use at any of ``moments`` (``WINDOWS``; CU-75, CU-76, CU-80).

    A sword-gated ability belongs to the player, not a die (``SWORD_GATE_REPLACES_TEAM_SYMBOL``): die and face are
    None. The others come from an active die's team or special symbol, once per activation; an event ability once
    per event, and only through a die that was active when the player pushed (CU-40); an ability using several dice
    (Mungojerrie, CU-138) needs that many unused active dice of its card.
    """
    global _last_usable
    moments = moments or ("phase5",)
    table = state.table
    offering, faces, gated = table.offers_at.get(moments) or _offering(table, moments)
    if not gated and faces.isdisjoint(state.players[p].active):
        return []  # the usual answer: no active die shows a face that may grant an ability now, no sword gate
    last = _last_usable  # read once: another thread may ask about another state meanwhile
    if last is None or last[0] is not state or last[1] != p:
        last = _last_usable = (state, p, {})
    known = last[2]
    found = known.get(moments)
    if found is None:
        if gated:  # the sword-gated abilities, asked for with every set of moments that holds phase 5
            swords = known.get(_SWORD_GATED)
            if swords is None:
                swords = known[_SWORD_GATED] = _gated(state, p)
            found = known[moments] = [*swords]
        else:
            found = known[moments] = []
        for moment, offered in offering:
            at = known.get(moment)
            if at is None:
                at = known[moment] = _usable_at(state, p, moment, offered)
            found += at
    return found


def offers(table: Table, *moments: str) -> bool:
    """Whether any card in play may offer an ability at ``moments`` (``usable`` is empty for every state when not):
    the rules skip a moment so without making the state they would ask about."""
    offering, _, gated = table.offers_at.get(moments) or _offering(table, moments)
    return bool(offering) or gated


def _offering(table: Table, moments: tuple[str, ...]) -> Offering:
    """``table.offers_at[moments]``, filled on first use: the moments at which a face may grant an ability, with
    ``offered[moment]``; every (die, face) that may grant one at any of them; and whether a sword-gated ability
    may be used (in phase 5). ``usable`` is asked some 50,000 times a bench, nearly always of an active zone that
    shows none of those faces: the faces of all the moments asked let it say so at once."""
    at = [(moment, _offered_at(table, moment)) for moment in moments]
    offering = tuple((moment, offered) for moment, offered in at if offered)
    faces: set[tuple[int, str]] = set()
    for _, offered in offering:
        faces.update(offered)
    table.offers_at[moments] = found = (offering, frozenset(faces), bool(table.sword_gated) and "phase5" in moments)
    return found


_SWORD_GATED = "sword-gated"
"""The key of the sword-gated abilities among ``_last_usable``'s answers (no moment is named so)."""
_last_usable: tuple[State, int, dict[Any, list[tuple[int | None, str | None, Ability]]]] | None = None
"""The answers of ``usable`` for the last state and player, by moments asked, by each moment and for the
sword-gated abilities (``_SWORD_GATED``), not to be changed by its callers: a state's options list the abilities of
several moments, whether something is owed asks about one of them, a greedy bot rates each use by using it
(``_use_ability`` asks again for every option), and a roll of an ability asks about every moment."""


def _gated(state: State, p: int) -> list[tuple[None, None, Ability]]:
    """The sword-gated abilities player ``p`` can use (in phase 5, CU-45, CU-46)."""
    gated = state.players[p].gated
    found = []
    for colour, ability in state.table.sword_gated:
        if ability.id not in gated and _gate_open(state, p, ability, colour):
            found.append((None, None, ability))
    return found


def _usable_at(state: State, p: int, moment: str, offered: dict[tuple[int, str], tuple[Ability, ...]]) -> list[
        tuple[int | None, str | None, Ability]]:
    """``usable`` at one moment, through the active dice only."""
    player = state.players[p]
    if not player.active or offered.keys().isdisjoint(player.active):  # the usual answer, without a loop
        return []
    table = state.table
    found: list[tuple[int | None, str | None, Ability]] = []
    spent = player.event_used if moment == "event" else player.used
    for shown in player.active:
        for ability in offered.get(shown, ()):
            die, label = shown
            if (die, ability.id) in spent:
                continue
            if moment == "event" and die not in (player.pushed_active or ()):
                continue
            if not played(ability):  # CU-89: resolved by the players, the state adjusted by hand
                found.append((die, label, ability))
                continue
            if ability.dice_used > 1 and len(_partners(state, p, die, ability)) < ability.dice_used:
                continue
            if (ability.gate is None or _gate_open(state, p, ability, table.colours_of[die])) \
                    and _has_effect(state, p, die, ability):
                found.append((die, label, ability))
    return found


def _offered_at(table: Table, moment: str) -> dict[tuple[str, str], tuple[Ability, ...]]:
    """``_offered``, worked out once per table."""
    offered = table.offered.get(moment)
    if offered is None:
        offered = table.offered[moment] = _offered(table, moment)
    return offered


def _offered(table: Table, moment: str) -> dict[tuple[int, str], tuple[Ability, ...]]:
    """(die, face label) -> the abilities of its card that the face may grant at ``moment`` (faces granting none
    are left out): the special ones only through the special symbol, none gated by swords (those belong to the
    player), the abilities the engine does not play only in phase 5 (CU-89), the others in their window (and
    event)."""
    window = WINDOWS[moment]
    offered = {}
    for (kind, label), (card, special) in table.granting.items():  # loops: worked out again for every table
        abilities = []
        for ability in card.abilities:
            if (ability.slot != "special" or special) and not (ability.gate and "swords" in ability.gate) \
                    and (moment == "phase5" if not played(ability) else (ability.timing, ability.window) in window
                         and (moment != "event" or ability.event == "push_without_bust")):
                abilities.append(ability)
        if abilities:
            for die in table.dice_of[kind]:
                offered[(die, label)] = tuple(abilities)
    return offered


def _has_special(card: Card) -> bool:
    """The card has a special ability the engine plays (CU-79)."""
    for ability in card.abilities:
        if ability.slot == "special" and played(ability):
            return True
    return False


def _partners(state: State, p: int, die: int, ability: Ability) -> list[int]:
    """The unused active dice of the ability's card that one use takes, ``die`` first (CU-138)."""
    table = state.table
    player = state.players[p]
    same = [d for d, label in player.active if table.colour(d) == table.colour(die) and (d, ability.id) not in
            player.used and (face(table, d, label).team or face(table, d, label).special)]
    return sorted(same, key=lambda d: d != die)[:ability.dice_used]


def _has_effect(state: State, p: int, die: int, ability: Ability) -> bool:
    """An ability that can do nothing now is not offered (Bar Bar's special with no other active die, CU-115)."""
    if len(ability.ops) != 1:
        return True
    (op,) = ability.ops
    player = state.players[p]
    if op == "other_active_to_ready":
        return len(player.active) > 1
    if op == "immediate_step":
        return bool(step_targets(state, p))
    if op == "give_back_if_took_credit":
        return player.took_credits
    if op == "credits_if_gave_back":
        return player.gave_back
    if op == "ready_die_to_active_choose_face":
        return bool(player.ready)
    if op == "take_die":
        return bool(take_targets(state, p, ability.effects[0]))
    return True


def remote_spaces(state: State, p: int, distances: list[int]) -> list[str]:
    """CU-119: spaces 1 or 2 steps from the runner over every space (water too, shortcut lines not), not its own."""
    track = track_of(state, p)
    here = state.players[p].space
    seen, frontier, found = {here}, {here}, []
    for steps in range(1, max(distances) + 1):
        frontier = {n for s in frontier for n in track.neighbours[s]} - seen
        seen |= frontier
        if steps in distances:
            found += sorted(frontier)
    return found


def fewest_swords(state: State, p: int) -> list[int]:
    """CU-96: the other players with the fewest swords this round (**Decision**: never the player themself)."""
    others = [k for k in state.racing if k != p]
    least = min(state.players[k].swords or 0 for k in others)
    return [k for k in others if (state.players[k].swords or 0) == least]


def step_targets(state: State, p: int) -> list[str]:
    """CU-105: where Mutiger Maasdamer's step can take the runner now (CU-58..CU-60; the finish counts)."""
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
                faces = state.table.kit.dice
                points.append([{"take": kind, "turn": label} for kind in kinds
                               for label in faces[kind].by_label])  # each label once, in face order
            elif kinds:
                points.append([{"take": kind} for kind in kinds])
        elif op == "other_active_to_ready":
            others = sorted({(state.table.types[d], label) for d, label in state.players[p].active if d != die})
            if others:
                points.append([{"move": [kind, label]} for kind, label in others])
        elif op == "immediate_step":
            points.append([{"to": there} for there in step_targets(state, p)])
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
    combos = []
    for parts in product(*points):
        combined: dict[str, Any] = {}
        for part in parts:
            combined.update(part)
        if _possible(state, p, combined):
            combos.append(combined)
    return combos


def _possible(state: State, p: int, choice: Mapping[str, Any]) -> bool:
    """E-7: a die given back first cannot also be passed on: both need a die there (Edward's only red die)."""
    if "give" not in choice or "pass" not in choice or choice["give"] != choice["pass"]:
        return True
    zone, kind = choice["give"]
    player = state.players[p]
    dice = [d for d, _ in player.active] if zone == "active" else getattr(player, zone)
    return sum(state.table.types[d] == kind for d in dice) >= 2


def _paired(state: State, die: int | None, label: str | None, ability: Ability) -> Ability | None:
    """CU-79: the special ability a normal one brings along when used through the special symbol, if it can be used
    at the same moment (Bar Bar); one with a later window is owed instead (``owes_special``)."""
    if die is None or ability.slot != "normal" or not face(state.table, die, label).special:
        return None
    card = state.table.cards[state.table.colour(die)]
    for other in card.abilities:
        if other.slot == "special" and played(other) and other.timing == ability.timing \
                and other.window == ability.window:
            return other
    return None


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
    for die, _, ability in usable(state, p, *moments):  # a loop, not ``any`` of a generator: asked at every listing
        if ability.mandatory or (die is not None and die in owes and ability.slot == "special"):
            return True
    return False


ANY_TIME = ("race", "any")
"""Abilities usable whenever the player decides in the race section (Azrael; Wadenbeißer, Draftodon, Mungojerrie)."""


_last_support: tuple[State, list[Action]] | None = None


def support_options(state: State) -> list[Action]:
    """Phase 5 for the current player: the abilities, and ``done`` unless something owed waits (``owed``).

    The last state's are kept: using an ability lists what is left to decide whether phase 5 goes on, and the
    prompt of that very state lists them again."""
    global _last_support
    last = _last_support  # read once: another thread may list another state meanwhile
    if last is not None and last[0] is state:
        return last[1]
    options = ([] if owed(state, "phase5") else [{"type": "done"}]) + ability_options(state, "phase5", *ANY_TIME)
    _last_support = (state, options)
    return options


def _colours_active(state: State, p: int, colour: str | list[str]) -> bool:
    wanted = [colour] if isinstance(colour, str) else colour
    active = {state.table.colour(d) for d, _ in state.players[p].active}
    return all(c in active for c in wanted)


def give_back_targets(state: State, p: int, effect: Mapping[str, Any]) -> list[tuple[str, str]]:
    """CU-87: (zone, die type) the player may give back; never the lead die."""
    table = state.table
    player = state.players[p]
    zones = ZONES if effect.get("from") in (None, "any") else effect["from"]
    found = []
    for zone in zones:
        dice = [d for d, _ in player.active] if zone == "active" else getattr(player, zone)
        for kind in sorted({table.types[d] for d in dice if d != table.lead_die}):
            if effect.get("colour") in (None, table.kit.dice[kind].colour):
                found.append((zone, kind))
    return found


def take_targets(state: State, p: int, effect: Mapping[str, Any]) -> list[str]:
    """CU-12, CU-85: die types the stock still has, of the allowed colours and cost."""
    table = state.table
    limit = effect.get("max_cost")
    if isinstance(limit, Mapping):
        limit = _metric(state, p, limit["metric"], {})
    found = []
    for kind in in_stock(state):
        colour, cost = table.kit.dice[kind].colour, table.cost(kind)
        if effect.get("colours") and colour not in effect["colours"]:
            continue
        if colour in (effect.get("exclude_colours") or ()):
            continue
        if limit is not None and (cost is None or cost > limit):
            continue
        found.append(kind)
    return found


def _metric(state: State, p: int, metric: str, effect: Mapping[str, Any]) -> int:
    """The counts ``gain_per`` multiplies (RULES.md §16)."""
    table = state.table
    player = state.players[p]
    colours = [table.colour(d) for d, _ in player.active]
    if metric == "fans":
        return player.fans
    if metric == "active_dice":
        return len(player.active)
    if metric == "active_distinct_colours":
        return len(set(colours))
    if metric == "active_of_colours":
        return sum(c in effect["colours"] for c in colours)
    if metric == "red_lines_to_lap_finish":  # CU-69: the current lap and segment only
        track = track_of(state, p)
        return track.red_lines_per_lap - track.spaces[player.space].red_lines_passed
    if metric == "players_with_fewer_swords":
        mine = player.swords or 0
        return sum((state.players[k].swords or 0) < mine for k in state.racing if k != p)
    raise ValueError(f"unknown metric {metric!r}")


_last_uses: tuple[State, list[tuple[Mapping[str, Any], tuple[str, ...], State, list[Event]]]] | None = None


def use_ability(state: State, action: Mapping[str, Any], events: list[Event], *moments: str) -> State:
    """Carry out one listed ability use: its effects in order with the action's choices (CU-78: fully, as far as
    possible).

    The uses worked out from the last state are kept: a greedy bot rates each ability it may use by using it
    (``Cubitos.rate``), then the one it chose is used again by ``apply``."""
    global _last_uses
    last = _last_uses  # read once: another thread may use abilities of another state meanwhile
    if last is None or last[0] is not state:
        last = _last_uses = (state, [])
    for used, at, after, produced in last[1]:
        if at == moments and used == action:
            events += map(dict, produced)
            return after
    produced = []
    after = _use_ability(state, action, produced, *moments)
    last[1].append((dict(action), moments, after, produced))
    events += map(dict, produced)
    return after


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


TURN_OP = "ready_die_to_active_choose_face"


def turned(state: State, action: Mapping[str, Any], *moments: str) -> tuple[int, str] | None:
    """(die, face label) that a use whose only effect turns a ready die to a chosen face (Wadenbeißer, CU-104,
    CU-88) places in the active zone, or None for any other use. The greedy rating weighs such a use by that die
    alone (``rules.Cubitos.rate``): nothing else it does (the die's use spent, a push owed) changes a rating, and a
    bot weighs one such use for every face of every die type in the ready zone."""
    if "pick" not in action:
        return None
    die, label, ability = _matched(state, action, moments or ("phase5",))
    if len(ability.effects) != 1 or ability.ops != {TURN_OP} or _paired(state, die, label, ability) is not None:
        return None
    kind, shown = action["pick"]
    return die_in(state, state.current, "ready", kind), shown


def _use_ability(state: State, action: Mapping[str, Any], events: list[Event], *moments: str) -> State:
    p = state.current
    table = state.table
    player = state.players[p]
    moments = moments or ("phase5",)
    moment = moments[0]
    die, label, ability = _matched(state, action, moments)
    pair = _paired(state, die, label, ability)
    if die is None:
        state = changed(state, p, gated=player.gated | {ability.id})
    elif moment == "event":
        state = changed(state, p, event_used=player.event_used | {(die, ability.id)})
    else:
        owes = player.owes_special
        card = table.cards[table.colour(die)]
        if ability.slot == "special":
            owes = owes - {die}
        elif pair is None and face(table, die, label).special and _has_special(card):
            owes = owes | {die}  # CU-79: the special of a later window is owed
        partners = (die,) if ability.dice_used == 1 else _partners(state, p, die, ability)  # CU-138
        spent = {(d, ability.id) for d in partners} if len(partners) > 1 else {(die, ability.id)}
        if pair:
            spent.add((die, pair.id))
        state = changed(state, p, used=player.used | spent, owes_special=owes)
    events.append({"type": "ability", "player": seat(state, p), "ability": ability.id, "rule": ability.rule,
                   **({"manual": True} if not played(ability) else {})})
    if not played(ability):
        return replaced(state, adjusting=ability.id)
    state = _effects(state, p, die, ability.effects, action, events)
    if pair is not None:
        events.append({"type": "ability", "player": seat(state, p), "ability": pair.id, "rule": pair.rule})
        state = _effects(state, p, die, pair.effects, action, events)
    return state


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


def _candidates(state: State, p: int, die: int | None, effect: Mapping[str, Any]) -> list[int]:
    """The dice an added roll may take, in the order it takes them (never the ability's own die, never the lead
    die unless its colour, black, qualifies)."""
    table = state.table
    player = state.players[p]
    zones, recycle = _zones_of(effect)
    pool: list[int] = []
    for zone in zones:
        pool += [d for d, _ in player.active] if zone == "active" else list(getattr(player, zone))
    if recycle:
        pool += list(player.rest)
    colours = effect.get("colours")
    if effect["op"] == "grey_rescue_roll":
        colours = ["grey"]
    exclude = effect.get("exclude_colours") or []
    colour = table.colours_of
    return [d for d in pool if d != die and (not colours or colour[d] in colours) and colour[d] not in exclude]


def roll_counts(state: State, p: int, die: int | None, effect: Mapping[str, Any]) -> list[int]:
    """How many dice the added roll may show (CU-86, CU-117, CU-118)."""
    return _roll_counts(state, p, effect, _candidates(state, p, die, effect))


def _roll_counts(state: State, p: int, effect: Mapping[str, Any], pool: list[int]) -> list[int]:
    """``roll_counts`` of the dice the roll may take (``_candidates``)."""
    if effect["op"] == "grey_rescue_roll":
        return list(range(1, len(pool) + 1))
    if effect["op"] == "distinct_colour_roll":
        colours = {state.table.colours_of[d] for d in pool}
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
    pool = _candidates(state, p, die, effect)
    n = len(dice) if isinstance(dice, list) else -1
    counts = _roll_counts(state, p, effect, pool)
    if n not in counts:
        raise IllegalAction("CU-86", f"the roll shows {n} dice", legal=counts)
    rolled = parse_roll(state, dice, n)
    _, recycle = _zones_of(effect)
    if op == "add_dice":  # CU-86: the dice shown, by type, against those the ability takes
        wanted = Counter(map(FIRST, rolled))
        if effect["n"] == "all" and wanted != Counter(map(types.__getitem__, pool)):
            raise IllegalAction("CU-86", "the roll shows every die the ability names")
        if recycle:  # all of the draw zone, then the rest
            draw = [d for d in pool if d in player.draw]
            if n > len(draw) and Counter(map(types.__getitem__, draw)) - wanted:
                raise IllegalAction("CU-86", "the draw zone runs out: every die left in it is rolled first")
    if op == "distinct_colour_roll" and len({table.kit.dice[k].colour for k, _ in rolled}) != n:
        raise IllegalAction("CU-118", "the dice rolled are of different colours")
    taken: list[int] = []
    left = list(pool)
    for kind, _ in rolled:  # the first die of the pool of each type shown (a loop: this runs at every bot's roll)
        for at, d in enumerate(left):
            if types[d] == kind:
                taken.append(left.pop(at))
                break
        else:
            raise IllegalAction("CU-86", f"no {kind} die to take for this roll")
    zones_after = {"draw": list(player.draw), "ready": list(player.ready), "rest": list(player.rest)}
    gone = set(taken)
    active = [a for a in player.active if a[0] not in gone]
    for d in taken:
        for zone in zones_after.values():
            if d in zone:
                zone.remove(d)
    if recycle and not gone.isdisjoint(player.rest):
        zones_after["draw"] += zones_after["rest"]
        zones_after["rest"] = []
        events.append({"type": "recycled", "player": seat(state, p), "dice": len(zones_after["draw"])})
    new = []
    blanks = table.kit.blank_names
    for d, name, (_, label) in zip(taken, dice, rolled, strict=True):
        if name in blanks:
            zones_after["ready"].append(d)
        else:
            new.append((d, label))
    events.append({"type": "added_roll", "player": seat(state, p), "dice": list(dice),
                   "hits": [f"{types[d]}/{label}" for d, label in new]})
    state = changed(state, p, active=tuple(active + new), used=frozenset([u for u in player.used
                                                                         if u[0] not in gone or u[0] == die]),
                    draw=tuple(zones_after["draw"]), ready=tuple(zones_after["ready"]),
                    rest=tuple(zones_after["rest"]))
    state = placed(state, p, new, events)
    if op == "grey_rescue_roll" and new:  # CU-117: one hit ignores the bust
        state = changed(state, p, bust_ignored=True)
    return state


def placed(state: State, p: int, dice: list[tuple[int, str]], events: list[Event]) -> State:
    """Dice just placed in the active zone (CU-81, CU-88): Käsehäppchen owes a push (CU-110), and a third active die
    puts the player in danger (CU-32)."""
    changes = placing(state, p, dice, len(state.players[p].active), events)
    return changed(state, p, **changes) if changes else state


def placing(state: State, p: int, dice: list[tuple[int, str]], active: int, events: list[Event]) -> dict[str, bool]:
    """What ``placed`` changes on player ``p``, whose active zone holds ``active`` dice with ``dice``: a roll makes
    these changes in the same copy of the player as the roll's own (``rules._on_roll``)."""
    table = state.table
    player = state.players[p]
    changes = {}
    pushing = table.must_push_faces
    for die, label in dice if pushing else ():
        if (table.types[die], label) in pushing:
            if player.done_rolling:
                continue  # S-35: the roll section is over, the duty lapses at once (MUST_PASS_OVERRIDES_MUST_PUSH)
            if not player.must_push and not changes:
                events.append({"type": "must_push", "player": seat(state, p), "die": table.types[die]})
            changes["must_push"] = True
    if not player.danger and active >= DANGER_THRESHOLD:
        events.append({"type": "danger", "player": table.colours[p], "active": active})
        changes["danger"] = True
    return changes


def _effects(state: State, p: int, die: int | None, effects: Any, action: Mapping[str, Any],
             events: list[Event]) -> State:
    for effect in effects:
        state = _effect(state, p, die, effect, action, events)
    return state


def _gain(state: State, p: int, events: list[Event], **amounts: int) -> State:
    player = state.players[p]
    amounts = {k: v for k, v in amounts.items() if v}
    if not amounts:
        return state
    events.append({"type": "gained", "player": seat(state, p), **amounts})
    return changed(state, p, **{k: getattr(player, k) + v for k, v in amounts.items()},
                   took_credits=player.took_credits or amounts.get("credits", 0) > 0)


def _effect(state: State, p: int, die: int | None, effect: Mapping[str, Any], action: Mapping[str, Any],
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
        events.append({"type": "gained", "player": seat(state, p), "steps": effect["steps"],
                       "water": effect["water_entries"]})
        return changed(state, p, steps=player.steps + effect["steps"], water=player.water + effect["water_entries"])
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
    if op == "give_back":
        if effect.get("which") == "self":
            if die is None or all(d != die for d, _ in player.active):
                return state
            return give_back(state, p, "active", table.types[die], events, die=die)
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
        return changed(state, p, bust_ignored=True)
    if op == "keep_active_on_bust":  # CU-118
        return changed(state, p, keep_on_bust=player.keep_on_bust | frozenset(effect["colours"]))
    if op == "immediate_step":  # CU-105: a step used at once; no special action, no bonus
        events.append({"type": "stepped", "player": seat(state, p), "to": action["to"], "now": True})
        water = player.water - (track_of(state, p).spaces[action["to"]].kind == "water")
        state = changed(state, p, space=action["to"], water=water, left_start=True)
        if action["to"] == track_of(state, p).finish:
            return reach_finish(state, p, events)
        return state
    if op == "remote_bonus":  # CU-119: the bonuses of a space near the runner, no special action
        events.append({"type": "remote_bonus", "player": seat(state, p), "space": action["space"]})
        return receive_bonuses(state, p, action["space"], events)
    if op == "give_back_if_took_credit":  # CU-101
        zone, kind = action["give"]
        return give_back(state, p, zone, kind, events)
    if op == "credits_if_gave_back":  # CU-139
        return _gain(state, p, events, credits=effect["credits"])
    if op == TURN_OP:  # CU-104, CU-88 (``turned`` says which die it turns)
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
        return changed(state, p, next_no_limit=player.next_no_limit or bool(effect.get("no_limit")),
                       next_exclude=player.next_exclude | frozenset(effect.get("exclude_colours", [])))
    if op in ROLLING_OPS:
        state = roll_in(state, p, die, effect, action.get("dice"), events)
        if effect.get("repeat", 1) > 1:  # CU-123: Mahatma rolls the ready zone once more
            return replaced(state, again=(_ability_of(effect, state, die), effect["repeat"] - 1))
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
        dice = _dice_in(state, p, origin)
        for kind in sorted({table.types[d] for d in dice}):
            for target in PLACES:
                if target in (origin, "active") or (kind == "lead" and target in ("stock", "draw")):
                    continue
                options.append({"type": "adjust", "die": kind, "from": origin, "to": target, "manual": True})
    return options


def _dice_in(state: State, p: int, place: str) -> list[int]:
    player = state.players[p]
    if place == "stock":
        return sorted(state.stock)
    if place == "active":
        return [d for d, _ in player.active]
    return list(getattr(player, place))


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
        return replaced(state, stock=state.stock | {die})
    return changed(state, p, **{target: getattr(state.players[p], target) + (die,)})


def _ability_of(effect: Mapping[str, Any], state: State, die: int | None) -> str:
    """The id of the ability of ``die``'s card that has ``effect`` (for a repeated roll)."""
    card = state.table.cards[state.table.colour(die)] if die is not None else None
    for ability in card.abilities if card else ():
        if effect in ability.effects:
            return ability.id
    raise ValueError("no ability has this effect")


def again_effect(state: State) -> dict[str, Any]:
    """The roll a repeated ability still owes (``state.again``)."""
    ability_id, _ = state.again
    for card in state.table.cards.values():
        for ability in card.abilities:
            if ability.id == ability_id:
                return next(e for e in ability.effects if e.get("repeat", 1) > 1)
    raise ValueError(ability_id)


def ability_roll_dice(state: State, option: Mapping[str, Any], rng: Any, *moments: str) -> list[str]:
    """What a bot's added roll shows: the dice the option takes (in the rules' order), on random faces. ``moments``
    are those the phase uses the option at: the die is the one the rules will match (``_matched``), found among
    the uses worked out for the state's options."""
    table = state.table
    p = state.current
    if option.get("type") == "roll" and state.again is not None:
        effect, die = again_effect(state), None
    else:
        die, _, ability = _matched(state, option, moments)
        effect = next(e for e in ability.effects if e["op"] in ROLLING_OPS)
    pool = _candidates(state, p, die, effect)
    n = option["roll"]
    if effect["op"] == "distinct_colour_roll":
        seen: dict[str, int] = {}
        for d in pool:
            seen.setdefault(table.colour(d), d)
        chosen = rng.sample(list(seen.values()), n)
    else:
        chosen = pool[:n]
    return shown_faces(table, chosen, rng)
