"""Choosing gpiozero's pin factory from the config, never by import accident.

gpiozero picks a backend by itself when none is given (lgpio, then RPi.GPIO, pigpio, native). That is what
``pin_factory = "auto"`` means, and it is right on a Pi. On a laptop it fails, and that is also right: a table that
was meant to have buttons must say so, not quietly fall back to pretend pins. Pretend pins are ``"mock"``, chosen in
the config of the demo and of tests.

>>> factory = make_pin_factory("mock")
>>> type(factory).__name__
'MockFactory'
>>> factory.close()
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpiozero import Factory

FACTORIES: dict[str, tuple[str, str, str]] = {
    # name: (module, class, how to get it)
    "mock": ("gpiozero.pins.mock", "MockFactory", "part of gpiozero"),
    "lgpio": (
        "gpiozero.pins.lgpio",
        "LGPIOFactory",
        "sudo apt install python3-lgpio (or pip install lgpio); the default on a Pi 5 and on current Pi OS",
    ),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "sudo apt install python3-rpi.gpio (not on a Pi 5)"),
    "native": ("gpiozero.pins.native", "NativeFactory", "part of gpiozero; experimental, no pull-ups on a Pi 5"),
}


class HardwareError(RuntimeError):
    """GPIO hardware that the config asks for but that cannot be used; the message says what to do."""


def make_pin_factory(name: str) -> Factory:
    """A new pin factory for ``name`` (``auto``, ``mock``, ``lgpio``, ``rpigpio``, ``native``).

    ``auto`` asks gpiozero for its own default, the factory it would use if none were given.
    Raises :class:`HardwareError` naming the missing piece when the backend cannot start here.
    """
    # gpiozero is imported here, where pins are made: a table serves its screens before it starts its pins.
    from gpiozero import Device, PinFactoryFallback

    if name == "auto":
        try:
            with warnings.catch_warnings():  # one clear error below instead of a warning per backend tried
                warnings.simplefilter("ignore", PinFactoryFallback)
                return Device._default_pin_factory()
        except Exception as exc:  # gpiozero raises BadPinFactory after trying every backend
            raise HardwareError(
                f"no GPIO pin factory works here ({exc}); on a Raspberry Pi install python3-lgpio, "
                'elsewhere set [buttons] pin_factory = "mock" or enabled = false'
            ) from None
    if name not in FACTORIES:
        raise HardwareError(f"unknown pin factory {name!r}; choose one of auto, {', '.join(FACTORIES)}")
    module_name, class_name, hint = FACTORIES[name]
    try:
        cls: Any = getattr(importlib.import_module(module_name), class_name)
    except ImportError as exc:
        raise HardwareError(f"pin factory {name!r} is not installed ({exc}); {hint}") from None
    try:
        return cls()
    except Exception as exc:
        raise HardwareError(f"pin factory {name!r} cannot start here: {exc}; {hint}") from None


def factory_name(factory: Factory) -> str:
    """A short name for logs and the status: ``MockFactory`` -> ``mock``, ``LGPIOFactory`` -> ``lgpio``."""
    for name, (_, class_name, _) in FACTORIES.items():
        if type(factory).__name__ == class_name:
            return name
    return type(factory).__name__
