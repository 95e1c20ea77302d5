"""The dice-set registry: which labels a set has, which symbol each face carries, which colours dice come in.

The registry is data (`dice_sets.json`) so that a new game's dice are a new entry, not new code.
`register_dice_set` adds one at run time. A set whose dice are a game's own reads its labels from the game's data
file (`labels_from`), so the classes stay in one place: Cubitos (die type x face: labels "<die id>/<face label>" of
companion/games/cubitos/data/dice.json, each die type with its own body colour and six faces, the pictures drawn
from the face fields) and Automobiles (plain cubes, colour only: the cube ids of
companion/games/automobiles/data/cubes.json). Reading a file is not importing: vision never imports companion.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REGISTRY_FILE = Path(__file__).with_name("dice_sets.json")
# `labels_from` files are named from here: vision/ and companion/ lie side by side in the repository and when installed
PACKAGES_ROOT = Path(__file__).resolve().parents[2]

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
    # how one die's body colour strays from `body`: brightness x uniform(lo, hi), plus noise of this many grey levels.
    # The default is for dice of many makers; a game's own dice and cubes come from one batch and say so
    spread: tuple[float, float, float] = (0.85, 1.12, 8.0)


@dataclass(frozen=True)
class DiceSet:
    name: str
    labels: tuple[str, ...]
    faces: tuple[str, ...]  # the six faces of one die, as labels (a label may appear twice)
    symbols: dict[str, tuple[str, ...]]  # label -> symbols that may be drawn for it
    palettes: tuple[str, ...]
    label_palettes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # label -> allowed body palettes
    description: str = ""
    label_faces: dict[str, tuple[str, ...]] = field(default_factory=dict)  # label -> the six faces of its die
    # pairs of labels or die types ("<die id>" stands for all its "<die id>/..." labels) a camera may mix up
    confusable: tuple[tuple[str, str], ...] = ()
    source: str = ""  # the data file the labels were read from
    opposites: dict[str, str] = field(default_factory=dict)  # label -> the label on the opposite face, where known

    def palettes_for(self, label: str) -> tuple[str, ...]:
        return self.label_palettes.get(label, self.palettes)

    def faces_of(self, label: str) -> tuple[str, ...]:
        """The six faces of the die that shows `label` (its sides are drawn from the others)."""
        return self.label_faces.get(label, self.faces)

    def side_symbols(self, label: str, rng: np.random.Generator, varied: bool = True) -> tuple[list[str], str | None]:
        """(sides, bottom): the symbols of a die showing `label` other than its top, in a random order, which
        `paint_die` draws around the top face, and the face it lies on where the set knows its `opposites`. Such a
        die is a cube: its bottom is never a side and side i is across from side i + 2. `varied`: each face's symbol
        drawn among its symbols, else its first."""
        faces = [f for f in self.faces_of(label) if f != label]
        symbols = [self.symbols[f][int(rng.integers(len(self.symbols[f])))] if varied else self.symbols[f][0]
                   for f in faces]
        order = list(range(len(faces)))
        rng.shuffle(order)
        if label not in self.opposites:
            return [symbols[k] for k in order] or ["blank"], None
        at = {faces[k]: k for k in order}
        opposite, bottom = self.opposites, self.opposites[label]
        a = next(f for f in at if f != bottom)
        b = next(f for f in at if f not in (a, opposite[a], bottom))
        return [symbols[at[f]] for f in (a, b, opposite[a], opposite[b])], symbols[at[bottom]]

    def labels_of(self, name: str) -> tuple[str, ...]:
        """The labels a confusable-pair name stands for: the label itself, or every face of a die type."""
        return tuple(x for x in self.labels if x == name or x.startswith(name + "/"))

    def check_label(self, label: str) -> None:
        if label not in self.labels:
            raise UnknownDiceSet(f"label {label!r} is not in dice set {self.name!r}; labels: {list(self.labels)}")


_PALETTES: dict[str, Palette] = {}
_SETS: dict[str, DiceSet] = {}


def _as_tuple(value: str | list[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def register_palette(name: str, body: BGR, inks: list[BGR], marble: BGR | None = None, opacity: float = 1.0,
                     spread: tuple[float, float, float] | None = None) -> None:
    _PALETTES[name] = Palette(name, tuple(body), tuple(tuple(i) for i in inks), tuple(marble) if marble else None,
                              float(opacity), tuple(spread) if spread else Palette.spread)


def face_symbol(face: dict) -> str:
    """The picture of a Cubitos face from its fields (dice.json `face_fields`): the team or special symbol, then
    coins, steps, credits and swords (swords only where no team symbol carries them), "+"-joined; "blank" if none."""
    parts = [kind for kind in ("team", "special") if face.get(kind)]
    for kind, key in (("coin", "coins"), ("step", "steps"), ("credit", "credits")):
        if face.get(key, 0) > 0:
            parts.append(f"{kind}{face[key]}")
    if face.get("swords", 0) > 0 and not parts:
        parts.append(f"sword{face['swords']}")
    return "+".join(parts) or "blank"


def _cubitos_dice(data: dict, colour_palettes: dict[str, str]) -> dict:
    """dice.json -> a set spec: one label per distinct (die id, face label), that die's body colour and faces."""
    labels: list[str] = []
    symbols: dict[str, list[str]] = {}
    label_faces: dict[str, list[str]] = {}
    label_palettes: dict[str, str] = {}
    for die in data["dice"]:
        colour = die["colour"] + (f"/{die['shade']}" if die.get("shade") else "")
        if colour not in colour_palettes:
            raise UnknownDiceSet(f"die {die['id']!r}: no palette for colour {colour!r}; "
                                 f"known: {sorted(colour_palettes)}")
        faces = [f"{die['id']}/{face['label']}" for face in die["faces"]]
        for label, face in zip(faces, die["faces"], strict=True):
            if label not in symbols:
                labels.append(label)
                symbols[label] = []
            if face_symbol(face) not in symbols[label]:
                symbols[label].append(face_symbol(face))
            label_faces[label] = faces
            label_palettes[label] = colour_palettes[colour]
    return {"labels": labels, "symbols": symbols, "label_faces": label_faces, "label_palettes": label_palettes}


