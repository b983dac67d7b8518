"""The PIN form is offered only where the device would take it: with no ``pin`` in the config
and ``pin_from_page`` off (the config's default) the page says beforehand where the PIN is
set, in its language, instead of refusing afterwards (trial 8); on the real controller."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from web.security import hash_pin

NOT_FROM_PAGE = {
    "en-US": "The PIN cannot be set from this page: set pin in the config file, or pin_from_page = true "
             "to let the page set it.",
    "pt-BR": "O PIN não pode ser definido nesta página: defina pin no arquivo de configuração, ou "
             "pin_from_page = true para que a página possa defini-lo.",
    "es-ES": "El PIN no se puede poner desde esta página: pon pin en el archivo de configuración, o "
             "pin_from_page = true para que la página pueda ponerlo.",
}
IN_CONFIG = {
    "en-US": "The PIN is set in the config file (pin): change it there.",
    "pt-BR": "O PIN está definido no arquivo de configuração (pin): mude-o lá.",
    "es-ES": "El PIN está puesto en el archivo de configuración (pin): cámbialo allí.",
}


@pytest.fixture
def config(request):
    return request.param


@pytest.fixture
def controller(tmp_path, config):
    with History(tmp_path) as history:
        made = Controller(build_presets(), history, **config)
        yield made
        made.close()


@pytest.mark.parametrize("config", [{"pin_from_page": False}], indirect=True)
@pytest.mark.parametrize("locale", list(NOT_FROM_PAGE))
def test_no_pin_form_when_the_page_cannot_set_the_pin(phone, controller, locale):
    page = phone("/settings", locale=locale)
    expect(page.locator("#pin-not-from-page")).to_have_text(NOT_FROM_PAGE[locale])
    expect(page.locator("#pin-form")).to_be_hidden()
    expect(page.locator("#pin-clear")).to_be_hidden()
    expect(page.locator("#pin-in-config")).to_be_hidden()


@pytest.mark.parametrize("config", [{"pin": hash_pin("1234")}], indirect=True)
@pytest.mark.parametrize("locale", list(IN_CONFIG))
def test_no_pin_form_when_the_config_sets_the_pin(phone, controller, locale):
    page = phone("/settings", locale=locale)
    expect(page.locator("#pin-in-config")).to_have_text(IN_CONFIG[locale])
    expect(page.locator("#pin-form")).to_be_hidden()
    expect(page.locator("#pin-not-from-page")).to_be_hidden()


@pytest.mark.parametrize("config", [{"pin_from_page": True}], indirect=True)
def test_the_pin_form_is_offered_and_works_when_the_page_may_set_the_pin(phone, controller):
    page = phone("/settings")
    expect(page.locator("#pin-not-from-page")).to_be_hidden()
    expect(page.locator("#pin-in-config")).to_be_hidden()
    page.locator("#pin-new").fill("1234")
    page.get_by_role("button", name="Set the PIN").click()
    expect(page.locator("#pin-state")).to_have_text("PIN set")
    assert controller.settings()["pin"]
