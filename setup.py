"""The rules engines compiled by Cython where a C compiler is at hand; the same pure Python where not.

The games' rules are pure Python, and a bot race runs them tens of thousands of actions a second: compiled, the very
same source plays the very same games 1.6 to 2 times as fast (``bench/rules_*.py``). The compiled module sits beside
its source (``pyproject.toml``'s ``[tool.companion] compiled``), and ``companion/games/compiled.py`` imports it only
while it is at least as new as the source. Without a compiler, or with ``COMPANION_PURE_PYTHON=1``, the install
takes the sources as they are: slower, never different.

    python setup.py build_ext --inplace     what ``make test`` and ``make bench`` run: compiles what changed
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
COMPILED = tomllib.loads((HERE / "pyproject.toml").read_text())["tool"]["companion"]["compiled"]


class OptionalBuildExt(build_ext):
    """A failed compile leaves the pure-Python module in place, with a warning: a Pi or a laptop without gcc or
    Python's headers still installs, only slower. Both cores compile."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count()

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - distutils fails in several ways without a compiler
            _warn(error)

    def build_extension(self, ext) -> None:  # noqa: ANN001 - a setuptools Extension
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            _warn(error)


def _warn(error: Exception) -> None:
    """Says once why the rules were not compiled: without a compiler every module fails alike."""
    if not _warned:
        _warned.append(error)
        print(f"table-companion: the rules were not compiled ({error}); their pure-Python sources run instead, "
              "1.6 to 2 times slower. gcc and python3-dev compile them.", file=sys.stderr)


_warned: list[Exception] = []


def _extensions() -> list:
    if os.environ.get("COMPANION_PURE_PYTHON"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as error:
        _warn(error)
        return []
    # annotation_typing off: the hints stay hints, not C types, so a compiled module behaves exactly as its source
    extensions = cythonize(COMPILED, quiet=True, nthreads=os.cpu_count() or 1, compiler_directives={
        "language_level": 3, "annotation_typing": False, "binding": True, "always_allow_keywords": True})
    for extension in extensions:  # generated C: its warnings are Cython's, and debug symbols only make it larger
        extension.extra_compile_args = ["-w", "-g0"]
    return extensions


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
