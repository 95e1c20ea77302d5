"""`companion eval`: crops around YOLO boxes, per-class accuracy and the confusion matrix, on a tiny fixture."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.card import load_card
from vision.evaluate import confusion_matrix, evaluate_folder, load_yolo_crops, main

BGR = {"blue": (200, 30, 30), "green": (30, 200, 30), "red": (30, 30, 200)}


def make_fixture(root: Path, squares: list[tuple[str, int]]) -> tuple[Path, Path]:
    """One 200x100 photo of grey felt with coloured squares; label file lists (class, box) per square.

    squares: (colour drawn, class written in the label file), placed left to right.
    """
    images, labels = root / "images", root / "labels"
    images.mkdir(parents=True)
    labels.mkdir()
    img = np.full((100, 200, 3), 90, np.uint8)
    lines = []
    for k, (colour, cls) in enumerate(squares):
        x0, y0 = 10 + k * 45, 30
        cv2.rectangle(img, (x0, y0), (x0 + 29, y0 + 29), BGR[colour], -1)
        lines.append(f"{cls} {(x0 + 15) / 200:.6f} {(y0 + 15) / 100:.6f} {30 / 200:.6f} {30 / 100:.6f}")
    cv2.imwrite(str(images / "photo.png"), img)
    (labels / "photo.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return images, labels


def test_crops_are_cut_around_every_labelled_box(tmp_path):
    images, labels = make_fixture(tmp_path, [("red", 2), ("blue", 0)])
    data = load_yolo_crops(images, labels, 16)
    assert list(data.labels) == [2, 0]
    assert data.sources == ["photo.png", "photo.png"]
    assert data.crops[0][8, 8].tolist() == list(BGR["red"])


def test_confusion_matrix_rows_are_truth_columns_are_predictions():
    cm = confusion_matrix(np.array([0, 0, 1, 2]), np.array([0, 1, 1, 2]), 3)
    assert cm.tolist() == [[1, 1, 0], [0, 1, 0], [0, 0, 1]]


def test_evaluation_counts_right_and_wrong_dice_per_class(tmp_path, colour_card):
    # the third square is red but labelled green: one green die misread as red
    images, labels = make_fixture(tmp_path / "set", [("blue", 0), ("red", 2), ("red", 1), ("green", 1)])
    summary = evaluate_folder(load_card(colour_card), images, labels)
    assert summary["n"] == 4
    assert summary["per_class"]["green"] == {"n": 2, "accuracy": 0.5}
    assert summary["per_class"]["blue"]["accuracy"] == 1.0
    assert summary["confusion"][1] == [0, 1, 1]
    assert summary["accuracy"] == 0.75


def test_eval_command_prints_accuracy_and_confusion(tmp_path, colour_card, capsys):
    images, labels = make_fixture(tmp_path / "set", [("blue", 0), ("green", 1), ("red", 2)])
    code = main(["--dice", "colour", "--card", str(colour_card), "--images", str(images), "--labels", str(labels)])
    out = capsys.readouterr().out
    assert code == 0
    assert "accuracy: 100.00%" in out
    assert "confusion" in out and "red" in out


def test_eval_command_reports_a_missing_folder(tmp_path, colour_card, capsys):
    code = main(["--dice", "colour", "--card", str(colour_card), "--images", str(tmp_path / "nope"),
                 "--labels", str(tmp_path)])
    assert code == 2
    assert "images folder not found" in capsys.readouterr().out


def test_a_class_id_beyond_the_model_labels_is_an_error(tmp_path, colour_card):
    images, labels = make_fixture(tmp_path / "set", [("blue", 5)])
    with pytest.raises(ValueError, match="class id 5"):
        evaluate_folder(load_card(colour_card), images, labels)


def test_regenerating_the_models_readme_keeps_a_cards_note_and_the_detector_card(tmp_path, colour_card):
    from vision.evaluate import write_models_readme

    (tmp_path / "dice_detector.md").write_text("## dice_detector\n\nfinds the dice\n", encoding="utf-8")
    text = write_models_readme(tmp_path).read_text(encoding="utf-8")
    assert "**hand-made test model**" in text
    assert text.rstrip().endswith("finds the dice")


def test_the_models_readme_shows_the_verifiers_threshold_and_its_held_out_figures_before_and_after(tmp_path):
    from vision.evaluate import MODELS_DIR, write_models_readme

    for name in ("dice_verifier.json", "dice_verifier.onnx"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    card = json.loads((tmp_path / "dice_verifier.json").read_text(encoding="utf-8"))["accuracy"]
    real = next(v for k, v in card.items() if k.startswith("held_out_test_at_"))["real_d6_test"]
    text = write_models_readme(tmp_path).read_text(encoding="utf-8")
    section = text.split("## dice_verifier", 1)[1]
    assert f"- threshold {card['threshold']}, chosen by: bench/rolls.py --real val" in section
    assert f"real d6 test photos: found {real['found']}" in section and f"(before: {real['before']['found']}" in section
    empty = next(v for k, v in card.items() if k.startswith("held_out_test_at_"))["empty_tables_invented"]
    assert (f"things read as a die: {empty['invented']} on {empty['tables']} tables (before "
            f"{empty['before']['invented']} on {empty['before']['tables']})") in section
    assert "crops (die_found" in section and "None synthetic crops" not in section
    assert "renders-only d6 yardstick" not in section  # measured on real photos itself
