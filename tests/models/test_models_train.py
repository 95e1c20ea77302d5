"""Training: a few optimiser steps give an ONNX model + card that onnxruntime runs like torch, reproducibly.

Full training is `make models`; these tests only check the machinery, in seconds.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="training tests need torch (the optional `train` extra: torch==2.13.0)")

from vision.card import TTA_VIEWS, load_card  # noqa: E402
from vision.synth.dataset import synth_dataset  # noqa: E402
from vision.train import TrainConfig, split_by_time, train  # noqa: E402

TINY = TrainConfig(synth_per_class=12, synth_val_per_class=4, synth_test_per_class=4, epochs=1, max_steps=3,
                   batch=16, real=False)


def tiny_train(out: Path) -> Path:
    return train("chariot_race", TINY, out, threads=1, workers=1, cache_dir=None, log=lambda *_: None)


def test_a_few_steps_ship_an_onnx_model_with_a_valid_card(tmp_path):
    card = load_card(tiny_train(tmp_path))
    assert card.labels == ("drive", "gallop", "steer", "attack", "fortune")
    assert card.model_path.stat().st_size < 1024 * 1024
    x, _ = synth_dataset("chariot_race", 2, card.input.size[0], 99, "test")
    logits, embedding = card.open().run(list(x))
    assert logits.shape == (len(x), 5) and embedding.shape[0] == len(x) and embedding.shape[1] >= 16
    assert set(card.accuracy["synthetic_test"]["per_class"]) == set(card.labels)
    assert (tmp_path / card.accuracy["synthetic_test"]["png"]).is_file()
    assert (tmp_path / "README.md").read_text().count("chariot_race") >= 1


def test_training_is_reproducible_under_its_seed(tmp_path):
    a = load_card(tiny_train(tmp_path / "a"))
    b = load_card(tiny_train(tmp_path / "b"))
    x, _ = synth_dataset("chariot_race", 2, a.input.size[0], 5, "test")
    np.testing.assert_array_equal(a.open().run(list(x))[0], b.open().run(list(x))[0])


def test_validation_photos_are_the_latest_ones():
    names = [f"IMG_20191208_1112{i:02d}.jpg" for i in range(10)]
    train_names, val_names = split_by_time(list(reversed(names)), 0.2)
    assert val_names == names[-2:]
    assert not set(train_names) & set(val_names)


def test_a_named_run_writes_its_own_files_and_states_its_purpose(tmp_path):
    path = train("chariot_race", TINY, tmp_path, threads=1, workers=1, cache_dir=None, name="reference",
                 purpose="A reference model, not used by the app.", log=lambda *_: None)
    card = load_card(path)
    assert path == tmp_path / "reference.json" and card.model == "reference.onnx" and card.dice_set == "chariot_race"
    assert not (tmp_path / "chariot_race.json").exists()
    assert card.trained_on["note"] == "A reference model, not used by the app."
    readme = (tmp_path / "README.md").read_text()
    assert readme.count("A reference model, not used by the app.") == 1
    assert "## reference\n\n**A reference model, not used by the app.**" in readme


def test_no_real_trains_d6_on_synthetic_data_only_under_its_own_name(tmp_path, monkeypatch):
    import vision.train as train_module

    calls = []
    monkeypatch.setattr(train_module, "train", lambda *args, **kwargs: calls.append((args, kwargs)))
    assert train_module.main(["--dice", "d6", "--no-real", "--epochs", "3", "--out", str(tmp_path)]) == 0
    (dice_set, config, out), kwargs = calls[0]
    assert dice_set == "d6" and config.real is False and config.epochs == 3 and out == tmp_path
    # trained as dice without photos are (chariot_race, a table's own set), but for what belongs to the d6's faces
    assert replace(config, epochs=train_module.RENDERS_ONLY.epochs, flips=False) == train_module.RENDERS_ONLY
    assert train_module.CONFIGS["chariot_race"] == train_module.RENDERS_ONLY
    assert config.flips  # a mirrored pip face is a face
    assert kwargs["name"] == "d6_synthetic_only" and "not used by the app" in kwargs["purpose"].lower()
    assert "--no-real" in kwargs["command"]
    assert train_module.CONFIGS["d6"].real is True  # the shipped d6 still trains on real photos


def test_test_time_views_are_declared_on_the_card_and_used_for_its_figures(tmp_path, monkeypatch):
    import vision.train as train_module

    used = []
    predict = train_module.predict
    monkeypatch.setattr(train_module, "predict", lambda card, x: used.append(card.input.tta) or predict(card, x))
    card = load_card(train("chariot_race", replace(TINY, tta="quarter_turns"), tmp_path, threads=1, workers=1,
                           cache_dir=None, log=lambda *_: None))
    assert card.input.tta == "quarter_turns" and used == ["quarter_turns"]
    assert train_module.CONFIGS["chariot_race"].tta == "quarter_turns" and train_module.CONFIGS["d6"].tta in TTA_VIEWS


def tiny_real_d6_tray(root: Path, train_photos: int = 5) -> Path:
    """A real-d6-tray look-alike: synthetic tray photos named by capture time, with YOLO labels (class = face - 1)."""
    import cv2

    from vision.synth import render_scene

    rng = np.random.default_rng(8)
    for split, count in (("train", train_photos), ("test", 1)):
        (root / split / "images").mkdir(parents=True)
        (root / split / "labels").mkdir()
        for k in range(count):
            scene = render_scene([str(f) for f in rng.integers(1, 7, 3)], "d6", rng, width=320, height=240,
                                 tilt=0.0)
            name = f"IMG_2019120{8 + (split == 'test')}_1000{k:02d}"
            cv2.imwrite(str(root / split / "images" / f"{name}.jpg"), scene.image)
            lines = [f"{int(d.label) - 1} {d.center[0] / 320:.6f} {d.center[1] / 240:.6f} {d.size * 1.1 / 320:.6f} "
                     f"{d.size * 1.1 / 240:.6f}" for d in scene.dice]
            (root / split / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
    return root


def test_a_refit_ships_weights_trained_on_every_train_photo_for_the_validated_epochs(tmp_path):
    real = tiny_real_d6_tray(tmp_path / "real")
    config = replace(TINY, real=True, real_repeat=1, epochs=2, max_steps=None, synth_per_class=4, refit_all=True)
    card = load_card(train("d6", config, tmp_path / "out", threads=1, workers=1, cache_dir=None, real_root=real,
                           log=lambda *_: None))
    used = card.trained_on["real"]
    assert (used["photos_train"], used["photos_val"]) == (4, 1)  # the validated run held the latest photo out
    assert used["refit"]["photos_train"] == 5 and used["refit"]["dice_train"] == 15
    validated = card.trained_on["training"]["validated_run"]
    assert used["refit"]["epochs"] == validated["best_epoch"] == card.trained_on["training"]["epochs_run"]
    assert "real_val" in validated["validation"] and "real_val" not in card.trained_on["training"]["validation"]
    assert "shipped weights: refit on all 15 train dice from 5 photos" in (tmp_path / "out" / "README.md").read_text()


def test_a_fraction_of_zero_keeps_every_photo_for_training():
    names = [f"IMG_20191208_1112{i:02d}.jpg" for i in range(4)]
    assert split_by_time(names, 0.0) == (names, [])


def test_a_full_resolution_stem_keeps_the_model_shape_and_its_card_says_so(tmp_path):
    config = replace(TINY, widths=(8, 8, 16, 16), stem_stride=1)
    card = load_card(train("chariot_race", config, tmp_path, threads=1, workers=1, cache_dir=None,
                           log=lambda *_: None))
    assert card.trained_on["config"]["stem_stride"] == 1
    x, _ = synth_dataset("chariot_race", 1, card.input.size[0], 99, "test")
    logits, embedding = card.open().run(list(x))
    assert logits.shape == (len(x), 5) and embedding.shape == (len(x), 16)


def test_a_stem_stride_other_than_1_or_2_is_refused():
    from vision.train import build_model

    with pytest.raises(ValueError, match="stem_stride"):
        build_model(6, stem_stride=4)


def test_an_ensemble_ships_one_graph_whose_logits_are_its_nets_averaged(tmp_path):
    from vision.train import load_data, member_configs, ship, validate_net

    config = replace(TINY, ensemble=2)
    quiet = lambda *_: None  # noqa: E731
    data = load_data("chariot_race", config, workers=1, cache_dir=None, log=quiet)
    trained = [validate_net(data, member, quiet) for member in member_configs(config)]
    x, _ = synth_dataset("chariot_race", 2, TINY.size, 99, "test")

    def shipped(nets: list, out: str) -> tuple[np.ndarray, np.ndarray, dict]:
        card = load_card(ship("chariot_race", config, data, [net for net, _ in nets], [r for _, r in nets],
                              tmp_path / out, log=quiet))
        logits, embedding = card.open().run(list(x))
        return logits, embedding, card.trained_on

    first, _, _ = shipped(trained[:1], "first")
    second, _, _ = shipped(trained[1:], "second")
    both, embedding, trained_on = shipped(trained, "both")
    np.testing.assert_allclose(both, (first + second) / 2, atol=1e-5)
    assert not np.allclose(first, second, atol=1e-3)  # two seeds, two nets
    assert embedding.shape == (len(x), TINY.widths[-1])  # the size teach-your-dice expects of one net
    assert [m["seed"] for m in trained_on["ensemble"]] == [TINY.seed, TINY.seed + 1]
    assert "an ensemble of 2 nets" in (tmp_path / "both" / "README.md").read_text()


def test_a_trained_ensemble_records_each_nets_seed(tmp_path):
    card = load_card(train("chariot_race", replace(TINY, ensemble=2), tmp_path, threads=1, workers=1,
                           cache_dir=None, log=lambda *_: None))
    assert [m["seed"] for m in card.trained_on["ensemble"]] == [TINY.seed, TINY.seed + 1]
    assert card.trained_on["config"]["ensemble"] == 2


def test_an_ensemble_of_no_nets_is_refused():
    from vision.train import member_configs

    with pytest.raises(ValueError, match="ensemble"):
        member_configs(replace(TINY, ensemble=0))


def test_the_command_line_trains_an_ensemble_when_asked(tmp_path, monkeypatch):
    import vision.train as train_module

    calls = []
    monkeypatch.setattr(train_module, "train", lambda *args, **kwargs: calls.append((args, kwargs)))
    assert train_module.main(["--dice", "chariot_race", "--ensemble", "2", "--out", str(tmp_path)]) == 0
    (_, config, _), kwargs = calls[0]
    assert config.ensemble == 2 and "--ensemble 2" in kwargs["command"]
