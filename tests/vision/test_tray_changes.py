"""The change detector on the readings' boxes: what differs between two readings of the tray, and what became of a
roll's dice after they were read (taken out, nudged, or rolled again)."""

from __future__ import annotations

import pytest

from vision.settle import (
    ADDED,
    MOVED,
    NEW,
    NUDGED,
    REMOVED,
    SAME,
    TAKEN,
    TURNED,
    TrayChange,
    since_read,
    tray_changes,
)

WIDTH = 40.0


def die(face: str, x: float, y: float = 100.0, width: float = WIDTH) -> tuple[str, tuple]:
    """A die's face and box (its outline's four corners), `width` pixels wide, centred on (x, y)."""
    h = width / 2
    return face, ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))


READ = [die("1", 100), die("2", 200), die("3", 300), die("4", 400, 200)]


def kinds(changes: list[TrayChange]) -> list[tuple[str, int | None, str | None, str | None]]:
    return [(c.kind, c.die, c.was, c.now) for c in changes]


@pytest.mark.parametrize("dx, dy", [(3, -2), (-4, 4), (0, 5), (6, 0)])
def test_the_same_dice_jittered_by_a_few_pixels_are_no_change(dx, dy):
    jittered = [die(face, (box[0][0] + box[1][0]) / 2 + dx, (box[0][1] + box[2][1]) / 2 + dy) for face, box in READ]
    assert tray_changes(READ, jittered) == []
    assert since_read(READ, jittered) == (SAME, [])


def test_a_box_that_wobbles_in_size_is_no_change():
    assert (
        tray_changes(
            READ,
            [
                die(face, x, y, WIDTH * 1.15)
                for face, x, y in [("1", 101, 100), ("2", 199, 101), ("3", 300, 98), ("4", 402, 200)]
            ],
        )
        == []
    )


def test_a_die_moved_by_a_die_width_is_a_change():
    now = [READ[0], die("2", 200 + WIDTH), READ[2], READ[3]]
    (change,) = tray_changes(READ, now)
    assert (change.kind, change.die, change.was, change.now) == (MOVED, 1, "2", "2")
    assert change.distance == pytest.approx(1.0)


def test_half_a_width_is_where_a_die_starts_to_have_moved():
    assert tray_changes(READ, [READ[0], die("2", 200 + 0.45 * WIDTH), *READ[2:]]) == []
    assert kinds(tray_changes(READ, [READ[0], die("2", 200 + 0.55 * WIDTH), *READ[2:]])) == [(MOVED, 1, "2", "2")]


def test_a_die_turned_to_another_face_is_a_change():
    assert kinds(tray_changes(READ, [READ[0], READ[1], die("6", 302), READ[3]])) == [(TURNED, 2, "3", "6")]


def test_a_die_added_is_a_change():
    assert kinds(tray_changes(READ, [*READ, die("5", 500)])) == [(ADDED, None, None, "5")]


def test_a_die_taken_out_is_a_change():
    assert kinds(tray_changes(READ, [READ[0], READ[2], READ[3]])) == [(REMOVED, 1, "2", None)]


def test_dice_are_paired_nearest_first_whatever_their_order():
    assert tray_changes(READ, list(reversed(READ))) == []


@pytest.mark.parametrize(
    "now, verdict",
    [
        ([READ[0], die("2", 200 + WIDTH), READ[2], READ[3]], NUDGED),  # nudged a die's width
        ([READ[0], READ[1], die("6", 300), READ[3]], NUDGED),  # knocked over where it lay
        ([READ[0], die("2", 200 + WIDTH), READ[3]], NUDGED),  # one nudged, one taken out
        ([READ[0], READ[2]], TAKEN),  # set aside or being picked up: the rest untouched
        ([], TAKEN),  # all picked up
        ([die("5", 520, 300), die("1", 90, 400), die("6", 260, 20), die("2", 450, 30)], NEW),  # thrown again
        ([*READ, die("5", 500)], NEW),  # a die added: a roll begins
        ([READ[0], die("2", 200 + 3 * WIDTH), READ[2], READ[3]], NEW),  # one thrown far: not a nudge
    ],
)
def test_what_became_of_the_dice_read(now, verdict):
    assert since_read(READ, now)[0] == verdict


def test_a_lone_die_nudged_cannot_be_told_from_a_new_roll():
    assert since_read([die("3", 100)], [die("3", 100 + WIDTH)])[0] == NEW
