"""One name per outcome in every language: the seed's own (RULES D6-3 Rolagem Perfeita,
P-5 Falha Crítica), the same on the result, the odds line and the history."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

LOCALES = ["en-US", "pt-BR", "es"]
#: Words the odds line once said for these outcomes ("Perfect roll", "Botch", "Pifia", …).
OTHER_NAMES = re.compile(r"perfect roll|botch|pifia|tirada perfecta", re.IGNORECASE)


@pytest.mark.parametrize(("preset", "name", "shown", "throws"), [
    ("2d6", "Rolagem Perfeita", "Rolagem Perfeita!", [[6, 2], [4]]),  # the principal 6, its extra die (RULES D6-3)
    ("pool5", "Falha Crítica", "Falha Crítica", [[1, 2, 3, 4, 5]]),   # no success, a 1 left over (RULES P-5)
], ids=["perfect-roll", "botch"])
@pytest.mark.parametrize("locale", LOCALES)
def test_an_outcome_has_one_name_on_the_result_the_odds_and_the_history(phone, controller, locale, preset, name,
                                                                        shown, throws):
    page = phone("/", locale=locale)
    controller.arm(preset)
    expect(page.locator("#odds-figures")).to_contain_text(re.compile(name + r" \d"))
    expect(page.locator("#odds-figures")).not_to_contain_text(OTHER_NAMES)
    for values in throws:
        controller.throw_dice(values)
    expect(page.locator("#outcome")).to_have_text(shown)
    history = phone("/history", locale=locale)
    expect(history.locator("#history li").first).to_contain_text(shown)
