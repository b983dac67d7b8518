"""The page's side of the table's failure reports (issue #24, #19 item 2; the table and its
sources: tests/device/test_table_failures.py), over the real controller, history and
vision, in the three languages of the table."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from vision.synthetic import render_tray

#: locale → (abandoned, no die moved + the extra D3 asked for)
WORDS = {
    "en-US": ("abandoned", "No die has moved since the last reading. Roll the principal die again (counts as D3)."),
    "pt-BR": ("abandonada", "Nenhum dado se moveu desde a última leitura. Role o dado principal de novo (conta como D3)."),
    "es-ES": ("abandonada", "Ningún dado se ha movido desde la última lectura. Tira el dado principal otra vez "
                            "(cuenta como D3)."),
}


@pytest.fixture
def controller(tmp_path):
    """The real controller replaces the fake one for every fixture of this module."""
    with History(tmp_path) as history:
        yield Controller(build_presets(), history)


def settle(controller, values=(6, 2), colors=("red", "white")):
    """The same synthetic tray each time, settled, as the camera loop hands it over."""
    image, _ = render_tray(7, values=list(values), colors=list(colors), rotation=False)
    controller.on_settled(image, time.monotonic() + 1)


@pytest.mark.parametrize("locale", WORDS)
def test_the_extra_die_asked_for_survives_a_throw_with_no_die_moved(phone, controller, locale):
    page = phone("/", locale=locale)
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    controller.arm("2d6")
    settle(controller)
    expect(page.locator("#prompt")).to_have_text(WORDS[locale][1].split(". ", 1)[1])
    settle(controller)  # the tray settles again, nothing thrown
    expect(page.locator("#prompt")).to_have_text(WORDS[locale][1])
    assert controller.state()["needs"]["kind"] == "D3"


@pytest.mark.parametrize("locale", WORDS)
def test_an_abandoned_roll_is_shown_as_abandoned(phone, controller, locale):
    controller.arm("2d6")
    settle(controller)  # a perfect roll, waiting for its extra D3
    controller.arm("1d6")  # another preset armed mid-chain
    roll = controller.rolls(limit=1)[0]
    assert roll["note"].startswith("abandoned") and not roll["complete"]
    page = phone("/", locale=locale)
    expect(page.locator("#big")).to_have_text("–")
    expect(page.locator("#big")).to_have_attribute("data-waiting", "false")
    expect(page.locator("#big-unit")).to_have_text("")
    expect(page.locator("#outcome")).to_have_text(WORDS[locale][0])  # not "Rolagem Perfeita!": never finished
    recent = page.locator(f"#recent [data-roll-id='{roll['id']}']")
    expect(recent.locator(".recent-big")).to_have_text("–")
    expect(recent.locator("strong")).to_have_text(f"2D6 · {WORDS[locale][0]}")
    history = phone("/history", locale=locale)
    row = history.locator(f"#history [data-roll-id='{roll['id']}']")
    expect(row.locator(".recent-big")).to_have_text("–")
    expect(row.locator("strong")).to_have_text(f"2D6 · {WORDS[locale][0]}")


#: Records every text the screen-reader box is given (announce() clears it, then sets it).
RECORD_ANNOUNCEMENTS = """() => {
  window.announced = [];
  new MutationObserver(() => {
    const text = document.querySelector("#announce").textContent;
    if (text) window.announced.push(text);
  }).observe(document.querySelector("#announce"), { childList: true, characterData: true, subtree: true });
}"""


#: 31 rolls by hand while the page's script is held (synchronous requests): the stream's
#: events wait in the browser, as on a phone asleep, and come all at once when it wakes.
ROLLS_WHILE_ASLEEP = """() => {
  for (const value of [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 2]) {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/dice", false);
    request.setRequestHeader("Content-Type", "application/json");
    request.send(JSON.stringify({ values: [value] }));
    if (request.status !== 200) throw new Error(request.responseText);
  }
}"""


def test_a_phone_that_slept_announces_only_the_newest_roll(phone, controller):
    page = phone("/")
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    controller.on_status("ok")  # a camera is there: the prompt asks for a throw, not dice by hand
    controller.arm("1d6")
    expect(page.locator("#prompt")).to_have_text("1D6: throw the dice.")
    page.evaluate(RECORD_ANNOUNCEMENTS)
    page.evaluate(ROLLS_WHILE_ASLEEP)
    assert len(controller.rolls(limit=50)) == 31
    expect(page.locator("#big")).to_have_text("2")
    expect(page.locator("#announce")).to_have_text("New roll: 2 total")
    expect(page.locator("#recent li")).to_have_count(12)
    assert page.evaluate("() => window.announced") == ["New roll: 2 total"]
