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

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.card import TTA_VIEWS, Card, CardError, load_card, merge_views, tta_views


class ModelError(ValueError):
    """A model file is missing, corrupt or does not match its card; the message names the file."""


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    runner_up: tuple[str, float]


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class Classifier:
    """An onnxruntime session plus its card. `threads=1` keeps it on one core (the Pi shares cores with the
    camera, the web server and the capture thread); None lets onnxruntime choose."""

    def __init__(self, card: Card, *, threads: int | None = 1, enrolment: str | Path | None = None) -> None:
        import onnxruntime as ort  # imported here so `vision` imports without it (e.g. for calibration)

        self.card = card
        path = Path(card.model_path)
        if not path.is_file():
            raise ModelError(f"{path}: model file named by card {card.path} is missing")
        options = ort.SessionOptions()
        if threads is not None:
            options.intra_op_num_threads = int(threads)
            options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph types; all mean "unusable file"
            raise ModelError(f"{path}: not a usable ONNX model ({str(exc).splitlines()[0][:200]})") from None
        inputs = self.session.get_inputs()
        self.input_name = card.input.name if card.input.name in {i.name for i in inputs} else inputs[0].name
        outputs = {o.name for o in self.session.get_outputs()}
        self.logits_name = card.outputs["logits"]
        if self.logits_name not in outputs:
            raise ModelError(f"{path}: has no output {self.logits_name!r} (card {card.path}, field outputs.logits); "
                             f"outputs are {sorted(outputs)}")
        self.labels = card.labels
        batch_dim = inputs[0].shape[0] if inputs[0].shape else None
        self.fixed_batch = batch_dim if isinstance(batch_dim, int) and batch_dim > 0 else None
        self.head = None
        if enrolment is not None and Path(enrolment).is_file():
            self.use_enrolment(enrolment)

    def use_enrolment(self, path: str | Path) -> None:
        """Add a table's taught dice (``vision.enrol``) on top of the shipped model, from now on.

        The head needs the model's embedding too, so enrolled classification asks for both outputs in the one
        inference call. A missing or reset enrolment file means the shipped model alone.
        """
        from vision.enrol import Enrolment, EnrolmentError

        if not Path(path).is_file():
            self.head = None
            return
        try:
            self.head = Enrolment.load(path, self.card).head
        except (EnrolmentError, ValueError) as exc:
            raise ModelError(f"{path}: enrolment not usable with {self.card.path}: {exc}") from None
        if self.head is not None and "embedding" not in self.card.outputs:
            raise ModelError(f"{self.card.path}: an enrolment needs the model's outputs.embedding")

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

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """Softmax over the labels, [N, C]; one inference call for all crops (and all their test-time views)."""
        if not crops:
            return np.zeros((0, len(self.labels)), np.float32)
        tta = self.card.input.tta
        batch = tta_views(self.card.preprocess(crops), tta)
        names = [self.logits_name] if self.head is None else [self.logits_name, self.card.outputs["embedding"]]
        if self.fixed_batch == 1:  # a model exported without a dynamic batch axis: one call per crop
            runs = [self.session.run(names, {self.input_name: batch[i:i + 1]}) for i in range(len(batch))]
            outputs = [np.concatenate([run[k] for run in runs]) for k in range(len(names))]
        else:
            outputs = self.session.run(names, {self.input_name: batch})
        logits = np.asarray(outputs[0], np.float32)
        embedding = np.asarray(outputs[1], np.float32) if self.head is not None else None
        logits, embedding = merge_views(logits, embedding, TTA_VIEWS[tta])
        if self.head is not None:
            logits = np.asarray(self.head(logits, embedding), np.float32)
        return _softmax(logits)

    def classify(self, crops: list[np.ndarray]) -> list[Prediction]:
        probs = self.probabilities(crops)
        out = []
        for p in probs:
            order = np.argsort(-p)
            second = order[1] if len(order) > 1 else order[0]
            out.append(Prediction(self.labels[order[0]], float(p[order[0]]), (self.labels[second], float(p[second]))))
        return out
