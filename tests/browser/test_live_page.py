"""The live page in headless Chromium at a phone viewport, against the real app.

The fake controller stands for the camera and the buttons: ``throw_dice`` is a
settled tray, ``arm`` a button press. What is checked is what players see.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect


def live(page: Page) -> Page:
    """Wait until the page's event stream is open (the green "Live" dot)."""
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    page.evaluate("window.loadedOnce = true")  # gone if the page ever reloads
    return page


def not_reloaded(page: Page) -> bool:
    return page.evaluate("window.loadedOnce === true")


def recent_ids(page: Page) -> list[str]:
    return page.locator("#recent li").evaluate_all("items => items.map(li => li.dataset.rollId)")


def test_a_roll_appears_on_two_open_pages_without_reload(phone, controller):
    first, second = live(phone("/")), live(phone("/"))
    controller.arm("2d6", "Ana")
    controller.throw_dice([3, 5])
    for page in (first, second):
        expect(page.locator("#big")).to_have_text("8")
        expect(page.locator("#dice .die")).to_have_count(2)
        expect(page.locator("#dice .die").first).to_contain_text("principal")
        expect(page.locator("#roll-meta")).to_contain_text("Ana")
        expect(page.locator("#announce")).to_have_text("New roll: 8 total")
        expect(page.locator("#photo")).to_be_visible()
        assert not_reloaded(page)


def test_perfect_roll_prompts_for_the_extra_die_then_shows_the_total(phone, controller):
    page = live(phone("/"))
    controller.arm("2d6")
    controller.throw_dice([6, 2])
    expect(page.locator("#prompt")).to_have_text("Roll the principal die again (counts as D3).")
    expect(page.locator("#outcome")).to_have_text("Rolagem Perfeita!")
    controller.throw_dice([4])                      # counts 2 as a D3
    expect(page.locator("#prompt")).to_be_hidden()
    expect(page.locator("#big")).to_have_text("10")
    expect(page.locator("#dice .die").nth(2)).to_contain_text("counts 2")
    expect(page.locator("#dice .die").nth(2)).to_contain_text("extra")


def test_a_correction_changes_the_total_on_both_pages(phone, controller):
    first, second = live(phone("/")), live(phone("/"))
    first.fill("#player", "Bia")
    controller.arm("2d6")
    roll = controller.throw_dice([3, 4])
    expect(second.locator("#big")).to_have_text("7")

    first.locator("#dice .die").nth(1).click()
    expect(first.locator("#fix-dialog")).to_be_visible()
    first.locator("#fix-keypad").get_by_role("button", name="6", exact=True).click()

    for page in (first, second):
        expect(page.locator("#big")).to_have_text("9")
        expect(page.locator("#dice .die").nth(1)).to_contain_text("corrected")
        assert not_reloaded(page)
    expect(second.locator("#corrections li")).to_contain_text(["Die 2: 4 → 6 · Bia"])
    corrections = controller.roll(roll["id"])["corrections"]
    assert [(c["index"], c["from"], c["to"], c["who"]) for c in corrections] == [(1, 4, 6, "Bia")]


def test_a_page_offline_during_two_rolls_shows_both_after_reconnecting(phone, controller):
    page = live(phone("/"))
    controller.arm("2d6")
    controller.throw_dice([2, 2])
    expect(page.locator("#big")).to_have_text("4")

    page.context.set_offline(True)
    expect(page.locator("#link")).to_have_attribute("data-link", "offline")
    controller.throw_dice([1, 2])
    controller.throw_dice([5, 4])
    page.wait_for_timeout(200)
    expect(page.locator("#big")).to_have_text("4")   # really cut off: nothing arrived

    page.context.set_offline(False)
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    expect(page.locator("#big")).to_have_text("9")
    expect(page.locator("#recent li")).to_have_count(3)
    assert recent_ids(page) == ["3", "2", "1"]       # each roll once, newest first
    assert not_reloaded(page)


def test_a_dropped_stream_catches_up_through_last_event_id(phone, controller):
    """The browser's own reconnection: the server ends the stream, the page misses a
    roll, and the EventSource comes back with Last-Event-ID to replay it."""
    page = live(phone("/"))
    controller.arm("2d6")
    controller.throw_dice([1, 1])
    expect(page.locator("#big")).to_have_text("2")
    controller.caught_up_from.clear()

    controller.drop_subscribers()   # every open stream ends, as when Wi-Fi drops
    controller.throw_dice([3, 3])   # published while no page listens
    expect(page.locator("#big")).to_have_text("6")
    # The new stream asked for the rolls after seq 1, the last one this page had seen.
    assert controller.caught_up_from[:1] == [1]
    assert recent_ids(page) == ["2", "1"]
    assert not_reloaded(page)


