"""The state of a Cubitos table and the small moves every part of the rules makes on it.

Every die of the box has an id; at every moment it is in exactly one place: the stock, or one player's draw, ready,
active or rest zone (the lead die is never in the stock, CU-52). States are immutable: each change makes a new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.games.base import Event, IllegalAction
from companion.games.cubitos.kit import Ability, Card, Face, Kit, Race, Track, grants

ZONES = ("draw", "ready", "active", "rest")
DANGER_THRESHOLD = 3
"""CU-32: active dice (any face, the lead die too) from which a player is in danger for the rest of the round."""
RED_LINES_AT_ROUND_START = True
"""CU-26 **Decision**: the red-line bonus counts the runners as they stood when the round began (``State.lines``),
so the order of the refills does not matter; False counts them where they stand when the player refills."""


@dataclass(frozen=True)
class Table:
    """What stays the same for a whole game."""

    kit: Kit
    race: Race
    cards: dict[str, Card]
    """Colour -> the card in play (CU-16)."""
    segments: tuple[Track, ...]
    laps: int
    colours: tuple[str, ...]
    """The seats clockwise; a player is named by their colour."""
    names: tuple[str, ...]
    bots: tuple[bool, ...]
    types: tuple[str, ...]
    """Die id -> die type id."""
    lead_die: int
    grants: dict[tuple[str, str, str], tuple[Ability, ...]] = field(init=False, repr=False, compare=False)
    """(die type, face label, moment) -> the abilities the face grants then (``kit.grants``), from the cards."""
    die_colours: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Die id -> its colour for rules (CU-85)."""

    def __post_init__(self) -> None:
        """What the table's data decide once for the game (a frozen dataclass sets its fields so)."""
        object.__setattr__(self, "grants", grants(self.kit, self.cards))
        object.__setattr__(self, "die_colours", tuple(self.kit.dice[kind].colour for kind in self.types))

    def cost(self, die_type: str) -> int | None:
        """CU-48, CU-85: an ability die costs what its colour's card says, a start die 0, the lead die nothing."""
        kind = self.kit.dice[die_type]
        return self.cards[kind.colour].cost if kind.kind == "ability" else None if kind.kind == "lead" else 0

    def colour(self, die: int) -> str:
        """CU-85: a die's colour for rules (grey for both start dice, black for the lead die)."""
        return self.die_colours[die]


class Player(NamedTuple):
    draw: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()
    active: tuple[tuple[int, str], ...] = ()
    """(die, the label of the face it shows)."""
    rest: tuple[int, ...] = ()
    coins: int = 0
    steps: int = 0
    water: int = 0
    """Water spaces the runner may still enter this round (CU-59)."""
    credits: int = 0
    limit_tokens: int = 0
    fans: int = 0
    danger: bool = False
    busted: bool = False
    busting: bool = False
    """The last roll busts unless a reaction ignores it (CU-34)."""
    refilled: bool = False
    done_rolling: bool = False
    took_credits: bool = False
    gave_back: bool = False
    segment: int = 0
    space: str = ""
    laps: int = 0
    moved_from: tuple[int, str] | None = None
    """Where the runner began phase 6 (CU-65); None outside phase 6."""
    specials: frozenset[tuple[int, str]] = frozenset()
    """Spaces whose special action has triggered for this runner this round (CU-61)."""
    reached: bool = False
    """The runner entered the race finish this round (CU-145)."""
    bought: tuple[str, ...] = ()
    swords: int | None = None
    used: frozenset[tuple[int, str]] = frozenset()
    """(die, ability id) used in this activation of the die (CU-76)."""
    gated: frozenset[str] = frozenset()
    """Sword-gated abilities used this round (CU-46, once per player)."""
    owes_special: frozenset[int] = frozenset()
    """Dice whose special ability must still be used, having lent a normal one through the special symbol (CU-79)."""
    pushed_active: frozenset[int] | None = None
    """The dice active when the player last pushed (CU-40); None when the coming roll is not a push."""
    event_used: frozenset[tuple[int, str]] = frozenset()
    """Event abilities used for the current push without bust (CU-76: once per event)."""
    safe_roll: bool = False
    """The coming roll cannot bust (Piña Cubelada, CU-113)."""
    keep_on_bust: frozenset[str] = frozenset()
    """Colours that stay active through this bust (Punk Grapefruit, CU-118)."""
    must_push: bool = False
    """A Käsehäppchen was placed: one more push is owed (CU-110)."""
    refill_exclude: frozenset[str] = frozenset()
    """Colours that neither count nor fill this round's limit (CU-29: Dieter, Handkäs mit Muckis)."""
    refill_no_limit: bool = False
    """This round's refill has no limit (CU-29: Uppercut-Uwe)."""
    next_exclude: frozenset[str] = frozenset()
    next_no_limit: bool = False
    """What this round's abilities do to the next round's refill."""
    borrowed: frozenset[int] = frozenset()
    """Dice taken for this round only (Draftodon, Mungojerrie): back to the stock in phase 8 wherever they are."""


