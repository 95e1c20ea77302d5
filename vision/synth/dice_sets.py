"""The dice-set registry: which labels a set has, which symbol each face carries, which colours dice come in.

The registry is data (`dice_sets.json`) so that Cubitos (colour x face: labels like "red:3" with a
`label_palettes` entry fixing the body colour) and Automobiles (colour only: every label draws any of the set's
symbols on a fixed body colour) are new entries, not new code. `register_dice_set` adds one at run time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

REGISTRY_FILE = Path(__file__).with_name("dice_sets.json")

BGR = tuple[int, int, int]


class UnknownDiceSet(KeyError):
    """The dice set or label is not in the registry; the message lists what is."""


@dataclass(frozen=True)
class Palette:
    name: str
    body: BGR
    inks: tuple[BGR, ...]
    marble: BGR | None = None  # a second body colour swirled into the first
    opacity: float = 1.0  # < 1: translucent body (ink stays opaque)


@dataclass(frozen=True)
class DiceSet:
    name: str
    labels: tuple[str, ...]
    faces: tuple[str, ...]  # the six faces of one die, as labels (a label may appear twice)
    symbols: dict[str, tuple[str, ...]]  # label -> symbols that may be drawn for it
    palettes: tuple[str, ...]
    label_palettes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # label -> allowed body palettes
    description: str = ""

    def palettes_for(self, label: str) -> tuple[str, ...]:
        return self.label_palettes.get(label, self.palettes)

    def check_label(self, label: str) -> None:
        if label not in self.labels:
            raise UnknownDiceSet(f"label {label!r} is not in dice set {self.name!r}; labels: {list(self.labels)}")


_PALETTES: dict[str, Palette] = {}
_SETS: dict[str, DiceSet] = {}


def _as_tuple(value: str | list[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def register_palette(name: str, body: BGR, inks: list[BGR], marble: BGR | None = None, opacity: float = 1.0) -> None:
    _PALETTES[name] = Palette(name, tuple(body), tuple(tuple(i) for i in inks), tuple(marble) if marble else None,
                              float(opacity))


def register_dice_set(name: str, spec: dict) -> DiceSet:
    """Add (or replace) a dice set from a dict shaped like an entry of `dice_sets.json` "sets"."""
    labels = tuple(spec["labels"])
    symbols = {label: _as_tuple(spec["symbols"][label]) for label in labels}
    dice_set = DiceSet(
        name=name,
        labels=labels,
        faces=tuple(spec.get("faces", labels)),
        symbols=symbols,
        palettes=tuple(spec["palettes"]),
        label_palettes={k: _as_tuple(v) for k, v in spec.get("label_palettes", {}).items()},
        description=spec.get("description", ""),
    )
    for pal in dice_set.palettes + tuple(p for ps in dice_set.label_palettes.values() for p in ps):
        if pal not in _PALETTES:
            raise UnknownDiceSet(f"dice set {name!r} uses unknown palette {pal!r}; palettes: {sorted(_PALETTES)}")
    _SETS[name] = dice_set
    return dice_set


def _load_registry() -> None:
    data = json.loads(REGISTRY_FILE.read_text(encoding="utf-8"))
    for name, pal in data["palettes"].items():
        register_palette(name, pal["body"], pal["inks"], pal.get("marble"), pal.get("opacity", 1.0))
    for name, spec in data["sets"].items():
        register_dice_set(name, spec)


def get_dice_set(name: str) -> DiceSet:
    if name not in _SETS:
        raise UnknownDiceSet(f"unknown dice set {name!r}; known: {sorted(_SETS)}")
    return _SETS[name]


def get_palette(name: str) -> Palette:
    if name not in _PALETTES:
        raise UnknownDiceSet(f"unknown palette {name!r}; known: {sorted(_PALETTES)}")
    return _PALETTES[name]


def dice_set_names() -> list[str]:
    return sorted(_SETS)


def palette_names() -> list[str]:
    return sorted(_PALETTES)


_load_registry()
