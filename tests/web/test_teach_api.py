"""/api/teach (web/teach.py, issue 17 item 2): the teaching round through the API, its words
in the phone's language, and a 4xx with the reason for what it cannot take."""

from __future__ import annotations

import pytest

from tests.device.controller_fakes import die, numbered, photo
from web import create_app
from web.security import hash_pin


def test_a_throw_fixed_and_confirmed_becomes_examples(client, controller):
    assert client.post("/api/teach/start").get_json()["on"] is True
    controller.teach_throw([("d6-pips", 3), ("d10", 7)])
    state = client.get("/api/teach").get_json()
    assert [(d["name"], d["sides"], d["read"], d["value"]) for d in state["dice"]] == \
        [("pip d6", 6, 3, 3), ("d10", 10, 7, 7)]
    state = client.post("/api/teach/dice/1", json={"value": 0}).get_json()   # a d10's 0 is 10
    assert [(d["value"], d["fixed"]) for d in state["dice"]] == [(3, False), (10, True)]
    state = client.post("/api/teach/confirm", json={"who": "Nara"}).get_json()
    assert state["dice"] == []
    assert state["kinds"] == [
        {"kind": "d10", "name": "d10", "examples": {"10": 1}, "count": 1, "count_text": "1 example",
         "lacking": [1, 2, 3, 4, 5, 6, 7, 8, 9], "lacking_text": "no example yet of 1, 2, 3, 4, 5, 6, 7, 8, and 9"},
        {"kind": "d6-pips", "name": "pip d6", "examples": {"3": 1}, "count": 1, "count_text": "1 example",
         "lacking": [1, 2, 4, 5, 6], "lacking_text": "no example yet of 1, 2, 4, 5, and 6"}]
    assert client.post("/api/teach/stop").get_json()["on"] is False


@pytest.mark.parametrize(("lang", "count", "lacking"), [
    ("pt-BR", "2 exemplos", "ainda sem exemplo de 1, 2, 4, 5 e 6"),
    ("es", "2 ejemplos", "todavía sin ejemplo de 1, 2, 4, 5 y 6"),
])
def test_the_counts_and_the_values_lacking_are_said_in_the_phones_language(client, controller, lang, count, lacking):
    client.post("/api/teach/start")
    controller.teach_throw([("d6-pips", 3), ("d6-pips", 3)])
    kind = client.post("/api/teach/confirm", headers={"Accept-Language": lang}).get_json()["kinds"][0]
    assert (kind["name"], kind["count_text"], kind["lacking_text"]) == \
        ({"pt-BR": "d6 de pontos", "es": "d6 de puntos"}[lang], count, lacking)


@pytest.mark.parametrize(("path", "body", "status", "error"), [
    ("/api/teach/confirm", {}, 409, "no throw to confirm: throw the set into the tray"),
    ("/api/teach/dice/0", {"value": 3}, 404, "no die 1 in the throw"),
    ("/api/teach/dice/0", {"value": "3"}, 400, "value must be a whole number from 0 to 20"),
    ("/api/teach/dice/0", {"value": 3, "kind": "d8"}, 400, "unknown field: kind"),
    ("/api/teach/confirm", {"who": "x" * 41}, 400, "who must be at most 40 characters"),
    ("/api/teach/start", {"now": True}, 400, "unknown field: now"),
])
def test_what_it_cannot_take_is_a_4xx_with_the_reason(client, path, body, status, error):
    client.post("/api/teach/start")
    response = client.post(path, json=body)
    assert response.status_code == status and response.get_json() == {"error": error}


