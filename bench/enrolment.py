"""Teach-your-dice benchmark: how much 10 labelled crops per face help a d6 model on real dice.

Run: `python bench/enrolment.py`. The enrolment examples are 10 crops per face from the real-d6-tray TRAIN split,
each face's 10 from 10 different photos (a table teaching its dice shows several dice per face, not one die ten
times), drawn at random with a fixed seed; `DRAWS` draws are made and the figures are their mean (and range), so
one lucky or unlucky draw does not make the result. The head is fitted exactly as `companion enrol` and the
teach page fit it. Measured before and after on
- validation: the latest 20% of train photos by capture time (the split `vision.train` validates on; never in
  the enrolment examples) -- the figure to tune enrolment by, and
- the real-d6-tray TEST split (308 dice; reported only, never used for fitting or choosing anything).
It does this for two start models:
- `models/d6.onnx`, the shipped model (caveat: it trained on the whole train split, the examples and the
  validation photos too, so only its test figure is an honest one), and
- `models/d6_synthetic_only.onnx`, a reference model trained on synthetic crops only (never on a real photo),
  the honest measure of teaching the companion dice it has never seen. The app does not use it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from machine import open_benchmark  # noqa: E402

from vision.card import load_card  # noqa: E402
from vision.enrol import AdaptedClassifier, Enrolment  # noqa: E402
from vision.evaluate import MODELS_DIR, REAL_D6_TRAY, load_yolo_crops  # noqa: E402
from vision.train import split_by_time  # noqa: E402

PER_FACE = 10
MODELS = (("d6", "shipped d6 (trained on synthetic + real train split)"),
          ("d6_synthetic_only", "synthetic-only reference (never saw a real photo)"))
VAL_FRACTION = 0.2  # as vision.train's TrainConfig.real_val_fraction
DRAWS = 5
SEED = 20261122


def accuracy(classifier: AdaptedClassifier, crops: list[np.ndarray], labels: np.ndarray) -> tuple[float, dict]:
    predicted = np.asarray([classifier.card.labels.index(label) for label, _ in classifier.predict(crops)])
    per_class = {face: round(float((predicted[labels == i] == i).mean()), 4)
                 for i, face in enumerate(classifier.card.labels)}
    return float((predicted == labels).mean()), per_class


def spread_per_face(sources: list[str], labels: np.ndarray, pool: np.ndarray, n_classes: int, per_face: int,
                    seed: int) -> np.ndarray:
    """Indices of `per_face` crops of each face from `pool`, each from a different photo, drawn with `seed`."""
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    for face in range(n_classes):
        candidates = [int(k) for k in pool if labels[k] == face]
        rng.shuffle(candidates)
        photos: set[str] = set()
        for k in candidates:
            if sources[k] not in photos:
                photos.add(sources[k])
                chosen.append(k)
                if len(photos) == per_face:
                    break
    return np.asarray(chosen, np.int64)


def enrol_and_measure(card, train, chosen: np.ndarray, eval_sets: dict) -> dict:
    """Accuracy on each evaluation set before and after enrolling the chosen train crops."""
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        enrolment = Enrolment.load(Path(tmp) / "enrol-d6.npz", card)
        for name, (crops, labels) in eval_sets.items():
            out[name] = {"before": accuracy(AdaptedClassifier(card, enrolment), crops, labels)}
        for i, label in enumerate(card.labels):
            enrolment.add(label, [train.crops[k] for k in chosen if train.labels[k] == i])
        enrolment.fit()
        for name, (crops, labels) in eval_sets.items():
            out[name]["after"] = accuracy(AdaptedClassifier(card, enrolment), crops, labels)
    return out


def spread_of(draws: list[dict], split: str, when: str) -> tuple[float, float, float]:
    """(mean, min, max) accuracy over the draws."""
    values = [d[split][when][0] for d in draws]
    return float(np.mean(values)), float(np.min(values)), float(np.max(values))


def run() -> dict:
    machine, missing = open_benchmark("enrolment benchmark")
    if missing:
        return {"skipped": missing}
    results: dict = {"per_face_examples": PER_FACE, "draws": DRAWS, "seed": SEED, "machine": machine, "models": {}}
    data: dict = {}
    for name, title in MODELS:
        card_path = MODELS_DIR / f"{name}.json"
        if not card_path.is_file():
            print(f"\n{name}: NOT MEASURED, no model card at {card_path}")
            results["models"][name] = {"skipped": f"no model card at {card_path}"}
            continue
        card = load_card(card_path)
        size = card.input.size[0]
        if size not in data:
            train = load_yolo_crops(REAL_D6_TRAY / "train" / "images", REAL_D6_TRAY / "train" / "labels", size)
            test = load_yolo_crops(REAL_D6_TRAY / "test" / "images", REAL_D6_TRAY / "test" / "labels", size)
            _, val_photos = split_by_time(sorted(set(train.sources)), VAL_FRACTION)
            is_val = np.isin(train.sources, val_photos)
            val = ([train.crops[k] for k in np.nonzero(is_val)[0]], train.labels[is_val])
            data[size] = (train, np.nonzero(~is_val)[0], {"validation": val, "test": (test.crops, test.labels)})
        train, pool, eval_sets = data[size]
        draws = []
        for draw in range(DRAWS):
            chosen = spread_per_face(train.sources, train.labels, pool, len(card.labels), PER_FACE, SEED + draw)
            draws.append(enrol_and_measure(card, train, chosen, eval_sets))

        per_face = {face: round(float(np.mean([d["test"]["after"][1][face] for d in draws])), 4)
                    for face in card.labels}
        n_val, n_test = len(eval_sets["validation"][1]), len(eval_sets["test"][1])
        print(f"\n== {name}: {title}")
        print(f"  enrolment: {PER_FACE} real crops per face from {PER_FACE} different train photos, "
              f"{DRAWS} seeded draws (mean, min-max)")
        for split, n, note in (("validation", n_val, "latest 20% of train photos"),
                               ("test", n_test, "TEST split, report only")):
            before, after = spread_of(draws, split, "before"), spread_of(draws, split, "after")
            goal = "   (goal >= 97%)" if split == "test" else ""
            print(f"  {split:10s} ({n} dice, {note}): alone {before[0]:.2%}   "
                  f"taught {after[0]:.2%} ({after[1]:.2%}-{after[2]:.2%}){goal}")
        print(f"  test per face taught (mean): {per_face}")
        if name == "d6":
            print("  caveat: the shipped d6 model trained on the whole train split: these examples and the validation "
                  "photos too")
        results["models"][name] = {
            "validation_dice": n_val, "test_dice": n_test,
            **{f"{split}_{when}": round(spread_of(draws, split, when)[0], 4)
               for split in ("validation", "test") for when in ("before", "after")},
            "test_after_range": [round(v, 4) for v in spread_of(draws, "test", "after")[1:]],
            "test_after_per_face": per_face,
        }
    return results


if __name__ == "__main__":
    run()
