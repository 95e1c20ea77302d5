"""The examples in the docstrings of companion/, hw/ and vision/ are run: an example that no longer holds is a failing
test, not a stale doc."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion
import hw
import vision

MODULES = sorted(name for package in (companion, hw, vision)  # __main__ would run the program
                 for _, name, _ in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
                 if not name.endswith(".__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (printed above)"
