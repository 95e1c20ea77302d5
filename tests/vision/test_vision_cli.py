"""The detect / classify / calibrate / replay command bodies: documented output, clean errors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import cli
from vision.synth import render_scene
from vision.tray import Tray, TrayError


def run(add, main, argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add(parser)
    return main(parser.parse_args(argv))


@pytest.fixture
def tray_photo(tmp_path: Path):
    rng = np.random.default_rng(1)
    scene = render_scene(["2", "5", "6"], "d6", rng, background="paper", palette="blue")
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), scene.image)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), scene.empty)
    return path, empty, scene


def test_detect_prints_the_documented_json(tray_photo, tiny_card, capsys):
    photo, _, scene = tray_photo
    assert run(cli.add_detect_args, cli.detect_main, [str(photo), "--json", "--model", str(tiny_card)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    doc = json.loads(line)
    assert set(doc) == {"image", "dice", "ms"} and doc["image"] == str(photo)
    assert len(doc["dice"]) == len(scene.dice)
    for die in doc["dice"]:
        assert set(die) == {"label", "confidence", "center", "box"}
        assert die["label"] in "123456" and 0 <= die["confidence"] <= 1
        assert len(die["center"]) == 2 and len(die["box"]) == 4 and all(len(p) == 2 for p in die["box"])


def test_detect_with_a_calibrated_tray(tray_photo, tiny_card, tmp_path, capsys):
    photo, empty, scene = tray_photo
    assert run(cli.add_calibrate_args, cli.calibrate_main, ["--data-dir", str(tmp_path / "cal"),
                                                            "--image", str(empty)]) == 0
    assert "saved" in capsys.readouterr().out
    assert run(cli.add_detect_args, cli.detect_main,
               [str(photo), "--json", "--model", str(tiny_card), "--tray", str(tmp_path / "cal")]) == 0
    assert len(json.loads(capsys.readouterr().out)["dice"]) == len(scene.dice)


def test_a_missing_or_corrupt_image_is_a_clean_error(tray_photo, tiny_card, tmp_path, capsys):
    photo, _, _ = tray_photo
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not really a jpeg")
    code = run(cli.add_detect_args, cli.detect_main,
               [str(tmp_path / "missing.jpg"), str(broken), str(photo), "--json", "--model", str(tiny_card)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "missing.jpg: no such image" in err and "broken.jpg: not a readable image" in err
    assert "Traceback" not in err and len(out.splitlines()) == 1  # the good image is still read


@pytest.mark.parametrize("damage", ["onnx", "card", "absent"])
def test_a_corrupt_model_is_a_clean_error(tray_photo, tiny_card, tmp_path, capsys, damage):
    photo, _, _ = tray_photo
    card = tmp_path / "m.json"
    doc = json.loads(tiny_card.read_text())
    doc["model"] = "m.onnx"
    card.write_text(json.dumps(doc))
    (tmp_path / "m.onnx").write_bytes((tiny_card.parent / "tiny.onnx").read_bytes())
    if damage == "onnx":
        (tmp_path / "m.onnx").write_bytes(b"garbage")
    elif damage == "card":
        card.write_text('{"format": 1, "labels": "oops"')
    else:
        (tmp_path / "m.onnx").unlink()
    code = run(cli.add_detect_args, cli.detect_main, [str(photo), "--model", str(card)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err
    assert "m.json" in err or "m.onnx" in err


def test_the_default_model_is_looked_for_in_the_repository(tray_photo, capsys):
    photo, _, _ = tray_photo
    code = run(cli.add_detect_args, cli.detect_main, [str(photo), "--dice", "no_such_set"])
    err = capsys.readouterr().err
    assert code == 2 and "models/no_such_set.json" in err


def test_classify_reads_single_die_crops(tiny_card, tmp_path, capsys):
    from vision.synth import render_die

    paths = []
    for i, label in enumerate(["3", "6"]):
        path = tmp_path / f"crop{i}.png"
        cv2.imwrite(str(path), render_die(label, "d6", np.random.default_rng(i), size=48))
        paths.append(str(path))
    assert run(cli.add_classify_args, cli.classify_main, [*paths, "--json", "--model", str(tiny_card)]) == 0
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["image"] for d in docs] == paths
    assert all(d["label"] in "123456" and d["runner_up"][0] != d["label"] for d in docs)


def test_calibrate_from_the_synthetic_camera_round_trips(tmp_path, capsys):
    spec = json.dumps({"kind": "synthetic", "seed": 3, "width": 320, "height": 240})
    assert run(cli.add_calibrate_args, cli.calibrate_main,
               ["--data-dir", str(tmp_path), "--camera", spec, "--frames", "3", "--die-px", "20"]) == 0
    tray = Tray.load(tmp_path)
    assert tray.size == (320, 240) and tray.die_px == 20 and tray.roi_mask().any()


def test_a_broken_calibration_names_file_and_field(tmp_path):
    Tray(np.zeros((10, 10, 3), np.uint8), np.array([[0, 0], [9, 0], [9, 9]])).save(tmp_path)
    doc = json.loads((tmp_path / "tray.json").read_text())
    del doc["roi"]
    (tmp_path / "tray.json").write_text(json.dumps(doc))
    with pytest.raises(TrayError, match=r"tray.json: field 'roi' is missing"):
        Tray.load(tmp_path)
    with pytest.raises(TrayError, match="run `companion calibrate` first"):
        Tray.load(tmp_path / "elsewhere")


def test_calibrate_without_input_is_a_clean_error(tmp_path, capsys):
    assert run(cli.add_calibrate_args, cli.calibrate_main, ["--data-dir", str(tmp_path)]) == 2
    assert "give --camera" in capsys.readouterr().err


def test_replay_prints_one_reading_per_roll(tiny_card, tmp_path, capsys):
    from vision.sources import SyntheticSource

    source = SyntheticSource(seed=5, rolling_frames=4, still_frames=10, rolls=2, background="felt",
                             palette="yellow")
    for i in range(28):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), source.read().image)
    assert run(cli.add_replay_args, cli.replay_main, [str(tmp_path), "--json", "--fps", "10",
                                                      "--model", str(tiny_card)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(not json.loads(x)["change"] for x in lines)
