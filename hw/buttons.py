"""Three push buttons beside the dice tray: confirm, next, back. This module only reports presses.

Wiring: each button between a GPIO pin and ground (any GND pin). The Pi's internal pull-up holds the pin high
(3.3 V) and a press pulls it low, so no resistor is needed. BCM numbers, as in the config::

    GPIO17 (pin 11) --[confirm]-- GND (pin 9)
    GPIO27 (pin 13) --[next]----- GND (pin 14)
    GPIO22 (pin 15) --[back]----- GND (pin 20)

A press is reported as ``when_pressed(name, kind)``, as gpiozero devices report theirs: the button's name and
whether it was short or held (:class:`~hw.press.PressKind`). What a press *means* (confirm the roll, highlight the
next option, undo) depends on the game and lives in the companion (``companion/controls.py``), which passes its
``perform`` here; hw knows nothing of games or sessions.

A runnable example with gpiozero's mock pins (what ``companion demo`` and the tests use)::

    from gpiozero.pins.mock import MockFactory
    from hw.buttons import TableButtons, VirtualButtons

    with TableButtons(when_pressed=lambda name, kind: f"{name} {kind.value}", pin_factory=MockFactory()) as buttons:
        print(VirtualButtons(buttons).press("back", hold=True))   # back long
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from gpiozero import DigitalInputDevice, Factory
from gpiozero.pins.mock import MockPin

from hw.factory import HardwareError, factory_name
from hw.press import BOUNCE_SECONDS, BUTTONS, Press, PressKind, PressTracker

log = logging.getLogger(__name__)

PressHandler = Callable[[str, PressKind], Any]
"""``when_pressed(name, kind)``: what to do about one press. Its answer is kept as the press's outcome."""


class TableButtons:
    """The confirm / next / back buttons of one table, reporting each press to ``when_pressed``.

    :param confirm, next, back: BCM pin numbers (wired to ground, internal pull-ups).
    :param hold_seconds: how long a press is held to count as :attr:`PressKind.LONG` (seconds).
    :param bounce_seconds: a level counts once stable this long (seconds); see :mod:`hw.press`.
    :param pin_factory: gpiozero pin factory (None: ``Device.pin_factory``, gpiozero's default).
    :param when_pressed: called as ``when_pressed(name, kind)`` for every press; may also be set later.

    Edges from gpiozero's callback thread are queued with their time and handled by one thread of our own
    ("table-buttons"), which debounces, classifies and calls ``when_pressed``. So a slow handler (a SQLite write)
    never blocks the GPIO callbacks, and no press ever raises into gpiozero. The handler's answer is kept as
    :attr:`last` (its exception as :attr:`last_error`), so a press from software can wait for what it did.
    """

    def __init__(
        self,
        *,
        confirm: int = 17,
        next: int = 27,  # the button's name, shadowing the builtin inside __init__ only
        back: int = 22,
        hold_seconds: float = 1.0,
        bounce_seconds: float = BOUNCE_SECONDS,
        pin_factory: Factory | None = None,
        when_pressed: PressHandler | None = None,
    ) -> None:
        self.hold_seconds = hold_seconds
        self.pins = {"confirm": confirm, "next": next, "back": back}
        self.when_pressed = when_pressed
        self.last: Any = None
        """What ``when_pressed`` answered to the latest press."""
        self.last_error: Exception | None = None
        """What ``when_pressed`` raised on the latest press (logged too), or None."""
        self._trackers = {
            name: PressTracker(hold_seconds=hold_seconds, bounce_seconds=bounce_seconds) for name in BUTTONS
        }
        self._edges: queue.Queue[tuple[str, bool, float] | None] = queue.Queue()
        self._changed = threading.Condition()
        self._handled = 0
        self.devices: dict[str, DigitalInputDevice] = {}
        try:
            for name, pin in self.pins.items():
                # bounce_time=None: gpiozero's lockout debounce would hide the edges our tracker needs.
                device = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self.devices[name] = device
                device.when_activated = partial(self._edge, name, True)
                device.when_deactivated = partial(self._edge, name, False)
        except Exception as exc:
            self._close_devices()
            raise HardwareError(f"cannot claim the button pins {self.pins}: {exc}") from exc
        self.factory = factory_name(self.devices["confirm"].pin_factory)
        self._worker = threading.Thread(target=self._run, name="table-buttons", daemon=True)
        self._worker.start()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the pins and stop the thread; presses already queued are dropped."""
        self._close_devices()
        self._edges.put(None)
        if self._worker is not threading.current_thread():
            self._worker.join(timeout=5)

    def is_pressed(self, name: str) -> bool:
        """The debounced level of one button, as the press logic sees it."""
        return self._trackers[name].is_pressed

    def wait_for(self, predicate: Callable[[], bool], *, timeout: float) -> bool:
        """Wait until ``predicate()`` holds, re-checked after every edge or press the thread handles."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout=timeout)

    @property
    def handled(self) -> int:
        """How many presses have been handled so far (for waiting on the next one)."""
        return self._handled

    # -- the thread ------------------------------------------------------------------------------------------------

    def _edge(self, name: str, pressed: bool) -> None:
        """gpiozero's callback (its thread, or the caller's with mock pins): note the time and hand it on."""
        self._edges.put((name, pressed, time.monotonic()))

    def _close_devices(self) -> None:
        for device in self.devices.values():
            device.when_activated = device.when_deactivated = None
            device.close()

    def _run(self) -> None:
        while True:
            deadlines = [t.deadline for t in self._trackers.values() if t.deadline is not None]
            timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            try:
                item = self._edges.get(timeout=timeout)
            except queue.Empty:
                item = ()
            if item is None:
                return
            try:
                presses: list[tuple[str, Press]] = []
                if item:
                    name, pressed, at = item
                    presses += [(name, p) for p in self._trackers[name].edge(pressed, at=at)]
                now = time.monotonic()
                for name, tracker in self._trackers.items():
                    presses += [(name, p) for p in tracker.tick(at=now)]
                for name, press in presses:
                    self._handle(name, press)
            except Exception:  # never let one bad press end the buttons
                log.exception("button thread: unexpected error; carrying on")
            with self._changed:
                self._changed.notify_all()

    def _handle(self, name: str, press: Press) -> None:
        answer: Any = None
        error: Exception | None = None
        handler = self.when_pressed
        if handler is None:
            log.info("button %s (%s) pressed: nothing listens", name, press.kind.value)
        else:
            try:
                answer = handler(name, press.kind)
            except Exception as exc:  # the buttons carry on; a press from software is told (VirtualButtons)
                log.exception("button %s (%s): when_pressed failed", name, press.kind.value)
                error = exc
        with self._changed:
            self.last, self.last_error = answer, error
            self._handled += 1
            self._changed.notify_all()


