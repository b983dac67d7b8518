"""The API and the event stream over the real controller, history (SQLite) and vision."""

from __future__ import annotations

import csv
import io
import json
import tempfile
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from vision.synthetic import render_tray
from web import create_app

from .test_events import Stream
from .test_malformed import BAD_FIELDS, POSTS, field_names, json_values


@pytest.fixture
def real(real_controller):
    return real_controller(vision=True)


@pytest.fixture
def client(real):
    return create_app(real, {"TESTING": True, "HEARTBEAT_SECONDS": 0.05, "SECRET_KEY": "t"}).test_client()


def camera_roll(controller, values=(3, 4), colors=("red", "white")):
    """Arm 2D6 and hand the controller a settled synthetic tray, as the camera loop does."""
    controller.arm("2d6", roller="Nara")
    image, _ = render_tray(7, values=list(values), colors=list(colors), rotation=False)
    controller.on_settled(image, time.monotonic() + 1)
    return controller.state()


@pytest.mark.slow
def test_camera_roll_through_the_api(client, real):
    state = camera_roll(real)
    assert state["state"] == "resolved", state["prompt"]
    roll = client.get("/api/rolls?limit=1").get_json()["rolls"][0]
    assert roll["id"] == state["latest_roll"]["id"] and roll["roller"] == "Nara"
    assert roll["total"] == sum(d["natural"] for d in roll["dice"]) and len(roll["dice"]) == 2
    with client.get(f"/api/rolls/{roll['id']}/photo") as photo:
        assert photo.status_code == 200 and photo.data[:2] == b"\xff\xd8"
    with client.get(f"/api/rolls/{roll['id']}/photo?annotated=0") as photo:
        assert photo.status_code == 200
    frame = client.get("/api/frame/latest").get_json()
    assert {d["color"] for d in frame["reading"]["dice"]} == {"red", "white"}


@pytest.mark.slow
def test_correction_resolves_again_and_is_streamed(client, real):
    state = camera_roll(real)
    assert state["state"] == "resolved", state["prompt"]
    roll = state["latest_roll"]
    stream = Stream(client, headers={"Last-Event-ID": str(roll["seq"])})
    stream.next(), stream.next_event()
    white = next(d for d in roll["dice"] if d["role"] == "secondary")
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/{white['index']}", json={"value": 1, "who": "Lia"})
    assert fixed.status_code == 200, fixed.get_json()
    assert fixed.get_json()["total"] == roll["total"] - white["natural"] + 1
    event = stream.next_event()
    while event["event"] != "roll":
        event = stream.next_event()
    assert event["data"]["total"] == fixed.get_json()["total"] and int(event["id"]) == fixed.get_json()["seq"]
    correction = event["data"]["corrections"][-1]
    assert (correction["from"], correction["to"], correction["who"]) == (white["natural"], 1, "Lia")
    stream.close()


def test_dice_by_hand_and_states(client):
    assert client.post("/api/dice", json={"values": [3, 4]}).status_code == 409  # nothing armed
    client.post("/api/arm", json={"preset": "pool5"})
    assert client.post("/api/dice", json={"values": [1, 2]}).status_code == 400  # five dice needed
    state = client.post("/api/dice", json={"values": [6, 7, 0, 2, 3], "roller": "Rui"}).get_json()
    assert state["state"] in ("prompting", "resolved")
    roll = client.get("/api/rolls?player=Rui").get_json()["rolls"][0]
    assert {d["source"] for d in roll["dice"]} == {"hand"}


@pytest.mark.slow
def test_one_of_two_10s_corrected_over_the_api_keeps_the_extra_reroll_die_aside(client):
    client.post("/api/arm", json={"preset": "pool5"})
    client.post("/api/dice", json={"values": [10, 10, 2, 3, 4]})
    roll = client.post("/api/dice", json={"values": [5, 6]}).get_json()["latest_roll"]
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/0", json={"value": 4})
    assert fixed.status_code == 200, fixed.get_json()
    roll = fixed.get_json()
    assert roll["complete"] and roll["successes"] == 1 and roll["dice"][6]["surplus"]
    assert client.get("/api/state").get_json()["state"] == "resolved"


