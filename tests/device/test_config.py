"""The TOML config: defaults with no file, every key checked with a message naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.config import Config, ConfigError, load_config
from device.presets import build_presets


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dicelens.toml"
    path.write_text(text)
    return path


def test_no_file_gives_desktop_defaults():
    config = load_config(None)
    assert config == Config()
    assert config.camera.source == "sim" and config.web.port == 8000
    assert config.data_folder is None  # chosen by the camera when serving (test_serve)
    assert config.settle_seconds == 0.4 and config.chain_limit == 100 and config.resume_minutes == 30
    assert [p.name for p in config.presets] == ["free", "1d6", "2d6", "1d3", "1d2", "2d6-random", "pool5"]


def test_built_in_presets():
    presets = {p.name: p.to_dict() for p in build_presets()}
    assert presets["free"] == {"name": "free", "label": "Free roll", "system": "free", "sides": 6,
                               "count": None, "spec": {}}
    assert presets["2d6-random"]["label"] == "random 2D6" and presets["2d6-random"]["spec"]["random"]
    assert presets["1d2"]["spec"]["kind"] == "D2"
    assert presets["pool5"]["sides"] == 10 and presets["pool5"]["count"] == 5
    assert presets["pool5"]["spec"]["difficulty"] == 1


def test_full_file(tmp_path):
    config = load_config(write(tmp_path, """
        data_folder = "~/dice"
        pin = "2468"
        principal_color = "gold"
        settle_seconds = 0.6
        chain_limit = 20
        resume_minutes = 10
        photo_cap_mb = 50
        [camera]
        source = "file:photos"
        width = 640
        height = 480
        auto_throw = 5
        [web]
        host = "0.0.0.0"
        port = 8080
        [buttons]
        presets = { "2d6" = 5, "3d6+1" = 6 }
        read_now = 13
        led = 0
        [house_rules]
        rule_of_ten = false
        target_number = 7
        [[presets]]
        name = "3d6+1"
        count = 3
        modifier = 1
        [[presets]]
        name = "pool5"
        system = "pool"
        size = 6
        difficulty = 2
    """))
    assert config.data_folder == Path.home() / "dice" and config.pin == "2468"
    assert config.resume_minutes == 10
    assert config.principal_color == "gold" and config.camera.auto_throw == 5.0
    assert config.camera.source == "file:photos" and config.web.port == 8080
    assert config.buttons.presets == {"2d6": 5, "3d6+1": 6} and config.buttons.led is None
    assert config.house_rules.rule_of_ten is False and config.house_rules.target_number == 7
    presets = {p.name: p for p in config.presets}
    assert presets["3d6+1"].label == "3D6+1" and presets["pool5"].spec.size == 6
    assert presets["pool5"].spec.options.target_number == 7
    assert list(presets)[-1] == "3d6+1"


@pytest.mark.parametrize(("text", "message"), [
    ("colour = 'red'", "unknown key colour in the top level; allowed: data_folder, pin,"),
    ("[camera]\nsorce = 'sim'", "unknown key camera.sorce in [camera]; allowed: source, width, height, auto_throw"),
    ("[camera]\nsource = 'webcam'", "camera.source must be one of sim, file:PATH, usb:N, picamera2 (got 'webcam')"),
    ("[camera]\nwidth = 'wide'", "camera.width must be a whole number 64 to 8192 (got 'wide')"),
    ("[web]\nport = 70000", "web.port must be a whole number 1 to 65535 (got 70000)"),
    ("settle_seconds = -1", "settle_seconds must be a number 0.05 to 10 (got -1)"),
    ("resume_minutes = -5", "resume_minutes must be a number 0 to 10080 (got -5)"),
    ("principal_color = 'mauve'", "principal_color must be one of white, black, red,"),
    ("pin = 12", "pin must be a string of 4 to 12 digits"),
    ("pin = '\u0661\u0662\u0663\u0664'", "pin must be a string of 4 to 12 digits 0-9"),
    ("[camera]\nsource = 'usb:\u0663'", "camera.source must be one of sim, file:PATH, usb:N, picamera2"),
    ("[house_rules]\nrule_of_ten = 'yes'", "house_rules.rule_of_ten must be true or false (got 'yes')"),
    ("[house_rules]\ntarget_number = 11", "house_rules.target_number must be a whole number 2 to 10"),
    ("[buttons]\npresets = { '2d6' = 40 }", "buttons.presets.2d6 must be a BCM pin number 2 to 27 (got 40)"),
    ("[buttons]\npresets = { '5d6' = 17 }", "buttons.presets: no preset named '5d6'; presets: free, 1d6,"),
    ("[buttons]\npresets = { '2d6' = 17 }\nread_now = 17", "buttons.read_now: pin 17 is already used by buttons.presets.2d6"),
    ("[[presets]]\nname = 'x'\nsystem = 'd20'", "presets[0]: system must be one of free, d6, pool (got 'd20')"),
    ("[[presets]]\nname = 'x'\ncount = 2\nsides = 8", "presets[0]: unknown key 'sides' for a d6 preset; allowed: name, label, system, count, kind, modifier, random"),
    ("[[presets]]\nname = 'x'\ncount = 0", "presets[0]: a D6 roll needs at least 1 die"),
    ("[[presets]]\nname = 'x'\nsystem = 'pool'", "presets[0]: size is required for a pool preset"),
    ("[[presets]]\nname = 'x'\ncount = 1000", "presets[0]: a D6 roll takes at most 100 dice, not 1000"),
    ("[[presets]]\nname = 'x'\nsystem = 'pool'\nsize = 90\nbonus = 20", "presets[0]: a pool holds at most 100 dice after bonus and penalty, not 110"),
    ("[[presets]]\nname = 'a b'\ncount = 1", "presets[0]: name must be 1-40 letters"),
    ("[[presets]]\nname = 'x'\ncount = 1\n[[presets]]\nname = 'x'\ncount = 2", "presets[1]: name 'x' is used twice"),
    ("camera = 3", "camera must be a table"),
    ("this is not toml", "not valid TOML"),
])
def test_bad_key_or_value_names_it(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert message in str(error.value)
    assert str(error.value).startswith(f"config {path}: ")
    assert isinstance(error.value, ValueError)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read it"):
        load_config(tmp_path / "nope.toml")
