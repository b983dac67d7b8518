"""A past roll takes no throw: a die of it corrected to cocked is refused as a state that
does not allow it (409, README), with the reason in the phone's language, and nothing
changes (trial fault 7: it was 400). The state names the roll under way (current_roll)."""

from __future__ import annotations

import pytest

from web import create_app


@pytest.fixture
def client(real_controller):
    return create_app(real_controller(), {"TESTING": True, "SECRET_KEY": "t"}).test_client()


def test_a_past_rolls_die_corrected_to_cocked_is_409(client):
    client.post("/api/arm", json={"preset": "2d6"})
    past = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    assert client.get("/api/state").get_json()["current_roll"] == past["id"]
    client.post("/api/arm", json={"preset": "1d6"})
    assert client.get("/api/state").get_json()["current_roll"] is None
    client.post("/api/dice", json={"values": [2]})
    answer = client.post(f"/api/rolls/{past['id']}/dice/1", json={"cocked": True},
                         headers={"Accept-Language": "pt-BR"})
    assert answer.status_code == 409, answer.get_json()
    assert answer.get_json()["error"].startswith(f"a rolagem {past['id']} está terminada e não aceita mais dados")
    assert client.get(f"/api/rolls/{past['id']}").get_json() == past