@pytest.mark.parametrize(("lang", "error"), [
    ("en", "this camera cannot throw: throw the dice into the tray"),
    ("pt-BR", "esta câmera não joga dados: jogue os dados na bandeja"),  # web/messages.py
    ("es", "esta cámara no tira dados: tira los dados en la bandeja"),
])
@pytest.mark.slow
def test_throw_without_a_throwing_camera_is_409_in_the_players_language(client, lang, error):
    client.post("/api/arm", json={"preset": "2d6"})
    response = client.post("/api/throw", headers={"Accept-Language": lang})
    assert (response.status_code, response.get_json()["error"]) == (409, error)


@pytest.mark.slow
def test_settings_and_pin_with_the_real_controller(client, real):
    assert client.post("/api/settings", json={"principal_color": "blue"}).get_json()["principal_color"] == "blue"
    assert client.post("/api/settings", json={"principal_color": "plaid"}).status_code == 400
    assert client.post("/api/settings", json={"pin": "8642"}).get_json()["pin_set"] is True
    assert real.settings()["pin"].startswith("pbkdf2:")
    other = client.application.test_client()
    assert other.post("/api/arm", json={"preset": "2d6"}).status_code == 401
    assert other.post("/api/arm", json={"preset": "2d6"}, headers={"X-Dicelens-Pin": "8642"}).status_code == 200


@pytest.mark.slow
def test_exports_and_history_clear(client, real):
    roll = camera_roll(real)["latest_roll"]
    exported = json.loads(client.get("/api/rolls.json").get_data(as_text=True))
    assert [r["id"] for r in exported] == [roll["id"]] and exported[0]["total"] == roll["total"]
    assert "2d6" in client.get("/api/rolls.csv").get_data(as_text=True)
    client.post("/api/history/clear")
    assert client.get("/api/rolls").get_json()["rolls"] == []


@settings(max_examples=40, deadline=None)
@given(url=st.sampled_from(POSTS), body=st.dictionaries(field_names, json_values, max_size=3))
@pytest.mark.slow
def test_random_bodies_never_answer_500(url, body):
    with tempfile.TemporaryDirectory() as folder, History(folder) as history:
        controller = Controller(build_presets(), history)
        controller.arm("2d6")
        controller.enter_dice([3, 4])  # roll 1 exists for the roll URLs
        client = create_app(controller, {"TESTING": True}).test_client()
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        assert response.status_code < 500, (url, body, response.get_data()[:300])


@pytest.mark.parametrize(("url", "body"), [(u, b) for u, bodies in BAD_FIELDS.items() for b in bodies])
@pytest.mark.slow
def test_wrong_fields_are_400(client, real, url, body):
    real.arm("2d6")
    real.enter_dice([3, 4])
    response = client.post(url, json=body)
    assert response.status_code == 400, (url, body, response.get_json())
    assert isinstance(response.get_json()["error"], str)


@pytest.mark.parametrize("presets", [
    [{"name": "x", "system": "d6", "count": "two"}],
    [{"name": "x", "system": "d6", "count": 2, "modifier": [1]}],
    [{"name": "x", "system": "pool", "size": 10**30}],
    [{"name": "x", "system": "pool", "size": 5, "difficulty": {"a": 1}}],
    [{"name": "", "system": "d6", "count": 1}],
    [{"name": "x", "system": "d20"}],
])
@pytest.mark.slow
def test_bad_presets_are_400(client, presets):
    response = client.post("/api/settings", json={"presets": presets})
    assert response.status_code == 400, response.get_json()


@pytest.mark.slow
def test_the_largest_page_the_api_documents_is_200(client, real):
    for values in ([1, 2], [3, 4], [5, 6]):
        real.arm("2d6")
        real.enter_dice(values)
    whole = client.get("/api/rolls?limit=500")
    assert whole.status_code == 200
    assert len(whole.get_json()["rolls"]) == 3 and whole.get_json()["next_offset"] is None
    page = client.get("/api/rolls?limit=2").get_json()
    assert [r["id"] for r in page["rolls"]] == [r["id"] for r in whole.get_json()["rolls"][:2]]
    assert page["next_offset"] == 2
    assert client.get("/api/rolls?limit=3").get_json()["next_offset"] is None
    assert client.get("/history?limit=200").status_code == 200


