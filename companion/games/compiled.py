"""Which copy of a rules module runs: the one Cython compiled beside its source (``setup.py``), unless the source is
newer or ``COMPANION_PURE_PYTHON`` is set.

Python imports an extension module before the source beside it, so a rules module edited since its last compile would
otherwise run as it was then: a test would pass on code that is no longer there. The compiled copy is only a faster
run of the same source; when in doubt, the source runs.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PURE = "COMPANION_PURE_PYTHON"
"""Set (to anything but empty) in the environment: every rules module runs from its source, as on a machine without
a C compiler (``setup.py`` compiles nothing then either)."""

PACKAGE = "companion.games."


class SourceUnlessCompiledIsCurrent:
    """A finder ahead of Python's own for ``companion.games.*``: it hands back the compiled module's spec only while
    that module is at least as new as its source."""

    @classmethod
    def find_spec(cls, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith(PACKAGE):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return spec
        compiled = Path(spec.origin)
        source = compiled.with_name(f"{name.rpartition('.')[2]}.py")
        if not source.is_file():
            return spec
        if os.environ.get(PURE):
            return importlib.util.spec_from_file_location(name, source)
        if source.stat().st_mtime > compiled.stat().st_mtime:
            warnings.warn(f"{source} changed after it was compiled: it runs from the source, slower, until "
                          f"`make` compiles it again", RuntimeWarning, stacklevel=2)
            return importlib.util.spec_from_file_location(name, source)
        return spec


def install() -> None:
    """Put the finder first, once: before any rules module is imported (``companion.games`` does on import)."""
    if SourceUnlessCompiledIsCurrent not in sys.meta_path:
        sys.meta_path.insert(0, SourceUnlessCompiledIsCurrent)


def rules_module(game: object) -> ModuleType:
    """The module that defines ``game``'s class: the rules whose copy (compiled or source) plays it."""
    return sys.modules[type(game).__module__]


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` runs compiled (its file is an extension module), not from its source."""
    return isinstance(module.__spec__.loader, importlib.machinery.ExtensionFileLoader)
