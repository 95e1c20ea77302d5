"""What a press means, end to end: mock pins -> debounce -> companion.controls -> TableSession on a real (temp)
EventStore; the "needs attention" of a refused press; the hints and option labels in the dashboard's languages."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion import texts
from companion.config import ButtonsConfig
from companion.controls import TableControls, attach, button_hints, option_label
from companion.session import TableSession
from companion.web import logtext

WAIT = 5.0
"""Seconds to wait for a thread before a test fails; waits end as soon as the event happens."""

HOLD = 0.3
ROOT = Path(__file__).resolve().parents[2]
MOCK = ButtonsConfig(pin_factory="mock", hold_seconds=HOLD)


@pytest.fixture
def controls(table: TableSession, mock_factory: MockFactory) -> Iterator[TableControls]:
    controls = attach(table, MOCK, pin_factory=mock_factory, strict=True)
    try:
        yield controls
    finally:
        controls.close()


def stored(session: TableSession) -> list[tuple[str, str | None]]:
    return [(e.type, e.payload.get("source")) for e in session.events()]


def test_confirm_press_stores_the_offered_roll_as_a_button_event(table: TableSession, controls: TableControls) -> None:
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    outcome = controls.press("confirm")
    assert outcome.ok, outcome
    assert stored(table) == [("roll", "button")]
    event = table.events()[0]
    assert event.actor == "Ada" and event.payload["action"]["dice"] == ["5"]
    assert table.snapshot()["view"]["players"][0]["position"] == 5


def test_holding_back_undoes_the_last_action(table: TableSession, controls: TableControls) -> None:
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    controls.press("confirm")
    outcome = controls.press("back", hold=True)
    assert outcome.ok and outcome.kind == "long" and outcome.action == "undo", outcome
    assert stored(table) == [("roll", "button"), ("undo", "button")]
    assert table.snapshot()["view"]["players"][0]["position"] == 0


def test_a_short_back_press_does_not_undo(table: TableSession, controls: TableControls) -> None:
    table.offer_dice([{"label": "5", "confidence": 0.97}])
    controls.press("confirm")
    outcome = controls.press("back")
    assert outcome.ok and outcome.action == "hint" and outcome.message == f"hold for {HOLD:g} s to undo"
    assert stored(table) == [("roll", "button")]


def test_a_finger_on_the_pin_is_debounced_into_one_stored_press(
    table: TableSession, controls: TableControls, mock_factory: MockFactory
) -> None:
    buttons = controls.hardware.buttons
    assert buttons is not None
    table.offer_dice([{"label": "3", "confidence": 0.99}])
    pin = mock_factory.pin(17)
    pin.drive_low()  # a bouncy press: microseconds apart, far inside the 20 ms bounce time
    pin.drive_high()
    pin.drive_low()
    assert buttons.wait_for(lambda: buttons.is_pressed("confirm"), timeout=WAIT)
    pin.drive_high()
    assert buttons.wait_for(lambda: buttons.handled == 1, timeout=WAIT)
    assert stored(table) == [("roll", "button")]
    assert buttons.last.ok and buttons.last.seq == 1


def test_a_refused_press_needs_attention_and_the_buttons_keep_working(
    table: TableSession, controls: TableControls
) -> None:
    outcome = controls.press("confirm")  # nothing read yet: the rules refuse
    assert not outcome.ok and outcome.rule == "CONFIRM" and "CONFIRM" in outcome.message
    assert table.snapshot()["status"]["buttons"]["error"] == outcome.message
    assert stored(table) == []

    table.offer_dice([{"label": "2", "confidence": 0.95}])  # the table moves on: attention is over
    assert _wait_until(table, lambda s: s["status"]["buttons"]["error"] is None)
    assert table.snapshot()["status"]["buttons"]["pins"] == {"confirm": 17, "next": 27, "back": 22}
    assert controls.press("confirm").ok
    assert stored(table) == [("roll", "button")]


def test_undo_with_nothing_to_undo_is_refused_not_crashed(table: TableSession, controls: TableControls) -> None:
    outcome = controls.press("back", hold=True)
    assert not outcome.ok and "UNDO" in outcome.message
    assert controls.press("next").ok  # the thread lives on


def test_presses_without_a_game_are_refused(session: TableSession, mock_factory: MockFactory) -> None:
    controls = attach(session, MOCK, pin_factory=mock_factory, strict=True)
    try:
        outcome = controls.press("confirm")
    finally:
        controls.close()
    assert not outcome.ok and "no game" in outcome.message
    assert session.snapshot()["status"]["buttons"]["error"] == outcome.message


def test_next_moves_the_highlight_through_the_session(table: TableSession, controls: TableControls) -> None:
    messages = table.broker.subscribe()
    outcome = controls.press("next")
    assert outcome.ok and outcome.action == "next" and outcome.message == "highlighted Confirm the roll"
    kinds = []
    while not messages.empty():
        kinds.append(messages.get_nowait()["kind"])
    assert "cursor" in kinds


def test_a_screen_press_on_a_state_the_table_has_left_is_stale_and_changes_nothing(
    table: TableSession, controls: TableControls
) -> None:
    seen = (table.snapshot()["seq"], table.snapshot()["game"]["number"])
    table.offer_dice([{"label": "4", "confidence": 0.99}])
    table.confirm(actor="Ada", source="tablet")
    outcome = controls.press("back", hold=True, seen=seen)
    assert not outcome.ok and outcome.rule == "stale"
    assert stored(table) == [("roll", "tablet")]
    assert table.snapshot()["status"]["buttons"]["error"] == outcome.message  # it came through the pins
    now = (table.snapshot()["seq"], table.snapshot()["game"]["number"])
    assert controls.press("back", hold=True, seen=now).ok  # the state a press saw is used once, then forgotten
    assert controls.press("next").ok


def test_without_pins_to_drive_a_screen_press_is_performed_directly(table: TableSession) -> None:
    controls = attach(table, ButtonsConfig(enabled=False, hold_seconds=1.5))
    try:
        assert table.snapshot()["status"]["buttons"] == {"enabled": False, "error": None}
        assert controls.press("back").message == "hold for 1.5 s to undo"
        table.offer_dice([{"label": "6", "confidence": 0.99}])
        assert controls.press("confirm").ok and stored(table) == [("roll", "button")]
        assert controls.press("confirm", seen=(0, None)).rule == "stale"
    finally:
        controls.close()


def test_the_controls_say_what_each_press_would_do(table: TableSession, controls: TableControls) -> None:
    before = {b["name"]: b for b in controls.describe()["buttons"]}
    assert before["confirm"]["press"] == "nothing yet: roll the dice first"
    assert before["back"]["hold"] == "nothing to undo"
    table.offer_dice([{"label": "4", "confidence": 0.6, "low": True}])
    after = {b["name"]: b for b in controls.describe(lang="nl")["buttons"]}
    assert after["confirm"]["press"] == "worp bevestigen: 4?" and after["confirm"]["pin"] == 17


def test_unknown_button_is_a_key_error(controls: TableControls) -> None:
    with pytest.raises(KeyError, match="no button 'reset'"):
        controls.press("reset")


# -- attach, from the config ----------------------------------------------------------------------------------------


def test_attach_from_config_runs_the_whole_flow(table: TableSession) -> None:
    controls = attach(table, ButtonsConfig(pin_factory="mock", hold_seconds=HOLD, led=23, buzzer=24), strict=True)
    try:
        hardware = controls.hardware
        assert hardware.factory == "mock" and hardware.virtual is not None and hardware.buzzer is not None
        assert table.snapshot()["status"]["buttons"] == {
            "enabled": True, "pins": {"confirm": 17, "next": 27, "back": 22}, "hold_seconds": HOLD,
            "factory": "mock", "error": None}
        table.offer_dice([{"label": "6", "confidence": 0.99}])
        assert controls.press("confirm").ok
        assert controls.press("back", hold=True).ok
        assert stored(table) == [("roll", "button"), ("undo", "button")]
        assert hardware.buzzer.wait_for_beeps(2, timeout=WAIT)  # the buzzer heard the table through hw's follower
        described = controls.describe()
        assert described["enabled"] and described["virtual"] and len(described["buttons"]) == 3
    finally:
        controls.close()


def test_attach_without_working_gpio_serves_on_and_says_why(table: TableSession) -> None:
    controls = attach(table, ButtonsConfig(pin_factory="mock", led=17))  # not strict: the serving default
    try:
        assert controls.hardware.buttons is None and "led = 17" in (controls.hardware.error or "")
        assert "led = 17" in table.snapshot()["status"]["buttons"]["error"]
        assert controls.describe()["enabled"] is False
    finally:
        controls.close()


def test_closing_the_controls_stops_following_the_table(table: TableSession, mock_factory: MockFactory) -> None:
    before = table.broker.subscriber_count
    controls = attach(table, ButtonsConfig(pin_factory="mock", led=23), pin_factory=mock_factory, strict=True)
    assert table.broker.subscriber_count == before + 2  # the light, and the attention clearer
    controls.close()
    assert table.broker.subscriber_count == before


def test_the_controls_read_their_texts_without_the_web_layer() -> None:
    """companion.texts holds the catalogues, so the web app's pages can press through the controls without a cycle."""
    code = "import sys, companion.controls; assert 'companion.web' not in sys.modules, 'controls imported the web'"
    for first in ("companion.controls", "companion.web", "companion.runtime"):
        done = subprocess.run([sys.executable, "-c", f"import {first}; import companion.controls, companion.web"],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert done.returncode == 0, (first, done.stderr)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr


# -- in words, in the dashboard's languages -------------------------------------------------------------------------


def test_button_hints_without_a_game() -> None:
    hints = button_hints({"game": None, "seq": 0, "pending": None})
    assert hints["confirm"]["press"] == "nothing (no game)" and hints["back"]["hold"] == "nothing to undo"
    assert button_hints({"game": None, "seq": 0}, lang="de")["confirm"]["press"] == "nichts (kein Spiel)"


def test_button_hints_for_a_choice_between_options() -> None:
    snapshot = {"game": {"over": False}, "seq": 3, "pending": None,
                "prompt": {"options": [{"type": "repair", "amount": 1}, {"type": "pass"}], "cursor": 1}}
    hints = button_hints(snapshot, hold_seconds=1.5)
    assert hints["confirm"]["press"] == "confirm pass"
    assert hints["next"]["press"] == "highlight repair (amount 1)"
    assert hints["back"] == {"press": "nothing (hold 1.5 s to undo)", "hold": "undo the last action"}
    dutch = button_hints(snapshot, hold_seconds=1.5, lang="nl")
    assert dutch["back"] == {"press": "niets (1,5 s vasthouden om ongedaan te maken)",
                             "hold": "de laatste actie ongedaan maken"}


def test_a_chariot_races_options_are_named_as_the_dashboard_names_them(session: TableSession) -> None:
    session.new_game("chariot-race", {"players": [{"name": "Julia", "colour": "green"},
                                                  {"name": "Klaus", "colour": "red"}]}, seed=1)
    session.act({"type": "roll", "dice": ["drive", "steer", "steer", "fortune"]}, actor=session.prompt().actor)
    snapshot = session.snapshot()
    assert snapshot["prompt"]["phase"] == "reroll"
    options = snapshot["prompt"]["options"]
    keep = next(o for o in options if o["type"] == "done")
    reroll = next(o for o in options if o["type"] == "reroll" and o["reroll"] == [0])
    for lang in logtext.LANGUAGES:
        ui = logtext.catalog(lang)["ui"]
        assert option_label(keep, snapshot, lang=lang) == ui["keep_dice"]
        assert option_label(reroll, snapshot, lang=lang) == texts.ui(lang, "reroll_selected", n=1) + ": 1"
    hints = button_hints(snapshot, lang="de")
    assert hints["confirm"]["press"] == f"bestätigen: {option_label(options[0], snapshot, lang='de')}"
    assert hints["next"]["press"].startswith("markieren: ")


def test_hexen_rennen_options_name_the_witch_and_the_places(session: TableSession) -> None:
    session.new_game("hexenrennen", {"players": [{"name": "Julia", "colour": "green"},
                                                 {"name": "Klaus", "colour": "orange"}]}, seed=1)
    snapshot = session.snapshot()
    move = {"type": "move", "witch": "green-2", "to": 5}
    assert option_label(move, snapshot, lang="de") == "Hexe 2 von Julia: Start → Feld 5"
    assert option_label({"type": "stay"}, snapshot, lang="nl") == logtext.catalog("nl")["ui"]["hx_stay"]
    assert option_label({"type": "draw", "card": "magic"}, snapshot, lang="en") == "✶ magic"


def test_a_game_given_label_wins_and_unknown_options_show_their_fields() -> None:
    assert option_label({"type": "pick", "label": "Pick me"}, lang="de") == "Pick me"
    assert option_label({"type": "move", "lane": 2}, lang="nl") == "move (lane 2)"
    assert option_label({"type": "roll", "roll": 3}, lang="nl") == "Worp bevestigen"


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
