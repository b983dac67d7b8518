"""The combat page in headless Chromium at phone size: a short fight seen on two phones at once.

The web app runs with the real combat session (device/combat/) in a temporary
data folder; the roll controller is the browser tests' fake, which this page does
not use. Dice read from the tray come from a fake numbered reader.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from device.combat import CombatSession
from vision.numerals import SIDES, NumberedReading
from vision.reading import TrayReading
from web import combat, create_app

from .conftest import PHONE, LiveServer


def live(page: Page) -> Page:
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    return page


def tap(page: Page, pad: str, value: int) -> None:
    page.locator(pad).get_by_role("button", name=str(value), exact=True).click()


def send(page: Page, *dice: tuple[int, int]) -> None:
    """Tap each ``(sides, value)`` die on the attack's keypads, then send the throw."""
    for sides, value in dice:
        tap(page, f'#attack-pads .keypad[data-sides="{sides}"]', value)
    page.click("#attack-send")


def fighter(page: Page, name: str):
    return page.locator(f'#fighters li.fighter[data-name="{name}"]')


def add_brann_and_two_raiders(page: Page) -> None:
    """The saved hero Brann and two Saqueadores of the bestiary, added from ``page``."""
    page.select_option("#hero-sheet", "Brann")
    page.click("#add-hero")
    page.select_option("#enemy-sheet", "Saqueador")
    page.fill("#enemy-count", "2")
    page.click("#add-enemy")


def test_each_phone_taps_its_own_fighters_initiative_and_either_starts_the_fight(phone):
    """Trial 6: a Mind die tapped stayed on the phone that tapped it, so "Start the fight"
    stayed disabled unless one phone tapped every fighter. Two phones (two contexts)."""
    first, second = live(phone("/combat")), live(phone("/combat"))
    add_brann_and_two_raiders(first)
    expect(second.locator("#initiative-list li")).to_have_count(3)
    tap(first, '#initiative-list li[data-name="Brann"]', 5)                  # the hero's player
    for name, value in (("Saqueador", 4), ("Saqueador 2", 2)):              # the game master
        tap(second, f'#initiative-list li[data-name="{name}"]', value)
    for page in (first, second):
        for name, shown, value in (("Brann", "Brann", 5), ("Saqueador", "Raider", 4), ("Saqueador 2", "Raider 2", 2)):
            expect(page.locator(f'#initiative-list li[data-name="{name}"] .init-name')).to_have_text(
                f"{shown} · Mind d6 = {value}")
            expect(page.locator(f'#initiative-list li[data-name="{name}"] .init-name')).to_have_attribute(
                "data-read", "false")
        expect(page.locator("#initiative-start")).to_be_enabled()
    first.click("#initiative-start")
    for page in (first, second):
        expect(page.locator("#turn-heading")).to_have_text("Brann's turn")
        expect(fighter(page, "Saqueador 2")).to_contain_text("initiative 2")


