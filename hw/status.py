"""The status light (one LED or an RGB LED) and the optional buzzer: the table's state at a glance, no screen needed.

Both follow the table (:class:`hw.follower.Followed`: a ``TableSession`` in the companion) and read only what it
publishes, the snapshot and its events; hw imports nothing of the companion.

The light shows one of four states, derived from the table's snapshot alone (:func:`light_state`), so the LED,
the dashboard and the tests can never disagree about it:

===========  ==================================================  ==================  =============
state        when                                                one LED             RGB LED
===========  ==================================================  ==================  =============
ready        waiting for a roll (or no game)                     steady on           steady green
rolling      the camera sees dice moving                         short flicker       blue flicker
waiting      a reading or a choice waits for confirm             slow blink          slow yellow
attention    camera lost (until it is back), a die read with     fast blink          fast red
             low confidence, or a button press the rules refused
===========  ==================================================  ==================  =============

Wiring: LED anode (long leg) to the GPIO pin through a resistor, cathode to ground. 330 ohm gives about 4 mA
with a red or green LED, bright enough beside a game and well inside a Pi pin's limits. An RGB LED (common
cathode) takes three pins and three resistors. The buzzer: an *active* 3.3 V buzzer between its pin and ground
(a 5 V one through a transistor).

    >>> light_state({"game": None, "status": {}, "pending": None})
    <LightState.READY: 'ready'>
    >>> light_state({"game": {}, "status": {"camera": {"state": CameraState.LOST}}, "pending": None})
    <LightState.ATTENTION: 'attention'>
    >>> light_state({"game": {}, "status": {}, "pending": {"dice": [{"label": "5", "confidence": 0.97}]}})
    <LightState.WAITING: 'waiting'>
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, RGBLED, Buzzer, Factory

from hw.follower import Followed, Message, SessionFollower
from vision.camera_state import CameraState

log = logging.getLogger(__name__)

UNDO_EVENT = "undo"
"""The type of the event an undo stores (``companion.session.UNDO``; a test keeps the two equal)."""


class LightState(enum.Enum):
    READY = "ready"
    ROLLING = "rolling"
    WAITING = "waiting"
    ATTENTION = "attention"


def light_state(snapshot: Mapping[str, Any], *, min_confidence: float = 0.8) -> LightState:
    """The state the light shows for one snapshot of the table (``TableSession.snapshot()``).

    Attention wins over everything (a problem must not hide behind "rolling"); then rolling, then waiting.
    ``min_confidence`` is the config's ``[tray] min_confidence``: a pending die below it (or marked ``low``)
    needs a tap on the tablet, so it needs attention. The camera is ``status["camera"]["state"]``, a
    :class:`~vision.camera_state.CameraState` (or its string, as a snapshot read back from JSON has it).
    """
    status = snapshot.get("status") or {}
    camera = status.get("camera")
    if isinstance(camera, Mapping):  # {"state": ..., "message": ..., "source": ...} as the camera sets it
        camera = camera.get("state")
    buttons = status.get("buttons")
    pending = snapshot.get("pending") or {}
    dice = pending.get("dice") or []
    if camera == CameraState.LOST or (isinstance(buttons, Mapping) and buttons.get("error")):
        return LightState.ATTENTION
    if any(d.get("low") or float(d.get("confidence", 1.0)) < min_confidence for d in dice):
        return LightState.ATTENTION
    if camera == CameraState.ROLLING:
        return LightState.ROLLING
    if dice:
        return LightState.WAITING
    prompt = snapshot.get("prompt") or {}
    options = prompt.get("options") or []
    game = snapshot.get("game") or {}
    if options and not game.get("over") and not any("roll" in option for option in options):
        return LightState.WAITING  # a choice (repair, move ...) waits for confirm
    return LightState.READY


@dataclass(frozen=True)
class Pattern:
    """How a state looks. ``on_seconds=None``: steady on. ``color`` is used by an RGB LED only."""

    on_seconds: float | None
    off_seconds: float
    color: tuple[float, float, float]


PATTERNS: Mapping[LightState, Pattern] = {
    LightState.READY: Pattern(None, 0.0, (0.0, 1.0, 0.0)),
    LightState.ROLLING: Pattern(0.05, 0.25, (0.0, 0.3, 1.0)),
    LightState.WAITING: Pattern(0.6, 0.6, (1.0, 0.6, 0.0)),
    LightState.ATTENTION: Pattern(0.12, 0.12, (1.0, 0.0, 0.0)),
}


class StatusLight(SessionFollower):
    """Follows the table and shows :func:`light_state` on an LED.

    :param led: a BCM pin number (one LED), or a ready gpiozero ``LED`` / ``RGBLED`` (closed with this light).
    :param min_confidence: see :func:`light_state`.
    :param pin_factory: for a pin number; None uses gpiozero's default.

    ``state`` is what the light shows now; ``when_changed`` (a callable taking a :class:`LightState`) is called
    from the light's thread on every change.
    """

    thread_name = "status-light"

    def __init__(
        self,
        table: Followed,
        *,
        led: int | LED | RGBLED,
        min_confidence: float = 0.8,
        pin_factory: Factory | None = None,
    ) -> None:
        self.device: LED | RGBLED = LED(led, pin_factory=pin_factory) if isinstance(led, int) else led
        self.min_confidence = min_confidence
        self.state: LightState | None = None
        self.when_changed: Callable[[LightState], None] | None = None
        self._changed = threading.Condition()
        super().__init__(table)
        self.start()

    def follow(self, message: Message) -> None:
        state = light_state(message["state"], min_confidence=self.min_confidence)
        if state is self.state:
            return
        self._show(PATTERNS[state])
        with self._changed:
            self.state = state
            self._changed.notify_all()
        log.debug("status light: %s", state.value)
        if self.when_changed is not None:
            self.when_changed(state)

    def wait_for(self, state: LightState, *, timeout: float) -> bool:
        """Wait until the light shows ``state`` (for tests and the doctor)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.state is state, timeout=timeout)

    def _show(self, pattern: Pattern) -> None:
        device = self.device
        if isinstance(device, RGBLED):
            if pattern.on_seconds is None:
                device.color = pattern.color
            else:
                device.blink(on_time=pattern.on_seconds, off_time=pattern.off_seconds, on_color=pattern.color)
        elif pattern.on_seconds is None:
            device.on()
        else:
            device.blink(on_time=pattern.on_seconds, off_time=pattern.off_seconds)

    def close(self) -> None:
        super().close()
        self.device.close()


