"""What a screen reader is told: a prompt that changes with the state is a status (read when
the reader is free), not an alert (which interrupts, and is for a refusal: the toast); the
keypads are groups named by their dialog's title."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


def test_the_live_prompt_is_a_status_and_the_keypad_a_named_group(phone, controller):
    page = phone("/")
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    controller.arm("2d6")
    expect(page.get_by_role("status").filter(has_text="2D6: throw the dice.")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    page.click("#hand-open")
    expect(page.get_by_role("group", name="Enter dice by hand").get_by_role("button")).to_have_count(6)
    page.get_by_role("group", name="Enter dice by hand").get_by_role("button", name="3").click()
    page.get_by_role("group", name="Enter dice by hand").get_by_role("button", name="4").click()
    page.click("#keypad-send")
    expect(page.locator("#big")).to_have_text("7")
    page.locator("#dice .die").first.click()
    expect(page.get_by_role("group", name=re.compile(r"^Die [12] · entered by hand: [34]$")).get_by_role("button")).to_have_count(6)


def test_the_fights_prompts_are_statuses(phone, fight):
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 5, "Saqueador": 2})
    fight.start_attack("Brann", "Saqueador")
    page = phone("/combat")
    expect(page.get_by_role("status").filter(
        has_text="Attacker (Brann): roll Body d8 and the Destiny d20")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)


#: locale → (the button of die 2, white, and what the page then says)
PRINCIPAL = {
    "en-US": ("Die 2 · white", "Principal colour: white"),
    "pt-BR": ("Dado 2 · branco", "Cor do dado principal: branco"),
    "es-ES": ("Dado 2 · blanco", "Color del dado principal: blanco"),
}


@pytest.mark.parametrize("locale", PRINCIPAL)
def test_the_principal_colour_is_chosen_without_tapping_the_photo(phone, controller, locale):
    """The photo can only be tapped; its dice are buttons too, for a keyboard or a screen reader."""
    controller.arm("2d6")
    controller.throw_dice([3, 5])  # die 1 red, die 2 white
    page = phone("/settings", locale=locale)
    name, said = PRINCIPAL[locale]
    die = page.get_by_role("button", name=name)
    die.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#principal-color")).to_have_text(said)
    expect(die).to_have_attribute("aria-pressed", "true")
    assert controller.settings()["principal_color"] == "white"
