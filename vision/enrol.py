"""Teach-your-dice: adapt a shipped classifier to a table's own dice, on the Pi, without torch.

Players photograph each face of their dice a few times; each labelled crop is stored. `fit()` trains a small
numpy logistic-regression head on the model's embedding, as a *residual* on the base model's logits:

    logits = base_logits + W @ normalise(embedding)

With no examples W = 0, so the base model is unchanged; the L2 penalty keeps W small where the base model already
agrees with the examples, and lets it grow where the player's dice differ. Two things keep a few examples from
doing harm, because a table rarely teaches every face evenly (the teach page is used one face at a time, and the
corrections kept from play are whichever dice happened to be misread):
- no bias term: a fair die shows every face equally often, whatever faces the table taught most, so the head has
  no business learning a prior from them;
- anchors: rendered dice of every face of the card's dice set (`vision.synth`), labelled, weigh in with the
  table's examples wherever the table has not shown that a look means something else (`anchor_weights`), so
  teaching one face cannot make the head read every die as that face.
Measured by `bench/enrolment.py` on the real-d6-tray test photos: with a head that had a bias and no anchors,
10 examples of one face took the synthetic-only d6 model from 85.7% to 17.3% and the shipped d6 model from 98.7%
to 84.9% (mean over the faces); the 154 train dice the synthetic-only model misreads, taught as corrections, took
it to 69.5%. Now 83.7%, 98.7% and 88.0%.

Everything lives in one file (the path the app passes); `reset()` deletes it, `remove(label)` drops one label's
examples, and a correction from the tablet is simply `add(label, [crop])` followed by `fit()`. Teaching sits above
the classifier: this module fits the head that `vision.classify.Classifier` runs (`taught_classifier`,
`Enrolment.classifier`); the command line that cuts dice out of tray photos is `vision.enrol_cli`.

>>> card = load_card("models/d6.json")                          # doctest: +SKIP
>>> enrolment = Enrolment.load("data/enrol-d6.npz", card)        # doctest: +SKIP
>>> enrolment.add("6", crops_of_my_six); enrolment.fit(); enrolment.save()   # doctest: +SKIP
>>> enrolment.classifier().classify([crop])[0].label             # doctest: +SKIP
'6'
"""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .card import Card, CardModel, ModelError
from .classify import Classifier

FORMAT = 2  # 1 had a bias in the head and no anchors: such a file is refitted when loaded (its crops are kept)
ANCHORS_PER_LABEL = 20
ANCHOR_WEIGHT = 10.0  # all anchors together weigh this many times all the table's examples together
ANCHOR_SEED = 20261123
ANCHOR_LIKENESS = 0.25  # see anchor_weights


ESTIMATE_FOLDS = 5


@dataclass(frozen=True)
class Estimate:
    """What cross-validation says of a table's taught dice (`Enrolment.estimate`)."""

    taught: float  # share of the examples read right by a head that never saw them
    untaught: float  # share the shipped model alone reads right
    dice: int  # examples the estimate counted
    folds: int


class EnrolmentError(ValueError):
    """An enrolment file or request is wrong; the message says which file or label."""


def model_fingerprint(card: Card) -> str:
    """sha256 of the ONNX file: stored embeddings are only valid for the model that made them."""
    return hashlib.sha256(card.model_path.read_bytes()).hexdigest()


def normalise(embedding: np.ndarray) -> np.ndarray:
    """Unit-length rows: the head then sees directions, not the activation scale of one model."""
    return embedding / (np.linalg.norm(embedding, axis=1, keepdims=True) + 1e-6)


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class Head:
    """The residual head: logits += normalise(embedding) @ weight.T (no bias: see the module docstring)."""

    weight: np.ndarray  # [C, D]

    def __call__(self, base_logits: np.ndarray, embedding: np.ndarray) -> np.ndarray:
        return base_logits + normalise(embedding) @ self.weight.T


@dataclass
class Anchors:
    """Rendered dice of every face, as the base model sees them: what the head must keep reading right."""

    base_logits: np.ndarray  # [A, C]
    embedding: np.ndarray  # [A, D]
    labels: np.ndarray  # [A]
    source: str  # what they are, stored with them: a change (renderer, count, seed) recomputes them

    @classmethod
    def empty(cls, n_labels: int) -> Anchors:
        return cls(np.zeros((0, n_labels), np.float32), np.zeros((0, 0), np.float32), np.zeros(0, np.int64), "")


