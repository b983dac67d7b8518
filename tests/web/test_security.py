"""PIN on control actions, sessions, lock-out, and the same-origin check."""

from __future__ import annotations

import pytest

from web import create_app
from web.security import hash_pin

CONTROL = [
    ("/api/arm", {"preset": "2d6"}),
    ("/api/throw", None),
    ("/api/read", None),
    ("/api/dice", {"values": [1, 2]}),
    ("/api/rolls/1/dice/0", {"value": 3}),
    ("/api/rolls/1/principal", {"index": 1}),
    ("/api/settings", {"principal_color": "blue"}),
    ("/api/history/clear", None),
]


@pytest.fixture
def locked(client, controller):
    controller.arm("2d6")
    controller.enter_dice([2, 3])
    controller.update_settings(pin=hash_pin("2468"))
    return client


@pytest.mark.parametrize(("url", "body"), CONTROL)
@pytest.mark.slow
def test_control_actions_need_the_pin(locked, url, body):
    response = locked.post(url, json=body)
    assert response.status_code == 401 and "PIN" in response.get_json()["error"]
    assert locked.post(url, json=body, headers={"X-Dicelens-Pin": "2468"}).status_code == 200


def test_reading_needs_no_pin(locked):
    for url in ("/api/state", "/api/rolls", "/api/rolls/1", "/api/presets", "/api/settings"):
        assert locked.get(url).status_code == 200, url


def test_wrong_pin_in_header_is_401(locked):
    assert locked.post("/api/arm", json={"preset": "2d6"}, headers={"X-Dicelens-Pin": "1111"}).status_code == 401


@pytest.mark.parametrize("body", [{}, {"pin": ""}])
def test_login_without_a_pin_is_a_bad_request_not_a_wrong_pin(locked, body):
    response = locked.post("/api/login", json=body)
    assert (response.status_code, response.get_json()["error"]) == (400, "enter the PIN")
    assert locked.post("/api/arm", json={"preset": "2d6"}).status_code == 401


@pytest.mark.slow
def test_login_session_then_logout(locked):
    assert locked.post("/api/login", json={"pin": "0000"}).status_code == 401
    assert locked.post("/api/login", json={"pin": "2468"}).get_json() == {"authorized": True}
    assert locked.get("/api/settings").get_json()["authorized"] is True
    assert locked.post("/api/arm", json={"preset": "2d6"}).status_code == 200
    assert locked.post("/api/logout").get_json() == {"authorized": False}
    assert locked.post("/api/arm", json={"preset": "2d6"}).status_code == 401


@pytest.mark.slow
def test_changing_the_pin_ends_other_sessions_but_not_the_changer(app, locked):
    other = app.test_client()
    other.post("/api/login", json={"pin": "2468"})
    assert locked.post("/api/settings", json={"pin": "13579"}, headers={"X-Dicelens-Pin": "2468"}).status_code == 200
    assert other.post("/api/arm", json={"preset": "2d6"}).status_code == 401
    assert locked.post("/api/arm", json={"preset": "2d6"}).status_code == 200


@pytest.mark.slow
def test_set_and_clear_pin(client, controller):
    settings = client.post("/api/settings", json={"pin": "1234"}).get_json()
    assert settings["pin_set"] is True and "pin" not in settings
    assert controller.settings()["pin"] != "1234"  # stored hashed
    assert client.post("/api/settings", json={"pin": None}).get_json()["pin_set"] is False
    assert client.post("/api/settings", json={"pin": "12a4"}).status_code == 400


def test_wrong_pins_lock_the_address_out(controller):
    client = create_app(controller, {"TESTING": True, "PIN_ATTEMPTS": 3}).test_client()
    controller.update_settings(pin=hash_pin("2468"))
    for _ in range(3):
        assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    locked_out = client.post("/api/login", json={"pin": "2468"})
    assert locked_out.status_code == 429 and "error" in locked_out.get_json()


def test_login_without_a_pin_set_is_authorized(client):
    assert client.post("/api/login", json={}).get_json() == {"authorized": True}


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Referer": "http://evil.example/page"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
])
def test_cross_site_posts_are_refused(client, controller, headers):
    response = client.post("/api/arm", json={"preset": "2d6"}, headers=headers)
    assert response.status_code == 403 and "cross-site" in response.get_json()["error"]
    assert controller.state()["state"] == "idle"


@pytest.mark.parametrize("headers", [
    {},
    {"Origin": "http://localhost"},
    {"Referer": "http://localhost/settings"},
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
])
def test_same_origin_posts_pass(client, headers):
    assert client.post("/api/arm", json={"preset": "2d6"}, headers=headers).status_code == 200


def test_cross_site_get_is_fine(client):
    assert client.get("/api/state", headers={"Origin": "http://evil.example"}).status_code == 200


@pytest.mark.parametrize("headers", [
    {"Host": "evil.example", "Origin": "http://evil.example"},
    {"Host": "evil.example:8019", "Origin": "http://evil.example:8019", "Sec-Fetch-Site": "same-origin"},
    {"Host": "evil.example"},
    {"Host": "192.0.2.77"},
])
@pytest.mark.slow
def test_a_host_the_server_does_not_know_is_refused(client, controller, headers):
    """DNS rebinding: evil.example resolving to this machine is same-origin with itself."""
    for url, body in (("/api/arm", {"preset": "2d6"}), ("/api/settings", {"presets": None})):
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 403 and "host" in response.get_json()["error"]
    assert controller.state()["state"] == "idle"
    assert client.get("/api/state", headers=headers).status_code == 200  # reading is harmless


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8019", "[::1]:8019", "LOCALHOST.",
                                  "dice.home", "tray.lan:8000", "10.0.0.9", "mesa.example:8443"])
@pytest.mark.slow
def test_known_hosts_pass(controller, host):
    app = create_app(controller, {"TESTING": True, "SECRET_KEY": "t", "SERVE_HOST": "10.0.0.9",
                                  "ALLOWED_HOSTS": "dice.home, tray.lan",
                                  "JOIN_URL": "https://mesa.example:8443/"})
    headers = {"Host": host, "Origin": f"http://{host}"}
    assert app.test_client().post("/api/arm", json={"preset": "2d6"}, headers=headers).status_code == 200


def test_the_machines_own_names_and_addresses_pass(controller, monkeypatch):
    import socket

    monkeypatch.setattr(socket, "gethostname", lambda: "tabletop")
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(None, None, None, "", ("192.168.1.40", 0))])
    monkeypatch.setenv("DICE_ALLOWED_HOSTS", '["dice.home"]')
    app = create_app(controller, {"TESTING": True, "SECRET_KEY": "t", "SERVE_HOST": "0.0.0.0"})
    client = app.test_client()
    for host in ("tabletop", "tabletop.local:8000", "192.168.1.40:8000", "dice.home"):
        answer = client.post("/api/arm", json={"preset": "2d6"}, headers={"Host": host})
        assert answer.status_code == 200, host
    assert client.post("/api/arm", json={"preset": "2d6"}, headers={"Host": "elsewhere"}).status_code == 403


def test_every_address_of_this_machines_interfaces_passes(client):
    from web.security import _interface_addresses

    addresses = _interface_addresses()
    assert "127.0.0.1" in addresses  # read from the interfaces themselves (lo)
    for address in addresses:
        host = f"[{address}]:8000" if ":" in address else f"{address}:8000"
        answer = client.post("/api/arm", json={"preset": "2d6"}, headers={"Host": host})
        assert answer.status_code == 200, host
