"""RULES T-5 rethrow_set with one die: the die that did not move is counted in the singular
on the live page, its verb too (a pt-BR page said '1 … não se moveram', 'jogue todos os 1')."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import pip_die, settle


@pytest.fixture
def controller(tray_controller):  # every frame: one white die the reader saw cocked (T-1)
    return tray_controller(pip_die(None, "white", 300))


@pytest.mark.parametrize(("lang", "unmoved"), [
    ("en", "1 of the voided throw's dice did not move: throw it again."),
    ("pt_BR", "1 dos dados da jogada anulada não se moveu: jogue-o de novo."),
    ("es", "1 de los dados de la tirada anulada no se movió: tíralo de nuevo."),
])
def test_one_die_that_did_not_move_is_said_in_the_singular(phone, controller, lang, unmoved):
    controller.update_settings(cocked_dice="rethrow_set")
    controller.on_status("ok")
    page = phone(f"/?lang={lang}")
    controller.arm("1d6")
    settle(controller)
    settle(controller, after=2)  # the same tray: nothing moved
    expect(page.locator("#prompt")).to_have_text(unmoved)
