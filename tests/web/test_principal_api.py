"""The page's "this die is the principal die" and corrections, through the API, over the real
controller and history: the dice's principal flags and roles agree and the roll is resolved
as if thrown that way (RULES D6-2..D6-4)."""

from __future__ import annotations

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
    assert agree(fixed) and [(d["natural"], d["role"]) for d in fixed["dice"]] == [
        (6, "secondary"), (4, "principal")]  # the 6 is secondary now: no perfect roll, no extra die
    assert fixed["complete"] and not fixed["perfect"] and fixed["total"] == 10
    assert client.get("/api/state").get_json()["state"] == "resolved"
    assert client.get(f"/api/rolls/{roll['id']}").get_json()["dice"] == fixed["dice"]


def test_a_correction_of_the_principal_die_re_resolves_the_roll(client):
    roll = perfect_roll_with_a_cocked_extra_die(client)
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/0", json={"value": 3}).get_json()
    assert agree(fixed) and fixed["complete"] and fixed["total"] == 3 + 4
    assert [d["role"] for d in fixed["dice"]] == ["principal", "secondary"]
