"""A roll's note in the phone's language (#18): the history keeps it as a template and its
values (a Phrase), the server words it per phone; a row kept with a plain English note
(before notes were phrases) shows it as it is."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets

#: RULES T-3: a roll armed again before it was complete is closed as abandoned.
ABANDONED = {"en-US": "abandoned: 2D6 was armed before this roll was complete",
             "pt-BR": "abandonada: 2D6 foi armada antes de esta rolagem terminar",
             "es": "abandonada: 2D6 se preparó antes de que esta tirada terminara"}
#: RULES D6-4, P-3: a perfect roll's principal die corrected to a 3: its extra die no longer counts.
SURPLUS = {"en-US": "dice after die 2 no longer count after the correction (kept, they count again if a "
                    "correction asks for dice)",
           "pt-BR": "os dados depois do dado 2 não contam mais depois da correção (mantidos, voltam a contar "
                    "se uma correção pedir dados)",
           "es": "los dados después del dado 2 ya no cuentan tras la corrección (guardados, vuelven a contar "
                 "si una corrección pide dados)"}
OLD_NOTE = "abandoned: dicelens restarted 45 minutes after its last step"


@pytest.fixture
def history(tmp_path):
    with History(tmp_path) as history:
        yield history


@pytest.fixture
def controller(history):
    """The real controller (the notes are its and the history's), for every fixture here."""
    return Controller(build_presets(), history)


@pytest.mark.parametrize("locale", ABANDONED)
def test_an_abandoned_rolls_note_is_in_the_phones_language(phone, controller, locale):
    page = phone("/", locale=locale)
    controller.arm("2d6")
    controller.enter_dice([6, 2])  # a perfect roll: it waits for the principal die again (RULES D6-4)
    controller.arm("2d6")          # armed again before it was complete
    expect(page.locator("#roll-note")).to_have_text(ABANDONED[locale])  # through the event stream
    page.reload()
    expect(page.locator("#roll-note")).to_have_text(ABANDONED[locale])  # through the state and the API
    history = phone("/history", locale=locale)
    expect(history.locator(".note")).to_have_text(ABANDONED[locale])


@pytest.mark.parametrize("locale", SURPLUS)
def test_the_note_of_dice_a_correction_made_surplus_is_in_the_phones_language(phone, controller, locale):
    controller.arm("2d6")
    controller.enter_dice([6, 2])
    controller.enter_dice([4])                  # the extra die of the perfect roll (RULES D6-4)
    page = phone("/", locale=locale)
    roll = controller.rolls(limit=1)[0]
    controller.correct(roll["id"], 0, value=3)  # no perfect roll: the extra die is kept, not counted
    expect(page.locator("#roll-note")).to_have_text(SURPLUS[locale])
    expect(phone("/history", locale=locale).locator(".note")).to_have_text(SURPLUS[locale])


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es"])
def test_an_older_rows_plain_english_note_still_shows(phone, controller, history, locale):
    controller.arm("1d6")
    controller.enter_dice([4])
    roll = controller.rolls(limit=1)[0]
    history.save({**roll, "note": OLD_NOTE})    # as a row written before notes were phrases
    expect(phone("/history", locale=locale).locator(".note")).to_have_text(OLD_NOTE)
    expect(phone("/", locale=locale).locator("#roll-note")).to_have_text(OLD_NOTE)
