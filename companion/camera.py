"""The table's camera: the vision pipeline wired to the session, and what the dashboard asks of it.

Vision knows nothing of games; this module is the one place that translates between them. A settled roll
becomes *pending* dice in the session (shown, marked when doubtful, confirmed by a player); a tray that settles
again differently before that replaces them (the screens say the tray was read again). Once a roll is confirmed,
the tray is watched until its dice are picked up or a new roll lies there: dice nudged or turned meanwhile are
stored as an event and shown on every screen (`TableSession.die_moved`), and the roll stays as confirmed. The
pipeline's status (a `vision.camera_state.CameraState`) becomes ``status["camera"]["state"]`` for the screens and
the status light. Each game started or resumed switches the camera to its dice set. A camera that fails never
takes the table down: the pipeline reopens it with backoff, and dice can always be entered by hand.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.games import Game
from companion.session import TableSession
from companion.teach import Teacher
from vision.camera_state import CameraState

log = logging.getLogger(__name__)

TRAY_DIR = "tray"
CALIBRATION_FRAMES = 8


def enrolment_path(data_dir: Path, dice_set: str) -> Path:
    """Where a table's taught dice live (``companion enrol --data``); used by the camera whenever it exists."""
    return Path(data_dir) / f"enrol-{dice_set}.npz"


def source_spec(config: Config, dice_set: str) -> dict[str, Any]:
    """The ``vision.sources.open_source`` spec for the config's ``[camera]`` section."""
    camera = config.camera
    if camera.source == "picamera2":
        return {"kind": "picamera2", "width": camera.width, "height": camera.height, "fps": camera.fps,
                "lens_position": camera.lens_position}
    if camera.source == "opencv":
        return {"kind": "opencv", "device": camera.device, "width": camera.width, "height": camera.height,
                "fps": camera.fps}
    if camera.source == "replay":
        return {"kind": "replay", "path": camera.path, "fps": camera.fps, "realtime": True, "loop": True}
    return {"kind": "synthetic", "dice": dice_set, "width": camera.width, "height": camera.height,
            "fps": camera.fps, "realtime": True, "hold": True}


class CameraOff(RuntimeError):
    """The camera cannot read this game's dice (no model or no rendered dice for them): they are typed in by hand."""


def off_reason(dice_set: str, exc: Exception) -> str:
    """Why the camera reads no ``dice_set`` dice, as the screens and the log show it.

    A ``KeyError``'s ``str()`` is the repr of its message (``"unknown dice set 'x'..."`` in double quotes, the inner
    quotes escaped where both occur), so its message is taken as it was written.

    >>> print(off_reason("cubitos", KeyError("unknown dice set 'cubitos'")))
    the camera cannot read the dice of this game (cubitos) yet: unknown dice set 'cubitos'. Enter the dice by hand.
    """
    detail = exc.args[0] if isinstance(exc, KeyError) and len(exc.args) == 1 else str(exc)
    return f"the camera cannot read the dice of this game ({dice_set}) yet: {detail}. Enter the dice by hand."


