"""Vision pipeline speed on one core: frames per second (find + classify), ms per die, peak memory.

Three ways of finding dice are timed: the learned detector (`vision.detector`, when its model is shipped) checked
against a calibrated tray, the same detector alone (automatic mode), and the classical segmenter on the calibrated
tray (the fallback when the detector's model is missing).

Pinned to core 0 with onnxruntime on one intra-op thread, as on a Pi whose other cores serve the camera and the
dashboard. Scenes are synthetic (`vision.synth`) with a calibrated tray; the model is the shipped
``models/d6.onnx`` when present, else a tiny generated stand-in (and the figures say which). Also reports how
often the segmenter finds every die and how many labels match the truth, so speed is never bought with misses.

    .venv/bin/python bench/vision.py
"""

from __future__ import annotations

import math
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
# this file is bench/vision.py: the repository must come before bench/ or `import vision` finds this file
sys.path[:] = [str(REPO)] + [p for p in sys.path if p != str(REPO)]
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
if "vision" in sys.modules and not hasattr(sys.modules["vision"], "__path__"):
    del sys.modules["vision"]

from machine import describe, machine_line, record  # noqa: E402

GOAL_FPS, GOAL_MS_PER_DIE = 60.0, 1.0
GOAL_PHOTO_MS = 27.0  # issue 38: a whole real photo, found and read, no slower than before


def _tiny_model(directory: Path) -> Path:
    """A stand-in ONNX model (mean colour -> 6 logits) with its card, for machines without the shipped model."""
    import json

    import onnx
    from onnx import TensorProto, helper

    inp = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 32, 32])
    out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 6])
    emb = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["N", 3])
    w = helper.make_tensor("w", TensorProto.FLOAT, [3, 6], np.linspace(-1, 1, 18).tolist())
    graph = helper.make_graph(
        [
            helper.make_node("GlobalAveragePool", ["input"], ["p"]),
            helper.make_node("Flatten", ["p"], ["embedding"]),
            helper.make_node("MatMul", ["embedding", "w"], ["logits"]),
        ],
        "tiny",
        [inp],
        [out, emb],
        initializer=[w],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(directory / "tiny.onnx"))
    card = {
        "name": "tiny",
        "dice_set": "d6",
        "format": 1,
        "model": "tiny.onnx",
        "labels": list("123456"),
        "input": {
            "name": "input",
            "size": [32, 32],
            "color": "BGR",
            "layout": "NCHW",
            "scale": 1 / 255,
            "mean": [0.5, 0.5, 0.5],
            "std": [0.25, 0.25, 0.25],
        },
        "outputs": {"logits": "logits", "embedding": "embedding"},
    }
    (directory / "tiny.json").write_text(json.dumps(card))
    return directory / "tiny.json"


def _scenes(width: int, height: int, count: int, n: int = 6):
    from vision.synth import render_scene

    die_px = 36 * min(width, height) / 480
    out = []
    for seed in range(n):
        rng = np.random.default_rng(1000 + seed)
        labels = [str(i + 1) for i in rng.integers(0, 6, count)]
        out.append(render_scene(labels, "d6", rng, width, height, die_px=int(die_px)))
    return out


def _score(scene, dice) -> tuple[int, int, int]:
    """(dice found, labels right, dice invented) against the scene's truth."""
    used: set[int] = set()
    found = right = 0
    for die in scene.dice:
        hits = [k for k, d in enumerate(dice) if k not in used and math.dist(d.center, die.center) < 0.45 * die.size]
        if hits:
            used.add(hits[0])
            found += 1
            right += dice[hits[0]].label == die.label
    return found, right, len(dice) - len(used)


