"""What a Hexen Rennen table holds: the tiles, the steps of a witch's move, the ``State`` the rules move from one
action to the next, and how its parts are named in actions, events and the view."""

from __future__ import annotations

from typing import Any, NamedTuple

from companion.games.hexenrennen.kit import MAGIC, Kit

FACES = ("1", "2", "3", "4", "5", "6")
"""HR-5: one standard d6, read by the ``d6`` model."""
START = 0
"""HR-4: the space before the first tile where every witch begins."""
HIDDEN, SHUFFLED = "hidden", "shuffled"
"""Set-up ``tiles`` / ``piles``: the real table (revealed by the players) or a seeded layout (bots, demo)."""


class Tile(NamedTuple):
    """A path tile (or a card's face): a clan's colour and a number 2..10 or ``MAGIC``."""

    clan: str
    value: int

    def __str__(self) -> str:
        return f"{self.clan}-{card_name(self.value)}"


class Step(NamedTuple):
    """One move of the chain: ``by`` is ``die``, ``tile``, ``card`` (a number card), ``magic`` (a magic card) or
    ``draw`` (a card from a neutral pile); ``value`` is the die, tile or card; ``player`` who played the card."""

    witch: int
    start: int
    end: int
    by: str
    value: int | None = None
    player: str | None = None


class State(NamedTuple):
    kit: Kit
    clans: tuple[str, ...]
    """The players' clans in turn order; witch ``k`` belongs to ``clans[k // witches_per_clan]``."""
    names: tuple[str, ...]
    neutrals: tuple[str, ...]
    """HR-20: the clans nobody plays, in box order."""
    witches: tuple[int, ...]
    """Space of every witch: 0 start, 1..48 track, 49.. finish fields."""
    track: tuple[Tile | None, ...]
    """Index 0 (the start) and hidden tiles are ``None``; revealed tiles stay revealed (HR-9)."""
    hands: tuple[tuple[int, ...], ...]
    """Each player's cards left, sorted, ``MAGIC`` first (HR-15)."""
    piles: tuple[tuple[int, ...], ...]
    """Each neutral clan's face-down pile: top first when known, else the sorted cards left (HR-20)."""
    ids: tuple[str, ...] = ()
    """Witch ids in ``witches`` order: ``"blue-1"`` .. ``"blue-3"`` for each clan in turn order."""
    truth: tuple[Tile | None, ...] | None = None
    """The layout of a bot or demo game; never shown. ``None`` at a real table."""
    piles_known: bool = False
    turn: int = 0
    phase: str = "roll"
    roll: int = 0
    witch: int = -1
    """The witch on the move (-1 between moves)."""
    forced: bool = False
    """HR-16: the witch was just sent back by a number card."""
    stopped: bool = False
    """The witch on the move has stopped (a ``stays`` event): its chain ends."""
    chain: tuple[Step, ...] = ()
    """The moves of the current (or, before the next roll, the last) turn."""
    turns: int = 1
    winners: tuple[str, ...] = ()
    bots: frozenset[str] = frozenset()
    """The clans a bot plays (the player's ``"bot": true``); the rules never look at it, the demo's bot loop does."""

    @property
    def current(self) -> str:
        return self.clans[self.turn]


def card_name(value: int) -> int | str:
    """A tile's or card's value as JSON: the number, or ``"magic"``."""
    return "magic" if value == MAGIC else value


def parse_value(value: Any, numbers: tuple[int, ...]) -> int | None:
    """``"magic"`` or one of ``numbers`` -> the engine's value; anything else -> ``None``."""
    if value == "magic":
        return MAGIC
    if isinstance(value, int) and not isinstance(value, bool) and value in numbers:
        return value
    return None


def parse_tile(text: Any, kit: Kit) -> Tile | None:
    """``"blue-10"`` / ``"blue-magic"`` -> ``Tile``; ``None`` if it is no tile of the box."""
    if not isinstance(text, str) or "-" not in text:
        return None
    clan, _, raw = text.rpartition("-")
    value = parse_value(raw if raw == "magic" else int(raw) if raw.isdigit() else None, kit.tile_numbers)
    return Tile(clan, value) if clan in kit.clans and value is not None else None


def tile_json(tile: Tile | None) -> dict[str, Any] | None:
    return None if tile is None else {"clan": tile.clan, "value": card_name(tile.value)}


def witch_id(state: State, k: int) -> str:
    return state.ids[k]


def clan_of(state: State, k: int) -> str:
    return state.clans[k // state.kit.witches_per_clan]


def own_witches(state: State, clan: str) -> range:
    w = state.kit.witches_per_clan
    first = state.clans.index(clan) * w
    return range(first, first + w)


def occupied(state: State) -> set[int]:
    """HR-6: track spaces with a witch (the finish fields hold any number and never count as occupied)."""
    last = state.kit.track_length
    return {p for p in state.witches if START < p <= last}


def where(state: State, space: int) -> str:
    if space == START:
        return "start"
    return "track" if space <= state.kit.track_length else "finish"
