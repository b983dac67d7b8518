"""RULES T-5 on the pages: the cocked-die policy is a setting, and under accept_leaning the
live page and the combat page ask for the leaning die's top face with the keypad of that one die."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from device.combat import CombatSession
from vision.numerals import NumberedReading
from vision.reading import TrayReading

from .conftest import pip_die, settle, thrown_2d6


@pytest.fixture
def controller(tray_controller):  # every frame: a red 3, and a white die the reader saw cocked (T-1)
    return tray_controller(pip_die(3, "red", 100, principal=True), pip_die(None, "white", 300))


def _read_fight(image, principal_color):  # a d8 7, and a d20 the reader saw cocked
    return TrayReading(dice=[NumberedReading(value=7, sides=8, box=(0, 0, 60, 60), center=(30, 30), color="blue",
                                             confidence=0.9, kind="d8"),
                             NumberedReading(value=None, sides=20, box=(200, 0, 260, 60), center=(230, 30), color="blue",
                                             confidence=0.9, unreadable="cocked", kind="d20")], size=(640, 480))


@pytest.fixture
def fight(tmp_path, controller):  # follows the settings page's policy, as dicelens serve's does
    return CombatSession(tmp_path / "fight", numbered_reader=_read_fight,
                         cocked_dice=lambda: controller.settings()["cocked_dice"])


@pytest.mark.parametrize(("lang", "heading", "leaning", "saved"), [
    ("en", "Cocked dice", "A die leaning on the tray wall counts: the camera does not read it, enter its top face by hand",
     "Saved"),
    ("pt_BR", "Dados inclinados",
     "Um dado apoiado na parede da bandeja vale: a câmera não o lê, informe a face de cima à mão", "Salvo"),
    ("es", "Dados montados",
     "Un dado apoyado en la pared de la bandeja vale: la cámara no lo lee, indica su cara de arriba a mano", "Guardado"),
])
def test_the_cocked_die_policy_is_a_page_setting(phone, controller, lang, heading, leaning, saved):
    page = phone(f"/settings?lang={lang}")
    expect(page.locator("#cocked-heading")).to_have_text(heading)
    expect(page.locator("#cocked-form input[value=rethrow_die]")).to_be_checked()  # the default
    page.get_by_label(leaning).check()
    page.locator("#cocked-form button").click()
    expect(page.locator("#toast")).to_have_text(saved)
    assert controller.settings()["cocked_dice"] == "accept_leaning"
    page.reload()
    expect(page.locator("#cocked-form input[value=accept_leaning]")).to_be_checked()


@pytest.mark.parametrize(("lang", "prompt", "button"), [
    ("en", "Die 2 leans: enter its top face.", "Enter its top face"),
    ("pt_BR", "O dado 2 está apoiado: informe a face de cima.", "Informar a face de cima"),
    ("es", "El dado 2 está apoyado: indica su cara de arriba.", "Indicar la cara de arriba"),
])
def test_a_leaning_die_asks_for_its_top_face(phone, controller, lang, prompt, button):
    page = thrown_2d6(controller, phone, lang, "accept_leaning")
    expect(page.locator("#prompt")).to_have_text(prompt)
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.locator("#fix-title")).to_have_text(prompt)
    expect(page.locator("#fix-cocked")).to_be_hidden()
    page.locator("#fix-keypad .key", has_text="5").click()
    expect(page.locator("#big")).to_have_text("8")
    expect(page.get_by_role("button", name=button, exact=True)).to_be_hidden()
    roll = controller.state()["latest_roll"]
    assert roll["complete"] and roll["dice"][1]["source"] == "hand" and roll["corrections"][0]["to"] == 5


@pytest.mark.parametrize(("lang", "prompt"), [
    ("en", "The d20 leans: enter its top face."),
    ("pt_BR", "O d20 está apoiado: informe a face de cima."),
    ("es", "El d20 está apoyado: indica su cara de arriba."),
])
def test_a_fight_s_leaning_die_asks_for_its_top_face(phone, controller, fight, lang, prompt):
    controller.update_settings(cocked_dice="accept_leaning")
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 5, "Saqueador": 4})
    fight.start_attack("Brann", "Saqueador")
    page = phone(f"/combat?lang={lang}")
    fight.read_tray("attack")
    assert fight.on_settled(None, time.monotonic() + 1)
    expect(page.locator("#attack-tray-status")).to_have_text(prompt)
    page.locator("#attack-tray-lean .key", has_text="14").click()
    expect(page.locator("#attack-tray-lean .key")).to_have_count(0)
    expect(page.locator("#attack-dice .die-chip .die-value")).to_have_text(["d8 7", "d20 14"])
    attack = fight.state()["attack"]
    assert (attack["attack"]["natural"], attack["attack"]["destiny"]) == (7, 14)
    assert attack["sources"] == {"attack": "corrected"}


@pytest.mark.parametrize(("lang", "voided", "unmoved"), [
    ("en", "Die 2: it is cocked — throw all the dice of this throw again (2).",
     "2 of the voided throw's dice did not move: throw all 2 again."),
    ("pt_BR", "Dado 2: está inclinado — jogue de novo todos os dados desta jogada (2).",
     "2 dos dados da jogada anulada não se moveram: jogue todos os 2 de novo."),
    ("es", "Dado 2: está montado — tira de nuevo todos los dados de esta tirada (2).",
     "2 de los dados de la tirada anulada no se movieron: tira los 2 de nuevo."),
])
def test_a_voided_throw_is_said_in_the_page_s_language(phone, controller, lang, voided, unmoved):
    page = thrown_2d6(controller, phone, lang, "rethrow_set")
    expect(page.locator("#prompt")).to_have_text(voided)
    settle(controller, after=2)  # the same tray: nothing moved
    expect(page.locator("#prompt")).to_have_text(unmoved)
    expect(page.locator("#lean-open")).to_be_hidden()