def test_a_lower_layer_refusing_accepted_input_is_a_4xx_not_500(client, real, monkeypatch):
    def refuse(*args, **kwargs):
        raise ValueError("limit must be 1 to 500 and offset at least 0")

    monkeypatch.setattr(real, "rolls", refuse)
    for url in ("/api/rolls?limit=500", "/history?limit=200"):
        answer = client.get(url)
        assert answer.status_code == 400, url
        assert "limit must be" in answer.get_json()["error"]


@pytest.mark.slow
def test_null_presets_restore_the_configured_ones(client, real):
    configured = client.get("/api/presets").get_json()["presets"]
    mine = [{"name": "3d6", "system": "d6", "count": 3}]
    assert client.post("/api/settings", json={"presets": mine}).status_code == 200
    assert [p["name"] for p in client.get("/api/presets").get_json()["presets"]] == ["3d6"]
    restored = client.post("/api/settings", json={"presets": None})
    assert restored.status_code == 200, restored.get_json()
    assert restored.get_json()["presets"] == configured
    assert client.get("/api/presets").get_json()["presets"] == configured
    page = client.get("/settings").get_data(as_text=True)
    assert 'id="preset-restore"' in page


def test_throw_and_read_the_camera_cannot_do_are_409_and_nothing_waits(real_controller):
    def sim_throw(count):  # as the sim camera: 1 to 8 dice per throw
        if count is not None and not 1 <= count <= 8:
            raise ValueError(f"sim camera: dice per throw must be 1 to 8, got {count}")

    real = real_controller(vision=True, presets=[{"name": "9d6", "system": "d6", "count": 9}],
                           camera={"throw": sim_throw, "read_now": lambda: None, "can_throw": True})
    client = create_app(real, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    assert client.post("/api/arm", json={"preset": "9d6"}).status_code == 200
    thrown = client.post("/api/throw")
    assert thrown.status_code == 409 and "1 to 8, got 9" in thrown.get_json()["error"]
    assert client.get("/api/state").get_json()["state"] == "armed"


@pytest.mark.slow
def test_the_csv_roles_split_back_per_die_and_the_player_filter_ignores_case(client, real):
    real.arm("pool5", roller="Nara")
    real.enter_dice([1, 1, 3, 4, 5])          # no success, two ones left over: a botch
    real.arm("2d6", roller="Zara")
    real.enter_dice([3, 4])
    rows = list(csv.DictReader(io.StringIO(client.get("/api/rolls.csv?player=nara").get_data(as_text=True))))
    assert [row["roller"] for row in rows] == ["Nara"]
    roles = rows[0]["roles"].split("|")        # a role may hold spaces ("one left over")
    assert len(roles) == len(rows[0]["naturals"].split(" ")) == 5 and roles.count("one left over") == 2
    assert [r["roller"] for r in client.get("/api/rolls?player=NARA").get_json()["rolls"]] == ["Nara"]


def test_a_past_roll_s_correction_that_needs_a_die_says_which_and_takes_it(client, real):
    """RULES D6-4: a finished roll's extra die corrected 2 → 6 asks for the next extra die:
    409 naming it, then the same correction with ``more`` resolves the roll."""
    real.arm("2d6")
    real.enter_dice([6, 3])
    first = real.enter_dice([2])["latest_roll"]
    real.arm("2d6")
    real.enter_dice([2, 3])
    url = f"/api/rolls/{first['id']}/dice/2"
    refused = client.post(url, json={"value": 6})
    assert refused.status_code == 409
    assert refused.get_json()["needs"] == {"count": 1, "sides": 6, "kind": "D3",
                                           "reason": "the extra die showed 6: roll the principal die again (counts as D3)"}
    assert client.post(url, json={"value": 6, "more": [9]}).status_code == 400     # a d6 shows 1 to 6
    done = client.post(url, json={"value": 6, "more": [4]})
    assert done.status_code == 200 and done.get_json()["total"] == 6 + 3 + 3 + 2
    assert done.get_json()["corrections"][-1]["from"] is None    # the die the correction added
    too_many = client.post(f"/api/rolls/{first['id']}/dice/3", json={"value": 1, "more": [5]})
    assert too_many.status_code == 400 and "needs no more dice" in too_many.get_json()["error"]
