"""The buttons on their own: mock pins -> debounce -> ``when_pressed(name, kind)``; no companion in the way."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig
from companion.session import TableSession
from hw import attach, pin_conflicts
from hw.buttons import TableButtons, VirtualButtons
from hw.factory import HardwareError
from hw.press import PressKind

WAIT = 5.0
"""Seconds to wait for a thread before a test fails; waits end as soon as the event happens."""

HOLD = 0.3
HW = Path(__file__).resolve().parents[2] / "hw"


class Recorder:
    """A ``when_pressed`` that notes every press and answers with a text naming it."""

    def __init__(self) -> None:
        self.presses: list[tuple[str, PressKind]] = []

    def __call__(self, name: str, kind: PressKind) -> str:
        self.presses.append((name, kind))
        return f"{name} {kind.value} #{len(self.presses)}"


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def buttons(recorder: Recorder, mock_factory: MockFactory) -> Iterator[TableButtons]:
    # The fixture's MockFactory is gpiozero's default.
    with TableButtons(hold_seconds=HOLD, when_pressed=recorder) as buttons:
        yield buttons


@pytest.fixture
def virtual(buttons: TableButtons) -> VirtualButtons:
    return VirtualButtons(buttons, timeout=WAIT)


# -- no package cycle ------------------------------------------------------------------------------------------------


def test_no_hw_module_imports_the_companion_even_inside_a_function() -> None:
    for path in sorted(HW.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert all(name.split(".")[0] != "companion" for name in names), f"{path.name}:{node.lineno}: {names}"


def test_every_hw_module_imports_with_the_companion_out_of_reach() -> None:
    """Not even through another package: a fresh interpreter where importing ``companion`` fails."""
    modules = ["hw"] + [f"hw.{p.stem}" for p in sorted(HW.glob("*.py")) if p.stem != "__init__"]
    script = (
        "import importlib, sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'companion':\n"
        "            raise ImportError(f'hw imported {name}')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for module in {modules!r}:\n"
        "    importlib.import_module(module)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'companion'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=HW.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- presses ---------------------------------------------------------------------------------------------------------


def test_a_press_is_reported_as_its_name_and_kind(recorder: Recorder, virtual: VirtualButtons) -> None:
    assert virtual.press("confirm") == "confirm short #1"  # the handler's answer comes back to the presser
    assert virtual.press("next") == "next short #2"
    assert recorder.presses == [("confirm", PressKind.SHORT), ("next", PressKind.SHORT)]


def test_holding_a_button_reports_one_long_press(recorder: Recorder, virtual: VirtualButtons) -> None:
    assert virtual.press("back", hold=True) == "back long #1"
    assert recorder.presses == [("back", PressKind.LONG)]  # nothing more on release


def test_presses_driven_on_the_pins_directly_are_debounced_into_one(
    recorder: Recorder, buttons: TableButtons, mock_factory: MockFactory
) -> None:
    pin = mock_factory.pin(17)
    pin.drive_low()  # a bouncy press: microseconds apart, far inside the 20 ms bounce time
    pin.drive_high()
    pin.drive_low()
    assert buttons.wait_for(lambda: buttons.is_pressed("confirm"), timeout=WAIT)
    pin.drive_high()
    assert buttons.wait_for(lambda: buttons.handled == 1 and not buttons.is_pressed("confirm"), timeout=WAIT)
    assert recorder.presses == [("confirm", PressKind.SHORT)]
    assert buttons.last == "confirm short #1"


def test_a_failing_handler_is_told_to_the_presser_and_the_buttons_keep_working(
    buttons: TableButtons, virtual: VirtualButtons
) -> None:
    calls = []

    def handler(name: str, kind: PressKind) -> str:
        calls.append(name)
        if len(calls) == 1:
            raise ValueError("the table fell over")
        return "fine"

    buttons.when_pressed = handler  # set later, as on a gpiozero device
    with pytest.raises(RuntimeError, match="the table fell over"):
        virtual.press("confirm")
    assert virtual.press("next") == "fine"


def test_a_press_nobody_listens_to_is_dropped(mock_factory: MockFactory) -> None:
    with TableButtons(hold_seconds=HOLD) as buttons:
        assert VirtualButtons(buttons, timeout=WAIT).press("confirm") is None
        assert buttons.handled == 1


def test_unknown_virtual_button_is_a_key_error(virtual: VirtualButtons) -> None:
    with pytest.raises(KeyError, match="no button 'reset'"):
        virtual.press("reset")


# -- attach, from the config ----------------------------------------------------------------------------------------


def test_attach_reports_presses_to_when_pressed(session: TableSession, recorder: Recorder) -> None:
    config = ButtonsConfig(pin_factory="mock", hold_seconds=HOLD, led=23, buzzer=24)
    hardware = attach(session, config, when_pressed=recorder, strict=True)
    try:
        assert hardware.factory == "mock" and hardware.virtual is not None
        assert hardware.light is not None and hardware.buzzer is not None
        assert hardware.virtual.press("back", hold=True) == "back long #1"
    finally:
        hardware.close()


def test_attach_disabled_starts_nothing(session: TableSession) -> None:
    hardware = attach(session, ButtonsConfig(enabled=False))
    assert hardware.buttons is None and hardware.virtual is None and hardware.error is None


def test_attach_refuses_a_pin_used_twice(session: TableSession) -> None:
    config = ButtonsConfig(pin_factory="mock", led=17)
    assert pin_conflicts(config) == ["[buttons] led = 17 is already [buttons] confirm; give each its own GPIO"]
    with pytest.raises(HardwareError, match="led = 17"):
        attach(session, config, strict=True)


def test_attach_without_working_gpio_carries_on_and_says_why(session: TableSession) -> None:
    hardware = attach(session, ButtonsConfig(pin_factory="mock", led=17))  # not strict: the serving default
    assert hardware.buttons is None and "led = 17" in (hardware.error or "")
