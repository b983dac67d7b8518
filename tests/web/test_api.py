"""The JSON API through Flask's test client, against the fake controller."""

from __future__ import annotations

import base64
import csv
import io
import json

import cv2
import numpy as np
import pytest

from tests.fakes.controller import PRESETS


def test_state_has_the_contract_keys(client):
    state = client.get("/api/state").get_json()
    assert {"state", "preset", "roller", "prompt", "needs", "camera", "latest_roll", "odds"} <= set(state)
    assert state["camera"]["status"] == "ok"


def test_presets_are_listed(client):
    names = [p["name"] for p in client.get("/api/presets").get_json()["presets"]]
    assert names == ["2d6", "1d3+1", "pool5"]


def test_arm_then_throw_records_a_roll(client):
    armed = client.post("/api/arm", json={"preset": "2d6", "roller": "Nara"})
    assert armed.status_code == 200
    assert armed.get_json()["state"] == "armed" and armed.get_json()["roller"] == "Nara"
    assert client.post("/api/throw").status_code == 200
    rolls = client.get("/api/rolls?limit=5").get_json()
    assert len(rolls["rolls"]) == 1
    roll = rolls["rolls"][0]
    assert roll["preset"] == "2d6" and roll["roller"] == "Nara"
    assert [d["role"] for d in roll["dice"]] == ["principal", "secondary"]
    assert client.get("/api/state").get_json()["latest_roll"]["id"] == roll["id"]


def test_arm_unknown_preset_is_400(client):
    response = client.post("/api/arm", json={"preset": "9d9"})
    assert response.status_code == 400
    assert "9d9" in response.get_json()["error"]


def test_throw_on_a_real_camera_is_409(client, controller):
    controller.can_throw = False
    response = client.post("/api/throw")
    assert response.status_code == 409
    assert "cannot" in response.get_json()["error"]


def _roll(client, preset="2d6", values=(6, 3), roller=None):
    client.post("/api/arm", json={"preset": preset})
    client.post("/api/dice", json={"values": list(values), "roller": roller})
    return client.get("/api/state").get_json()["latest_roll"]


def test_history_is_newest_first_and_paged(client):
    ids = [_roll(client, values=(v, 1))["id"] for v in range(1, 6)]
    first = client.get("/api/rolls?limit=2").get_json()
    assert [r["id"] for r in first["rolls"]] == ids[::-1][:2]
    assert first["next_offset"] == 2
    last = client.get("/api/rolls?limit=2&offset=4").get_json()
    assert [r["id"] for r in last["rolls"]] == [ids[0]] and last["next_offset"] is None


def test_history_filters_by_player_and_preset(client):
    _roll(client, roller="Nara")
    _roll(client, roller="Rival")
    _roll(client, preset="pool5", values=(6, 7, 1, 2, 10), roller="Nara")
    by_player = client.get("/api/rolls?player=Nara").get_json()["rolls"]
    assert {r["roller"] for r in by_player} == {"Nara"} and len(by_player) == 2
    both = client.get("/api/rolls?player=Nara&preset=pool5").get_json()["rolls"]
    assert [r["preset"] for r in both] == ["pool5"]


