"""A die nothing read is by hand, not corrected, wherever the history is read (the rolls API,
the CSV and JSON exports, /api/dice-stats): as the device keeps the roll, a die tapped in
and later marked the principal die too, and in a history an earlier version wrote."""

from __future__ import annotations

import json

import pytest

from device.history import History
from tests.device.controller_fakes import die, photo
from tests.device.old_history import CORRECTED, write_old_history
from web import create_app


@pytest.fixture
def history(tmp_path):
    """The real history over a file an earlier version wrote (tests/device/old_history.py)."""
    write_old_history(tmp_path / "data")
    with History(tmp_path / "data") as history:
        yield history


@pytest.fixture
def real(real_controller):
    return real_controller(refit_seconds=3600)


@pytest.fixture
def client(real):
    return create_app(real, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


def _csv(client) -> list[dict]:
    head, *rows = client.get("/api/rolls.csv").get_data(as_text=True).splitlines()
    return [dict(zip(head.split(","), row.split(","), strict=True)) for row in rows]


def _pips(client) -> dict:
    [pips] = [k for k in client.get("/api/dice-stats").get_json()["kinds"] if k["kind"] == "d6-pips"]
    return {key: pips[key] for key in ("read", "corrected", "by_hand")}


def test_an_old_historys_dice_a_correction_added_are_by_hand_everywhere(client):
    """The old roll: the camera's 3 corrected to 4, a 5 tapped in, a 6 tapped in then
    corrected to 2, a 6 tapped in then marked the principal die."""
    assert [d["corrected"] for d in client.get("/api/rolls").get_json()["rolls"][0]["dice"]] == CORRECTED
    assert [d["corrected"] for d in client.get("/api/rolls/1").get_json()["dice"]] == CORRECTED
    [exported] = json.loads(client.get("/api/rolls.json").get_data(as_text=True))
    assert [d["corrected"] for d in exported["dice"]] == CORRECTED
    [line] = _csv(client)
    assert line["sources"] == "camera hand hand hand" and line["corrected"] == "1 3"
    assert _pips(client) == {"read": 1, "corrected": 1, "by_hand": 3}


def test_a_die_tapped_in_then_marked_principal_is_by_hand_in_the_api_and_exports(client, real, reader, clock):
    real.arm("free")
    real.on_settled(photo(reader, die(3, "red", 100, 100, principal=True), die(2, "white", 300, 100)), clock.tick())
    roll_id = real.state()["latest_roll"]["id"]
    assert client.post(f"/api/rolls/{roll_id}/dice", json={"x": 450, "y": 300, "value": 5}).status_code == 200
    marked = client.post(f"/api/rolls/{roll_id}/principal", json={"index": 2})
    assert marked.status_code == 200, marked.get_json()
    assert [d["corrected"] for d in marked.get_json()["dice"]] == [False, False, False]
    assert [d["corrected"] for d in client.get(f"/api/rolls/{roll_id}").get_json()["dice"]] == [False, False, False]
    exported = json.loads(client.get("/api/rolls.json").get_data(as_text=True))[0]
    assert exported["id"] == roll_id and [d["corrected"] for d in exported["dice"]] == [False, False, False]
    line = _csv(client)[0]
    assert line["sources"] == "camera camera hand" and line["corrected"] == ""
