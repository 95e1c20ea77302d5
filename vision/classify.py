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

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

# ModelError lives beside CardModel, which raises it; companion code and tests import it from here.
from vision.card import Card, CardError, CardModel, ModelError, load_card

if TYPE_CHECKING:
    from vision.enrol import Enrolment


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


class Classifier:
    """A card's model (`vision.card.CardModel`) plus the table's enrolment, if any. `threads=1` keeps it on one
    core (the Pi shares cores with the camera, the web server and the capture thread); None lets onnxruntime
    choose. Raises `ModelError` when the model file is missing, unusable or lacks the card's logits output.

    `model` is public so teach-your-dice (`companion.teach`) runs the same session rather than opening a second
    copy of the model on a Pi with little memory to spare; given, it is that session (an `Enrolment`'s).
    """

    def __init__(self, card: Card, *, threads: int | None = 1, enrolment: str | Path | Enrolment | None = None,
                 model: CardModel | None = None) -> None:
        self.card = card
        self.model = model if model is not None else CardModel(card, threads)
        self.labels = card.labels
        self.head = None
        if enrolment is not None:
            self.use_enrolment(enrolment)

    def use_enrolment(self, enrolment: str | Path | Enrolment) -> None:
        """Add a table's taught dice (``vision.enrol``) on top of the shipped model, from now on.

        The head needs the model's embedding too, so enrolled classification asks for both outputs in the one
        inference call. A missing or reset enrolment file means the shipped model alone. An `Enrolment` already
        in memory (the teach page's, just refitted) is used as it is, not read back from its file.
        """
        from vision.enrol import Enrolment, EnrolmentError

        if isinstance(enrolment, Enrolment):
            self.head = enrolment.head
            return
        if not Path(enrolment).is_file():
            self.head = None
            return
        try:
            self.head = Enrolment.load(enrolment, self.card, self.model).head
        except (EnrolmentError, ValueError) as exc:
            raise ModelError(f"{enrolment}: enrolment not usable with {self.card.path}: {exc}") from None

    @classmethod
    def load(cls, path: str | Path, *, threads: int | None = 1, enrolment: str | Path | None = None) -> Classifier:
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
        return cls(card, threads=threads, enrolment=enrolment)

    @property
    def input_size(self) -> tuple[int, int]:
        """(height, width) the crops should be cut at."""
        return self.card.input_size

    @classmethod
    def enrolled(cls, enrolment: Enrolment) -> Classifier:
        """The app's classifier for a table's enrolment as it is in memory, on the enrolment's own model session
        (what the teach page and `bench/enrolment.py` measure is what the camera runs)."""
        return cls(enrolment.card, model=enrolment.model, enrolment=enrolment)

    def logits(self, crops: list[np.ndarray]) -> np.ndarray:
        """[N, C]: the model's, plus the enrolment head's residual; one inference call for all crops (and all
        their test-time views). The embedding is fetched only when an enrolment head needs it."""
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
        probs = self.probabilities(crops)
        out = []
        for p in probs:
            order = np.argsort(-p)
            second = order[1] if len(order) > 1 else order[0]
            out.append(Prediction(self.labels[order[0]], float(p[order[0]]), (self.labels[second], float(p[second])),
                                  tuple(float(v) for v in p)))
        return out
