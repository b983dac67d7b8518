"""The teaching round's Throw (issue 17 item 2) on /teach with a camera that throws by itself,
as the simulated one of a desktop: in headless Chromium at a phone viewport, in the three
languages, over the real controller: the throw is the round's, its dice shown with their crops."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from tests.device.controller_fakes import Clock, FakeReader, die, fakes, numbered, photo


@pytest.fixture
def controller(tmp_path):
    """The real controller with a camera that throws d6s by itself, as the simulated one; each
    throw settles at once as a d10 7 and a pip d6 3."""
    reader, clock = FakeReader(), Clock()

    def throw(count):
        controller.on_settled(photo(reader, numbered(7, "d10", x=100, y=100), die(3, "white", 300, 100)), clock.tick())

    with History(tmp_path) as history:
        controller = Controller(build_presets(), history, **fakes(reader), clock=clock)
        controller.attach_camera(throw=throw, read_now=lambda: None, can_throw=True,
                                 can_throw_dice=lambda sides: sides == 6)
        controller.on_status("ok")
        yield controller
        controller.close()


@pytest.mark.parametrize(("locale", "start", "throw", "held"), [
    ("en-US", "Start teaching", "Throw", "Check the dice below."),
    ("pt-BR", "Começar a ensinar", "Jogar", "Confira os dados abaixo."),
    ("es-ES", "Empezar a enseñar", "Tirar", "Revisa los dados de abajo."),
])
def test_a_desktop_throws_from_the_teach_page_and_sees_the_crops(phone, controller, locale, start, throw, held):
    controller.arm("pool5")                                # a roll the simulated camera cannot throw
    page = phone("/teach", locale=locale)
    button = page.get_by_role("button", name=throw, exact=True)
    expect(button).to_be_visible()
    expect(button).to_be_disabled()                        # the round is off: a throw would be the roll's
    page.get_by_role("button", name=start).click()
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#teach-status")).to_have_text(held)
    dice = page.locator("#teach-dice .teach-die")
    expect(dice.locator(".teach-value")).to_have_text(["7", "3"])
    for n in range(2):
        expect(dice.nth(n).locator("img")).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))
    expect(button).to_be_disabled()                        # a throw held: the round takes no other
    state = controller.state()
    assert (state["state"], state["preset"], state["latest_roll"]) == ("armed", "pool5", None)