class TableCamera:
    """Owns the pipeline thread; the dashboard's camera page and the demo talk to the camera through it.

    It follows the session's game (a game listener): a game with other dice switches the classifier, the
    enrolment, the teacher and (for the synthetic tray) the source at once. Dice without a model turn the camera
    off, with the reason, until a game with readable dice starts.
    """

    def __init__(self, session: TableSession, config: Config, dice_set: str) -> None:
        from vision.pipeline import Pipeline

        self.session = session
        self.config = config
        self.dice_set = dice_set
        self.off: str | None = None
        """Why the camera reads no dice (this game's dice have no model), or None while it reads them."""
        self.tray_dir = Path(config.data_dir) / TRAY_DIR
        self._source_spec = source_spec(config, dice_set)
        vision_config: dict[str, Any] = {
            "camera": self._source_spec,
            "dice": dice_set,
            "enrolment": str(enrolment_path(config.data_dir, dice_set)),
            "settle": {"still_seconds": config.tray.settle_seconds},
        }
        if (self.tray_dir / "tray.json").exists():
            vision_config["tray"] = str(self.tray_dir)
        try:
            self.pipeline = Pipeline.from_config(vision_config, on_reading=self._on_reading,
                                                 on_status=self._on_status)
        except KeyError as exc:  # no rendered dice of this set for the synthetic tray
            raise CameraOff(off_reason(dice_set, exc)) from exc
        self.readings = threading.Condition()
        self.reading_count = 0
        self._roll_of_the_game_before = False
        self._moved_logged: set[tuple[int, int, str, str | None]] = set()
        """The moves of the confirmed roll's dice already stored (its event, die, kind, face now): each once."""
        self._switching = threading.Lock()
        self._teacher = Teacher(Path(config.data_dir), enrolment_path(config.data_dir, dice_set), self.pipeline)
        session.correction_listeners.append(self._teacher.keep_correction)
        session.game_listeners.append(self.follow)

    @property
    def source(self) -> Any:
        return self.pipeline.source

    @property
    def teacher(self) -> Teacher | None:
        """What the teach page teaches; None while the camera is off (there are no dice it could learn)."""
        return None if self.off else self._teacher

    def start(self) -> TableCamera:
        self.session.set_status(camera={"state": CameraState.STARTING, "source": self.source.name})
        self.pipeline.start()
        return self

    def stop(self) -> None:
        self.pipeline.stop()

    def follow(self, game: Game) -> None:
        """A game started or resumed (a session game listener): read its dice from the next frame on.

        Dice still rolling (or settling) as the game changes were rolled for the game before: their reading is not
        offered to the new one, whose first roll would otherwise show it ("5 dice read, 4 needed"). A synthetic tray
        that renders the new game's dice is a new scene: nothing of the game before lies in it."""
        from vision.settle import ROLLING, SETTLING

        moving, source = self.pipeline.settle.state in (ROLLING, SETTLING), self.source
        self.use_dice(game.dice_set)
        self._roll_of_the_game_before = moving and self.source is source
        self._moved_logged.clear()  # each game numbers its events from 1
        self.session.tray_as_read()  # dice moved in the game before are no news in this one

    def use_dice(self, dice_set: str) -> None:
        """Switch to `dice_set`: its model with the table's enrolment, its teacher, and a new source only where
        the source depends on the dice (the synthetic tray renders them). The source is in place when this
        returns (the demo rolls into it at once); the pipeline thread takes the switch between frames."""
        from vision.enrol import taught_classifier
        from vision.pipeline import default_model
        from vision.sources import open_source

        with self._switching:
            if dice_set == self.dice_set and self.off is None:
                return
            enrolment = enrolment_path(self.config.data_dir, dice_set)
            spec = source_spec(self.config, dice_set)
            try:
                classifier = taught_classifier(default_model(dice_set), enrolment)
                source = open_source(spec) if spec != self._source_spec else None
            except Exception as exc:  # no model for these dice: typed in by hand, the screens say why
                self.dice_set, self.off = dice_set, off_reason(dice_set, exc)
                log.error("camera off: %s", self.off)
                self.pipeline.stop()
                self.session.set_status(camera={"state": CameraState.OFF, "message": self.off,
                                                "source": self.source.name})
                return
            self._teacher.use(enrolment, classifier, source)
            if source is not None:
                self._source_spec = spec
            log.info("camera reads dice %s (was %s)", dice_set, self.dice_set)
            self.dice_set, was_off, self.off = dice_set, self.off, None
            if was_off is not None:
                self.start()

    def _on_reading(self, reading: Any, image: Any) -> None:
        before, self._roll_of_the_game_before = self._roll_of_the_game_before, False
        if before:
            if reading.dice:
                log.info("a roll of the game before was dropped: %s", reading.labels)
            return
        game = self.session.game
        if game is not None and not set(reading.labels) <= set(game.die_faces):
            log.info("a reading of another game's dice was dropped: %s", reading.labels)
            return
        if self._still_the_confirmed_roll(reading):
            return
        refs = self._teacher.keep_reading(reading.frame_id, image, [d.box for d in reading.dice])
        dice = [{**d.to_dict(), **({"ref": ref} if ref else {})} for d, ref in zip(reading.dice, refs, strict=True)]
        self.session.offer_dice(dice, source="camera", change=reading.change)
        with self.readings:
            self.reading_count += 1
            self.readings.notify_all()

    def _still_the_confirmed_roll(self, reading: Any) -> bool:
        """Whether ``reading`` shows the dice of the roll confirmed last, still in the tray: not a new roll, so it
        is not offered. Dice of it moved or turned since it was read are stored and shown (each move once); the
        tray as read again, or with only some dice taken out, ends the notice. An empty tray or a new roll is
        offered as ever, which ends the watch."""
        from vision.settle import MOVED, NEW, NUDGED, TURNED, placed, since_read

        confirmed = self.session.confirmed_roll()
        dice = confirmed["reading"]["dice"] if confirmed else []
        if not reading.dice or not dice or not all("box" in d for d in dice):
            return False
        read = [(d.get("was", d["label"]), d["box"]) for d in dice]  # the camera's own face of a die set by hand
        verdict, changes = since_read(read, placed(reading.dice))
        if verdict == NEW:
            return False
        of = confirmed["seq"]
        if verdict != NUDGED:  # as read, or dice taken out and the rest untouched
            self._moved_logged.clear()
            self.session.tray_as_read()
            return True
        self._moved_logged = {key for key in self._moved_logged if key[0] == of}  # an earlier roll's are done
        moved = [{"die": c.die + 1, "kind": c.kind, "was": dice[c.die]["label"], "now": c.now} for c in changes
                 if c.kind in (MOVED, TURNED) and (of, c.die, c.kind, c.now) not in self._moved_logged]
        if moved:
            self._moved_logged.update((of, m["die"] - 1, m["kind"], m["now"]) for m in moved)
            self.session.die_moved(moved, of=of)
        return True

    def _on_status(self, event: Any) -> None:
        if event.kind == CameraState.STILL:  # that roll has come to rest (read or not): the next one is the new game's
            self._roll_of_the_game_before = False
        if self.off is not None:  # the pipeline stopping as the camera was turned off; "off" says why
            return
        self.session.set_status(camera={"state": event.kind, "message": event.message, "source": self.source.name})

    def wait_for_reading(self, after: int, timeout: float) -> bool:
        """Block until more than ``after`` readings have arrived (the demo's bots wait for their roll)."""
        with self.readings:
            return self.readings.wait_for(lambda: self.reading_count > after, timeout=timeout)

    # -- what the dashboard uses ---------------------------------------------------------------------------------

    def latest_jpeg(self) -> bytes | None:
        return self.pipeline.latest_jpeg()

    def status(self) -> dict[str, Any]:
        status = {**self.pipeline.status, "source": self.source.name, "calibrated": self.pipeline.tray is not None,
                  "dice_set": self.dice_set, "tray": self.session.status().get("tray")}
        if self.off is not None:
            status.update(state=CameraState.OFF, message=self.off)
        return status

    def calibrate(self) -> dict[str, Any]:
        """Learn the empty tray from the next frames and use it from now on (kept in the data dir)."""
        from vision.segment import Segmenter
        from vision.tray import calibrate

        frames, last = [], -1
        for _ in range(CALIBRATION_FRAMES):
            latest = self.pipeline.latest_image(newer_than=last, timeout=3.0)
            if latest is None:
                raise RuntimeError("the camera gives no frames; check it on the camera page first")
            last = latest[0]
            frames.append(latest[1])
        tray = calibrate(frames)
        tray.save(self.tray_dir)
        self.pipeline.tray = tray
        self.pipeline.segmenter = Segmenter(tray, self.pipeline.segmenter.config)
        return {"roi": tray.roi.tolist(), "noise": tray.noise, "saved": str(self.tray_dir)}
