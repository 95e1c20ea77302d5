"""Rolls as a table feels them: per photo, is the roll right with no tap, or does the table ask, or is it wrong?

Run: `python bench/rolls.py` (what `make bench` runs: real-d6-tray TEST split, synthetic scenes and game tables), or
`python bench/rolls.py --real val` to choose between detectors on the VALIDATION photos (the latest fifth of the
real train split by photo time, as `vision.train.split_by_time` holds them out): the test split is for reporting
only. Every photo is read in automatic mode (no tray calibration, a fresh pipeline per photo: each is a table of its
own), as `companion detect --dice SET` reads it: the detector's boxes pass the die verifier (`vision.verify`) when its
model is shipped (`--no-verifier` compares without it, `--verifier CARD` measures another). A roll is one of:

- right: as many dice as were rolled, none below the table's `min_confidence`, the faces those of the truth;
- asks, count: the camera found more or fewer dice than were rolled (the table refuses to confirm);
- asks, doubtful: the count is right but a die is below `min_confidence` (the table waits for a tap);
- wrong: the count is right, no die doubtful, and the faces are not those rolled: the one outcome a table cannot
  catch, which must be 0.

Dice are matched to the truth by their centre inside a true die's box. Also printed: dice found, dice invented,
and faces right among the found. Real photos are counted against the faces they show: the test labels listed in
`bench/real_d6_tray_label_errors.json` are corrected (the dataset's own labels would count two right dice wrong).
Synthetic scenes lie on `vision.synth.backgrounds.HELD_OUT_BACKGROUNDS`, surfaces no model was trained or
chosen on, one series per dice set with a shipped model: lone dice, touching pairs, white-on-white, hands. With
the test split or `--table`, game tables too: per set, pieces among the dice, close dice and far dice; and one
series of empty tables (pieces, no die), as the camera sees a table between rolls, where a roll is right when
nothing is read as a die.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# bench/ has its own vision.py: the repository must come first or `import vision` finds that file
sys.path[:] = [str(ROOT)] + [p for p in sys.path if p != str(ROOT)]
if str(ROOT / "bench") not in sys.path:
    sys.path.append(str(ROOT / "bench"))
if "vision" in sys.modules and not hasattr(sys.modules["vision"], "__path__"):
    del sys.modules["vision"]

from label_errors import listed  # noqa: E402
from machine import open_benchmark, record  # noqa: E402

from vision.card import load_card  # noqa: E402
from vision.classify import Classifier  # noqa: E402
from vision.crops import yolo_boxes  # noqa: E402
from vision.detector import DEFAULT_MODEL as DEFAULT_DETECTOR  # noqa: E402
from vision.evaluate import MODELS_DIR, REAL_D6_TRAY  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.reading import DieReading  # noqa: E402
from vision.train import trained_through_sensor  # noqa: E402

MIN_CONFIDENCE = 0.8  # companion.config.TrayConfig.min_confidence's default: below it a die waits for a tap
BANDS = ((1, 5), (6, 10), (11, 99))
OUTCOMES = ("right", "asks_count", "asks_doubtful", "wrong")
SYNTH_SCENES = 60  # per dice set
TABLE_SEED = 52000  # the game tables that report, on the held-out surfaces
TABLE_VAL_SEED = 62000  # the game tables that choose, on the validation surfaces (`--real val`)
EMPTY_TABLES = 120  # tables with pieces and no die: what the camera sees between rolls
EMPTY_SEED, EMPTY_VAL_SEED = 54000, 64000  # the empty tables that report, and those that choose
VAL_FRACTION = 0.2  # vision.train.TrainConfig.real_val_fraction: the same photos the classifier's recipe chose on


@dataclass(frozen=True)
class TrueDie:
    label: str
    corners: np.ndarray  # float32 [4, 2]: the die's box in the photo


@dataclass
class Tally:
    """Outcomes of rolls and counts of dice, for one band of one dataset."""

    rolls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    dice: int = 0
    found: int = 0
    invented: int = 0
    faces_right: int = 0

    def add(self, other: Tally) -> None:
        for k in OUTCOMES:
            self.rolls[k] += other.rolls[k]
        self.dice += other.dice
        self.found += other.found
        self.invented += other.invented
        self.faces_right += other.faces_right

    def figures(self) -> dict:
        n = sum(self.rolls.values())
        return {
            "rolls": n,
            **{k: round(v / max(n, 1), 3) for k, v in self.rolls.items()},
            "dice": self.dice,
            "found": round(self.found / max(self.dice, 1), 4),
            "invented": self.invented,
            "invented_rate": round(self.invented / max(self.dice, 1), 4),
            "faces_right_of_found": round(self.faces_right / max(self.found, 1), 4),
        }


def score_roll(truth: list[TrueDie], dice: list[DieReading], min_confidence: float = MIN_CONFIDENCE) -> Tally:
    """One photo's outcome and dice counts: each found die takes the first unmatched true die its centre lies in."""
    tally = Tally(dice=len(truth))
    matched: set[int] = set()
    for die in dice:
        point = (float(die.center[0]), float(die.center[1]))
        hit = next(
            (k for k, t in enumerate(truth) if k not in matched and cv2.pointPolygonTest(t.corners, point, False) >= 0),
            None,
        )
        if hit is None:
            tally.invented += 1
            continue
        matched.add(hit)
        tally.found += 1
        tally.faces_right += die.label == truth[hit].label
    if len(dice) != len(truth):
        outcome = "asks_count"
    elif any(d.confidence < min_confidence for d in dice):
        outcome = "asks_doubtful"
    elif sorted(d.label for d in dice) == sorted(t.label for t in truth):
        outcome = "right"
    else:
        outcome = "wrong"
    tally.rolls[outcome] = 1
    return tally


