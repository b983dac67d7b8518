"""A roll's note through the API in the request's language (#18): the rules' chain bound
(RULES T-4) and a roll a restart closed as abandoned (RULES T-3); the downloads keep English."""

from __future__ import annotations

import pytest

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from web import create_app

LANGUAGES = ("en", "pt-BR", "es")
CHAIN = {"en": "chain stopped after 1 extra die: the last 6 counts 3 and asks for no more",
         "pt-BR": "cadeia parada depois de 1 dado extra: o último 6 conta 3 e não pede mais",
         "es": "cadena detenida tras 1 dado extra: el último 6 cuenta 3 y no pide más"}
RESTARTED = {"en": "abandoned: dicelens restarted 0 minutes after its last step (a roll is taken up again within 0)",
             "pt-BR": "abandonada: o dicelens reiniciou 0 minutos depois do seu último passo (uma rolagem é "
                      "retomada em até 0)",
             "es": "abandonada: dicelens se reinició 0 minutos después de su último paso (una tirada se retoma "
                   "dentro de 0)"}
GONE = {"en": "abandoned: its preset 2d6 is no more", "pt-BR": "abandonada: a rolagem 2d6 em que foi feita não existe mais",
        "es": "abandonada: su preajuste 2d6 ya no existe"}


@pytest.fixture
def history(tmp_path):
    with History(tmp_path) as history:
        yield history


def client_of(controller):
    return create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


def notes(client, roll_id):
    """The roll's note in each language: its own answer, the history's page of the API, the state."""
    found = {}
    for language in LANGUAGES:
        headers = {"Accept-Language": language}
        one = client.get(f"/api/rolls/{roll_id}", headers=headers).get_json()["note"]
        page = client.get("/api/rolls?limit=5", headers=headers).get_json()["rolls"]
        assert [roll["note"] for roll in page if roll["id"] == roll_id] == [one]
        latest = client.get("/api/state", headers=headers).get_json()["latest_roll"]
        assert latest["id"] != roll_id or latest["note"] == one
        found[language] = one
    return found


def test_the_rules_chain_bound_note_is_in_the_requests_language(history):
    controller = Controller(build_presets(), history, chain_limit=1)
    controller.arm("2d6")
    controller.enter_dice([6, 2])
    roll = controller.enter_dice([6])["latest_roll"]  # the extra die shows 6 too: the bound stops the chain
    client = client_of(controller)
    assert notes(client, roll["id"]) == CHAIN
    csv = client.get("/api/rolls.csv", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert CHAIN["en"] in csv  # the downloads keep the English


@pytest.mark.parametrize(("presets", "resume_seconds", "expected"), [
    (build_presets(), 0, RESTARTED),
    ([preset for preset in build_presets() if preset.name != "2d6"], 30 * 60, GONE),
], ids=["too late", "preset gone"])
def test_a_roll_a_restart_closed_as_abandoned_says_why_in_the_requests_language(history, presets,
                                                                                resume_seconds, expected):
    before = Controller(build_presets(), history)
    before.arm("2d6")
    roll = before.enter_dice([6, 2])["latest_roll"]  # waits for its extra die (RULES D6-4) when dicelens stops
    after = Controller(presets, history, resume_seconds=resume_seconds)
    assert notes(client_of(after), roll["id"]) == expected


REMOVED = {"en": "abandoned: Long one was removed from the rolls before this roll was complete",
           "pt-BR": "abandonada: Long one foi removida das rolagens antes de esta rolagem terminar",
           "es": "abandonada: Long one se quitó de las tiradas antes de que esta tirada terminara"}


def test_a_roll_whose_preset_settings_removed_mid_roll_says_so_and_nothing_stays_armed(history):
    """Trial fault 5: Settings → "Restore the default rolls" while a roll of a preset it removes waits."""
    controller = Controller(build_presets(), history)
    controller.update_settings(presets=controller.presets() + [
        {"name": "longone", "system": "d6", "count": 2, "label": "Long one"}])
    controller.arm("longone")
    roll = controller.enter_dice([6, 4])["latest_roll"]  # a perfect roll waits for its D3
    client = client_of(controller)
    assert client.post("/api/settings", json={"presets": None}).status_code == 200
    assert notes(client, roll["id"]) == REMOVED
    state = client.get("/api/state", headers={"Accept-Language": "es"}).get_json()
    assert (state["preset"], state["label"], state["label_text"]) == (None, None, None)


def test_the_state_names_the_armed_preset_by_its_label_in_the_requests_language(history):
    controller = Controller(build_presets(), history)
    controller.arm("free")
    state = client_of(controller).get("/api/state", headers={"Accept-Language": "es"}).get_json()
    assert (state["preset"], state["label_text"]) == ("free", "Tirada libre")