def test_tapping_a_preset_arms_it_for_the_named_player(phone, controller):
    page = live(phone("/"))
    page.fill("#player", "Caio")
    page.get_by_role("button", name="1D3+1").click()
    expect(page.get_by_role("button", name="1D3+1")).to_have_attribute("aria-pressed", "true")
    state = controller.state()
    assert (state["state"], state["preset"], state["roller"]) == ("armed", "1d3+1", "Caio")
    expect(page.locator("#odds-figures")).to_contain_text("Average 3")

    page.reload()                                   # the name stays on this phone
    expect(page.locator("#player")).to_have_value("Caio")


def test_dice_by_hand_on_a_d10_keypad(phone, controller):
    page = live(phone("/"))
    controller.arm("pool5")
    page.get_by_role("button", name="By hand", exact=True).click()
    keypad = page.locator("#keypad")
    expect(page.get_by_role("radio")).to_have_text(["d10"])       # the kind of die the pool takes
    expect(keypad.locator(".key")).to_have_text(["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"])
    for face in ("7", "0", "3", "8", "2"):           # 0 is a ten
        keypad.locator(".key", has_text=face).click()
    expect(keypad.locator(".key").first).to_be_disabled()   # the pool takes 5 dice: no sixth
    page.get_by_role("button", name="Send").click()

    expect(page.locator("#keypad-dialog")).to_be_hidden()
    expect(page.locator("#prompt")).to_have_text("Reroll your 10: one more die.")
    expect(page.locator("#machine-state")).to_contain_text("More dice needed")
    latest = controller.rolls(limit=1)[0]
    assert [d["natural"] for d in latest["dice"]] == [7, 10, 3, 8, 2]
    assert {d["source"] for d in latest["dice"]} == {"hand"}


def test_camera_status_and_throw_button(phone, controller):
    page = live(phone("/"))
    expect(page.locator("#camera")).to_have_text("Camera ok")
    controller.arm("2d6")
    page.get_by_role("button", name="Throw").click()
    expect(page.locator("#machine-state")).to_contain_text("Waiting for the dice")
    assert controller.throws == 1

    controller.set_camera("reconnecting", "USB camera unplugged")
    expect(page.locator("#camera")).to_have_text("Camera reconnecting")
    expect(page.locator("#camera")).to_have_attribute("title", "USB camera unplugged")
    expect(page.get_by_role("button", name="Throw")).to_be_hidden()


def test_language_switch_and_accept_language(phone, controller):
    page = live(phone("/", locale="es-ES"))         # Accept-Language picks Spanish
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("button", name="A mano")).to_be_visible()

    page.select_option("#lang-select", "pt_BR")
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    live(page)
    expect(page.get_by_role("link", name="Histórico")).to_be_visible()
    expect(page.get_by_role("button", name="parada 5 · dificuldade 2")).to_be_visible()
    controller.arm("2d6")
    controller.throw_dice([2, 3])
    expect(page.locator("#announce")).to_have_text("Nova rolagem: 5 total")

    page.goto("/history")                           # the choice is remembered
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR")


def test_principal_die_picked_on_the_page_when_the_camera_cannot_tell(phone, controller):
    page = live(phone("/"))
    controller.arm("2d6")
    roll = controller.throw_dice([2, 5], principal_seen=False)
    expect(page.locator("#prompt")).to_have_text("No principal die found: tap the principal die.")
    expect(page.locator("#machine-state")).to_contain_text("Check the dice")   # not "More dice needed"
    expect(page.locator("#pick-principal")).to_be_visible()
    expect(page.locator("#big")).to_have_text("…")

    page.locator("#dice .die").nth(1).click()        # the 5 is the principal die
    expect(page.locator("#big")).to_have_text("7")
    expect(page.locator("#dice .die").first).to_contain_text("principal")   # shown first once known
    expect(page.locator("#dice .die").first).to_have_attribute("data-index", "1")
    expect(page.locator("#pick-principal")).to_be_hidden()
    assert controller.roll(roll["id"])["complete"]