def band_of(n: int) -> str:
    return next(f"{lo}-{hi}" if hi < 99 else f"{lo}+" for lo, hi in BANDS if lo <= n <= hi)


def table_kind(name: str, truth: list[TrueDie]) -> str:
    """The band of a game table is its kind (`table_scenes` names it), so a reader sees which kind is missed."""
    return name.split("@table-")[1].split("#")[0]


def tally_rolls(
    photos: Iterable[tuple[str, np.ndarray, list[TrueDie]]],
    detect: Callable[[np.ndarray], list[DieReading]],
    band: Callable[[str, list[TrueDie]], str] = lambda name, truth: band_of(len(truth)),
) -> tuple[dict[str, Tally], list[float], list]:
    """Tallies per band (by default the dice count; and "all"), ms per photo, and the photos that were not right
    (name, outcome)."""
    from vision.synth import EMPTY_TABLE, TABLE_KINDS

    bands: dict[str, Tally] = {}
    ms: list[float] = []
    misses = []
    for name, image, truth in photos:
        started = time.perf_counter()
        dice = detect(image)
        ms.append((time.perf_counter() - started) * 1000)
        one = score_roll(truth, dice)
        for key in (band(name, truth), "all"):
            bands.setdefault(key, Tally()).add(one)
        outcome = next(k for k, v in one.rolls.items() if v)
        if outcome != "right":
            misses.append((name, outcome, len(truth), len(dice)))
    order = [band_of(lo) for lo, _ in BANDS] + [*TABLE_KINDS, EMPTY_TABLE, "all"]
    return {k: bands[k] for k in order if k in bands}, ms, misses


# -- datasets ------------------------------------------------------------------------------------------------------


def real_names(split: str, root: Path = REAL_D6_TRAY) -> tuple[str, list[str]]:
    """(folder, photo names) of "test", or of "val"/"train": the real train split cut by photo time."""
    if split == "test":
        return "test", sorted(p.name for p in (root / "test" / "images").glob("*.jpg"))
    names = sorted(p.name for p in (root / "train" / "images").glob("*.jpg"))  # names carry the capture time
    n_val = max(1, int(round(len(names) * VAL_FRACTION)))
    return "train", names[-n_val:] if split == "val" else names[:-n_val]


