"""The state of a Cubitos table and the small moves every part of the rules makes on it.

Every die of the box has an id; at every moment it is in exactly one place: the stock, or one player's draw, ready,
active or rest zone (the lead die is never in the stock, CU-52). States are immutable: each change makes a new one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

from companion.games.base import Event, IllegalAction
from companion.games.cubitos.kit import Ability, Card, Face, Kit, Race, Track

ZONES = ("draw", "ready", "active", "rest")
DANGER_THRESHOLD = 3
"""CU-32: active dice (any face, the lead die too) from which a player is in danger for the rest of the round."""
MEMO_SIZE = 4096
"""Values a table's memo keeps at most (``Table.remember``)."""


# ---------------------------------------------------------------------------------------------------------- state

Offers = dict[tuple[int, str], tuple[Ability, ...]]
"""(die, face label) -> the abilities the face may grant at one moment (``Table.offered``)."""
Offering = tuple[tuple[tuple[str, Offers], ...], frozenset[tuple[int, str]], bool]
"""What the cards in play may offer at some moments (``Table.offers_at``): (moment, ``Table.offered[moment]``) of
those at which any face may grant an ability, every such (die, face label), and whether a sword-gated one may be
used."""


def _worked_out() -> Any:
    """A table's attribute worked out from its fields by ``Table.__post_init__``: a plain attribute, which Python
    3.11 reads by a specialized look-up (a computed-once ``kit.kept`` is read through its class's descriptor first,
    never specialized), left out of the table's ``__init__``, ``repr`` and comparisons."""
    return field(init=False, repr=False, compare=False)


def _filled_on_use() -> Any:
    """A table's empty dict that the rules fill as they ask: made by the table's ``__init__`` as a plain attribute,
    which Python 3.11 reads by a specialized look-up (a computed-once ``kit.kept`` is read through its class's
    descriptor first, never specialized), and left out of the table's ``repr`` and comparisons."""
    return field(default_factory=dict, init=False, repr=False, compare=False)


