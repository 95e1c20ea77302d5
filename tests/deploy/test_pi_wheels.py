"""Every runtime, `pi` and build dependency (setuptools) installs on a Raspberry Pi from a binary
wheel.

A package without an aarch64 wheel makes pip build it on the Pi: a compiler and headers it lacks, or an hour on a
Pi 4, and a failure the install script can only report. pip's dry run with a report answers from PyPI's metadata
(no wheel is downloaded) for the Pi's platform, CPython and glibc, so this needs the registry (marked `registry`).
The requirements are pyproject.toml's own; their environment markers are evaluated for the Pi here, because pip
evaluates them for the interpreter that runs it, whatever ``--python-version`` says.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

PI_OS = {"bookworm": ("3.11", 36), "trixie": ("3.13", 41)}
"""Raspberry Pi OS (64-bit) releases: their CPython and glibc 2.x."""


def requirements(python: str) -> list[Requirement]:
    """pyproject's `dependencies`, `pi` extra and build requirements that apply on a Pi with this CPython, without
    their markers."""
    pyproject = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    project = pyproject["project"]
    pi = {"python_version": python, "python_full_version": f"{python}.0", "platform_machine": "aarch64",
          "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
          "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": "pi"}
    wanted = []
    for line in [*project["dependencies"], *project["optional-dependencies"]["pi"],
                 *pyproject["build-system"]["requires"]]:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(pi):
            requirement.marker = None
            wanted.append(requirement)
    return wanted


def platforms(glibc_minor: int) -> list[str]:
    """The manylinux tags a glibc 2.x aarch64 system runs (pip does not widen ``manylinux_2_X`` by itself)."""
    return ["manylinux2014_aarch64", *(f"manylinux_2_{minor}_aarch64" for minor in range(17, glibc_minor + 1))]


@pytest.mark.registry
@pytest.mark.parametrize("release", PI_OS)
def test_runtime_and_pi_dependencies_have_aarch64_wheels_for_raspberry_pi_os(release, tmp_path):
    python, glibc_minor = PI_OS[release]
    wanted = requirements(python)
    report = tmp_path / "report.json"
    command = [
        sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--timeout=20",
        "--retries=1", "--disable-pip-version-check", "--report", str(report), "--only-binary=:all:",
        "--implementation", "cp", "--python-version", python, "--abi", f"cp{python.replace('.', '')}",
        *(f"--platform={tag}" for tag in platforms(glibc_minor)), *map(str, wanted),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        missing = re.search(r"No matching distribution found for (\S+)", result.stderr)
        what = f"no aarch64 wheel of {missing.group(1)}" if missing else "pip could not resolve the dependencies"
        if re.search(r"Retrying|NewConnectionError|ConnectTimeout|ProxyError|SSLError", result.stderr):
            what = "PyPI could not be reached (offline? deselect with -m 'not registry')"
        pytest.fail(f"Raspberry Pi OS {release} (CPython {python}, glibc 2.{glibc_minor}): {what}\n{result.stderr}")
    chosen = {canonicalize_name(item["metadata"]["name"]): item["download_info"]["url"].rsplit("/", 1)[-1]
              for item in json.loads(report.read_text())["install"]}
    assert {canonicalize_name(r.name) for r in wanted} <= set(chosen)
    assert all(name.endswith(".whl") for name in chosen.values()), chosen
