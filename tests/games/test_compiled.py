"""The rules modules run compiled where a C compiler is at hand (``setup.py``), and a compiled module plays exactly as
its source: the recorded games (every prompt, action, event and state of 37 Cubitos and the Automobiles games) give
the same digests from the sources alone. A compiled module older than its source never runs
(``companion/games/compiled.py``)."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from companion.games.compiled import PURE, SourceUnlessCompiledIsCurrent, is_compiled

ROOT = Path(__file__).resolve().parents[2]
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["companion"]["compiled"]
RECORDED = ["tests/games/test_cubitos_recorded_games.py", "tests/games/test_automobiles_recorded_games.py"]
EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]


def can_compile() -> bool:
    return not os.environ.get(PURE) and shutil.which("gcc") is not None \
        and (Path(sysconfig.get_config_var("INCLUDEPY")) / "Python.h").is_file()


@pytest.mark.skipif(not can_compile(), reason="no gcc or Python.h here (make test installs them): the sources run")
@pytest.mark.parametrize("path", COMPILED)
def test_each_listed_rules_module_runs_compiled(path):
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert is_compiled(module), f"{path} runs from its source: `make compiled` compiles it"


def test_the_sources_alone_play_the_recorded_games_as_recorded():
    check = ("import importlib, tomllib; from companion.games.compiled import is_compiled; "
             "paths = tomllib.load(open('pyproject.toml', 'rb'))['tool']['companion']['compiled']; "
             "assert not any(is_compiled(importlib.import_module(p[:-3].replace('/', '.'))) for p in paths)")
    env = {**os.environ, PURE: "1"}
    pure = subprocess.run([sys.executable, "-c", check], cwd=ROOT, env=env, capture_output=True, text=True)
    assert pure.returncode == 0, pure.stderr
    played = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *RECORDED], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=900)
    assert played.returncode == 0, played.stdout[-3000:] + played.stderr[-3000:]


def compiled_pair(folder: Path, source_age: float) -> Path:
    """A module ``rules_like`` in ``folder``: its source and a stand-in for its compiled copy, the source
    ``source_age`` seconds older than the copy (negative: newer)."""
    source, compiled = folder / "rules_like.py", folder / f"rules_like{EXTENSION}"
    source.write_text("X = 1\n")
    compiled.write_bytes(b"")
    now = compiled.stat().st_mtime
    os.utime(source, (now - source_age, now - source_age))
    return source


def test_a_compiled_module_at_least_as_new_as_its_source_is_imported(tmp_path, monkeypatch):
    monkeypatch.delenv(PURE, raising=False)
    compiled_pair(tmp_path, source_age=60)
    spec = SourceUnlessCompiledIsCurrent.find_spec("companion.games.rules_like", [str(tmp_path)])
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def test_a_source_changed_after_its_compile_runs_instead_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.delenv(PURE, raising=False)
    source = compiled_pair(tmp_path, source_age=-60)
    with pytest.warns(RuntimeWarning, match="changed after it was compiled"):
        spec = SourceUnlessCompiledIsCurrent.find_spec("companion.games.rules_like", [str(tmp_path)])
    assert spec.origin == str(source)


def test_the_pure_python_setting_runs_every_source(tmp_path, monkeypatch):
    monkeypatch.setenv(PURE, "1")
    source = compiled_pair(tmp_path, source_age=60)
    spec = SourceUnlessCompiledIsCurrent.find_spec("companion.games.rules_like", [str(tmp_path)])
    assert spec.origin == str(source)


def test_modules_outside_the_games_are_left_to_python(tmp_path):
    compiled_pair(tmp_path, source_age=-60)
    assert SourceUnlessCompiledIsCurrent.find_spec("rules_like", [str(tmp_path)]) is None
