"""Run every benchmark in bench/, print its figures and write them all to bench/results.json.

Each benchmark is a script with ``run() -> dict`` that prints its own figures; this runner adds the machine
and the date so a figure in the README can always be traced to where and when it was measured.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine import describe  # noqa: E402


def main() -> int:
    results: dict[str, object] = {"machine": describe(), "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    failed = []
    for script in sorted(HERE.glob("*.py")):
        if script.name in ("run_all.py", "machine.py"):
            continue
        print(f"== {script.name}", flush=True)
        spec = importlib.util.spec_from_file_location(script.stem, script)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            results[script.stem] = module.run()
        except Exception as exc:  # one broken benchmark must not hide the others' figures
            print(f"!! {script.name} failed: {type(exc).__name__}: {exc}", flush=True)
            failed.append(script.name)
    (HERE / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {HERE / 'results.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
