"""The live page in Debian's Chromium: it updates over SSE, spectators only watch, the PIN gives control."""

import shutil

import pytest

from tests.conftest import PIN

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.browser

if not shutil.which(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing: `make test` installs Debian's chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--no-first-run", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{live.port}/")
    sync_api.expect(page.locator("#connection")).to_have_text("live")
    yield page
    context.close()


def test_spectator_sees_the_game_update_live_without_controls(page, live):
    sync_api.expect(page.locator("#title")).to_have_text("Dice Race")
    sync_api.expect(page.locator("#options button")).to_have_count(0)
    live.session.act({"type": "roll", "dice": ["5"]}, actor="Ada")
    sync_api.expect(page.locator("#view tr.current td").first).to_have_text("Bo")
    sync_api.expect(page.locator("#events li")).to_have_count(1)


def test_pin_gives_control_and_a_tapped_roll_is_stored(page, live):
    page.click("#login-open")
    page.fill("input[name=pin]", "0000")
    page.click("#login button")
    sync_api.expect(page.locator("#login-error")).to_have_text("Wrong table PIN.")
    page.fill("input[name=pin]", PIN)
    page.click("#login button")
    sync_api.expect(page.locator("#role")).to_have_text("control")
    page.click(".manual .palette [data-face='4']")
    page.click("#confirm-roll")
    sync_api.expect(page.locator("#events li")).to_have_count(1)
    assert live.session.snapshot()["view"]["players"][0]["position"] == 4
