"""Accuracy of a dice classifier on labelled photos: per-class accuracy and the confusion matrix.

`companion eval --dice d6 --images DIR --labels DIR` cuts one crop around every YOLO box (`cls xc yc w h`,
normalised; `cls` indexes the model card's labels), classifies them and prints the report.
The same helpers measure the figures written into the model cards and `models/README.md`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .card import Card, load_card
from .crops import BOX_MARGIN, box_crop, yolo_boxes

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
REAL_D6_TRAY = Path(os.environ.get("REAL_D6_TRAY",
                                   Path(__file__).resolve().parents[2] / "shared" / "datasets" / "real-d6-tray"))
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


@dataclass
class LabelledCrops:
    crops: list[np.ndarray]
    labels: np.ndarray  # class index per crop
    sources: list[str]  # image file name per crop


def real_d6_missing_reason(root: Path = REAL_D6_TRAY) -> str | None:
    """None when the real-d6-tray dataset is there, else a sentence saying what is missing and where."""
    for split in ("train", "test"):
        for part in ("images", "labels"):
            if not (root / split / part).is_dir():
                return (f"real-d6-tray dataset not found: {root / split / part} is missing "
                        "(set REAL_D6_TRAY to its folder)")
    return None


def load_yolo_crops(images: Path, labels: Path, size: int, margin: float = BOX_MARGIN,
                    names: list[str] | None = None) -> LabelledCrops:
    """One square crop (size x size, `margin` x the box side) per labelled box, in file-name order.

    names: only these image files (e.g. a time-ordered part of a split).
    """
    images, labels = Path(images), Path(labels)
    if not images.is_dir():
        raise FileNotFoundError(f"images folder not found: {images}")
    if not labels.is_dir():
        raise FileNotFoundError(f"labels folder not found: {labels}")
    files = sorted(p for p in images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if names is not None:
        wanted = set(names)
        files = [p for p in files if p.name in wanted]
    out = LabelledCrops([], np.zeros(0, np.int64), [])
    classes: list[int] = []
    for path in files:
        label_file = labels / (path.stem + ".txt")
        if not label_file.is_file():
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read image {path}")
        h, w = image.shape[:2]
        try:
            boxes = yolo_boxes(label_file.read_text(encoding="utf-8"), w, h)
        except ValueError as exc:
            raise ValueError(f"{label_file}: {exc}") from exc
        for cls, box in boxes:
            out.crops.append(box_crop(image, box, size, margin))
            classes.append(cls)
            out.sources.append(path.name)
    out.labels = np.asarray(classes, np.int64)
    return out


def confusion_matrix(true: np.ndarray, pred: np.ndarray, n: int) -> np.ndarray:
    """cm[t, p] = how many dice of true class t were predicted p."""
    cm = np.zeros((n, n), np.int64)
    np.add.at(cm, (np.asarray(true, np.int64), np.asarray(pred, np.int64)), 1)
    return cm


def accuracy_summary(cm: np.ndarray, labels: list[str] | tuple[str, ...]) -> dict:
    """The card's accuracy record: overall, per class, and the matrix (rows = true, columns = predicted)."""
    total = int(cm.sum())
    per_class = {}
    for i, name in enumerate(labels):
        n = int(cm[i].sum())
        per_class[name] = {"n": n, "accuracy": round(float(cm[i, i]) / n, 4) if n else None}
    return {
        "n": total,
        "accuracy": round(float(np.trace(cm)) / total, 4) if total else None,
        "per_class": per_class,
        "confusion": cm.tolist(),
    }


