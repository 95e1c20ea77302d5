"""The table's hardware besides the camera: three buttons, a status light, a buzzer; plus systemd's watchdog.

hw imports nothing from ``companion``: it reports presses and shows what the table publishes, and the companion
decides what they mean. The dependency runs one way only (``companion`` -> ``hw``). One call puts the hardware
together from the config's ``[buttons]`` section and gives back one handle to close::

    from hw import attach
    hardware = attach(table, config.buttons, when_pressed=on_press, min_confidence=config.tray.min_confidence)
    ...
    hardware.close()

``table`` is anything :class:`hw.follower.Followed` (a broker and a snapshot: the companion's ``TableSession``),
``on_press(name, kind)`` whatever a press should do. The companion's side of it, what a press means now and the
"needs attention" after a refused one, is ``companion/controls.py``.

Modules: :mod:`hw.press` (debounce, short/long: pure), :mod:`hw.buttons` (pins -> ``when_pressed(name, kind)``,
presses from software on mock pins), :mod:`hw.status` (LED and buzzer from the table's state),
:mod:`hw.follower` (a thread following the table's messages), :mod:`hw.factory` (pin factory by config),
:mod:`hw.systemd` (sd_notify and watchdog).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from hw.factory import HardwareError
from hw.follower import Followed

if TYPE_CHECKING:  # the modules that drive pins load gpiozero: imported by attach, once pins are wanted
    from gpiozero import Factory

    from hw.buttons import PressHandler, TableButtons, VirtualButtons
    from hw.status import ReadingBuzzer, StatusLight

log = logging.getLogger(__name__)

__all__ = ["ButtonsSettings", "Hardware", "HardwareError", "attach", "pin_conflicts"]


class ButtonsSettings(Protocol):
    """The config's ``[buttons]`` section (``companion.config.ButtonsConfig``), as far as hw reads it."""

    @property
    def enabled(self) -> bool: ...
    @property
    def pin_factory(self) -> str: ...
    @property
    def confirm(self) -> int: ...
    @property
    def next(self) -> int: ...
    @property
    def back(self) -> int: ...
    @property
    def hold_seconds(self) -> float: ...
    @property
    def led(self) -> int | None: ...
    @property
    def buzzer(self) -> int | None: ...


@dataclass
class Hardware:
    """What :func:`attach` started; every part is None when absent (disabled, not configured, or failed)."""

    buttons: TableButtons | None = None
    light: StatusLight | None = None
    buzzer: ReadingBuzzer | None = None
    virtual: VirtualButtons | None = None
    """Software presses on mock pins (demo, dashboard); None with real pins."""
    factory: str | None = None
    error: str | None = None
    """Why the hardware could not start (also logged; the companion shows it as ``status["buttons"]["error"]``)."""
    _own_factory: Factory | None = field(default=None, repr=False)

    def close(self) -> None:
        for part in (self.buttons, self.light, self.buzzer):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %s failed", type(part).__name__)
        if self._own_factory is not None:
            self._own_factory.close()
            self._own_factory = None


def pin_conflicts(config: ButtonsSettings) -> list[str]:
    """Pins used twice in ``[buttons]`` (gpiozero would only say "pin in use"); empty when all are distinct."""
    used: dict[int, str] = {}
    problems = []
    for key in ("confirm", "next", "back", "led", "buzzer"):
        pin = getattr(config, key)
        if pin is None:
            continue
        if pin in used:
            problems.append(f"[buttons] {key} = {pin} is already [buttons] {used[pin]}; give each its own GPIO")
        used.setdefault(pin, key)
    return problems


def attach(
    table: Followed,
    config: ButtonsSettings,
    *,
    when_pressed: PressHandler | None = None,
    min_confidence: float = 0.8,
    pin_factory: Factory | None = None,
    strict: bool = False,
) -> Hardware:
    """Start the buttons, the status light and the buzzer that ``config`` asks for; light and buzzer follow
    ``table``, and every press is reported to ``when_pressed(name, kind)``.

    :param min_confidence: the config's ``[tray] min_confidence`` (the light's "needs attention").
    :param pin_factory: use this factory instead of ``config.pin_factory`` (tests pass their MockFactory).
    :param strict: raise :class:`HardwareError` instead of carrying on without hardware.

    Not strict (the default for serving): a table whose GPIO cannot start still serves its dashboard; the reason
    is logged and kept in ``Hardware.error``, and ``companion doctor`` says what to fix. Buttons, light and buzzer
    run in their own daemon threads.
    """
    if not config.enabled:
        return Hardware()
    from hw.buttons import TableButtons, VirtualButtons
    from hw.factory import factory_name, make_pin_factory
    from hw.status import ReadingBuzzer, StatusLight

    hardware = Hardware()
    try:
        problems = pin_conflicts(config)
        if problems:
            raise HardwareError("; ".join(problems))
        factory = pin_factory
        if factory is None:
            factory = hardware._own_factory = make_pin_factory(config.pin_factory)
        hardware.factory = factory_name(factory)
        hardware.buttons = TableButtons(
            confirm=config.confirm,
            next=config.next,
            back=config.back,
            hold_seconds=config.hold_seconds,
            pin_factory=factory,
            when_pressed=when_pressed,
        )
        if config.led is not None:
            hardware.light = StatusLight(table, led=config.led, min_confidence=min_confidence, pin_factory=factory)
        if config.buzzer is not None:
            hardware.buzzer = ReadingBuzzer(table, buzzer=config.buzzer, pin_factory=factory)
        try:
            hardware.virtual = VirtualButtons(hardware.buttons)
        except HardwareError:
            hardware.virtual = None  # real pins: nothing to press from software
    except Exception as exc:
        hardware.close()
        message = str(exc) if isinstance(exc, HardwareError) else f"GPIO failed to start: {exc}"
        if strict:
            raise HardwareError(message) from exc
        log.error("buttons and status light disabled: %s", message)
        return Hardware(factory=hardware.factory, error=message)
    log.info(
        "buttons on %s pins: confirm GPIO%d, next GPIO%d, back GPIO%d (hold %.1f s)%s%s",
        hardware.factory, config.confirm, config.next, config.back, config.hold_seconds,
        f", LED GPIO{config.led}" if config.led is not None else "",
        f", buzzer GPIO{config.buzzer}" if config.buzzer is not None else "",
    )
    return hardware
