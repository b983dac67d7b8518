"""A past roll keeps the label it was rolled under after its preset is changed, a free roll
its preset's, the built-in one's or one the config gave it (README: History): the history
page, the live page's roll line and its recent list, in each language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets

#: locale → (the label pool5 had when rolled, as that page words it; the label it has now).
LABELS = {"en-US": ("pool 3 · difficulty 2", "pool 5 · difficulty 1"),
          "pt-BR": ("parada 3 · dificuldade 2", "parada 5 · dificuldade 1"),
          "es": ("reserva 3 · dificultad 2", "reserva 5 · dificultad 1")}


#: A free roll of the config with a label of its own.
MESA = {"name": "mesa", "system": "free", "label": "Mesa livre"}


@pytest.fixture
def controller(tmp_path):
    """The real controller (its presets and roll dicts, :data:`MESA` among them), in place of
    the fake one."""
    with History(tmp_path) as history:
        yield Controller(build_presets([MESA]), history)


@pytest.mark.parametrize("locale", LABELS)
def test_past_roll_keeps_the_label_it_was_rolled_under(phone, controller, locale):
    then, now = LABELS[locale]
    presets = [p if p["name"] != "pool5" else {"name": "pool5", "system": "pool", "size": 3, "difficulty": 2}
               for p in controller.presets()]
    controller.update_settings(presets=presets)
    controller.arm("pool5")
    controller.enter_dice([7, 8, 2])
    controller.update_settings(presets=None)         # the default rolls again: pool5 is 5 dice
    controller.arm("pool5")                          # armed: the preset's label as it is now

    page = phone("/history", locale=locale)
    row = page.locator("#history li").first
    expect(row.locator("strong")).to_contain_text(then)
    expect(row).not_to_contain_text(now)

    page = phone("/", locale=locale)
    expect(page.locator("#roll-meta")).to_contain_text(then)
    expect(page.locator("#roll-meta")).not_to_contain_text(now)
    expect(page.locator("#recent li").first.locator("strong")).to_contain_text(then)
    expect(page.locator("#machine-state")).to_contain_text(now)


#: locale → a free roll's label as that page words it (the state line's, not the rules' "3D6").
FREE = {"en-US": "Free roll", "pt-BR": "Rolagem livre", "es": "Tirada libre"}


@pytest.mark.parametrize("locale", FREE)
def test_a_free_roll_is_named_by_its_preset(phone, controller, locale):
    controller.arm("free")
    controller.enter_dice([3, 5, 2])

    page = phone("/", locale=locale)
    expect(page.locator("#machine-state")).to_contain_text(FREE[locale])
    expect(page.locator("#roll-meta")).to_contain_text(FREE[locale])
    expect(page.locator("#recent li").first.locator("strong")).to_have_text(FREE[locale])
    page = phone("/history", locale=locale)
    expect(page.locator("#history li").first.locator("strong")).to_contain_text(FREE[locale])
    expect(page.locator("#history li").first).not_to_contain_text("3D6")


@pytest.mark.parametrize("locale", FREE)
def test_a_free_roll_of_the_config_is_named_by_its_own_label(phone, controller, locale):
    """Not "Free roll" (nor the rules' "2D6"), which the built-in free roll beside it keeps."""
    controller.arm("mesa")
    controller.enter_dice([3, 5])
    controller.arm("free")
    controller.enter_dice([4, 1, 2])

    page = phone("/", locale=locale)
    expect(page.locator("#recent li strong")).to_contain_text([FREE[locale], "Mesa livre"])
    page.locator("#recent li button").nth(1).click()  # the config's free roll on the roll line
    expect(page.locator("#roll-meta")).to_contain_text("Mesa livre")
    page = phone("/history", locale=locale)
    expect(page.locator("#history li strong")).to_contain_text([FREE[locale], "Mesa livre"])
    expect(page.locator("#history")).not_to_contain_text("2D6")
