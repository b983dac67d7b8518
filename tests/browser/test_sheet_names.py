"""The bestiary's sheets (the seed's Spanish names, RULES §3) in the page's language at a
phone's size: the picker, the initiative list, the fighters' list, the turn, the attack
and the log name them so, while a fighter a player typed keeps its name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

#: locale → the bestiary's names as that page words them, and its "joins the fight" sentence.
NAMES = {"en-US": (["Raider", "Rival", "Android", "Mutant"], "{name} joins the fight"),
         "pt-BR": (["Saqueador", "Rival", "Androide", "Mutante"], "{name} entra na luta"),
         "es": (["Saqueador", "Rival", "Androide", "Mutante"], "{name} se une al combate")}


@pytest.mark.parametrize("locale", NAMES)
def test_the_bestiarys_fighters_are_named_in_the_pages_language(phone, fight, locale):
    names, joins = NAMES[locale]
    fight.add_participant({"name": "Mutante", "body": 6, "mind": 6, "soul": 6, "pv": 8}, "hero")  # typed
    page = phone("/combat", locale=locale)
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    expect(page.locator("#enemy-sheet option")).to_have_text(names)
    page.select_option("#enemy-sheet", label=names[0])
    page.fill("#enemy-count", "2")
    page.click("#add-enemy")
    raider = names[0]
    for name, shown in (("Saqueador", raider), ("Saqueador 2", f"{raider} 2"), ("Mutante", "Mutante")):
        expect(page.locator(f'#fighters li.fighter[data-name="{name}"] .fighter-name')).to_have_text(shown)
        expect(page.locator(f'#initiative-list li[data-name="{name}"] .init-name')).to_contain_text(shown + " · ")
    expect(page.locator("#log")).to_contain_text(joins.format(name=f"{raider} 2"))
    for name, value in (("Mutante", 6), ("Saqueador", 4), ("Saqueador 2", 2)):
        page.locator(f'#initiative-list li[data-name="{name}"]').get_by_role("button", name=str(value),
                                                                             exact=True).click()
    page.click("#initiative-start")
    expect(page.locator("#turn-heading")).to_contain_text("Mutante")
    expect(page.locator("#defender option")).to_have_text([raider, f"{raider} 2"])
    page.select_option("#defender", "Saqueador 2")
    page.click("#attack")
    expect(page.locator("#attack-heading")).to_contain_text(f"{raider} 2")
    expect(page.locator("#attack-heading")).not_to_contain_text("Saqueador 2" if raider != "Saqueador" else "Raider")
    fight.cancel_attack()
    page.locator('#fighters li.fighter[data-name="Saqueador 2"] .fighter-open').click()
    expect(page.locator("#fighter-title")).to_have_text(f"{raider} 2")
