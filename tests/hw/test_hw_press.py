"""Debounce and short/long classification, as pure functions of timestamped edges."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hw.press import Press, PressKind, PressTracker, classify_presses

HOLD = 1.0
BOUNCE = 0.02


def presses(edges: list[tuple[float, bool]], **kw: float) -> list[Press]:
    return classify_presses(edges, hold_seconds=HOLD, bounce_seconds=BOUNCE, **kw)


def test_a_clean_tap_is_one_short_press_dated_at_its_release() -> None:
    assert presses([(0.0, True), (0.2, False)]) == [Press(PressKind.SHORT, 0.2)]


def test_a_hold_is_one_long_press_dated_when_the_hold_time_is_reached() -> None:
    assert presses([(5.0, True), (7.5, False)]) == [Press(PressKind.LONG, 6.0)]


def test_a_hold_is_reported_while_the_button_is_still_down() -> None:
    tracker = PressTracker(hold_seconds=HOLD, bounce_seconds=BOUNCE)
    tracker.edge(True, at=0.0)
    assert tracker.tick(at=0.99) == []
    assert tracker.tick(at=1.0) == [Press(PressKind.LONG, 1.0)]
    assert tracker.tick(at=3.0) == []  # reported once
    assert tracker.edge(False, at=3.1) + tracker.tick(at=4.0) == []  # and nothing on release


def test_contact_bounce_on_press_and_release_makes_one_press() -> None:
    bouncy = [(0.000, True), (0.002, False), (0.004, True), (0.007, False), (0.009, True),
              (0.300, False), (0.301, True), (0.303, False)]
    assert presses(bouncy) == [Press(PressKind.SHORT, 0.303)]


def test_a_spike_shorter_than_the_bounce_time_is_not_a_press() -> None:
    assert presses([(0.0, True), (0.005, False)]) == []


def test_a_spike_does_not_leave_the_button_down_and_turn_into_an_undo() -> None:
    """The lockout debounce's failure mode: the release inside the lockout is lost, the button looks held."""
    tracker = PressTracker(hold_seconds=HOLD, bounce_seconds=BOUNCE)
    tracker.edge(True, at=0.0)
    tracker.edge(False, at=0.001)
    assert tracker.tick(at=5.0) == []
    assert not tracker.is_pressed
    assert tracker.deadline is None


def test_the_deadline_says_when_to_tick_next() -> None:
    tracker = PressTracker(hold_seconds=HOLD, bounce_seconds=BOUNCE)
    assert tracker.deadline is None
    tracker.edge(True, at=10.0)
    assert tracker.deadline == pytest.approx(10.02)
    tracker.tick(at=10.05)
    assert tracker.is_pressed and tracker.deadline == pytest.approx(11.0)


def test_repeated_levels_are_harmless() -> None:
    assert presses([(0.0, True), (0.1, True), (0.2, False), (0.3, False)]) == [Press(PressKind.SHORT, 0.2)]


def test_edges_out_of_order_are_refused() -> None:
    with pytest.raises(ValueError, match="time order"):
        presses([(1.0, True), (0.5, False)])


def test_hold_must_be_longer_than_bounce() -> None:
    with pytest.raises(ValueError, match="hold_seconds"):
        PressTracker(hold_seconds=0.01, bounce_seconds=0.02)


@given(
    starts=st.lists(st.floats(min_value=0.05, max_value=3.0), min_size=1, max_size=6),
    lengths=st.lists(st.floats(min_value=0.03, max_value=3.0), min_size=6, max_size=6),
    bounces=st.lists(st.integers(min_value=0, max_value=4), min_size=6, max_size=6),
)
def test_any_sequence_of_bouncy_presses_classifies_each_by_its_length(
    starts: list[float], lengths: list[float], bounces: list[int]
) -> None:
    """Presses separated by gaps > bounce, each with up to 4 bounces of 1 ms at both ends: one press each,
    SHORT or LONG by how long it was held."""
    edges: list[tuple[float, bool]] = []
    expected: list[PressKind] = []
    t = 0.0
    for gap, length, n in zip(starts, lengths, bounces, strict=False):
        t += gap
        down = t
        edges.append((down, True))
        for i in range(n):  # bounce after the press
            edges += [(down + 0.001 * (2 * i + 1), False), (down + 0.001 * (2 * i + 2), True)]
        up = down + length
        edges.append((up, False))
        for i in range(n):  # bounce after the release
            edges += [(up + 0.001 * (2 * i + 1), True), (up + 0.001 * (2 * i + 2), False)]
        t = up + 0.01 * n
        expected.append(PressKind.LONG if length >= HOLD else PressKind.SHORT)
    kinds = [p.kind for p in presses(edges)]
    # A press whose length is within a bounce window of HOLD may go either way; skip those ambiguous cases.
    if any(abs(length - HOLD) < 0.02 for length in lengths[: len(starts)]):
        return
    assert kinds == expected
