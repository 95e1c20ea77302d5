"""deploy/pi-check.sh, the arm64 Trixie check of the Pi install: its plan, which needs no root and no network.

The run itself takes tens of minutes under qemu and needs root, so it is not a test: `make pi-check` runs it and its
latest summary stands in deploy/README.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = Path(__file__).resolve().parents[2] / "deploy" / "pi-check.sh"
MAKEFILE = CHECK.parents[1] / "Makefile"


def plan(tmp_path: Path, *args: str) -> str:
    photo = tmp_path / "tray.jpg"
    photo.write_bytes(b"not read in a dry run")
    result = subprocess.run(["bash", str(CHECK), "--dry-run", "--root", str(tmp_path / "root"), "--photo", str(photo),
                             *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed (apt-get install shellcheck)")
def test_pi_check_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", str(CHECK)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_the_plan_builds_an_arm64_trixie_root_and_checks_the_install_in_it(tmp_path: Path) -> None:
    text = plan(tmp_path, "--jobs", "1")
    root = tmp_path / "root"
    steps = [line[4:] for line in text.splitlines() if line.startswith("==> ")]
    assert steps == ["tools", "root", "mounts", "copy", "install", "versions", "doctor", "detect", "demo", "tests"]
    for expected in [
        "apt-get install -y debootstrap qemu-user-static",
        "update-binfmts --enable qemu-aarch64",
        f"debootstrap --arch=arm64 --variant=minbase --include=systemd,systemd-sysv,ca-certificates,hostname trixie "
        f"{root} http://deb.debian.org/debian",
        f"mount -t proc proc {root}/proc",
        f"mount --bind {root}.cpuinfo {root}/proc/cpuinfo",  # a Pi 4's, for onnxruntime's CPU probe under qemu
        # install-pi.sh as on a Pi, without what a chroot cannot do
        f"chroot {root} /usr/bin/env -i",
        "/opt/table-companion/deploy/install-pi.sh --no-start --no-kiosk",
        "runuser -u table-companion -- /opt/table-companion/.venv/bin/companion doctor --config "
        "/etc/table-companion/pi-check.toml",
        f"cp {tmp_path}/tray.jpg {root}/tmp/pi-check/photo.jpg",
        "/opt/table-companion/.venv/bin/companion detect /tmp/pi-check/photo.jpg --dice d6 --json",
        f"detect {tmp_path}/tray.jpg --dice d6 --json",  # the same photo on this machine, to compare
        "companion demo --host 127.0.0.1 --port",
        "/healthz",
        # the rules and vision tests, all of them but the browser's (a Pi has no Playwright)
        "python -m pytest -q -rs -p no:cacheprovider -p deploy.pi_check_resume -m 'not browser' tests/games "
        "tests/vision",
        # what passes is written down, beside the code (copied anew each run), for a later --resume
        "PI_CHECK_DONE=/var/lib/pi-check/tests-passed.txt",
        "TEST_PATIENCE=30",  # the camera threads' tests wait longer: emulated Python is some 80 times slower
        f"rm -f {root}/var/lib/pi-check/tests-passed.txt",
    ]:
        assert expected in text, f"{expected!r} missing from the plan:\n{text}"
    assert "(dry run: nothing was changed)" in text


def test_the_dry_run_changes_nothing(tmp_path: Path) -> None:
    plan(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tray.jpg"]


def test_a_kept_root_is_reused_and_rebuild_starts_over(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / ".pi-check-root").write_text("2026-11-28 16:00 UTC\n")
    assert "debootstrap" not in plan(tmp_path).split("==> root")[1].split("==> mounts")[0]
    rebuilt = plan(tmp_path, "--rebuild").split("==> root")[1]
    assert f"rm -rf --one-file-system {root}" in rebuilt and "debootstrap --arch=arm64" in rebuilt


def test_unknown_options_are_refused_and_help_describes_them() -> None:
    assert subprocess.run(["bash", str(CHECK), "--frobnicate"], capture_output=True, text=True).returncode == 2
    result = subprocess.run(["bash", str(CHECK), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "--dry-run" in result.stdout and "--root" in result.stdout


def test_make_pi_check_runs_it() -> None:
    result = subprocess.run(["make", "-n", "-f", str(MAKEFILE), "pi-check"], capture_output=True, text=True,
                            cwd=MAKEFILE.parent)
    assert result.returncode == 0 and "deploy/pi-check.sh" in result.stdout, result.stderr


def test_no_install_keeps_the_roots_venv_and_checks_the_copied_code_with_it(tmp_path: Path) -> None:
    text = plan(tmp_path, "--no-install")
    assert "install-pi.sh --no-start" not in text and "--no-install: install-pi.sh not run" in text
    assert "companion doctor" in text and "-m 'not browser' tests/games tests/vision" in text


def resume_project(tmp_path: Path) -> tuple[Path, Path]:
    """A project with a games test and a vision test, and where the plugin writes passes down."""
    project = tmp_path / "project"
    (project / "tests" / "games").mkdir(parents=True)
    (project / "tests" / "vision").mkdir()
    (project / "companion").mkdir()
    (project / "vision").mkdir()
    (project / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (project / "companion" / "rules.py").write_text("ANSWER = 42\n")
    (project / "vision" / "eye.py").write_text("SEEN = 1\n")
    (project / "tests" / "games" / "test_rules.py").write_text("def test_rules():\n    assert True\n")
    (project / "tests" / "vision" / "test_eye.py").write_text("def test_eye():\n    assert True\n")
    return project, tmp_path / "passed.txt"


def run_resumed(project: Path, done: Path, *args: str, tests: str = "tests") -> str:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "pi_check_resume", *args, tests],
        cwd=project, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PI_CHECK_DONE": str(done), "PYTHONPATH": str(CHECK.parent)})
    assert result.returncode in (0, 5), result.stdout + result.stderr  # 5: every test deselected
    return result.stdout


def test_a_resumed_tests_step_skips_what_passed_on_the_same_code_and_reruns_what_changed(tmp_path: Path) -> None:
    project, done = resume_project(tmp_path)
    assert "2 passed" in run_resumed(project, done)
    assert "pi-check resume: 2 passed before on the same code" in run_resumed(project, done)
    (project / "vision" / "eye.py").write_text("SEEN = 2\n")  # the vision tests' code changed, not the games'
    second = run_resumed(project, done)
    assert "1 passed" in second and "pi-check resume: 1 passed before" in second


def test_a_resumed_run_of_one_folder_counts_only_that_folders_earlier_passes(tmp_path: Path) -> None:
    project, done = resume_project(tmp_path)
    assert "2 passed" in run_resumed(project, done)
    games = run_resumed(project, done, tests="tests/games")
    assert "pi-check resume: 1 passed before on the same code" in games
    one = run_resumed(project, done, tests="tests/vision/test_eye.py::test_eye")
    assert "pi-check resume: 1 passed before on the same code" in one


def test_with_several_workers_each_pass_is_written_down_once_and_a_resume_skips_it(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    project, done = resume_project(tmp_path)
    assert "2 passed" in run_resumed(project, done, "-n", "2")
    assert sorted(line.split(" ", 1)[1] for line in done.read_text().splitlines()) == [
        "tests/games/test_rules.py::test_rules", "tests/vision/test_eye.py::test_eye"]
    again = run_resumed(project, done, "-n", "2")
    assert "passed" not in again.replace("passed before", "") and "pi-check resume: 2 passed before" in again


def test_the_tests_run_on_every_core_unless_told_otherwise(tmp_path: Path) -> None:
    cores = len(os.sched_getaffinity(0))
    default = plan(tmp_path)
    assert (f"-p deploy.pi_check_resume -n {cores} -m 'not browser'" in default) == (cores > 1)
    three = plan(tmp_path, "--jobs", "3")
    assert "pip install --quiet --disable-pip-version-check pytest hypothesis onnx pytest-xdist" in three
    assert "-p deploy.pi_check_resume -n 3 -m 'not browser'" in three
    alone = plan(tmp_path, "--jobs", "1")
    assert "xdist" not in alone and "-p deploy.pi_check_resume -m 'not browser'" in alone
    for bad in ("0", "two", "-1"):
        refused = subprocess.run(["bash", str(CHECK), "--dry-run", "--jobs", bad], capture_output=True, text=True)
        assert refused.returncode == 2 and "--jobs" in refused.stderr


def test_resume_keeps_what_earlier_runs_wrote_down(tmp_path: Path) -> None:
    assert "tests-passed.txt" in plan(tmp_path, "--resume")
    assert "rm -f" not in plan(tmp_path, "--resume").split("==> tests")[1]
