"""The table's hardware besides the camera: three buttons, a status light, a buzzer; plus systemd's watchdog.

One call puts it together from the config's ``[buttons]`` section and gives back one handle to close::

    from hw import attach
    hardware = attach(session, config.buttons, min_confidence=config.tray.min_confidence)
    ...
    hardware.close()

Modules: :mod:`hw.press` (debounce, short/long: pure), :mod:`hw.buttons` (buttons -> session, virtual presses),
:mod:`hw.status` (LED and buzzer from the session's state), :mod:`hw.factory` (pin factory by config),
:mod:`hw.systemd` (sd_notify and watchdog).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from gpiozero import Factory

from companion.config import ButtonsConfig
from companion.session import TableSession
from hw.buttons import TableButtons, VirtualButtons
from hw.factory import HardwareError, factory_name, make_pin_factory
from hw.status import ReadingBuzzer, StatusLight

log = logging.getLogger(__name__)

__all__ = ["Hardware", "HardwareError", "attach", "pin_conflicts"]


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
    """Why the hardware could not start (also logged and in ``status["buttons"]["error"]``)."""
    _own_factory: Factory | None = field(default=None, repr=False)

    def describe(self) -> dict[str, Any]:
        """For the dashboard (``GET /api/buttons``): the buttons, what each does now, whether they can be pressed."""
        buttons: list[dict[str, Any]] = []
        if self.virtual is not None:
            buttons = self.virtual.describe()
        elif self.buttons is not None:
            hints = self.buttons.hints()
            buttons = [{"name": n, "pin": p, **hints[n]} for n, p in self.buttons.pins.items()]
        return {
            "enabled": self.buttons is not None,
            "virtual": self.virtual is not None,
            "factory": self.factory,
            "error": self.error,
            "light": self.light.state.value if self.light is not None and self.light.state else None,
            "buttons": buttons,
        }

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


def pin_conflicts(config: ButtonsConfig) -> list[str]:
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
    session: TableSession,
    config: ButtonsConfig,
    *,
    min_confidence: float = 0.8,
    pin_factory: Factory | None = None,
    strict: bool = False,
) -> Hardware:
    """Start the buttons, the status light and the buzzer that ``config`` asks for, all following ``session``.

    :param min_confidence: the config's ``[tray] min_confidence`` (the light's "needs attention").
    :param pin_factory: use this factory instead of ``config.pin_factory`` (tests pass their MockFactory).
    :param strict: raise :class:`HardwareError` instead of carrying on without hardware.

    Not strict (the default for serving): a table whose GPIO cannot start still serves its dashboard; the reason
    is logged, kept in ``Hardware.error`` and shown as ``status["buttons"]["error"]``, and ``companion doctor``
    says what to fix. Buttons, light and buzzer run in their own daemon threads.
    """
    if not config.enabled:
        session.set_status(buttons={"enabled": False, "error": None})
        return Hardware()
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
            session,
            confirm=config.confirm,
            next=config.next,
            back=config.back,
            hold_seconds=config.hold_seconds,
            pin_factory=factory,
        )
        if config.led is not None:
            hardware.light = StatusLight(session, led=config.led, min_confidence=min_confidence, pin_factory=factory)
        if config.buzzer is not None:
            hardware.buzzer = ReadingBuzzer(session, buzzer=config.buzzer, pin_factory=factory)
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
        session.set_status(buttons={"enabled": False, "error": message})
        return Hardware(factory=hardware.factory, error=message)
    log.info(
        "buttons on %s pins: confirm GPIO%d, next GPIO%d, back GPIO%d (hold %.1f s)%s%s",
        hardware.factory, config.confirm, config.next, config.back, config.hold_seconds,
        f", LED GPIO{config.led}" if config.led is not None else "",
        f", buzzer GPIO{config.buzzer}" if config.buzzer is not None else "",
    )
    return hardware
