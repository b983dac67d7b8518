"""The teaching round's page (issue 17 item 2) in headless Chromium at a phone viewport, in
the three languages: from Settings, a throw's dice shown with their crops and values, one
fixed on its keypad, the throw confirmed as examples, the values still lacking one, and
"Done" back to Settings with the round off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

WORDS = {
    "en-US": {"link": "Teach dicelens your dice", "start": "Start teaching", "done": "Done teaching",
              "ok": "All right", "skip": "Skip this throw",
              "on": "Teaching: throw your set into the tray.", "held": "Check the dice below.",
              "die": "Die 2, d10, shows 7", "fixed": "Die 2, d10, shows 10", "thanks": "Thank you: 2 dice taught.",
              "d10": "d10 · 1 example", "lacking": "no example yet of 1, 2, 3, 4, 5, 6, 7, 8, and 9",
              "d6": "pip d6 · 1 example"},
    "pt-BR": {"link": "Ensine seus dados ao dicelens", "start": "Começar a ensinar", "done": "Terminar de ensinar",
              "ok": "Tudo certo", "skip": "Pular este lançamento",
              "on": "Ensinando: jogue seu conjunto na bandeja.", "held": "Confira os dados abaixo.",
              "die": "Dado 2, d10, mostra 7", "fixed": "Dado 2, d10, mostra 10",
              "thanks": "Obrigado: 2 dados ensinados.",
              "d10": "d10 · 1 exemplo", "lacking": "ainda sem exemplo de 1, 2, 3, 4, 5, 6, 7, 8 e 9",
              "d6": "d6 de pontos · 1 exemplo"},
    "es-ES": {"link": "Enseña tus dados a dicelens", "start": "Empezar a enseñar", "done": "Terminar de enseñar",
              "ok": "Todo bien", "skip": "Saltar este lanzamiento",
              "on": "Enseñando: tira tu juego en la bandeja.", "held": "Revisa los dados de abajo.",
              "die": "Dado 2, d10, muestra 7", "fixed": "Dado 2, d10, muestra 10",
              "thanks": "Gracias: 2 dados enseñados.",
              "d10": "d10 · 1 ejemplo", "lacking": "todavía sin ejemplo de 1, 2, 3, 4, 5, 6, 7, 8 y 9",
              "d6": "d6 de puntos · 1 ejemplo"},
}


@pytest.mark.parametrize("locale", list(WORDS))
def test_a_throw_taught_from_settings_in_the_pages_language(phone, controller, locale):
    words = WORDS[locale]
    controller.arm("2d6")                                  # the preset armed before the round
    page = phone("/settings", locale=locale)
    page.get_by_role("link", name=words["link"]).click()
    expect(page).to_have_url(re.compile(r"/teach$"))
    page.get_by_role("button", name=words["start"]).click()
    expect(page.locator("#teach-status")).to_have_text(words["on"])
    assert controller.teaching()["on"] is True

    controller.teach_throw([("d6-pips", 3), ("d10", 7)])   # the set settles in the tray
    expect(page.locator("#teach-status")).to_have_text(words["held"])
    dice = page.locator("#teach-dice .teach-die")
    expect(dice).to_have_count(2)
    expect(dice.locator(".teach-value")).to_have_text(["3", "7"])
    expect(dice.nth(0).locator("img")).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))
    page.get_by_role("button", name=words["die"]).click()  # the d10 showed 10: its keypad
    keypad = page.locator("#teach-keypad .keypad")
    expect(keypad.locator(".key")).to_have_count(10)
    keypad.locator(".key", has_text=re.compile(r"^10$")).click()
    expect(page.get_by_role("button", name=words["fixed"])).to_have_class(re.compile(r"\bfixed\b"))
    expect(keypad).to_have_count(0)

    page.get_by_role("button", name=words["ok"]).click()
    expect(page.locator("#toast")).to_have_text(words["thanks"])
    expect(page.locator("#teach-throw")).to_be_hidden()
    kinds = page.locator("#teach-kinds li")
    expect(kinds).to_have_count(2)
    expect(kinds.nth(0)).to_contain_text(words["d10"])
    expect(kinds.nth(0).locator(".teach-lacking")).to_have_text(words["lacking"])
    expect(kinds.nth(1)).to_contain_text(words["d6"])
    assert controller.teaching()["examples"] == {"d10": {"10": 1}, "d6-pips": {"3": 1}}

    controller.teach_throw([("d6-pips", 5)])               # a throw skipped teaches nothing
    page.get_by_role("button", name=words["skip"]).click()
    expect(page.locator("#teach-throw")).to_be_hidden()
    page.get_by_role("button", name=words["done"]).click()
    expect(page).to_have_url(re.compile(r"/settings$"))
    assert controller.teaching()["on"] is False
    assert controller.state()["preset"] == "2d6"            # back to the preset chosen before
    assert controller.teaching()["examples"] == {"d10": {"10": 1}, "d6-pips": {"3": 1}}


@pytest.mark.parametrize(("locale", "start", "ok", "thanks"), [
    ("en-US", "Start teaching", "All right", "Thank you: 1 die taught."),
    ("pt-BR", "Começar a ensinar", "Tudo certo", "Obrigado: 1 dado ensinado."),
    ("es-ES", "Empezar a enseñar", "Todo bien", "Gracias: 1 dado enseñado."),
])
def test_one_die_taught_is_thanked_in_the_singular(phone, controller, locale, start, ok, thanks):
    page = phone("/teach", locale=locale)
    page.get_by_role("button", name=start).click()
    expect(page.get_by_role("button", name=start)).to_be_hidden()  # the round is on: the throw is its
    controller.teach_throw([("d6-pips", 4)])
    expect(page.locator("#teach-dice .teach-die")).to_have_count(1)
    page.get_by_role("button", name=ok).click()
    expect(page.locator("#toast")).to_have_text(thanks)

@pytest.mark.parametrize(("locale", "line", "prompt", "waiting"), [
    ("en-US", "Teaching round · 2D6",
     "Teaching round on: every throw goes to Settings → Teach dicelens your dice; Done teaching to roll again.",
     "Armed · 2D6"),
    ("pt-BR", "Rodada de ensino · 2D6",
     "Rodada de ensino ligada: toda jogada vai para Ajustes → Ensine seus dados ao dicelens; "
     "Terminar de ensinar para rolar de novo.", "Armada · 2D6"),
    ("es-ES", "Ronda de enseñanza · 2D6",
     "Ronda de enseñanza activa: toda tirada va a Ajustes → Enseña tus dados a dicelens; "
     "Terminar de enseñar para volver a tirar.", "Preparada · 2D6"),
])
def test_the_live_page_says_the_teaching_round_takes_the_throws(phone, controller, locale, line, prompt, waiting):
    """While the round is on, a throw is the round's: the live page says so (it kept waiting
    for the roll's dice, as if the throw were lost), and says what it asks again after 'Done'."""
    controller.arm("2d6")
    page = phone("/", locale=locale)
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    expect(page.locator("#machine-state")).to_have_text(re.compile("^" + re.escape(waiting)))
    controller.start_teaching()                            # from another phone's Settings
    expect(page.locator("#machine-state")).to_have_text(line)
    expect(page.locator("#prompt")).to_have_text(prompt)
    controller.teach_throw([("d6-pips", 3)])               # the throw goes to the round
    expect(page.locator("#prompt")).to_have_text(prompt)
    page.reload()                                          # the state the page is served with says so too
    expect(page.locator("#machine-state")).to_have_text(line)
    controller.stop_teaching()
    expect(page.locator("#machine-state")).to_have_text(re.compile("^" + re.escape(waiting)))
    expect(page.locator("#prompt")).not_to_have_text(prompt)