def pair_confusion(cm: np.ndarray, labels: list[str] | tuple[str, ...], pairs: Iterable[tuple[str, str]],
                   members: Callable[[str], tuple[str, ...]]) -> list[dict]:
    """How often each confusable pair was mixed up: dice of `a` read as any of `b`'s labels and the other way round.

    members(name): the labels a pair's name stands for (a label, or every face of a die type:
    `vision.synth.DiceSet.labels_of`).
    """
    index = {x: i for i, x in enumerate(labels)}
    out = []
    for a, b in pairs:
        ia, ib = [index[x] for x in members(a)], [index[x] for x in members(b)]
        out.append({"pair": [a, b], "n_a": int(cm[ia].sum()), "a_as_b": int(cm[np.ix_(ia, ib)].sum()),
                    "n_b": int(cm[ib].sum()), "b_as_a": int(cm[np.ix_(ib, ia)].sum())})
    return out


def format_pairs(pairs: list[dict]) -> list[str]:
    """Markdown table rows of `pair_confusion`."""
    rows = ["| confusable pair (a / b) | a read as b | b read as a |", "|---|---|---|"]
    for p in pairs:
        a, b = p["pair"]
        rows.append(f"| {a} / {b} | {p['a_as_b']} of {p['n_a']} | {p['b_as_a']} of {p['n_b']} |")
    return rows


def format_report(summary: dict, labels: list[str] | tuple[str, ...], title: str = "") -> str:
    lines = [title] if title else []
    acc = summary["accuracy"]
    lines.append(f"dice: {summary['n']}  accuracy: {acc * 100:.2f}%" if acc is not None else "dice: 0")
    for name in labels:
        pc = summary["per_class"][name]
        shown = f"{pc['accuracy'] * 100:6.2f}%" if pc["accuracy"] is not None else "     -"
        lines.append(f"  {name:>8}: {shown}  (n={pc['n']})")
    width = max(8, max(len(x) for x in labels) + 1)
    lines.append("confusion (rows = true, columns = predicted):")
    lines.append(" " * width + "".join(f"{x:>{width}}" for x in labels))
    for name, row in zip(labels, summary["confusion"], strict=True):
        lines.append(f"{name:>{width}}" + "".join(f"{v:>{width}}" for v in row))
    if summary.get("pairs"):
        lines += ["confusable pairs:", *format_pairs(summary["pairs"])]
    return "\n".join(lines)


