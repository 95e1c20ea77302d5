"""Fixtures for the hardware tests: gpiozero's mock pins (saved and restored, as gpiozero's own tests do) and a
real TableSession on a temp EventStore with a Dice Race begun."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.session import TableSession


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def table(session: TableSession) -> TableSession:
    """The conftest's session (temp store) with Ada and Bo starting a Dice Race."""
    session.new_game("dice-race", {"players": ["Ada", "Bo"]}, seed=1)
    return session
