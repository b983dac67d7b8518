"""A free roll is named by its preset's label ("Free roll", README: History), not by the D6
spec the rules built from its dice ("2D6", "3D6"): the rolls API, the latest roll of the
state and the history page, in each language."""

from __future__ import annotations

import pytest

from web import create_app

#: lang → the free roll's label as that page words it.
FREE = {"en": "Free roll", "pt_BR": "Rolagem livre", "es": "Tirada libre"}


@pytest.fixture
def client(real_controller):
    real = real_controller()
    real.arm("free")
    real.enter_dice([3, 5, 2])  # three dice: the rules' label is "3D6"
    return create_app(real, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


@pytest.mark.parametrize("lang", FREE)
def test_a_free_roll_is_named_free_roll(client, lang):
    roll = client.get(f"/api/rolls?lang={lang}").get_json()["rolls"][0]
    assert roll["label_text"] == FREE[lang]
    assert client.get(f"/api/state?lang={lang}").get_json()["latest_roll"]["label_text"] == FREE[lang]
    page = client.get(f"/history?lang={lang}").get_data(as_text=True)
    assert f"<strong>{FREE[lang]}" in page and "3D6" not in page
