"""The wrong-PIN limit holds against guesses fired at once, and never locks a phone out of reading."""

from __future__ import annotations

import threading
import time

import pytest

from web import create_app, security
from web.security import hash_pin


@pytest.fixture
def slow_checks(monkeypatch):
    """Every PIN check takes 50 ms (a Pi's hash is ~14 ms): parallel guesses overlap in it.
    Returns the list of PINs that were checked."""
    checked, lock = [], threading.Lock()
    real = security.pin_matches

    def slow(pin, stored):
        with lock:
            checked.append(pin)
        time.sleep(0.05)
        return real(pin, stored)

    monkeypatch.setattr(security, "pin_matches", slow)
    return checked


def _fire(app, count: int, body_of, url="/api/login", headers_of=None) -> list[int]:
    statuses = [None] * count
    start = threading.Barrier(count)

    def one(n):
        client = app.test_client()
        start.wait(timeout=10)
        headers = headers_of(n) if headers_of else {}
        statuses[n] = client.post(url, json=body_of(n), headers=headers).status_code

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


@pytest.mark.slow
def test_32_parallel_logins_check_at_most_5_pins(controller, slow_checks):
    app = create_app(controller, {"TESTING": True})
    controller.update_settings(pin=hash_pin("2468"))
    # 31 wrong guesses and the right PIN last, all at once from one address.
    statuses = _fire(app, 32, lambda n: {"pin": "2468" if n == 31 else f"{1000 + n}"})
    wrong = [pin for pin in slow_checks if pin != "2468"]
    assert len(wrong) <= 5  # a right PIN, when it came in time, gave its attempt back
    assert statuses.count(401) == len(wrong)
    assert statuses.count(200) == slow_checks.count("2468") <= 1
    assert statuses.count(429) == 32 - len(slow_checks)


@pytest.mark.slow
def test_parallel_header_pins_check_at_most_5(controller, slow_checks):
    app = create_app(controller, {"TESTING": True})
    controller.update_settings(pin=hash_pin("2468"))
    statuses = _fire(app, 20, lambda n: {"preset": "2d6"}, url="/api/arm",
                     headers_of=lambda n: {"X-Dicelens-Pin": f"{1000 + n}"})
    assert len(slow_checks) == 5
    assert sorted(statuses) == [401] * 5 + [429] * 15


def test_a_right_pin_does_not_use_up_an_attempt(controller):
    client = create_app(controller, {"TESTING": True, "PIN_ATTEMPTS": 2}).test_client()
    controller.update_settings(pin=hash_pin("2468"))
    for _ in range(4):
        assert client.post("/api/login", json={"pin": "2468"}).status_code == 200
    assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    assert client.post("/api/login", json={"pin": "2468"}).status_code == 200


def test_a_cookie_copied_before_logout_arms_nothing(controller):
    app = create_app(controller, {"TESTING": True})
    controller.update_settings(pin=hash_pin("2468"))
    phone, thief = app.test_client(), app.test_client()
    assert phone.post("/api/login", json={"pin": "2468"}).status_code == 200
    cookie = phone.get_cookie("session")
    thief.set_cookie("session", cookie.value)
    assert thief.post("/api/arm", json={"preset": "2d6"}).status_code == 200
    assert phone.post("/api/logout").get_json() == {"authorized": False}
    assert thief.post("/api/arm", json={"preset": "2d6"}).status_code == 401
    assert thief.get("/api/settings").get_json()["authorized"] is False


@pytest.mark.parametrize("url", ["/", "/history", "/settings", "/api/settings"])
@pytest.mark.slow
def test_wrong_pin_headers_on_reads_use_no_attempt(controller, url):
    client = create_app(controller, {"TESTING": True, "PIN_ATTEMPTS": 2}).test_client()
    controller.update_settings(pin=hash_pin("2468"))
    for _ in range(5):
        assert client.get(url, headers={"X-Dicelens-Pin": "0000"}).status_code == 200
    assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    assert client.post("/api/login", json={"pin": "2468"}).status_code == 200
