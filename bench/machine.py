"""The machine a benchmark ran on: figures without it cannot be compared."""

from __future__ import annotations

import os
import platform


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
        "system": f"{platform.system()} {platform.release()}",
    }


if __name__ == "__main__":
    for key, value in describe().items():
        print(f"{key}: {value}")
