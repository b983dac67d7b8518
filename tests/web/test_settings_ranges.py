"""Every refusal of a number in Settings → Rolls names its row and its field, with the
field's own range (trial fault 14: a pool of 101 dice was refused "numbers in a preset go
from -100 to 100", no row, no field, a range no pool size has), in the page's language."""

from __future__ import annotations

import pytest

from web import create_app


@pytest.fixture
def client(real_controller):
    return create_app(real_controller(), {"TESTING": True, "SECRET_KEY": "t"}).test_client()


CASES = [
    ({"system": "pool", "spec": {"size": 101}}, {"en": "Roll 8: Dice: from 0 to 100 (not 101)",
                                                 "pt-BR": "Rolagem 8: Dados: de 0 a 100 (não 101)",
                                                 "es": "Tirada 8: Dados: de 0 a 100 (no 101)"}),
    ({"system": "pool", "spec": {"size": 3, "difficulty": 0}}, {"en": "Roll 8: Difficulty: from 1 to 100 (not 0)",
                                                                "pt-BR": "Rolagem 8: Dificuldade: de 1 a 100 (não 0)",
                                                                "es": "Tirada 8: Dificultad: de 1 a 100 (no 0)"}),
    ({"system": "d6", "spec": {"count": 2, "modifier": 1000}},
     {"en": "Roll 8: Modifier: from -100 to 100 (not 1000)", "pt-BR": "Rolagem 8: Modificador: de -100 a 100 (não 1000)",
      "es": "Tirada 8: Modificador: de -100 a 100 (no 1000)"}),
    ({"system": "d6", "spec": {"count": 0}}, {"en": "Roll 8: Dice: from 1 to 100 (not 0)",  # as a pool's Dice
                                              "pt-BR": "Rolagem 8: Dados: de 1 a 100 (não 0)",
                                              "es": "Tirada 8: Dados: de 1 a 100 (no 0)"}),
]


@pytest.mark.parametrize(("lang", "error"), [
    ("en", "Roll 1: name is missing: 1-40 letters, digits or . _ + - starting with a letter or digit"),
    ("pt-BR", "Rolagem 1: o nome está faltando: de 1 a 40 letras, dígitos ou . _ + - começando com uma letra ou um "
              "dígito"),
    ("es", "Tirada 1: falta el nombre: de 1 a 40 letras, dígitos o . _ + - empezando por una letra o un dígito"),
])
def test_a_roll_without_a_name_is_said_to_miss_it(client, lang, error):
    answer = client.post("/api/settings", json={"presets": [{}]}, headers={"Accept-Language": lang})
    assert answer.status_code == 400 and answer.get_json()["error"] == error


@pytest.mark.parametrize("lang", ["en", "pt-BR", "es"])
@pytest.mark.parametrize(("row", "errors"), CASES)
def test_a_number_out_of_its_range_is_refused_naming_row_field_and_range(client, lang, row, errors):
    rows = client.get("/api/settings").get_json()["presets"]
    answer = client.post("/api/settings", json={"presets": [*rows, {"name": "x", **row}]},
                         headers={"Accept-Language": lang})
    assert answer.status_code == 400 and answer.get_json()["error"] == errors[lang]
    assert client.get("/api/settings").get_json()["presets"] == rows  # nothing saved


def test_the_row_counts_from_one_as_the_page_does(client):
    rows = client.get("/api/settings").get_json()["presets"]
    first = {"name": "x", "system": "pool", "spec": {"size": 2, "penalty": 200}}
    answer = client.post("/api/settings", json={"presets": [first, *rows]})
    assert answer.get_json()["error"] == "Roll 1: Penalty (dice): from 0 to 100 (not 200)"