def dice_by_type(dice: Iterable[int], types: tuple[str, ...]) -> dict[str, list[int]]:
    """Die type -> those of ``dice`` of that type (``types``: die id -> type), lowest first (dice of a type are
    alike: the rules take the lowest)."""
    found: dict[str, list[int]] = {}
    for die in sorted(dice):
        found.setdefault(types[die], []).append(die)
    return found


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
    memo: dict[Any, Any] = _filled_on_use()
    """Values derived from this table and a part of a state, kept by what they derive from (each user keys them
    with its own tag first): the greedy bots rate thousands of states of one table. Fill it with ``remember``."""
    offered: dict[str, Offers] = _filled_on_use()
    """Moment -> (die, face label) -> the abilities the face may grant then, as far as the cards in play decide
    it; filled by ``abilities.usable`` on first use, as it alone knows the moments. Keyed by die, as the
    active zone names its dice, so the rules look up each active die as it is at every moment they ask."""
    costs: dict[str, int | None] = _worked_out()
    """Die type -> ``cost``: asked for every die of the stock at every purchase."""
    dice_of: dict[str, tuple[int, ...]] = _worked_out()
    """Die type -> its dice (ids), lowest first."""
    colours_of: tuple[str, ...] = _worked_out()
    """Die id -> its colour for rules (CU-85)."""
    granting: dict[tuple[str, str], tuple[Card, bool]] = _worked_out()
    """(die type, face label) -> the card in play whose abilities the face grants (a team or special symbol,
    CU-75) and whether it is the special symbol; faces granting nothing are absent. Looked up for every active
    die whenever the rules ask which abilities a player can use."""
    spaces_after: tuple[int, ...] = _worked_out()
    """Segment -> the spaces of the tracks after it, each from its start to its finish on every lap, and the step
    onto each (CU-142)."""
    must_push_faces: frozenset[tuple[str, str]] = _worked_out()
    """(die type, face label) whose card owes a push once the face is placed (Käsehäppchen, CU-110)."""
    sword_gated: tuple[tuple[str, Ability], ...] = _worked_out()
    """(colour, ability) of every sword-gated ability in play (CU-45, CU-46), in card order."""
    offers_at: dict[tuple[str, ...], Offering] = _filled_on_use()
    """Moments -> what the cards may offer at them (``Offering``; most races' cards offer none at most moments);
    filled likewise."""

    def __post_init__(self) -> None:
        """The values worked out from the table, once, as plain attributes (``_worked_out``), in an order where
        each finds those it reads."""
        worked_out = object.__setattr__  # frozen: set as the dataclass's own __init__ sets its fields
        worked_out(self, "costs", self._costs())
        worked_out(self, "dice_of", self._dice_of())
        worked_out(self, "colours_of", self._colours_of())
        worked_out(self, "granting", self._granting())
        worked_out(self, "spaces_after", self._spaces_after())
        worked_out(self, "must_push_faces", self._must_push_faces())
        worked_out(self, "sword_gated", self._sword_gated())

    def cost(self, die_type: str) -> int | None:
        """CU-48, CU-85: an ability die costs what its colour's card says, a start die 0, the lead die nothing."""
        return self.costs[die_type]

    def _costs(self) -> dict[str, int | None]:
        costs: dict[str, int | None] = {}
        for kind in self.kit.dice.values():
            costs[kind.id] = (self.cards[kind.colour].cost if kind.kind == "ability"
                              else None if kind.kind == "lead" else 0)
        return costs

    def colour(self, die: int) -> str:
        return self.colours_of[die]

    def _dice_of(self) -> dict[str, tuple[int, ...]]:
        return {kind: tuple(dice) for kind, dice in dice_by_type(range(len(self.types)), self.types).items()}

    def _colours_of(self) -> tuple[str, ...]:
        colour = {kind: die.colour for kind, die in self.kit.dice.items()}
        return tuple(map(colour.__getitem__, self.types))

    def _granting(self) -> dict[tuple[str, str], tuple[Card, bool]]:
        found = {}
        for kind in self.kit.dice.values():
            card = self.cards.get(kind.colour)
            for shown in kind.faces if card is not None else ():
                if shown.team or shown.special:
                    found[(kind.id, shown.label)] = (card, shown.special)
        return found

    def _spaces_after(self) -> tuple[int, ...]:
        return tuple(sum(t.to_finish[t.start] * self.laps + 1 for t in self.segments[n + 1:])
                     for n in range(len(self.segments)))

    def remember(self, key: Any, value: Any) -> Any:
        """``value`` kept in ``memo`` under ``key``. A full memo is emptied first, so a race of tens of thousands of
        actions (random bots, fuzzing) does not grow with every zone it has seen."""
        if len(self.memo) >= MEMO_SIZE:
            self.memo.clear()
        self.memo[key] = value
        return value

    def _must_push_faces(self) -> frozenset[tuple[str, str]]:
        return frozenset(shown for shown, (card, _) in self.granting.items()
                         if any(a.timing == "immediate" and any(e["op"] == "must_push" for e in a.effects)
                                for a in card.abilities))

    def _sword_gated(self) -> tuple[tuple[str, Ability], ...]:
        return tuple((colour, ability) for colour, card in self.cards.items() for ability in card.abilities
                     if ability.gate and "swords" in ability.gate)


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
    refilled: bool = False
    done_rolling: bool = False
    took_credits: bool = False
    gave_back: bool = False
    segment: int = 0
    space: str = ""
    laps: int = 0
    left_start: bool = False
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
    bust_ignored: bool = False
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


ZONES_READ = slice(0, len(ZONES))
"""A player's zones in ``ZONES`` order, its first fields: ``draw, ready, active, rest = player[ZONES_READ]`` reads
them at once where the rules ask for all four (each NamedTuple field read is a generic attribute look-up)."""
assert Player._fields[ZONES_READ] == ZONES


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
    ending: bool = False
    tiebreak: bool = False
    again: tuple[str, int] | None = None
    """An ability that rolls once more (Mahatma, CU-123): its id and the rolls still owed."""
    adjusting: str | None = None
    """The ability the players are resolving by hand (CU-89), while the ``adjust`` phase lasts."""


