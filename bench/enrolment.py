"""Teach-your-dice benchmark: how much 10 labelled photos per face help the shipped d6 model on real dice.

Run: `python bench/enrolment.py`. Takes 10 crops per face from the real-d6-tray TRAIN split (the earliest photos
by capture time, as a table would photograph its dice once at the start), fits the enrolment head exactly as
`companion enrol` does, and measures the real-d6-tray TEST split before and after (never used for fitting).
Caveat printed with the figures: the shipped d6 model already trained on that train split.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from machine import describe  # noqa: E402

from vision.card import load_card  # noqa: E402
from vision.enrol import AdaptedClassifier, Enrolment  # noqa: E402
from vision.evaluate import MODELS_DIR, REAL_D6_TRAY, load_yolo_crops, real_d6_missing_reason  # noqa: E402

PER_FACE = 10


def accuracy(classifier: AdaptedClassifier, crops: list[np.ndarray], labels: np.ndarray) -> tuple[float, dict]:
    predicted = np.asarray([classifier.card.labels.index(label) for label, _ in classifier.predict(crops)])
    per_class = {face: round(float((predicted[labels == i] == i).mean()), 4)
                 for i, face in enumerate(classifier.card.labels)}
    return float((predicted == labels).mean()), per_class


def run() -> dict:
    machine = describe()
    print(f"machine: {machine['cpu']} ({machine['cores']} cores), Python {machine['python']}")
    missing = real_d6_missing_reason()
    if missing:
        print(f"enrolment benchmark skipped: {missing}")
        return {"skipped": missing}
    card = load_card(MODELS_DIR / "d6.json")
    size = card.input.size[0]
    train = load_yolo_crops(REAL_D6_TRAY / "train" / "images", REAL_D6_TRAY / "train" / "labels", size)
    test = load_yolo_crops(REAL_D6_TRAY / "test" / "images", REAL_D6_TRAY / "test" / "labels", size)
    order = np.argsort(train.sources, kind="stable")  # IMG_<date>_<time>: file name order is capture order
    chosen: dict[int, list[np.ndarray]] = {i: [] for i in range(len(card.labels))}
    for k in order:
        label = int(train.labels[k])
        if len(chosen[label]) < PER_FACE:
            chosen[label].append(train.crops[k])
    with tempfile.TemporaryDirectory() as tmp:
        enrolment = Enrolment.load(Path(tmp) / "enrol-d6.npz", card)
        before, before_per = accuracy(AdaptedClassifier(card, enrolment), test.crops, test.labels)
        for i, crops in chosen.items():
            enrolment.add(card.labels[i], crops)
        enrolment.fit()
        after, after_per = accuracy(AdaptedClassifier(card, enrolment), test.crops, test.labels)
    print(f"d6 enrolment, {PER_FACE} real crops per face from the train split, test split {len(test.labels)} dice:")
    print(f"  shipped model alone: {before:.2%}   after enrolment: {after:.2%}   (goal >= 97%)")
    print(f"  per face after: {after_per}")
    print("  caveat: the shipped d6 model already trained on the train split; a synthetic-only start is not measured")
    return {"per_face_examples": PER_FACE, "test_dice": int(len(test.labels)), "before": round(before, 4),
            "after": round(after, 4), "after_per_face": after_per, "machine": machine}


if __name__ == "__main__":
    run()
