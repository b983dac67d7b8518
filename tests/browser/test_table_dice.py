"""The table's dice on the page (issue 17), over the real controller, history and vision at a
phone viewport, in the three languages: a die the reader missed tapped in on a finished
roll's photo joins the roll and becomes an example; Settings lists it (its crop, the count
per kind, what the adaptation reports) and removes it, leaving the roll as it was."""

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
    """The real controller replaces the fake one for every fixture of this module (no fit
    starts while the test runs: the refit waits an hour for quiet)."""
    with History(tmp_path) as history:
        made = Controller(build_presets(), history, refit_seconds=3600)
        yield made
        made.close()


#: locale → the tags of a die entered by hand (one tapped in where the reader missed it too) and
#: of a reading corrected.
BY_HAND = {"en-US": ("by hand", "corrected"), "pt-BR": ("à mão", "corrigido"), "es-ES": ("a mano", "corregido")}
#: locale → the correction line of the die tapped in (nothing was read there to correct).
ADDED = {"en-US": "Die 3 added by hand: 5", "pt-BR": "Dado 3 adicionado à mão: 5", "es-ES": "Dado 3 añadido a mano: 5"}


@pytest.mark.parametrize(("locale", "add", "title", "heading", "not_yet", "remove", "none", "kind", "alt"), [
    ("en-US", "Add a die the reader missed", "The missed die: its value", "Examples of your dice",
     "Not used yet: not fitted yet", "Remove example 1", "No examples yet.", "pip d6",
     "Example 1: a pip d6 showing 5"),
    ("pt-BR", "Adicionar um dado que o leitor não viu", "O dado que faltou: seu valor", "Exemplos dos seus dados",
     "Ainda não usados: ainda não ajustados", "Remover o exemplo 1", "Ainda não há exemplos.", "d6 de pontos",
     "Exemplo 1: um d6 de pontos mostrando 5"),
    ("es-ES", "Añadir un dado que el lector no vio", "El dado que faltó: su valor", "Ejemplos de tus dados",
     "Aún no se usan: aún no ajustados", "Quitar el ejemplo 1", "Aún no hay ejemplos.", "d6 de puntos",
     "Ejemplo 1: un d6 de puntos que muestra 5"),
])
def test_a_missed_die_tapped_in_then_its_example_removed_in_settings(phone, controller, locale, add, title,
                                                                      heading, not_yet, remove, none, kind, alt):
    """The examples name their kind as the teach page does, in the page's language (never
    the reader's code "d6-pips")."""
    page = phone("/", locale=locale)
    controller.arm("free")
    image, _ = render_tray(7, values=[3, 4], colors=["red", "white"], rotation=False)  # 640×640 pixels
    controller.on_settled(image, time.monotonic() + 1)
    expect(page.locator("#big")).to_have_text("7")
    photo = page.locator("#photo")
    expect(photo).to_be_visible()
    page.get_by_role("button", name=add).click()
    box = photo.bounding_box()
    assert box is not None
    photo.click(position={"x": 120 * box["width"] / 640, "y": 120 * box["height"] / 640})  # floor, no die read
    expect(page.locator("#add-title")).to_have_text(title)
    page.locator("#add-keypad").get_by_role("button", name="5", exact=True).click()
    expect(page.locator("#big")).to_have_text("12")
    expect(page.locator(".die")).to_have_count(3)
    expect(page.locator("#photo-dialog")).not_to_be_visible()  # the tap added a die, it opened no photo
    roll = controller.rolls(limit=1)[0]
    added = roll["dice"][2]
    assert added["natural"] == 5 and not added["corrected"] and added["box"][0] < 120 < added["box"][2]
    # nothing read it, so nothing was corrected: by hand only, on the live page and the history's
    by_hand, corrected = BY_HAND[locale]
    expect(page.locator('.die[data-index="2"] .tags')).to_contain_text(by_hand)
    expect(page.locator('.die[data-index="2"] .tags')).not_to_contain_text(corrected)
    expect(page.locator("#corrections li")).to_have_count(1)
    expect(page.locator("#corrections li")).to_contain_text(ADDED[locale])
    history = phone("/history", locale=locale)
    expect(history.locator("#history li").first).to_contain_text("5")
    expect(history.locator("#history li").first).not_to_contain_text("*")
    expect(history.locator("#history li .correction")).to_have_count(1)
    expect(history.locator("#history li .correction")).to_contain_text(ADDED[locale])  # the live page's words

    settings = phone("/settings", locale=locale)
    expect(settings.get_by_role("heading", name=heading)).to_be_visible()
    expect(settings.locator("#examples-adaptation")).to_have_text(not_yet)
    expect(settings.locator("#examples-counts")).to_have_text(kind + ": 1")
    item = settings.locator("#examples-list li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(kind + " 5")
    expect(item.locator("img")).to_have_attribute("alt", alt)
    expect(item.locator("img")).to_have_js_property("naturalWidth", 64)  # its crop, loaded
    settings.get_by_role("button", name=remove).click()
    expect(item).to_have_count(0)
    expect(settings.locator("#examples-none")).to_have_text(none)
    expect(settings.locator("#examples-adaptation")).to_be_hidden()  # one line, not "not used yet" too
    expect(settings.locator("#examples-counts")).to_have_text("")
    assert controller.examples()["examples"] == [] and controller.roll(roll["id"]) == roll


def free_roll_thrown_with_its_photo(page, controller):
    """A free roll of two dice thrown, its photo loaded (the page laid out, as a player sees
    it); returns the visible "Add a die the reader missed" button."""
    controller.arm("free")
    image, _ = render_tray(7, values=[3, 4], colors=["red", "white"], rotation=False)
    controller.on_settled(image, time.monotonic() + 1)
    add = page.locator("#photo-add")
    expect(add).to_be_visible()
    page.wait_for_function("""() => document.querySelector("#photo").complete
        && document.querySelector("#photo").naturalWidth > 0""")
    return add


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
def test_the_hint_to_tap_the_missed_die_is_never_behind_the_bar_at_320_px(phone, controller, locale):
    """'Add a die the reader missed' tapped just above the fixed By hand/Throw bar: the hint it
    shows under it comes into view above the bar (it opened behind it)."""
    page = phone("/", locale=locale, viewport={"width": 320, "height": 640})
    add = free_roll_thrown_with_its_photo(page, controller)
    page.evaluate("""() => {  // the button's bottom just above the bar, as a thumb leaves it
        const button = document.querySelector("#photo-add").getBoundingClientRect();
        const bar = document.querySelector(".actions").getBoundingClientRect();
        window.scrollBy(0, button.bottom - bar.top + 2);
    }""")
    add.dispatch_event("click")  # no scrolling of its own, as a tap
    hint = page.locator("#photo-add-hint")
    expect(hint).to_be_visible()
    # uncovered once the page has laid out what the tap changed (a failure times out)
    page.wait_for_function("""() => {
        const node = document.querySelector("#photo-add-hint");
        const box = node.getBoundingClientRect();
        return [box.top + 2, box.top + box.height / 2, box.bottom - 2].every(
            y => node.contains(document.elementFromPoint(box.x + box.width / 2, y)));
    }""", timeout=10_000)


def test_a_die_is_not_offered_to_a_finished_2d6_that_has_both_its_dice(phone, controller):
    """Trial 6: "Add a die the reader missed" was offered on a 2D6 read whole, where the rules
    can only refuse a third die (RULES T-3 adds a die missing from a throw); a free roll still
    offers it."""
    page = phone("/")
    controller.arm("2d6")
    image, _ = render_tray(7, values=[3, 4], colors=["red", "white"], rotation=False)
    controller.on_settled(image, time.monotonic() + 1)
    expect(page.locator("#big")).to_have_text("7")
    expect(page.locator("#photo")).to_be_visible()
    expect(page.locator("#photo-add")).to_be_hidden()
    controller.arm("free")
    controller.on_settled(render_tray(8, values=[2, 6], colors=["red", "white"], rotation=False)[0],
                          time.monotonic() + 2)
    expect(page.locator("#big")).to_have_text("8")
    expect(page.locator("#photo-add")).to_be_visible()


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
def test_the_whole_photo_is_tappable_once_the_hint_to_tap_the_missed_die_shows(phone, controller, locale):
    """Trial 8, 390×844: the hint scrolled into view, the sticky header covered the top 76 px of
    the photo, and a tap there hit the header. Both the photo's top and bottom, and the hint,
    are uncovered after that scroll."""
    page = phone("/", locale=locale, viewport={"width": 390, "height": 844})
    add = free_roll_thrown_with_its_photo(page, controller)
    page.evaluate("""() => {  // scrolled on to the button: the photo's top 76 px under the header
        const photo = document.querySelector("#photo").getBoundingClientRect();
        const header = document.querySelector(".top").getBoundingClientRect();
        window.scrollBy(0, photo.top - header.bottom + 76);
    }""")
    covered = page.evaluate("""() => document.querySelector(".top").getBoundingClientRect().bottom
        - document.querySelector("#photo").getBoundingClientRect().top""")
    assert covered > 70  # as the trial found it
    add.dispatch_event("click")
    expect(page.locator("#photo-add-hint")).to_be_visible()
    page.wait_for_function("""() => {
        const photo = document.querySelector("#photo"), hint = document.querySelector("#photo-add-hint");
        const box = photo.getBoundingClientRect(), said = hint.getBoundingClientRect();
        const x = box.x + box.width / 2;
        return [box.top + 1, box.top + box.height / 2, box.bottom - 1].every(y => document.elementFromPoint(x, y) === photo)
            && [said.top + 2, said.bottom - 2].every(y => hint.contains(document.elementFromPoint(x, y)));
    }""", timeout=10_000)
