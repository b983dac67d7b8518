"""Settings' "use the die in the tray as the principal die's colour" over the real controller
(RULES D6-2a) at a phone's width, in the three languages: one die in sight becomes the
principal colour, measured, and two dice in sight are refused with the reason."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from vision.synthetic import render_tray

WORDS = {
    "en-US": ("Use the die in the tray as the principal die's colour",
              "Principal colour: purple, measured on your die",
              "Error: 2 dice in sight: leave the principal die alone in the tray"),
    "pt-BR": ("Usar o dado da bandeja como cor do dado principal",
              "Cor do dado principal: roxo, medida no seu dado",
              "Erro: 2 dados à vista: deixe só o dado principal na bandeja"),
    "es-ES": ("Usar el dado de la bandeja como color del dado principal",
              "Color del dado principal: morado, medido en tu dado",
              "Error: 2 dados a la vista: deja solo el dado principal en la bandeja"),
}


@pytest.fixture
def controller(real_controller):
    """The real controller replaces the fake one for every fixture of this module."""
    return real_controller


def settle(controller, colors):
    image, _ = render_tray(7, count=len(colors), colors=list(colors), rotation=False)
    controller.on_settled(image, time.monotonic() + 1)


@pytest.mark.parametrize("locale", list(WORDS))
def test_the_die_in_the_tray_becomes_the_principal_colour(phone, controller, locale):
    button, measured, refused = WORDS[locale]
    settle(controller, ["blue", "white"])
    page = phone("/settings", locale=locale)
    page.get_by_role("button", name=button).click()
    expect(page.locator("#toast")).to_have_text(refused)
    assert controller.settings()["principal_measured"] is None

    settle(controller, ["purple"])
    page.get_by_role("button", name=button).click()
    expect(page.locator("#principal-color")).to_have_text(measured)
    assert controller.settings()["principal_measured"]["name"] == "purple"
    page.reload()  # kept: the page opens with it
    expect(page.locator("#principal-color")).to_have_text(measured)