def real_photos(split: str, root: Path = REAL_D6_TRAY):
    """(name, image, truth) of a real split, the listed label errors corrected (the faces the photos show)."""
    folder, names = real_names(split, root)
    errors = {(e["image"], e["box"]): e["shows"] for e in listed(folder)}
    for name in names:
        image = cv2.imread(str(root / folder / "images" / name), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        boxes = yolo_boxes((root / folder / "labels" / f"{Path(name).stem}.txt").read_text(), w, h)
        truth = [
            TrueDie(errors.get((name, k), str(cls + 1)), np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
            for k, (cls, (x0, y0, x1, y1)) in enumerate(boxes)
        ]
        yield name, image, truth


def synthetic_scenes(dice_set: str, count: int = SYNTH_SCENES, seed: int = 15000, surfaces: tuple[str, ...] = (),
                     sensor: bool = False):
    """(name, image, truth) of scenes on held-out surfaces (or `surfaces`): a fixed series per set, so runs
    compare; through a camera's look with `sensor` (`looks_through_camera`)."""
    from vision.synth import get_dice_set, render_scene
    from vision.synth.backgrounds import HELD_OUT_BACKGROUNDS

    surfaces = surfaces or HELD_OUT_BACKGROUNDS
    faces = get_dice_set(dice_set).faces
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        n = (1 + k % 5) if k < count // 2 else (6 + k % 5) if k < count * 5 // 6 else int(rng.integers(11, 16))
        labels = [faces[int(i)] for i in rng.integers(0, len(faces), n)]
        kind = k % 4  # plain, touching pair, white dice, a hand reaching in
        scene = render_scene(
            labels,
            dice_set,
            rng,
            640,
            480,
            touching=kind == 1 and n >= 2,
            background=surfaces[(k // 4) % len(surfaces)],
            palette="white" if kind == 2 else None,
            distractors=["hand"] if kind == 3 and n <= 10 else None,
            sensor=sensor,
        )
        truth = [TrueDie(d.label, np.float32(d.box)) for d in scene.dice]
        yield f"{dice_set}#{k}", scene.image, truth


def table_scenes(dice_set: str, count: int = SYNTH_SCENES, seed: int = TABLE_SEED, surfaces: tuple[str, ...] = (),
                 sensor: bool = False):
    """(name, image, truth) of game tables rather than empty trays (issue 38, `vision.synth.render_table`): pieces
    among dice, close dice and far dice in turn, on held-out surfaces (or `surfaces`); through a camera's look with
    `sensor`."""
    from vision.synth import TABLE_KINDS, render_table
    from vision.synth.backgrounds import HELD_OUT_BACKGROUNDS

    surfaces = surfaces or HELD_OUT_BACKGROUNDS
    for k in range(count):
        scene = render_table(
            dice_set, np.random.default_rng(seed + k), TABLE_KINDS[k % 3],
            background=surfaces[(k // 3) % len(surfaces)], sensor=sensor,
        )
        truth = [TrueDie(d.label, np.float32(d.box)) for d in scene.dice]
        yield f"{dice_set}@table-{TABLE_KINDS[k % 3]}#{k}", scene.image, truth


def empty_tables(count: int = EMPTY_TABLES, seed: int = EMPTY_SEED, surfaces: tuple[str, ...] = ()):
    """(name, image, no dice) of game tables between rolls (`EMPTY_TABLE`): 2-4 pieces, no die, on held-out surfaces
    (or `surfaces`). The detector and its verifier serve every set, so one series tells them all."""
    from vision.synth import EMPTY_TABLE, render_table
    from vision.synth.backgrounds import HELD_OUT_BACKGROUNDS

    surfaces = surfaces or HELD_OUT_BACKGROUNDS
    for k in range(count):
        scene = render_table("d6", np.random.default_rng(seed + k), EMPTY_TABLE, background=surfaces[k % len(surfaces)])
        yield f"empty@table-{EMPTY_TABLE}#{k}", scene.image, []


def looks_through_camera(dice_set: str) -> bool:
    """Whether a set's scenes are rendered through a camera's look: when its shipped model trained through one, so
    its rolls are read as the model expects a real camera to show them (as `bench/models.py` renders them)."""
    card = MODELS_DIR / f"{dice_set}.json"
    return card.is_file() and trained_through_sensor(load_card(card))


# -- report --------------------------------------------------------------------------------------------------------


def automatic(
    classifier: Classifier, detector: object = "shipped", verifier: object = "shipped"
) -> Callable[[np.ndarray], list[DieReading]]:
    """What `companion detect` does with one photo: a fresh pipeline, no calibration."""
    return lambda image: Pipeline(None, classifier, detector=detector, verifier=verifier).detect(image)


def print_table(title: str, bands: dict[str, Tally], ms: list[float]) -> dict:
    print(title)
    print(
        f"  {'dice':>6} {'rolls':>5} {'right':>7} {'ask:count':>9} {'ask:doubt':>9} {'wrong':>6} "
        f"{'found':>13} {'invented':>8} {'faces right':>13}"
    )
    out = {}
    for key, t in bands.items():
        f = t.figures()
        out[key] = f
        found, faces = (f"{f['found']:5.1%}", f"{f['faces_right_of_found']:13.1%}") if t.dice else ("", "")
        print(
            f"  {key:>6} {f['rolls']:5d} {f['right']:7.1%} {f['asks_count']:9.1%} {f['asks_doubtful']:9.1%} "
            f"{t.rolls['wrong']:6d} {t.found:5d}/{t.dice:<4d}{found:>5} {t.invented:8d} {faces:>13}"
        )
    median = round(sorted(ms)[len(ms) // 2], 1) if ms else 0.0
    print(f"  median {median} ms per photo")
    out["ms_per_photo"] = median
    return out


def run(
    real: str = "test",
    show_misses: bool = False,
    detector: object = "shipped",
    synthetic: bool = False,
    scenes: int = SYNTH_SCENES,
    table: bool = False,
    verifier: object = "shipped",
) -> dict:
    """`detector`: "shipped" (what the app runs), None (the classical segmenter) or a `vision.detector.Detector`;
    `verifier` likewise (None: every box the detector finds is taken).
    `scenes` per dice set: 60 tell a poor detector from a good one, not two good ones apart (with ``--real val
    --synthetic``: on 60 scenes a set run 3 left 8 dice missed or invented and run 7 7; on 300, 68 and 39:
    models/dice_detector.md)."""
    machine, missing = open_benchmark()
    name = {"shipped": "the shipped detector if it loads", None: "classical segmenter"}.get(detector, "given detector")
    checked = {"shipped": "the shipped die verifier if it loads", None: "no die verifier"}.get(
        verifier, "given verifier"
    )
    print(f"dice found by: {name}; boxes checked by: {checked}")
    results: dict = {"machine": machine, "min_confidence": MIN_CONFIDENCE, "verifier": verifier is not None}
    if missing:
        print(f"real photos skipped: {missing}")
        results["real"] = {"skipped": missing}
    else:
        classifier = Classifier.load(MODELS_DIR / "d6.json", threads=1)
        bands, ms, misses = tally_rolls(real_photos(real), automatic(classifier, detector, verifier))
        why = "the latest fifth of train, for choosing" if real == "val" else "reporting only"
        title = f"real-d6-tray {real} split ({why}), 640x640, automatic mode, d6 model:"
        results[f"real_{real}"] = print_table(title, bands, ms)
        if show_misses:
            for miss in misses:
                print("   ", *miss)
    table = table or real == "test"  # the test split always reads the game tables: `make bench` prints them
    if synthetic or table:
        from vision.synth import dice_set_names
        from vision.synth.backgrounds import HELD_OUT_BACKGROUNDS, VALIDATION_BACKGROUNDS

        # held-out surfaces report; with the validation photos, the validation surfaces are for choosing
        surfaces = HELD_OUT_BACKGROUNDS if real == "test" else VALIDATION_BACKGROUNDS
        for dice_set in dice_set_names():  # every set the renderer knows and a classifier reads
            card = MODELS_DIR / f"{dice_set}.json"
            if not card.is_file():
                continue
            classifier = Classifier.load(card, threads=1)
            looks = trained_through_sensor(classifier.card)  # as `looks_through_camera`, from the card just loaded
            bands, ms, _ = tally_rolls(
                synthetic_scenes(dice_set, scenes, surfaces=surfaces, sensor=looks),
                automatic(classifier, detector, verifier),
            )
            through = ", through a camera's look" if looks else ""
            results[f"synthetic_{dice_set}"] = print_table(
                f"synthetic {dice_set}, {scenes} scenes 640x480 on {', '.join(surfaces)}{through}, automatic mode:",
                bands,
                ms,
            )
            if table:
                seed = TABLE_SEED if real == "test" else TABLE_VAL_SEED
                tables = table_scenes(dice_set, scenes, seed, surfaces, sensor=looks)
                bands, ms, misses = tally_rolls(tables, automatic(classifier, detector, verifier), table_kind)
                results[f"table_{dice_set}"] = print_table(
                    f"synthetic {dice_set} at a game table (pieces, close and far dice), {scenes} scenes on "
                    f"{', '.join(surfaces)}{through}, automatic mode:",
                    bands,
                    ms,
                )
                if show_misses:
                    for miss in misses:
                        print("   ", *miss)
        if table:
            seed = EMPTY_SEED if real == "test" else EMPTY_VAL_SEED
            classifier = Classifier.load(MODELS_DIR / "d6.json", threads=1)  # what an invented die reads as is moot
            bands, ms, _ = tally_rolls(empty_tables(seed=seed, surfaces=surfaces), automatic(classifier, detector,
                                                                                           verifier), table_kind)
            results["empty_tables"] = print_table(
                f"empty game tables (2-4 pieces, no die), {EMPTY_TABLES} on {', '.join(surfaces)}, automatic mode "
                "(right: nothing read as a die):",
                bands,
                ms,
            )
    return results


def sweep_series(real: str, scenes: int) -> tuple[dict, dict]:
    """(results head, {series name: photos}) of a sweep: the real photos of `real`, every set's plain scenes and
    game tables, and the empty tables, on the validation surfaces with `real` "val", else the held-out ones."""
    from vision.synth import dice_set_names
    from vision.synth.backgrounds import HELD_OUT_BACKGROUNDS, VALIDATION_BACKGROUNDS

    machine, missing = open_benchmark()
    surfaces = HELD_OUT_BACKGROUNDS if real == "test" else VALIDATION_BACKGROUNDS
    seed = TABLE_SEED if real == "test" else TABLE_VAL_SEED
    series = {} if missing else {f"real_{real}": real_photos(real)}
    for dice_set in dice_set_names():
        looks = looks_through_camera(dice_set)
        series[f"synthetic_{dice_set}"] = synthetic_scenes(dice_set, scenes, surfaces=surfaces, sensor=looks)
        series[f"table_{dice_set}"] = table_scenes(dice_set, scenes, seed, surfaces, sensor=looks)
    series["empty_tables"] = empty_tables(seed=EMPTY_SEED if real == "test" else EMPTY_VAL_SEED, surfaces=surfaces)
    print(f"detection alone, {scenes} scenes a set on {', '.join(surfaces)}: dice missed / invented")
    return {"machine": machine, "surfaces": list(surfaces), "scenes": scenes}, series


def found_dice(blobs: list) -> list:
    """Boxes as `score_roll` counts them: where they are, read surely."""
    from types import SimpleNamespace

    return [SimpleNamespace(center=b.center, label="", confidence=1.0) for b in blobs]


def sweep_totals(results: dict, runs: list[str]) -> None:
    for kind in ("real", "synthetic", "table", "empty"):
        totals = {run: sum(sum(v[run]) for k, v in results.items() if k.startswith(kind)) for run in runs}
        results[f"{kind}_missed_and_invented"] = totals
        print(f"  {kind} missed + invented: " + "; ".join(f"{run} {n}" for run, n in totals.items()))


def sweep(paths: list[Path], thresholds: list[float], real: str = "val", scenes: int = SYNTH_SCENES) -> dict:
    """Detection alone for each detector at each heat threshold over the same photos and scenes (`sweep_series`):
    dice missed and invented, what a detector's run and threshold are chosen by on validation."""
    from vision.detector import Detector

    runs = {f"{p.name}@{t}": Detector(p, threshold=t) for p in paths for t in thresholds}
    results, series = sweep_series(real, scenes)
    for key, photos in series.items():
        tallies = {run: Tally() for run in runs}
        for _, image, truth in photos:
            for run, detector in runs.items():
                tallies[run].add(score_roll(truth, found_dice(detector.find(image))))
        results[key] = {run: [t.dice - t.found, t.invented] for run, t in tallies.items()}
        print(f"  {key}: " + "; ".join(f"{run} {m} / {i}" for run, (m, i) in results[key].items()), flush=True)
    sweep_totals(results, list(runs))
    return results


def sweep_verifier(card: Path, thresholds: list[float], real: str = "val", scenes: int = SYNTH_SCENES,
                   detector: object = None) -> dict:
    """The detector's boxes (the shipped one's, or ``detector``'s) kept by the die verifier at each of its
    thresholds, and all of them ("off"), over the same photos and scenes (`sweep_series`): dice missed and invented,
    what the verifier's threshold is chosen by on validation. Each box is read once; the thresholds only cut its
    score."""
    from vision.detector import shipped_detector
    from vision.verify import Verifier

    detector, verifier = detector or shipped_detector(), Verifier.load(card)
    runs = ["off", *(f"{t:g}" for t in thresholds)]
    results, series = sweep_series(real, scenes)
    for key, photos in series.items():
        tallies = {run: Tally() for run in runs}
        for _, image, truth in photos:
            blobs = detector.find(image)
            scores = verifier.scores(image, blobs)
            tallies["off"].add(score_roll(truth, found_dice(blobs)))
            for t in thresholds:
                kept = [b for b, s in zip(blobs, scores, strict=True) if s >= t]
                tallies[f"{t:g}"].add(score_roll(truth, found_dice(kept)))
        results[key] = {run: [t.dice - t.found, t.invented] for run, t in tallies.items()}
        print(f"  {key}: " + "; ".join(f"{run} {m} / {i}" for run, (m, i) in results[key].items()), flush=True)
    sweep_totals(results, runs)
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", choices=("test", "val"), default="test", help="which real photos (default test)")
    parser.add_argument("--misses", action="store_true", help="list the photos that were not right")
    parser.add_argument("--classical", action="store_true", help="the classical segmenter, not the detector")
    parser.add_argument("--detector", type=Path, help="another detector model (.onnx) than the shipped one")
    parser.add_argument("--threshold", type=float, help="its heat-map threshold")
    parser.add_argument("--synthetic", action="store_true", help="also the plain synthetic scenes with --real val")
    parser.add_argument(
        "--table",
        action="store_true",
        help="with --real val: also rendered game tables (pieces among the dice, close and far dice, empty tables: "
        "issue 38) and the plain synthetic scenes (the test split always has them)",
    )
    parser.add_argument("--scenes", type=int, default=SYNTH_SCENES, help=f"per dice set (default {SYNTH_SCENES})")
    parser.add_argument(
        "--sweep",
        type=lambda v: [float(t) for t in v.split(",")],
        help="detection alone at each of these heat thresholds (e.g. 0.35,0.4,0.45) for --detector "
        "(or the shipped one) and each --also",
    )
    parser.add_argument("--also", type=Path, action="append", default=[], help="with --sweep: another detector")
    parser.add_argument(
        "--no-verifier", action="store_true", help="take every box the detector finds (no die verifier)"
    )
    parser.add_argument("--verifier", type=Path, help="another die verifier card (.json) than the shipped one")
    parser.add_argument(
        "--sweep-verifier",
        type=lambda v: [float(t) for t in v.split(",")],
        help="detection alone, the boxes of --detector (or the shipped one) kept by --verifier (or the shipped "
        "one) at each of these die probabilities (e.g. 0.3,0.5,0.7), and without it",
    )
    args = parser.parse_args()
    if args.sweep:
        sweep([args.detector or DEFAULT_DETECTOR, *args.also], args.sweep, args.real, args.scenes)
        raise SystemExit(0)
    chosen: object = None if args.classical else "shipped"
    if args.detector:
        from vision.detector import Detector

        chosen = Detector(args.detector, threshold=args.threshold) if args.threshold else Detector(args.detector)
    if args.sweep_verifier:
        from vision.verify import DEFAULT_CARD

        sweep_verifier(args.verifier or DEFAULT_CARD, args.sweep_verifier, args.real, args.scenes,
                       chosen if args.detector else None)
        raise SystemExit(0)
    verifier: object = None if args.no_verifier else args.verifier or "shipped"
    figures = run(args.real, args.misses, chosen, args.synthetic, args.scenes, args.table, verifier)
    if chosen == "shipped" and verifier == "shipped" and args.real == "test":  # the README's figures only
        record("rolls", figures)
