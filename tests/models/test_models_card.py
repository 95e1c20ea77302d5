"""Model cards: a good card loads; a bad one names the file and the field; preprocessing is the documented formula."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.card import CardError, load_card, parse_card, save_card


def write(tmp_path: Path, card: dict, name: str = "card.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(card), encoding="utf-8")
    return path


def good_card() -> dict:
    return {
        "name": "d6", "dice_set": "d6", "format": 1, "model": "d6.onnx", "labels": ["1", "2", "3", "4", "5", "6"],
        "input": {"name": "input", "size": [32, 32], "color": "BGR", "layout": "NCHW",
                  "scale": 0.00392156862745098, "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]},
        "outputs": {"logits": "logits", "embedding": "embedding"},
        "trained_on": {}, "accuracy": {},
    }


def test_a_good_card_loads_with_its_labels_and_input(tmp_path):
    card = load_card(write(tmp_path, good_card()))
    assert card.labels == ("1", "2", "3", "4", "5", "6")
    assert card.input.size == (32, 32)
    assert card.model_path == tmp_path / "d6.onnx"


@pytest.mark.parametrize("mutate, field", [
    (lambda c: c.pop("labels"), "labels"),
    (lambda c: c.update(labels=["1", "1"]), "labels"),
    (lambda c: c.update(format=2), "format"),
    (lambda c: c.update(model="d6.pt"), "model"),
    (lambda c: c["input"].update(size=[32]), "input.size"),
    (lambda c: c["input"].update(color="HSV"), "input.color"),
    (lambda c: c["input"].update(std=[0.2, 0.0, 0.2]), "input.std"),
    (lambda c: c["input"].update(mean=[0.5, 0.5]), "input.mean"),
    (lambda c: c["input"].pop("scale"), "input.scale"),
    (lambda c: c["outputs"].pop("embedding"), "outputs.embedding"),
    (lambda c: c.update(accuracy=[]), "accuracy"),
    (lambda c: c["input"].update(tta="sideways"), "input.tta"),
])
def test_a_bad_card_names_the_file_and_the_field(tmp_path, mutate, field):
    data = good_card()
    mutate(data)
    path = write(tmp_path, data, "broken.json")
    with pytest.raises(CardError) as err:
        load_card(path)
    assert err.value.field == field
    assert str(path) in str(err.value) and f"'{field}'" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_invalid_json_and_missing_files_are_card_errors(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CardError, match="bad.json.*line 1"):
        load_card(path)
    with pytest.raises(CardError, match="missing.json"):
        load_card(tmp_path / "missing.json")


def test_preprocess_is_scale_minus_mean_over_std_in_nchw(tmp_path):
    card = load_card(write(tmp_path, good_card()))
    crop = np.zeros((32, 32, 3), np.uint8)
    crop[..., 0], crop[..., 1], crop[..., 2] = 0, 128, 255  # B, G, R
    batch = card.preprocess([crop, crop])
    assert batch.shape == (2, 3, 32, 32) and batch.dtype == np.float32
    np.testing.assert_allclose(batch[0, :, 5, 5], [(0 - 0.5) / 0.25, (128 / 255 - 0.5) / 0.25, (1 - 0.5) / 0.25],
                               atol=1e-5)


def test_preprocess_resizes_crops_of_another_size(tmp_path):
    card = load_card(write(tmp_path, good_card()))
    batch = card.preprocess([np.full((57, 57, 3), 255, np.uint8)])
    assert batch.shape == (1, 3, 32, 32)
    np.testing.assert_allclose(batch, 2.0, rtol=1e-5)


def test_shipped_cards_are_valid():
    from model_fixtures import MODELS

    cards = sorted(MODELS.glob("*.json"))
    if not cards:
        pytest.skip(f"no model cards in {MODELS} yet (run `make models`)")
    for path in cards:
        card = load_card(path)
        assert card.model_path.is_file(), f"{path}: model file {card.model} missing"
        assert card.model_path.stat().st_size < 5 * 1024 * 1024


def make_linear_model(directory: Path, size: int = 8, tta: str = "none", name: str = "linear",
                      batch: int | str = "N") -> Path:
    """A random linear ONNX 'classifier' of the raw pixels: unlike a real die model it is not symmetric at all,
    so every turned or mirrored view of a crop gives other logits. `batch=1` exports it with a fixed batch of 1.
    Returns its card path."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    weights = np.random.default_rng(3).normal(0, 0.05, (3 * size * size, 4)).astype(np.float32)
    nodes = [helper.make_node("Flatten", ["input"], ["flat"]),
             helper.make_node("MatMul", ["flat", "w"], ["logits"]),
             helper.make_node("Relu", ["logits"], ["embedding"])]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                                          [batch, 3, size, size])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 4]),
                               helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [batch, 4])],
                              initializer=[numpy_helper.from_array(weights, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(directory / f"{name}.onnx"))
    data = good_card()
    data.update(name=name, model=f"{name}.onnx", labels=["a", "b", "c", "d"])
    data["input"].update(size=[size, size], tta=tta)
    return write(directory, data, f"{name}.json")


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("tta, n_views", [("quarter_turns", 4), ("dihedral", 8)])
def test_test_time_views_average_the_softmax_of_the_turned_crops(tmp_path, tta, n_views):
    plain = load_card(make_linear_model(tmp_path, name="plain")).open()
    card = load_card(make_linear_model(tmp_path, tta=tta))
    crops = list(np.random.default_rng(4).integers(0, 256, (3, 8, 8, 3), np.uint8))
    views = [[np.rot90(c, q) for c in crops] for q in range(4)]
    if n_views == 8:
        views += [[np.fliplr(c) for c in v] for v in views]
    expected = np.mean([softmax(plain.run(v)[0]) for v in views], axis=0)
    expected_embedding = np.mean([plain.run(v)[1] for v in views], axis=0)
    logits, embedding = card.open().run(crops)
    np.testing.assert_allclose(softmax(logits), expected, atol=1e-5)
    np.testing.assert_allclose(embedding, expected_embedding, atol=1e-5)
    assert not np.allclose(softmax(plain.run(crops)[0]), expected, atol=1e-3)  # the views do differ


def test_test_time_views_survive_saving_the_card(tmp_path):
    card = load_card(make_linear_model(tmp_path, tta="dihedral"))
    assert load_card(save_card(card, tmp_path / "copy.json")).input.tta == "dihedral"
    assert "tta" not in parse_card(good_card()).to_dict()["input"]  # cards without views stay as they were


def test_a_model_with_a_fixed_batch_of_one_runs_one_call_per_view(tmp_path):
    dynamic = load_card(make_linear_model(tmp_path, tta="quarter_turns")).open()
    fixed = load_card(make_linear_model(tmp_path, tta="quarter_turns", name="fixed", batch=1)).open()
    assert fixed.fixed_batch == 1 and dynamic.fixed_batch is None
    calls = []
    run = fixed.session.run
    fixed.session.run = lambda names, feed, *a: calls.append(feed["input"].shape) or run(names, feed, *a)
    crops = list(np.random.default_rng(5).integers(0, 256, (3, 8, 8, 3), np.uint8))
    logits, embedding = fixed.run(crops)
    assert calls == [(1, 3, 8, 8)] * 12  # 3 crops x 4 views
    expected_logits, expected_embedding = dynamic.run(crops)
    np.testing.assert_allclose(logits, expected_logits, atol=1e-5)
    np.testing.assert_allclose(embedding, expected_embedding, atol=1e-5)


def test_logits_alone_when_no_embedding_is_needed(tmp_path):
    model = load_card(make_linear_model(tmp_path, tta="dihedral")).open()
    crops = list(np.random.default_rng(6).integers(0, 256, (2, 8, 8, 3), np.uint8))
    logits, embedding = model.run(crops, embedding=False)
    assert embedding is None
    np.testing.assert_allclose(logits, model.run(crops)[0], atol=1e-6)
    assert model.run([], embedding=False)[1] is None and model.run([], embedding=False)[0].shape == (0, 4)


@pytest.mark.parametrize("damage, message", [
    ("absent", r"linear\.onnx: model file named by card .*card\.json is missing"),
    ("garbage", r"linear\.onnx: not a usable ONNX model"),
    ("no_logits", r"linear\.onnx: has no output 'scores' \(card .*card\.json, field outputs\.logits\)"),
])
def test_an_unusable_model_is_a_model_error_naming_the_file(tmp_path, damage, message):
    from vision.card import ModelError
    from vision.classify import ModelError as ClassifyModelError

    card_path = make_linear_model(tmp_path)
    data = json.loads(card_path.read_text())
    if damage == "absent":
        (tmp_path / "linear.onnx").unlink()
    elif damage == "garbage":
        (tmp_path / "linear.onnx").write_bytes(b"garbage")
    else:
        data["outputs"]["logits"] = "scores"
    card = parse_card(data, tmp_path / "card.json")
    with pytest.raises(ModelError, match=message):
        card.open()
    assert ClassifyModelError is ModelError


def test_the_models_readme_sets_the_renders_only_real_figure_beside_every_renders_only_card(tmp_path):
    import shutil

    from vision.evaluate import MODELS_DIR, write_models_readme

    for name in ("chariot_race", "d6_synthetic_only"):
        for suffix in (".json", ".onnx"):
            shutil.copy(MODELS_DIR / f"{name}{suffix}", tmp_path)
    real = load_card(tmp_path / "d6_synthetic_only.json").accuracy["real_d6_tray_test"]
    text = write_models_readme(tmp_path).read_text(encoding="utf-8")
    chariot, yardstick = text.split("## d6_synthetic_only")
    assert f"renders-only training read {real['accuracy'] * 100:.2f}% of the {real['n']} real-d6-tray" in chariot
    assert "renders-only training read" not in yardstick  # it has its own real figure
    assert "MIT" in chariot


def test_a_renders_only_card_says_when_the_yardstick_beside_it_was_rendered_or_built_otherwise(tmp_path):
    import json

    from vision.evaluate import MODELS_DIR, yardstick_line

    card = json.loads((MODELS_DIR / "d6_synthetic_only.json").read_text(encoding="utf-8"))
    card["trained_on"]["synthetic"]["renderer"] = "vision.synth v7"
    card["trained_on"]["config"].update(widths=[24, 48, 96, 144], stem_stride=1, ensemble=1)
    card["accuracy"]["real_d6_tray_test"] = {"n": 308, "accuracy": 0.9}
    (tmp_path / "d6_synthetic_only.json").write_text(json.dumps(card), encoding="utf-8")

    def beside(renderer: str, widths: list[int]) -> str:
        config = {"widths": widths, "stem_stride": 1, "ensemble": 1}
        return yardstick_line(tmp_path, {"synthetic": {"renderer": renderer}, "config": config})

    wide = [24, 48, 96, 144]
    assert "rendered with vision.synth v7; these dice with vision.synth v6)" in beside("vision.synth v6", wide)
    assert "rendered with" not in beside("vision.synth v7", wide)
    assert ("its net 24/48/96/144 wide with a stem stride of 1; these dice's 24/32/64/96 wide with a stem stride of 1)"
            in beside("vision.synth v7", [24, 32, 64, 96]))
    assert "its net" not in beside("vision.synth v7", wide)
    assert "read 90.00% of the 308 real-d6-tray test dice" in beside("vision.synth v7", wide)
