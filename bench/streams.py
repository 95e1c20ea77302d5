"""Live screens: delivery delay to 30 and 100 open streams, a controller's action latency with 100 streams open, and
the server's resident memory over a long game with 30 dashboards. Goals: action p95 <= 100 ms with 100 streams;
RSS after the long run within 20 % of where it started.

The server (the real app on the real waitress ``Server``, a Chariot Race of four) runs in a process of its own so the
clients' sockets and threads stay out of its memory figures. Its broker stamps each message with the time it was
published; the screens (one selector thread, raw sockets) note when each message arrives, so the delay covers the
hub, the loop thread, the socket and the reading. A driver plays on (a random legal option of the prompt, with dice
rolled for it) through ``POST /api/action`` with the PIN header, as a tablet does. Some screens of each set share
one address (a spectator with many tabs, up to the per-address limit); the others come from 127.0.x.y each.

    python bench/streams.py              # the memory run lasts 10 minutes
    python bench/streams.py --minutes 1
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before bench/, whose vision.py would hide the vision package

from machine import describe, machine_line, record  # noqa: E402
from served import rss_mb  # noqa: E402

from companion.web.streams import STREAMS_PER_ADDRESS  # noqa: E402

PIN = "2468"
PLAYERS = [{"name": name, "colour": colour} for name, colour in
           (("Julia", "green"), ("Klaus", "red"), ("Ben", "blue"), ("Anna", "yellow"))]
GOAL_ACTION_P95_MS = 100.0
GOAL_RSS_GROWTH = 0.20
ACTIONS_PER_SET = 150
ACTION_INTERVAL = 0.1
"""Seconds between the driver's actions while delays are measured (each action publishes a message or two)."""
PLAY_INTERVAL = 0.25
"""Seconds between actions in the memory run: faster than people play, so ten minutes stand for an evening."""
RSS_SAMPLE_SECONDS = 10.0
SENT = re.compile(rb'"sent":([0-9.]+)')


# -- the server process ------------------------------------------------------------------------------------------------

def serve(data_dir: Path) -> None:
    """The table's web server with nothing else: prints its port, serves until stdin closes."""
    from companion.session import Broker, TableSession
    from companion.store import EventStore
    from companion.web import create_app
    from companion.web.server import Server

    class StampingBroker(Broker):
        def publish(self, message: dict[str, Any]) -> None:
            super().publish({**message, "sent": time.time()})

    store = EventStore(data_dir / "events.sqlite3")
    session = TableSession(store, broker=StampingBroker())
    session.new_game("chariot-race", {"players": PLAYERS}, seed=1)
    server = Server(create_app(session, control_pin=PIN), host="127.0.0.1", port=0).start()
    print(server.port, flush=True)
    sys.stdin.read()
    session.broker.close()
    server.stop()
    store.close()


class ServerProcess:
    def __init__(self, data_dir: Path) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(data_dir)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())

    def rss_mb(self) -> float:
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


# -- the clients -------------------------------------------------------------------------------------------------------

class Screens:
    """``count`` open dashboards read by one selector thread; ``delays`` holds publish -> arrival in seconds."""

    def __init__(self, port: int, count: int) -> None:
        same = min(STREAMS_PER_ADDRESS, count // 5)  # one spectator's many tabs
        self.delays: list[float] = []
        self.closed = 0
        self._selector = selectors.DefaultSelector()
        self._rest: dict[socket.socket, bytes] = {}
        for i in range(count):
            source = "127.0.0.2" if i < same else f"127.0.{1 + i // 250}.{3 + i % 250}"
            sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: table\r\nAccept: text/event-stream\r\n\r\n")
            sock.setblocking(False)
            self._selector.register(sock, selectors.EVENT_READ)
            self._rest[sock] = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(0.2):
                sock = key.fileobj
                data = sock.recv(1 << 16)
                now = time.time()
                if not data:
                    self._selector.unregister(sock)
                    self.closed += 1
                    continue
                *messages, self._rest[sock] = (self._rest[sock] + data).split(b"\n\n")
                for message in messages:
                    sent = SENT.search(message)
                    if sent:
                        self.delays.append(now - float(sent.group(1)))

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        for sock in self._rest:
            sock.close()


class Driver:
    """A controller playing through the API: one keep-alive connection, the PIN header, like a tablet's fetch."""

    def __init__(self, port: int, seed: int = 1) -> None:
        from companion.games import get_game

        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.rng = random.Random(seed)
        self.game = get_game("chariot-race")
        self.latencies: list[float] = []
        self.games = 0

    def _call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"X-Table-Pin": PIN, "Content-Type": "application/json"}
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())

    def play_one(self) -> None:
        from companion.games.bots import roll

        _, state = self._call("GET", "/api/state")
        prompt = state.get("prompt")
        if state["game"]["over"] or not prompt or not prompt["options"]:
            self._call("POST", "/api/game", {"game": "chariot-race", "options": {"players": PLAYERS},
                                             "seed": self.rng.randrange(2**31)})
            self.games += 1
            return
        option = self.rng.choice(prompt["options"])
        action = roll(self.game, option, self.rng) if "roll" in option else option
        began = time.perf_counter()
        status, answer = self._call("POST", "/api/action", {**action, "actor": prompt["actor"]})
        self.latencies.append(time.perf_counter() - began)
        if status != 200:
            raise RuntimeError(f"the driver's action was refused: {status} {answer}")

    def play(self, actions: int, interval: float) -> None:
        for _ in range(actions):
            self.play_one()
            time.sleep(interval)