def anchor_source(card: Card) -> str:
    """Which anchors suit this card: "" when the renderer does not know its dice set (then there are none)."""
    from .synth import dice_set_names
    from .synth.dataset import RENDER_VERSION

    if card.dice_set not in dice_set_names():
        return ""
    return (f"vision.synth v{RENDER_VERSION} {card.dice_set}: {ANCHORS_PER_LABEL} per label, seed {ANCHOR_SEED}, "
            f"{card.input.size[0]} px")


def render_anchors(card: Card, model: CardModel) -> Anchors:
    """Render the anchors for `card` and run them through `model` (about a second on a desktop, once per model:
    they are stored in the enrolment file)."""
    from .synth import get_dice_set
    from .synth.dataset import synth_dataset

    source = anchor_source(card)
    if not source:
        return Anchors.empty(len(card.labels))
    crops, indices = synth_dataset(card.dice_set, ANCHORS_PER_LABEL, card.input.size[0], ANCHOR_SEED, "enrol")
    names = get_dice_set(card.dice_set).labels
    keep = np.asarray([names[i] in card.labels for i in indices])
    labels = np.asarray([card.labels.index(names[i]) for i in indices[keep]], np.int64)
    logits, embedding = model.run(list(crops[keep]))
    return Anchors(logits, embedding, labels, source)


