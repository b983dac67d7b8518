"""The live page while the camera is missing: it says why, and rolls by hand still work."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.phrase import Phrase

WHY = "USB camera 9 could not be opened (is it plugged in?)"
#: locale → the camera's pill and why it is away, as that page words them (web/messages.py shown_camera).
WORDED = {"en-US": ("No camera", WHY), "pt-BR": ("Sem câmera", "não foi possível abrir a câmera USB 9 (está conectada?)"),
          "es": ("Sin cámara", "no se pudo abrir la cámara USB 9 (¿está conectada?)")}


@pytest.mark.parametrize("locale", WORDED)
def test_the_page_says_why_in_its_language(phone, controller, locale):
    pill, why = WORDED[locale]
    controller.set_camera("no camera", Phrase("USB camera {n} could not be opened (is it plugged in?)", n=9))
    page = phone("/", locale=locale)
    expect(page.locator("#camera")).to_have_text(pill)
    expect(page.locator("#camera-note")).to_have_text(why)
    expect(page.locator("#camera")).to_have_attribute("title", why)


def test_the_page_says_why_and_dice_by_hand_still_work(phone, controller):
    controller.set_camera("no camera", WHY)
    page = phone("/")
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    expect(page.locator("#camera")).to_have_text("No camera")
    expect(page.locator("#camera-note")).to_have_text(WHY)
    expect(page.get_by_role("button", name="Throw")).to_be_hidden()

    page.get_by_role("button", name="2D6").click()
    expect(page.get_by_role("button", name="2D6")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="By hand", exact=True).click()
    keypad = page.locator("#keypad")
    for face in ("3", "4"):
        keypad.locator(".key", has_text=face).click()
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#big")).to_have_text("7")

    controller.set_camera("ok")  # the camera was plugged in: the note goes away
    expect(page.locator("#camera")).to_have_text("Camera ok")
    expect(page.locator("#camera-note")).to_be_hidden()