def test_a_short_fight_on_two_phones(phone):
    first, second = live(phone("/combat")), live(phone("/combat"))

    # Set up: a saved hero and two enemies of the bestiary, added from the first phone.
    add_brann_and_two_raiders(first)
    for page in (first, second):
        expect(page.locator("#fighters li.fighter")).to_have_count(3)
        expect(fighter(page, "Saqueador 2")).to_contain_text("8 / 8 PV")

    # Initiative: each Mind die tapped on its own keypad (Brann d6, the Saqueadores d6).
    for name, value in (("Brann", 5), ("Saqueador", 4), ("Saqueador 2", 4)):
        tap(first, f'#initiative-list li[data-name="{name}"]', value)
    first.click("#initiative-start")
    for page in (first, second):
        expect(page.locator("#turn-heading")).to_have_text("Brann's turn")
        expect(page.locator("#round")).to_have_text("Round 1")
        expect(fighter(page, "Brann")).to_have_attribute("data-current", "true")

    # Brann attacks the first Saqueador; the prompts walk both phones through the throws.
    first.select_option("#defender", "Saqueador")
    first.click("#attack")
    expect(second.locator("#attack-prompt")).to_have_text("Attacker (Brann): roll Body d8 and the Destiny d20")
    expect(second.locator("#attack-pads .keypad")).to_have_count(2)
    expect(second.locator('#attack-pads .keypad[data-sides="8"] .key')).to_have_count(8)
    expect(second.locator('#attack-pads .keypad[data-sides="20"] .key')).to_have_count(20)
    send(second, (8, 7), (20, 14))
    expect(first.locator("#attack-prompt")).to_have_text("Defender (Raider): roll Defence d6 and the Destiny d20")
    send(first, (6, 4), (20, 9))
    expect(second.locator("#attack-prompt")).to_have_text("Hit! Attacker (Brann): roll Body d8 again for damage")
    send(second, (8, 5))
    for page in (first, second):
        expect(page.locator("#last-attack .verdict")).to_have_text("Hit, 7 against 5: Raider takes 7 damage")
        expect(fighter(page, "Saqueador")).to_contain_text("1 / 8 PV")
        expect(page.locator("#log")).to_contain_text("Brann attacks Raider")

    # Saqueador 2 is poisoned (1d4): at the start of its turn the d4 is asked for.
    fighter(second, "Saqueador 2").locator(".fighter-open").click()
    second.select_option("#condition-name", "Envenenado")
    second.select_option("#poison-value", "d4")
    second.click("#do-condition")
    expect(fighter(first, "Saqueador 2")).to_contain_text("Envenenado 1d4")
    expect(fighter(first, "Saqueador 2")).to_contain_text("poisoned: takes 1d4 damage")
    second.locator("#fighter-dialog").get_by_role("button", name="Close").click()
    first.click("#next-turn")
    expect(second.locator("#turn-heading")).to_have_text("Raider's turn")
    second.click("#next-turn")
    for page in (first, second):
        expect(page.locator("#turn-heading")).to_have_text("Raider 2's turn")
        expect(page.locator("#turn-prompt")).to_have_text(
            "Raider 2 is Envenenado (1d4): roll the d4 for the poison damage")
        expect(page.locator("#next-turn")).to_be_disabled()
    tap(first, "#poison-keypad", 3)
    for page in (first, second):
        expect(fighter(page, "Saqueador 2")).to_contain_text("5 / 8 PV")
        expect(page.locator("#turn-effects")).to_have_text("Envenenado: Raider 2 takes 3 damage")
        expect(page.locator("#turn-prompt")).to_be_hidden()
        expect(page.locator("#next-turn")).to_be_enabled()

    # Undo takes the poison back on every phone.
    second.click("#undo")
    expect(fighter(first, "Saqueador 2")).to_contain_text("8 / 8 PV")
    expect(first.locator("#turn-prompt")).to_be_visible()


def test_the_fight_is_there_after_a_restart_and_in_spanish(phone, fight, tmp_path):
    fight.add_hero("Rex")
    fight.add_enemy("Mutante")
    fight.roll_initiative({"Rex": 6, "Mutante": 2})
    restarted = CombatSession(fight.path.parent)  # what `dicelens serve` builds after a restart
    assert restarted.state()["encounter"] == fight.state()["encounter"]
    page = live(phone("/combat?lang=es", locale="es-ES"))
    expect(page.locator("#turn-heading")).to_have_text("Turno de Rex")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator(".tabs a[aria-current=page]")).to_have_text("Combate")
    expect(page.locator("#fighters")).to_contain_text("enemigo")
    expect(page.locator("#log li").first).to_have_text("Ronda 1: turno de Rex")   # the rules' log, in Spanish
    expect(page.locator("#log")).to_contain_text("Mutante se une al combate")
    expect(page.locator("#fighters li.fighter")).to_have_count(2)


def test_defensa_perfecta_offers_the_counter_attack_and_energy_is_spent(phone, fight):
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 2, "Saqueador": 4})
    page = live(phone("/combat"))
    expect(page.locator("#turn-heading")).to_have_text("Raider's turn")
    page.locator("#attack-start .modifiers summary").click()
    page.fill("#attack-modifier", "-2")             # a Ciego attacker, the narrator says
    page.click("#attack")
    expect(page.locator("#attack-prompt")).to_have_text("Attacker (Raider): roll Body d6 and the Destiny d20")
    send(page, (6, 6), (20, 5))
    expect(page.locator("#attack-so-far")).to_have_text("Body 4 = d6 6 − modifier 2 · d20 5")
    send(page, (8, 5), (20, 20))
    expect(page.locator("#last-attack .verdict")).to_have_text("Miss, 4 against 5")
    expect(page.locator("#last-attack")).to_contain_text("Defensa Perfecta: Brann may counter-attack")
    page.click("#counter-attack")
    expect(page.locator("#attack-prompt")).to_have_text("Attacker (Brann): roll Body d8 and the Destiny d20")
    page.click("#attack-cancel")
    expect(page.locator("#attack-card")).to_be_hidden()

    fighter(page, "Brann").locator(".fighter-open").click()
    page.locator("#energy-row").get_by_role("button", name="EM −1").click()
    expect(fighter(page, "Brann")).to_contain_text("EC 2 · EM 1 · EA 2")


