"""Fixtures for the vision tests: a tiny hand-made ONNX model with a real card, and synthetic scenes.

The model's logits are a fixed linear map of the crop's mean colour, so it is deterministic and fast; these tests
check the plumbing (segmentation, settling, voting, CLI), not accuracy (bench and tests/models do that). A rendered
scene's dice can be moved, taken out or shown with another die's face, as a hand at the table would.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

D6 = ["1", "2", "3", "4", "5", "6"]


@pytest.fixture
def patience() -> float:
    """How many times longer than on a desktop a camera thread may take to answer: ``TEST_PATIENCE`` (default 1).
    pi-check's emulated arm64 runs Python some 80 times slower, and sets it."""
    return float(os.environ.get("TEST_PATIENCE", "1"))


def make_tiny_model(directory: Path, labels: list[str] = D6, size: int = 32, name: str = "tiny",
                    dice_set: str = "d6") -> Path:
    """Write <name>.onnx and its card <name>.json into `directory`; returns the card path."""
    import onnx
    from onnx import TensorProto, helper

    c = len(labels)
    weights = np.random.default_rng(0).normal(0, 4, (3, c)).astype(np.float32)
    inp = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, size, size])
    logits = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", c])
    embedding = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["N", 3])
    nodes = [
        helper.make_node("GlobalAveragePool", ["input"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["embedding"]),
        helper.make_node("MatMul", ["embedding", "w"], ["logits"]),
    ]
    w = helper.make_tensor("w", TensorProto.FLOAT, [3, c], weights.ravel().tolist())
    graph = helper.make_graph(nodes, name, [inp], [logits, embedding], initializer=[w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(directory / f"{name}.onnx"))
    card = {
        "name": name, "dice_set": dice_set, "format": 1, "model": f"{name}.onnx", "labels": labels,
        "input": {"name": "input", "size": [size, size], "color": "BGR", "layout": "NCHW",
                  "scale": 1 / 255, "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]},
        "outputs": {"logits": "logits", "embedding": "embedding"},
    }
    path = directory / f"{name}.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def tiny_card(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tiny_model(tmp_path_factory.mktemp("model"))


@pytest.fixture(scope="session")
def classifier(tiny_card: Path):
    from vision.classify import Classifier

    return Classifier.load(tiny_card)


def _square(scene, index: int) -> tuple[int, int, int, int]:
    """The rows and columns of a square a die's side from its centre each way: the die with its shadow."""
    die = scene.dice[index]
    r, x, y = int(die.size), int(die.center[0]), int(die.center[1])
    h, w = scene.image.shape[:2]
    return max(0, y - r), min(h, y + r), max(0, x - r), min(w, x + r)


def nudged(scene, index: int = 0, shift: int = -50) -> np.ndarray:
    """The tray with die `index` pushed `shift` pixels to the right (the default: a die's width to the left, beyond
    half the width of its box, which holds the die's sides as the camera sees them)."""
    image = taken_out(scene, index)
    y0, y1, x0, x1 = _square(scene, index)
    image[y0:y1, x0 + shift:x1 + shift] = scene.image[y0:y1, x0:x1]
    return image


def taken_out(scene, index: int, image: np.ndarray | None = None) -> np.ndarray:
    """The tray (`image`: the scene's unless given) with die `index` taken out: the empty tray where it lay."""
    image = (scene.image if image is None else image).copy()
    y0, y1, x0, x1 = _square(scene, index)
    image[y0:y1, x0:x1] = scene.empty[y0:y1, x0:x1]
    return image


def turned(scene, index: int, like: int) -> np.ndarray:
    """The tray with die `index` showing what die `like` shows (another face, where `index` lay)."""
    image = scene.image.copy()
    d, s = scene.dice[index], scene.dice[like]
    r = int(min(d.size, s.size) * 0.75)
    (x, y), (u, v) = (int(c) for c in d.center), (int(c) for c in s.center)
    image[y - r:y + r, x - r:x + r] = scene.image[v - r:v + r, u - r:u + r]
    return image