def spread_ms(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    if not ordered:
        return {"n": 0}
    return {"n": len(ordered), "p50": round(statistics.median(ordered) * 1000, 2),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2), "max": round(ordered[-1] * 1000, 2)}


def delivery(server: ServerProcess, count: int) -> dict[str, Any]:
    screens = Screens(server.port, count)
    time.sleep(1.0)  # every hello is in
    driver = Driver(server.port)
    driver.play(ACTIONS_PER_SET, ACTION_INTERVAL)
    time.sleep(1.0)
    screens.close()
    return {"screens": count, "delivery_ms": spread_ms(screens.delays), "action_ms": spread_ms(driver.latencies),
            "streams_closed_by_server": screens.closed}


def memory(server: ServerProcess, minutes: float) -> dict[str, Any]:
    screens = Screens(server.port, 30)
    driver = Driver(server.port, seed=2)
    driver.play(20, PLAY_INTERVAL)  # warm up: the first messages, the first pages of the store
    start = server.rss_mb()
    samples = [(0.0, start)]
    began = time.monotonic()
    ends = began + minutes * 60
    next_sample = began + RSS_SAMPLE_SECONDS
    while time.monotonic() < ends:
        driver.play_one()
        time.sleep(PLAY_INTERVAL)
        if time.monotonic() >= next_sample:
            samples.append((round(time.monotonic() - began, 1), server.rss_mb()))
            next_sample += RSS_SAMPLE_SECONDS
    end = server.rss_mb()
    screens.close()
    return {"minutes": minutes, "screens": 30, "actions": len(driver.latencies), "new_games": driver.games,
            "messages_delivered": len(screens.delays), "streams_closed_by_server": screens.closed,
            "rss_mb_start": round(start, 1), "rss_mb_end": round(end, 1),
            "rss_mb_max": round(max(rss for _, rss in samples + [(0, end)]), 1),
            "rss_growth": round(end / start - 1, 3), "rss_mb_samples": [(t, round(rss, 1)) for t, rss in samples]}


def run(minutes: float = 10.0) -> dict[str, Any]:
    figures: dict[str, Any] = {"machine": describe(), "goal_action_p95_ms": GOAL_ACTION_P95_MS,
                               "goal_rss_growth": GOAL_RSS_GROWTH}
    print(machine_line(figures["machine"]), flush=True)
    with tempfile.TemporaryDirectory() as data:
        server = ServerProcess(Path(data))
        try:
            for count in (30, 100):
                f = figures[f"streams_{count}"] = delivery(server, count)
                d, a = f["delivery_ms"], f["action_ms"]
                print(f"{count:3d} streams: delivery p50 {d['p50']} ms, p95 {d['p95']} ms, max {d['max']} ms over "
                      f"{d['n']} messages; action p50 {a['p50']} ms, p95 {a['p95']} ms, max {a['max']} ms over "
                      f"{a['n']} actions; {f['streams_closed_by_server']} streams closed by the server", flush=True)
            print(f"memory run: 30 streams, an action every {PLAY_INTERVAL} s for {minutes} min ...", flush=True)
            m = figures["memory"] = memory(server, minutes)
        finally:
            server.stop()
    by_minute = [rss for t, rss in m["rss_mb_samples"] if t % 60 < RSS_SAMPLE_SECONDS]
    print("server RSS at each minute (MB): " + " ".join(f"{rss:.1f}" for rss in by_minute))
    print(f"server RSS {m['rss_mb_start']} MB -> {m['rss_mb_end']} MB ({m['rss_growth']:+.1%}, max "
          f"{m['rss_mb_max']} MB) over {m['actions']} actions, {m['new_games']} new games, "
          f"{m['messages_delivered']} messages delivered; {m['streams_closed_by_server']} streams closed by the server")
    p95 = figures["streams_100"]["action_ms"]["p95"]
    print(f"action p95 with 100 streams {'meets' if p95 <= GOAL_ACTION_P95_MS else 'MISSES'} the goal of "
          f"{GOAL_ACTION_P95_MS:.0f} ms; RSS growth {'meets' if abs(m['rss_growth']) <= GOAL_RSS_GROWTH else 'MISSES'}"
          f" the goal of {GOAL_RSS_GROWTH:.0%}")
    return json.loads(json.dumps(figures))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the memory run (default 10)")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)  # the server process (data folder)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
    else:
        record("streams", run(args.minutes))