def _automobiles_cubes(data: dict, colour_palettes: dict[str, str]) -> dict:
    """cubes.json -> a set spec: one label per cube id, a plain cube of its colour, the file's confusable pairs."""
    labels = [cube["id"] for cube in data["cubes"]]
    missing = [x for x in labels if x not in colour_palettes]
    if missing:
        raise UnknownDiceSet(f"cubes {missing} have no palette; known: {sorted(colour_palettes)}")
    return {"labels": labels, "symbols": dict.fromkeys(labels, "blank"),
            "label_palettes": {x: colour_palettes[x] for x in labels},
            "confusable": data.get("camera", {}).get("confusable_pairs", [])}


LABEL_FORMATS: dict[str, Callable[[dict, dict[str, str]], dict]] = {
    "cubitos_dice": _cubitos_dice,
    "automobiles_cubes": _automobiles_cubes,
}


def _read_labels(spec: dict) -> dict:
    """A spec with `labels_from` completed from its data file (labels, pictures, palettes, pairs)."""
    source = spec["labels_from"]
    path = PACKAGES_ROOT / source["file"]
    if source["format"] not in LABEL_FORMATS:
        raise UnknownDiceSet(f"unknown labels_from format {source['format']!r}; known: {sorted(LABEL_FORMATS)}")
    read = LABEL_FORMATS[source["format"]](json.loads(path.read_text(encoding="utf-8")), spec["colour_palettes"])
    palettes = list(dict.fromkeys(read["label_palettes"].values()))
    return {"palettes": palettes, **spec, **read, "confusable": spec.get("confusable", read.get("confusable", [])),
            "source": source["file"]}


def register_dice_set(name: str, spec: dict) -> DiceSet:
    """Add (or replace) a dice set from a dict shaped like an entry of `dice_sets.json` "sets"."""
    if "labels_from" in spec:
        spec = _read_labels(spec)
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
        label_faces={k: tuple(v) for k, v in spec.get("label_faces", {}).items()},
        confusable=tuple((a, b) for a, b in spec.get("confusable", [])),
        source=spec.get("source", ""),
        opposites={a: b for pair in spec.get("opposites", []) for a, b in (pair, pair[::-1])},
    )
    for label in dice_set.opposites:
        dice_set.check_label(label)
    for pal in dice_set.palettes + tuple(p for ps in dice_set.label_palettes.values() for p in ps):
        if pal not in _PALETTES:
            raise UnknownDiceSet(f"dice set {name!r} uses unknown palette {pal!r}; palettes: {sorted(_PALETTES)}")
    _SETS[name] = dice_set
    return dice_set


def _load_registry() -> None:
    data = json.loads(REGISTRY_FILE.read_text(encoding="utf-8"))
    for name, pal in data["palettes"].items():
        register_palette(name, pal["body"], pal["inks"], pal.get("marble"), pal.get("opacity", 1.0), pal.get("spread"))
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
