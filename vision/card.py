"""Model cards: the JSON file beside each ONNX classifier that says how to feed it and what its outputs mean.

A card is the one contract between training (`vision.train`), classification (`vision.classify`) and
teach-your-dice (`vision.enrol`): labels, input size, colour order and normalisation live here, never in code.
`CardModel` (``card.open()``) is the one way to run a card's model, so every user feeds it the same way.

Example card (``models/d6.json``)::

    {"name": "d6", "dice_set": "d6", "format": 1, "model": "d6.onnx",
     "labels": ["1", "2", "3", "4", "5", "6"],
     "input": {"name": "input", "size": [32, 32], "color": "BGR", "layout": "NCHW",
               "scale": 0.00392156862745098, "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]},
     "outputs": {"logits": "logits", "embedding": "embedding"},
     "trained_on": {...}, "accuracy": {...}}

>>> card = load_card("models/d6.json")          # doctest: +SKIP
>>> batch = card.preprocess([crop1, crop2])     # doctest: +SKIP
float32 array of shape [2, 3, 32, 32]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

CARD_FORMAT = 1


class CardError(ValueError):
    """A model card is missing, unreadable or wrong; the message names the file and the field."""

    def __init__(self, path: str | Path, field_name: str, problem: str) -> None:
        self.path = str(path)
        self.field = field_name
        self.problem = problem
        super().__init__(f"{self.path}: field '{field_name}': {problem}")


@dataclass(frozen=True)
class CardInput:
    name: str
    size: tuple[int, int]  # (height, width)
    color: str
    layout: str
    scale: float
    mean: tuple[float, float, float]
    std: tuple[float, float, float]
    tta: str = "none"  # test-time views averaged per die: see TTA_VIEWS


# Test-time augmentation a card may declare as `input.tta`: every crop is also classified turned (and mirrored),
# all views in the same inference call, and the softmax is averaged. A die face reads the same under these turns,
# so the views disagree only where the model is unsure; averaging them removed errors on validation photos.
# "quarter_turns": the 4 quarter turns (any symbol); "dihedral": those plus their mirror images (8 views; only
# for mirror-symmetric faces such as pips).
TTA_VIEWS = {"none": 1, "quarter_turns": 4, "dihedral": 8}


@dataclass(frozen=True)
class Card:
    """A validated model card; `model_path` is resolved relative to the card's own folder."""

    path: Path
    name: str
    dice_set: str
    format: int
    model: str
    labels: tuple[str, ...]
    input: CardInput
    outputs: dict[str, str]
    trained_on: dict[str, Any] = field(default_factory=dict)
    accuracy: dict[str, Any] = field(default_factory=dict)

    @property
    def model_path(self) -> Path:
        return self.path.parent / self.model

    @property
    def input_size(self) -> tuple[int, int]:
        return self.input.size

    def preprocess(self, crops: list[np.ndarray]) -> np.ndarray:
        """BGR uint8 crops (any square-ish size) -> float32 [N, 3, H, W] batch exactly as the model was trained.

        Crops that are not at the model's input size are resized (INTER_AREA when shrinking, linear otherwise).
        """
        return preprocess(crops, self.input)

    def open(self, threads: int | None = 1) -> CardModel:
        """The model in onnxruntime (`threads` intra-op threads, None: onnxruntime chooses); raises `ModelError`
        when the model file is missing or unusable."""
        return CardModel(self, threads)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "dice_set": self.dice_set,
            "format": self.format,
            "model": self.model,
            "labels": list(self.labels),
            "input": {
                "name": self.input.name,
                "size": list(self.input.size),
                "color": self.input.color,
                "layout": self.input.layout,
                "scale": self.input.scale,
                "mean": list(self.input.mean),
                "std": list(self.input.std),
                **({"tta": self.input.tta} if self.input.tta != "none" else {}),
            },
            "outputs": dict(self.outputs),
            "trained_on": self.trained_on,
            "accuracy": self.accuracy,
        }


def preprocess(crops: list[np.ndarray], spec: CardInput) -> np.ndarray:
    """The single implementation of `x = ((crop * scale) - mean) / std` in NCHW; see `Card.preprocess`."""
    h, w = spec.size
    batch = np.empty((len(crops), h, w, 3), dtype=np.float32)
    for i, crop in enumerate(crops):
        if crop.ndim != 3 or crop.shape[2] != 3:
            raise ValueError(f"crop {i}: expected an HxWx3 BGR image, got shape {crop.shape}")
        if crop.shape[:2] != (h, w):
            shrink = crop.shape[0] > h or crop.shape[1] > w
            crop = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
        batch[i] = crop
    if spec.color == "RGB":
        batch = batch[..., ::-1]
    mean = np.asarray(spec.mean, dtype=np.float32)
    std = np.asarray(spec.std, dtype=np.float32)
    batch = (batch * np.float32(spec.scale) - mean) / std
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))


