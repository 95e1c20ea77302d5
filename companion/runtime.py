"""Putting one table together: store, session, server and (in the demo) bots, from one Config.

Kept apart from the CLI so tests can start a whole companion in-process, and apart from the session so the
session stays free of threads it does not need.
"""

from __future__ import annotations

import copy
import logging
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import Flask

from companion.config import Config
from companion.controls import TableControls
from companion.games import Game, IllegalAction, Prompt, get_game, get_presentation
from companion.games.base import BOT_KEY
from companion.games.bots import Bot, GreedyBot, RandomBot, roll
from companion.malloc import keep_memory_flat
from companion.session import NoGame, Stale, TableSession
from companion.store import STORE_FILE, EventStore, StoreCorrupt, StoredEvent, move_aside
from companion.web import create_app, load_secret_key
from companion.web.server import Server
from hw import Hardware
from hw.systemd import Watchdog
from vision.camera_state import CameraState

if TYPE_CHECKING:
    from companion.camera import TableCamera

log = logging.getLogger(__name__)

PENDING_FILE = "tray-roll.json"
"""In the data dir: the roll lying in the tray, offered again after a restart (not a game event)."""

DEVICES_WAIT_SECONDS = 1.0
"""How long a started table's pins and camera wait for its first answered request before they start anyway."""

DEMO_PLAYERS = ["Julia", "Klaus", "Ben", "Anna"]
"""The demo's seats for a game whose presentation has no ``DEMO_OPTIONS`` of its own."""


def demo_options(game_id: str, humans: int = 0) -> dict[str, Any]:
    """The set-up of a demo game of ``game_id`` (its presentation's ``DEMO_OPTIONS``): the first ``humans`` seats
    are people, the others bots."""
    own = getattr(get_presentation(game_id), "DEMO_OPTIONS", None)
    options = copy.deepcopy(own or {"players": [{"name": name} for name in DEMO_PLAYERS]})
    for n, player in enumerate(options["players"]):
        player[BOT_KEY] = n >= humans
    return options


