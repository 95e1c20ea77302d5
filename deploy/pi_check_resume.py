"""A pytest plugin for `pi-check.sh --resume`: emulated arm64 runs the rules and vision tests for hours, more than one
sitting, so each passed test is written down as it passes and a later run skips it while its code is unchanged.

A test's code is what its folder tests: tests/games the companion package, tests/vision the vision package and the
models (vision never imports the companion, games never import vision). Its key is a hash of those files, the test
folder and the shared test setup, so any change to them runs the test again.

    PI_CHECK_DONE=done.txt python -m pytest -p pi_check_resume tests/games tests/vision

Under pytest-xdist (``-n``) each worker leaves out what passed before, and only the controller writes a pass down:
it sees every worker's reports, so each pass is written once.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

SHARED = ("tests/conftest.py", "pyproject.toml")
CODE = {"games": ("companion",), "vision": ("vision", "models")}


def tree_hash(root: Path, paths: list[str]) -> str:
    """The hash of every file under `paths` (names and contents), caches left out."""
    sha = hashlib.sha256()
    for path in paths:
        top = root / path
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for file in files:
            if "__pycache__" in file.parts:
                continue
            sha.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return sha.hexdigest()[:16]


class Resume:
    def __init__(self, root: Path, done: Path, *, selected: list[str], worker: bool = False) -> None:
        self.root, self.done, self.worker = root, done, worker
        self.selected = selected
        """The run's test paths, as node id prefixes: what it leaves out is counted among these only."""
        self.keys: dict[str, str] = {}
        self.before = self.passed_before()

    def key(self, nodeid: str) -> str:
        folder = nodeid.split("/")[1] if nodeid.startswith("tests/") else ""
        if folder not in self.keys:
            self.keys[folder] = tree_hash(
                self.root, [*CODE.get(folder, ("companion", "vision", "models")), f"tests/{folder}", *SHARED]
            )
        return self.keys[folder]

    def passed_before(self) -> set[tuple[str, str]]:
        """(key, node id) of each test written down as passed."""
        if not self.done.exists():
            return set()
        lines = (line.split(" ", 1) for line in self.done.read_text(encoding="utf-8").splitlines())
        return {(pair[0], pair[1]) for pair in lines if len(pair) == 2}

    def still_valid(self) -> int:
        """How many of this run's tests passed before on the code as it is now: what it leaves out (a test's key
        changes with its folder, so a test removed since never counts)."""
        return sum(key == self.key(nodeid) for key, nodeid in self.before
                   if any(nodeid.startswith(prefix) for prefix in self.selected))

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        kept = [item for item in items if (self.key(item.nodeid), item.nodeid) not in self.before]
        if len(kept) < len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in kept])
            items[:] = kept

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" and report.passed and not self.worker:
            with self.done.open("a", encoding="utf-8") as f:
                f.write(f"{self.key(report.nodeid)} {report.nodeid}\n")

    def pytest_terminal_summary(self, terminalreporter) -> None:  # noqa: ANN001 (pytest's own type is private)
        terminalreporter.write_line(
            f"pi-check resume: {self.still_valid()} passed before on the same code, not run again"
        )


def pytest_configure(config: pytest.Config) -> None:
    done = os.environ.get("PI_CHECK_DONE")
    if done:
        root = Path(config.rootpath)
        worker = hasattr(config, "workerinput")  # a pytest-xdist worker: its controller writes the passes down
        resume = Resume(root, Path(done), selected=[selected(root, arg) for arg in config.args], worker=worker)
        config.pluginmanager.register(resume, "pi_check_resume_state")


def selected(root: Path, arg: str) -> str:
    """A test path given on the command line as the node id prefix of what it selects ("" for the whole root)."""
    path, _, rest = arg.partition("::")
    relative = Path(os.path.relpath(Path(path).resolve(), root.resolve())).as_posix()  # "../x" selects nothing
    prefix = "" if relative == "." else relative
    return f"{prefix}::{rest}" if rest else prefix
