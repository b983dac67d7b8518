"""The page's "this die is the principal die" and corrections, through the API, over the real
controller and history: the dice's principal flags and roles agree and the roll is resolved
as if thrown that way (RULES D6-2..D6-4)."""

from __future__ import annotations

import csv
import io

import pytest

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from web import create_app


@pytest.fixture
def client(tmp_path):
    with History(tmp_path) as history:
        app = create_app(Controller(build_presets(), history), {"TESTING": True, "SECRET_KEY": "t"})
        yield app.test_client()


def agree(roll) -> bool:
    return all(die["principal"] == (die["role"] == "principal") for die in roll["dice"])


def perfect_roll_with_a_cocked_extra_die(client) -> dict:
    """2D6 by hand: principal 6 (a perfect roll), secondary 4; its extra die lands cocked."""
    client.post("/api/arm", json={"preset": "2d6"})
    client.post("/api/dice", json={"values": [6, 4]})
    roll = client.post("/api/dice", json={"values": [2]}).get_json()["latest_roll"]
    cocked = client.post(f"/api/rolls/{roll['id']}/dice/2", json={"cocked": True})
    assert cocked.status_code == 200, cocked.get_json()
    assert not cocked.get_json()["complete"] and client.get("/api/state").get_json()["state"] == "prompting"
    return cocked.get_json()


def test_a_new_principal_die_re_resolves_the_roll(client):
    roll = perfect_roll_with_a_cocked_extra_die(client)
    fixed = client.post(f"/api/rolls/{roll['id']}/principal", json={"index": 1})
    assert fixed.status_code == 200, fixed.get_json()
    fixed = fixed.get_json()
    assert agree(fixed) and [(d["natural"], d["role"], d.get("surplus", False)) for d in fixed["dice"]] == [
        (6, "secondary", False), (4, "principal", False), (None, None, True)]  # no perfect roll: its extra die kept aside
    assert fixed["complete"] and not fixed["perfect"] and fixed["total"] == 10
    assert client.get("/api/state").get_json()["state"] == "resolved"
    assert client.get(f"/api/rolls/{roll['id']}").get_json()["dice"] == fixed["dice"]


def test_a_correction_of_the_principal_die_re_resolves_the_roll(client):
    roll = perfect_roll_with_a_cocked_extra_die(client)
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/0", json={"value": 3}).get_json()
    assert agree(fixed) and fixed["complete"] and fixed["total"] == 3 + 4
    assert [d["role"] for d in fixed["dice"]] == ["principal", "secondary", None]


@pytest.mark.slow
def test_a_change_that_would_leave_a_past_roll_waiting_for_dice_is_409_with_what_it_needs(client):
    client.post("/api/arm", json={"preset": "2d6"})
    old = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    client.post("/api/arm", json={"preset": "1d6"})
    client.post("/api/dice", json={"values": [2]})
    response = client.post(f"/api/rolls/{old['id']}/dice/0", json={"value": 6})
    assert response.status_code == 409 and response.get_json()["needs"]["kind"] == "D3"  # given as "more"
    assert response.get_json()["error"].startswith(f"roll {old['id']} is finished and can take no more dice")
    assert "Rolagem Perfeita" in response.get_json()["error"]
    assert client.get(f"/api/rolls/{old['id']}").get_json() == old


@pytest.mark.slow
def test_the_principal_die_chosen_again_is_400_and_not_recorded(client):
    client.post("/api/arm", json={"preset": "2d6"})
    roll = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    response = client.post(f"/api/rolls/{roll['id']}/principal", json={"index": 0})
    assert response.status_code == 400 and "already the principal die" in response.get_json()["error"]
    assert client.get(f"/api/rolls/{roll['id']}").get_json()["corrections"] == []
    spanish = client.post(f"/api/rolls/{roll['id']}/principal", json={"index": 0}, headers={"Accept-Language": "es"})
    assert spanish.get_json()["error"] == "el dado 1 ya es el dado principal: nada que cambiar"  # rules/phrase.py


@pytest.mark.slow
def test_face_errors_give_the_faces_of_the_roll_s_dice(client):
    assert client.post("/api/dice", json={"values": [1]}).status_code == 409   # nothing armed
    client.post("/api/arm", json={"preset": "pool5"})
    response = client.post("/api/dice", json={"values": [-1, 1, 1, 1, 1]})
    assert response.status_code == 400 and response.get_json()["error"] == "the dice of this roll show 0 to 10 (0 is 10)"
    roll = client.post("/api/dice", json={"values": [0, 1, 2, 3, 4]}).get_json()["latest_roll"]
    assert roll["dice"][0]["natural"] == 10   # the printed 0 is 10 (RULES P-1)
    response = client.post(f"/api/rolls/{roll['id']}/dice/1", json={"value": 11})
    assert response.status_code == 400 and response.get_json()["error"] == "the dice of this roll show 0 to 10 (0 is 10)"
    client.post("/api/arm", json={"preset": "2d6"})
    six = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    response = client.post(f"/api/rolls/{six['id']}/dice/1", json={"value": 0})
    assert response.status_code == 400 and response.get_json()["error"] == "the dice of this roll show 1 to 6"


@pytest.mark.parametrize("lang, error", [("pt-BR", "os dados desta rolagem mostram de 1 a 6"),
                                         ("es", "los dados de esta tirada muestran de 1 a 6")])
@pytest.mark.slow
def test_the_faces_error_is_in_the_page_s_language(client, lang, error):
    client.post("/api/arm", json={"preset": "2d6"})
    response = client.post("/api/dice", json={"values": [9, 1]}, headers={"Accept-Language": lang})
    assert response.status_code == 400 and response.get_json()["error"] == error


@pytest.mark.slow
def test_the_csv_marks_an_unread_die_with_a_dash(client):
    perfect_roll_with_a_cocked_extra_die(client)
    row = next(csv.DictReader(io.StringIO(client.get("/api/rolls.csv").get_data(as_text=True))))
    assert (row["naturals"], row["values"]) == ("6 4 -", "6 4 -")  # was "6 4 ": the cocked die vanished


def test_the_csv_names_a_die_kept_aside_surplus(client):
    roll = perfect_roll_with_a_cocked_extra_die(client)
    client.post(f"/api/rolls/{roll['id']}/dice/0", json={"value": 3})
    line = client.get("/api/rolls.csv").get_data(as_text=True).splitlines()[1]
    assert ",principal|secondary|surplus," in line and ",3 4 -," in line  # the surplus die counts nothing
    row = next(csv.DictReader(io.StringIO(client.get("/api/rolls.csv").get_data(as_text=True))))
    assert row["corrected"] == "1 3"  # dice 0 and 2 of the API were corrected: numbered from 1, as on the page
