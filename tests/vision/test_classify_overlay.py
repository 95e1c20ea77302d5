"""Classifier wrapper and overlay."""

from __future__ import annotations

import json

import numpy as np

from vision.classify import Classifier
from vision.overlay import AMBER, GREEN, RED, confidence_colour, draw
from vision.reading import DiceReading, DieReading


def test_all_crops_of_a_frame_go_through_one_inference_call(tiny_card):
    clf = Classifier.load(tiny_card, threads=1)
    calls = []
    run = clf.model.session.run
    clf.model.session.run = lambda *a, **k: calls.append(a[1]["input"].shape) or run(*a, **k)
    crops = [np.full((40, 40, 3), v, np.uint8) for v in (10, 80, 160, 240)]
    preds = clf.classify(crops)
    assert calls == [(4, 3, 32, 32)]
    assert len(preds) == 4
    for p in preds:
        assert p.label in clf.labels and p.runner_up[0] != p.label and p.confidence >= p.runner_up[1]


def test_a_cards_test_time_views_go_into_the_same_single_call(tiny_card, tmp_path):
    data = json.loads(tiny_card.read_text())
    data["input"]["tta"] = "quarter_turns"
    data["model"] = str(tiny_card.with_suffix(".onnx"))
    card = tmp_path / "tta.json"
    card.write_text(json.dumps(data))
    clf = Classifier.load(card, threads=1)
    calls = []
    run = clf.model.session.run
    clf.model.session.run = lambda *a, **k: calls.append(a[1]["input"].shape) or run(*a, **k)
    crops = [np.random.default_rng(i).integers(0, 256, (40, 40, 3), np.uint8) for i in range(3)]
    probs = clf.probabilities(crops)
    assert calls == [(12, 3, 32, 32)]
    assert probs.shape == (3, len(clf.labels))
    np.testing.assert_allclose(probs.sum(1), 1, atol=1e-5)


def test_without_an_enrolment_only_the_logits_are_fetched(tiny_card, tmp_path):
    from vision.enrol import Enrolment, use_enrolment

    clf = Classifier.load(tiny_card, threads=1)
    asked = []
    run = clf.model.session.run
    clf.model.session.run = lambda names, *a, **k: asked.append(list(names)) or run(names, *a, **k)
    crops = [np.full((40, 40, 3), v, np.uint8) for v in (10, 200)]
    plain = clf.probabilities(crops)
    enrolment = Enrolment(tmp_path / "enrol.npz", clf.card, clf.model)
    enrolment.add("1", crops)
    enrolment.fit()
    enrolment.save()
    use_enrolment(clf, enrolment.path)
    asked.clear()
    clf.probabilities(crops)
    assert asked == [["logits", "embedding"]]  # an enrolment's head needs the embedding too
    use_enrolment(clf, tmp_path / "gone.npz")
    asked.clear()
    np.testing.assert_allclose(clf.probabilities(crops), plain)
    assert asked == [["logits"]]


def test_the_onnx_file_beside_its_card_loads_too(tiny_card):
    assert Classifier.load(tiny_card.with_suffix(".onnx")).input_size == (32, 32)


def test_confidence_colours():
    assert confidence_colour(0.95) == GREEN and confidence_colour(0.7) == AMBER and confidence_colour(0.2) == RED


def test_overlay_draws_boxes_without_touching_the_frame():
    frame = np.zeros((120, 160, 3), np.uint8)
    die = DieReading("4", 0.5, ("5", 0.3), ((40, 40), (80, 40), (80, 80), (40, 80)), (60, 60))
    out = draw(frame, [die], status="rolling")
    assert not frame.any() and (out.reshape(-1, 3) == RED).all(axis=1).any()


def test_a_reading_serialises_to_json():
    die = DieReading("4", 0.91234, ("5", 0.05), ((1, 2), (3, 4), (5, 6), (7, 8)), (4, 5), partial=True)
    reading = DiceReading(frame_id=3, time=1.25, change=True, dice=(die,))
    assert reading.to_json() == (
        '{"frame_id": 3, "time": 1.25, "change": true, "dice": [{"label": "4", "confidence": 0.9123, '
        '"runner_up": ["5", 0.05], "center": [4.0, 5.0], "box": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], '
        '"partial": true}]}')


def test_vision_never_imports_the_application():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "vision"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n == "companion" or n.startswith("companion.") for n in names), path
