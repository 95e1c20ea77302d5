"""Fixtures for the dashboard tests: a real server with a Chariot Race table, and Debian's Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.session import TableSession
from companion.web import create_app
from companion.web.server import Server
from tests.conftest import PIN, LiveServer

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
FOUR = [{"name": "Julia", "colour": "green"}, {"name": "Klaus", "colour": "yellow"},
        {"name": "Ben", "colour": "blue"}, {"name": "Heidi", "colour": "red"}]
START = {"order": ["green", "yellow", "blue", "red"]}
"""Julia on start position 1 (plays first), then Klaus, Ben, Heidi: the tests know who is where."""


def tray_jpeg() -> bytes:
    """A dice tray as the camera overlay draws it: two dice with boxes, labels and confidence."""
    import cv2
    import numpy as np

    image = np.full((360, 480, 3), (60, 90, 40), np.uint8)
    for (x, y), label in (((120, 150), "drive 0.97"), ((300, 200), "steer 0.54")):
        cv2.rectangle(image, (x, y), (x + 60, y + 60), (235, 240, 245), -1)
        colour = (0, 200, 0) if "0.9" in label else (0, 160, 255)
        cv2.rectangle(image, (x - 6, y - 6), (x + 66, y + 66), colour, 2)
        cv2.putText(image, label, (x - 6, y - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 2)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


class FakeCamera:
    """The lead's camera contract: newest JPEG, a status, calibrate()."""

    def __init__(self) -> None:
        self.calibrations = 0
        self._jpeg: bytes | None = None

    def latest_jpeg(self) -> bytes | None:
        if self._jpeg is None:
            self._jpeg = tray_jpeg()
        return self._jpeg

    def status(self) -> dict[str, Any]:
        return {"state": "ok", "source": "synthetic"}

    def calibrate(self) -> dict[str, Any]:
        self.calibrations += 1
        return {"background": "learned", "tray": "640x480"}


def start_race(session: TableSession, players: list[dict[str, str]] = FOUR, **options: Any) -> None:
    session.new_game("chariot-race", {"players": players, "board": "A", "start": START, **options}, seed=7)


@pytest.fixture
def race(session: TableSession) -> Iterator[LiveServer]:
    """The real app on real waitress with a four-player Chariot Race begun (no camera: manual dice work)."""
    start_race(session)
    app = create_app(session, control_pin=PIN)
    server = Server(app, host="127.0.0.1", port=0, threads=12).start()
    live = LiveServer(session, server)
    live.app = app  # type: ignore[attr-defined]
    yield live
    session.broker.close()
    server.stop()


@pytest.fixture
def empty_table(session: TableSession) -> Iterator[LiveServer]:
    """No game yet, and a camera attached."""
    app = create_app(session, control_pin=PIN)
    app.extensions["camera"] = camera = FakeCamera()
    server = Server(app, host="127.0.0.1", port=0, threads=12).start()
    live = LiveServer(session, server)
    live.camera = camera  # type: ignore[attr-defined]
    yield live
    session.broker.close()
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--no-first-run", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(url, control=False, locale="en-GB", viewport=(1280, 860))`` -> a live page; closed afterwards."""
    from playwright.sync_api import expect

    contexts = []

    def opener(url: str, *, control: bool = False, locale: str = "en-GB",
               viewport: tuple[int, int] = (1280, 860)) -> Any:
        context = browser.new_context(locale=locale, viewport={"width": viewport[0], "height": viewport[1]})
        contexts.append(context)
        if control:
            base = url.split("/", 3)
            origin = "/".join(base[:3])
            who = context.request.get(f"{origin}/api/whoami").json()
            answer = context.request.post(f"{origin}/api/login", data={"pin": PIN},
                                          headers={"X-CSRF-Token": who["csrf"]})
            assert answer.ok, answer.text()
        page = context.new_page()
        page.goto(url)
        if control:
            expect(page.locator("body")).to_have_attribute("data-control", "yes")
        if "/camera" not in url and "/new" not in url:
            expect(page.locator("#connection")).to_have_class("badge live")
        return page

    yield opener
    for context in contexts:
        context.close()


def shoot(page: Any, name: str, *, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
