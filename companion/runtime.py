"""Putting one table together: store, session, server and (in the demo) bots, from one Config.

Kept apart from the CLI so tests can start a whole companion in-process, and apart from the session so the
session stays free of threads it does not need.
"""

from __future__ import annotations

import logging
import math
import random
import threading
from dataclasses import dataclass, field

from companion.camera import TableCamera
from companion.config import Config
from companion.games import IllegalAction, get_game
from companion.games.bots import GreedyBot, RandomBot, roll
from companion.malloc import keep_memory_flat
from companion.session import TableSession
from companion.store import EventStore
from companion.web import create_app, load_secret_key
from companion.web.server import Server
from hw import Hardware, attach
from hw.systemd import Watchdog
from vision.camera_state import CameraState

log = logging.getLogger(__name__)

PENDING_FILE = "tray-roll.json"
"""In the data dir: the roll lying in the tray, offered again after a restart (not a game event)."""

DEMO_PLAYERS = [("Julia", "green"), ("Klaus", "red"), ("Ben", "blue"), ("Anna", "yellow")]
DEMO_OPTIONS: dict[str, dict] = {
    # Hexen Rennen's clans have other colours, and its face-down tiles need a seeded "truth" for bots to reveal.
    "hexenrennen": {"players": [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "orange"},
                                {"name": "Ben", "colour": "blue"}, {"name": "Anna", "colour": "yellow"}],
                    "tiles": "shuffled", "piles": "shuffled"},
}


@dataclass
class Companion:
    config: Config
    store: EventStore
    session: TableSession
    server: Server
    hardware: Hardware | None = None
    camera: TableCamera | None = None
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
        if self.camera:
            self.camera.stop()
        self.session.broker.close()
        self.server.stop()
        for thread in self.threads:
            thread.join(timeout=5)
        self.store.close()


def build(config: Config) -> Companion:
    """Open the store, resume the last unfinished game and bind the server (not yet serving)."""
    keep_memory_flat()  # before any thread starts
    config.data_dir.mkdir(parents=True, exist_ok=True)
    store = EventStore.in_data_dir(config.data_dir)
    session = TableSession(store, min_confidence=config.tray.min_confidence,
                           pending_path=config.data_dir / PENDING_FILE)
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
    app.config["LANGUAGE"] = config.game.language
    camera = _start_camera(session, config)
    app.extensions["camera"] = camera
    server = Server(app, host=config.server.host, port=config.server.port, threads=config.server.threads)
    return Companion(config, store, session, server, hardware=hardware, camera=camera)


def _start_camera(session: TableSession, config: Config) -> TableCamera | None:
    """The camera, or None when it cannot start at all (a missing or corrupt model, a bad source setting).

    A table without a camera still plays: dice are typed in on the dashboard. The reason is shown there.
    A camera that fails *later* is the pipeline's business: it reopens the camera with backoff. It reads the
    dice of the game resumed from the log (the config's game may be another), then follows each new game.
    """
    game = session.game or get_game(config.game.id)
    try:
        return TableCamera(session, config, game.dice_set).start()
    except Exception as exc:
        log.error("camera not started: %s", exc)
        session.set_status(camera={"state": CameraState.OFF, "message": str(exc), "source": config.camera.source})
        return None


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
            options = DEMO_OPTIONS.get(game.id, {"players": players})
            session.new_game(game.id, options, seed=rng.randrange(2**31))
            continue
        prompt = session.prompt()
        bot = GreedyBot() if str(prompt.actor).split("-")[0] in greedy else RandomBot()
        choice = bot.choose(session.game, session.state, prompt, rng)
        try:
            if "roll" in choice:
                _roll_in_the_tray(companion, prompt.options.index(choice), roll(session.game, choice, rng))
            else:
                session.act(choice, actor=prompt.actor or "bot", source="bot")
        except IllegalAction as exc:  # a person on the dashboard moved first: look again
            log.info("demo bot: %s", exc)
        if stop.wait(delay):
            return


def _roll_in_the_tray(companion: Companion, option: int, rolled: dict) -> None:
    """Roll as players do: the dice land in the (synthetic) tray, the camera reads them, the player taps any die
    the camera got wrong or was unsure of, and confirms. Without a camera the faces are typed in."""
    session, camera, faces = companion.session, companion.camera, rolled["dice"]
    actor = session.prompt().actor or "bot"
    source = getattr(camera, "source", None)
    if camera is not None and hasattr(source, "roll"):
        before = camera.reading_count
        source.roll(faces)
        if camera.wait_for_reading(before, timeout=10.0):
            pending = session.snapshot()["pending"]
            truth = source.scene.dice if source.scene is not None else []
            if pending and len(pending["dice"]) == len(faces) == len(truth):
                for i, die in enumerate(pending["dice"]):
                    nearest = min(truth, key=lambda t: math.dist(t.center, die["center"]))
                    if die["label"] != nearest.label or die.get("low"):
                        session.correct_die(i, nearest.label, actor=actor)
                session.confirm(actor=actor, source="camera", option=option)
                return
    session.offer_dice([{"label": face, "confidence": 1.0} for face in faces], source="manual")
    session.confirm(actor=actor, source="dashboard", option=option)
