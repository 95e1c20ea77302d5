"""Pulled power cables: SIGKILL the companion at random moments while a player acts, and check every restart.

    .venv/bin/python bench/kills.py [--kills 200]

Each round starts ``companion serve --config`` on one data folder (as the systemd unit runs it; synthetic camera at
1 fps, mock pins), plays through its HTTP API as fast as it answers (the table's legal options, undos, an undo now
and then after a race is over, the next race when one ends: mostly the short Dice Race, else Chariot Race) and,
once its first move is answered, SIGKILLs it after a random 0 to 1 s. Then, on the database as the kill left it:

* **lost**: an event the API acknowledged (``{"seq": n}``, or a new game's number) that is not in the log, or is
  another event there;
* **wrong resume**: the restarted companion's ``/healthz`` does not name the table as its log says it was: the
  latest game at its last event, or no game when that game is over (the rules replay the log to say so).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from machine import describe, machine_line, record  # noqa: E402
from restart import COMPANION, free_port, healthz  # noqa: E402

from companion.games import get_game, get_presentation  # noqa: E402
from companion.session import replay  # noqa: E402
from companion.store import GameRecord, StoredEvent  # noqa: E402

PIN = "2468"
DICE_RACE = {"players": [{"name": "Ada"}, {"name": "Bo"}]}
CONFIG = """
control_pin = "{pin}"
data_dir = "{data_dir}"
[camera]
source = "synthetic"
width = 320
height = 240
fps = 1
[buttons]
pin_factory = "mock"
[server]
host = "127.0.0.1"
port = {port}
"""


class Player(threading.Thread):
    """Acts on the table until the server goes; remembers what was acknowledged."""

    def __init__(self, port: int, rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.port, self.rng = port, rng
        self.acknowledged: list[tuple[int, int, str]] = []
        """(game, seq, event type) of every event the API answered for."""
        self.games: list[int] = []
        """The number of every game the API answered it had started."""
        self.stop = threading.Event()
        self.playing = threading.Event()
        """Set once the first move is acknowledged: the kill then comes while the table is being played."""

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            headers = {"Content-Type": "application/json", "X-Table-Pin": PIN}
            connection.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.one_move()
        except (OSError, http.client.HTTPException, ValueError):
            return  # killed

    def one_move(self) -> None:
        _, state = self.call("GET", "/api/state")
        game = state["game"]
        if game is None or (game["over"] and self.rng.random() < 0.5):
            game_id = "dice-race" if self.rng.random() < 0.7 else "chariot-race"  # a dice race ends in a few moves
            options = get_presentation(game_id).DEMO_OPTIONS if game_id == "chariot-race" else DICE_RACE
            status, answer = self.call("POST", "/api/game", {"game": game_id, "options": options,
                                                             "seed": self.rng.randrange(2**31)})
            if status == 200:
                self.games.append(answer["game"])
            return
        options = state["prompt"]["options"]
        if game["over"] or not options or (state["seq"] and self.rng.random() < 0.1):
            action = {"type": "undo"}
        else:
            action = dict(self.rng.choice(options))
            if "roll" in action:
                faces = get_game(game["id"]).die_faces
                action["dice"] = [self.rng.choice(faces) for _ in range(action.pop("roll"))]
        status, answer = self.call("POST", "/api/action", {**action, "seq": state["seq"], "game": game["number"]})
        if status == 200:
            self.acknowledged.append((game["number"], answer["seq"], action["type"]))
            self.playing.set()


def start(config: Path) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([str(COMPANION), "serve", "--config", str(config)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        if "dashboard at http://" in line:
            port = int(line.split("dashboard at http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
            while healthz(port) is None:
                time.sleep(0.01)
            return process, port
    raise RuntimeError("the companion did not start")


def the_log(database: Path) -> tuple[dict[int, dict[int, str]], tuple[int, int] | None]:
    """Every game's events (seq -> type) as the kill left them, and where the table was: the latest game at its
    last event, or None when that game is over (replayed by the rules from the log itself)."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        events: dict[int, dict[int, str]] = {game_id: {} for (game_id,) in db.execute("SELECT id FROM games")}
        for game_id, seq, kind in db.execute("SELECT game_id, seq, type FROM events"):
            events.setdefault(game_id, {})[seq] = kind
        row = db.execute("SELECT id, game, options, seed FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return events, None
        record = GameRecord(row[0], row[1], json.loads(row[2]), row[3], 0.0, None)
        stored = [StoredEvent(row[0], seq, 0.0, "", kind, json.loads(payload)) for seq, kind, payload in db.execute(
            "SELECT seq, type, payload FROM events WHERE game_id = ? ORDER BY seq", (row[0],))]
    finally:
        db.close()
    game = get_game(record.game)
    state, _ = replay(game, record, stored)
    return events, None if game.is_over(state) else (record.id, stored[-1].seq if stored else 0)


def run(kills: int = 200, seed: int = 11) -> dict[str, object]:
    machine = describe()
    print(machine_line(machine))
    rng = random.Random(seed)
    lost: list[str] = []
    wrong: list[str] = []
    acknowledged = games = 0
    with tempfile.TemporaryDirectory(prefix="bench-kills-") as tmp:
        data_dir = Path(tmp) / "data"
        config = Path(tmp) / "table.toml"
        config.write_text(CONFIG.format(pin=PIN, data_dir=data_dir, port=free_port()))
        process, port = start(config)
        for kill in range(1, kills + 1):
            player = Player(port, random.Random(rng.randrange(2**32)))
            player.start()
            player.playing.wait(timeout=30)
            time.sleep(rng.uniform(0.0, 1.0))
            process.send_signal(signal.SIGKILL)
            process.wait()
            process.stdout.close()
            player.stop.set()
            player.join(timeout=15)
            events, table = the_log(data_dir / "events.sqlite3")
            for game, seq, kind in player.acknowledged:
                if events.get(game, {}).get(seq) != kind:
                    lost.append(f"kill {kill}: game {game} event {seq} ({kind}) acknowledged, in the log: "
                                f"{events.get(game, {}).get(seq)}")
            lost += [f"kill {kill}: game {game} acknowledged, not in the log" for game in player.games
                     if game not in events]
            acknowledged += len(player.acknowledged)
            games += len(player.games)
            process, port = start(config)
            # start() saw one answer; on a machine at load 20 the next can outlast healthz's 5 s timeout (None):
            # that is no answer yet, not a wrong resume, so ask again.
            began = time.monotonic()
            while (answer := healthz(port)) is None:
                if time.monotonic() - began > 120:
                    raise RuntimeError(f"kill {kill}: the restarted companion stopped answering /healthz")
                time.sleep(0.1)
            resumed = (answer["game"]["number"], answer["seq"]) if answer["game"] else None
            if resumed != table:
                wrong.append(f"kill {kill}: the log says {table}, /healthz says {resumed}")
            if kill % 20 == 0:
                print(f"{kill} kills: {acknowledged} events and {games} games acknowledged, {len(lost)} lost, "
                      f"{len(wrong)} wrong resumes", flush=True)
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()
    for line in (lost + wrong)[:20]:
        print(line)
    print(f"{kills} SIGKILLs during play: {acknowledged} events and {games} new games acknowledged; "
          f"events lost: {len(lost)}; wrong resumes: {len(wrong)} (goal 0 and 0)")
    return {"machine": machine, "kills": kills, "acknowledged_events": acknowledged, "acknowledged_games": games,
            "events_lost": len(lost), "wrong_resumes": len(wrong), "failures": (lost + wrong)[:20]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    record("kills", run(parser.parse_args().kills))
