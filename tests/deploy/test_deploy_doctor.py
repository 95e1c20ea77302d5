"""`companion doctor` and the start-up report: each check says OK or FAIL with what to fix."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import pytest

from companion import doctor
from companion.config import load_config
from companion.store import EventStore


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_config(tmp_path: Path, *, port: int | None = None, extra: str = "") -> Path:
    path = tmp_path / "table.toml"
    path.write_text(
        'control_pin = "2468"\ndata_dir = "data"\n[game]\nid = "dice-race"\n[camera]\nsource = "synthetic"\n'
        f'[buttons]\npin_factory = "mock"\nled = 23\n[server]\nhost = "127.0.0.1"\nport = {port or free_port()}\n'
        + extra
    )
    return path


def run(config: Path, *skip: str) -> dict[str, doctor.Check]:
    return {c.name: c for c in doctor.run_checks(config, skip=set(skip), camera_timeout=5)}


def test_a_good_table_passes_every_check_with_the_shipped_models(tmp_path: Path) -> None:
    checks = run(write_config(tmp_path))
    statuses = {name: c.status for name, c in checks.items()}
    assert {"config", "data", "store", "onnxruntime", "model chariot_race", "model d6", "camera", "pins",
            "port"} <= set(statuses)
    assert set(statuses.values()) == {"OK"}, statuses
    assert "mock: confirm GPIO17" in checks["pins"].detail


def test_a_missing_model_fails_and_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "models"
    empty.mkdir()
    monkeypatch.setattr(doctor, "models_dir", lambda: empty)
    checks = run(write_config(tmp_path))
    assert checks["models"].failed and "d6.onnx is missing" in checks["models"].detail
    assert "make models" in checks["models"].fix


def test_a_corrupt_model_file_fails_its_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "d6.onnx").write_bytes(b"not a model")
    (folder / "d6.json").write_text('{"labels": ["1"]}')
    monkeypatch.setattr(doctor, "models_dir", lambda: folder)
    checks = run(write_config(tmp_path))
    assert checks["model d6"].failed and "does not load" in checks["model d6"].detail


def test_main_exits_non_zero_and_prints_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "missing.toml"
    status = doctor.main(argparse.Namespace(config=config, skip=[], timeout=5))
    out = capsys.readouterr().out
    assert status == 1
    assert f"FAIL  config: {config}: no such config file" in out
    assert "      fix: sudo install -D -m 640" in out
    assert "SKIP  camera: needs a config that loads" in out


def test_main_exits_zero_when_everything_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = doctor.main(argparse.Namespace(config=write_config(tmp_path), skip=["models"], timeout=5))
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.rstrip().endswith("checks passed")


def test_the_cli_options(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    doctor.add_args(parser)
    args = parser.parse_args(["--config", "x.toml", "--skip", "camera", "--skip", "port"])
    assert args.config == Path("x.toml") and args.skip == ["camera", "port"]
    assert parser.parse_args([]).config == Path("/etc/table-companion/config.toml")


def test_an_existing_store_is_read_without_being_changed(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    store = EventStore(tmp_path / "data" / "events.sqlite3")
    store.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    store.close()
    before = sorted(p.name for p in (tmp_path / "data").iterdir())
    check = run(config)["store"]
    assert check.status == "OK" and "1 games (1 unfinished)" in check.detail
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == before


def test_a_damaged_store_fails_with_a_way_out(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "events.sqlite3").write_bytes(b"this is not a database" * 100)
    check = run(config)["store"]
    assert check.failed and "mv " in check.fix


def test_pins_used_twice_fail(tmp_path: Path) -> None:
    check = run(write_config(tmp_path, extra=""))["pins"]
    assert check.status == "OK"
    bad = tmp_path / "bad.toml"
    bad.write_text(write_config(tmp_path).read_text().replace("led = 23", "led = 27"))
    check = run(bad)["pins"]
    assert check.failed and "led = 27 is already [buttons] next" in check.detail


def test_a_port_taken_by_another_program_fails(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        check = run(write_config(tmp_path, port=taken.getsockname()[1]))["port"]
    assert check.failed and "ss -ltnp" in check.fix


def test_a_port_served_by_a_running_companion_is_fine(tmp_path: Path, live) -> None:  # noqa: ANN001
    check = run(write_config(tmp_path, port=live.port))["port"]
    assert check.status == "OK" and "running companion" in check.detail


def test_a_missing_usb_camera_fails_with_what_to_check(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace('source = "synthetic"', 'source = "opencv"\ndevice = 97'))
    check = run(config)["camera"]
    assert check.failed and "/dev/video" in check.fix


def test_picamera2_is_imported_only_when_the_camera_is_checked(tmp_path: Path) -> None:
    import sys

    config = write_config(tmp_path)
    config.write_text(config.read_text().replace('source = "synthetic"', 'source = "picamera2"'))
    if "picamera2" in sys.modules:
        pytest.skip("picamera2 was imported by an earlier test")
    doctor.startup_report(load_config(config))
    assert "picamera2" not in sys.modules
    check = run(config)["camera"]
    if "picamera2" not in sys.modules:  # not on a Pi: the failure says how to get it
        assert check.failed and "python3-picamera2" in check.fix


def test_the_startup_report_names_camera_model_pins_and_data(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    lines = doctor.startup_report(config)
    assert lines[0] == "camera: synthetic, 1280x720 at 30 fps"
    assert lines[1].startswith("model: ") and "d6" in lines[1]
    assert lines[2].startswith("onnxruntime: ")
    assert lines[3] == ("buttons: pin factory mock, confirm GPIO17, next GPIO27, back GPIO22 (hold 1 s), "
                        "led GPIO23")
    assert lines[4] == f"data dir: {tmp_path / 'data'}"
    assert lines[5].startswith("server: 127.0.0.1:")


def test_taught_dice_are_reported_and_a_damaged_file_says_how_to_recover(tmp_path: Path) -> None:
    import numpy as np

    from vision.card import load_card
    from vision.enrol import Enrolment

    config = write_config(tmp_path)
    (tmp_path / "data").mkdir()
    enrolment = Enrolment.load(tmp_path / "data" / "enrol-d6.npz", load_card(doctor.models_dir() / "d6.json"))
    enrolment.add("5", [np.full((32, 32, 3), 200, np.uint8)] * 3)
    enrolment.fit()
    enrolment.save()
    (tmp_path / "data" / "enrol-chariot_race.npz").write_bytes(b"not a zip")
    checks = run(config, "camera", "port")
    assert checks["taught d6"].status == "OK" and "5 3" in checks["taught d6"].detail
    assert checks["taught chariot_race"].failed and "Teach page" in checks["taught chariot_race"].fix


def test_a_replay_folder_without_frames_fails_as_the_camera_would(tmp_path: Path) -> None:
    """The camera is probed through vision.sources.open_source, as the app opens it: an existing folder with no
    frames in it is no camera."""
    (tmp_path / "frames").mkdir()
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace('source = "synthetic"',
                                                 f'source = "replay"\npath = "{tmp_path / "frames"}"'))
    check = run(config)["camera"]
    assert check.failed and "folder of images" in check.fix


def test_the_detector_model_is_checked_as_the_camera_loads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("d6.onnx", "d6.json"):
        shutil.copy(doctor.models_dir() / name, folder / name)
    (folder / "dice_detector.onnx").write_bytes(b"not a model")
    monkeypatch.setattr(doctor, "models_dir", lambda: folder)
    checks = run(write_config(tmp_path))
    assert checks["model d6"].status == "OK"
    assert checks["model dice_detector"].failed and "classical" in checks["model dice_detector"].detail
