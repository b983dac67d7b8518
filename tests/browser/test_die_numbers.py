"""A die a prompt names by its number is the die the live page shows with that number, though
the page lists the principal die first (RULES D6-2): under accept_leaning (RULES T-5, T-1)
the leaning die lay first in the tray, the principal die second."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import pip_die, thrown_2d6


@pytest.fixture
def controller(tray_controller):  # a white die leaning on the wall, then the red principal 3
    return tray_controller(pip_die(None, "white", 100), pip_die(3, "red", 300, principal=True))


@pytest.mark.parametrize(("lang", "prompt", "number"), [
    ("en", "Die 1 leans: enter its top face.", "Die 1"),
    ("pt_BR", "O dado 1 está apoiado: informe a face de cima.", "Dado 1"),
    ("es", "El dado 1 está apoyado: indica su cara de arriba.", "Dado 1"),
])
def test_the_leaning_die_the_prompt_names_is_the_one_the_page_shows_with_that_number(phone, controller, lang,
                                                                                     prompt, number):
    page = thrown_2d6(controller, phone, lang, "accept_leaning")
    expect(page.locator("#prompt")).to_have_text(prompt)
    dice = page.locator("#dice .die")
    expect(dice.first.locator(".face")).to_have_text("3")        # the principal die is listed first
    named = dice.filter(has=page.locator(".num", has_text=number))
    expect(named).to_have_count(1)
    expect(named.locator(".face")).to_have_text("?")              # the leaning die, its number in sight
    expect(named).to_be_visible()
