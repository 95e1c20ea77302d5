"""The contents of the Cubitos box, read from ``data/`` and checked at load (``schema.py``).

Much of it is not in the rulebook text: the ability dice's faces, card costs, the red cards' tie rules, the fan
track's rewards and every track layout are placeholders marked ``reference``. A table with the printed material
edits the data files; nothing here or in the rules hard-codes those values.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from math import prod
from typing import Any

from companion.games.cubitos.schema import check_cards, check_dice, check_kit, check_races
from companion.games.datafile import read_data, record

LEAD = "lead"


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

    @property
    def blank(self) -> bool:
        return not (self.coins or self.steps or self.credits or self.swords or self.team or self.special)


@dataclass(frozen=True)
class DieType:
    id: str
    kind: str
    """``start``, ``lead`` or ``ability``."""
    colour: str
    """The colour for rules (CU-85): grey for both start dice, black for the lead die."""
    shade: str | None
    count_total: int
    faces: tuple[Face, ...]
    reference: bool

    @cached_property
    def by_label(self) -> dict[str, Face]:
        return {f.label: f for f in self.faces}

    @cached_property
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

    @property
    def ops(self) -> frozenset[str]:
        """The ops of its effects (not those nested in them)."""
        return frozenset(effect["op"] for effect in self.effects)

    @cached_property
    def all_ops(self) -> frozenset[str]:
        """The ops of its effects and of those nested in them (``then``, ``options``)."""
        return _ops(self.effects)

    @property
    def known(self) -> bool:
        """CU-89: an ability whose text is not in the seed is resolved by the players with a manual adjustment."""
        return "unknown" not in self.ops


def _ops(effects: Any) -> frozenset[str]:
    found: set[str] = set()
    for effect in effects:
        found |= {effect["op"], *_ops(effect.get("then", []))}
        for option in effect.get("options", []):
            found |= _ops(option)
    return frozenset(found)


PLAYED_OPS = frozenset({"gain", "gain_per", "if_active_colour", "choose_one", "gain_fan", "give_back", "take_die",
                        "water_steps", "repeat_grey_yield", "self_to_ready", "other_active_to_ready",
                        "prevent_bust", "ignore_bust", "keep_active_on_bust", "immediate_step", "remote_bonus",
                        "give_back_if_took_credit", "credits_if_gave_back", "ready_die_to_active_choose_face",
                        "give_die_to_fewest_swords", "refill_next_round", "add_dice", "distinct_colour_roll",
                        "grey_rescue_roll", "must_push"})
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


def played(ability: Ability) -> bool:
    """Whether the rules carry the ability out (else the table adjusts by hand, CU-89)."""
    return ability.all_ops <= PLAYED_OPS


@dataclass(frozen=True)
class Card:
    id: str
    colour: str
    cost: int
    cost_is_reference: bool
    sword_tie_rule: str | None
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


@dataclass(frozen=True)
class Race:
    id: str
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
    """Die type -> how many each player starts with (CU-14); the stock keeps the rest (CU-17)."""
    base_draw_limit: int
    ability_colours: tuple[str, ...]

    @cached_property
    def face_names(self) -> dict[str, tuple[str, ...]]:
        """Die type -> the name of each of its faces as a roll shows it, ``"<die type>/<face label>"``."""
        return {d.id: tuple(f"{d.id}/{f.label}" for f in d.faces) for d in self.dice.values()}

    def pool_odds(self, kinds: Iterable[str]) -> tuple[Fraction, Fraction, Fraction]:
        """(the chance that every die of ``kinds`` (die types) shows a blank face, the coins and the steps they bring
        on average) of one roll (CU-31, CU-33), exact from the faces."""
        odds = [self.dice[kind].odds for kind in kinds]
        return prod((o[0] for o in odds), start=Fraction(1)), sum(o[1] for o in odds), sum(o[2] for o in odds)


def grants(kit: Kit, cards: dict[str, Card]) -> dict[tuple[str, str, str], tuple[Ability, ...]]:
    """(die type, face label, moment) -> the abilities of the card in play that the face may grant at that moment
    (CU-75): through the team or special symbol, the special ones only through the special symbol, none gated by
    swords (those belong to the player, CU-46), the abilities the rules do not play only in phase 5 (CU-89), the
    others in their window (``WINDOWS``; event abilities for the push without bust, CU-40)."""
    found = {}
    for kind in kit.dice.values():
        card = cards.get(kind.colour)
        for shown in kind.faces if card is not None else ():
            for moment, window in WINDOWS.items() if shown.team or shown.special else ():
                abilities = tuple(
                    ability for ability in card.abilities
                    if (ability.slot != "special" or shown.special) and not (ability.gate and "swords" in ability.gate)
                    and (moment == "phase5" if not played(ability) else (ability.timing, ability.window) in window
                         and (moment != "event" or ability.event == "push_without_bust")))
                if abilities:
                    found[(kind.id, shown.label, moment)] = abilities
    return found


def steps_from(origin: str, neighbours: dict[str, tuple[str, ...]]) -> dict[str, int]:
    """Space -> fewest steps from ``origin`` over every space (water too; a shortcut's line is no edge, CU-63)."""
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def build_track(track_id: str, reference: bool, layout: dict[str, Any]) -> Track:
    """A track from a layout of ``races.json`` (also how tests build their own small tracks)."""
    spaces = {s["id"]: Space(id=s["id"], kind=s["kind"], bonuses=tuple(s.get("bonuses") or ()),
                             special=s.get("special"), red_lines_passed=s.get("red_lines_passed", 0),
                             x=float(s.get("x", 0)), y=float(s.get("y", 0))) for s in layout["spaces"]}
    edges = layout["edges"]
    neighbours = {s: tuple(dict.fromkeys(b if a == s else a for a, b in edges if s in (a, b))) for s in spaces}
    return Track(id=track_id, reference=reference, start=layout["start"], finish=layout["finish"],
                 red_lines_per_lap=layout.get("red_lines_per_lap", 0), spaces=spaces, neighbours=neighbours,
                 distance={**steps_from(layout["start"], neighbours), layout["finish"]: 0},  # CU-147: finish is 0
                 to_finish=steps_from(layout["finish"], neighbours))


def kit_from(dice: dict[str, Any], cards: dict[str, Any], races: dict[str, Any]) -> Kit:
    """The kit from the three files' contents, checked; each error names its file and field."""
    check_dice(dice, "dice.json")
    check_cards(cards, "cards.json")
    check_races(races, "races.json")
    check_kit(dice, cards, races)
    die_types = {d["id"]: record(DieType, d, faces=tuple(Face(**{k: f[k] for k in Face.__annotations__ if k in f})
                                                          for f in d["faces"]))
                 for d in dice["dice"]}
    card_map = {c["id"]: record(Card, c, abilities=tuple(record(Ability, a, dice_used=a.get("dice_used", 1),
                                                                  effects=tuple(a["effects"]))
                                                          for a in c["abilities"]))
                for c in cards["cards"]}
    tracks = {t["id"]: build_track(t["id"], t["reference"], races["layouts"][t["layout"]])
              for t in races["tracks"]}
    race_map = {r["id"]: record(Race, r, segments=tuple(r["segments"]) if r.get("segments") else None)
                for r in races["races"]}
    fan = races["fan_track"]
    rewards = ((0, 0), *((space["credits"], space["limit_tokens"]) for space in fan["spaces"]))  # spaces 1.. in order
    setup = races["setup"]
    return Kit(dice=die_types, cards=card_map, tracks=tracks, races=race_map, fan_track=rewards,
               fan_overflow_credits=fan["overflow_credits_per_space"], start_dice=dict(setup["start_dice_per_player"]),
               base_draw_limit=setup["base_draw_limit"],
               ability_colours=tuple(d.colour for d in die_types.values() if d.kind == "ability"))


@cache
def load_kit() -> Kit:
    return kit_from(*(read_data(__package__, name) for name in ("dice.json", "cards.json", "races.json")))
