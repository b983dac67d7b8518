"""systemd/dicelens.service: `systemd-analyze verify` passes, and the unit says what the Pi needs."""

from __future__ import annotations

import json
import shlex
import shutil
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from device.cli import build_parser

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "dicelens.service"
EXEC = "/opt/dicelens/venv/bin/dicelens"  # where systemd/install.sh puts the venv


def settings(text: str) -> dict[str, list[str]]:
    """The unit's ``Key=value`` lines, by key (a key may repeat), sections ignored."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def verify(unit_text: str, folder: Path, name: str = "dicelens.service") -> subprocess.CompletedProcess:
    """Run `systemd-analyze verify` on a copy of the unit whose ExecStart points at this venv's
    dicelens (verify checks the program exists, and /opt/dicelens is not on this machine)."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: apt-get install systemd"
    program = Path(sys.executable).with_name("dicelens")
    assert program.exists(), "install the project first: pip install -e '.[test]'"
    copy = folder / name
    copy.write_text(unit_text.replace(EXEC, str(program)))
    return subprocess.run([analyze, "verify", "--man=no", str(copy)], cwd=folder,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def unit() -> dict[str, list[str]]:
    return settings(UNIT.read_text())


def test_systemd_analyze_verify_passes(tmp_path):
    result = verify(UNIT.read_text(), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""  # not even a warning (unknown keys warn)


def test_verify_would_catch_a_mistake(tmp_path):
    broken = UNIT.read_text().replace("ProtectHome=yes", "ProtectHome=yes\nProtectHoem=yes")
    result = verify(broken, tmp_path)
    assert "Unknown key 'ProtectHoem'" in result.stderr


def test_runs_the_venv_dicelens_with_the_config_file(unit):
    assert unit["ExecStart"] == [f"{EXEC} serve --config /etc/dicelens/config.toml"]
    # With no data_folder in the config (one an older install.sh wrote), $XDG_DATA_HOME/dicelens.
    assert unit["Environment"].count("XDG_DATA_HOME=/var/lib") == 1
    assert unit["StateDirectory"] == ["dicelens"]
    assert unit["ConfigurationDirectory"] == ["dicelens"]
    # systemd makes /etc/dicelens root's: a mode without "x" for others would lock the service out.
    assert "ConfigurationDirectoryMode" not in unit
    assert unit["WorkingDirectory"] == ["/var/lib/dicelens"]  # lgpio writes its pipes there
    assert unit["User"] == ["dicelens"]


def test_passes_no_flag_that_would_beat_the_config_file(unit):
    """A flag beats the config's key, so the README's "edit config.toml" would do nothing."""
    given = vars(build_parser().parse_args(shlex.split(unit["ExecStart"][0])[1:]))
    bare = vars(build_parser().parse_args(["serve"]))
    assert given.pop("config") == Path("/etc/dicelens/config.toml")
    bare.pop("config")
    assert given == bare  # every other option left at its default: the config's key applies


@pytest.mark.slow
def test_serves_what_the_config_file_says(unit, tmp_path, stopped_by_sigterm):
    """Started the unit's way, the camera, data folder and port come from the config file."""
    with socket.socket() as probe:  # a port free now, for the config (it has no "any port")
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "config.toml"
    config.write_text(f'data_folder = "{tmp_path / "data"}"\n[camera]\nsource = "sim"\n'
                      f'[web]\nhost = "127.0.0.1"\nport = {port}\n')
    program = Path(sys.executable).with_name("dicelens")
    command = [part.replace(EXEC, str(program)).replace("/etc/dicelens/config.toml", str(config))
               for part in shlex.split(unit["ExecStart"][0])]
    with stopped_by_sigterm(command, cwd=tmp_path) as serve:
        for line in serve.stderr:
            if "Serving on" in line:
                break
        else:
            raise AssertionError(f"serve ended with status {serve.wait()}")
        address = f"http://127.0.0.1:{port}/api/state"
        with urllib.request.urlopen(address, timeout=30) as response:
            camera = json.loads(response.read())["camera"]
        assert camera["status"] == "ok" and camera["can_throw"] is True  # sim; picamera2 cannot throw
        assert (tmp_path / "data" / "history.sqlite3").exists()


def test_notify_with_a_watchdog_longer_than_the_camera_retry(unit):
    assert unit["Type"] == ["notify"]
    # The tray loop waits up to 30 s before reopening a lost camera; pings go at most
    # every WatchdogSec/2, so WatchdogSec/2 must exceed that wait.
    assert int(unit["WatchdogSec"][0]) / 2 > 30


def test_restarts_without_a_storm(unit):
    assert unit["Restart"] == ["on-failure"]
    assert unit["RestartPreventExitStatus"] == ["2"]  # dicelens's status for a bad config
    assert int(unit["RestartSec"][0]) >= 5
    assert int(unit["StartLimitBurst"][0]) * int(unit["RestartSec"][0]) < int(
        unit["StartLimitIntervalSec"][0])


@pytest.mark.slow
def test_a_bad_config_exits_with_the_status_that_is_not_retried(unit, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "webcam"\n')
    program = Path(sys.executable).with_name("dicelens")
    result = subprocess.run([str(program), "serve", "--config", str(config), "--data",
                             str(tmp_path / "data")], capture_output=True, text=True, timeout=120)
    assert str(result.returncode) in unit["RestartPreventExitStatus"]
    assert "camera.source" in result.stderr  # the one line the journal shows


def test_hardened_but_camera_and_gpio_allowed(unit):
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes", "DevicePolicy": "closed"}.items():
        assert unit[key] == [value], key
    assert "PrivateDevices" not in unit and "PrivateUsers" not in unit  # would hide the camera
    allowed = {value.split()[0] for value in unit["DeviceAllow"]}
    assert allowed == {"char-video4linux", "char-media", "char-dma_heap", "char-gpiochip",
                       "char-*gpiomem"}


HOTSPOT_UNIT = UNIT.with_name("dicelens-hotspot.service")


def test_the_hotspot_unit_verifies_and_runs_once_before_the_service(tmp_path):
    result = verify(HOTSPOT_UNIT.read_text(), tmp_path, HOTSPOT_UNIT.name)
    assert result.returncode == 0, result.stderr
    found = settings(HOTSPOT_UNIT.read_text())
    assert found["Type"] == ["oneshot"] and "User" not in found  # root: NetworkManager lets only root
    assert "NetworkManager-wait-online.service" in found["After"][0]  # the known networks tried first
    assert found["Before"] == ["dicelens.service"]
    command = shlex.split(found["ExecStart"][0])
    assert command[0] == EXEC
    args = build_parser().parse_args(command[1:])
    assert (args.command, args.config, args.dry_run) == ("hotspot", Path("/etc/dicelens/config.toml"), False)
