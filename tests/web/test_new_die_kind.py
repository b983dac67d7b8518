"""docs/architecture.md's d100 zocchihedron that is never read: one table per layer. With
100 added to rules.destiny_spec.CHARACTERISTIC_SIDES alone, a sheet may have a d100, the
combat page offers it, the API takes it and names it among the dice a sheet may have (in
the page's language), and a fight step waiting for it says what the tray shows instead."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from rules import destiny_spec
from vision.numerals import NumberedReading
from vision.reading import TrayReading
from web import combat

D100 = (*destiny_spec.CHARACTERISTIC_SIDES, 100)
SHEET = {"name": "Zocchi", "body": 6, "mind": 100, "soul": 6, "pv": 10}


@pytest.fixture
def fight(tmp_path, monkeypatch):
    monkeypatch.setattr(destiny_spec, "CHARACTERISTIC_SIDES", D100)
    times = iter(range(1000, 2000))
    d20 = NumberedReading(value=14, sides=20, box=(0, 0, 60, 60), center=(30, 30), color="blue",
                          confidence=0.9, kind="d20")
    return CombatSession(tmp_path / "data", numbered_reader=lambda image, color: TrayReading([d20], size=(640, 480)),
                         clock=lambda: next(times))


@pytest.fixture
def client(app, fight):
    return combat.attach(app, fight).test_client()


def post(client, path, body, **options):
    return client.post("/api/combat" + path, json=body, **options)


def test_the_page_and_the_api_take_a_sheet_with_a_d100(client):
    assert '<option value="100" >d100</option>' in client.get("/combat").get_data(as_text=True)
    answer = post(client, "/participants", {"sheet": SHEET, "side": "hero"})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["encounter"]["participants"][-1]["mind"] == 100


@pytest.mark.parametrize(("language", "said"), [
    ("en", "body must be a die: 4, 6, 8, 10, 12, or 100"),
    ("pt-BR", "body deve ser um dado: 4, 6, 8, 10, 12 ou 100"),
    ("es", "body debe ser un dado: 4, 6, 8, 10, 12 o 100"),
])
def test_a_die_a_sheet_cannot_have_is_refused_naming_the_table_s_dice(client, language, said):
    answer = post(client, "/participants", {"sheet": {**SHEET, "body": 7}, "side": "hero"},
                  headers={"Accept-Language": language})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == said


def test_a_step_waiting_for_the_d100_says_what_the_tray_shows_instead(client, fight):
    assert post(client, "/participants", {"sheet": SHEET, "side": "hero"}).status_code == 200
    post(client, "/enemies", {"sheet": "Saqueador"})
    state = post(client, "/tray", {"step": "initiative", "name": "Zocchi"}).get_json()
    assert state["tray"]["waiting"]["needs"] == "Zocchi's initiative needs a d100"
    assert fight.on_settled(None, 1500)
    assert fight.state()["tray"]["problem"]["text"] == "a d20 is in the tray: Zocchi's initiative needs a d100"
    for language in ("pt-BR", "es"):  # "d100" is its own name in every language: no catalogue entry
        shown = client.get("/api/combat", headers={"Accept-Language": language}).get_json()["tray"]["text"]
        assert "d100" in shown and "Zocchi" in shown and "initiative" not in shown, shown
    entered = post(client, "/initiative", {"values": {"Zocchi": 87, "Saqueador": 4}})
    assert entered.status_code == 200, entered.get_json()
