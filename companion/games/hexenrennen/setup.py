"""HR-1..HR-4, HR-20: the table at the start: the players' clans, the track's tiles (hidden at a real table, laid by
the rng for bots, or given), the neutral piles, every witch on the start and every hand full."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalAction, read_seats
from companion.games.hexenrennen.kit import MAGIC, Kit, load_kit
from companion.games.hexenrennen.state import HIDDEN, SHUFFLED, START, State, Tile, card_name, parse_tile, parse_value


def shuffled_layout(kit: Kit, rng: random.Random) -> tuple[Tile | None, ...]:
    """HR-3 played by the rng: every clan (neutral ones too, HR-20) picks its number tiles per stage at random,
    adds its magic tile(s), and each stage is shuffled."""
    stages: list[list[Tile]] = [[] for _ in range(kit.stages)]
    per = kit.numbers_per_stage
    for clan in kit.clans:
        numbers = list(kit.tile_numbers)
        rng.shuffle(numbers)
        for s, stage in enumerate(stages):
            stage.extend([Tile(clan, MAGIC)] * kit.magic_per_stage)
            stage.extend(Tile(clan, n) for n in numbers[s * per:(s + 1) * per])
    for stage in stages:
        rng.shuffle(stage)
    return (None,) + tuple(t for stage in stages for t in stage)


def check_layout(tiles: Any, kit: Kit) -> tuple[Tile | None, ...]:
    """HR-2/HR-3: a layout given as ``["blue-10", "green-magic", ...]`` (space 1 first) must be a possible table."""
    if not isinstance(tiles, list) or len(tiles) != kit.track_length:
        raise IllegalAction("HR-3", f"a layout lists {kit.track_length} tiles, got {tiles!r:.80}",
                            legal='"hidden", "shuffled" or a list like ["blue-10", "green-magic", ...]')
    track: list[Tile | None] = [None]
    seen: set[Tile] = set()
    for i, text in enumerate(tiles):
        tile = parse_tile(text, kit)
        if tile is None:
            raise IllegalAction("HR-2", f"tiles[{i}] {text!r} is no tile of the box",
                                legal=f"<clan>-<2..10 or magic>, clans {', '.join(kit.clans)}")
        if tile.value != MAGIC and tile in seen:
            raise IllegalAction("HR-2", f"tiles[{i}] {text}: every clan has each number tile once")
        seen.add(tile)
        track.append(tile)
    for s in range(kit.stages):
        stage = track[1 + s * kit.stage_length: 1 + (s + 1) * kit.stage_length]
        for clan in kit.clans:
            mine = [t for t in stage if t is not None and t.clan == clan]
            magic = sum(t.value == MAGIC for t in mine)
            if len(mine) != kit.tiles_per_stage or magic != kit.magic_per_stage:
                first, end = s * kit.stage_length, (s + 1) * kit.stage_length - 1
                raise IllegalAction("HR-3", f"stage {s + 1} (tiles[{first}..{end}]) holds "
                                    f"{len(mine)} {clan} tiles with {magic} magic; each clan puts "
                                    f"{kit.tiles_per_stage} tiles with {kit.magic_per_stage} magic into each stage")
    return tuple(track)


def _layout(setting: Any, kit: Kit, rng: random.Random) -> tuple[Tile | None, ...] | None:
    if setting in (None, HIDDEN):
        return None
    if setting == SHUFFLED:
        return shuffled_layout(kit, rng)
    return check_layout(setting, kit)


def _piles(setting: Any, kit: Kit, neutrals: tuple[str, ...],
           rng: random.Random) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """HR-20: each neutral clan's cards as a shuffled face-down pile: unknown (the table), seeded, or given."""
    deck = kit.deck
    if setting in (None, HIDDEN):
        return tuple(deck for _ in neutrals), False
    if setting == SHUFFLED:
        piles = []
        for _ in neutrals:
            pile = list(deck)
            rng.shuffle(pile)
            piles.append(tuple(pile))
        return tuple(piles), True
    if not isinstance(setting, Mapping) or set(setting) != set(neutrals):
        raise IllegalAction("HR-20", f"piles must be 'hidden', 'shuffled' or a dict neutral clan -> cards, top "
                            f"first; got {setting!r:.80}", legal=list(neutrals))
    piles = []
    for clan in neutrals:
        cards = setting[clan]
        values = [parse_value(c, kit.card_numbers) for c in cards] if isinstance(cards, list) else [None]
        if None in values or sorted(values) != sorted(deck):
            raise IllegalAction("HR-20", f"piles.{clan} must hold each of the clan's cards once, got {cards!r}",
                                legal=[card_name(v) for v in deck])
        piles.append(tuple(values))
    return tuple(piles), True


def new_state(options: Mapping[str, Any], rng: random.Random) -> State:
    """HR-1..HR-4, HR-20: 2-4 players in turn order (the start player, found by a roll at the table, first), one
    clan each; every witch on the start, every tile hidden (or laid by the rng), every hand full."""
    kit = load_kit()
    seats = read_seats(options, kit.clans, range(2, len(kit.clans) + 1), "HR-1")
    clans, names = tuple(seat.colour for seat in seats), tuple(seat.name for seat in seats)
    bots = frozenset(seat.colour for seat in seats if seat.bot)
    neutrals = tuple(c for c in kit.clans if c not in clans)
    tiles = options.get("tiles", HIDDEN)
    truth = _layout(tiles, kit, rng)
    piles, known = _piles(options.get("piles", SHUFFLED if tiles == SHUFFLED else HIDDEN), kit, neutrals, rng)
    ids = tuple(f"{clan}-{n + 1}" for clan in clans for n in range(kit.witches_per_clan))
    return State(kit=kit, clans=clans, names=names, neutrals=neutrals, ids=ids,
                 witches=(START,) * (len(clans) * kit.witches_per_clan),
                 track=(None,) * (kit.track_length + 1), hands=tuple(kit.deck for _ in clans), piles=piles,
                 truth=truth, piles_known=known, bots=bots)
