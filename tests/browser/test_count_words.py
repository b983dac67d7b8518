"""A count and its noun agree on the live page in each language (trial fault 8: "1
successes", "1 sucessos", "1 éxitos" under the big number of a one-success pool)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

#: locale → the unit under 1 and under 2 successes.
UNITS = {"en-US": ("success", "successes"), "pt-BR": ("sucesso", "sucessos"), "es": ("éxito", "éxitos")}


@pytest.fixture
def controller(real_controller):
    """The real controller replaces the fake one for every fixture of this module."""
    return real_controller


@pytest.mark.parametrize("locale", UNITS)
def test_the_big_numbers_unit_agrees_with_the_successes(phone, controller, locale):
    one, many = UNITS[locale]
    page = phone("/", locale=locale)
    controller.arm("pool5")
    controller.enter_dice([7, 2, 3, 4, 5])     # one success (RULES P-2)
    expect(page.locator("#big")).to_have_text("1")
    expect(page.locator("#big-unit")).to_have_text(one)
    controller.arm("pool5")
    controller.enter_dice([7, 8, 3, 4, 5])     # two
    expect(page.locator("#big")).to_have_text("2")
    expect(page.locator("#big-unit")).to_have_text(many)
