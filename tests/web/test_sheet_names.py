"""The bestiary's sheet names (the seed's Spanish, RULES §3) in the page's language: the
sheets, the fighters made from them and the log name them so; the data keeps the seed's
names, and a name players typed is never worded anew."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from device.combat.roster import DEFAULT_BESTIARY
from web import combat
from web.messages import SHEET_NAMES

SHOWN = {"en": ["Raider", "Rival", "Android", "Mutant"], "pt_BR": ["Saqueador", "Rival", "Androide", "Mutante"],
         "es": ["Saqueador", "Rival", "Androide", "Mutante"]}


@pytest.fixture
def client(app, tmp_path):
    combat.attach(app, CombatSession(tmp_path / "data"))
    return app.test_client()


def post(client, path: str, body: dict, lang: str = "en") -> dict:
    response = client.post(f"/api/combat{path}?lang={lang}", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_every_sheet_of_the_seeds_bestiary_has_its_words():
    assert list(SHEET_NAMES) == [sheet["name"] for sheet in DEFAULT_BESTIARY]


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_the_bestiary_is_named_in_the_pages_language_its_data_as_it_is(client, lang):
    state = client.get(f"/api/combat?lang={lang}").get_json()
    assert [sheet["name"] for sheet in state["bestiary"]] == ["Saqueador", "Rival", "Androide", "Mutante"]
    assert [sheet["name_shown"] for sheet in state["bestiary"]] == SHOWN[lang]


@pytest.mark.parametrize(("lang", "raider"), [("en", "Raider"), ("pt_BR", "Saqueador"), ("es", "Saqueador")])
def test_fighters_made_from_a_sheet_and_the_log_name_them_in_the_pages_language(client, lang, raider):
    post(client, "/heroes", {"sheet": "Brann"})
    post(client, "/enemies", {"sheet": "Saqueador", "count": 2})
    state = post(client, "/initiative", {"values": {"Brann": 5, "Saqueador": 4, "Saqueador 2": 2}}, lang)
    assert [p["name"] for p in state["encounter"]["participants"]] == ["Brann", "Saqueador", "Saqueador 2"]
    assert state["names_shown"] == {"Saqueador": raider, "Saqueador 2": f"{raider} 2"}
    shown = [entry["shown"] for entry in state["encounter"]["log"]]
    assert f"{raider} 2" in shown[2] and f"{raider} 4" in shown[3] and f"{raider} 2 2" in shown[3]
    assert state["encounter"]["log"][3]["text"] == "initiative: Brann 5, Saqueador 4, Saqueador 2 2"


def test_the_tray_names_a_fighter_made_from_a_sheet_in_the_pages_language(client):
    post(client, "/enemies", {"sheet": "Androide"})
    state = post(client, "/tray", {"step": "initiative", "name": "Androide"})
    assert state["tray"]["text"] == "Throw into the tray: Android's initiative needs a d6."


def test_a_name_players_typed_is_never_worded_anew(client):
    sheet = {"name": "Saqueador", "body": 6, "mind": 6, "soul": 6, "pv": 8}
    state = post(client, "/participants", {"sheet": {**sheet, "defence": 6}, "side": "enemy"})
    post(client, "/heroes", {"sheet": "Brann"})
    state = post(client, "/enemies", {"sheet": "Saqueador"})
    assert state["names_shown"] == {"Saqueador 2": "Raider 2"}  # the typed one keeps its name
    assert [entry["shown"] for entry in state["encounter"]["log"]][0] == "Saqueador joins the fight"
    state = post(client, "/remove", {"name": "Saqueador 2"})
    assert state["names_shown"] == {"Saqueador 2": "Raider 2"}  # the log still names it
    state = post(client, "/participants", {"sheet": {**sheet, "name": "Saqueador 2"}, "side": "hero"})
    assert state["names_shown"] == {}  # the name is a player's now


def test_a_fight_taken_up_again_names_its_fighters_as_before(app, tmp_path):
    CombatSession(tmp_path / "data").add_enemy("Mutante", 2)
    client = combat.attach(app, CombatSession(tmp_path / "data")).test_client()
    state = client.get("/api/combat?lang=en").get_json()
    assert state["names_shown"] == {"Mutante": "Mutant", "Mutante 2": "Mutant 2"}
    assert state["from_sheets"] == {"Mutante": "Mutante", "Mutante 2": "Mutante"}
