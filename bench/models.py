"""Classifier benchmark: accuracy of the shipped models and their speed on one core.

Run: `python bench/models.py`. Prints and returns
- d6 accuracy on the real-d6-tray TEST split (308 dice; goal >= 99%), overall and per face, against the
  dataset's labels (the figure of record) and against the faces the photos show (`label_errors.py`),
- chariot_race accuracy per class on a synthetic test set (seeded apart from training),
- classification time per die (onnxruntime, 1 thread, batches of dice, with the card's test-time views),
  model sizes, and the machine.
The real photos are read from ../shared/datasets/real-d6-tray (or $REAL_D6_TRAY); when they are missing the
benchmark says so and reports the rest.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from label_errors import LIST, corrected  # noqa: E402
from machine import open_benchmark  # noqa: E402

from vision.card import load_card  # noqa: E402
from vision.evaluate import (  # noqa: E402
    MODELS_DIR,
    REAL_D6_TRAY,
    accuracy_summary,
    confusion_matrix,
    format_report,
    load_yolo_crops,
    predict,
)
from vision.synth.dataset import synth_dataset  # noqa: E402

SYNTH_TEST_PER_CLASS = 400
SYNTH_SEED = 20260521  # the training seed: with purpose "test" its stream is disjoint from training's
BATCHES = (1, 8, 32)


def time_per_die(card, batch: int, repeats: int = 30) -> float:
    """Median ms per die for classification alone (preprocessed input, onnxruntime, one thread), including the
    card's test-time views (`input.tta`: several views per die in the same call)."""
    model = card.open(threads=1)
    h, w = card.input.size
    x = np.random.default_rng(0).standard_normal((batch, 3, h, w)).astype(np.float32)
    for _ in range(5):
        model.run_batch(x)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        model.run_batch(x)
        times.append(time.perf_counter() - t)
    return float(np.median(times)) * 1000 / batch


def time_preprocess(card, batch: int = 8) -> float:
    crops = [np.zeros((40, 40, 3), np.uint8)] * batch
    t = time.perf_counter()
    for _ in range(50):
        card.preprocess(crops)
    return (time.perf_counter() - t) * 1000 / 50 / batch


def run() -> dict:
    machine, real_missing = open_benchmark()  # without the real photos the rest is still measured
    results: dict = {"machine": machine, "models": {}}
    for name in ("d6", "chariot_race"):
        card_path = MODELS_DIR / f"{name}.json"
        if not card_path.is_file():
            print(f"\n{name}: no model card at {card_path} (run `make models`)")
            continue
        card = load_card(card_path)
        entry: dict = {"size_kib": round(card.model_path.stat().st_size / 1024, 1),
                       "input": list(card.input.size), "tta": card.input.tta}
        print(f"\n== {name}: {card.model} {entry['size_kib']} KiB, input {card.input.size[0]}x{card.input.size[1]}, "
              f"test-time views {card.input.tta}")
        entry["ms_per_die"] = {str(b): round(time_per_die(card, b), 4) for b in BATCHES}
        entry["preprocess_ms_per_die"] = round(time_preprocess(card), 4)
        print("classification ms/die (1 thread): " + ", ".join(f"batch {b}: {v:.3f}"
                                                                for b, v in entry["ms_per_die"].items())
              + f"; preprocessing {entry['preprocess_ms_per_die']:.3f}")
        labels = list(card.labels)
        x, y = synth_dataset(name, SYNTH_TEST_PER_CLASS, card.input.size[0], SYNTH_SEED, "test", workers=2)
        summary = accuracy_summary(confusion_matrix(y, predict(card, list(x)), len(labels)), labels)
        entry["synthetic_test"] = summary
        print(format_report(summary, labels, f"{name}: synthetic test"))
        if name == "d6":
            if real_missing:
                print(f"d6 real accuracy NOT MEASURED: {real_missing}")
                entry["real_d6_tray_test"] = {"skipped": real_missing}
            else:
                data = load_yolo_crops(REAL_D6_TRAY / "test" / "images", REAL_D6_TRAY / "test" / "labels",
                                       card.input.size[0])
                predicted = predict(card, data.crops)
                summary = accuracy_summary(confusion_matrix(data.labels, predicted, len(labels)), labels)
                entry["real_d6_tray_test"] = summary
                print(format_report(summary, labels, "d6: real-d6-tray test split (goal >= 99%)"))
                truth, n = corrected(data, "test")
                right = int((predicted == truth).sum())
                entry["real_d6_tray_test_labels_corrected"] = {"labels_corrected": n, "right": right,
                                                               "accuracy": round(right / len(truth), 4)}
                print(f"d6: against the faces the photos show ({n} wrong labels corrected, {LIST.name}): "
                      f"{right}/{len(truth)} = {right / len(truth):.2%}")
        results["models"][name] = entry
    return results


if __name__ == "__main__":
    run()