class State(NamedTuple):
    table: Table
    players: tuple[Player, ...]
    stock: frozenset[int]
    lead: int
    """The lead player (CU-18), holder of the lead die's turn order."""
    round: int
    phase: str
    current: int
    racing: tuple[int, ...]
    """Who plays this round: everyone, or in a tie round only the tied players (CU-148)."""
    lines: tuple[int, ...]
    """Red lines each runner had passed when the round began (CU-26)."""
    bonuses: tuple[dict[str, Any], ...] = ()
    """The current player's bonus choices still to make (give back, take a die), in order."""
    shortcut: tuple[int, str] | None = None
    winners: tuple[int, ...] = ()
    tiebreak: bool = False
    again: tuple[dict[str, Any], int] | None = None
    """An ability's roll owed once more (Mahatma, CU-123): its effect and the rolls still owed."""
    adjusting: str | None = None
    """The ability the players are resolving by hand (CU-89), while the ``adjust`` phase lasts."""


def changed(state: State, p: int, **changes: Any) -> State:
    """Player ``p`` with the ``changes`` named for its fields, and the state with those named for its own."""
    own = {k: v for k, v in changes.items() if k in State._fields}
    players = list(state.players)
    players[p] = players[p]._replace(**{k: v for k, v in changes.items() if k not in own})
    return state._replace(players=tuple(players), **own)


def seat(state: State, p: int) -> str:
    return state.table.colours[p]


def lead_order(state: State) -> tuple[int, ...]:
    """CU-56: the lead player, then the others clockwise (of those racing this round)."""
    n = len(state.players)
    return tuple(k % n for k in range(state.lead, state.lead + n) if k % n in state.racing)


def ending(state: State) -> bool:
    """CU-145: a runner racing this round reached the race finish; the game ends when the round does."""
    return any(state.players[p].reached for p in state.racing)


def track_of(state: State, p: int) -> Track:
    return state.table.segments[state.players[p].segment]


def lines_passed(table: Table, player: Player) -> int:
    """CU-69: red lines on the runner's own space, plus every lap completed and every earlier track segment."""
    track = table.segments[player.segment]
    earlier = sum(t.red_lines_per_lap * table.laps for t in table.segments[:player.segment])
    return track.spaces[player.space].red_lines_passed + player.laps * track.red_lines_per_lap + earlier


def spaces_left(table: Table, player: Player) -> int:
    """Fewest spaces from the runner to the race finish: this lap, the laps left and the tracks still to come.

    On a finish the runner has done this track (its last lap), or it begins another lap from the start (CU-141).
    """
    track = table.segments[player.segment]
    later = sum(t.to_finish[t.start] * table.laps + 1 for t in table.segments[player.segment + 1:])
    last = player.segment == len(table.segments) - 1
    if player.space == track.finish and player.laps + 1 < table.laps + (last and not player.reached):
        return (table.laps - player.laps) * track.to_finish[track.start] + later
    if player.space == track.finish:
        return later
    return track.to_finish[player.space] + (table.laps - 1 - player.laps) * track.to_finish[track.start] + later


def draw_limit(state: State, p: int) -> int:
    """CU-25, CU-26: the base limit, the limit tokens and the red lines between this runner and the leader."""
    lines = state.lines if RED_LINES_AT_ROUND_START else [lines_passed(state.table, q) for q in state.players]
    behind = max(lines[k] for k in state.racing) - lines[p]
    return state.table.kit.base_draw_limit + state.players[p].limit_tokens + max(0, behind)


def face(table: Table, die: int, label: str) -> Face:
    return table.kit.dice[table.types[die]].by_label[label]


def dice_in(player: Player, zone: str) -> tuple[int, ...]:
    """The dice of a zone (the active zone's without their faces)."""
    return tuple(d for d, _ in player.active) if zone == "active" else getattr(player, zone)


def die_in(state: State, p: int, zone: str, die_type: str) -> int:
    """The lowest die of ``die_type`` in player ``p``'s ``zone`` (dice of a type are alike)."""
    return take(list(dice_in(state.players[p], zone)), state.table.types, die_type)


def remove_die(state: State, p: int, zone: str, die: int) -> State:
    """``die`` leaves player ``p``'s ``zone``; from the active zone its abilities of this activation end (CU-77)."""
    player = state.players[p]
    if zone == "active":
        return changed(state, p, active=tuple(a for a in player.active if a[0] != die),
                       used=frozenset(u for u in player.used if u[0] != die), owes_special=player.owes_special - {die})
    return changed(state, p, **{zone: tuple(d for d in getattr(player, zone) if d != die)})


def leave_active(state: State, p: int, die: int, zone: str) -> State:
    """A die leaves the active zone for ``zone``: its abilities of this activation end (CU-77)."""
    state = remove_die(state, p, "active", die)
    return changed(state, p, **{zone: getattr(state.players[p], zone) + (die,)})


