"""Restart to healthy: how long a table's companion takes from its start to answering ``/healthz`` with its game.

    .venv/bin/python bench/restart.py [--restarts 15] [--events 90]

A data folder holds a Chariot Race in progress (``--events`` actions played by greedy and random bots: most of
a race) and a typed-in roll waiting in the tray. Each start is a new process
of ``companion serve --config`` (as the systemd unit runs it; synthetic camera, mock pins), timed from its start to
the first ``/healthz`` that names that game at its last event, then stopped with SIGTERM.

The companion's own modules are byte-compiled first, as ``deploy/install-pi.sh`` compiles them on a Pi (its service
user cannot write ``__pycache__`` into the install folder). ``--no-compile`` leaves them as they are: where
PYTHONDONTWRITEBYTECODE is set and no ``__pycache__`` exists, every start then compiles them (about 0.1 s of CPU
here), as every start on a Pi did before the install compiled them.
"""

from __future__ import annotations

import argparse
import compileall
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from machine import describe, machine_line, record  # noqa: E402

GOAL_SECONDS = 0.5
COMPANION = Path(sys.executable).with_name("companion")

CONFIG = """
control_pin = "2468"
data_dir = "{data_dir}"
[camera]
source = "synthetic"
width = 640
height = 480
[buttons]
pin_factory = "mock"
[server]
host = "127.0.0.1"
port = {port}
"""


def play_a_game(data_dir: Path, events: int, seed: int = 5) -> tuple[int, int]:
    """A Chariot Race in progress, ``events`` actions in (or one short of its end), played by greedy and random bots,
    with a typed-in roll waiting in the tray. Returns its number and seq."""
    from companion.games.bots import GreedyBot, RandomBot, roll
    from companion.runtime import PENDING_FILE, demo_options
    from companion.session import TableSession
    from companion.store import EventStore

    store = EventStore.in_data_dir(data_dir)
    session = TableSession(store, pending_path=data_dir / PENDING_FILE)
    session.new_game("chariot-race", demo_options("chariot-race"), seed=seed)
    rng = random.Random(seed)
    for _ in range(events):
        game, state = session.game, session.state
        prompt = game.prompt(state)
        bot = GreedyBot() if rng.random() < 0.5 else RandomBot()
        choice = bot.choose(game, state, prompt, rng)
        action = roll(game, choice, rng, state) if "roll" in choice else choice
        if game.is_over(game.apply(state, action)[0]):
            break
        session.act(action, actor=str(prompt.actor), source="bot")
    while "roll" not in (option := session.prompt().options[0]):  # up to a roll, which is typed in and waits
        session.act(option, actor=str(session.prompt().actor), source="bot")
    session.offer_dice([{"label": face, "confidence": 1.0} for face in session.game.die_faces[:option["roll"]]],
                       source="manual")
    number, seq = session.record.id, session.snapshot()["seq"]
    store.close()
    return number, seq


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthz(port: int) -> dict | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        body = response.read()
        return json.loads(body) if response.status == 200 else None
    except OSError:
        return None
    finally:
        connection.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far, all its threads (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_start(config: Path, number: int, seq: int) -> tuple[float, float]:
    """Seconds from the process's start to a /healthz naming game ``number`` at ``seq``, and the CPU seconds the
    process had used by then (on a shared machine the first waits for the others, the second does not)."""
    began = time.monotonic()
    process = subprocess.Popen([str(COMPANION), "serve", "--config", str(config)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        for line in process.stdout:  # "Table companion 0.1.0: dashboard at http://127.0.0.1:PORT/ ..."
            if "dashboard at http://" in line:
                port = int(line.split("dashboard at http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
                break
        if port is None:
            raise RuntimeError("the companion did not start")
        while True:
            answer = healthz(port)
            if answer and answer["game"] and answer["game"]["number"] == number and answer["seq"] == seq:
                return time.monotonic() - began, cpu_seconds(process.pid)
            if time.monotonic() - began > 60:
                raise RuntimeError(f"no healthy /healthz within 60 s: {answer}")
            time.sleep(0.002)
    finally:
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()


def compile_companion() -> None:
    """Byte-compile the companion's packages where ``companion serve`` imports them from, as install-pi.sh does."""
    found = subprocess.run([str(COMPANION.with_name("python")), "-c", "import companion; print(companion.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    checkout = Path(found.stdout.strip()).parent.parent
    for package in ("companion", "vision", "hw"):
        compileall.compile_dir(checkout / package, quiet=1, workers=0)


def run(restarts: int = 15, events: int = 90, compiled: bool = True) -> dict[str, object]:
    machine = describe()
    print(machine_line(machine))
    if compiled:
        compile_companion()
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
        data_dir = Path(tmp) / "data"
        data_dir.mkdir()
        number, seq = play_a_game(data_dir, events)
        config = Path(tmp) / "table.toml"
        config.write_text(CONFIG.format(data_dir=data_dir, port=free_port()))
        one_start(config, number, seq)  # the first start makes the secret key and calibrates nothing: not counted
        load = os.getloadavg()[0]
        starts = [one_start(config, number, seq) for _ in range(restarts)]
        pending = _pending_after_restart(config, number, seq)
    seconds, cpu = [wall for wall, _ in starts], [used for _, used in starts]
    median = statistics.median(seconds)
    print(f"restart to healthy (game {number} at event {seq}, {restarts} starts of `companion serve`): median "
          f"{median:.3f} s, min {min(seconds):.3f} s, max {max(seconds):.3f} s; goal <= {GOAL_SECONDS} s "
          f"({'met' if median <= GOAL_SECONDS else 'NOT met'}); the machine's load average {load:.1f} at the start; "
          f"{'byte-compiled first, as on a Pi' if compiled else 'bytecode as it was'}")
    print(f"every start (s): {' '.join(f'{s:.3f}' for s in seconds)}")
    print(f"CPU the server had used by then (s): median {statistics.median(cpu):.3f}; "
          f"{' '.join(f'{c:.2f}' for c in cpu)}")
    print(f"the typed-in roll waiting before the restart is offered after it: {pending}")
    return {"machine": machine, "events": seq, "restarts": restarts, "median_s": round(median, 3),
            "min_s": round(min(seconds), 3), "max_s": round(max(seconds), 3),
            "seconds": [round(s, 3) for s in seconds], "cpu_median_s": round(statistics.median(cpu), 3),
            "load_average": round(load, 1), "typed_roll_kept": pending, "compiled_first": compiled,
            "bytecode_written": not sys.flags.dont_write_bytecode}


def _pending_after_restart(config: Path, number: int, seq: int) -> bool:
    """Whether the typed-in roll is still waiting once the restarted companion has run its camera for 3 s."""
    process = subprocess.Popen([str(COMPANION), "serve", "--config", str(config)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        for line in process.stdout:
            if "dashboard at http://" in line:
                port = int(line.split("dashboard at http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
                break
        time.sleep(3.0)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/api/state")
        state = json.loads(connection.getresponse().read())
        connection.close()
        pending = state.get("pending")
        return bool(pending and pending["source"] == "manual" and state["seq"] == seq)
    finally:
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=15)
    parser.add_argument("--events", type=int, default=90)
    parser.add_argument("--no-compile", action="store_true",
                        help="do not byte-compile the companion first (see above)")
    arguments = parser.parse_args()
    record("restart", run(arguments.restarts, arguments.events, compiled=not arguments.no_compile))
