"""Turning a button's raw edges into presses: debounce, then short or long. Pure: no GPIO, no clock, no threads.

A mechanical push button does not close once. For a few milliseconds its contacts bounce, so a single press
arrives as a burst of edges (down, up, down, up, down). A wire near a motor or a long cable picks up spikes that
look like a press of a millisecond. We count a level only once it has been *stable* for ``bounce_seconds``, and
date it from the edge that began the stable stretch: a spike never becomes a press, and a bounce moves a press by
a few milliseconds at most.

Why not gpiozero's ``bounce_time``? It is a lockout (edges right after an accepted one are dropped): a spike that
is pressed and released inside the lockout leaves the device believing the button is still down, and our long
press is *undo*. Also, gpiozero's mock pins ignore ``bounce_time`` altogether, so it could never be tested here.

A press held for ``hold_seconds`` is :attr:`PressKind.LONG`, reported the moment the time is reached (the player
feels the undo happen while still holding, and nothing more happens on release). Anything shorter is
:attr:`PressKind.SHORT`, reported on release.

>>> classify_presses([(0.0, True), (0.002, False), (0.004, True), (0.3, False)], hold_seconds=1.0)
[Press(kind=<PressKind.SHORT: 'short'>, at=0.3)]
>>> classify_presses([(0.0, True), (1.5, False)], hold_seconds=1.0)
[Press(kind=<PressKind.LONG: 'long'>, at=1.0)]
>>> classify_presses([(0.0, True), (0.001, False)], hold_seconds=1.0)   # a spike, not a press
[]
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass

BUTTONS = ("confirm", "next", "back")
"""The table's buttons. Here, with no GPIO, so the screens can name them without loading gpiozero."""

BOUNCE_SECONDS = 0.02
"""20 ms: longer than the bounce of common tactile switches (1-10 ms), far shorter than a deliberate tap."""


class PressKind(enum.Enum):
    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class Press:
    """One recognised press. ``at`` is when it was decided: the release for SHORT, down + hold for LONG."""

    kind: PressKind
    at: float


class PressTracker:
    """The debounce and hold state machine of one button, fed with timestamped edges.

    Call :meth:`edge` for every raw level change (``pressed`` is the *logical* level: True while held down,
    whatever the wiring) and :meth:`tick` now and then, at the latest by :attr:`deadline`, so a hold is noticed
    while the button is still down. Both return the presses recognised by then; times are any monotonic seconds.

    >>> tracker = PressTracker(hold_seconds=1.0)
    >>> tracker.edge(True, at=10.0)
    []
    >>> tracker.deadline       # the press becomes real once stable for 20 ms
    10.02
    >>> tracker.tick(at=11.0)
    [Press(kind=<PressKind.LONG: 'long'>, at=11.0)]
    >>> tracker.edge(False, at=11.4), tracker.tick(at=12.0)   # the release of a long press says nothing more
    ([], [])
    """

    def __init__(self, *, hold_seconds: float, bounce_seconds: float = BOUNCE_SECONDS) -> None:
        if hold_seconds <= bounce_seconds:
            raise ValueError(f"hold_seconds ({hold_seconds}) must be longer than bounce_seconds ({bounce_seconds})")
        if bounce_seconds < 0:
            raise ValueError(f"bounce_seconds must be >= 0, got {bounce_seconds}")
        self.hold_seconds = hold_seconds
        self.bounce_seconds = bounce_seconds
        self._raw = False
        self._raw_since = -math.inf
        self._pressed = False
        self._down_at: float | None = None
        self._held = False

    @property
    def is_pressed(self) -> bool:
        """The debounced level: True once a press has been stable for ``bounce_seconds``."""
        return self._pressed

    @property
    def deadline(self) -> float | None:
        """The next time :meth:`tick` could recognise something, or None while nothing is in progress."""
        if self._raw != self._pressed:
            return self._raw_since + self.bounce_seconds
        if self._pressed and not self._held and self._down_at is not None:
            return self._down_at + self.hold_seconds
        return None

    def edge(self, pressed: bool, *, at: float) -> list[Press]:
        """A raw level change at time ``at``. Repeated levels are harmless (some drivers report them)."""
        presses = self.tick(at=at)
        if pressed != self._raw:
            self._raw, self._raw_since = pressed, at
        return presses

    def tick(self, *, at: float) -> list[Press]:
        """Let time pass until ``at``: accept a level that has settled, report a hold that has been reached."""
        presses: list[Press] = []
        if self._raw != self._pressed and at - self._raw_since >= self.bounce_seconds:
            self._pressed = self._raw
            if self._pressed:
                self._down_at, self._held = self._raw_since, False
            else:
                down_at, self._down_at = self._down_at, None
                # A release always follows a tick at its own edge time, which would have reported a hold
                # already; so an un-held press ending here was short.
                if not self._held and down_at is not None:
                    presses.append(Press(PressKind.SHORT, self._raw_since))
        if self._pressed and not self._held and self._down_at is not None:
            if at - self._down_at >= self.hold_seconds:
                self._held = True
                presses.append(Press(PressKind.LONG, self._down_at + self.hold_seconds))
        return presses


def classify_presses(
    edges: Iterable[tuple[float, bool]],
    *,
    hold_seconds: float,
    bounce_seconds: float = BOUNCE_SECONDS,
    until: float | None = None,
) -> list[Press]:
    """The presses in a recording of ``(time, pressed)`` edges, as a :class:`PressTracker` sees them.

    ``until`` is when the recording ends (default: last edge + hold + bounce, so a final press is decided).
    Edges must come in time order.
    """
    tracker = PressTracker(hold_seconds=hold_seconds, bounce_seconds=bounce_seconds)
    presses: list[Press] = []
    last = -math.inf
    for at, pressed in edges:
        if at < last:
            raise ValueError(f"edges must be in time order: {at} after {last}")
        last = at
        presses += tracker.edge(pressed, at=at)
    if until is None:
        until = (last if last > -math.inf else 0.0) + hold_seconds + bounce_seconds
    presses += tracker.tick(at=until)
    return presses
