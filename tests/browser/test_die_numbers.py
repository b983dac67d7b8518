"""A die a prompt names by its number is the die the live page shows with that number, though
the page lists the principal die first (RULES D6-2): under accept_leaning (RULES T-5, T-1)
the leaning die lay first in the tray, the principal die second."""

from __future__ import annotations

import time

import numpy as np
import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from vision.reading import DieReading, TrayReading


def _die(value, color, x, principal=False):
    return DieReading(value=value, sides=6, box=(x, 100, x + 60, 160), center=(x + 30, 130), color=color,
                      confidence=0.9, unreadable=None if value else "cocked", principal=principal)


def _read(image, principal_color):  # a white die leaning on the wall, then the red principal 3
    return TrayReading(dice=[_die(None, "white", 100), _die(3, "red", 300, principal=True)], size=(64, 48))


@pytest.fixture
def controller(tmp_path):
    with History(tmp_path) as history:
        yield Controller(build_presets(), history, reader=_read, annotate=lambda image, reading, labels=None: image)


@pytest.mark.parametrize(("lang", "prompt", "number"), [
    ("en", "Die 1 leans: enter its top face.", "Die 1"),
    ("pt_BR", "O dado 1 está apoiado: informe a face de cima.", "Dado 1"),
    ("es", "El dado 1 está apoyado: indica su cara de arriba.", "Dado 1"),
])
def test_the_leaning_die_the_prompt_names_is_the_one_the_page_shows_with_that_number(phone, controller, lang,
                                                                                     prompt, number):
    controller.update_settings(cocked_dice="accept_leaning")
    controller.on_status("ok")
    page = phone(f"/?lang={lang}")
    controller.arm("2d6")
    controller.on_settled(np.zeros((48, 64, 3), np.uint8), time.monotonic() + 1)
    expect(page.locator("#prompt")).to_have_text(prompt)
    dice = page.locator("#dice .die")
    expect(dice.first.locator(".face")).to_have_text("3")        # the principal die is listed first
    named = dice.filter(has=page.locator(".num", has_text=number))
    expect(named).to_have_count(1)
    expect(named.locator(".face")).to_have_text("?")              # the leaning die, its number in sight
    expect(named).to_be_visible()
