"""The die classifier: crops in, (label, confidence, runner-up) out, through onnxruntime.

Everything about the model (labels, input size, colour order, normalisation, output names) comes from its card
(`vision.card`), so a retrained or enrolled model is a new file pair, not new code. All crops of a frame go
through one `session.run`: per-call overhead dominates for small models, and a frame has up to a dozen dice.
A card's test-time views (`input.tta`, e.g. the 4 quarter turns of every crop) go into that same call.

>>> clf = Classifier.load("models/d6.json", threads=1)        # doctest: +SKIP
>>> clf.classify([crop])[0].label                              # doctest: +SKIP
'5'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# ModelError lives beside CardModel, which raises it; companion code and tests import it from here.
from vision.card import Card, CardError, CardModel, ModelError, load_card


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    runner_up: tuple[str, float]
    # every label's probability, in the classifier's label order: the frame step (`vision.colour`) picks the face
    # of a die it finds to be of another colour from these
    scores: tuple[float, ...] = field(default=(), compare=False, repr=False)


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


Head = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(base logits [N, C], embedding [N, D]) -> logits [N, C]: what a table taught on top of the model (`vision.enrol`
fits one; this module only runs it, so teaching sits above the classifier)."""


class Classifier:
    """A card's model (`vision.card.CardModel`) plus, optionally, a head a table taught (`Head`). `threads=1`
    keeps it on one core (the Pi shares cores with the camera, the web server and the capture thread); None lets
    onnxruntime choose. Raises `ModelError` when the model file is missing, unusable or lacks the card's logits
    output.

    `model` is public so teach-your-dice (`vision.enrol`) runs the same session rather than opening a second
    copy of the model on a Pi with little memory to spare; given, it is that session (an `Enrolment`'s).
    """

    def __init__(self, card: Card, *, threads: int | None = 1, model: CardModel | None = None,
                 head: Head | None = None) -> None:
        self.card = card
        self.model = model if model is not None else CardModel(card, threads)
        self.labels = card.labels
        self.head = head

    def use_head(self, head: Head | None) -> None:
        """Read with a table's taught head on top of the model from the next call on (None: the model alone)."""
        self.head = head

    @classmethod
    def load(cls, path: str | Path, *, threads: int | None = 1) -> Classifier:
        """From a card (``models/d6.json``) or a model whose card sits beside it (``models/d6.onnx``)."""
        path = Path(path)
        card_path = path.with_suffix(".json") if path.suffix == ".onnx" else path
        if not card_path.exists():
            raise ModelError(f"{path}: no such model card" + (f" ({card_path.name} beside the model)"
                                                              if card_path != path else ""))
        try:
            card = load_card(card_path)
        except CardError as exc:
            raise ModelError(str(exc)) from None
        return cls(card, threads=threads)

    @property
    def input_size(self) -> tuple[int, int]:
        """(height, width) the crops should be cut at."""
        return self.card.input_size

    def logits(self, crops: list[np.ndarray]) -> np.ndarray:
        """[N, C]: the model's, through the taught head if any; one inference call for all crops (and all their
        test-time views). The embedding is fetched only when a head needs it."""
        if not crops:
            return np.zeros((0, len(self.labels)), np.float32)
        head = self.head
        logits, embedding = self.model.run(crops, embedding=head is not None)
        if head is not None:
            logits = np.asarray(head(logits, embedding), np.float32)
        return logits

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """Softmax over the labels, [N, C]."""
        return _softmax(self.logits(crops))

    def classify(self, crops: list[np.ndarray]) -> list[Prediction]:
        return self.predictions(self.logits(crops))

    def predictions(self, logits: np.ndarray) -> list[Prediction]:
        """[N, C] logits (of `logits`, or several views of them combined) as predictions."""
        probs = _softmax(logits)
        out = []
        for p in probs:
            order = np.argsort(-p)
            second = order[1] if len(order) > 1 else order[0]
            out.append(Prediction(self.labels[order[0]], float(p[order[0]]), (self.labels[second], float(p[second])),
                                  tuple(float(v) for v in p)))
        return out
