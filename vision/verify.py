"""The die verifier: a second, cheap look at each box the dice detector finds, keeping the dice.

On a game table the detector also finds number tokens, coins, a phone, a cable, and the pips of a die close to the
camera; its heat map sees a die-like spot, not the whole thing. The verifier reads each box's crop (cut as the
classifier cuts it, `vision.segment.crops`) with a tiny net trained by `vision.train_verifier` on renders of every
dice set, and keeps a box when the net's probability of a die reaches the card's threshold (chosen on the
validation photos, plain scenes and game tables: `bench/rolls.py --real val --sweep-verifier`).

    verifier = Verifier.load(DEFAULT_CARD)        # raises ValueError (CardError, ModelError) if unusable
    blobs = verifier.keep(frame, detector.find(frame))
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import numpy as np

from vision.card import load_card
from vision.segment import Blob, crops

log = logging.getLogger(__name__)

DEFAULT_CARD = Path(__file__).resolve().parent.parent / "models" / "dice_verifier.json"
DIE = "die"  # the card's label of a die; the other is "no_die"


class Verifier:
    """The card's model on one onnxruntime thread, and the die probability it keeps a box at."""

    def __init__(self, card_path: str | Path, *, threads: int = 1, threshold: float | None = None) -> None:
        card = load_card(card_path)
        if DIE not in card.labels:
            raise ValueError(f"{card.path}: field 'labels': a verifier's card names the label {DIE!r}")
        self.card = card
        self.model = card.open(threads)
        self.die = card.labels.index(DIE)
        self.threshold = float(card.accuracy.get("threshold", 0.5) if threshold is None else threshold)

    @classmethod
    def load(cls, path: str | Path = DEFAULT_CARD, *, threads: int = 1) -> Verifier:
        return cls(path, threads=threads)

    def scores(self, image: np.ndarray, blobs: list[Blob]) -> np.ndarray:
        """The probability that each box holds a die, in one call of the model."""
        if not blobs:
            return np.zeros(0, np.float32)
        logits, _ = self.model.run(crops(image, blobs, self.card.input_size), embedding=False)
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p[:, self.die] / p.sum(axis=1)

    def keep(self, image: np.ndarray, blobs: list[Blob]) -> list[Blob]:
        """The boxes that hold a die, in their order."""
        return [b for b, s in zip(blobs, self.scores(image, blobs), strict=True) if s >= self.threshold]


def load_verifier(path: str | Path) -> Verifier | None:
    """The verifier at `path`, or None when it is missing or unusable: the detector's boxes are then taken as they
    are (a camera never stops for a verifier), and the log says why."""
    try:
        return Verifier.load(path)
    except ValueError as exc:  # CardError and ModelError are ValueErrors
        log.warning("die verifier unavailable, every box the detector finds is taken: %s", exc)
        return None


@functools.cache
def shipped_verifier() -> Verifier | None:
    """`load_verifier` of the shipped card, loaded (and a failure logged) once: every pipeline shares it. None, and
    nothing logged, where the card is missing (the detector's boxes are then taken as they are)."""
    if not DEFAULT_CARD.exists():
        return None
    return load_verifier(DEFAULT_CARD)
