"""Settings as a new user found it: the cocked-dice choices laid out as choices, the photo's
die buttons showing the principal colour from the start, and a bad rule in the page's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

LOCALES = ("en-US", "pt-BR", "es-ES")


@pytest.mark.parametrize("width", [320, 390])
def test_the_cocked_dice_choices_are_small_radios_in_one_column(phone, width):
    page = phone("/settings")
    page.set_viewport_size({"width": width, "height": 844})
    boxes = [radio.bounding_box() for radio in page.locator("#cocked-form input[type=radio]").all()]
    assert len(boxes) == 3
    assert len({round(box["x"]) for box in boxes}) == 1  # one column, left-aligned
    assert all(box["width"] < 40 and box["height"] < 40 for box in boxes)  # a radio, not a text field


@pytest.mark.parametrize("locale", LOCALES)
def test_the_principal_colour_shows_pressed_when_the_page_opens(phone, controller, locale):
    controller.arm("2d6")
    controller.throw_dice([3, 5])  # die 1 red (the principal colour), die 2 white
    page = phone("/settings", locale=locale)
    expect(page.locator("#frame-dice button[data-color=red]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#frame-dice button[data-color=white]")).to_have_attribute("aria-pressed", "false")


BAD_JSON = {
    "en-US": ("Save the rolls", "Error: The rule settings are not valid JSON: fix them first."),
    "pt-BR": ("Salvar as rolagens", "Erro: As regras não são JSON válido: corrija-as primeiro."),
    "es-ES": ("Guardar las tiradas", "Error: Las reglas no son JSON válido: corrígelas primero."),
}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_rule_that_is_not_json_is_refused_in_the_page_s_language(phone, controller, locale):
    page = phone("/settings", locale=locale)
    save, said = BAD_JSON[locale]
    page.locator("#preset-editor .preset-row").nth(2).locator(".p-spec").fill("{bad json")
    page.get_by_role("button", name=save).click()
    expect(page.locator("#toast")).to_have_text(said)
    assert len(controller.presets()) == 3  # nothing sent


@pytest.mark.parametrize(("locale", "one", "two"), [
    ("en-US", "Your dice: 1 example; read right 90 % vs 50 % without",
     "Your dice: 2 examples; read right 90 % vs 50 % without"),
    ("pt-BR", "Seus dados: 1 exemplo; lidos certo 90 % contra 50 % sem eles",
     "Seus dados: 2 exemplos; lidos certo 90 % contra 50 % sem eles"),
    ("es-ES", "Tus dados: 1 ejemplo; leídos bien 90 % frente a 50 % sin ellos",
     "Tus dados: 2 ejemplos; leídos bien 90 % frente a 50 % sin ellos"),
])
def test_the_adaptations_examples_are_counted_in_the_singular_and_the_plural(phone, controller, locale, one, two):
    for examples, said in ((1, one), (2, two)):
        controller.adaptation = {"used": True, "examples": examples, "right": 0.9, "shipped": 0.5, "why": ""}
        page = phone("/settings", locale=locale)
        expect(page.locator("#examples-adaptation")).to_have_text(said)


@pytest.mark.parametrize(("locale", "said"), [
    ("en-US", "Not used yet: it reads the taught photos held out no better than the shipped reader"),
    ("pt-BR", "Ainda não usados: com as fotos ensinadas postas à parte, não lê melhor que o leitor de fábrica"),
    ("es-ES", "Aún no se usan: con las fotos enseñadas apartadas, no lee mejor que el lector de fábrica"),
])
def test_why_the_examples_are_not_used_is_said_in_the_pages_language(phone, controller, locale, said):
    controller.adaptation = {"used": False, "examples": 8, "right": 0.5, "shipped": 0.6,
                             "why": "it reads the taught photos held out no better than the shipped reader"}
    page = phone("/settings", locale=locale)
    expect(page.locator("#examples-adaptation")).to_have_text(said)
