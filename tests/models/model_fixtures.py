"""Helpers for the model tests: a hand-made ONNX colour classifier, so card, evaluation and enrolment plumbing
can be tested without training anything. (A module of its own: every test folder has a `conftest`.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"

COLOUR_LABELS = ["blue", "green", "red"]


def make_colour_model(directory: Path, size: int = 16) -> Path:
    """An ONNX 'classifier' whose logits are the mean B, G, R of the crop (so the brightest channel wins).

    Its embedding is the mean colour too. Returns the card path.
    """
    import onnx
    from onnx import TensorProto, helper

    inp = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, size, size])
    logits = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 3])
    embedding = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["N", 3])
    nodes = [
        helper.make_node("GlobalAveragePool", ["input"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["embedding"]),
        helper.make_node("Mul", ["embedding", "gain"], ["logits"]),
    ]
    gain = helper.make_tensor("gain", TensorProto.FLOAT, [1], [10.0])
    graph = helper.make_graph(nodes, "colour", [inp], [logits, embedding], initializer=[gain])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(directory / "colour.onnx"))
    card = {
        "name": "colour", "dice_set": "colour", "format": 1, "model": "colour.onnx", "labels": COLOUR_LABELS,
        "input": {"name": "input", "size": [size, size], "color": "BGR", "layout": "NCHW",
                  "scale": 1 / 255, "mean": [0.0, 0.0, 0.0], "std": [1.0, 1.0, 1.0]},
        "outputs": {"logits": "logits", "embedding": "embedding"},
        "trained_on": {"note": "hand-made test model"}, "accuracy": {},
    }
    path = directory / "colour.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    return path


def shipped_card(name: str) -> Path:
    """The shipped card for a dice set, or skip the test saying what is missing."""
    path = MODELS / f"{name}.json"
    if not path.is_file() or not (MODELS / f"{name}.onnx").is_file():
        pytest.skip(f"shipped model {name} not found in {MODELS} (run `make models`)")
    return path