def tta_views(batch: np.ndarray, tta: str) -> np.ndarray:
    """[N, C, H, W] -> [V * N, C, H, W]: view v of crop i is row v * N + i (see TTA_VIEWS)."""
    if tta == "none":
        return batch
    views = [np.rot90(batch, q, axes=(2, 3)) for q in range(4)]
    if tta == "dihedral":
        views += [v[..., ::-1] for v in views]
    return np.ascontiguousarray(np.concatenate(views))


def merge_views(logits: np.ndarray, embedding: np.ndarray | None, n_views: int
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """Undo `tta_views`: logits become log(mean softmax over the views) (so softmax of them is the averaged
    probability), embeddings (if any) the mean embedding."""
    if n_views == 1:
        return logits, embedding
    n = len(logits) // n_views
    z = logits.reshape(n_views, n, -1).astype(np.float64)
    p = np.exp(z - z.max(axis=2, keepdims=True))
    p /= p.sum(axis=2, keepdims=True)
    merged = np.log(p.mean(axis=0) + 1e-12).astype(np.float32)
    if embedding is not None:
        embedding = embedding.reshape(n_views, n, -1).mean(axis=0).astype(np.float32)
    return merged, embedding


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path, prefix: str = "") -> Any:
    name = f"{prefix}{key}"
    if key not in data:
        raise CardError(path, name, "missing")
    value = data[key]
    if kind in (int, float, (int, float)) and isinstance(value, bool):
        raise CardError(path, name, f"expected a number, got {value!r}")
    if not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise CardError(path, name, f"expected {expected}, got {type(value).__name__} {value!r}")
    return value


def _triple(data: dict[str, Any], key: str, path: Path, positive: bool) -> tuple[float, float, float]:
    values = _require(data, key, list, path, "input.")
    ok = len(values) == 3 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if not ok or not all(math.isfinite(v) for v in values):
        raise CardError(path, f"input.{key}", f"expected 3 finite numbers (one per channel), got {values!r}")
    if positive and any(v <= 0 for v in values):
        raise CardError(path, f"input.{key}", f"must be > 0, got {values!r}")
    return (float(values[0]), float(values[1]), float(values[2]))


def parse_card(data: Any, path: str | Path = "<card>") -> Card:
    """Validate an already-decoded card; `path` is used in messages and to resolve the model file."""
    path = Path(path)
    if not isinstance(data, dict):
        raise CardError(path, "<top>", f"expected a JSON object, got {type(data).__name__}")
    fmt = _require(data, "format", int, path)
    if fmt != CARD_FORMAT:
        raise CardError(path, "format", f"unsupported format {fmt}; this version reads format {CARD_FORMAT}")
    name = _require(data, "name", str, path)
    dice_set = _require(data, "dice_set", str, path)
    model = _require(data, "model", str, path)
    if not model.endswith(".onnx"):
        raise CardError(path, "model", f"expected an .onnx file name, got {model!r}")
    labels = _require(data, "labels", list, path)
    if len(labels) < 2 or not all(isinstance(x, str) and x for x in labels):
        raise CardError(path, "labels", f"expected at least 2 non-empty strings, got {labels!r}")
    if len(set(labels)) != len(labels):
        raise CardError(path, "labels", f"labels must be distinct, got {labels!r}")

    inp = _require(data, "input", dict, path)
    size = _require(inp, "size", list, path, "input.")
    if len(size) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and 8 <= v <= 512 for v in size):
        raise CardError(path, "input.size", f"expected [height, width] integers in 8..512, got {size!r}")
    color = _require(inp, "color", str, path, "input.")
    if color not in ("BGR", "RGB"):
        raise CardError(path, "input.color", f"expected 'BGR' or 'RGB', got {color!r}")
    layout = _require(inp, "layout", str, path, "input.")
    if layout != "NCHW":
        raise CardError(path, "input.layout", f"only 'NCHW' is supported, got {layout!r}")
    scale = _require(inp, "scale", (int, float), path, "input.")
    if not (math.isfinite(scale) and scale > 0):
        raise CardError(path, "input.scale", f"must be a positive number, got {scale!r}")
    tta = inp.get("tta", "none")
    if tta not in TTA_VIEWS:
        raise CardError(path, "input.tta", f"expected one of {sorted(TTA_VIEWS)}, got {tta!r}")
    card_input = CardInput(
        name=_require(inp, "name", str, path, "input."),
        size=(size[0], size[1]),
        color=color,
        layout=layout,
        scale=float(scale),
        mean=_triple(inp, "mean", path, positive=False),
        std=_triple(inp, "std", path, positive=True),
        tta=tta,
    )

    outputs = _require(data, "outputs", dict, path)
    for key in ("logits", "embedding"):
        if not isinstance(outputs.get(key), str):
            raise CardError(path, f"outputs.{key}", "missing: the name of the ONNX output tensor")
    trained_on = data.get("trained_on", {})
    accuracy = data.get("accuracy", {})
    for key, value in (("trained_on", trained_on), ("accuracy", accuracy)):
        if not isinstance(value, dict):
            raise CardError(path, key, f"expected an object, got {type(value).__name__}")
    return Card(
        path=path,
        name=name,
        dice_set=dice_set,
        format=fmt,
        model=model,
        labels=tuple(labels),
        input=card_input,
        outputs={k: str(v) for k, v in outputs.items()},
        trained_on=trained_on,
        accuracy=accuracy,
    )