def confusion_png(cm: np.ndarray, labels: list[str] | tuple[str, ...], path: Path, title: str) -> Path:
    """Draw the confusion matrix (row-normalised shading, counts written in) with OpenCV. Beyond 12 classes (Cubitos'
    die type x face) the cells shrink, rows carry the whole label and columns its row number."""
    n = len(labels)
    many = n > 12
    cell, left, top = (26, 190, 60) if many else (64, 90, 70)
    img = np.full((top + cell * n + 40, left + cell * n + 20, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, title, (10, 24), font, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    rows = cm.sum(1, keepdims=True).clip(min=1)
    for t in range(n):
        for p in range(n):
            frac = cm[t, p] / rows[t, 0]
            shade = int(255 - 200 * frac)
            colour = (255, shade, shade) if t == p else (shade, shade, 255)
            x, y = left + p * cell, top + t * cell
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), (200, 200, 200), 1)
            text = str(int(cm[t, p]))
            if many and text == "0":
                continue
            scale = 0.3 if many else 0.5
            (tw, th), _ = cv2.getTextSize(text, font, scale, 1)
            cv2.putText(img, text, (x + (cell - tw) // 2, y + (cell + th) // 2), font, scale, (0, 0, 0), 1,
                        cv2.LINE_AA)
    for i, name in enumerate(labels):
        row = f"{i + 1} {name}"[:24] if many else name[:8]
        cv2.putText(img, row, (6, top + i * cell + cell // 2 + 5), font, 0.4 if many else 0.45, (0, 0, 0), 1,
                    cv2.LINE_AA)
        cv2.putText(img, str(i + 1) if many else name[:7], (left + i * cell + 4, top - 8), font, 0.4, (0, 0, 0), 1,
                    cv2.LINE_AA)
    cv2.putText(img, "rows: true   columns: predicted", (left, top + n * cell + 26), font, 0.45, (80, 80, 80), 1,
                cv2.LINE_AA)
    path = Path(path)
    cv2.imwrite(str(path), img)
    return path


def predict(card: Card, crops: list[np.ndarray], threads: int = 1, batch: int = 256) -> np.ndarray:
    """Predicted class index per crop with the card's ONNX model."""
    model = card.open(threads)
    preds = [np.argmax(model.run(crops[i:i + batch])[0], axis=1) for i in range(0, len(crops), batch)]
    return np.concatenate(preds) if preds else np.zeros(0, np.int64)


def evaluate_folder(card: Card, images: Path, labels: Path, margin: float = BOX_MARGIN) -> dict:
    data = load_yolo_crops(images, labels, card.input.size[0], margin)
    n = len(card.labels)
    if len(data.labels) and data.labels.max() >= n:
        raise ValueError(f"{labels}: class id {int(data.labels.max())} but the model has only {n} labels "
                         f"{list(card.labels)}")
    pred = predict(card, data.crops)
    return accuracy_summary(confusion_matrix(data.labels, pred, n), card.labels)


README_INTRO = """# Models

Dice classifiers shipped with table-companion. Each `<set>.onnx` has a card `<set>.json` (read by
`vision.card.load_card`) with its labels, input size and normalisation, what it was trained on and the accuracy
measured on data it never saw. This file is written by `python -m vision.train` from the cards; `make models`
retrains them, `python bench/models.py` re-measures accuracy and speed. The Cubitos and Automobiles sets read their
classes from the games' data files (`vision/synth/dice_sets.json`, `labels_from`); their cards also count how often
the pairs the games' rules call confusable were mixed up (rows "a read as b").

Input: a square BGR crop of one die (see `vision/crops.py`: centred, die edges axis-aligned, side 1.2 x die),
resized to the card's size; `x = (crop * scale - mean) / std`, NCHW, any batch size. Outputs: `logits` [N, C] and
`embedding` [N, D] (penultimate features, used by teach-your-dice in `vision/enrol.py`).
A card's `input.tta` names test-time views (`quarter_turns`: each crop is also classified turned by 90, 180 and 270
degrees in the same inference call, and the softmax averaged; `vision.card.TTA_VIEWS`). The app, `companion eval`
and every figure below classify that way.
"""


SYNTHETIC_LICENCE = "rendered by this project's own code (vision.synth, MIT); no third-party images"
YARDSTICK = "d6_synthetic_only"


def yardstick_line(models_dir: Path, trained_on: dict[str, Any] | None = None) -> str:
    """What renders-only training reads of real dice, from the renders-only d6's card: set beside every figure
    measured on renders alone, so that none stands as if it were a real one. It says so when the yardstick was
    rendered or built otherwise than the model it stands beside (``trained_on``, that model's card's)."""
    try:
        card = load_card(Path(models_dir) / f"{YARDSTICK}.json")
        real = card.accuracy["real_d6_tray_test"]
    except (OSError, ValueError, KeyError):
        return "- real dice: no photos of these dice, and no renders-only d6 yardstick measured beside them"
    mine = trained_on or {}
    renderer = mine.get("synthetic", {}).get("renderer")
    theirs = card.trained_on.get("synthetic", {}).get("renderer")
    other = f", rendered with {theirs}; these dice with {renderer}" if renderer and theirs != renderer else ""
    if "config" in mine:
        net, own = _net(card.trained_on), _net(mine)
        other += f", its net {net}; these dice's {own}" if net != own else ""
    return (f"- real dice: no photos of these dice; renders-only training read {real['accuracy'] * 100:.2f}% of the "
            f"{real['n']} real-d6-tray test dice (the renders-only d6 yardstick, `{YARDSTICK}`{other}): expect the "
            "synthetic figures below to flatter")


def _net(trained_on: dict[str, Any]) -> str:
    """A classifier's net as its card's config builds it: the widths, the stem's stride, and how many nets."""
    config = trained_on.get("config", {})
    nets = config.get("ensemble", 1)
    return (f"{'/'.join(map(str, config.get('widths', ())))} wide with a stem stride of {config.get('stem_stride')}"
            + (f", {nets} nets" if nets > 1 else ""))


HELD_OUT_PER_SET: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("plain_found", "plain rendered dice found", str),
    ("tables_found_invented_rolls_right", "rendered game tables, found / invented / rolls right with no tap",
     lambda v: f"{v[0]} / {v[1]} / {v[2]:.0%}"),
    ("plain_invented", "plain rendered scenes, dice invented", str),
    ("tables_wrong_without_asking", "rendered game tables, rolls wrong without asking", str),
)
"""The verifier card's held-out figures given per dice set, each with its figure before: the README's line for each."""


def verifier_lines(accuracy: dict[str, Any]) -> list[str]:
    """The verifier's figures (``vision.train_verifier``'s card): its threshold, how it was chosen, and what it did
    on the held-out photos and renders, before and after; none for a classifier's card."""
    held = next((v for k, v in accuracy.items() if k.startswith("held_out_test_at_")), None)
    if "threshold" not in accuracy or not held:
        return []
    real = held["real_d6_test"]
    lines = [f"- threshold {accuracy['threshold']}, chosen by: {accuracy.get('chosen_by')}",
             f"- held out ({held['command']}):",
             f"  - real d6 test photos: found {real['found']}, invented {real['invented']}, rolls right with no tap "
             f"{real['rolls_right']:.0%} (before: {real['before']['found']}, {real['before']['invented']}, "
             f"{real['before']['rolls_right']:.0%})"]
    for key, what, show in HELD_OUT_PER_SET:
        figures = held.get(key)
        if figures:
            lines.append(f"  - {what}: " + ", ".join(f"{k} {show(v)} (before {show(figures['before'][k])})"
                                                     for k, v in figures.items() if k != "before"))
    empty = held.get("empty_tables_invented")
    if empty:
        before = empty["before"]
        lines.append(f"  - rendered game tables between rolls (pieces, no die), things read as a die: "
                     f"{empty['invented']} on {empty['tables']} tables (before {before['invented']} on "
                     f"{before['tables']})")
    time = accuracy.get("time")
    if time:
        lines.append(f"- time: +{time['added_per_real_test_photo_ms']} ms a real test photo ({time['command']})")
    return lines


def write_models_readme(models_dir: Path = MODELS_DIR) -> Path:
    """Regenerate models/README.md from the cards in the folder (figures, sizes, confusion PNGs)."""
    models_dir = Path(models_dir)
    parts = [README_INTRO]
    for card_path in sorted(models_dir.glob("*.json")):
        try:
            card = load_card(card_path)
        except ValueError:
            continue
        size = card.model_path.stat().st_size if card.model_path.is_file() else 0
        trained = card.trained_on
        parts.append(f"## {card.name}\n")
        if trained.get("note"):  # what the model is for when not the app's (kept in its card, so regenerating keeps it)
            parts.append(f"**{trained['note']}**\n")
        parts.append(f"- labels: {', '.join(card.labels)}")
        parts.append(f"- model: `{card.model}`, {size / 1024:.0f} KiB, {trained.get('parameters', '?')} parameters, "
                     f"input {card.input.size[0]}x{card.input.size[1]}"
                     + (f", test-time views: {card.input.tta}" if card.input.tta != "none" else ""))
        synth = trained.get("synthetic", {})
        real = trained.get("real")
        if synth.get("scenes"):  # the verifier: crops cut from whole scenes and photos, not crops per class
            crops = trained.get("crops", {})
            parts.append(f"- trained on: {sum(crops.values())} crops ({', '.join(f'{k} {v}' for k, v in crops.items())}"
                         f") from {synth['scenes']} rendered scenes, seed {synth.get('seed')} ({synth.get('renderer')};"
                         f" {synth.get('licence', SYNTHETIC_LICENCE)})"
                         + (f" and {real['photos']} real photos ({real['dataset']}, {real['split']}: {real['crops']})"
                            if real else ""))
        elif synth:
            parts.append(f"- trained on: {synth.get('train_per_class')} synthetic crops per class "
                         f"({synth.get('renderer')}; {synth.get('licence', SYNTHETIC_LICENCE)})")
        if real and not synth.get("scenes"):
            parts.append(f"- and on: {real['dataset']} {real['split']} split, {real['dice_train']} dice from "
                         f"{real['photos_train']} photos; validation: {real['validation']} "
                         f"({real['dice_val']} dice)")
        if trained.get("chosen_on"):
            parts.append(f"- chosen on: {trained['chosen_on']}")
        verifier = verifier_lines(card.accuracy)  # measured on the real d6 photos itself
        if "real_d6_tray_test" not in card.accuracy and not verifier:
            parts.append(yardstick_line(models_dir, trained))
        training = trained.get("training", {})
        members = trained.get("ensemble")
        if members:
            parts.append(f"- an ensemble of {len(members)} nets, the same recipe with seeds "
                         f"{', '.join(str(m['seed']) for m in members)}, their logits averaged in one graph; "
                         "below: the first net's training")
        validated = training.get("validated_run")
        if validated:
            refit = real.get("refit", {}) if real else {}
            parts.append(f"- validated run: best epoch {validated.get('best_epoch')} of {validated.get('epochs_run')}"
                         f", {validated.get('seconds')} s, validation {validated.get('validation')}")
            parts.append(f"- shipped weights: refit on all {refit.get('dice_train')} train dice from "
                         f"{refit.get('photos_train')} photos for {refit.get('epochs')} epochs, "
                         f"{training.get('seconds')} s (synthetic validation {training.get('validation')})")
        elif training:
            parts.append(f"- training: best epoch {training.get('best_epoch')} of {training.get('epochs_run')}, "
                         f"{training.get('seconds')} s, validation {training.get('validation')}")
        parts += verifier
        parts.append("")
        for key, result in card.accuracy.items():
            if not isinstance(result, dict) or "per_class" not in result:
                continue
            parts.append(f"### {key}: {result['accuracy'] * 100:.2f}% of {result['n']} dice\n")
            parts.append(f"{result.get('data', '')}\n")
            parts.append("| class | n | accuracy |\n|---|---|---|")
            for name in card.labels:
                pc = result["per_class"][name]
                acc = f"{pc['accuracy'] * 100:.2f}%" if pc["accuracy"] is not None else "-"
                parts.append(f"| {name} | {pc['n']} | {acc} |")
            if result.get("pairs"):
                parts += ["", *format_pairs(result["pairs"])]
            if result.get("png"):
                parts.append(f"\n![{card.name} {key} confusion matrix]({result['png']})\n")
    detector = models_dir / "dice_detector.md"  # the detector's card (vision.train_detector): prose, no labels
    if detector.is_file():
        parts.append(detector.read_text(encoding="utf-8"))
    path = models_dir / "README.md"
    path.write_text("\n".join(parts).rstrip() + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    """`companion eval`: per-class accuracy and confusion matrix on YOLO-labelled photos."""
    parser = argparse.ArgumentParser(prog="companion eval", description=__doc__.splitlines()[0])
    parser.add_argument("--dice", required=True, help="dice set; its card is models/<SET>.json")
    parser.add_argument("--images", required=True, type=Path, help="folder of photos")
    parser.add_argument("--labels", required=True, type=Path, help="folder of YOLO .txt labels (same stems)")
    parser.add_argument("--card", type=Path, help="model card to use instead of models/<SET>.json")
    parser.add_argument("--margin", type=float, default=BOX_MARGIN, help="crop side / box side (default 1.15)")
    args = parser.parse_args(argv)
    card = load_card(args.card or MODELS_DIR / f"{args.dice}.json")
    try:
        summary = evaluate_folder(card, args.images, args.labels, args.margin)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    print(format_report(summary, card.labels, f"{card.name} on {args.images}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
