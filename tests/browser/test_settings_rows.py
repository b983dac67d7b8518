"""Settings → Rolls refused in the page's language, naming the row a player edited as the
page numbers it ("Tirada 8"), not the config's ``presets[7]`` (trial 8); on the real controller."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import pip_die

SAID = {
    "en-US": ("Add a roll", "Save the rolls", "Roll 8",
              "Error: Roll 8: name must be 1-40 letters, digits or . _ + - starting with a letter or digit (got '')"),
    "es-ES": ("Añadir tirada", "Guardar las tiradas", "Tirada 8",
              "Error: Tirada 8: el nombre debe tener de 1 a 40 letras, dígitos o . _ + - y empezar por una letra "
              "o un dígito (se recibió '')"),
    "pt-BR": ("Adicionar rolagem", "Salvar as rolagens", "Rolagem 8",
              "Erro: Rolagem 8: o nome deve ter de 1 a 40 letras, dígitos ou . _ + - e começar com uma letra "
              "ou um dígito (recebido '')"),
}


@pytest.fixture
def controller(tray_controller):
    return tray_controller(pip_die(3, "red", 100, principal=True))


@pytest.mark.parametrize("locale", list(SAID))
def test_a_roll_saved_without_a_name_is_refused_naming_its_numbered_row(phone, controller, locale):
    add, save, row_name, said = SAID[locale]
    page = phone("/settings", locale=locale)
    page.get_by_role("button", name=add).click()
    row = page.locator("#preset-editor .preset-row").nth(7)
    row.locator(".p-spec").fill('{"count": 3, "kind": "D6"}')
    row.locator(".p-name").fill("")
    page.get_by_role("button", name=save).click()
    expect(page.locator("#toast")).to_have_text(said)
    # the row is numbered as the refusal names it
    shown = row.evaluate("el => getComputedStyle(el, '::before').content")
    assert row.get_attribute("data-roll") == row_name.split()[0] and "counter(roll)" in shown
    assert len(controller.presets()) == 7  # nothing saved


def test_the_rolls_cannot_be_edited_before_they_load(phone, controller):
    """CI, 2026-12-04: "Add a roll" tapped before /api/settings answered added a row that the
    list then replaced; "Save the rolls" then would have saved no roll. Both wait for the list."""
    page = phone("/")
    held = []
    page.route("**/api/settings", lambda route: held.append(route))  # the answer is slow to come
    page.goto("/settings")
    expect(page.locator("#preset-add")).to_be_disabled()
    expect(page.locator("#preset-save")).to_be_disabled()
    assert held
    for route in held:
        route.continue_()
    expect(page.locator("#preset-editor .preset-row")).to_have_count(7)
    expect(page.locator("#preset-add")).to_be_enabled()
    expect(page.locator("#preset-save")).to_be_enabled()
