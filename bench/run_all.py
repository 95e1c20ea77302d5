"""Run every benchmark in bench/, print its figures and write each to bench/results.json (``machine.record``).

Each benchmark is a script with ``run() -> dict`` that prints its own figures; they are recorded with the machine
and the date so a figure in the README can always be traced to where and when it was measured. Every script
runs in a process of its own: one pins itself to a core, another measures peak memory or starts workers, and
none of that may leak into the next one's figures.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine import RESULTS, record  # noqa: E402

HELPERS = {"run_all.py", "machine.py", "label_errors.py", "fuzz_requests.py", "served.py", "bot_games.py"}  # imported
RESEARCH = {"teach_ceiling.py"}  # a study behind a decision (needs torch), not a figure the README shows

# Runs one script's run() and writes its figures as JSON to the file named by argv[2].
CHILD = (
    "import json, runpy, sys; sys.path.insert(0, sys.argv[3]); "
    "figures = runpy.run_path(sys.argv[1], run_name='bench')['run'](); "
    "open(sys.argv[2], 'w').write(json.dumps(figures))"
)


def main() -> int:
    failed = []
    for script in sorted(HERE.glob("*.py")):
        if script.name in HELPERS | RESEARCH:
            continue
        print(f"== {script.name}", flush=True)
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            done = subprocess.run([sys.executable, "-c", CHILD, str(script), out.name, str(HERE)])
            if done.returncode != 0:  # one broken benchmark must not hide the others' figures
                print(f"!! {script.name} failed with exit status {done.returncode}", flush=True)
                failed.append(script.name)
                continue
            record(script.stem, json.loads(Path(out.name).read_text()))
    print(f"wrote {RESULTS}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
