"""End-to-end fixtures: the real web app on a free loopback port, driven through a
fake controller, and Debian's Chromium through Playwright at a phone viewport.

Chromium is launched from /usr/bin/chromium (CI installs it with apt); Playwright's
own browser download is never used.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from werkzeug.serving import make_server

from device.combat import CombatSession
from device.controller import Controller
from device.history import History
from device.presets import build_presets
from tests.fakes import controller as fake_controller
from vision.reading import DieReading, TrayReading
from web import combat, create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
# A phone-sized viewport; pixel density 1 keeps Chromium light on a shared machine
# (the README screenshot asks for 2).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1,
         "is_mobile": True, "has_touch": True}

# Generous waits: CI machines are shared, and a wait only lasts until the page is right.
expect.set_options(timeout=10_000)

def closing(app):
    """``app`` with every response closed, even one whose client went away.

    werkzeug's server does not close the response of a dropped connection (a page
    closed while a photo loads leaves its file open); waitress, which
    `dicelens serve` uses, does. The generator's ``finally`` runs when the server
    lets go of it.
    """
    def wrapped(environ, start_response):
        body = app(environ, start_response)

        def chunks():
            try:
                yield from body
            finally:
                if hasattr(body, "close"):
                    body.close()
        return chunks()
    return wrapped


class LiveServer:
    """The app served by werkzeug in a thread: one thread per request, as event streams need."""

    def __init__(self, app):
        self.app = app  # its config may change between requests (a test's setting)
        self._server = make_server("127.0.0.1", 0, closing(app), threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._thread.join(5)
        self._server.server_close()


@pytest.fixture
def controller(tmp_path):
    return fake_controller.FakeController(tmp_path)


@pytest.fixture
def real_controller(tmp_path):
    """The real controller, the default presets and its history in ``tmp_path``: a module that
    drives the real one overrides ``controller`` with it."""
    with History(tmp_path) as history:
        yield Controller(build_presets(), history)


def pip_die(value: int | None, color: str, x: int, principal: bool = False) -> DieReading:
    """A pip d6 as read at ``x`` pixels in a row of 60 px dice; ``value`` None: seen cocked."""
    return DieReading(value=value, sides=6, box=(x, 100, x + 60, 160), center=(x + 30, 130), color=color,
                      confidence=0.9, unreadable=None if value else "cocked", principal=principal)


@pytest.fixture
def tray_controller(tmp_path):
    """Make the real controller (its history in ``tmp_path``) whose reader sees every frame as
    ``tray_controller(*dice)``'s dice (:func:`pip_die`), its photos not annotated."""
    made: list[Controller] = []

    def make(*dice: DieReading) -> Controller:
        def read(image, principal_color):
            return TrayReading(dice=list(dice), size=(64, 48))
        made.append(Controller(build_presets(), history, reader=read,
                               annotate=lambda image, reading, labels=None: image))
        return made[-1]

    with History(tmp_path) as history:
        yield make
        for controller in made:
            controller.close()


def settle(controller, after: float = 1.0) -> None:
    """Hand ``controller`` a settled frame ``after`` seconds from now, as the camera loop does."""
    controller.on_settled(np.zeros((48, 64, 3), np.uint8), time.monotonic() + after)


def thrown_2d6(controller, phone, lang: str, cocked_dice: str) -> Page:
    """The live page in ``lang`` once a 2D6 thrown under the cocked-die policy ``cocked_dice``
    (RULES T-5) settled in the tray of a camera that is ok: the page that saw it happen."""
    controller.update_settings(cocked_dice=cocked_dice)
    controller.on_status("ok")
    page = phone(f"/?lang={lang}")
    controller.arm("2d6")
    settle(controller)
    return page


@pytest.fixture
def fight(tmp_path):
    """The fight /combat keeps: none under way (a module overrides it for one that is)."""
    return CombatSession(tmp_path / "data")


@pytest.fixture
def server(controller, fight):
    # A short heartbeat ends a stream soon after its page closes, so the server stops fast.
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.5, "SSE_RETRY_MS": 300})
    with LiveServer(combat.attach(app, fight)) as live:
        yield live


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Browser, server):
    """A function opening the live page (or ``path``) in a fresh phone-sized context."""
    contexts, errors = [], []

    def open_page(path: str = "/", locale: str = "en-US", **options) -> Page:
        context = browser.new_context(**{**PHONE, "locale": locale, "base_url": server.url, **options})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: errors.append(f"{path}: {error}"))
        page.goto(path)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], "script errors on the page"