def test_a_die_vision_could_not_read_is_named_by_its_reason(phone, controller):
    page = live(phone("/?lang=pt_BR"))
    controller.arm("2d6")
    controller.throw_dice([4, "cut off"])
    die = page.locator("#dice .die").nth(1)
    expect(die).to_contain_text("?")
    expect(die).to_have_attribute("aria-label", re.compile(r"^Dado 2, [^,]*cortado"))
    assert "inclinado" not in die.get_attribute("aria-label")  # it is cut off, not cocked
    die.click()
    expect(page.locator("#fix-title")).to_have_text(re.compile(r"Dado 2 · .*cortado"))


def test_a_cocked_die_marked_on_the_page(phone, controller):
    page = live(phone("/"))
    controller.arm("2d6")
    controller.throw_dice([4, 3])
    page.locator("#dice .die").nth(1).click()
    page.get_by_role("button", name="Cocked: throw it again").click()
    expect(page.locator("#big")).to_have_text("…")
    expect(page.locator("#dice .die").nth(1)).to_contain_text("?")
    expect(page.locator("#dice .die").nth(1)).to_contain_text("cocked")


def test_a_page_of_an_old_history_reloads_its_rolls(phone, controller):
    """A new, empty history (the README's procedure for a damaged database) starts its seqs
    again: an open page is told to reload, and takes the new rolls (issue #24 item 7; the
    table: tests/device/test_table_failures.py)."""
    controller.arm("2d6")
    for value in (3, 4, 5):
        controller.throw_dice([value, 1])
    page = live(phone("/"))
    expect(page.locator("#recent li")).to_have_count(3)
    page.evaluate("() => window.dicelens.stream.close('offline')")  # the server stops
    controller.new_history()
    controller.arm("2d6")
    controller.throw_dice([5, 1])  # roll 1 of the new history
    page.evaluate("() => window.dicelens.stream.open()")  # the restarted server: the stream again
    expect(page.locator("#recent li")).to_have_count(1)
    expect(page.locator("#big")).to_have_text("6")
    controller.throw_dice([1, 1])  # a new roll, live
    expect(page.locator("#big")).to_have_text("2")
    expect(page.locator("#recent li")).to_have_count(2)


def test_a_value_that_is_not_there_is_never_written_as_null(phone, controller):
    """The page's helpers leave out a missing child and fill a missing value with "–"
    (replaceChildren and String() write "null"); a pool roll waiting for dice shows none."""
    page = live(phone("/"))
    assert page.evaluate("""async () => {
        const dom = await import("/static/dom.js");
        const box = document.createElement("div");
        dom.setChildren(box, [null, "a", undefined]);
        const t = dom.translator({});
        return [box.textContent, t("Die {n}: {from}", { n: null, from: undefined })];
    }""") == ["a", "Die –: –"]
    controller.arm("pool5")
    controller.throw_dice([10, 3, 4, 1, 6])
    expect(page.locator("#prompt")).to_have_text("Reroll your 10: one more die.")
    expect(page.locator("main")).not_to_contain_text(re.compile(r"null|undefined|NaN"))


def topmost_at_centre(page: Page, selector: str) -> bool:
    """Whether the element is what a tap at its centre reaches: above every backdrop, not inert."""
    return page.locator(selector).evaluate("""node => {
        const box = node.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return node.contains(hit);
    }""")


def test_a_refusal_while_a_dialog_is_open_shows_above_it(phone, controller, monkeypatch):
    """The by-hand keypad stays open when Send is refused: the toast is above its backdrop,
    heard (an alert outside an open modal dialog is inert), and stays after the dialog closes."""
    def refuse(values, roller=None):
        raise ValueError("the tray is busy")
    monkeypatch.setattr(controller, "enter_dice", refuse)
    page = live(phone("/"))
    controller.arm("2d6")
    page.get_by_role("button", name="By hand", exact=True).click()
    for face in ("3", "4"):
        page.locator("#keypad .key", has_text=face).click()
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("alert").filter(has_text="the tray is busy")).to_have_text("Error: the tray is busy")
    expect(page.locator("#keypad-dialog")).to_be_visible()
    assert topmost_at_centre(page, "#toast")
    page.locator("#keypad-dialog").get_by_role("button", name="Cancel").click()
    expect(page.locator("#keypad-dialog")).to_be_hidden()
    expect(page.locator("#toast")).to_be_visible()
    assert topmost_at_centre(page, "#toast")


