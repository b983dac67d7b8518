"""The combat page's faults the fresh-user trial of 2026-12-03 found (faults 3, 11, 12, 17), in
headless Chromium: each hero's points on its card and who won at the end, Envenenado's real X,
the fighter dialog's Amount box beside Damage at 320 and 390 px, the Help list, the es tú."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from device.combat import CombatSession


def live(page: Page) -> Page:
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    return page


def fighter(page: Page, name: str):
    return page.locator(f'#fighters li.fighter[data-name="{name}"]')


def brann_hits(fight: CombatSession, defender: str) -> None:
    """Brann (Body d8, medium weapon) hits ``defender`` 7 against 4: 2 PC (RULES DD-8)."""
    fight.start_attack("Brann", defender)
    fight.attack_dice([7, 10])
    fight.attack_dice([3, 10])
    fight.attack_dice([5])


@pytest.mark.parametrize(("lang", "won", "earned"), [
    ("en", "The heroes win: every enemy is defeated.", "Brann earned 4 PC and 0 PM"),
    ("pt_BR", "Os heróis vencem: todos os inimigos foram derrotados.", "Brann ganhou 4 PC e 0 PM"),
    ("es", "Ganan los héroes: todos los enemigos están derrotados.", "Brann ganó 4 PC y 0 PM"),
])
def test_each_heros_points_are_on_its_card_and_the_end_says_who_won(phone, fight, lang, won, earned):
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.roll_initiative({"Brann": 6, "Saqueador": 1})
    brann_hits(fight, "Saqueador")
    page = live(phone(f"/combat?lang={lang}"))
    expect(fighter(page, "Brann").locator(".points")).to_have_text("PC 2 · PM 0")
    brann_hits(fight, "Saqueador")  # 8 PV: the second hit defeats it
    expect(fighter(page, "Brann").locator(".points")).to_have_text("PC 4 · PM 0")
    expect(page.locator("#turn-effects li")).to_have_text([won, earned])
    fighter(page, "Brann").locator(".fighter-open").click()
    expect(page.locator("#fighter-detail")).to_contain_text("PC 4 · PM 0")


@pytest.mark.parametrize(("lang", "fixed", "die"), [
    ("en", "takes 2 damage at the start", "takes 1d4 damage at the start"),
    ("pt_BR", "sofre 2 de dano no início", "sofre 1d4 de dano no início"),
    ("es", "sufre 2 de daño al inicio", "sufre 1d4 de daño al inicio"),
])
def test_envenenado_says_its_own_x(phone, fight, lang, fixed, die):
    # RULES DD-11 Envenenado X: X damage at the start of each own turn, a number or a die
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    fight.add_condition("Brann", {"name": "Envenenado", "poison": 2})
    fight.add_condition("Saqueador", {"name": "Envenenado", "poison_die": 4})
    page = live(phone(f"/combat?lang={lang}"))
    expect(fighter(page, "Brann").locator(".condition")).to_contain_text(fixed)
    expect(fighter(page, "Saqueador").locator(".condition")).to_contain_text(die)
    expect(page.locator("#fighters")).not_to_contain_text(" X ")


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("locale", ["es-ES", "pt-BR", "en-US"])
def test_the_amount_box_never_runs_into_the_damage_button(phone, fight, width, locale):
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador")
    page = live(phone("/combat", locale=locale, viewport={"width": width, "height": 740}))
    fighter(page, "Saqueador").locator(".fighter-open").click()
    box, damage, heal = (page.locator(f"#{id}").bounding_box() for id in ("amount", "do-damage", "do-heal"))
    label = page.locator("label:has(#amount)").bounding_box()
    assert box["x"] + box["width"] <= label["x"] + label["width"] + 0.5, "the box sticks out of its label"
    for button in (damage, heal):  # beside it or below it, never over it
        apart = box["x"] + box["width"] <= button["x"] + 0.5 or box["y"] + box["height"] <= button["y"] + 0.5
        assert apart, (box, button)
    assert box["width"] >= 40, "room for the number typed"


def test_the_help_list_holds_only_allies_still_in_the_fight(phone, fight):
    # RULES DD-2, DD-9: help goes to an ally's next roll; a defeated one has none
    fight.add_hero("Brann")
    fight.add_enemy("Saqueador", count=3)
    fight.roll_initiative({"Brann": 1, "Saqueador": 6, "Saqueador 2": 5, "Saqueador 3": 4})
    fight.damage("Saqueador 3", 50)
    page = live(phone("/combat"))
    fighter(page, "Saqueador 2").locator(".fighter-open").click()
    expect(page.locator("#help-ally option")).to_have_text(["Raider"])
    page.locator("#fighter-dialog button[value=cancel]").click()
    fighter(page, "Saqueador 3").locator(".fighter-open").click()
    expect(page.locator("#help-row")).to_be_hidden()  # a defeated fighter helps no one


def test_the_spanish_set_up_line_says_tu(phone):
    page = live(phone("/combat?lang=es"))
    expect(page.locator("#turn-heading")).to_have_text(
        "Prepara el combate: añade héroes y enemigos, luego tira la iniciativa.")