class ReadingBuzzer(SessionFollower):
    """Beeps once when a reading is accepted (an action with dice is stored) and twice for an undo.

    :param buzzer: a BCM pin number or a ready gpiozero ``Buzzer`` (closed with this).
    :param beep_seconds: length of one beep.
    """

    thread_name = "reading-buzzer"

    def __init__(
        self,
        table: Followed,
        *,
        buzzer: int | Buzzer,
        beep_seconds: float = 0.08,
        pin_factory: Factory | None = None,
    ) -> None:
        self.device = Buzzer(buzzer, pin_factory=pin_factory) if isinstance(buzzer, int) else buzzer
        self.beep_seconds = beep_seconds
        self.beeps = 0
        """How many beep signals were given."""
        self._beeped = threading.Condition()
        super().__init__(table)
        self.start()

    def follow(self, message: Message) -> None:
        if message.get("kind") != "event":
            return
        event = message.get("event") or {}
        payload = event.get("payload") or {}
        if event.get("type") == UNDO_EVENT:
            n = 2
        elif "dice" in (payload.get("action") or {}):
            n = 1
        else:
            return
        self.device.beep(on_time=self.beep_seconds, off_time=self.beep_seconds, n=n)
        with self._beeped:
            self.beeps += 1
            self._beeped.notify_all()

    def wait_for_beeps(self, count: int, *, timeout: float) -> bool:
        """Wait until ``count`` signals have been given in all (for tests)."""
        with self._beeped:
            return self._beeped.wait_for(lambda: self.beeps >= count, timeout=timeout)

    def close(self) -> None:
        super().close()
        self.device.close()