def numbered_reading(*dice: tuple[str, int]) -> TrayReading:
    """What the numbered reader would see: dice ``(kind, value)`` 100 px apart."""
    return TrayReading([NumberedReading(value=value, sides=SIDES[kind], box=(100 * i, 0, 100 * i + 60, 60),
                                        center=(100 * i + 30, 30), color="blue", confidence=0.9, kind=kind)
                        for i, (kind, value) in enumerate(dice)], size=(640, 480))


class FakeTray:
    """The combat session's numbered reader and clock: each settled frame reads as the next reading."""

    def __init__(self):
        self.readings: list[TrayReading] = []
        self.t = 1000.0

    def reader(self, image, principal_color):
        return self.readings.pop(0)

    def clock(self) -> float:
        return self.t

    def settle(self, fight: CombatSession, *dice: tuple[str, int]) -> None:
        self.readings.append(numbered_reading(*dice))
        self.t += 1
        assert fight.on_settled(None, self.t)


@pytest.fixture
def tray():
    return FakeTray()


@pytest.fixture
def tray_fight(tmp_path, tray):
    return CombatSession(tmp_path / "tray-data", numbered_reader=tray.reader, clock=tray.clock)


@pytest.fixture
def tray_server(controller, tray_fight):
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.5, "SSE_RETRY_MS": 300})
    with LiveServer(combat.attach(app, tray_fight)) as live:
        yield live


def test_an_attack_filled_from_the_tray_shows_the_hit_and_a_die_is_corrected(browser, tray_server, tray_fight, tray):
    tray_fight.add_hero("Brann")
    tray_fight.add_enemy("Saqueador")
    context = browser.new_context(**PHONE, locale="en-US", base_url=tray_server.url)
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/combat")
        # Initiative: Brann's Mind die read from the tray, the Saqueador's tapped.
        brann = page.locator('#initiative-list li[data-name="Brann"]')
        live(page).get_by_role("button", name="Read Brann's Mind die from the tray").click()
        expect(brann.locator(".tray-status")).to_have_text("Throw into the tray: Brann's initiative needs a d6.")
        tray.settle(tray_fight, ("d6-pips", 5))
        expect(brann.locator(".init-name")).to_contain_text("Brann · Mind d6 = 5")
        expect(brann.locator(".init-name")).to_have_attribute("data-read", "true")
        tap(page, '#initiative-list li[data-name="Saqueador"]', 4)
        page.click("#initiative-start")
        expect(page.locator("#turn-heading")).to_have_text("Brann's turn")
        page.select_option("#defender", "Saqueador")
        page.click("#attack")
        page.click("#attack-tray-read")
        status = page.locator("#attack-tray-status")
        expect(status).to_have_text("Throw into the tray: this attack needs a d8 and a d20.")
        tray.settle(tray_fight, ("d6", 3), ("d20", 14))  # the wrong die: named, nothing filled
        expect(status).to_have_text("A numbered d6 is in the tray: this attack needs a d8 and a d20.")
        expect(page.locator("#attack-prompt")).to_have_text("Attacker (Brann): roll Body d8 and the Destiny d20")
        tray.settle(tray_fight, ("d8", 7), ("d20", 14))
        expect(page.locator("#attack-prompt")).to_have_text("Defender (Raider): roll Defence d6 and the Destiny d20")
        expect(status).to_have_text("Throw into the tray: the defence needs a d6 and a d20.")
        expect(page.locator('#attack-dice .die-chip[data-source="camera"] .die-value')).to_have_text(["d8 7", "d20 14"])
        tray.settle(tray_fight, ("d20", 9), ("d6-pips", 4))
        tray.settle(tray_fight, ("d8", 5))
        expect(page.locator("#last-attack .verdict")).to_have_text("Hit, 7 against 5: Raider takes 7 damage")
        expect(fighter(page, "Saqueador")).to_contain_text("1 / 8 PV")
        expect(page.locator("#attack-card")).to_be_hidden()
        # The defender's d6 was a 6, not the 4 read: corrected by hand, the attack is resolved again.
        page.get_by_role("button", name="Correct the d6 showing 4").click()
        page.locator("#last-attack .keypad").get_by_role("button", name="6", exact=True).click()
        expect(page.locator("#last-attack .verdict")).to_have_text("Hit, 7 against 7: Raider takes 7 damage")
        expect(fighter(page, "Saqueador")).to_contain_text("1 / 8 PV")
        # The next attack this phone starts is read from the tray too, until told to stop.
        page.click("#attack")
        expect(status).to_have_text("Throw into the tray: this attack needs a d8 and a d20.")
        page.click("#attack-tray-stop")
        expect(status).to_be_hidden()
        page.click("#attack-cancel")
        page.click("#attack")
        expect(page.locator("#attack-tray-read")).to_be_visible()
        expect(status).to_be_hidden()
        page.click("#attack-cancel")

        spanish = context.new_page()
        spanish.goto("/combat?lang=es")
        live(spanish)
        tray_fight.next_turn()  # RULES DD-2: the Saqueador attacks on its own turn
        tray_fight.start_attack("Saqueador", "Brann")
        tray_fight.read_tray("attack")
        tray.settle(tray_fight, ("d8", 2))
        expect(spanish.locator("#attack-tray-status")).to_have_text(
            "Hay un d8 en la bandeja: este ataque necesita un d6 y un d20.")
    finally:
        context.close()
    assert errors == []


