"""The "Your dice" page (issue 17 item 5) in headless Chromium at a phone viewport, in the
three languages: reached from Settings and the nav, a card per kind with its counts in the
page's numbers, its faces, the fairness test and the smallest bias worded for a player."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

WORDS = {
    "en-US": {"link": "See your dice in numbers", "tab": "Your dice", "name": "pip d6",
              "verdict": "face 6 came up more than chance would: p = 0.017",
              "detectable": "with 580 dice thrown a face would have to come up 1 in 4.5 instead of 1 in 6 to be seen",
              "few": "So few dice thrown say little: a die needs thousands of throws before “unfair” is fair to say.",
              "right": "99.8 % of the faces the camera read were right",
              "none": "no dice of this kind yet", "player": "no sign of bias in 2 dice thrown"},
    "pt-BR": {"link": "Ver seus dados em números", "tab": "Seus dados", "name": "d6 de pontos",
              "verdict": "a face 6 saiu mais do que o acaso daria: p = 0,017",
              "detectable": "com 580 dados lançados, uma face teria que sair 1 em 4,5 em vez de 1 em 6 para ser vista",
              "few": "Tão poucos dados lançados dizem pouco: um dado precisa de milhares de lançamentos antes que “viciado” seja justo de dizer.",
              "right": "99,8 % das faces que a câmera leu estavam certas",
              "none": "nenhum dado deste tipo ainda", "player": "nenhum sinal de viés em 2 dados lançados"},
    "es-ES": {"link": "Ver tus dados en números", "tab": "Tus dados", "name": "d6 de puntos",
              "verdict": "la cara 6 salió más de lo que daría el azar: p = 0,017",
              "detectable": "con 580 dados lanzados, una cara tendría que salir 1 de cada 4,5 en lugar de 1 de cada 6 para verse",
              "few": "Tan pocos dados lanzados dicen poco: un dado necesita miles de lanzamientos antes de que sea justo decir “trucado”.",
              "right": "99,8 % de las caras que leyó la cámara eran correctas",
              "none": "todavía no hay dados de este tipo", "player": "ninguna señal de sesgo en 2 dados lanzados"},
}


def _history(controller):
    """580 pip d6 (90 of faces 1–5, 130 sixes; one die corrected) the last roll by Nara; 12,345 examples taught."""
    for _ in range(90):
        for values in ([1, 2], [3, 4], [5, 6]):
            controller.arm("2d6")
            controller.throw_dice(values)
    for _ in range(19):
        controller.arm("2d6")
        controller.throw_dice([6, 6])
    controller.arm("2d6", "Nara")
    controller.throw_dice([6, 5])
    controller.correct(controller.rolls(limit=1)[0]["id"], 1, value=6)   # read 5, was a 6
    controller.taught = {"d6-pips": 12345}


@pytest.mark.parametrize("locale", list(WORDS))
def test_your_dice_from_settings_in_the_pages_language(phone, controller, locale):
    _history(controller)
    words = WORDS[locale]
    page = phone("/settings", locale=locale)
    page.get_by_role("link", name=words["link"]).click()
    expect(page).to_have_url(re.compile(r"/dice$"))
    expect(page.locator(".tabs a[aria-current=page]")).to_have_text(words["tab"])
    d6 = page.locator(".dice-kind[data-kind=d6-pips]")
    expect(d6.locator("h2")).to_have_text(words["name"])
    expect(d6.locator(".verdict")).to_have_text(words["verdict"])
    expect(d6.locator(".detectable")).to_have_text(words["detectable"])
    expect(d6.locator(".few")).to_have_text(words["few"])
    expect(d6.locator(".right")).to_have_text(words["right"])
    thousands = "12,345" if locale == "en-US" else "12.345"   # Spanish groups from 5 digits
    expect(d6.locator("dd")).to_have_text(["580", "580", "579", "1", "0", "0", "580", thousands])
    expect(d6.locator(".faces tbody th")).to_have_text(["1", "2", "3", "4", "5", "6"])
    expect(d6.locator(".faces tbody td")).to_have_text(["90", "90", "90", "90", "90", "130"])
    d10 = page.locator(".dice-kind[data-kind=d10]")
    expect(d10.locator(".verdict")).to_have_text(words["none"])
    expect(d10.locator(".faces")).to_be_hidden()
    expect(d10.locator(".detectable")).to_be_hidden()
    expect(d10.locator(".few")).to_be_hidden()

    page.fill("#dice-player", "nara")                    # one player's dice alone
    page.locator("#dice-filters button").click()
    expect(d6.locator(".verdict")).to_have_text(words["player"])
    expect(d6.locator(".faces tbody td")).to_have_text(["0", "0", "0", "0", "0", "2"])


def test_a_player_name_the_api_refuses_is_said_on_the_page(phone):
    page = phone("/dice?player=" + "x" * 41)
    expect(page.locator("#toast")).to_have_text("Error: player must be at most 40 characters")


HAND = {"en-US": ["Dice rolled", "Read by the camera", "Entered by hand", "With a face known (in the faces below)"],
        "pt-BR": ["Dados rolados", "Lidos pela câmera", "Digitados à mão", "Com a face conhecida (nas faces abaixo)"],
        "es-ES": ["Dados tirados", "Leídos por la cámara", "Introducidos a mano",
                  "Con la cara conocida (en las caras de abajo)"]}


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("locale", list(HAND))
def test_dice_rolled_add_up_when_a_die_by_hand_is_marked_cocked(phone, controller, locale, width):
    """Trial fault 19: the dice rolled are those read and those entered by hand, faces known or not."""
    controller.arm("2d6")
    controller.throw_dice([3, 4])                                  # read by the camera
    controller.arm("2d6")
    controller.enter_dice([2, 5])                                  # by hand, then one marked cocked
    controller.correct(controller.rolls(limit=1)[0]["id"], 1, cocked=True)
    page = phone("/dice", locale=locale, viewport={"width": width, "height": 800})
    d6 = page.locator(".dice-kind[data-kind=d6-pips]")
    counts = {name: d6.locator("dt", has_text=re.compile("^" + re.escape(name) + "$")).locator("xpath=following-sibling::dd[1]")
              for name in HAND[locale]}
    rolled, read, hand, known = HAND[locale]
    expect(counts[rolled]).to_have_text("4")
    expect(counts[read]).to_have_text("2")
    expect(counts[hand]).to_have_text("2")
    expect(counts[known]).to_have_text("3")
