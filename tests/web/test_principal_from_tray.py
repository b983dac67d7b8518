"""POST /api/settings/principal-from-tray over the real controller: the one die in sight
measured and kept (GET /api/settings shows it), 409 with the reason in the phone's language
when no die or several are in sight, and the PIN asked for like every setting."""

from __future__ import annotations

import time

import pytest

from vision.synthetic import render_tray
from web import create_app
from web.security import hash_pin

URL = "/api/settings/principal-from-tray"
REFUSED = {
    "en": "2 dice in sight: leave the principal die alone in the tray",
    "pt-BR": "2 dados à vista: deixe só o dado principal na bandeja",
    "es": "2 dados a la vista: deja solo el dado principal en la bandeja",
}
NONE = {
    "en": "no photo from the camera yet: put the principal die alone in the tray",
    "pt-BR": "ainda não há foto da câmera: coloque o dado principal sozinho na bandeja",
    "es": "todavía no hay foto de la cámara: pon el dado principal solo en la bandeja",
}


@pytest.fixture
def real(real_controller):
    return real_controller(vision=True)


@pytest.fixture
def client(real):
    return create_app(real, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


def settle(controller, colors, seed=7):
    image, _ = render_tray(seed, count=len(colors), colors=list(colors), rotation=False)
    controller.on_settled(image, time.monotonic() + 1)


def test_the_one_die_in_sight_becomes_the_principal_colour(client, real):
    settle(real, ["purple"])
    answer = client.post(URL)
    assert answer.status_code == 200, answer.get_json()
    measured = answer.get_json()["principal_measured"]
    assert answer.get_json()["principal_color"] == measured["name"] == "purple"
    assert client.get("/api/settings").get_json()["principal_measured"] == measured


@pytest.mark.parametrize("language", REFUSED)
def test_not_one_die_in_sight_is_a_409_with_its_reason(client, real, language):
    headers = {"Accept-Language": language}
    assert client.post(URL, headers=headers).get_json() == {"error": NONE[language]}
    settle(real, ["blue", "white"])
    answer = client.post(URL, headers=headers)
    assert answer.status_code == 409
    assert answer.get_json() == {"error": REFUSED[language]}
    assert client.get("/api/settings").get_json()["principal_measured"] is None


def test_the_pin_is_asked_for(client, real):
    real.update_settings(pin=hash_pin("1234"))
    settle(real, ["purple"])
    assert client.post(URL).status_code == 401
    assert real.settings()["principal_measured"] is None
