"""The combat API's refusals found by the fresh-user trial of 2026-12-03 (faults 10, 17): an
unknown bestiary sheet, a step after the fight is over and the others the state refuses are
said in the phone's language, and a refusal of the state is 409, as the README's contract
says (400 stays for malformed input); no ally out of the fight is helped (RULES DD-2, DD-9)."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from web import combat


@pytest.fixture
def client(app, tmp_path):
    combat.attach(app, CombatSession(tmp_path / "data"))
    return app.test_client()


def post(client, path: str, body: dict, lang: str = "en"):
    return client.post(f"/api/combat{path}?lang={lang}", json=body)


def over(client) -> None:
    """Brann against two Saqueadores, both defeated: the fight is over."""
    post(client, "/heroes", {"sheet": "Brann"})
    post(client, "/enemies", {"sheet": "Saqueador", "count": 2})
    assert post(client, "/initiative", {"values": {"Brann": 6, "Saqueador": 1, "Saqueador 2": 1}}).status_code == 200
    for name in ("Saqueador", "Saqueador 2"):
        assert post(client, "/damage", {"name": name, "amount": 50}).status_code == 200


#: lang → an unknown sheet, a saved hero not kept, and next turn once the fight is over, as each phone reads them.
WORDED = {
    "en": ("no bestiary sheet called Dragon", "no saved hero called Gandalf",
           "the fight is over: every enemy is defeated"),
    "pt_BR": ("nenhuma ficha do bestiário chamada Dragon", "nenhum herói salvo chamado Gandalf",
              "a luta acabou: todos os inimigos foram derrotados"),
    "es": ("ninguna ficha del bestiario llamada Dragon", "ningún héroe guardado llamado Gandalf",
           "el combate ha terminado: todos los enemigos están derrotados"),
}


@pytest.mark.parametrize("lang", WORDED)
def test_an_unknown_sheet_and_the_end_of_the_fight_are_said_in_the_phones_language(client, lang):
    sheet, hero, ended = WORDED[lang]
    dragon = post(client, "/enemies", {"sheet": "Dragon"}, lang)
    assert (dragon.status_code, dragon.get_json()["error"]) == (404, sheet)
    gandalf = post(client, "/heroes", {"sheet": "Gandalf"}, lang)
    assert (gandalf.status_code, gandalf.get_json()["error"]) == (404, hero)
    over(client)
    turn = post(client, "/next-turn", {}, lang)
    assert (turn.status_code, turn.get_json()["error"]) == (409, ended)


def test_an_attack_after_the_fight_is_over_is_refused_by_the_state_409(client):
    over(client)
    attack = post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"})
    assert (attack.status_code, attack.get_json()["error"]) == (409, "the fight is over")
    assert post(client, "/undo", {}).status_code == 200  # the last damage back: Saqueador 2 stands
    defeated = post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"})
    assert (defeated.status_code, defeated.get_json()["error"]) == (409, "Raider is defeated")


def test_the_states_refusals_are_409_and_malformed_input_stays_400(client):
    post(client, "/heroes", {"sheet": "Brann"})
    post(client, "/enemies", {"sheet": "Saqueador"})
    assert post(client, "/next-turn", {}).status_code == 409          # roll initiative first
    assert post(client, "/attack/dice", {"values": [3, 4]}).status_code == 409   # no attack under way
    assert post(client, "/cure", {"name": "Brann", "condition": "Ciego"}).status_code == 409
    assert post(client, "/energy", {"name": "Brann", "energy": "EC", "amount": 9}).status_code == 409
    assert post(client, "/damage", {"name": "Brann", "amount": "3"}).status_code == 400
    post(client, "/initiative", {"values": {"Brann": 6, "Saqueador": 1}})
    assert post(client, "/attack", {"attacker": "Brann", "defender": "Brann"}).status_code == 400


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "Raider is defeated"), ("pt_BR", "Saqueador foi derrotado"), ("es", "Saqueador está derrotado")])
def test_a_defeated_ally_is_not_helped(client, lang, reason):
    # RULES DD-2, DD-9: help is for the ally's next roll; a defeated enemy has none
    post(client, "/heroes", {"sheet": "Brann"})
    post(client, "/enemies", {"sheet": "Saqueador", "count": 2})
    post(client, "/initiative", {"values": {"Brann": 1, "Saqueador": 6, "Saqueador 2": 4}})
    post(client, "/damage", {"name": "Saqueador", "amount": 50})
    helped = post(client, "/help", {"helper": "Saqueador 2", "ally": "Saqueador"}, lang)
    assert (helped.status_code, helped.get_json()["error"]) == (409, reason)


@pytest.mark.parametrize(("lang", "face", "defence"), [
    ("en", "Brann's initiative (Mind) is a d6: it shows 1 to 6, not 9", "Orc is an enemy: give its bestiary Defence die"),
    ("pt_BR", "a iniciativa de Brann (Mente) é um d6: mostra de 1 a 6, não 9",
     "Orc é um inimigo: informe seu dado de Defesa do bestiário"),
    ("es", "la iniciativa de Brann (Mente) es un d6: muestra de 1 a 6, no 9",
     "Orc es un enemigo: indica su dado de Defensa del bestiario"),
])
def test_a_die_and_a_sheet_the_rules_refuse_are_said_in_the_phones_language(client, lang, face, defence):
    post(client, "/heroes", {"sheet": "Brann"})
    post(client, "/enemies", {"sheet": "Rival"})
    refused = post(client, "/initiative", {"values": {"Brann": 9, "Rival": 2}}, lang)
    assert (refused.status_code, refused.get_json()["error"]) == (400, face)
    orc = {"name": "Orc", "body": 6, "mind": 6, "soul": 6, "pv": 3}
    refused = post(client, "/participants", {"sheet": orc, "side": "enemy"}, lang)
    assert (refused.status_code, refused.get_json()["error"]) == (400, defence)