def _real_photo_ms(classifier, detector, verifiers: dict[str, object], rounds: int = 3) -> dict[str, np.ndarray] | None:
    """ms of each whole real-d6-tray TEST photo (640x640) found and read as `companion detect` reads it (a fresh
    pipeline, no calibration), `rounds` times, for each of `verifiers` (name: what `Pipeline` is given), interleaved
    photo by photo so that each sees the same moments of a shared machine: the k-th times of two names are pairs.
    None without the photos."""
    import cv2

    from vision.evaluate import REAL_D6_TRAY, real_d6_missing_reason
    from vision.pipeline import Pipeline

    if real_d6_missing_reason():
        return None
    images = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in sorted((REAL_D6_TRAY / "test" / "images").glob("*.jpg"))]
    ms: dict[str, list[float]] = {name: [] for name in verifiers}
    for verifier in verifiers.values():  # warm up
        Pipeline(None, classifier, detector=detector, verifier=verifier).detect(images[0])
    for k in range(rounds):
        for image in images:
            for name in list(verifiers)[:: 1 if k % 2 == 0 else -1]:
                started = time.perf_counter()
                Pipeline(None, classifier, detector=detector, verifier=verifiers[name]).detect(image)
                ms[name].append((time.perf_counter() - started) * 1000)
    return {name: np.asarray(v) for name, v in ms.items()}