def load_card(path: str | Path) -> Card:
    """Read and validate `models/<set>.json`; raises `CardError` (a ValueError) naming the file and the field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardError(path, "<file>", f"cannot read the card: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardError(path, "<json>", f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    return parse_card(data, path)


def save_card(card: Card, path: str | Path | None = None) -> Path:
    """Write the card as indented JSON (to its own path unless told otherwise)."""
    target = Path(path) if path is not None else card.path
    target.write_text(json.dumps(card.to_dict(), indent=2) + "\n", encoding="utf-8")
    return target


class ModelError(ValueError):
    """A model file is missing, corrupt or does not match its card; the message names the file."""


class CardModel:
    """The card's ONNX model in onnxruntime: crops in, (logits [N, C], embedding [N, D]) out.

    The one place a card's model is opened and run (`vision.classify`, `vision.enrol`, `vision.evaluate` and the
    benchmarks all come here), so they all feed it the same way: the card's test-time views (`input.tta`) go into
    the same call and are merged per crop, and a model exported with a fixed batch of 1 gets one call per row.
    `threads=1` keeps it on one core (the Pi shares cores with the camera, the web server and the capture
    thread); None lets onnxruntime choose. `InferenceSession.run` is thread-safe, so one CardModel can serve the
    camera thread and the teach page at once.

    >>> model = load_card("models/d6.json").open(threads=1)     # doctest: +SKIP
    >>> logits, embedding = model.run([crop])                    # doctest: +SKIP
    """

    def __init__(self, card: Card, threads: int | None = 1) -> None:
        import onnxruntime as ort  # imported here so `vision` imports without it (e.g. for calibration)

        self.card = card
        path = Path(card.model_path)
        if not path.is_file():
            raise ModelError(f"{path}: model file named by card {card.path} is missing")
        options = ort.SessionOptions()
        if threads is not None:
            options.intra_op_num_threads = int(threads)
            options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph types; all mean "unusable file"
            raise ModelError(f"{path}: not a usable ONNX model ({str(exc).splitlines()[0][:200]})") from None
        inputs = self.session.get_inputs()
        # A model exported by hand may name its input differently from the card; it has only one anyway.
        self.input_name = card.input.name if card.input.name in {i.name for i in inputs} else inputs[0].name
        outputs = {o.name for o in self.session.get_outputs()}
        self.logits_name = card.outputs["logits"]
        if self.logits_name not in outputs:
            raise ModelError(f"{path}: has no output {self.logits_name!r} (card {card.path}, field outputs.logits); "
                             f"outputs are {sorted(outputs)}")
        self.embedding_name = card.outputs["embedding"]
        batch_dim = inputs[0].shape[0] if inputs[0].shape else None
        self.fixed_batch = batch_dim if isinstance(batch_dim, int) and batch_dim > 0 else None

    def run_batch(self, batch: np.ndarray, embedding: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """Already preprocessed float32 [N, 3, H, W] -> (logits, embedding), with the card's test-time views
        (`input.tta`) in the same call and merged per crop.

        `embedding=False` fetches the logits alone (embedding None): the live classifier without an enrolment
        has no use for the embedding and need not pay for copying it out.
        """
        tta = self.card.input.tta
        views = tta_views(batch, tta)
        names = [self.logits_name, self.embedding_name] if embedding else [self.logits_name]
        if self.fixed_batch == 1:  # a model exported without a dynamic batch axis: one call per row
            runs = [self.session.run(names, {self.input_name: views[i:i + 1]}) for i in range(len(views))]
            outputs = [np.concatenate([run[k] for run in runs]) for k in range(len(names))]
        else:
            outputs = self.session.run(names, {self.input_name: views})
        logits = np.asarray(outputs[0], np.float32)
        features = np.asarray(outputs[1], np.float32) if embedding else None
        return merge_views(logits, features, TTA_VIEWS[tta])

    def run(self, crops: list[np.ndarray], embedding: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """BGR crops -> (logits [N, C], embedding [N, D] or None when not asked for); see `run_batch`."""
        if not crops:
            n = len(self.card.labels)
            return np.zeros((0, n), np.float32), (np.zeros((0, 0), np.float32) if embedding else None)
        return self.run_batch(self.card.preprocess(crops), embedding)
