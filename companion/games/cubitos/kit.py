"""The contents of the Cubitos box, read from ``data/`` and checked at load (``schema.py``).

Much of it is not in the rulebook text: the ability dice's faces, card costs, the red cards' tie rules, the fan
track's rewards and every track layout are placeholders marked ``reference``. A table with the printed material
edits the data files; nothing here or in the rules hard-codes those values.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from companion.games.cubitos.schema import check_cards, check_dice, check_kit, check_races

LEAD = "lead"
GREY_TYPES = ("grey_light", "grey_dark")


class kept:  # lower case: a decorator, like the cached_property it stands for
    """``functools.cached_property`` for frozen dataclasses without touching the instance's ``__dict__``.

    ``cached_property`` stores its value through ``instance.__dict__``, which gives the instance a dict object of its
    own; from then on Python 3.11 reads *every* attribute of that instance through the generic look-up (three times
    slower: ``table.kit``, ``table.types`` and ``kit.dice`` are read at nearly every step of the rules). Stored by
    ``object.__setattr__`` (as a frozen dataclass's own ``__init__`` does), the value sits with the other attributes
    and shadows this descriptor (it has no ``__set__``) from the second read on.
    """

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = self.compute(instance)
        object.__setattr__(instance, self.name, value)
        return value


@dataclass(frozen=True)
class Face:
    """CU-6: what one face shows; a face with nothing is blank (CU-31: not a hit)."""

    label: str
    coins: int = 0
    steps: int = 0
    credits: int = 0
    swords: int = 0
    team: bool = False
    special: bool = False

    @kept
    def blank(self) -> bool:
        return not (self.coins or self.steps or self.credits or self.swords or self.team or self.special)


@dataclass(frozen=True)
class DieType:
    id: str
    name_de: str
    kind: str
    """``start``, ``lead`` or ``ability``."""
    colour: str
    """The colour for rules (CU-85): grey for both start dice, black for the lead die."""
    shade: str | None
    count_total: int
    start_per_player: int
    cost: int | str | None
    """0 for grey, None for the lead die, ``"from_card"`` for ability dice."""
    buyable: bool
    faces: tuple[Face, ...]
    reference: bool

    @kept
    def by_label(self) -> dict[str, Face]:
        return {f.label: f for f in self.faces}

    @kept
    def odds(self) -> tuple[Fraction, Fraction, Fraction]:
        """(chance of a blank face, coins and steps on average): what one roll of this die brings (CU-31)."""
        n = len(self.faces)
        return (Fraction(sum(f.blank for f in self.faces), n), Fraction(sum(f.coins for f in self.faces), n),
                Fraction(sum(f.steps for f in self.faces), n))


@dataclass(frozen=True)
class Ability:
    id: str
    slot: str
    timing: str
    window: str | None
    event: str | None
    mandatory: bool
    gate: dict[str, Any] | None
    dice_used: int
    effects: tuple[dict[str, Any], ...]
    rule: str
    summary_en: str

    @kept
    def ops(self) -> frozenset[str]:
        """The ops of its effects (not those nested in them): whether a use can do anything now depends on them, and
        the rules ask for every active die at every moment."""
        return frozenset(effect["op"] for effect in self.effects)

    @property
    def known(self) -> bool:
        """CU-89: an ability whose text is not in the seed is resolved by the players with a manual adjustment."""
        return not any(effect["op"] == "unknown" for effect in self.effects)


@dataclass(frozen=True)
class Card:
    id: str
    name_de: str
    colour: str
    cost: int
    cost_is_reference: bool
    sword_tie_rule: str | None
    sword_tie_rule_is_reference: bool
    abilities: tuple[Ability, ...]


@dataclass(frozen=True)
class Space:
    id: str
    kind: str
    """``start``, ``finish``, ``open`` or ``water`` (CU-57)."""
    bonuses: tuple[dict[str, Any], ...]
    special: dict[str, Any] | None
    red_lines_passed: int
    x: float
    y: float


@dataclass(frozen=True)
class Track:
    """CU-57: spaces with an undirected adjacency; a shortcut's line is not an edge (CU-63)."""

    id: str
    name_de: str
    reference: bool
    start: str
    finish: str
    red_lines_per_lap: int
    spaces: dict[str, Space]
    neighbours: dict[str, tuple[str, ...]]
    distance: dict[str, int] = field(compare=False)
    """CU-147: fewest spaces from the start over every space, water too, shortcut lines not; the finish is 0."""
    to_finish: dict[str, int] = field(compare=False)
    """Fewest spaces to the finish: how far a runner still has to go (the bots' measure of progress)."""

    @kept
    def steps_from(self) -> dict[str, tuple[tuple[str, bool], ...]]:
        """Space -> (neighbour, whether it is water) of each space a step from it may enter, never the start (CU-60:
        only a placement puts a runner back on it): asked at every step of every walk the rules list."""
        return {space: tuple((there, self.spaces[there].kind == "water") for there in others if there != self.start)
                for space, others in self.neighbours.items()}

    @kept
    def walks_from(self) -> dict[str, tuple[tuple[str, bool, bool], ...]]:
        """``steps_from`` with whether the step only moves the runner (``rules._walks``): onto a space without a
        special that is not the finish (from any space but the finish, which places the runner first)."""
        return {space: tuple((there, water, self.spaces[there].special is None and there != self.finish)
                             for there, water in steps) for space, steps in self.steps_from.items()}


@dataclass(frozen=True)
class Race:
    id: str
    name_de: str
    series: str
    cards: dict[str, str] | None
    """Colour -> card id; None for the free race (the table picks one card per colour)."""
    segments: tuple[str, ...] | None
    """Track ids in order (CU-142); None for the free race (any track)."""
    laps: int


@dataclass(frozen=True)
class Kit:
    dice: dict[str, DieType]
    cards: dict[str, Card]
    tracks: dict[str, Track]
    races: dict[str, Race]
    fan_track: tuple[tuple[int, int], ...]
    """(credits, limit tokens) of fan spaces 0 (the grandstand) .. 13 (CU-10)."""
    fan_overflow_credits: int
    start_dice: dict[str, int]
    grey_stock: dict[int, dict[str, int]]
    """Players -> grey dice left in the stock after set-up (CU-17)."""
    base_draw_limit: int
    ability_colours: tuple[str, ...]

    @property
    def fan_last(self) -> int:
        return len(self.fan_track) - 1

    @kept
    def face_names(self) -> dict[str, tuple[str, ...]]:
        """Die type -> the name of each of its faces, in the order of its faces (a roll picks one of them)."""
        return {d.id: tuple(f"{d.id}/{f.label}" for f in d.faces) for d in self.dice.values()}

    @kept
    def face_draws(self) -> dict[str, tuple[tuple[str, ...], int, int]]:
        """Die type -> (its faces' names, how many, the bits that name every one): what a bot's roll draws a face
        from, as ``rng.choice`` would, worked out once and not for each of the ~70,000 dice a bench rolls."""
        return {kind: (names, len(names), len(names).bit_length()) for kind, names in self.face_names.items()}

    @kept
    def faces_named(self) -> dict[str, tuple[str, str]]:
        """``"<die type>/<face label>"`` -> (die type, face label) for every face the camera can read (RULES.md
        §19): each roll names its dice so."""
        return {f"{d.id}/{f.label}": (d.id, f.label) for d in self.dice.values() for f in d.faces}

    @kept
    def blank_faces(self) -> frozenset[tuple[str, str]]:
        """(die type, face label) of every blank face (CU-31): what a roll leaves in the ready zone."""
        return frozenset((d.id, f.label) for d in self.dice.values() for f in d.faces if f.blank)

    @kept
    def blank_names(self) -> frozenset[str]:
        """``blank_faces`` by the names a roll shows: a string keeps its hash, a (type, label) pair works it out
        again at every look-up of a roll's dice."""
        return frozenset(f"{kind}/{label}" for kind, label in self.blank_faces)

    def pool_odds(self, kinds: tuple[str, ...]) -> tuple[float, float, float]:
        """(the chance that every die of ``kinds``, sorted die types, shows a blank face, the coins and the steps
        they bring on average) of one roll (CU-31, CU-33), exact from the faces. Kept per pool: a greedy bot asks
        for every option it weighs, and Fractions are slow."""
        known = self._pool_odds.get(kinds)
        if known is None:  # exact sums and products as (numerator, denominator); int / int rounds correctly
            (blank, of), (coins, coins_of), (steps, steps_of) = (1, 1), (0, 1), (0, 1)
            for kind in kinds:
                (chance, chance_of), (die_coins, die_coins_of), (die_steps, die_steps_of) = self._odds_parts[kind]
                blank, of = blank * chance, of * chance_of
                coins, coins_of = coins * die_coins_of + die_coins * coins_of, coins_of * die_coins_of
                steps, steps_of = steps * die_steps_of + die_steps * steps_of, steps_of * die_steps_of
            known = self._pool_odds[kinds] = (blank / of, coins / coins_of, steps / steps_of)
        return known

    @kept
    def _odds_parts(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """Die type -> its ``odds`` as (numerator, denominator) pairs: a Fraction's parts are properties, slow to read
        for every die of every new pool."""
        return {kind: tuple((f.numerator, f.denominator) for f in die.odds) for kind, die in self.dice.items()}

    @kept
    def _pool_odds(self) -> dict[tuple[str, ...], tuple[float, float, float]]:
        return {}


def _distances(origin: str, neighbours: dict[str, tuple[str, ...]]) -> dict[str, int]:
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def build_track(track_id: str, name_de: str, reference: bool, layout: dict[str, Any]) -> Track:
    """A track from a layout of ``races.json`` (also how tests build their own small tracks)."""
    spaces = {s["id"]: Space(id=s["id"], kind=s["kind"], bonuses=tuple(s.get("bonuses") or ()),
                             special=s.get("special"), red_lines_passed=s.get("red_lines_passed", 0),
                             x=float(s.get("x", 0)), y=float(s.get("y", 0))) for s in layout["spaces"]}
    links: dict[str, list[str]] = {space: [] for space in spaces}
    for a, b in layout["edges"]:
        if b not in links[a]:
            links[a].append(b)
            links[b].append(a)
    neighbours = {space: tuple(others) for space, others in links.items()}
    return Track(id=track_id, name_de=name_de, reference=reference, start=layout["start"], finish=layout["finish"],
                 red_lines_per_lap=layout.get("red_lines_per_lap", 0), spaces=spaces, neighbours=neighbours,
                 distance={**_distances(layout["start"], neighbours), layout["finish"]: 0},  # CU-147: finish is 0
                 to_finish=_distances(layout["finish"], neighbours))


def _face(data: dict[str, Any]) -> Face:
    return Face(label=data["label"], **{k: data[k] for k in ("coins", "steps", "credits", "swords", "team", "special")
                                        if k in data})


def kit_from(dice: dict[str, Any], cards: dict[str, Any], races: dict[str, Any]) -> Kit:
    """The kit from the three files' contents, checked; each error names its file and field."""
    check_dice(dice, "dice.json")
    check_cards(cards, "cards.json")
    check_races(races, "races.json")
    check_kit(dice, cards, races)
    die_types = {d["id"]: DieType(id=d["id"], name_de=d["name_de"], kind=d["kind"], colour=d["colour"],
                                  shade=d.get("shade"), count_total=d["count_total"],
                                  start_per_player=d["start_per_player"], cost=d["cost"], buyable=d["buyable"],
                                  faces=tuple(_face(f) for f in d["faces"]), reference=d["reference"])
                 for d in dice["dice"]}
    card_map = {c["id"]: Card(id=c["id"], name_de=c["name_de"], colour=c["colour"], cost=c["cost"],
                              cost_is_reference=c["cost_is_reference"], sword_tie_rule=c.get("sword_tie_rule"),
                              sword_tie_rule_is_reference=c.get("sword_tie_rule_is_reference", False),
                              abilities=tuple(Ability(id=a["id"], slot=a["slot"], timing=a["timing"],
                                                      window=a.get("window"), event=a.get("event"),
                                                      mandatory=a["mandatory"], gate=a.get("gate"),
                                                      dice_used=a.get("dice_used", 1),
                                                      effects=tuple(a["effects"]), rule=a["rule"],
                                                      summary_en=a.get("summary_en", ""))
                                              for a in c["abilities"]))
                for c in cards["cards"]}
    tracks = {t["id"]: build_track(t["id"], t["name_de"], t["reference"], races["layouts"][t["layout"]])
              for t in races["tracks"]}
    race_map = {r["id"]: Race(id=r["id"], name_de=r["name_de"], series=r["series"], cards=r.get("cards"),
                              segments=tuple(r["segments"]) if r.get("segments") else None, laps=r["laps"])
                for r in races["races"]}
    fan = races["fan_track"]
    rewards = [(0, 0)] * (len(fan["spaces"]) + 1)
    for space in fan["spaces"]:
        rewards[space["n"]] = (space["credits"], space["limit_tokens"])
    setup = races["setup"]
    return Kit(dice=die_types, cards=card_map, tracks=tracks, races=race_map, fan_track=tuple(rewards),
               fan_overflow_credits=fan["overflow_credits_per_space"], start_dice=dict(setup["start_dice_per_player"]),
               grey_stock={int(n): dict(stock) for n, stock in setup["grey_stock_by_players"].items()},
               base_draw_limit=setup["base_draw_limit"],
               ability_colours=tuple(d.colour for d in die_types.values() if d.kind == "ability"))


def read_data(name: str) -> dict[str, Any]:
    return json.loads(resources.files("companion.games.cubitos").joinpath("data", name).read_text("utf-8"))


@cache
def load_kit() -> Kit:
    return kit_from(read_data("dice.json"), read_data("cards.json"), read_data("races.json"))
