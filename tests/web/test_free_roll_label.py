"""A roll is named by its preset's label as it was when rolled (README: History): a free roll
"Free roll", not the D6 spec the rules built from its dice ("2D6", "3D6"), and a preset of
the config by the label it gave it; the rolls API, the latest roll of the state, the history
page and the exports, in each language (a roll kept before labels were: test_old_history.py)."""

from __future__ import annotations

import json

import pytest

from web import create_app

from .conftest import csv_lines

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


#: The config's presets with labels of their own: a free roll's and a 2D6's.
OWN = [{"name": "mesa", "system": "free", "label": "Mesa livre"},
       {"name": "ataque", "system": "d6", "count": 2, "label": "Ataque"}]


@pytest.fixture
def own(real_controller):
    """Rolls of the config's presets that have labels of their own, then of the built-in
    free roll; the config's free roll relabelled after it was rolled."""
    real = real_controller(presets=OWN)
    for name, dice in (("mesa", [3, 5, 2]), ("ataque", [4, 2]), ("free", [1, 6])):
        real.arm(name)
        real.enter_dice(dice)
    real.update_settings(presets=[{**p, "label": "Mesa nova"} if p["name"] == "mesa" else p
                                  for p in real.settings()["presets"]])
    return create_app(real, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


@pytest.mark.parametrize("lang", FREE)
def test_a_preset_with_a_label_of_its_own_names_its_rolls_by_it(own, lang):
    """Newest first: the built-in free roll, "Ataque" (not the rules' "2D6"), "Mesa livre"
    (not "Free roll", nor the label the preset has now)."""
    rolls = own.get(f"/api/rolls?lang={lang}").get_json()["rolls"]
    assert [r["label_text"] for r in rolls] == [FREE[lang], "Ataque", "Mesa livre"]
    assert [r["label"] for r in rolls] == ["Free roll", "Ataque", "Mesa livre"]
    assert own.get(f"/api/rolls/{rolls[2]['id']}?lang={lang}").get_json()["label_text"] == "Mesa livre"
    page = own.get(f"/history?lang={lang}").get_data(as_text=True)
    assert "<strong>Mesa livre" in page and "<strong>Ataque" in page and f"<strong>{FREE[lang]}" in page
    assert "<strong>Mesa nova" not in page and "<strong>2D6" not in page  # (the filter names the presets as now)


def test_the_exports_give_each_roll_the_label_it_was_rolled_under(own):
    assert [line["label"] for line in csv_lines(own)] == ["Free roll", "Ataque", "Mesa livre"]
    exported = json.loads(own.get("/api/rolls.json").get_data(as_text=True))
    assert [roll["label"] for roll in exported] == ["Free roll", "Ataque", "Mesa livre"]