def lead_order(state: State, players: Iterable[int] | None = None) -> tuple[int, ...]:
    """CU-56: the lead player, then the others clockwise (by default those racing this round). Kept per lead and
    players: the rules ask for it at every push, pass, move and purchase."""
    global _last_order
    lead = state.lead
    if players is None:
        chosen = state.racing
        last = _last_order  # read once: another thread may ask about another table meanwhile
        if last is not None and last[0] is chosen and last[1] == lead:
            return last[2]  # the racing players are one tuple from state to state until someone leaves the race
    else:
        chosen = tuple(sorted(set(players)))
    key = (lead, chosen, len(state.players))
    order = _ORDERS.get(key)
    if order is None:
        n = len(state.players)
        order = _ORDERS[key] = tuple(k for k in (*range(lead, n), *range(lead)) if k in chosen)
    if players is None:
        _last_order = (chosen, lead, order)
    return order


_last_order: tuple[tuple[int, ...], int, tuple[int, ...]] | None = None
"""The last order asked for the racing players: (their tuple, the lead, the order)."""


_ORDERS: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}
"""``lead_order`` by (lead, players, seats): a few dozen at most."""


def track_of(state: State, p: int) -> Track:
    return state.table.segments[state.players[p].segment]


def spaces_left(table: Table, player: Player) -> int:
    """Fewest spaces from the runner to the race finish: this lap, the laps left and the tracks still to come.

    On a finish the runner has done this track (its last lap), or it begins another lap from the start (CU-141).
    """
    track = table.segments[player.segment]
    later = table.spaces_after[player.segment]
    if player.space == track.finish and player.laps + 1 < table.laps + (player.segment == len(table.segments) - 1
                                                                          and not player.reached):
        return (table.laps - player.laps) * track.to_finish[track.start] + later
    if player.space == track.finish:
        return later
    return track.to_finish[player.space] + (table.laps - 1 - player.laps) * track.to_finish[track.start] + later


def remove_die(state: State, p: int, zone: str, die: int) -> State:
    """``die`` leaves player ``p``'s ``zone``; from the active zone its abilities of this activation end (CU-77)."""
    player = state.players[p]
    if zone == "active":
        return changed(state, p, active=tuple([a for a in player.active if a[0] != die]),
                       used=frozenset([u for u in player.used if u[0] != die]),
                       owes_special=player.owes_special - {die})
    return changed(state, p, **{zone: tuple([d for d in getattr(player, zone) if d != die])})


def die_in(state: State, p: int, zone: str, die_type: str) -> int:
    """The lowest die of ``die_type`` in player ``p``'s ``zone`` (dice of a type are alike)."""
    player = state.players[p]
    dice = [d for d, _ in player.active] if zone == "active" else getattr(player, zone)
    lowest = _lowest_of(dice, state.table.types, die_type)
    if lowest is None:
        raise ValueError(f"no {die_type} die in the {zone} zone")
    return lowest


def _lowest_of(dice: Iterable[int], types: tuple[str, ...], die_type: str) -> int | None:
    """The lowest of ``dice`` of ``die_type``, or None: a loop, not ``min`` of a comprehension, as every use from the
    ready zone and every bust's resting asks."""
    lowest = None
    for d in dice:
        if types[d] == die_type and (lowest is None or d < lowest):
            lowest = d
    return lowest


def from_stock(state: State, die_type: str) -> tuple[State, int]:
    """The lowest die of ``die_type`` leaves the stock (to be bought or gained); the caller says where it goes.
    The new stock's ``in_stock`` follows from the old one's: only that type's lowest die changes."""
    table = state.table
    lowest = in_stock(state)
    die = lowest[die_type]
    stock = state.stock - {die}
    key = ("stock", stock)
    if key not in table.memo:
        following = dict(lowest)
        after = _lowest_in(table.dice_of[die_type], stock)  # ``die`` was the type's lowest: the next one in stock
        if after is None:
            del following[die_type]
        else:
            following[die_type] = after
        table.remember(key, following)
    return replaced(state, stock=stock), die


def in_stock(state: State) -> dict[str, int]:
    """Die type -> the lowest die of it in the stock, by type. Kept per stock (it changes only when a die is bought,
    taken or given back, and every phase 7 prompt asks)."""
    table = state.table
    key = ("stock", state.stock)
    found = table.memo.get(key)
    if found is None:
        lowest = {}
        for kind, dice in sorted(table.dice_of.items()):
            die = _lowest_in(dice, state.stock)
            if die is not None:
                lowest[kind] = die
        found = table.remember(key, lowest)
    return found