def run(verifier: str | Path | None = "shipped") -> dict:
    """`verifier`: the die verifier that checks the detector's boxes, "shipped" or a card's path (None: every box is
    taken)."""
    from vision.classify import Classifier
    from vision.pipeline import Pipeline
    from vision.segment import crops
    from vision.tray import calibrate

    machine = describe()
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if affinity is not None:
        os.sched_setaffinity(0, {0})
    tmp = tempfile.TemporaryDirectory()
    try:
        card = REPO / "models" / "d6.json"
        if not (card.is_file() and (REPO / "models" / "d6.onnx").is_file()):
            card = _tiny_model(Path(tmp.name))
        classifier = Classifier.load(card, threads=1)
        model = "models/d6.onnx" if card.parent == REPO / "models" else "tiny generated stand-in"
        print(machine_line(machine))
        print(f"pinned to core 0, 1 onnxruntime thread; model: {model}")
        from vision.detector import shipped_detector
        from vision.verify import load_verifier, shipped_verifier

        detector = shipped_detector()
        checker = shipped_verifier() if verifier == "shipped" else load_verifier(verifier) if verifier else None
        print(f"die verifier: {checker.card.path if checker else 'none'}")
        results: dict = {
            "cpu": machine["cpu"],
            "model": model,
            "verifier": checker is not None,
            "fps": {},
            "accuracy": {},
        }
        modes = {
            "calibrated": (
                lambda s: Pipeline(None, classifier, tray=calibrate([s.empty]), detector=detector, verifier=checker),
                "dice detector, checked against the learned empty tray"
                if detector
                else "classical segmenter on the learned empty tray: no detector model",
            )
        }
        if detector is not None:  # automatic mode: no calibration; and the segmenter, the fallback without a model
            modes["automatic"] = (
                lambda s: Pipeline(None, classifier, detector=detector, verifier=checker),
                "dice detector",
            )
            modes["classical"] = (
                lambda s: Pipeline(None, classifier, tray=calibrate([s.empty]), detector=None),
                "classical segmenter on the learned empty tray",
            )
            results.update(fps_automatic={}, accuracy_automatic={}, fps_classical={}, accuracy_classical={})
        for mode, (make, how) in modes.items():
            suffix = "" if mode == "calibrated" else f"_{mode}"
            print(f"{mode} ({how}):")
            for width, height in ((640, 480), (1280, 720)):
                for count in (1, 6, 12):
                    scenes = _scenes(width, height, count)
                    pipes = [make(s) for s in scenes]
                    for pipe, scene in zip(pipes, scenes, strict=True):
                        pipe.detect(scene.image)  # warm up, learn the die size
                    found = right = invented = 0
                    for pipe, scene in zip(pipes, scenes, strict=True):
                        f, r, i = _score(scene, pipe.detect(scene.image))
                        found, right, invented = found + f, right + r, invented + i
                    total = count * len(scenes)
                    rounds = max(3, 60 // len(scenes))
                    started = time.perf_counter()
                    for _ in range(rounds):
                        for pipe, scene in zip(pipes, scenes, strict=True):
                            pipe.detect(scene.image)
                    ms = (time.perf_counter() - started) * 1000 / (rounds * len(scenes))
                    key = f"{width}x{height}/{count}"
                    results["fps" + suffix][key] = round(1000 / ms, 1)
                    results["accuracy" + suffix][key] = {
                        "found": round(found / total, 3),
                        "labels": round(right / total, 3),
                        "invented": invented,
                    }
                    print(
                        f"  {width}x{height} {count:2d} dice: {1000 / ms:6.1f} fps ({ms:5.2f} ms/frame); "
                        f"found {found}/{total}, labels right {right}/{total}, invented {invented}"
                    )
        if detector is not None and model == "models/d6.onnx":
            both = {"with": checker, "without": None} if checker else {"without": None}
            timed = _real_photo_ms(classifier, detector, both)
            if timed is not None:
                photo_ms = float(np.median(timed[next(iter(both))]))
                results.update(real_photo_ms=round(photo_ms, 1), real_photo_ms_goal=GOAL_PHOTO_MS)
                print(
                    f"whole real test photo (640x640, automatic, found and read): median {photo_ms:.1f} ms "
                    f"(goal <= {GOAL_PHOTO_MS:.0f}: {'met' if photo_ms <= GOAL_PHOTO_MS else 'NOT met'})"
                )
                if checker:
                    without = float(np.median(timed["without"]))
                    added = float(np.median(timed["with"] - timed["without"]))
                    results.update(real_photo_ms_without_verifier=round(without, 1), verifier_added_ms=round(added, 2))
                    print(
                        f"  without the die verifier, interleaved photo by photo: median {without:.1f} ms; the "
                        f"verifier adds {added:.2f} ms (median of the paired differences)"
                    )
        # classification alone, per die, in frame-sized batches
        scene = _scenes(640, 480, 12, n=1)[0]
        pipe = Pipeline(None, classifier, tray=calibrate([scene.empty]), detector=detector, verifier=checker)
        blobs = pipe.find(scene.image)
        batch = crops(scene.image, blobs, classifier.input_size) or [scene.image[:40, :40]]
        classifier.classify(batch)
        rounds = 200
        started = time.perf_counter()
        for _ in range(rounds):
            classifier.classify(batch)
        per_die = (time.perf_counter() - started) * 1000 / (rounds * len(batch))
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        results.update(
            ms_per_die=round(per_die, 3),
            peak_rss_mb=round(peak_mb, 1),
            goal={"fps_640x480_6": GOAL_FPS, "ms_per_die": GOAL_MS_PER_DIE},
        )
        ok_fps = (
            min(results[k]["640x480/6"] for k in ("fps", "fps_automatic", "fps_classical") if k in results) >= GOAL_FPS
        )
        ok_die = per_die <= GOAL_MS_PER_DIE
        print(f"classification alone: {per_die:.3f} ms per die (batches of {len(batch)})")
        print(f"peak memory: {peak_mb:.0f} MB")
        print(
            f"goal >= {GOAL_FPS:.0f} fps at 640x480 with 6 dice: {'met' if ok_fps else 'NOT met'}; "
            f"<= {GOAL_MS_PER_DIE} ms per die: {'met' if ok_die else 'NOT met'}"
        )
        return results
    finally:
        tmp.cleanup()
        if affinity is not None:
            os.sched_setaffinity(0, affinity)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-verifier", action="store_true", help="take every box the detector finds (no die verifier)"
    )
    parser.add_argument("--verifier", type=Path, help="another die verifier card (.json) than the shipped one")
    args = parser.parse_args()
    figures = run(verifier=None if args.no_verifier else args.verifier or "shipped")
    if not (args.no_verifier or args.verifier):  # the README's figures are what the app runs
        record("vision", figures)
