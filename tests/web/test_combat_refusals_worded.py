"""The combat page's refusals a player meets from its forms and buttons, in the page's
language (found by the pt-BR/es audit of 2026-12-03): a hero's name already in the fight,
a weapon the hero's Body die cannot wield, removing the fighter whose turn it is."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from web import combat

SHEET = {"name": "Brann", "body": 8, "mind": 6, "soul": 6, "pv": 10}
#: lang → (the name taken, the heavy weapon on a d4, the fighter whose turn it is), as the page words them.
WORDED = {
    "en": ("there is already a participant called Brann",
           "a heavy weapon needs a Body die of at least d8: Kai has d4",
           "it is Brann's turn: end it before removing them"),
    "pt_BR": ("já existe um participante chamado Brann",
              "uma arma pesada precisa de um dado de Corpo de pelo menos d8: Kai tem d4",
              "é a vez de Brann: encerre-a antes de removê-lo"),
    "es": ("ya hay un participante llamado Brann",
           "un arma pesada necesita un dado de Cuerpo de al menos d8: Kai tiene d4",
           "es el turno de Brann: termínalo antes de quitarlo"),
}


@pytest.fixture
def client(app, tmp_path):
    combat.attach(app, CombatSession(tmp_path / "data"))
    return app.test_client()


def refusal(client, path: str, body: dict, lang: str, status: int = 400) -> str:
    response = client.post(f"/api/combat{path}?lang={lang}", json=body)
    assert response.status_code == status
    return response.get_json()["error"]


@pytest.mark.parametrize("lang", WORDED)
def test_the_combat_forms_refusals_are_said_in_the_pages_language(client, lang):
    taken, heavy, turn = WORDED[lang]
    client.post("/api/combat/heroes", json={"sheet": "Brann"})
    assert refusal(client, "/participants", {"sheet": SHEET, "side": "hero"}, lang) == taken
    kai = {**SHEET, "name": "Kai", "body": 4, "weapon": "heavy"}
    assert refusal(client, "/participants", {"sheet": kai, "side": "hero", "save": True}, lang) == heavy
    client.post("/api/combat/enemies", json={"sheet": "Rival"})
    client.post("/api/combat/initiative", json={"values": {"Brann": 6, "Rival": 1}})
    assert refusal(client, "/remove", {"name": "Brann"}, lang, 409) == turn  # the state refuses it


#: lang → the bestiary's Saqueador as the page names it (web/messages.py SHEET_NAMES).
RAIDER = {"en": "Raider", "pt_BR": "Saqueador", "es": "Saqueador"}


@pytest.mark.parametrize("lang", RAIDER)
def test_a_refusal_names_a_bestiary_fighter_as_the_page_does(client, lang):
    raider = RAIDER[lang]
    client.post("/api/combat/enemies", json={"sheet": "Saqueador", "count": 2})
    typed = {**SHEET, "name": "Saqueador 2"}
    assert refusal(client, "/participants", {"sheet": typed, "side": "hero"}, lang).endswith(f" {raider} 2")
    client.post("/api/combat/heroes", json={"sheet": "Brann"})
    client.post("/api/combat/initiative", json={"values": {"Brann": 1, "Saqueador": 6, "Saqueador 2": 2}})
    assert f" {raider}" in refusal(client, "/remove", {"name": "Saqueador"}, lang, 409)


#: lang → the refusals naming bestiary fighters (fresh-user trial of 2026-12-07: the seed's names on the English
#: page): initiative missing for two Saqueadores, the Saqueador's defence given one die, an attack out of turn.
NAMED = {
    "en": ("initiative missing for Raider, Raider 2: everyone rolls their Mind die",
           "Defender (Raider): roll Defence d6 and the Destiny d20: 2 dice, not 1",
           "it is Brann's turn: Raider 2 attacks on their own turn"),
    "pt_BR": ("falta a iniciativa de Saqueador, Saqueador 2: todos rolam seu dado de Mente",
              "Defensor (Saqueador): role Defesa d6 e o d20 do Destino: 2 dados, não 1",
              "é a vez de Brann: Saqueador 2 ataca na própria vez"),
    "es": ("falta la iniciativa de Saqueador, Saqueador 2: todos tiran su dado de Mente",
           "Defensor (Saqueador): tira Defensa d6 y el d20 del Destino: 2 dados, no 1",
           "es el turno de Brann: Saqueador 2 ataca en su propio turno"),
}


@pytest.mark.parametrize("lang", NAMED)
def test_every_refusal_names_bestiary_fighters_as_the_page_does(client, lang):
    missing, defence, turn = NAMED[lang]
    client.post("/api/combat/heroes", json={"sheet": "Brann"})
    client.post("/api/combat/enemies", json={"sheet": "Saqueador", "count": 2})
    assert refusal(client, "/initiative", {"values": {"Brann": 5}}, lang) == missing
    assert client.post("/api/combat/initiative",
                       json={"values": {"Brann": 6, "Saqueador": 2, "Saqueador 2": 1}}).status_code == 200
    # RULES DD-1, DD-2: Brann acts first; the other fighters attack on their own turns
    assert refusal(client, "/attack", {"attacker": "Saqueador 2", "defender": "Brann"}, lang, 409) == turn
    assert client.post("/api/combat/attack", json={"attacker": "Brann", "defender": "Saqueador"}).status_code == 200
    assert client.post("/api/combat/attack/dice", json={"values": [3, 11]}).status_code == 200
    assert refusal(client, "/attack/dice", {"values": [3]}, lang) == defence
