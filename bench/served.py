"""A whole companion in a process of its own, for benchmarks that load it from outside and read its memory.

The clients (fuzzers, dashboards) must not share the server's process: their own allocations would be counted in
the resident memory we judge the server by.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SERVER = """
import json, sys
from pathlib import Path
from companion import runtime
from companion.config import demo_config
companion = runtime.build(demo_config(Path(sys.argv[1]), port=0, pin=sys.argv[2]))
print(json.dumps({"port": companion.server.port}), flush=True)
try:
    companion.server.serve_forever()
finally:
    companion.stop()
"""


def rss_mb(pid: int) -> float:
    """A process's resident memory now (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    pin: str
    data_dir: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_mb(self) -> float:
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start(pin: str = "1234") -> Served:
    """The demo's companion (synthetic camera, mock pins, SQLite in a temporary folder), without bots."""
    data_dir = Path(tempfile.mkdtemp(prefix="bench-served-"))
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(data_dir), pin], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line:
        raise RuntimeError("the companion did not start")
    served = Served(process, json.loads(line)["port"], pin, data_dir)
    time.sleep(1.0)  # let the camera and the buttons settle before the first measurement
    return served
