"""A fresh start, the camera yet to send a frame and no roll made: every page says what it
has not got without asking for it (no failed request, nothing in the console)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

PAGES = ["/", "/history", "/settings", "/combat"]


@pytest.mark.parametrize("path", PAGES)
def test_a_page_asks_for_nothing_that_is_not_there_yet(browser, server, path):
    context = browser.new_context(base_url=server.url)
    failed, console = [], []
    page = context.new_page()
    page.on("response", lambda response: response.status >= 400 and failed.append(f"{response.status} {response.url}"))
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.goto(path, wait_until="networkidle")
    expect(page.locator("#camera")).not_to_have_text("…")   # the page's script has run
    context.close()
    assert failed == [] and console == []


@pytest.mark.parametrize("locale, none", [("en-US", "No photo yet: throw some dice first."),
                                          ("pt-BR", "Ainda sem foto: jogue alguns dados primeiro."),
                                          ("es", "Aún no hay foto: tira algunos dados primero.")])
def test_settings_says_no_photo_yet_before_the_first_frame(phone, locale, none):
    page = phone("/settings", locale=locale)
    expect(page.locator("#frame-none")).to_have_text(none)
    expect(page.locator("#setup-none")).to_have_text(none)
    expect(page.locator("#frame-box")).to_be_hidden()
    expect(page.locator("#setup-box")).to_be_hidden()
