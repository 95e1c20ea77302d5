"""Help at the point of choice, in Chromium: the "?" beside "Use One More" opens what the card does in the screen's
language, below the button (covering no control), and closes by its button, its close button or Escape; every game
that has help shows it in one and the same component."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.controls import option_help
from companion.games.bots import RandomBot, roll
from tests.web.conftest import shoot
from tests.web.test_one_language import options_of
from tests.web.test_screens import boxes, overlaps

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

TABLET = (1024, 768)


def play_until(session, game_id: str, wanted: str, seed: int = 1, most: int = 2000, reference: bool = False,
               options: dict[str, Any] | None = None) -> int:
    """Bots play ``game_id`` until an option of type ``wanted`` has help (not reference text unless ``reference``:
    the spaces of a track or board in reference data); its index. A wrecking move has no destination to pick."""
    session.new_game(game_id, options or options_of(game_id), seed=seed)
    rng, bot = random.Random(seed), RandomBot()
    for _ in range(most):
        snapshot = session.snapshot()
        helps = option_help(snapshot)["en"]
        for index, option in enumerate(snapshot["prompt"]["options"]):
            if option["type"] == wanted and helps[index] and (reference or not helps[index]["reference"]) \
                    and not option.get("wrecked"):
                return index
        prompt = session.prompt()
        session.act(roll(session.game, bot.choose(session.game, session.state, prompt, rng), rng, session.state),
                    actor=prompt.actor)
    raise AssertionError(f"no {wanted} with help in {most} actions")


def help_beside(page: Any, index: int) -> tuple[Any, Any]:
    """The "?" beside option ``index``'s button and the text it opens."""
    pair = page.locator(f".with-help:has([data-option='{index}'])").first
    return pair.locator(".help-toggle"), pair.locator(".help-text")


def test_use_a_card_says_what_it_does_beside_the_button(served, open_page):
    index = play_until(served.session, "cubitos", "ability")
    page = open_page(f"http://127.0.0.1:{served.port}/", control=True, viewport=TABLET)
    button = page.locator(f"button[data-option='{index}']")
    expect(button).to_contain_text("Use One More")
    toggle, text = help_beside(page, index)
    expect(text).to_be_hidden()
    box = toggle.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # a thumb's target
    toggle.click()
    expect(text).to_be_visible()
    expect(text).to_contain_text("One More")
    expect(text).to_contain_text("When you push, before the roll: put this die into your ready zone.")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    [opened] = boxes(page, ".help-text:not([hidden])")
    controls = [b for b in boxes(page, "button, [role=button], summary, input, select")
                if not b["text"].startswith("✕")]
    assert not [b["text"] for b in controls if overlaps(opened, b)]
    shoot(page, "help-cubitos")
    page.keyboard.press("Escape")
    expect(text).to_be_hidden()
    expect(toggle).to_be_focused()  # Escape gives the focus back to the "?"
    page.keyboard.press("Enter")
    expect(text).to_be_visible()
    text.locator(".help-close").click()
    expect(text).to_be_hidden()


def test_the_help_speaks_the_screens_language(served, open_page):
    index = play_until(served.session, "cubitos", "ability")
    page = open_page(f"http://127.0.0.1:{served.port}/", control=True, viewport=TABLET, locale="de-DE")
    toggle, text = help_beside(page, index)
    toggle.click()
    expect(text).to_contain_text("Einer geht noch")
    expect(text).to_contain_text("Beim Riskieren, vor dem Wurf")


@pytest.mark.parametrize(("game_id", "wanted"), [("automobiles", "activate"), ("chariot-race", "repair"),
                                                 ("hexenrennen", "stay")])
def test_every_game_gives_its_help_in_the_same_place(served, open_page, game_id, wanted):
    index = play_until(served.session, game_id, wanted)
    page = open_page(f"http://127.0.0.1:{served.port}/", control=True, viewport=TABLET, locale="nl-NL")
    toggle, text = help_beside(page, index)
    toggle.click()
    expect(text).to_be_visible()
    expect(text.locator("p").first).not_to_be_empty()


def test_a_cubitos_move_says_what_the_spaces_on_its_way_do(served, open_page):
    index = play_until(served.session, "cubitos", "move", reference=True)
    page = open_page(f"http://127.0.0.1:{served.port}/", control=True, viewport=TABLET, locale="de-DE")
    toggle, text = help_beside(page, index)
    toggle.click()
    expect(text).to_be_visible()
    expect(text).to_contain_text("Auf dem Weg nach")
    expect(text).to_contain_text("Referenztext")  # the track's layout is reference data


def test_a_chariot_move_says_what_the_spaces_on_its_way_do(served, open_page):
    index = play_until(served.session, "chariot-race", "move", reference=True)
    to = served.session.snapshot()["prompt"]["options"][index]["to"]
    page = open_page(f"http://127.0.0.1:{served.port}/", control=True, viewport=TABLET, locale="nl-NL")
    page.locator(f".dest-btn[data-dest='{to}']").click()
    pair = page.locator(".with-help:has(#confirm-move)")
    pair.locator(".help-toggle").click()
    expect(pair.locator(".help-text")).to_contain_text(f"Onderweg naar {to}")


def test_a_sponsor_says_what_it_does_where_it_is_chosen(served, open_page):
    season = {"players": options_of("automobiles")["players"][:2], "season": ["reference_oval"] * 3}
    index = play_until(served.session, "automobiles", "sponsor", reference=True, options=season, most=12000)
    page = open_page(f"http://127.0.0.1:{served.port}/", control=True, viewport=TABLET)
    toggle, text = help_beside(page, index)
    toggle.click()
    expect(text).to_contain_text("At the end of each race")