def _lowest_in(dice: tuple[int, ...], stock: frozenset[int]) -> int | None:
    """The first of ``dice`` (a type's, lowest first: ``Table.dice_of``) in ``stock``, or None."""
    for die in dice:
        if die in stock:
            return die
    return None


def leave_active(state: State, p: int, die: int, zone: str) -> State:
    """A die leaves the active zone for ``zone``: its abilities of this activation end (CU-77)."""
    state = remove_die(state, p, "active", die)
    return changed(state, p, **{zone: getattr(state.players[p], zone) + (die,)})


def reach_finish(state: State, p: int, events: list[Event]) -> State:
    """The runner entered its track's finish (CU-141, CU-145): another lap, the end of a track that another
    follows, or the race finish: the game ends when this round does."""
    table = state.table
    player = state.players[p]
    if player.laps + 1 < table.laps:
        events.append({"type": "lap", "player": seat(state, p), "laps": player.laps + 1})
        return changed(state, p, laps=player.laps + 1, left_start=False)
    if player.segment == len(table.segments) - 1 and not player.reached:
        events.append({"type": "reached_finish", "player": seat(state, p)})
        return changed(state, p, reached=True, left_start=False, ending=True)
    return changed(state, p, left_start=False)


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
    return replaced(state, bonuses=tuple(pending))


def lines_passed(table: Table, player: Player) -> int:
    """CU-69: red lines on the runner's own space, plus every lap completed and every earlier track segment."""
    track = table.segments[player.segment]
    earlier = sum(t.red_lines_per_lap * table.laps for t in table.segments[:player.segment])
    return track.spaces[player.space].red_lines_passed + player.laps * track.red_lines_per_lap + earlier


def draw_limit(state: State, p: int) -> int:
    """CU-25, CU-26: the base limit, the limit tokens and the red lines between this runner and the leader."""
    lines, racing = state.lines, state.racing
    behind = max(0, (max(lines) if len(racing) == len(lines) else max([lines[k] for k in racing])) - lines[p])
    return state.table.kit.base_draw_limit + state.players[p].limit_tokens + behind


def face(table: Table, die: int, label: str) -> Face:
    return table.kit.dice[table.types[die]].by_label[label]


def labels(kit: Kit) -> tuple[str, ...]:
    """Every face the camera can read, ``"<die type>/<face label>"`` (RULES.md §19), from ``dice.json``."""
    return tuple(dict.fromkeys(f"{d.id}/{f.label}" for d in kit.dice.values() for f in d.faces))


_PLAYER_FIELD = {name: n for n, name in enumerate(Player._fields)}
_STATE_FIELD = {name: n for n, name in enumerate(State._fields)}
_FIELD = {**_PLAYER_FIELD, **{name: ~n for name, n in _STATE_FIELD.items()}}
"""A field's index in a player, or ``~`` its index in the state (the two share no name): ``changed`` takes both."""
_PLAYERS = _STATE_FIELD["players"]
_built = tuple.__new__
"""A NamedTuple from its values in field order, without its ``__new__`` (named once: a type's attribute is looked
up by name at each use)."""


def changed(state: State, p: int, **changes: Any) -> State:
    """Player ``p`` with ``changes``, and the state with those named for its own fields (the phase, the current
    player ...). Built by field index, not ``_replace``: the rules make a new player for nearly every move, a greedy
    bot's lookahead makes several per option, and a step that changes a player and then the phase makes one copy
    of the state, not two."""
    fields = list(state)  # the state's fields by index: no slice of them, no NamedTuple field read (a generic look-up)
    players = list(fields[_PLAYERS])
    values = list(players[p])
    for name, value in changes.items():
        k = _FIELD[name]
        if k >= 0:
            values[k] = value
        else:
            fields[~k] = value
    players[p] = _built(Player, values)
    fields[_PLAYERS] = tuple(players)
    return _built(State, fields)


def field_defaults(names: Iterable[str]) -> tuple[tuple[int, Any], ...]:
    """(field index, a new player's value) of each of ``names``, for ``altered``: looked up once, not at each use."""
    return tuple((_PLAYER_FIELD[name], Player._field_defaults[name]) for name in names)


