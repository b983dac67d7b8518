"""A page the server has no event stream left for says so and follows the table by asking for
the state (web/events.py "full"), in the three languages; it goes live once a stream is free."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from web import create_app

from .conftest import LiveServer

WORDS = {"en-US": "Many pages open: updated every 5 s",
         "pt-BR": "Muitas páginas abertas: atualizado a cada 5 s",
         "es-ES": "Muchas páginas abiertas: se actualiza cada 5 s"}


@pytest.fixture
def server(controller):
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.5, "MAX_STREAMS": 0})
    with LiveServer(app) as live:
        live.app = app
        yield live


@pytest.mark.parametrize("locale", list(WORDS))
def test_a_page_with_no_stream_says_so_and_still_shows_the_rolls(phone, controller, locale):
    page = phone("/", locale=locale)
    link = page.locator("#link")
    expect(link).to_have_attribute("data-link", "polling")
    expect(link).to_have_text(WORDS[locale])
    controller.arm("2d6", "Ana")
    controller.throw_dice([3, 5])
    expect(page.locator("#big")).to_have_text("8")  # the next poll, 5 s at most


def test_the_page_goes_live_when_a_stream_is_free_again(phone, controller, server):
    page = phone("/")
    expect(page.locator("#link")).to_have_attribute("data-link", "polling")
    server.app.extensions["dicelens.streams"].limit = 1
    page.evaluate("window.dicelens.stream.open()")  # the browser's own retry comes after 30 s
    expect(page.locator("#link")).to_have_attribute("data-link", "live")