def anchor_weights(anchors: Anchors, embedding: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """1 for an anchor that counts, 0 where the table's own dice say otherwise.

    An anchor is dropped when one of the table's examples of *another* label looks as much like it (cosine
    similarity of embeddings) as the anchors of its own label do, bar the least alike quarter of them
    (`ANCHOR_LIKENESS`): there the table has shown that this look means something else on its dice (its dice may
    even carry another label's printed look), and only there. Far from every example, the anchors keep the base
    model's reading. (On validation photos the median instead of the quarter gave the same accuracy, but let
    8 examples per label of a re-printed Chariot Race set reach only 80% instead of 98%; a tenth dropped so many
    anchors that 157 taught corrections cost 12 points.)
    """
    a = normalise(anchors.embedding.astype(np.float64))
    x = normalise(embedding.astype(np.float64))
    closest_other = np.where(labels[None, :] != anchors.labels[:, None], a @ x.T, -1.0).max(axis=1, initial=-1.0)
    same = anchors.labels[:, None] == anchors.labels[None, :]
    np.fill_diagonal(same, False)
    with warnings.catch_warnings():  # a label with a single anchor has nothing to compare with: NaN, kept below
        warnings.simplefilter("ignore", RuntimeWarning)
        alike = np.nanquantile(np.where(same, a @ a.T, np.nan), ANCHOR_LIKENESS, axis=1)
    return (closest_other < np.nan_to_num(alike, nan=1.0)).astype(np.float64)


def fit_head(base_logits: np.ndarray, embedding: np.ndarray, labels: np.ndarray, anchors: Anchors | None = None,
             l2: float = 1e-3, anchor_weight: float = ANCHOR_WEIGHT, steps: int = 600, lr: float = 0.5) -> Head:
    """Full-batch gradient descent (with momentum) on weighted cross-entropy + l2 * |W|^2; a few ms for hundreds of
    crops. The table's examples weigh 1 together, each taught label the same share of it (the corrections of a
    game are mostly of the face a model misreads most, and would otherwise pull the other faces' looks to it); the
    anchors that count (`anchor_weights`) weigh `anchor_weight`."""
    c = base_logits.shape[1]
    x = normalise(embedding.astype(np.float64))
    logits = base_logits.astype(np.float64)
    target = np.eye(c)[labels]
    per_label = np.bincount(labels, minlength=c)
    weights = 1.0 / (per_label[labels] * np.count_nonzero(per_label))
    if anchors is not None and len(anchors.labels):
        x = np.vstack([x, normalise(anchors.embedding.astype(np.float64))])
        logits = np.vstack([logits, anchors.base_logits.astype(np.float64)])
        target = np.vstack([target, np.eye(c)[anchors.labels]])
        counted = anchor_weights(anchors, embedding, labels)
        weights = np.concatenate([weights, anchor_weight / len(anchors.labels) * counted])
    w = np.zeros((c, x.shape[1]))
    velocity = np.zeros_like(w)
    for _ in range(steps):
        g = (softmax(logits + x @ w.T) - target) * weights[:, None]
        velocity = 0.9 * velocity - lr * (g.T @ x + 2 * l2 * w)
        w += velocity
    return Head(w.astype(np.float32))


class Enrolment:
    """A table's own examples for one model: labelled crops, their embeddings and the fitted head.

    `model` is the card's running model when the caller already has one (the live classifier's, see
    `companion.teach`): one session of the model rather than two. Without it the model is opened on first use.
    """

    def __init__(self, path: str | Path, card: Card, model: CardModel | None = None) -> None:
        self.path = Path(path)
        self.card = card
        self._model = model
        size = card.input.size
        self.crops = np.zeros((0, size[0], size[1], 3), np.uint8)
        self.labels = np.zeros(0, np.int64)
        self.embeddings = np.zeros((0, 0), np.float32)
        self.base_logits = np.zeros((0, len(card.labels)), np.float32)
        self.anchors: Anchors | None = None  # rendered when first needed (see `fit`)
        self.head: Head | None = None

    # ------------------------------------------------------------------ storage
    @classmethod
    def load(cls, path: str | Path, card: Card, model: CardModel | None = None) -> Enrolment:
        """The enrolment stored at `path`, or an empty one when there is no file yet.

        If the model changed since the crops were added, their embeddings are recomputed and the head refitted.
        """
        self = cls(path, card, model)
        if not self.path.exists():
            return self
        try:
            with np.load(self.path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                stored = {key: data[key] for key in data.files if key != "meta"}
            crops, labels = stored["crops"], stored["labels"]
        except (OSError, KeyError, ValueError) as exc:
            raise EnrolmentError(f"{self.path}: not a readable enrolment file ({exc})") from exc
        if meta.get("format") not in (1, FORMAT):
            raise EnrolmentError(f"{self.path}: field 'format': expected {FORMAT}, got {meta.get('format')!r}")
        if meta.get("labels") != list(card.labels):
            raise EnrolmentError(f"{self.path}: field 'labels': enrolled for {meta.get('labels')}, "
                                 f"but the model {card.name!r} has {list(card.labels)}")
        self.crops, self.labels = crops, labels.astype(np.int64)
        same_model = meta.get("model_sha256") == model_fingerprint(card)
        if same_model and meta.get("format") == FORMAT:
            try:
                self.embeddings, self.base_logits = stored["embeddings"], stored["base_logits"]
                if meta.get("anchors") == anchor_source(card):
                    self.anchors = Anchors(stored["anchor_logits"], stored["anchor_embeddings"],
                                           stored["anchor_labels"].astype(np.int64), meta["anchors"])
                self.head = Head(stored["weight"]) if stored["weight"].size else None
            except KeyError as exc:
                raise EnrolmentError(f"{self.path}: not a readable enrolment file (no {exc})") from exc
        else:  # another model, or a head fitted the old way: the crops are what was taught, fit them afresh
            self._recompute()
        if len(self.labels) and (self.head is None or self.anchors is None):
            self.fit()
        return self

    def save(self) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        anchors = self.anchors or Anchors.empty(len(self.card.labels))
        meta = {"format": FORMAT, "model": self.card.model, "model_sha256": model_fingerprint(self.card),
                "labels": list(self.card.labels), "anchors": anchors.source if self.anchors else None}
        tmp = self.path.with_name(self.path.name + ".tmp.npz")
        np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), crops=self.crops, labels=self.labels,
                            embeddings=self.embeddings, base_logits=self.base_logits,
                            weight=self.head.weight if self.head else np.zeros((0, 0), np.float32),
                            anchor_logits=anchors.base_logits, anchor_embeddings=anchors.embedding,
                            anchor_labels=anchors.labels)
        tmp.replace(self.path)
        return self.path

    def reset(self) -> None:
        """Forget everything and delete the file: the base model alone classifies again. (The anchors stay in
        memory: they belong to the model, not to what was taught.)"""
        fresh = Enrolment(self.path, self.card, self._model)
        fresh.anchors = self.anchors
        self.__dict__.update(fresh.__dict__)
        self.path.unlink(missing_ok=True)

    # ------------------------------------------------------------------ examples
    @property
    def model(self) -> CardModel:
        """The model that computes the examples' embeddings: the one passed in, else opened now (one thread)."""
        if self._model is None:
            self._model = self.card.open(threads=1)
        return self._model

    def classifier(self) -> Classifier:
        """The app's classifier for this enrolment as it is in memory, on its own model session (what the teach
        page and `bench/enrolment.py` measure is what the camera runs)."""
        return Classifier(self.card, model=self.model, head=self.head)

    def _index(self, label: str) -> int:
        if label not in self.card.labels:
            raise EnrolmentError(f"label {label!r} is not one of the model's labels {list(self.card.labels)}")
        return self.card.labels.index(label)

    def _recompute(self) -> None:
        if len(self.crops):
            self.base_logits, self.embeddings = self.model.run(list(self.crops))
        else:
            self.embeddings = np.zeros((0, 0), np.float32)
            self.base_logits = np.zeros((0, len(self.card.labels)), np.float32)

    def add(self, label: str, crops: list[np.ndarray]) -> int:
        """Add crops (BGR, any size; resized to the model's input) showing `label`; returns how many are stored."""
        index = self._index(label)
        if not crops:
            return len(self.labels)
        h, w = self.card.input.size
        sized = np.stack([c if c.shape[:2] == (h, w) else cv2.resize(c, (w, h), interpolation=cv2.INTER_AREA)
                          for c in crops]).astype(np.uint8)
        logits, embedding = self.model.run(list(sized))
        self.crops = np.concatenate([self.crops, sized])
        self.labels = np.concatenate([self.labels, np.full(len(sized), index, np.int64)])
        self.embeddings = embedding if not len(self.embeddings) else np.concatenate([self.embeddings, embedding])
        self.base_logits = np.concatenate([self.base_logits, logits])
        return len(self.labels)

    def remove(self, label: str) -> int:
        """Drop every example of `label` (refit afterwards); returns how many were removed."""
        keep = self.labels != self._index(label)
        removed = int((~keep).sum())
        self.crops, self.labels = self.crops[keep], self.labels[keep]
        if len(self.embeddings):
            self.embeddings, self.base_logits = self.embeddings[keep], self.base_logits[keep]
        return removed

    def counts(self) -> dict[str, int]:
        return {name: int((self.labels == i).sum()) for i, name in enumerate(self.card.labels)}

    def fit(self, l2: float = 1e-3) -> Head | None:
        """Train the residual head on every stored example and the anchors (None when there are no examples).

        The anchors are rendered on the first fit and kept (in the file too) until the model changes.
        """
        if not len(self.labels):
            self.head = None
            return None
        if self.anchors is None or self.anchors.source != anchor_source(self.card):
            self.anchors = render_anchors(self.card, self.model)
        self.head = fit_head(self.base_logits, self.embeddings, self.labels, self.anchors, l2=l2)
        return self.head

    def estimate(self, folds: int = ESTIMATE_FOLDS) -> Estimate | None:
        """How many of the table's dice the taught classifier will read right, cross-validated: each of `folds`
        parts of every face's examples is read by a head fitted without it (and with the anchors). A part is a run
        of examples in the order they were taught, so the dice of one photo mostly fall in one part and the
        estimate is not flattered by near-copies of a die. None when there is too little to hold a part out."""
        if not len(self.labels):
            return None
        if self.anchors is None or self.anchors.source != anchor_source(self.card):
            self.anchors = render_anchors(self.card, self.model)
        part = np.zeros(len(self.labels), np.int64)
        for label in np.unique(self.labels):
            where = np.flatnonzero(self.labels == label)
            part[where] = np.arange(len(where)) * folds // len(where)  # runs of consecutive examples
        right, counted = 0, 0
        for k in range(folds):
            held = part == k
            if not held.any() or held.all():
                continue
            head = fit_head(self.base_logits[~held], self.embeddings[~held], self.labels[~held], self.anchors)
            read = head(self.base_logits[held], self.embeddings[held]).argmax(1)
            right += int((read == self.labels[held]).sum())
            counted += int(held.sum())
        if not counted:
            return None
        untaught = float((self.base_logits.argmax(1) == self.labels).mean())
        return Estimate(right / counted, untaught, counted, folds)


def taught_classifier(model: str | Path, enrolment: str | Path | None = None, *, threads: int | None = 1) -> Classifier:
    """The classifier of a card (or its .onnx) with a table's taught head from `enrolment`, if that file exists (a
    missing or reset file: the shipped model alone). Raises `ModelError` naming the file that is not usable."""
    classifier = Classifier.load(model, threads=threads)
    if enrolment is not None:
        use_enrolment(classifier, enrolment)
    return classifier


def use_enrolment(classifier: Classifier, enrolment: str | Path | Enrolment) -> None:
    """Add a table's taught dice on top of `classifier`'s model, from its next call on.

    An `Enrolment` already in memory (the teach page's, just refitted) is used as it is, not read back from its
    file; a path is loaded on `classifier`'s own model session. A missing file means the shipped model alone.
    """
    if isinstance(enrolment, Enrolment):
        classifier.use_head(enrolment.head)
        return
    if not Path(enrolment).is_file():
        classifier.use_head(None)
        return
    try:
        classifier.use_head(Enrolment.load(enrolment, classifier.card, classifier.model).head)
    except (EnrolmentError, ValueError) as exc:
        raise ModelError(f"{enrolment}: enrolment not usable with {classifier.card.path}: {exc}") from None