@dataclass
class Companion:
    config: Config
    store: EventStore
    session: TableSession
    server: Server
    hardware: Hardware | None = None
    controls: TableControls | None = None
    """The buttons, wired or on screens, and what a press means (owns ``hardware``)."""
    camera: TableCamera | None = None
    app: Flask | None = None
    watchdog: Watchdog | None = None
    threads: list[threading.Thread] = field(default_factory=list)
    stop_event: threading.Event = field(default_factory=threading.Event)
    devices_lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while the camera or the pins are handed over, or taken for stopping (they may start while the table
    already serves)."""

    @property
    def url(self) -> str:
        return self.server.url

    def start_camera(self) -> TableCamera | None:
        """Start the camera (None when it cannot start, with the reason on the screens) and offer it to the pages."""
        camera = _start_camera(self.session, self.config)
        with self.devices_lock:
            if self.stop_event.is_set():  # the table closed while the camera started
                if camera:
                    camera.stop()
                return None
            self.camera = camera
            if self.app is not None:
                self.app.extensions["camera"] = camera
        if camera is not None and self.session.game is not None:
            camera.follow(self.session.game)  # a game started while the camera loaded
        return camera

    def start_buttons(self) -> None:
        """Start the pins the config's ``[buttons]`` asks for (buttons, status light, buzzer) and hand them to the
        controls. Never raises: pins that cannot start are logged and shown in ``status["buttons"]``."""
        # Under the lock (pins start in tens of milliseconds, not the camera's seconds): a stop waits for them and
        # then closes them with the controls, and pins started after a stop are never started at all.
        with self.devices_lock:
            if self.controls is None or self.stop_event.is_set():
                return
            self.hardware = self.controls.start(self.config.buttons,
                                                min_confidence=self.config.tray.min_confidence).hardware

    def start_devices_soon(self, *, wait: float = DEVICES_WAIT_SECONDS,
                           report: Callable[[], None] | None = None) -> None:
        """Start the pins, then the camera, in a thread of their own once the server has answered its first request
        (or after ``wait`` seconds unasked). The camera's models and OpenCV take longer to load than the rest of
        the companion together, and gpiozero is a tenth of what a start imports: loaded beside the first answer
        they would slow it on a Pi's few cores. So a restarted table answers its screens first, dice typed in by
        hand and a screen's buttons (performed directly until the pins are up) work at once, and the camera says
        "starting" until it reads. ``report`` runs first in that thread (``companion serve``'s start-up lines:
        reading the installed packages' versions is not what a first answer should wait for)."""
        thread = threading.Thread(target=self._start_devices, args=(wait, report), name="devices-start",
                                  daemon=True)
        self.threads.append(thread)
        thread.start()

    def _start_devices(self, wait: float, report: Callable[[], None] | None) -> None:
        self.server.answered.wait(wait)
        if report is not None:
            try:
                report()
            except Exception:  # a closed stdout, say: the pins and the camera start all the same
                log.exception("the start-up report failed")
        if self.stop_event.is_set():
            return
        self.start_buttons()
        self.start_camera()

    def stop(self) -> None:
        with self.devices_lock:
            self.stop_event.set()
            camera = self.camera
        if self.watchdog:
            self.watchdog.close()
        if self.controls:
            self.controls.close()  # its hardware too
        elif self.hardware:
            self.hardware.close()
        if camera:
            camera.stop()
        self.session.broker.close()
        self.server.stop()
        for thread in self.threads:
            if thread.is_alive():  # not one that a stop signalled while it was being started: it never ran
                thread.join(timeout=5)
        self.store.close()


def build(config: Config, *, devices: bool = True) -> Companion:
    """Open the store, resume the last unfinished game and bind the server (not yet serving).

    ``devices=False`` leaves the pins and the camera to :meth:`Companion.start_devices_soon` (``companion serve``
    and ``demo``, once the server answers)."""
    keep_memory_flat()  # before any thread starts
    config.data_dir.mkdir(parents=True, exist_ok=True)
    store, session = open_table(config)
    controls = TableControls(session, hold_seconds=config.buttons.hold_seconds)  # no pins yet: see start_buttons
    app = create_app(
        session,
        control_pin=config.control_pin,
        secret_key=load_secret_key(config.data_dir),
        default_game=config.game.id,
        health={"data_dir": str(config.data_dir), "camera": config.camera.source},
    )
    app.extensions["buttons"] = controls  # a screen's press: through the mock pins, or performed directly
    app.config["LANGUAGE"] = config.game.language
    app.extensions["camera"] = None
    session.set_status(camera={"state": CameraState.STARTING, "source": config.camera.source})
    server = Server(app, host=config.server.host, port=config.server.port, threads=config.server.threads)
    app.config["LISTEN_ON"] = (server.host, server.port)  # the kiosk's QR code: where tablets can reach it
    companion = Companion(config, store, session, server, controls=controls, app=app)
    if devices:
        companion.start_buttons()
        companion.start_camera()
    return companion


def open_table(config: Config) -> tuple[EventStore, TableSession]:
    """The event log and the session, the last unfinished game resumed.

    A log the card damaged (not an SQLite file any more, or broken pages where the game is read) is moved aside,
    with the reason in the log and on every screen, and the table starts a fresh one: players can start a game at
    once, and the damaged file stays beside it to be examined or rescued. Any other store error stops the start.
    """
    path = config.data_dir / STORE_FILE
    try:
        return _resumed(EventStore(path), config)
    except StoreCorrupt as exc:
        moved = move_aside(path)
        log.error("%s; it was moved aside to %s and a fresh event log starts: put back a copy made by `companion "
                  "backup`, or rescue the games from the moved file", exc, moved)
    store, session = _resumed(EventStore(path), config)
    session.set_status(store={"state": "moved_aside", "file": moved.name})
    return store, session


def _resumed(store: EventStore, config: Config) -> tuple[EventStore, TableSession]:
    session = TableSession(store, min_confidence=config.tray.min_confidence,
                           pending_path=config.data_dir / PENDING_FILE)
    try:
        session.resume()
    except StoreCorrupt:
        store.close()
        raise
    return store, session


def _start_camera(session: TableSession, config: Config) -> TableCamera | None:
    """The camera, or None when it cannot start at all (a missing or corrupt model, a bad source setting).

    A table without a camera still plays: dice are typed in on the dashboard. The reason is shown there.
    A camera that fails *later* is the pipeline's business: it reopens the camera with backoff. It reads the
    dice of the game resumed from the log (the config's game may be another), then follows each new game.
    """
    from companion.camera import TableCamera  # with OpenCV and onnxruntime: loaded once the table answers

    game = session.game or get_game(config.game.id)
    try:
        return TableCamera(session, config, game.dice_set).start()
    except Exception as exc:
        log.error("camera not started: %s", exc)
        session.set_status(camera={"state": CameraState.OFF, "message": str(exc), "source": config.camera.source})
        return None


EVENING_SECONDS = 35.0
"""How long ``companion demo`` waits between its games: the kiosk shows the evening meanwhile (static/attract.js:
tonight's results, who was lucky, the dice verdicts, about ten seconds each)."""


def start_bots(companion: Companion, *, seed: int | None = None, delay: float = 0.8, humans: int = 0,
               between: float = 0.0) -> None:
    """Let bots play the seats that are theirs, and keep a demo game going while nobody else plays.

    ``humans``: the first seats of the demo's own games that are people's (``companion demo --humans N``).
    ``between``: the seconds a finished demo game stays up before the next one (at least five moves' ``delay``).
    The New game page offers bot seats only on a table whose bots play them (``BOTS_PLAY``).
    """
    if companion.app is not None:
        companion.app.config["BOTS_PLAY"] = True
    thread = threading.Thread(
        target=_bot_loop, args=(companion, random.Random(seed), delay, humans, between), name="demo-bots",
        daemon=True
    )
    companion.threads.append(thread)
    thread.start()


def _bot_loop(companion: Companion, rng: random.Random, delay: float, humans: int, between: float) -> None:
    session, stop = companion.session, companion.stop_event
    game_id = companion.config.game.id
    while not stop.is_set():
        game, state, seq, number = session.position()
        if game is None or game.is_over(state):
            if _demo_may_start(game, state):
                if game is not None and stop.wait(max(5 * delay, between)):  # the result, then the evening
                    return
                # Not over a game somebody started meanwhile. (Not under the session's lock: new_game tells the camera,
                # whose thread may be waiting for that lock.)
                if session.state is state:
                    session.new_game(game_id, demo_options(game_id, humans), seed=rng.randrange(2**31))
                continue
        else:
            prompt, seats = game.prompt(state), game.seats(state)
            if seats.get(prompt.actor):
                try:
                    _play(companion, game, state, (seq, number), prompt, _bot_for(prompt.actor, seats), rng)
                except IllegalAction as exc:  # the rules refused (say, a reading that does not fit): look again
                    log.info("demo bot: %s", exc)
        if stop.wait(delay):
            return


def _demo_may_start(game: Game | None, state: Any) -> bool:
    """Whether the bots may put a game of their own on the table (which is over, or has none).

    Think of the demo kiosk at a game night. While nobody plays, the bots keep the screen alive with their own games,
    one after another. Once people start a game with a seat of their own, the table is theirs: the bots play only
    the seats given to them, and when that game ends its result stays up (who won, the log, the export) until
    someone presses New game. A demo game started over it would push the result off the screen the players are
    gathered round, the moment they want to look at it. After a restart an unfinished game of people resumes as it
    was, and a finished one is no longer current, so the bots start their own. A demo game with people's seats
    (``--humans``) is theirs too: the next one starts from New game.
    """
    return game is None or all(game.seats(state).values())


def _bot_for(actor: str, seats: dict[str, bool]) -> Bot:
    """Every other seat plays greedily, the rest at random: races stay close enough to be worth watching."""
    return GreedyBot() if list(seats).index(actor) % 2 == 0 else RandomBot()


def _play(companion: Companion, game: Game, state: Any, seen: tuple[int, int | None], prompt: Prompt, bot: Bot,
          rng: random.Random) -> None:
    """One move of the bot whose seat ``prompt`` asks, chosen on ``state`` (``seen``: the table's seq and game)."""
    actor = str(prompt.actor)
    choice = bot.choose(game, state, prompt, rng)
    if "roll" not in choice:
        _bot_move(companion.session, seen, actor, action=choice)
        return
    faces = roll(game, choice, rng, state)["dice"]
    read = _roll_in_the_tray(companion, actor, faces)
    if companion.stop_event.is_set():  # the camera stopped under the roll: the table is closing
        return
    _bot_move(companion.session, seen, actor, option=prompt.options.index(choice), typed=None if read else faces)


def _bot_move(session: TableSession, seen: tuple[int, int | None], actor: str, *, action: dict | None = None,
              option: int = 0, typed: list[str] | None = None) -> StoredEvent | None:
    """The bots' one call of ``act`` and ``confirm``, made on the state the bot decided on (``seen``: seq and game
    number) and stored with source ``"bot"`` so the log tells a bot's move from a person's.

    A person may act between a bot's look and its move (a tap, an undo, a new game). Applied to what the table
    became, the bot's choice could be a legal move for a person's seat: the very thing bots must never make. Like a
    late tap from a tablet, it is refused as stale.
    """
    seq, game = seen
    try:
        if action is not None:
            return session.act(action, actor=actor, source="bot", seq=seq, game=game)
        if typed is not None:  # no camera that can roll: the faces are typed in, as at a table without one
            session.offer_dice([{"label": face, "confidence": 1.0} for face in typed], source="manual", seq=seq,
                               game=game)
        return session.confirm(actor=actor, source="bot", option=option, seq=seq, game=game)
    except (Stale, NoGame) as exc:
        log.info("demo bot: %s", exc)
        return None


def _roll_in_the_tray(companion: Companion, actor: str, faces: list[str]) -> bool:
    """Roll as players do: the dice land in the (synthetic) tray, the camera reads them, the player taps any die
    the camera got wrong or was unsure of. False when no camera can roll or read them: they are typed in."""
    session, camera = companion.session, companion.camera
    source = getattr(camera, "source", None)
    if camera is None or not hasattr(source, "roll"):
        return False
    before = camera.reading_count
    try:
        source.roll(faces)
    except ValueError as exc:  # the tray holds another game's dice (a game from New game under the demo)
        log.info("demo bot types its roll in: %s", exc)
        return False
    if not camera.wait_for_reading(before, timeout=10.0):
        return False
    pending = session.snapshot()["pending"]
    truth = source.scene.dice if source.scene is not None else []
    if not (pending and len(pending["dice"]) == len(faces) == len(truth)):
        return False
    for i, die in enumerate(pending["dice"]):
        nearest = min(truth, key=lambda t: math.dist(t.center, die["center"]))
        if die["label"] != nearest.label or die.get("low"):
            session.correct_die(i, nearest.label, actor=actor)
    return True