def in_stock(state: State) -> dict[str, int]:
    """Die type -> the lowest die of it in the stock, types in alphabetical order."""
    types = state.table.types
    return {kind: min(d for d in state.stock if types[d] == kind) for kind in sorted({types[d] for d in state.stock})}


def from_stock(state: State, die_type: str) -> tuple[State, int]:
    """The lowest die of ``die_type`` leaves the stock (to be bought or gained); the caller says where it goes."""
    die = in_stock(state)[die_type]
    return state._replace(stock=state.stock - {die}), die


def take(pool: list[int], types: tuple[str, ...], die_type: str) -> int:
    """The lowest id of ``die_type`` in ``pool`` (dice of a type are alike), removed from it."""
    die = min(d for d in pool if types[d] == die_type)
    pool.remove(die)
    return die


def advance_fans(state: State, p: int, n: int, events: list[Event], *, take_credits: bool = True) -> State:
    """CU-70, CU-72: the fan marker advances ``n`` spaces; each space entered pays its credits and limit tokens;
    beyond the last space each advance pays the overflow credits."""
    kit = state.table.kit
    player = state.players[p]
    fans, credits, tokens = player.fans, 0, 0
    for _ in range(n):
        if fans < len(kit.fan_track) - 1:
            fans += 1
            credits += kit.fan_track[fans][0] if take_credits else 0
            tokens += kit.fan_track[fans][1]
        elif take_credits:
            credits += kit.fan_overflow_credits
    events.append({"type": "fans", "player": seat(state, p), "fans": fans, "credits": credits,
                   "limit_tokens": tokens})
    return changed(state, p, fans=fans, credits=player.credits + credits, limit_tokens=player.limit_tokens + tokens,
                   took_credits=player.took_credits or credits > 0)


def give_back(state: State, p: int, zone: str, die_type: str, events: list[Event], *, die: int | None = None) -> State:
    """CU-87: a die of the player's returns to the stock (never the lead die); the player gave back this round.
    ``die`` names the very die (an ability giving back itself), else the lowest of its type in the zone."""
    die = die if die is not None else die_in(state, p, zone, die_type)
    events.append({"type": "gave_back", "player": seat(state, p), "zone": zone, "die": die_type})
    state = changed(remove_die(state, p, zone, die), p, gave_back=True)
    return state._replace(stock=state.stock | {die})


def reach_finish(state: State, p: int, events: list[Event]) -> State:
    """The runner entered its track's finish (CU-141, CU-145): another lap, the end of a track that another
    follows, or the race finish: the game ends when this round does."""
    table = state.table
    player = state.players[p]
    if player.laps + 1 < table.laps:
        events.append({"type": "lap", "player": seat(state, p), "laps": player.laps + 1})
        return changed(state, p, laps=player.laps + 1)
    if player.segment == len(table.segments) - 1 and not player.reached:
        events.append({"type": "reached_finish", "player": seat(state, p)})
        return changed(state, p, reached=True)
    return state


def receive_bonuses(state: State, p: int, space_id: str, events: list[Event]) -> State:
    """CU-66: credits and fans are taken at once; each give-back or take-die symbol waits for the player's choice
    (``state.bonuses``)."""
    pending = list(state.bonuses)
    for bonus in track_of(state, p).spaces[space_id].bonuses:
        kind = bonus["type"]
        if kind == "credits":
            events.append({"type": "bonus_credits", "player": seat(state, p), "credits": bonus["n"]})
            state = changed(state, p, credits=state.players[p].credits + bonus["n"], took_credits=True)
        elif kind == "fans":
            state = advance_fans(state, p, bonus["n"], events)
        elif kind == "give_back":
            pending += [{"type": "give_back"}] * bonus["n"]
        else:
            pending.append({"type": "take_die", "max_cost": bonus.get("max_cost")})
    return state._replace(bonuses=tuple(pending))


def parse_roll(state: State, dice: Any, count: int) -> list[tuple[str, str]]:
    """(die type, face label) of each rolled die, as the camera names them (CU-30)."""
    if not isinstance(dice, list) or len(dice) != count:
        raise IllegalAction("CU-30", f"expected {count} dice, got {dice!r}", legal=f"{count} dice")
    known = state.table.kit.dice
    parsed = [name.partition("/")[::2] if isinstance(name, str) else ("", "") for name in dice]
    for i, (die_type, label) in enumerate(parsed):
        if die_type not in known or label not in known[die_type].by_label:
            raise IllegalAction("CU-30", f"dice[{i}]: not a face of a Cubitos die: {dice[i]!r}",
                                legal="'<die type>/<face label>' of dice.json")
    return parsed


def shown_faces(table: Table, dice: Iterable[int], rng: Any) -> list[str]:
    """Each die on a random face, named as a roll shows it (a bot's roll, the demo's tray)."""
    return [rng.choice(table.kit.face_names[table.types[die]]) for die in dice]
