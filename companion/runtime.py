"""Putting one table together: store, session, server and (in the demo) bots, from one Config.

Kept apart from the CLI so tests can start a whole companion in-process, and apart from the session so the
session stays free of threads it does not need.
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass, field

from companion.config import Config
from companion.games import get_game
from companion.games.bots import GreedyBot, RandomBot, roll
from companion.session import TableSession
from companion.store import EventStore
from companion.web import create_app, load_secret_key
from companion.web.server import Server
from hw import Hardware, attach
from hw.systemd import Watchdog

log = logging.getLogger(__name__)

DEMO_PLAYERS = [("Julia", "green"), ("Klaus", "red"), ("Ben", "blue"), ("Anna", "yellow")]


@dataclass
class Companion:
    config: Config
    store: EventStore
    session: TableSession
    server: Server
    hardware: Hardware | None = None
    watchdog: Watchdog | None = None
    threads: list[threading.Thread] = field(default_factory=list)
    stop_event: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return self.server.url

    def stop(self) -> None:
        self.stop_event.set()
        if self.watchdog:
            self.watchdog.close()
        if self.hardware:
            self.hardware.close()
        self.session.broker.close()
        self.server.stop()
        for thread in self.threads:
            thread.join(timeout=5)
        self.store.close()


def build(config: Config) -> Companion:
    """Open the store, resume the last unfinished game and bind the server (not yet serving)."""
    config.data_dir.mkdir(parents=True, exist_ok=True)
    store = EventStore.in_data_dir(config.data_dir)
    session = TableSession(store, min_confidence=config.tray.min_confidence)
    session.resume()
    hardware = attach(session, config.buttons, min_confidence=config.tray.min_confidence)  # never raises
    app = create_app(
        session,
        control_pin=config.control_pin,
        secret_key=load_secret_key(config.data_dir),
        default_game=config.game.id,
        health={"data_dir": str(config.data_dir), "camera": config.camera.source},
    )
    app.extensions["buttons"] = hardware.virtual  # presses on mock pins from the dashboard; None with real pins
    app.extensions["hardware"] = hardware
    server = Server(app, host=config.server.host, port=config.server.port, threads=config.server.threads)
    return Companion(config, store, session, server, hardware=hardware)


def start_bots(companion: Companion, *, seed: int | None = None, delay: float = 0.8) -> None:
    """Let bots play the configured game forever, a new game after each end, so a demo screen stays alive."""
    thread = threading.Thread(
        target=_bot_loop, args=(companion, random.Random(seed), delay), name="demo-bots", daemon=True
    )
    companion.threads.append(thread)
    thread.start()


def _bot_loop(companion: Companion, rng: random.Random, delay: float) -> None:
    session, stop = companion.session, companion.stop_event
    game = get_game(companion.config.game.id)
    # Half the table plays greedily, half at random: races stay close enough to be worth watching.
    greedy = {colour for _, colour in DEMO_PLAYERS[::2]}
    while not stop.is_set():
        if session.game is None or session.game.is_over(session.state):
            if session.game is not None and stop.wait(5 * delay):
                return
            players = [{"name": name, "colour": colour} for name, colour in DEMO_PLAYERS]
            session.new_game(game.id, {"players": players}, seed=rng.randrange(2**31))
            continue
        prompt = session.prompt()
        bot = GreedyBot() if str(prompt.actor).split("-")[0] in greedy else RandomBot()
        action = roll(session.game, bot.choose(session.game, session.state, prompt, rng), rng)
        session.act(action, actor=prompt.actor or "bot", source="bot")
        if stop.wait(delay):
            return