class VirtualButtons:
    """Press a :class:`TableButtons`' buttons from software by driving its *mock* pins, so the whole path
    (pin, debounce, hold, ``when_pressed``) runs exactly as with a finger on a real button.

    For the demo, the dashboard (``POST /api/buttons/<name>``) and tests. Real pins cannot be driven from
    software: with any other pin factory the constructor raises :class:`HardwareError`.

    Presses are serialised (one at a time) and each waits for its outcome, so ``press`` returns what
    ``when_pressed`` answered.
    """

    def __init__(self, buttons: TableButtons, *, timeout: float = 5.0) -> None:
        pins = {name: device.pin for name, device in buttons.devices.items()}
        if not all(isinstance(pin, MockPin) for pin in pins.values()):
            raise HardwareError('virtual buttons need [buttons] pin_factory = "mock"; these are real pins')
        self.buttons = buttons
        self.timeout = timeout
        self._pins: dict[str, MockPin] = pins
        self._lock = threading.Lock()

    @property
    def names(self) -> tuple[str, ...]:
        return BUTTONS

    def press(self, name: str, *, hold: bool = False) -> Any:
        """Press ``name`` briefly, or hold it until the hold is recognised, then release it; returns what
        ``when_pressed`` answered to that press.

        Raises ``KeyError`` for an unknown button, ``TimeoutError`` if the button thread does not answer, and
        ``RuntimeError`` (from the handler's exception) if ``when_pressed`` failed.
        """
        if name not in self._pins:
            raise KeyError(f"no button {name!r}; buttons: {', '.join(BUTTONS)}")
        pin, buttons = self._pins[name], self.buttons
        with self._lock:
            before = buttons.handled
            pin.drive_low()
            try:
                if hold:
                    limit = buttons.hold_seconds + self.timeout
                    answered = buttons.wait_for(lambda: buttons.handled > before, timeout=limit)
                else:
                    answered = buttons.wait_for(lambda: buttons.is_pressed(name), timeout=self.timeout)
            finally:
                pin.drive_high()
            if answered and not hold:
                answered = buttons.wait_for(lambda: buttons.handled > before, timeout=self.timeout)
            if not answered:
                raise TimeoutError(f"button {name!r}: no answer from the button thread in time")
            buttons.wait_for(lambda: not buttons.is_pressed(name), timeout=self.timeout)
            if buttons.last_error is not None:
                raise RuntimeError(f"button {name!r}: {buttons.last_error}") from buttons.last_error
            return buttons.last