def altered(player: Player, defaults: tuple[tuple[int, Any], ...] = (), **changes: Any) -> Player:
    """``player._replace(**changes)``, with the fields of ``defaults`` (``field_defaults``) back to a new player's,
    by field index: ``_replace`` maps every field by name, some 40 of them, and takes each change as a keyword."""
    values = list(player)
    for k, value in defaults:
        values[k] = value
    for name, value in changes.items():
        values[_PLAYER_FIELD[name]] = value
    return _built(Player, values)


_SPACE, _STEPS, _WATER, _LEFT_START = (_PLAYER_FIELD[name] for name in ("space", "steps", "water", "left_start"))


def stepped(player: Player, space: str, water: bool) -> Player:
    """``player`` one plain step on, onto ``space`` (a water space when ``water``; CU-58, CU-59): the one change a
    step onto a space without a special makes, by field index (a walk's search makes thousands)."""
    values = list(player)
    values[_SPACE] = space
    values[_STEPS] -= 1
    values[_WATER] -= water
    values[_LEFT_START] = True
    return _built(Player, values)


def with_player(state: State, p: int, player: Player) -> State:
    """``state`` with ``player`` in seat ``p``."""
    if state.players[p] is player:
        return state
    fields = list(state)
    players = list(fields[_PLAYERS])
    players[p] = player
    fields[_PLAYERS] = tuple(players)
    return _built(State, fields)


def replaced(state: State, **changes: Any) -> State:
    """``state._replace(**changes)`` by field index: the rules move the phase or the current player at nearly every
    action, and ``_replace`` maps every field by name."""
    values = list(state)
    for name, value in changes.items():
        values[_STATE_FIELD[name]] = value
    return _built(State, values)


FIRST = itemgetter(0)
"""The first of a pair (the die of an active zone's (die, face), the type of a roll's (type, face)) for ``map``: in
Python 3.11 a comprehension or generator makes a function at every run, and the rules' hot paths avoid them."""


def shown_faces(table: Table, dice: Iterable[int], rng: random.Random) -> list[str]:
    """Each die on a random face, named as a roll shows it: the face ``rng.choice(faces)`` would draw, drawn as it
    does (the fewest bits that name every face, again while they name none) by the public ``getrandbits``. A bot
    race rolls some 70,000 dice, ``choice`` is two Python calls deep for each, and the recorded games pin these very
    draws."""
    draws, types, bits = table.kit.face_draws, table.types, rng.getrandbits
    shown = []
    for die in dice:
        faces, n, k = draws[types[die]]
        r = bits(k)
        while r >= n:
            r = bits(k)
        shown.append(faces[r])
    return shown


def seat(state: State, p: int) -> str:
    return state.table.colours[p]


def take(pool: list[int], types: tuple[str, ...], die_type: str) -> int:
    """The lowest id of ``die_type`` in ``pool`` (dice of a type are alike), removed from it."""
    die = _lowest_of(pool, types, die_type)
    if die is None:
        raise ValueError(f"no {die_type} die to take")
    pool.remove(die)
    return die


def advance_fans(state: State, p: int, n: int, events: list[Event], *, take_credits: bool = True) -> State:
    """CU-70, CU-72: the fan marker advances ``n`` spaces; each space entered pays its credits and limit tokens;
    beyond the last space each advance pays the overflow credits."""
    kit = state.table.kit
    player = state.players[p]
    fans, credits, tokens = player.fans, 0, 0
    for _ in range(n):
        if fans < kit.fan_last:
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
    return replaced(state, stock=state.stock | {die})


def parse_roll(state: State, dice: Any, count: int) -> list[tuple[str, str]]:
    """(die type, face label) of each rolled die, as the camera names them."""
    if not isinstance(dice, list) or len(dice) != count:
        raise IllegalAction("CU-30", f"expected {count} dice, got {dice!r}", legal=f"{count} dice")
    named = state.table.kit.faces_named
    try:
        return list(map(named.__getitem__, dice))
    except (KeyError, TypeError):  # a name the camera cannot read (or no name at all): say which
        pass
    known = state.table.kit.dice
    parsed = []
    for i, name in enumerate(dice):
        die_type, _, label = name.partition("/") if isinstance(name, str) else ("", "", "")
        if die_type not in known or label not in known[die_type].by_label:
            raise IllegalAction("CU-30", f"dice[{i}]: not a face of a Cubitos die: {name!r}",
                                legal="'<die type>/<face label>' of dice.json")
        parsed.append((die_type, label))
    return parsed
