"""Power cuts for the tests: a script runs on a database and is killed with SIGKILL at a random moment."""

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path


def killed_runs(script: str, path: Path, rng: random.Random, *, times: int,
                pause: tuple[float, float]) -> Iterator[tuple[int, list[str]]]:
    """Run `script` (argv: the database, the run's number) `times` times, each killed a random `pause` after it says
    "ready"; yield the run's number and the whole lines it printed after that (the last, maybe cut, dropped)."""
    for run in range(times):
        child = subprocess.Popen([sys.executable, "-c", script, str(path), str(run)], stdout=subprocess.PIPE,
                                 text=True)
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(*pause))
        child.kill()
        child.wait()
        told = child.stdout.read().split("\n")[:-1]
        child.stdout.close()
        yield run, told
