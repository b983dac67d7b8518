"""Every page fits a phone from 320 px wide up, in the three languages: nothing scrolls
sideways, no word is cut off (the document is never wider than the viewport)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from device.combat import CombatSession

PAGES = ["/", "/history", "/settings", "/combat", "/dice", "/teach"]


@pytest.fixture
def fight(tmp_path):
    fight = CombatSession(tmp_path / "data")
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 2, "Saqueador": 5, "Saqueador 2": 4})
    fight.start_attack("Saqueador", "Brann")  # the attack card, its keypads and "Vez de Saqueador"
    return fight


def overflow(page: Page) -> list[str]:
    """The document's width beyond the viewport, and what sticks out (for the message)."""
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const out = [...document.querySelectorAll("body *")].filter((node) => {
            const box = node.getBoundingClientRect();
            return box.width > 0 && box.right > width + 0.5 && !node.closest(".skip, .sr");
        }).map((node) => node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") + "." + node.className);
        return document.documentElement.scrollWidth > width ? out.slice(0, 12).concat(["scrollWidth " + document.documentElement.scrollWidth]) : [];
    }""")


def cut_selects(page: Page) -> list[str]:
    """The visible drop-downs narrower than the name they show (the language picker's
    "Portugu", combat's enemy "Saqu")."""
    return page.locator("select").evaluate_all("""selects => selects.filter((select) => {
        if (!select.offsetParent || !select.selectedOptions.length) return false;
        const style = getComputedStyle(select);
        const probe = document.createElement("span");
        probe.style.font = style.font;
        probe.style.whiteSpace = "pre";
        probe.textContent = select.selectedOptions[0].textContent;
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return room < text + 12;   // and the arrow
    }).map((select) => "#" + select.id + " cut")""")


def broken_tabs(page: Page) -> list[str]:
    """The page tabs whose word is broken over two lines ("Históric/o")."""
    return page.locator(".tabs a").evaluate_all("""links => links.filter((a) => {
        const range = document.createRange();
        range.selectNodeContents(a);
        const tops = [...range.getClientRects()].map((r) => r.top);
        return Math.max(...tops) - Math.min(...tops) > 4 && !/\\s/.test(a.textContent.trim());
    }).map((a) => a.textContent.trim())""")


def wrapped_tabs(page: Page) -> list[str]:
    """The page tabs pushed onto a second row (the five must share one)."""
    return page.locator(".tabs a").evaluate_all("""links => {
        const top = Math.min(...links.map((a) => a.getBoundingClientRect().top));
        return links.filter((a) => a.getBoundingClientRect().top > top + 4).map((a) => a.textContent.trim());
    }""")


def broken_words(page: Page) -> list[str]:
    """The words of buttons and labels broken over two lines ("Siguient/e turno", "Dificul/dade")."""
    return page.evaluate("""() => {
        const broken = [];
        for (const box of document.querySelectorAll("button, label, legend, .stepper > span")) {
            if (!box.offsetParent || box.closest(".sr")) continue;
            const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (const word of node.data.matchAll(/[^\\s-]+/g)) {
                    const range = document.createRange();
                    range.setStart(node, word.index);
                    range.setEnd(node, word.index + word[0].length);
                    const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
                    if (tops.length && Math.max(...tops) - Math.min(...tops) > 4) broken.push(word[0]);
                }
            }
        }
        return broken;
    }""")


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
def test_every_page_fits_the_width_of_a_phone(phone, controller, width, locale):
    controller.arm("pool5", "Saqueadora")
    controller.throw_dice([10, 3, 4, 1, 6])       # a roll waiting for its reroll: prompt, dice, photo
    wide = {}
    for path in PAGES:
        page = phone(path, locale=locale, viewport={"width": width, "height": 700})
        expect(page.locator("#camera")).not_to_have_text("…")
        if path == "/combat":
            expect(page.locator("#attack-card")).to_be_visible()
        problems = overflow(page) + cut_selects(page) + broken_tabs(page) + wrapped_tabs(page) + broken_words(page)
        if problems:
            wide[path] = problems
        page.context.close()
    assert wide == {}


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
def test_the_fighters_names_fit_their_drop_downs_at_320_px(phone, fight, locale):
    """No attack under way: the turn's Attacker and Target drop-downs show the fighters'
    whole names ("Saqueador 2", not "Saqueado…"), in a readable size; so do a fighter's
    Condition and Help drop-downs ("Derribado", "Saqueador 2")."""
    fight.cancel_attack()
    page = phone("/combat", locale=locale, viewport={"width": 320, "height": 700})
    expect(page.locator("#attack-start")).to_be_visible()
    page.select_option("#attacker", "Saqueador 2")
    expect(page.locator("#defender")).to_have_value("Brann")
    for select in ("#attacker", "#defender"):
        assert float(page.locator(select).evaluate("s => parseFloat(getComputedStyle(s).fontSize)")) >= 16
    assert cut_selects(page) == []
    assert overflow(page) == []
    page.locator('#fighters li.fighter[data-name="Saqueador"] .fighter-open').click()
    expect(page.locator("#help-ally")).to_be_visible()
    assert cut_selects(page) == []
