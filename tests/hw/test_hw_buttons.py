"""The buttons end to end: mock pins -> debounce -> TableSession on a real (temp) EventStore."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig
from companion.session import TableSession
from hw import attach, pin_conflicts
from hw.buttons import PressOutcome, TableButtons, VirtualButtons, button_hints
from hw.factory import HardwareError

WAIT = 5.0
"""Seconds to wait for a thread before a test fails; waits end as soon as the event happens."""

HOLD = 0.3


@pytest.fixture
def buttons(table: TableSession, mock_factory: MockFactory) -> Iterator[TableButtons]:
    with TableButtons(table, hold_seconds=HOLD) as buttons:  # the fixture's MockFactory is gpiozero's default
        yield buttons


@pytest.fixture
def virtual(buttons: TableButtons) -> VirtualButtons:
    return VirtualButtons(buttons, timeout=WAIT)


def stored(session: TableSession) -> list[tuple[str, str | None]]:
    return [(e.type, e.payload.get("source")) for e in session.events()]


def test_confirm_press_stores_the_offered_roll_as_a_button_event(table: TableSession, virtual: VirtualButtons) -> None:
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    outcome = virtual.press("confirm")
    assert outcome.ok, outcome
    assert stored(table) == [("roll", "button")]
    event = table.events()[0]
    assert event.actor == "Ada" and event.payload["action"]["dice"] == ["5"]
    assert table.snapshot()["view"]["players"][0]["position"] == 5


def test_holding_back_undoes_the_last_action(table: TableSession, virtual: VirtualButtons) -> None:
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    virtual.press("confirm")
    outcome = virtual.press("back", hold=True)
    assert outcome.ok and outcome.kind == "long" and outcome.action == "undo", outcome
    assert stored(table) == [("roll", "button"), ("undo", "button")]
    assert table.snapshot()["view"]["players"][0]["position"] == 0


def test_a_short_back_press_does_not_undo(table: TableSession, virtual: VirtualButtons) -> None:
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    virtual.press("confirm")
    outcome = virtual.press("back")
    assert outcome.ok and outcome.action == "hint" and "hold" in outcome.message
    assert stored(table) == [("roll", "button")]


def test_presses_driven_on_the_pins_directly_are_debounced_into_one(
    table: TableSession, buttons: TableButtons, mock_factory: MockFactory
) -> None:
    handled = threading.Event()
    buttons.when_handled = lambda outcome: handled.set()
    table.offer_dice([{"label": "3", "confidence": 0.99}])
    pin = mock_factory.pin(17)
    pin.drive_low()  # a bouncy press: microseconds apart, far inside the 20 ms bounce time
    pin.drive_high()
    pin.drive_low()
    assert buttons.wait_for(lambda: buttons.is_pressed("confirm"), timeout=WAIT)
    pin.drive_high()
    assert handled.wait(WAIT)
    assert buttons.wait_for(lambda: not buttons.is_pressed("confirm"), timeout=WAIT)
    assert stored(table) == [("roll", "button")]
    assert buttons.handled == 1


def test_a_refused_press_needs_attention_and_the_buttons_keep_working(
    table: TableSession, virtual: VirtualButtons
) -> None:
    outcome = virtual.press("confirm")  # nothing read yet: the rules refuse
    assert not outcome.ok and outcome.rule == "CONFIRM" and "CONFIRM" in outcome.message
    assert table.snapshot()["status"]["buttons"]["error"] == outcome.message
    assert stored(table) == []

    table.offer_dice([{"label": "2", "confidence": 0.95}])  # the table moves on: attention is over
    assert _wait_until(table, lambda s: s["status"]["buttons"]["error"] is None)
    assert virtual.press("confirm").ok
    assert stored(table) == [("roll", "button")]


def test_undo_with_nothing_to_undo_is_refused_not_crashed(table: TableSession, virtual: VirtualButtons) -> None:
    outcome = virtual.press("back", hold=True)
    assert not outcome.ok and "UNDO" in outcome.message
    assert virtual.press("next").ok  # the thread lives on


def test_presses_without_a_game_are_refused(session: TableSession, mock_factory: MockFactory) -> None:
    with TableButtons(session, hold_seconds=HOLD) as buttons:
        outcome = VirtualButtons(buttons).press("confirm")
    assert not outcome.ok and "no game" in outcome.message
    assert session.snapshot()["status"]["buttons"]["error"] == outcome.message


def test_next_moves_the_highlight_through_the_session(table: TableSession, virtual: VirtualButtons) -> None:
    messages = table.broker.subscribe()
    outcome = virtual.press("next")
    assert outcome.ok and outcome.action == "next" and "roll 1 die" in outcome.message
    kinds = []
    while not messages.empty():
        kinds.append(messages.get_nowait()["kind"])
    assert "cursor" in kinds


def test_when_handled_sees_every_outcome(table: TableSession, buttons: TableButtons, virtual: VirtualButtons) -> None:
    seen: list[PressOutcome] = []
    buttons.when_handled = seen.append
    virtual.press("next")
    virtual.press("back")
    assert [(o.button, o.action) for o in seen] == [("next", "next"), ("back", "hint")]


def test_virtual_buttons_say_what_each_press_would_do(table: TableSession, virtual: VirtualButtons) -> None:
    before = {b["name"]: b for b in virtual.describe()}
    assert before["confirm"]["press"] == "nothing yet: roll 1 die first"
    assert before["back"]["hold"] == "nothing to undo"
    table.offer_dice([{"label": "4", "confidence": 0.6, "low": True}])
    after = {b["name"]: b for b in virtual.describe()}
    assert after["confirm"]["press"] == "confirm roll: 4?" and after["confirm"]["pin"] == 17


def test_unknown_virtual_button_is_a_key_error(virtual: VirtualButtons) -> None:
    with pytest.raises(KeyError, match="no button 'reset'"):
        virtual.press("reset")


def test_button_hints_without_a_game() -> None:
    hints = button_hints({"game": None, "seq": 0, "pending": None})
    assert hints["confirm"]["press"] == "nothing (no game)" and hints["back"]["hold"] == "nothing to undo"


def test_button_hints_for_a_choice_between_options() -> None:
    snapshot = {"game": {"over": False}, "seq": 3, "pending": None,
                "prompt": {"options": [{"type": "repair", "amount": 1}, {"type": "pass"}], "cursor": 1}}
    hints = button_hints(snapshot, hold_seconds=1.5)
    assert hints["confirm"]["press"] == "confirm pass"
    assert hints["next"]["press"] == "highlight repair (amount 1)"
    assert hints["back"] == {"press": "nothing (hold 1.5 s to undo)", "hold": "undo the last action"}


# -- attach, from the config ----------------------------------------------------------------------------------------


def test_attach_from_config_runs_the_whole_flow(table: TableSession) -> None:
    config = ButtonsConfig(pin_factory="mock", hold_seconds=HOLD, led=23, buzzer=24)
    hardware = attach(table, config, strict=True)
    try:
        assert hardware.factory == "mock" and hardware.virtual is not None
        table.offer_dice([{"label": "6", "confidence": 0.99}])
        assert hardware.virtual.press("confirm").ok
        assert hardware.virtual.press("back", hold=True).ok
        assert stored(table) == [("roll", "button"), ("undo", "button")]
        described = hardware.describe()
        assert described["enabled"] and described["virtual"] and len(described["buttons"]) == 3
    finally:
        hardware.close()


def test_attach_disabled_starts_nothing(table: TableSession) -> None:
    hardware = attach(table, ButtonsConfig(enabled=False))
    assert hardware.buttons is None and hardware.describe()["enabled"] is False
    assert table.snapshot()["status"]["buttons"] == {"enabled": False, "error": None}


def test_attach_refuses_a_pin_used_twice(table: TableSession) -> None:
    config = ButtonsConfig(pin_factory="mock", led=17)
    assert pin_conflicts(config) == ["[buttons] led = 17 is already [buttons] confirm; give each its own GPIO"]
    with pytest.raises(HardwareError, match="led = 17"):
        attach(table, config, strict=True)


def test_attach_without_working_gpio_serves_on_and_says_why(table: TableSession) -> None:
    hardware = attach(table, ButtonsConfig(pin_factory="mock", led=17))  # not strict: the serving default
    assert hardware.buttons is None and "led = 17" in (hardware.error or "")
    assert "led = 17" in table.snapshot()["status"]["buttons"]["error"]


def _wait_until(session: TableSession, predicate, timeout: float = WAIT) -> bool:  # noqa: ANN001
    """Wait on the session's broker (no sleeping) until ``predicate(snapshot)`` holds."""
    messages = session.broker.subscribe()
    try:
        if predicate(session.snapshot()):
            return True
        deadline = threading.Event()
        timer = threading.Timer(timeout, deadline.set)
        timer.start()
        try:
            while not deadline.is_set():
                try:
                    message = messages.get(timeout=0.1)
                except Exception:
                    continue
                if message is not None and predicate(message["state"]):
                    return True
        finally:
            timer.cancel()
        return predicate(session.snapshot())
    finally:
        session.broker.unsubscribe(messages)