NO_VALUE_WORDS = re.compile(r"null|undefined|NaN")  # glued to the text before it: no \b


def test_no_null_or_undefined_reaches_the_page_as_text(phone, fight):
    """A resolved attack's card has no correction chips and no counter-attack: both
    are left out, not written as "null" (after Next turn and a reload too)."""
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 5, "Saqueador": 2})
    page = live(phone("/combat"))
    page.click("#attack")
    send(page, (8, 7), (20, 14))
    send(page, (6, 2), (20, 9))
    send(page, (8, 5))
    expect(page.locator("#last-attack .verdict")).to_contain_text("Hit")
    expect(page.locator("main")).not_to_contain_text(NO_VALUE_WORDS)
    page.click("#next-turn")
    expect(page.locator("#turn-heading")).to_have_text("Raider's turn")
    expect(page.locator("main")).not_to_contain_text(NO_VALUE_WORDS)
    page.reload()
    expect(live(page).locator("#last-attack .verdict")).to_contain_text("Hit")
    expect(page.locator("main")).not_to_contain_text(NO_VALUE_WORDS)


@pytest.mark.parametrize(("locale", "legend", "defence", "verdict_line"), [
    ("en-US", ["PV: hit points", "PC, PM: points a hit earns (Body, Mind attack)", "EC, EM, EA: energy of Body, Mind, Soul"],
     "Defence 5 = d6 4 + armour 1 · d20 9", "Body 7 · Defence 5 = d6 4 + armour 1"),
    ("pt-BR", ["PV: pontos de vida", "PC, PM: pontos que um acerto rende (ataque de Corpo, de Mente)",
               "EC, EM, EA: energia de Corpo, Mente, Alma"],
     "Defesa 5 = d6 4 + armadura 1 · d20 9", "Corpo 7 · Defesa 5 = d6 4 + armadura 1"),
    ("es-ES", ["PV: puntos de vida", "PC, PM: puntos que gana un impacto (ataque de Cuerpo, de Mente)",
               "EC, EM, EA: energía de Cuerpo, Mente, Alma"],
     "Defensa 5 = d6 4 + armadura 1 · d20 9", "Cuerpo 7 · Defensa 5 = d6 4 + armadura 1"),
])
def test_the_abbreviations_the_armour_and_the_ranged_box_are_plain(phone, fight, locale, legend, defence, verdict_line):
    """PV, PC/PM and EC/EM/EA are explained; the armour behind a defence total is shown
    (RULES DD-4: Brann d8 7 against Saqueador d6 4 + 1 armour); Ranged is a box to tick."""
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 5, "Saqueador": 2})
    page = live(phone("/combat", locale=locale))
    expect(page.locator("#legend li")).to_have_text(legend)
    box = page.locator("#ranged").bounding_box()
    assert box["width"] <= 32 and abs(box["width"] - box["height"]) < 2   # was a field the card's width
    page.click("#attack")
    send(page, (8, 7), (20, 14))
    send(page, (6, 4), (20, 9))
    expect(page.locator("#attack-so-far")).to_contain_text(defence)
    send(page, (8, 5))
    expect(page.locator("#last-attack .detail").filter(has_text=verdict_line)).to_have_text(verdict_line)
    fighter(page, "Saqueador").locator(".fighter-open").click()
    expect(page.locator("#fighter-detail")).to_contain_text(defence.split(" ")[0] + " d6 · " + verdict_line.split("+ ")[1])


