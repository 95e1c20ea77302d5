"""A whole Chariot Race turn through the dashboard in Debian's Chromium: a replayed camera roll with a misread die,
a manual reroll, a fortune spend, drive, a path tapped on the track, an attack; then undo, and a spectator who
watches it live with no control shown to him, one tap away from the PIN."""

from __future__ import annotations

import pytest

from tests.web.conftest import shoot

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect


def camera_roll(session, *dice):
    """The camera's reading of a roll, replayed: (label, confidence) per die."""
    session.offer_dice([{"label": label, "confidence": conf, "runner_up": ["steer", 0.3]} for label, conf in dice],
                       source="camera")


def test_a_full_turn_through_the_dashboard_with_the_camera_and_by_hand(race, open_page):
    session = race.session
    url = f"http://127.0.0.1:{race.port}/?kiosk=0"
    page = open_page(url, control=True)
    spectator = open_page(url, viewport=(390, 844))

    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
    expect(page.locator("#setup-card")).to_contain_text("Start 1: Julia")
    expect(page.locator(".chariot-card")).to_have_count(4)
    expect(page.locator("#overlay [data-chariot]")).to_have_count(4)

    # The camera reads four dice; the second is a doubtful "fortune" that holds the confirmation back.
    camera_roll(session, ("drive", 0.98), ("fortune", 0.55), ("attack", 0.93), ("gallop", 0.97))
    expect(page.locator("#pending .die")).to_have_count(4)
    expect(page.locator("#pending .die.low")).to_have_count(1)
    expect(page.locator("#confirm-roll")).to_be_disabled()
    expect(spectator.locator("#pending .die.low")).to_have_count(1)
    shoot(page, "table-camera-roll-low-confidence")

    # A tap on the doubtful die and on the face it really shows.
    page.click("#pending .die.low")
    page.click("#face-picker-faces [data-face=steer]")
    expect(page.locator("#pending .die.low")).to_have_count(0)
    expect(page.locator("#pending .die.corrected")).to_have_count(1)
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    assert session.snapshot()["view"]["dice"] == ["drive", "steer", "attack", "gallop"]

    # Free reroll of the gallop, the new face entered by hand (no camera needed).
    page.click("#current-dice .die[data-index='3']")
    expect(page.locator(".roll-box")).to_contain_text("Roll the 1 chosen die again")
    page.click(".manual .palette [data-face=drive]")
    expect(page.locator("#pending .die")).to_have_count(1)
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Fortune")
    assert session.snapshot()["view"]["dice"] == ["drive", "steer", "attack", "drive"]

    # Fortune: turn the second drive die to steer for 2 fortune (3 -> 1, so the spending ends by itself).
    page.click("#current-dice .die[data-index='3']")
    page.click(".turn-die [data-turn=steer]")
    expect(page.locator("#prompt")).to_have_text("Julia: Speed")
    expect(page.locator(".chariot-card[data-chariot=green] .fortune")).to_have_attribute("data-value", "1")

    # Drive: +1, so speed 5 and five steps with two steer dice.
    page.click("button.option:has-text('+1 → speed 5')")
    expect(page.locator("#prompt")).to_have_text("Julia: Move")
    expect(page.locator("#overlay g.dest").first).to_be_visible()
    expect(spectator.locator("#overlay g.dest").first).to_be_attached()
    shoot(page, "table-move-destinations")

    # The path: a tap on a highlighted space of the track, the damage shown before driving.
    page.locator("#overlay g.dest[data-dest='L2-06']").click()
    expect(page.locator(".move-summary")).to_contain_text("Move to L2-06")
    expect(page.locator(".move-summary")).to_contain_text("no damage")
    page.click("#confirm-move")
    expect(page.locator("#prompt")).to_have_text("Julia: Attack")
    assert session.snapshot()["view"]["chariots"][0]["space"] == "L2-06"

    # Attack: the passed spaces are caltrop targets on the track.
    expect(page.locator("#overlay .caltrop-target").first).to_be_attached()
    shoot(page, "table-attack")
    target = page.locator("#overlay .caltrop-target").first.get_attribute("data-caltrop")
    page.locator(f"#overlay .caltrop-target[data-caltrop='{target}']").dispatch_event("click")
    expect(page.locator("#prompt")).to_have_text("Klaus: Roll")
    assert session.snapshot()["view"]["caltrops"] == [target]
    expect(page.locator("#events")).to_contain_text(f"Julia drops a caltrop on {target}")
    expect(page.locator("#events")).to_contain_text("die 2 set by hand: Fortune → Steer")

    # The spectator saw all of it live, and a press of his is refused.
    expect(spectator.locator("#prompt")).to_have_text("Klaus: Roll")
    expect(spectator.locator("#overlay .caltrop")).to_have_count(1)
    expect(spectator.locator("#buttons-panel")).to_be_hidden()
    spectator.click("#take-control")
    expect(spectator.locator("#login input[name=pin]")).to_be_focused()
    shoot(spectator, "spectator-phone", full_page=False)
    seq = session.snapshot()["seq"]

    # Undo (PIN only): two taps, the caltrop comes back off the board and the log keeps both.
    page.click("#undo")
    page.click("#undo")
    expect(page.locator("#prompt")).to_have_text("Julia: Attack")
    expect(page.locator("#events li.undone")).to_have_count(1)
    expect(spectator.locator("#overlay .caltrop")).to_have_count(0)
    assert session.snapshot()["seq"] == seq + 1
    shoot(page, "table-log-undo", full_page=True)


def test_manual_entry_of_a_whole_roll_without_a_camera(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)
    expect(page.locator(".roll-box .waiting")).to_contain_text("No camera")
    for face in ("steer", "steer", "drive", "fortune"):
        page.click(f".manual .palette [data-face={face}]")
    expect(page.locator("#pending .die")).to_have_count(4)
    expect(page.locator(".roll-box .source")).to_have_text("Entered by hand")
    page.click("#confirm-roll")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    page.click("button.option:has-text('Keep the dice')")
    expect(page.locator("#prompt")).to_have_text("Julia: Fortune")
    page.click("button.option:has-text('Done: no more spending')")
    # Fortune gained from the fortune face, shown as it happens.
    expect(page.locator(".chariot-card[data-chariot=green] .fortune")).to_have_attribute("data-value", "4")
    expect(page.locator("#just-now")).to_contain_text("Julia gains 1 fortune (now 4)")
    stored = race.session.events()
    assert stored[0].payload["reading"]["source"] == "manual"


def test_the_three_buttons_show_what_they_do_and_work_virtually(race, open_page):
    page = open_page(f"http://127.0.0.1:{race.port}/?kiosk=0", control=True)
    race.session.offer_dice([{"label": f, "confidence": 0.99} for f in ("drive", "drive", "drive", "drive")])
    expect(page.locator("#button-confirm .what")).to_have_text("Confirm the roll")
    page.click("#button-confirm")
    expect(page.locator("#prompt")).to_have_text("Julia: Free reroll")
    expect(page.locator("#button-confirm .what")).to_have_text("Keep the dice")
    page.click("#button-next")
    expect(page.locator("#button-confirm .what")).to_contain_text("Reroll 1 die")
    page.click("#button-back")  # the screen's Back asks before it undoes
    expect(page.locator("#button-back .what")).to_have_text("Tap again to undo")
    page.click("#button-back")
    expect(page.locator("#prompt")).to_have_text("Julia: Roll")