@pytest.mark.parametrize(("locale", "header"), [
    ("en-US", "Roll 1 · Resolved · 2D6 · by Nara"),
    ("pt-BR", "Rolagem 1 · Resolvida · 2D6 · por Nara"),
    ("es-ES", "Tirada 1 · Resuelta · 2D6 · de Nara"),
])
def test_an_earlier_roll_is_shown_under_its_own_header(phone, controller, locale, header):
    """Not the armed preset's and player's: Zara's pool 5 is armed while Nara's 2D6 is looked at."""
    page = live(phone("/", locale=locale))
    controller.arm("2d6", "Nara")
    controller.throw_dice([3, 4])
    controller.arm("pool5", "Zara")
    controller.throw_dice([10, 3, 4, 1, 6])          # waits for the ten's reroll: a prompt
    expect(page.locator("#prompt")).to_be_visible()
    page.locator('#recent li[data-roll-id="1"] button').click()
    expect(page.locator("#big")).to_have_text("7")
    expect(page.locator("#machine-state")).to_have_text(header)
    expect(page.locator("#prompt")).to_be_hidden()   # the live roll's prompt is not this roll's
    page.locator('#recent li[data-roll-id="2"] button').click()
    expect(page.locator("#machine-state")).to_contain_text("Zara")
    expect(page.locator("#prompt")).to_be_visible()


@pytest.mark.parametrize(("locale", "pool_prompt", "d6_prompt"), [
    ("en-US", "pool 5 · difficulty 2: enter the dice by hand.", "2D6: throw the dice."),
    ("pt-BR", "parada 5 · dificuldade 2: digite os dados à mão.", "2D6: jogue os dados."),
    ("es-ES", "reserva 5 · dificultad 2: introduce los dados a mano.", "2D6: tira los dados."),
])
def test_by_hand_offers_what_the_armed_roll_takes(phone, controller, locale, pool_prompt, d6_prompt):
    """The keypad offers the armed roll's die and sends its dice count only; a pool the
    simulated camera cannot throw is asked for by hand; with nothing armed nothing is offered."""
    controller.throw_sides = {6}                    # as the simulated camera: pip d6 only
    page = live(phone("/", locale=locale))
    expect(page.locator("#throw")).to_be_disabled()
    expect(page.locator("#hand-open")).to_be_disabled()
    controller.arm("pool5")
    expect(page.locator("#prompt")).to_have_text(pool_prompt)
    expect(page.locator("#throw")).to_be_hidden()
    page.locator("#hand-open").click()
    expect(page.get_by_role("radio")).to_have_text(["d10"])
    for face in ("7", "3", "8"):
        page.locator("#keypad .key", has_text=face).click()
    expect(page.locator("#keypad-send")).to_be_disabled()       # 3 of the pool's 5 dice
    for face in ("2", "4"):
        page.locator("#keypad .key", has_text=face).click()
    expect(page.locator("#keypad-send")).to_be_enabled()
    page.locator("#keypad-dialog [data-close]").click()
    controller.arm("2d6")
    expect(page.locator("#prompt")).to_have_text(d6_prompt)
    expect(page.locator("#throw")).to_be_enabled()
    page.locator("#hand-open").click()
    expect(page.get_by_role("radio")).to_have_text(["d6"])


def test_the_principal_die_is_shown_first_and_the_photo_opens_full_screen(phone, controller):
    page = live(phone("/"))
    controller.arm("2d6")
    roll = controller.throw_dice([3, 5])
    controller.set_principal(roll["id"], 1)          # the principal die lay second in the tray
    first = page.locator("#dice .die").first
    expect(first).to_contain_text("principal")
    expect(first).to_have_attribute("data-index", "1")
    expect(first).to_have_attribute("aria-label", "Die 2, 5, principal")   # its number stays the API's
    expect(page.locator("#dice .die").nth(1)).to_have_attribute("aria-label", "Die 1, 3, secondary")

    card_width = page.locator("#photo").evaluate("img => img.decode().then(() => img.clientWidth)")
    page.get_by_role("button", name="Open the photo full screen").click()
    full = page.locator("#photo-full")
    expect(page.locator("#photo-dialog")).to_be_visible()
    full.evaluate("img => img.decode()")
    # vision/annotate.py draws labels max(width, height) / 64 px tall: read at 12 CSS px or more.
    label = full.evaluate("img => Math.max(img.naturalWidth, img.naturalHeight) / 64 * img.clientWidth / img.naturalWidth")
    assert label >= 12 and full.evaluate("img => img.clientWidth") > 2 * card_width
    page.locator("#photo-dialog").get_by_role("button", name="Close").click()
    expect(page.locator("#photo-dialog")).to_be_hidden()
