"""Classifier benchmark: accuracy of the shipped models and their speed on one core.

Run: `python bench/models.py` (`python bench/models.py frames`: only the frame step's figures). Prints and returns
- d6 accuracy on the real-d6-tray TEST split (308 dice; goal >= 99%), overall and per face, against the
  dataset's labels (the figure of record) and against the faces the photos show (`label_errors.py`),
- chariot_race, cubitos and automobiles accuracy per class on a synthetic test set (seeded apart from training, on
  surfaces no model was trained or validated on; goal >= 99.5 % for cubitos and automobiles), with how often the
  confusable pairs of the games' rules were mixed up (cubitos: RULES.md section 19, in `vision/synth/dice_sets.json`;
  automobiles: `camera.confusable_pairs` of its cubes.json),
- for cubitos and automobiles also whole rendered rolls on those surfaces (5-14 dice, and 20-30 for the rare big
  rolls), each die cut where it lies: dice and rolls read right by the classifier, and how many of those dice the
  shipped detector and the classical segmenter find; and the test crops again with the light held at one exposure
  (one table's locked camera), which shows how much of the error is the spread of light a crop cannot undo,
- for cubitos and automobiles also the frame step (`vision.colour`: white and light grey dice decided by the light
  of the other dice in the frame), before and after, on rendered rolls on the validation surfaces (where its
  thresholds were chosen) and on the held-out surfaces (the figure of record): dice read right, dice read wrong
  without the table asking (confidence >= 0.8, its default), dice it asks about, rolls all right,
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
from machine import open_benchmark, record  # noqa: E402

from vision.card import load_card  # noqa: E402
from vision.classify import Classifier  # noqa: E402
from vision.colour import FrameColour  # noqa: E402
from vision.crops import rotated_crop  # noqa: E402
from vision.detector import shipped_detector  # noqa: E402
from vision.evaluate import (  # noqa: E402
    MODELS_DIR,
    REAL_D6_TRAY,
    accuracy_summary,
    confusion_matrix,
    format_report,
    load_yolo_crops,
    pair_confusion,
    predict,
)
from vision.segment import Segmenter  # noqa: E402
from vision.synth import get_dice_set, render_die, render_scene  # noqa: E402
from vision.synth.backgrounds import HELD_OUT_BACKGROUNDS, VALIDATION_BACKGROUNDS  # noqa: E402
from vision.synth.dataset import synth_dataset  # noqa: E402
from vision.train import CONFIGS, trained_through_sensor  # noqa: E402

SETS = ("d6", "chariot_race", "cubitos", "automobiles")
SYNTH_TEST_PER_CLASS = 400
SYNTH_SEED = 20260521  # the training seed: with purpose "test" its stream is disjoint from training's
BATCHES = (1, 8, 32)
# rolls of the games that read colour: (scenes, fewest dice, most dice); RULES.md: 1-30 dice, typically 5-14
SCENE_ROLLS = {"cubitos": [(60, 5, 14), (10, 20, 30)], "automobiles": [(60, 5, 14), (10, 20, 30)]}
SCENE_SEED = 20261124
# the frame step's rolls: enough dice that a tenth of a percent is a handful of them
FRAME_ROLLS = [(500, 5, 14), (100, 20, 30)]
FRAME_SURFACES = {"validation": (VALIDATION_BACKGROUNDS, 20261125), "test": (HELD_OUT_BACKGROUNDS, 20261126)}
ASK = 0.8  # the table asks about dice read less surely than this (companion's tray.min_confidence default)


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


def found(blobs: list, scene, only: set[int] | None = None) -> int:
    """How many of the scene's dice (those at the indices `only`, if given) have a found die within half a side of
    their centre."""
    return sum(any(np.hypot(b.center[0] - d.center[0], b.center[1] - d.center[1]) < d.size / 2 for b in blobs)
               for i, d in enumerate(scene.dice) if only is None or i in only)


def rendered_rolls(card, dice_set: str, rolls: list[tuple[int, int, int]], surfaces: tuple[str, ...], seed: int):
    """(labels, scene, crops) of rendered rolls: ``count`` rolls of ``lo``-``hi`` dice for each (count, lo, hi),
    the big ones (over 14 dice) of smaller dice, on ``surfaces``, each die cut at its true place for ``card`` (a
    fixed series per seed, so runs compare). Each frame goes through a camera's look when the card's model trained
    through one, as its synthetic test does."""
    ds = get_dice_set(dice_set)
    rng = np.random.default_rng(seed)
    sensor = trained_through_sensor(card)
    for count, lo, hi in rolls:
        for _ in range(count):
            labels = [ds.labels[k] for k in rng.integers(0, len(ds.labels), int(rng.integers(lo, hi + 1)))]
            scene = render_scene(labels, dice_set, rng, background=surfaces,
                                 die_px=int(rng.uniform(26, 34)) if hi > 14 else None, sensor=sensor)
            crops = [rotated_crop(scene.image, d.center, d.size, d.angle, card.input.size[0]) for d in scene.dice]
            yield labels, scene, crops


def scene_accuracy(card, dice_set: str, rolls: list[tuple[int, int, int]], seed: int = SCENE_SEED) -> dict:
    """Dice and whole rolls read right in rendered scenes on the held-out surfaces, each die cut at its true place
    as the crop convention says (`vision.crops`): the classifier among neighbours, under one light per roll.
    Also how many of those dice the finders find (the shipped detector; the classical segmenter, automatic mode)."""
    ds = get_dice_set(dice_set)
    dice = right = rolls_right = scenes = by_detector = by_segmenter = blank = blank_by_detector = 0
    wrong: dict[str, int] = {}
    detector, segmenter = shipped_detector(), Segmenter(None, None)
    for labels, scene, crops in rendered_rolls(card, dice_set, rolls, HELD_OUT_BACKGROUNDS, seed):
        read = [card.labels[i] for i in predict(card, crops)]
        hits = sum(a == b for a, b in zip(read, labels, strict=True))
        plain = {i for i, x in enumerate(labels) if ds.symbols[x] == ("blank",)}  # faces with no picture
        blobs = detector.find(scene.image) if detector is not None else []
        by_detector += found(blobs, scene)
        blank, blank_by_detector = blank + len(plain), blank_by_detector + found(blobs, scene, plain)
        by_segmenter += found(segmenter.find(scene.image), scene)
        for a, b in zip(labels, read, strict=True):
            if a != b:
                wrong[f"{a} as {b}"] = wrong.get(f"{a} as {b}", 0) + 1
        dice, right, scenes, rolls_right = dice + len(labels), right + hits, scenes + 1, rolls_right + (
            hits == len(labels))
    return {"scenes": scenes, "dice": dice, "dice_right": right, "accuracy": round(right / dice, 4),
            "rolls_right": rolls_right, "wrong": wrong, "found_by_detector": by_detector,
            "found_by_segmenter": by_segmenter, "blank": blank, "blank_found_by_detector": blank_by_detector}


def frame_step_accuracy(card, dice_set: str, surfaces: tuple[str, ...], seed: int,
                        rolls: list[tuple[int, int, int]] = FRAME_ROLLS) -> dict:
    """Rendered rolls read die by die (each cut at its true place) before and after the frame step
    (`vision.colour.FrameColour.reread`, as `vision.pipeline.Pipeline` runs it): dice right, dice wrong the table
    would not ask about, dice it would ask about, rolls all right and rolls all right with nothing to ask."""
    step = FrameColour.for_dice_set(dice_set)
    classifier = Classifier(card)
    counts = {when: {"right": 0, "wrong_unasked": 0, "asked": 0, "rolls_right": 0, "rolls_right_unasked": 0}
              for when in ("before", "after")}
    wrong: dict[str, dict[str, int]] = {"before": {}, "after": {}}
    dice = scenes = 0
    for labels, scene, crops in rendered_rolls(card, dice_set, rolls, surfaces, seed):
        before = classifier.classify(crops)
        after = step.reread(scene.image, [(d.center, d.size, d.angle) for d in scene.dice], before,
                            classifier.labels) if step is not None else before
        for when, preds in (("before", before), ("after", after)):
            c = counts[when]
            ok = [p.label == x for p, x in zip(preds, labels, strict=True)]
            asked = [p.confidence < ASK for p in preds]
            c["right"] += sum(ok)
            c["asked"] += sum(asked)
            c["rolls_right"] += all(ok)
            c["rolls_right_unasked"] += all(ok) and not any(asked)
            for p, x, a in zip(preds, labels, asked, strict=True):
                if p.label != x and not a:
                    c["wrong_unasked"] += 1
                    wrong[when][f"{x} as {p.label}"] = wrong[when].get(f"{x} as {p.label}", 0) + 1
        dice, scenes = dice + len(labels), scenes + 1
    for when in counts:
        counts[when]["accuracy"] = round(counts[when]["right"] / dice, 4)
        counts[when]["wrong_unasked_as"] = wrong[when]
    return {"surfaces": list(surfaces), "scenes": scenes, "dice": dice, **counts}


def print_frame_step(name: str, card) -> dict:
    out = {}
    for purpose, (surfaces, seed) in FRAME_SURFACES.items():
        r = frame_step_accuracy(card, name, surfaces, seed)
        out[purpose] = r
        for when in ("before", "after"):
            c = r[when]
            print(f"{name}: frame step, {purpose} surfaces ({', '.join(surfaces)}), {when}: {c['right']}/{r['dice']} "
                  f"dice = {c['accuracy']:.2%}; wrong and not asked {c['wrong_unasked']} "
                  f"({c['wrong_unasked_as'] or 'none'}), asked {c['asked']}; rolls all right {c['rolls_right']}/"
                  f"{r['scenes']}, all right with nothing asked {c['rolls_right_unasked']}")
    return out


def locked_light_accuracy(card, dice_set: str, per_class: int = 100, seed: int = SCENE_SEED) -> dict:
    """Accuracy on the held-out surfaces with the exposure and white balance held at one value (gain 0.95, no tint),
    as one table's camera with its exposure locked sees the dice: how much of the error is the renderer's spread
    of light (gain 0.8-1.1, tint 0.9-1.1 per channel) that a crop alone cannot undo."""
    labels = list(card.labels)
    rng = np.random.default_rng(seed)
    crops, truth = [], []
    for i, label in enumerate(labels):
        crops += [render_die(label, dice_set, rng, size=card.input.size[0], background=HELD_OUT_BACKGROUNDS,
                             gain=0.95, tint=(1.0, 1.0, 1.0)) for _ in range(per_class)]
        truth += [i] * per_class
    summary = accuracy_summary(confusion_matrix(np.asarray(truth), predict(card, crops), len(labels)), labels)
    ds = get_dice_set(dice_set)
    summary["pairs"] = pair_confusion(np.asarray(summary["confusion"]), labels, ds.confusable, ds.labels_of)
    return summary


def run() -> dict:
    machine, real_missing = open_benchmark()  # without the real photos the rest is still measured
    results: dict = {"machine": machine, "models": {}}
    for name in SETS:
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
        per_class = CONFIGS[name].synth_test_per_class  # the card's own test set
        x, y = synth_dataset(name, per_class, card.input.size[0], SYNTH_SEED, "test", workers=2,
                             sensor=trained_through_sensor(card))
        summary = accuracy_summary(confusion_matrix(y, predict(card, list(x)), len(labels)), labels)
        ds = get_dice_set(name)
        if ds.confusable:
            summary["pairs"] = pair_confusion(np.asarray(summary["confusion"]), labels, ds.confusable, ds.labels_of)
        entry["synthetic_test"] = summary
        print(format_report(summary, labels, f"{name}: synthetic test"))
        if name in SCENE_ROLLS:
            scenes = scene_accuracy(card, name, SCENE_ROLLS[name])
            entry["synthetic_scenes"] = scenes
            print(f"{name}: rendered rolls on held-out surfaces: {scenes['dice_right']}/{scenes['dice']} dice = "
                  f"{scenes['accuracy']:.2%}, {scenes['rolls_right']}/{scenes['scenes']} rolls all right; "
                  f"misread: {scenes['wrong'] or 'none'}; found: detector {scenes['found_by_detector']}, classical "
                  f"segmenter {scenes['found_by_segmenter']} of {scenes['dice']}; blank faces found by the detector: "
                  f"{scenes['blank_found_by_detector']} of {scenes['blank']}")
            entry["frame_step"] = print_frame_step(name, card)
            locked = locked_light_accuracy(card, name)
            entry["synthetic_locked_light"] = locked
            confused = [f"{p['pair'][0]} / {p['pair'][1]}: {p['a_as_b']} + {p['b_as_a']}" for p in locked["pairs"]
                        if p["a_as_b"] + p["b_as_a"]]
            print(f"{name}: same surfaces, light held at one exposure: {locked['accuracy']:.2%} of {locked['n']} "
                  f"dice; pairs mixed up: {', '.join(confused) or 'none'}")
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
    results["models"][YARDSTICK] = yardstick(real_missing)
    return results


YARDSTICK = "d6_synthetic_only"


def yardstick(real_missing: str | None) -> dict:
    """The renders-only d6 (trained and chosen on renders alone, as a custom set is) on the real test photos:
    what a table with dice nobody photographed can expect, set beside every synthetic figure above."""
    card_path = MODELS_DIR / f"{YARDSTICK}.json"
    if not card_path.is_file():
        print(f"\n{YARDSTICK}: no model card at {card_path} (run `make models`)")
        return {"skipped": f"no model card at {card_path}"}
    card = load_card(card_path)
    print(f"\n== {YARDSTICK}: the renders-only yardstick ({card.trained_on['synthetic']['renderer']})")
    if real_missing:
        print(f"{YARDSTICK} real accuracy NOT MEASURED: {real_missing}")
        return {"skipped": real_missing}
    labels = list(card.labels)
    data = load_yolo_crops(REAL_D6_TRAY / "test" / "images", REAL_D6_TRAY / "test" / "labels", card.input.size[0])
    summary = accuracy_summary(confusion_matrix(data.labels, predict(card, data.crops), len(labels)), labels)
    print(format_report(summary, labels, f"{YARDSTICK}: real-d6-tray test split, renders only (goal >= 97%)"))
    return {"real_d6_tray_test": summary, "renderer": card.trained_on["synthetic"]["renderer"]}


def run_frames() -> dict:
    """Only the frame step's figures (`python bench/models.py frames`)."""
    machine, _ = open_benchmark()
    return {"machine": machine, "models": {name: {"frame_step": print_frame_step(name, load_card(MODELS_DIR /
                                                                                                f"{name}.json"))}
                                           for name in SCENE_ROLLS}}


if __name__ == "__main__":
    record("models_frames", run_frames()) if sys.argv[1:] == ["frames"] else record("models", run())