@pytest.mark.parametrize(("lang", "effect"), [
    ("en", "Desarmado ends: taking the weapon back costs Raider's main action this turn"),
    ("pt_BR", "Desarmado termina: pegar a arma de volta custa a ação principal de Saqueador neste turno"),
    ("es", "Desarmado termina: recuperar el arma cuesta la acción principal de Saqueador en este turno"),
])
def test_the_end_of_desarmado_says_taking_the_weapon_back_costs_the_main_action(phone, fight, lang, effect):
    # RULES DD-11: disarmed, the attacker strikes unarmed; when it ends, the weapon costs the main action
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 5, "Saqueador": 2})
    fight.add_condition("Saqueador", {"name": "Desarmado"})
    fight.next_turn()
    page = live(phone(f"/combat?lang={lang}"))
    expect(page.locator("#turn-effects li")).to_have_text([effect])


@pytest.mark.parametrize(("lang", "summary", "label"), [
    ("en", "House rules", "The defender's Destiny 1 costs 1 damage on a hit too"),
    ("pt_BR", "Regras da casa", "O 1 no Destino do defensor custa 1 de dano também num acerto"),
    ("es", "Reglas de la casa", "El 1 en el Destino del defensor cuesta 1 de daño también en un impacto"),
])
def test_the_fights_house_rules_are_page_settings(phone, fight, lang, summary, label):
    # RULES DD-8 option defensive_fumble_on_hit (and DD-5's): off by default, set on the page
    page = live(phone(f"/combat?lang={lang}"))
    page.locator(".house-rules summary", has_text=summary).click()
    box = page.get_by_label(label)
    expect(box).not_to_be_checked()
    with page.expect_response("**/api/combat/options") as answer:
        box.check()
    assert answer.value.ok
    assert fight.state()["options"] == {"ties_favour_defender": False, "defensive_fumble_on_hit": True}
    other = live(phone(f"/combat?lang={lang}"))  # another phone, and the fight's file, keep it
    expect(other.locator("#defensive-fumble-on-hit")).to_be_checked()
    assert CombatSession(fight.path.parent).state()["options"]["defensive_fumble_on_hit"] is True


@pytest.mark.parametrize(("lang", "word", "read", "correct"), [
    ("en", "camera", "read by the camera", "Correct the d8 showing 7, read by the camera"),
    ("pt_BR", "câmera", "lido pela câmera", "Corrigir o d8 que mostra 7, lido pela câmera"),
    ("es", "cámara", "leído por la cámara", "Corregir el d8 que muestra 7, leído por la cámara"),
])
def test_a_value_the_camera_read_is_marked_in_sight_and_for_screen_readers(browser, tray_server, tray_fight, tray,
                                                                           lang, word, read, correct):
    tray_fight.add_hero("Brann")
    tray_fight.add_enemy("Saqueador")
    context = browser.new_context(**PHONE, base_url=tray_server.url)
    try:
        page = context.new_page()
        page.goto(f"/combat?lang={lang}")
        live(page)
        tray_fight.read_tray("initiative", "Brann")
        tray.settle(tray_fight, ("d6-pips", 5))
        mark = page.locator('#initiative-list li[data-name="Brann"] .init-name .read-mark')
        expect(mark).to_be_visible()
        expect(mark).to_have_text(word + read)                # its word in sight, the phrase for a screen reader
        expect(mark.locator(".sr")).to_have_text(read)
        tray_fight.roll_initiative({"Brann": 5, "Saqueador": 2})
        tray_fight.start_attack("Brann", "Saqueador")
        tray_fight.read_tray("attack")
        tray.settle(tray_fight, ("d8", 7), ("d20", 14))
        chip = page.get_by_role("button", name=correct)
        expect(chip).to_be_visible()
        expect(chip.locator(".read-mark")).to_be_visible()
        expect(chip.locator(".read-mark")).to_contain_text(word)
    finally:
        context.close()
