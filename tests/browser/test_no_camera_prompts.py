"""With no camera (trial fault 13: `serve --camera usb:5`), the live page does not ask for a
throw into the tray, and the teaching page's Start is disabled with the reason, in the three
languages at 320 and 390 px; a camera lost during a round is said too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

IDLE = {"en-US": ("Pick a roll below, then throw the dice into the tray.",
                  "No camera is reading the tray: pick a roll below, then enter its dice by hand."),
        "pt-BR": ("Escolha uma rolagem abaixo e jogue os dados na bandeja.",
                  "Nenhuma câmera está lendo a bandeja: escolha uma rolagem abaixo e digite os dados à mão."),
        "es": ("Elige una tirada abajo y tira los dados en la bandeja.",
               "Ninguna cámara está leyendo la bandeja: elige una tirada abajo e introduce sus dados a mano.")}
WHY = {"en-US": "teaching needs the camera, and none is reading the tray: connect it, or start dicelens with it",
       "pt-BR": "ensinar precisa da câmera, e nenhuma está lendo a bandeja: conecte-a ou inicie o dicelens com ela",
       "es": "enseñar necesita la cámara, y ninguna está leyendo la bandeja: conéctala o inicia dicelens con ella"}
WIDTHS = (320, 390)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", list(IDLE))
def test_the_live_page_asks_for_dice_by_hand_while_no_camera_reads(phone, controller, locale, width):
    with_camera, without = IDLE[locale]
    page = phone("/", locale=locale, viewport={"width": width, "height": 800})
    expect(page.locator("#outcome-detail")).to_have_text(with_camera)
    controller.set_camera("no camera", "USB camera 5 could not be opened")
    expect(page.locator("#outcome-detail")).to_have_text(without)
    page.reload()
    expect(page.locator("#outcome-detail")).to_have_text(without)
    controller.set_camera("ok")
    expect(page.locator("#outcome-detail")).to_have_text(with_camera)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", list(WHY))
def test_teaching_cannot_start_without_a_camera_and_says_why(phone, controller, locale, width):
    controller.set_camera("no camera", "USB camera 5 could not be opened")
    page = phone("/teach", locale=locale, viewport={"width": width, "height": 800})
    expect(page.locator("#teach-start")).to_be_disabled()
    expect(page.locator("#teach-why")).to_have_text(WHY[locale])
    box = page.locator("#teach-why").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # read whole on the phone
    controller.set_camera("ok")
    expect(page.locator("#teach-start")).to_be_enabled()
    expect(page.locator("#teach-why")).to_be_hidden()


@pytest.mark.parametrize("locale", list(WHY))
def test_a_camera_lost_during_the_round_is_said_on_the_teach_page(phone, controller, locale):
    """The round is on and the camera goes away: the page says why no throw comes, not only
    "throw your set", and stops saying it once the camera is back."""
    page = phone("/teach", locale=locale)
    page.locator("#teach-start").click()
    expect(page.locator("#teach-stop")).to_be_visible()
    controller.set_camera("away", "the camera stopped sending frames")
    expect(page.locator("#teach-why")).to_be_visible()
    expect(page.locator("#teach-why")).to_have_text(WHY[locale])
    controller.set_camera("ok")
    expect(page.locator("#teach-why")).to_be_hidden()
    expect(page.locator("#teach-stop")).to_be_visible()  # the round went on
