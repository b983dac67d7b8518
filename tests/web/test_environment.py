"""web.environment: every DICE_* variable the app reads, checked as create_app will read it."""

from __future__ import annotations

import json

import pytest

from web import DEFAULTS, create_app
from web.environment import SETTINGS, EnvironmentSettingError, check_environment, host_names


def test_the_defaults_and_good_values_pass():
    good = {f"DICE_{key}": json.dumps(value) for key, value in DEFAULTS.items()
            if key != "PERMANENT_SESSION_LIFETIME"}
    good |= {"DICE_HEALTH_FRAME_SECONDS": "2.5", "DICE_HEALTH_MIN_FREE_MB": "0",
             "DICE_JOIN_URL": "http://dice.home:8000/", "DICE_ALLOWED_HOSTS": '["dice.home", "192.168.1.9"]',
             "DICE_SESSION_COOKIE_SECURE": "true", "DICE_PERMANENT_SESSION_LIFETIME": "86400",
             "PATH": "/bin", "DICE": "not ours"}
    check_environment(good)
    check_environment({"DICE_ALLOWED_HOSTS": "dice.home, [fe80::1], tray.lan."})


def test_every_setting_the_app_has_is_known():
    assert set(DEFAULTS) <= set(SETTINGS)
    assert {"HEALTH_FRAME_SECONDS", "HEALTH_MIN_FREE_MB", "JOIN_URL", "ALLOWED_HOSTS"} <= set(SETTINGS)


@pytest.mark.parametrize(("variable", "value", "allowed"), [
    ("DICE_HEALTH_FRAME_SECONDS", "abc", "a number of seconds from 0.1 to 3600"),
    ("DICE_HEALTH_FRAME_SECONDS", "NaN", "a number of seconds from 0.1 to 3600"),
    ("DICE_HEALTH_MIN_FREE_MB", "-1", "a number of megabytes from 0 to 1000000"),
    ("DICE_MAX_CONTENT_LENGTH", "5", "a whole number of bytes from 1024 to 67108864"),
    ("DICE_HEARTBEAT_SECONDS", "true", "a number of seconds from 1 to 3600"),
    ("DICE_PIN_ATTEMPTS", "2.5", "a whole number from 1 to 1000"),
    ("DICE_JOIN_URL", "dice.home", "an http:// or https:// address"),
    ("DICE_JOIN_URL", "http://dice.home:99999/", "an http:// or https:// address"),
    ("DICE_JOIN_URL", "http://" + "d" * 5000 + "/", "an http:// or https:// address of at most 300 characters"),
    ("DICE_ALLOWED_HOSTS", "not json", "('not json' is not a host name or address)"),
    ("DICE_ALLOWED_HOSTS", "[dice.home", "('[dice.home' is not a host name or address)"),
    ("DICE_ALLOWED_HOSTS", "5", "names separated by commas (5 is not a list of names)"),
    ("DICE_ALLOWED_HOSTS", '["ok", 5]', "names separated by commas (5 is not a host name or address)"),
    ("DICE_SESSION_COOKIE_SAMESITE", "lax", "Lax, Strict or None"),
])
def test_a_bad_value_names_the_variable_and_what_is_allowed(variable, value, allowed):
    with pytest.raises(EnvironmentSettingError) as raised:
        check_environment({variable: value})
    message = str(raised.value)
    assert message.startswith(f"{variable} must be ") and allowed in message
    assert "\n" not in message and len(message) < 400


def test_an_unknown_name_lists_the_settings():
    with pytest.raises(EnvironmentSettingError, match=r"DICE_JOIN_ULR is not a dicelens setting; "
                                                      r"the settings are: DICE_HEARTBEAT_SECONDS, "):
        check_environment({"DICE_JOIN_ULR": "http://dice.home/"})


def test_host_names_as_the_security_check_reads_them():
    assert host_names("Dice.Home., tray.lan") == ["dice.home", "tray.lan"]
    assert host_names(["[::1]"]) == ["::1"]
    with pytest.raises(ValueError):
        host_names("dice home")


def test_allowed_hosts_with_commas_let_the_host_in(controller, monkeypatch):
    monkeypatch.setenv("DICE_ALLOWED_HOSTS", "dice.home,tray.lan")
    app = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"})
    answer = app.test_client().post("/api/arm", json={"preset": "2d6"}, headers={"Host": "tray.lan"})
    assert answer.status_code == 200
