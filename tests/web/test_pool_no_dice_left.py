"""A pool preset whose penalty takes every die (size 2, penalty 3) is labelled and
resolved as RULES P-8 says: no dice left, an automatic failure, never "pool -1" (trial
fault 4), in the page's words for a pool in each language."""

from __future__ import annotations

import pytest

from web import create_app


@pytest.fixture
def client(real_controller):
    return create_app(real_controller(), {"TESTING": True, "SECRET_KEY": "t"}).test_client()


@pytest.mark.parametrize(("lang", "label"), [("en", "pool 0 · difficulty 1"),
                                             ("pt-BR", "parada 0 · dificuldade 1"),
                                             ("es", "reserva 0 · dificultad 1")])
def test_a_pool_left_with_no_dice_is_labelled_pool_0_in_the_pages_words(client, lang, label):
    rows = client.get("/api/settings").get_json()["presets"]
    row = {"name": "weak", "system": "pool", "spec": {"size": 2, "penalty": 3}}
    answer = client.post("/api/settings", json={"presets": [*rows, row]}, headers={"Accept-Language": lang})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["preset_labels"]["weak"] == {"text": label, "made": True}


def test_a_pool_left_with_no_dice_is_an_automatic_failure_with_its_odds(client):
    rows = client.get("/api/settings").get_json()["presets"]
    client.post("/api/settings", json={"presets": [*rows, {"name": "weak", "system": "pool",
                                                            "spec": {"size": 2, "penalty": 3}}]})
    assert client.post("/api/arm", json={"preset": "weak"}).status_code == 200
    state = client.get("/api/state").get_json()
    assert state["odds"]["automatic_failure"] is True and state["odds"]["p_success"] == 0
