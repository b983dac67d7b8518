"""Settings → Rolls refused with the row a player edited ("Roll 8"), in the page's language,
not the config's ``presets[7]`` (trial 8)."""

from __future__ import annotations

import pytest

from web import create_app


@pytest.fixture
def client(real_controller):
    return create_app(real_controller(), {"TESTING": True, "SECRET_KEY": "t"}).test_client()


def saved(client, rows: list[dict], lang: str):
    return client.post("/api/settings", json={"presets": rows}, headers={"Accept-Language": lang})


@pytest.mark.parametrize(("lang", "error"), [
    ("en", "Roll 8: name must be 1-40 letters, digits or . _ + - starting with a letter or digit (got '')"),
    ("es", "Tirada 8: el nombre debe tener de 1 a 40 letras, dígitos o . _ + - y empezar por una letra "
           "o un dígito (se recibió '')"),
    ("pt-BR", "Rolagem 8: o nome deve ter de 1 a 40 letras, dígitos ou . _ + - e começar com uma letra "
              "ou um dígito (recebido '')"),
])
def test_a_roll_added_without_a_name_is_refused_naming_its_row(client, lang, error):
    rows = client.get("/api/settings").get_json()["presets"]
    assert len(rows) == 7
    answer = saved(client, [*rows, {"count": 3, "kind": "D6", "name": ""}], lang)
    assert answer.status_code == 400 and answer.get_json()["error"] == error
    assert len(client.get("/api/settings").get_json()["presets"]) == 7  # nothing saved


@pytest.mark.parametrize("row", [
    {"name": "x", "system": "d20"},
    {"name": "x", "count": 2, "sides": 8},
    {"name": "x", "count": 0},
    {"name": "x", "system": "pool"},
    {"name": "x", "label": " ", "count": 2},
    {"name": "x", "count": 2, "random": "yes"},
    {"name": "x", "system": "d6"},
    {"name": "2d6", "count": 2},
])
@pytest.mark.parametrize("lang", ["pt-BR", "es"])
def test_every_refused_roll_is_said_in_the_pages_language(client, row, lang):
    rows = client.get("/api/settings").get_json()["presets"]
    answer = saved(client, [*rows, row], lang)
    error = answer.get_json()["error"]
    assert answer.status_code == 400 and error.startswith(("Rolagem 8: ", "Tirada 8: ")), error
    assert "presets[" not in error and " must " not in error and " is " not in error, error


@pytest.mark.parametrize("lang", ["pt-BR", "es"])
def test_removing_every_roll_is_refused_in_the_pages_language(client, lang):
    error = saved(client, [], lang).get_json()["error"]
    assert "presets" not in error and "must" not in error, error
