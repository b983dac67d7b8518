"""What a screen reader is told: a prompt that changes with the state is a status (read when
the reader is free), not an alert (which interrupts, and is for a refusal: the toast); the
keypads are groups named by their dialog's title."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from device.combat import CombatSession
from web import combat, create_app

from .conftest import LiveServer


@pytest.fixture
def fight(tmp_path):
    return CombatSession(tmp_path / "data")


@pytest.fixture
def server(controller, fight):
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.5, "SSE_RETRY_MS": 300})
    with LiveServer(combat.attach(app, fight)) as live:
        yield live


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
    expect(page.get_by_role("group", name=re.compile(r"^Die [12] · read [34]$")).get_by_role("button")).to_have_count(6)


def test_the_fights_prompts_are_statuses(phone, fight):
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 5, "Saqueador": 2})
    fight.start_attack("Brann", "Saqueador")
    page = phone("/combat")
    expect(page.get_by_role("status").filter(
        has_text="Attacker (Brann): roll Body d8 and the Destiny d20")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
