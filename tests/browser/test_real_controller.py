"""The pages over the real controller, history (SQLite) and vision: the roll dicts
the page renders are the ones `dicelens serve` makes, not the fake's."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from vision.synthetic import render_tray


@pytest.fixture
def controller(tmp_path):
    """The real controller replaces the fake one for every fixture of this module."""
    with History(tmp_path) as history:
        yield Controller(build_presets(), history)


@pytest.fixture
def real_page(phone):
    page = phone("/")
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    return page


def settle(controller, values, colors, seed=7):
    """A settled synthetic tray handed to the controller, as the camera loop does."""
    image, _ = render_tray(seed, values=list(values), colors=list(colors), rotation=False)
    controller.on_settled(image, time.monotonic() + 1)


def test_perfect_roll_from_the_camera_extra_die_by_hand_then_corrected(real_page, controller):
    page = real_page
    page.get_by_role("button", name="2D6", exact=True).click()
    expect(page.locator("#prompt")).to_have_text("2D6: throw the dice.")
    settle(controller, (6, 2), ("red", "white"))
    expect(page.locator("#outcome")).to_have_text("Rolagem Perfeita!")
    expect(page.locator("#prompt")).to_have_text("Roll the principal die again (counts as D3).")
    expect(page.locator("#photo")).to_be_visible()

    page.get_by_role("button", name="By hand", exact=True).click()
    page.locator("#keypad .key", has_text="4").click()        # an extra 4 counts 2
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#big")).to_have_text("10")
    extra = page.locator(".die[data-role=extra]")
    expect(extra).to_contain_text("counts 2")
    expect(extra).to_contain_text("by hand")

    page.locator(".die[data-role=secondary]").click()
    page.locator("#fix-keypad").get_by_role("button", name="5", exact=True).click()
    expect(page.locator("#big")).to_have_text("13")
    roll = controller.rolls(limit=1)[0]
    assert roll["total"] == 13 and roll["corrections"][-1]["to"] == 5


def test_pool_by_hand_with_a_ten_rerolled(real_page, controller):
    page = real_page
    page.get_by_role("button", name="pool 5", exact=False).click()
    page.get_by_role("button", name="By hand", exact=True).click()
    for face in ("0", "1", "7", "3", "8"):
        page.locator("#keypad .key", has_text=face).click()
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#prompt")).to_have_text("Reroll your 10s: 1 more dice.")
    page.get_by_role("button", name="By hand", exact=True).click()
    page.locator("#keypad .key", has_text="9").click()
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#big")).to_have_text("4")
    expect(page.locator("#summary")).to_have_text("successes: 4 · cancelled: 1 · tens: 1 · rerolls: 1")