def test_one_roll_and_unknown_ids(client):
    roll = _roll(client)
    assert client.get(f"/api/rolls/{roll['id']}").get_json()["id"] == roll["id"]
    for url in ("/api/rolls/999", f"/api/rolls/{2**70}", "/api/rolls/-1", "/api/rolls/abc"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "error" in response.get_json()


def test_dice_by_hand_records_a_hand_roll(client):
    roll = _roll(client, values=(4, 5), roller="Nara")
    assert [d["source"] for d in roll["dice"]] == ["hand", "hand"]
    assert roll["total"] == 9 and roll["roller"] == "Nara"


@pytest.mark.parametrize("value", [7, -1, 0, 100])
@pytest.mark.slow
def test_dice_by_hand_bad_face_is_400_with_the_faces_of_the_armed_dice(client, value):
    client.post("/api/arm", json={"preset": "2d6"})
    response = client.post("/api/dice", json={"values": [value, 1]})
    assert response.status_code == 400
    assert response.get_json()["error"] == "the dice of this roll show 1 to 6"


@pytest.mark.parametrize(("value", "lang", "error"), [
    ("3", "en", 'a die\'s value must be a whole number, such as 3 (got "3")'),
    ("3", "pt-BR", 'o valor de um dado deve ser um número inteiro, como 3 (recebido "3")'),
    ("3", "es", 'el valor de un dado debe ser un número entero, como 3 (se recibió "3")'),
    (1.5, "en", "a die's value must be a whole number, such as 3 (got 1.5)"),
    (True, "es", "el valor de un dado debe ser un número entero, como 3 (se recibió true)"),
])
def test_a_value_that_is_not_a_whole_number_is_refused_as_such(client, value, lang, error):
    """Trial 8: a correction ``{"value": "3"}`` answered "the dice of this roll show 1 to 6"."""
    client.post("/api/arm", json={"preset": "2d6"})
    roll = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    headers = {"Accept-Language": lang}
    corrected = client.post(f"/api/rolls/{roll['id']}/dice/1", json={"value": value}, headers=headers)
    assert corrected.status_code == 400 and corrected.get_json()["error"] == error
    client.post("/api/arm", json={"preset": "2d6"})
    by_hand = client.post("/api/dice", json={"values": [value, 1]}, headers=headers)
    assert by_hand.status_code == 400 and by_hand.get_json()["error"] == error
    assert client.get(f"/api/rolls/{roll['id']}").get_json()["dice"] == roll["dice"]  # nothing changed


def test_correction_keeps_the_read_value_and_who(client):
    roll = _roll(client, values=(2, 3))
    response = client.post(f"/api/rolls/{roll['id']}/dice/1", json={"value": 5, "who": "Lia"})
    assert response.status_code == 200
    fixed = response.get_json()
    assert fixed["total"] == 7 and fixed["dice"][1]["corrected"]
    assert fixed["corrections"][0] | {"at": None} == {"index": 1, "from": 3, "to": 5, "who": "Lia", "at": None}
    assert fixed["seq"] > roll["seq"]


def test_correction_cocked_die(client):
    roll = _roll(client, values=(2, 3))
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/0", json={"cocked": True}).get_json()
    assert fixed["complete"] is False and fixed["dice"][0]["natural"] is None


def test_correction_unknown_roll_or_die_is_404(client):
    roll = _roll(client)
    assert client.post("/api/rolls/77/dice/0", json={"value": 3}).status_code == 404
    assert client.post(f"/api/rolls/{roll['id']}/dice/5", json={"value": 3}).status_code == 404


def test_correction_needs_exactly_one_of_value_or_cocked(client):
    roll = _roll(client)
    url = f"/api/rolls/{roll['id']}/dice/0"
    for body in ({}, {"value": 3, "cocked": True}, {"cocked": False}, {"value": None}):
        assert client.post(url, json=body).status_code == 400, body


def test_set_principal(client):
    roll = _roll(client, values=(2, 6))
    fixed = client.post(f"/api/rolls/{roll['id']}/principal", json={"index": 1}).get_json()
    assert [d["role"] for d in fixed["dice"]] == ["secondary", "principal"]
    assert client.post(f"/api/rolls/{roll['id']}/principal", json={"index": 9}).status_code == 404


@pytest.mark.slow
def test_photo_served_by_id_only(client):
    client.post("/api/arm", json={"preset": "2d6"})
    client.post("/api/throw")
    roll_id = client.get("/api/state").get_json()["latest_roll"]["id"]
    with client.get(f"/api/rolls/{roll_id}/photo") as response:
        assert response.data == b"\xff\xd8annotated" and response.mimetype == "image/jpeg"
    with client.get(f"/api/rolls/{roll_id}/photo?annotated=0") as response:
        assert response.data == b"\xff\xd8raw"
    assert client.get(f"/api/rolls/{roll_id}/photo?annotated=maybe").status_code == 400
    assert client.get("/api/rolls/404/photo").status_code == 404


def test_hand_roll_has_no_photo(client):
    roll = _roll(client)
    response = client.get(f"/api/rolls/{roll['id']}/photo")
    assert response.status_code == 404 and "photo" in response.get_json()["error"]


def test_exports(client):
    _roll(client, values=(6, 1), roller="=cmd")
    _roll(client, preset="pool5", values=(6, 7, 1, 2, 10), roller="Nara")
    response = client.get("/api/rolls.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["preset"] for r in rows] == ["pool5", "2d6"]
    assert rows[1]["naturals"] == "6 1" and rows[1]["roller"] == "'=cmd"
    exported = json.loads(client.get("/api/rolls.json").get_data(as_text=True))
    assert [r["preset"] for r in exported] == ["pool5", "2d6"]
    only_nara = json.loads(client.get("/api/rolls.json?player=Nara").get_data(as_text=True))
    assert [r["roller"] for r in only_nara] == ["Nara"]


@pytest.mark.slow
def test_export_pages_through_a_long_history(client):
    for _ in range(250):
        _roll(client)
    exported = json.loads(client.get("/api/rolls.json").get_data(as_text=True))
    assert len(exported) == 250 and len({r["id"] for r in exported}) == 250


def test_clear_history(client):
    _roll(client)
    assert client.post("/api/history/clear").get_json() == {"cleared": True}
    assert client.get("/api/rolls").get_json()["rolls"] == []


def test_latest_frame(client, controller):
    assert client.get("/api/frame/latest").status_code == 404
    controller.frame = np.zeros((48, 64, 3), np.uint8)
    frame = client.get("/api/frame/latest").get_json()
    assert frame["image"].startswith("data:image/jpeg;base64,")
    assert (frame["width"], frame["height"]) == (64, 48)
    assert frame["reading"]["dice"][0]["color"] == "red"


@pytest.mark.slow
def test_latest_frame_is_scaled_for_a_phone_with_the_reading_size_kept(client, controller):
    controller.frame = np.zeros((3040, 4056, 3), np.uint8)
    frame = client.get("/api/frame/latest").get_json()
    assert (frame["width"], frame["height"]) == (4056, 3040)
    jpeg = base64.b64decode(frame["image"].split(",", 1)[1])
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (959, 1280)


def test_camera_setup_measures_the_dice_of_the_latest_frame(client, controller):
    assert client.get("/api/setup").status_code == 404
    controller.frame = np.zeros((3040, 4056, 3), np.uint8)  # its reading: one die of 10 px
    view = client.get("/api/setup").get_json()
    assert (view["width"], view["height"], view["die_px"], view["fit"]) == (4056, 3040, 10, "small")
    assert view["advice"] == "lower the camera or zoom in: dice are 10 px, the readers need 17 px or more"
    jpeg = base64.b64decode(view["image"].split(",", 1)[1])
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (959, 1280)
    es = client.get("/api/setup", headers={"Accept-Language": "es"}).get_json()
    assert es["advice"] == "baja la cámara o acerca el zoom: los dados miden 10 px, la lectura necesita 17 px o más"


@pytest.mark.parametrize(("language", "pool"), [
    ("en", "pool 5 · difficulty 2"), ("pt-BR", "parada 5 · dificuldade 2"), ("es", "reserva 5 · dificultad 2")])
def test_settings_say_which_preset_labels_the_rules_made(client, controller, language, pool):
    """The settings page is told each label in its language and whether the rules made it
    of the preset's rule (it then follows an edit of the rule), not left to read the label."""
    presets = controller.settings()["presets"]
    presets[1]["label"] = "Dano leve"           # written by the table
    presets[2]["spec"]["size"] = 6              # the label no longer says the rule
    controller.update_settings(presets=presets)
    labels = client.get("/api/settings", headers={"Accept-Language": language}).get_json()["preset_labels"]
    assert labels == {"2d6": {"text": "2D6", "made": True}, "1d3+1": {"text": "Dano leve", "made": False},
                      "pool5": {"text": pool, "made": False}}
    controller.update_settings(presets=PRESETS)
    assert client.get("/api/settings").get_json()["preset_labels"]["pool5"] == {"text": "pool 5 · difficulty 2",
                                                                                "made": True}


def test_settings_hide_the_pin(client, controller):
    settings = client.get("/api/settings").get_json()
    assert "pin" not in settings and settings["pin_set"] is False and settings["authorized"] is True
    changed = client.post("/api/settings", json={"principal_color": "blue"}).get_json()
    assert changed["principal_color"] == "blue"
    assert controller.settings()["principal_color"] == "blue"


def test_settings_presets_replace_the_list(client):
    preset = {"name": "3d6", "label": "3D6", "system": "d6", "sides": 6, "count": 3,
              "spec": {"count": 3, "kind": "D6", "modifier": 0}}
    assert client.post("/api/settings", json={"presets": [preset]}).status_code == 200
    assert [p["name"] for p in client.get("/api/presets").get_json()["presets"]] == ["3d6"]
    bad = client.post("/api/settings", json={"presets": [{"name": "x"}]})
    assert bad.status_code == 400 and "preset" in bad.get_json()["error"]


def test_manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"


@pytest.mark.parametrize(("house_rules", "error"), [
    ({"rule_of_one": "no"}, "rule_of_one must be true or false"),
    ({"target_number": 11}, "target_number"),
    ({"rule_of_two": True}, "unknown field: rule_of_two"),
    ([], "house_rules must be an object"),
])
def test_bad_house_rules_are_refused_with_the_reason(client, house_rules, error):  # RULES P-5b
    bad = client.post("/api/settings", json={"house_rules": house_rules})
    assert bad.status_code == 400 and error in bad.get_json()["error"]


def test_the_cocked_die_policy_is_a_setting_and_a_bad_one_is_refused_with_the_reason(client):  # RULES T-5
    assert client.get("/api/settings").get_json()["cocked_dice"] == "rethrow_die"
    changed = client.post("/api/settings", json={"cocked_dice": "accept_leaning"})
    assert changed.status_code == 200 and changed.get_json()["cocked_dice"] == "accept_leaning"
    for bad in ("lean", None, ["rethrow_set"]):
        refused = client.post("/api/settings", json={"cocked_dice": bad})
        assert refused.status_code == 400
        assert refused.get_json()["error"] == "cocked_dice must be one of rethrow_die, rethrow_set, accept_leaning"
    assert client.get("/api/settings").get_json()["cocked_dice"] == "accept_leaning"
