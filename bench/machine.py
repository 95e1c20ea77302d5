"""The machine a benchmark ran on: figures without it cannot be compared."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.json"


def cpu_model() -> str:
    """The CPU's marketing name from /proc/cpuinfo (x86 'model name', Arm 'Model'), else what platform knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe() -> dict[str, object]:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        # whose build: Debian's (/usr, as a Pi's) runs pure Python some 10 % faster than a pyenv build made without
        # profile-guided optimisation, so rates from the two are not comparable either
        "python_prefix": sys.base_prefix,
        "system": f"{platform.system()} {platform.release()}",
    }


def machine_line(machine: dict[str, object]) -> str:
    """The one line every benchmark prints first, so figures from two machines are never compared unawares."""
    return (f"machine: {machine['cpu']} ({machine['cores']} cores, {machine['machine']}), Python {machine['python']} "
            f"({machine.get('python_prefix', '?')}), {machine['system']}")


def open_benchmark(skipped: str | None = None) -> tuple[dict[str, object], str | None]:
    """Open a benchmark: print the machine it runs on and check for the real-d6-tray photos.

    Returns (describe(), why the real photos are missing or None). With `skipped` (what goes without the photos,
    e.g. "enrolment benchmark") a missing dataset is also printed as "<skipped> skipped: <why>", and the caller
    returns ``{"skipped": why}``; without it the caller decides what to leave out.
    """
    # Imported here: bench/ has its own vision.py, and only the scripts put the repository first on sys.path.
    from vision.evaluate import real_d6_missing_reason

    machine = describe()
    print(machine_line(machine))
    missing = real_d6_missing_reason()
    if missing and skipped is not None:
        print(f"{skipped} skipped: {missing}")
    return machine, missing


def record(name: str, figures: dict[str, object]) -> dict[str, object]:
    """Keep a benchmark's latest figures in bench/results.json under its name, with when and where they were
    measured: the README's figure is traced there, and git keeps the ones before it."""
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[name] = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": describe(), **figures}
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    return figures


if __name__ == "__main__":
    for key, value in describe().items():
        print(f"{key}: {value}")
