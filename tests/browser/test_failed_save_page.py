"""A roll or photo the history could not save is said on the live page, in the three languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from device.tray.problems import Problem
from web import create_app

from .conftest import PHONE, LiveServer

#: The disk's cause in the page's words (its English, "No space left on device", is the log's).
SAVE_FAILED = {"en-US": "The roll could not be saved (the disk is full): nothing was changed. "
                        "Fix it, then throw again.",
               "pt-BR": "A jogada não pôde ser salva (o disco está cheio): nada foi alterado. "
                        "Resolva isso e jogue de novo.",
               "es-ES": "No se pudo guardar la tirada (el disco está lleno): no se cambió nada. "
                        "Resuélvelo y tira de nuevo."}


@pytest.mark.parametrize("locale", list(SAVE_FAILED))
def test_a_roll_that_could_not_be_saved_is_said_on_the_page(browser, controller, locale):
    """The controller's prompt after a photo or roll it could not save (device/controller.py)."""
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.5})
    with LiveServer(app) as live:
        context = browser.new_context(**{**PHONE, "locale": locale, "base_url": live.url})
        try:
            page = context.new_page()
            page.goto("/")
            expect(page.locator("#link")).to_have_attribute("data-link", "live")
            controller.arm("2d6")
            failed = Problem("not saved", why="No space left on device", asks=(
                "the history could not be saved (No space left on device): nothing was changed; "
                "try again once that is fixed"))
            controller._state.update(state="armed", prompt=failed.english(), problem=failed.to_dict())
            controller._publish_state()
            expect(page.locator("#prompt")).to_have_text(SAVE_FAILED[locale])
        finally:
            context.close()
