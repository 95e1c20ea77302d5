"""Three push buttons beside the dice tray: confirm, next, back (hold for undo).

Wiring: each button between a GPIO pin and ground (any GND pin). The Pi's internal pull-up holds the pin high
(3.3 V) and a press pulls it low, so no resistor is needed. BCM numbers, as in the config::

    GPIO17 (pin 11) --[confirm]-- GND (pin 9)
    GPIO27 (pin 13) --[next]----- GND (pin 14)
    GPIO22 (pin 15) --[back]----- GND (pin 20)

What a press does depends on what the table waits for (``session.snapshot()["prompt"]``):

=========  ===========================================  =====================================
button     press                                        hold (``hold_seconds``)
=========  ===========================================  =====================================
confirm    confirm the highlighted option; for a roll,  the same as a press
           the dice the camera offers
next       highlight the next legal option              the same as a press
back       nothing, but says "hold to undo"             undo the last action
=========  ===========================================  =====================================

Every press goes through the :class:`~companion.session.TableSession` (``confirm``, ``next_option``, ``undo``),
stored with ``source="button"``, exactly like a tap on the dashboard. A press the rules refuse (confirm before the
dice are read, undo with nothing to undo, no game) is logged and shown as "needs attention" in the session's
status (``status["buttons"]["error"]``) until the table moves on; it never stops the buttons.

A runnable example with gpiozero's mock pins (what ``companion demo`` and the tests use)::

    from gpiozero.pins.mock import MockFactory
    from companion.session import TableSession
    from companion.store import EventStore
    from hw.buttons import TableButtons, VirtualButtons

    session = TableSession(EventStore(":memory:"))
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    session.offer_dice([{"label": "5", "confidence": 0.97}])
    with TableButtons(session, pin_factory=MockFactory()) as buttons:
        print(VirtualButtons(buttons).press("confirm"))   # confirm: stored event 1 (Ada roll)
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from gpiozero import DigitalInputDevice, Factory
from gpiozero.pins.mock import MockPin

from companion.games import IllegalAction
from companion.session import NoGame, Stale, TableSession
from hw.factory import HardwareError, factory_name
from hw.follower import SessionFollower
from hw.press import BOUNCE_SECONDS, Press, PressKind, PressTracker

log = logging.getLogger(__name__)

BUTTONS = ("confirm", "next", "back")

ACTIONS: Mapping[tuple[str, PressKind], str] = {
    ("confirm", PressKind.SHORT): "confirm",
    ("confirm", PressKind.LONG): "confirm",
    ("next", PressKind.SHORT): "next",
    ("next", PressKind.LONG): "next",
    ("back", PressKind.SHORT): "hint",
    ("back", PressKind.LONG): "undo",
}
"""What each press does, as data. A short ``back`` only reminds that undo needs a hold: undo by a brushed button
would take back a confirmed roll."""

BUTTON_ACTOR = "table"
"""The actor stored for a press when the prompt names nobody: a button cannot know who pressed it."""


@dataclass(frozen=True)
class PressOutcome:
    """What one press did. ``ok`` is False when the rules (or the lack of a game) refused it."""

    button: str
    kind: str
    action: str
    ok: bool
    message: str
    seq: int | None = None
    """The stored event's number, when the press stored one."""
    rule: str | None = None
    """The rule that refused the press (``IllegalAction.rule``), when one did."""
    legal: Any = None
    """What the rules would have allowed instead (``IllegalAction.legal``)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.button} ({self.kind}): {self.message}"


class TableButtons:
    """The confirm / next / back buttons of one table, driving a :class:`TableSession`.

    :param session: the table; every press becomes a call on it, never a change of state of its own.
    :param confirm, next, back: BCM pin numbers (wired to ground, internal pull-ups).
    :param hold_seconds: how long ``back`` is held for undo (seconds).
    :param bounce_seconds: a level counts once stable this long (seconds); see :mod:`hw.press`.
    :param pin_factory: gpiozero pin factory (None: ``Device.pin_factory``, gpiozero's default).

    Edges from gpiozero's callback thread are queued with their time and handled by one thread of our own
    ("table-buttons"), which debounces, classifies and calls the session. So a slow SQLite write never blocks
    the GPIO callbacks, and no press ever raises into gpiozero.

    ``when_handled`` (a callable taking a :class:`PressOutcome`) is called after each press, from that thread.
    """

    def __init__(
        self,
        session: TableSession,
        *,
        confirm: int = 17,
        next: int = 27,  # the button's name, shadowing the builtin inside __init__ only
        back: int = 22,
        hold_seconds: float = 1.0,
        bounce_seconds: float = BOUNCE_SECONDS,
        pin_factory: Factory | None = None,
    ) -> None:
        self.session = session
        self.hold_seconds = hold_seconds
        self.pins = {"confirm": confirm, "next": next, "back": back}
        self.when_handled: Callable[[PressOutcome], None] | None = None
        self.last: PressOutcome | None = None
        self._trackers = {
            name: PressTracker(hold_seconds=hold_seconds, bounce_seconds=bounce_seconds) for name in BUTTONS
        }
        self._edges: queue.Queue[tuple[str, bool, float] | None] = queue.Queue()
        self._changed = threading.Condition()
        self._handled = 0
        self._errors = itertools.count(1)
        self.seen: tuple[int | None, int | None] = (None, None)
        """The state (seq, game) the next press was chosen on, when a screen pressed it (:class:`VirtualButtons`)."""
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
        self._attention = _AttentionClearer(session).start()
        self._worker = threading.Thread(target=self._run, name="table-buttons", daemon=True)
        self._worker.start()
        session.set_status(buttons=self._status_base())

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
        self._attention.close()

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

    def hints(self) -> dict[str, dict[str, str]]:
        """What each button would do now; see :func:`button_hints`."""
        return button_hints(self.session.snapshot(), hold_seconds=self.hold_seconds)

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
        seen, self.seen = self.seen, (None, None)
        outcome = perform(self.session, name, press.kind, hold_seconds=self.hold_seconds, seen=seen)
        if not outcome.ok:
            self._needs_attention(outcome)
        with self._changed:
            self.last = outcome
            self._handled += 1
            self._changed.notify_all()
        if self.when_handled is not None:
            try:
                self.when_handled(outcome)
            except Exception:
                log.exception("when_handled callback failed")

    def _needs_attention(self, outcome: PressOutcome) -> None:
        error = {"error": outcome.message, "button": outcome.button, "id": next(self._errors)}
        self._attention.arm(error["id"])
        self.session.set_status(buttons={**self._status_base(), **error})

    def _status_base(self) -> dict[str, Any]:
        return {"enabled": True, "pins": dict(self.pins), "hold_seconds": self.hold_seconds, "factory": self.factory,
                "error": None}


def perform(session: TableSession, name: str, kind: PressKind, *, hold_seconds: float = 1.0,
            seen: tuple[int | None, int | None] = (None, None)) -> PressOutcome:
    """Do what a press of ``name`` means now (:data:`ACTIONS`) on the session; a refusal is an outcome, not an
    exception, so neither the button thread nor a dashboard request can be broken by a press.

    A wired button acts on the state the screens show now: it cannot be stale. A screen's button passes the state
    it showed (``seen``: its seq and game number), and is refused (``stale``) if the table has moved on."""
    action = ACTIONS[(name, kind)]
    seq, game = seen
    try:
        if action == "confirm":
            prompt = session.prompt()
            actor = prompt.actor if prompt is not None and prompt.actor else BUTTON_ACTOR
            stored = session.confirm(actor=actor, source="button", seq=seq, game=game)
            return PressOutcome(name, kind.value, action, True, f"stored event {stored.seq} ({actor} {stored.type})",
                                stored.seq)
        if action == "next":
            option = session.next_option(seq=seq, game=game)
            text = f"highlighted {option_label(option)}" if option is not None else "nothing to choose"
            return PressOutcome(name, kind.value, action, True, text)
        if action == "undo":
            stored = session.undo(actor=BUTTON_ACTOR, source="button", seq=seq, game=game)
            undone = stored.payload.get("action", {}).get("type", "action")
            return PressOutcome(name, kind.value, action, True, f"undid {undone} (event {stored.seq})", stored.seq)
        return PressOutcome(name, kind.value, action, True, f"hold for {hold_seconds:g} s to undo")
    except Stale as exc:
        return PressOutcome(name, kind.value, action, False, str(exc), rule="stale")
    except IllegalAction as exc:
        log.warning("button %s (%s) refused: %s", name, kind.value, exc)
        return PressOutcome(name, kind.value, action, False, str(exc), rule=exc.rule, legal=exc.legal)
    except NoGame as exc:
        log.warning("button %s (%s) refused: %s", name, kind.value, exc)
        return PressOutcome(name, kind.value, action, False, str(exc))
    except Exception as exc:
        log.exception("button %s (%s) failed", name, kind.value)
        return PressOutcome(name, kind.value, action, False, f"{type(exc).__name__}: {exc}")


class _AttentionClearer(SessionFollower):
    """Clears a refused press's "needs attention" as soon as the table moves on (a roll offered, an action
    stored, the highlight moved, a new game), so the dashboard and the LED agree on when it is over.

    It is armed by the status message that carries the error: the broker delivers in order, so anything before
    that message cannot clear an error that came after it.
    """

    thread_name = "buttons-attention"

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self._pending_id: int | None = None
        self._armed_id: int | None = None

    def arm(self, error_id: int) -> None:
        self._pending_id = error_id

    def follow(self, message: dict[str, Any]) -> None:
        buttons = (message.get("state") or {}).get("status", {}).get("buttons") or {}
        if message.get("kind") == "status":
            if self._pending_id is not None and buttons.get("id") == self._pending_id:
                self._armed_id, self._pending_id = self._pending_id, None
            return
        if self._armed_id is not None and buttons.get("id") == self._armed_id and buttons.get("error"):
            self._armed_id = None
            cleared = {k: v for k, v in buttons.items() if k not in ("error", "button", "id")}
            self.session.set_status(buttons={**cleared, "error": None})


# -- what a button does now ------------------------------------------------------------------------------------------


def option_label(option: Mapping[str, Any] | None) -> str:
    """A short text for one legal option: its ``label`` if the game gives one, else its type and fields.

    >>> option_label({"type": "roll", "roll": 2})
    'roll 2 dice'
    >>> option_label({"type": "move", "lane": 2})
    'move (lane 2)'
    """
    if not option:
        return "nothing"
    if option.get("label"):
        return str(option["label"])
    if "roll" in option:
        n = option["roll"]
        return f"{option.get('type', 'roll')} {n} {'die' if n == 1 else 'dice'}"
    rest = ", ".join(f"{k} {v}" for k, v in option.items() if k != "type")
    return f"{option.get('type', '?')} ({rest})" if rest else str(option.get("type", "?"))


def button_hints(snapshot: Mapping[str, Any], *, hold_seconds: float = 1.0) -> dict[str, dict[str, str]]:
    """What each button does now, for the dashboard's virtual buttons and the kiosk's legend.

    >>> hints = button_hints({"game": {"over": False}, "seq": 0, "pending": {"dice": [{"label": "5"}]},
    ...                       "prompt": {"options": [{"type": "roll", "roll": 1}], "cursor": 0}})
    >>> hints["confirm"]["press"], hints["back"]["hold"]
    ('confirm roll: 5', 'nothing to undo')
    """
    prompt = snapshot.get("prompt") or {}
    options = prompt.get("options") or []
    if snapshot.get("game") is None:
        confirm = step = "nothing (no game)"
    elif not options:
        confirm = step = "nothing (the game waits for nothing)"
    else:
        cursor = prompt.get("cursor") or 0
        option = options[cursor % len(options)]
        pending = snapshot.get("pending")
        if "roll" in option:
            if pending and pending.get("dice"):
                confirm = "confirm roll: " + ", ".join(_die(d) for d in pending["dice"])
            else:
                confirm = f"nothing yet: {option_label(option)} first"
        else:
            confirm = f"confirm {option_label(option)}"
        step = f"highlight {option_label(options[(cursor + 1) % len(options)])}" if len(options) > 1 else (
            "nothing (only one option)")
    undo = "undo the last action" if snapshot.get("seq") else "nothing to undo"
    return {
        "confirm": {"press": confirm, "hold": confirm},
        "next": {"press": step, "hold": step},
        "back": {"press": f"nothing (hold {hold_seconds:g} s to undo)", "hold": undo},
    }


def _die(die: Mapping[str, Any]) -> str:
    label = str(die.get("label", "?"))
    return f"{label}?" if die.get("low") else label


# -- pressing from software ------------------------------------------------------------------------------------------


class VirtualButtons:
    """Press a :class:`TableButtons`' buttons from software by driving its *mock* pins, so the whole path
    (pin, debounce, hold, session) runs exactly as with a finger on a real button.

    For the demo, the dashboard (``POST /api/buttons/<name>`` with ``{"hold": bool}``) and tests. Real pins
    cannot be driven from software: with any other pin factory the constructor raises :class:`HardwareError`.

    Presses are serialised (one at a time) and each waits for its outcome, so ``press`` returns what happened.
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

    def press(self, name: str, *, hold: bool = False, seen: tuple[int | None, int | None] = (None, None)
              ) -> PressOutcome:
        """Press ``name`` briefly, or hold it until the hold is recognised, then release it. ``seen``: the state
        (seq, game number) the screen showed when it was pressed (refused as stale if the table has moved on).

        Raises ``KeyError`` for an unknown button and ``TimeoutError`` if the button thread does not answer.
        """
        if name not in self._pins:
            raise KeyError(f"no button {name!r}; buttons: {', '.join(BUTTONS)}")
        pin, buttons = self._pins[name], self.buttons
        with self._lock:
            before = buttons.handled
            buttons.seen = seen
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
            assert buttons.last is not None
            return buttons.last

    def describe(self) -> list[dict[str, Any]]:
        """Each button with its pin and what a press and a hold would do now (for the dashboard)."""
        hints = self.buttons.hints()
        return [{"name": name, "pin": self.buttons.pins[name], **hints[name]} for name in BUTTONS]
