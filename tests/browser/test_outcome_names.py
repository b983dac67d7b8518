"""One name per outcome in every language: the seed's own (RULES D6-3 Rolagem Perfeita,
P-5 Falha Crítica), the same on the result, the odds line and the history."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

LOCALES = ["en-US", "pt-BR", "es"]
#: Words the odds line once said for these outcomes ("Perfect roll", "Botch", "Pifia", …).
OTHER_NAMES = re.compile(r"perfect roll|botch|pifia|tirada perfecta", re.IGNORECASE)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_perfect_roll_has_one_name_on_the_result_the_odds_and_the_history(phone, controller, locale):
    page = phone("/", locale=locale)
    controller.arm("2d6")
    expect(page.locator("#odds-figures")).to_contain_text(re.compile(r"Rolagem Perfeita \d"))
    expect(page.locator("#odds-figures")).not_to_contain_text(OTHER_NAMES)
    controller.throw_dice([6, 2])
    controller.throw_dice([4])
    expect(page.locator("#outcome")).to_have_text("Rolagem Perfeita!")
    history = phone("/history", locale=locale)
    expect(history.locator("#history li").first).to_contain_text("Rolagem Perfeita!")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_botch_has_one_name_on_the_result_the_odds_and_the_history(phone, controller, locale):
    page = phone("/", locale=locale)
    controller.arm("pool5")
    expect(page.locator("#odds-figures")).to_contain_text(re.compile(r"Falha Crítica \d"))
    expect(page.locator("#odds-figures")).not_to_contain_text(OTHER_NAMES)
    controller.throw_dice([1, 2, 3, 4, 5])       # no success, a 1 left over (RULES P-5)
    expect(page.locator("#outcome")).to_have_text("Falha Crítica")
    history = phone("/history", locale=locale)
    expect(history.locator("#history li").first).to_contain_text("Falha Crítica")