def test_a_value_not_on_the_die_or_a_die_without_one_is_refused_in_the_phones_language(client, controller):
    client.post("/api/teach/start")
    controller.teach_throw([("d6-pips", None)])
    response = client.post("/api/teach/confirm", headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 400
    assert response.get_json()["error"] == "o dado 1 não tem valor: toque nele e informe o valor"
    response = client.post("/api/teach/dice/0", json={"value": 7}, headers={"Accept-Language": "es"})
    assert response.status_code == 400 and response.get_json()["error"] == "un d6 de puntos muestra de 1 a 6"
    assert client.get("/api/teach").get_json()["kinds"] == []   # nothing taught


def test_the_pin_guards_every_step(client, controller):
    controller.update_settings(pin=hash_pin("2468"))
    for path in ("/api/teach/start", "/api/teach/stop", "/api/teach/skip", "/api/teach/confirm",
                 "/api/teach/dice/0"):
        assert client.post(path, json={}).status_code == 401, path
    assert client.get("/api/teach").status_code == 200


@pytest.fixture
def sim(real_controller, reader, clock):
    """The real controller with a camera that throws by itself, d6s only, as the simulated
    one: each throw settles at once, a d10 7 and a pip d6 3 (its count of dice in ``sim.counts``)."""
    counts = []

    def throw(count):
        counts.append(count)
        frame = photo(reader, numbered(7, "d10", x=100, y=100), die(3, "white", 300, 100))
        controller.on_settled(frame, clock.tick())

    controller = real_controller(camera={"throw": throw, "read_now": lambda: None, "can_throw": True,
                                         "can_throw_dice": lambda sides: sides == 6})
    controller.counts = counts
    return controller


@pytest.mark.parametrize("armed", [None, "2d6", "pool5"])
def test_a_throw_during_the_round_is_the_rounds_and_the_roll_is_left_as_it_was(sim, armed):
    """The Throw of a camera that throws by itself (/teach and the live page: POST /api/throw)
    throws the camera's own set for the round, with no roll armed or any roll (RULES T-2:
    the roll waits for the round; the simulated camera throws no d10s for a pool)."""
    client = create_app(sim, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    if armed:
        sim.arm(armed)
    assert client.post("/api/teach/start").get_json()["can_throw"] is True
    before = client.get("/api/state").get_json()
    assert before["state"] == ("armed" if armed else "idle") and before["preset"] == armed
    thrown = client.post("/api/throw")
    assert thrown.status_code == 200, thrown.get_json()
    held = client.get("/api/teach").get_json()["dice"]
    assert [(d["kind"], d["read"]) for d in held] == [("d10", 7), ("d6-pips", 3)]
    assert all(d["crop"].startswith("data:image/png;base64,") for d in held)
    assert sim.counts == [None]                            # the camera's set, not the roll's dice
    assert client.get("/api/state").get_json() == before


def test_after_a_finished_roll_a_throw_during_the_round_arms_nothing_again(sim):
    client = create_app(sim, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    sim.arm("2d6")
    sim.enter_dice([3, 4])
    client.post("/api/teach/start")
    before = client.get("/api/state").get_json()
    assert before["state"] == "resolved" and before["latest_roll"]["total"] == 7
    assert client.post("/api/throw").status_code == 200
    assert client.get("/api/state").get_json() == before   # still resolved, its roll the latest
    assert len(client.get("/api/teach").get_json()["dice"]) == 2


def test_can_throw_says_whether_the_camera_throws_the_set(real_controller):
    controller = real_controller()
    client = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    assert client.post("/api/teach/start").status_code == 409  # no camera: the round would get no throw
    controller.on_status("ok")  # a real camera: it reads the tray, it throws nothing
    assert client.post("/api/teach/start").get_json()["can_throw"] is False
    assert client.post("/api/throw").status_code == 409


@pytest.mark.parametrize(("lang", "why"), [
    ("en", "teaching needs the camera, and none is reading the tray: connect it, or start dicelens with it"),
    ("pt-BR", "ensinar precisa da câmera, e nenhuma está lendo a bandeja: conecte-a ou inicie o dicelens com ela"),
    ("es", "enseñar necesita la cámara, y ninguna está leyendo la bandeja: conéctala o inicia dicelens con ella"),
])
def test_no_round_starts_without_a_camera_and_the_state_says_why(client, controller, lang, why):
    """Trial fault 13: with no camera (`serve --camera usb:5`) a round would never get a throw."""
    headers = {"Accept-Language": lang}
    assert client.get("/api/teach", headers=headers).get_json()["why_not"] is None
    controller.set_camera("no camera", "USB camera 5 could not be opened")
    assert client.get("/api/teach", headers=headers).get_json()["why_not"] == why
    answer = client.post("/api/teach/start", headers=headers)
    assert (answer.status_code, answer.get_json()) == (409, {"error": why})
    assert client.get("/api/teach").get_json()["on"] is False
    controller.set_camera("ok")
    assert client.post("/api/teach/start").get_json()["on"] is True
