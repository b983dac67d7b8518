"""The correction dialog offers only what can be done and says where a die's value came
from (trial fault 7): a past roll takes no throw, so its dialog has no "Cocked: throw it
again" (the API refuses it, 409); a die entered by hand is titled so, never "read 4"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

#: locale → the title of die 2 entered by hand as 4, and the cocked button's name.
WORDS = {"en-US": ("Die 2 · entered by hand: 4", "Cocked: throw it again"),
         "pt-BR": ("Dado 2 · digitado à mão: 4", "Inclinado: jogue de novo"),
         "es": ("Dado 2 · introducido a mano: 4", "Montado: tíralo de nuevo")}


@pytest.fixture
def controller(real_controller):
    """The real controller replaces the fake one for every fixture of this module."""
    return real_controller


@pytest.mark.parametrize("locale", WORDS)
def test_a_past_rolls_dialog_offers_no_throw_and_names_a_die_by_hand(phone, controller, locale):
    title, cocked = WORDS[locale]
    controller.arm("2d6")
    past = controller.enter_dice([3, 4])["latest_roll"]
    controller.arm("1d6")
    controller.enter_dice([2])
    page = phone("/", locale=locale)
    # By id: a total such as "7" is also in a time such as 16:07 on the same button.
    page.locator(f"#recent [data-roll-id='{past['id']}'] button").click()
    page.locator("#dice .die[data-index='1']").click()
    expect(page.locator("#fix-dialog")).to_be_visible()
    expect(page.locator("#fix-title")).to_have_text(title)
    expect(page.locator("#fix-cocked")).to_be_hidden()
    assert controller.roll(past["id"]) == past


def test_the_current_rolls_dialog_offers_the_throw_again(phone, controller):
    controller.arm("2d6")
    controller.enter_dice([3, 4])
    page = phone("/")
    page.locator("#dice .die[data-index='1']").click()
    expect(page.locator("#fix-title")).to_have_text("Die 2 · entered by hand: 4")
    page.get_by_role("button", name="Cocked: throw it again").click()
    expect(page.locator("#fix-dialog")).to_be_hidden()
    assert controller.state()["latest_roll"]["dice"][1]["unreadable"] == "cocked"
