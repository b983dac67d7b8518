"""systemd/install.sh, dry-run into a temporary root: the files it writes, the commands it would run,
a second run that keeps the settings, the uninstall; and shellcheck on it."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import stat
import subprocess
from pathlib import Path

import pytest

from device.cli import build_parser
from device.config import load_config
from device.serve import settings_from

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"
SITE = "opt/dicelens/venv/lib/python3.11/site-packages"


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    # --no-deps: the test checks the installation, not PyPI's numpy and OpenCV downloads.
    env = dict(os.environ, DICELENS_PIP_OPTIONS="--no-deps")
    result = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                            env=env, timeout=300)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def would_run(output: str) -> list[str]:
    return [line.removeprefix("would run: ") for line in output.splitlines()
            if line.startswith("would run: ")]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, str]:
    """One dry-run installation shared by the tests below: (root, output)."""
    root = tmp_path_factory.mktemp("install") / "root"
    return root, run("--root", str(root)).stdout


def test_writes_the_unit_and_the_venv(installed):
    root, _ = installed
    unit = root / "etc/systemd/system/dicelens.service"
    assert unit.read_text() == (REPO / "systemd/dicelens.service").read_text()
    venv = root / "opt/dicelens/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert os.access(venv / "bin" / "dicelens", os.X_OK)
    # The page's files come along in a non-editable install.
    assert (root / SITE / "web/templates/index.html").exists()
    assert (root / SITE / "web/static/style.css").exists()
    assert (root / SITE / "device/watchdog.py").exists()


def test_default_config_is_valid_and_serves_the_network(installed):
    root, _ = installed
    path = root / "etc/dicelens/config.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # may hold the PIN
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o755  # the service user passes through
    config = load_config(path)
    # The Pi's defaults are in the file the README tells the user to edit, not in the unit.
    assert config.camera.source == "picamera2"
    assert config.data_folder == Path("/var/lib/dicelens")
    assert config.web.host == "0.0.0.0" and config.web.port == 8000
    assert config.buttons.presets == {"2d6": 17, "1d6": 27, "free": 22}
    assert (config.buttons.read_now, config.buttons.led) == (23, 24)


def test_the_units_command_line_with_the_default_config(installed):
    """ExecStart's arguments parse, and with the default config give the Pi's settings."""
    root, _ = installed
    unit = (root / "etc/systemd/system/dicelens.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    args = build_parser().parse_args(shlex.split(exec_start.removeprefix("ExecStart="))[1:])
    assert args.config == Path("/etc/dicelens/config.toml")
    args.config = root / "etc/dicelens/config.toml"
    config = settings_from(args)
    assert config.camera.source == "picamera2"
    assert config.data_folder == Path("/var/lib/dicelens")
    assert (config.web.host, config.web.port) == ("0.0.0.0", 8000)


def test_an_edited_config_changes_what_the_unit_runs(installed, tmp_path, monkeypatch):
    """The README's "edit config.toml, restart": a USB camera and another data folder take effect;
    a config with no data_folder (written by an older install.sh) keeps /var/lib/dicelens."""
    root, _ = installed
    unit = (root / "etc/systemd/system/dicelens.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    args = build_parser().parse_args(shlex.split(exec_start.removeprefix("ExecStart="))[1:])
    text = (root / "etc/dicelens/config.toml").read_text()
    args.config = tmp_path / "config.toml"
    args.config.write_text(text.replace('source = "picamera2"', 'source = "usb:0"').replace(
        'data_folder = "/var/lib/dicelens"', 'data_folder = "/srv/dice"'))
    config = settings_from(args)
    assert (config.camera.source, config.data_folder) == ("usb:0", Path("/srv/dice"))

    environment = [line.removeprefix("Environment=") for line in unit.splitlines()
                   if line.startswith("Environment=")]
    monkeypatch.setenv("XDG_DATA_HOME", next(value.partition("=")[2] for value in environment
                                             if value.startswith("XDG_DATA_HOME=")))
    old = [line for line in text.splitlines() if not line.startswith("data_folder")]
    args.config.write_text("\n".join(old))
    assert settings_from(args).data_folder == Path("/var/lib/dicelens")


def test_prints_the_system_commands_instead_of_running_them(installed):
    _, output = installed
    commands = would_run(output)
    assert commands[0].startswith("useradd --system --user-group --home-dir /var/lib/dicelens")
    assert commands[0].endswith(" dicelens")
    assert "chown root:dicelens /etc/dicelens/config.toml" in commands
    assert commands[-4:] == ["systemctl daemon-reload", "systemctl enable dicelens.service",
                             "systemctl reset-failed dicelens.service",
                             "systemctl restart dicelens.service"]
    for group in ("video", "gpio"):  # added when the group exists, named when it does not
        assert (f"usermod --append --groups {group} dicelens" in commands
                or f"no group {group} here" in output)


@pytest.mark.parametrize("module", ["picamera2", "lgpio"])
def test_warns_when_the_venv_cannot_import_the_pi_libraries(installed, module):
    _, output = installed
    system_has_it = subprocess.run(["/usr/bin/python3", "-c", f"import {module}"],
                                   capture_output=True).returncode == 0
    assert (f"the venv cannot import {module}" in output) == (not system_has_it)
    if not system_has_it:
        assert f"sudo apt install python3-{module} --no-install-recommends" in output


def test_prints_the_address_to_open(installed):
    _, output = installed
    host = socket.gethostname().split(".")[0]
    assert f"Open http://{host}.local:8000 on a phone" in output


def test_second_run_keeps_the_settings_then_uninstall(installed):
    # Last of the tests on the shared installation: it changes and then removes it.
    root, _ = installed
    config = root / "etc/dicelens/config.toml"
    config.write_text(config.read_text().replace("port = 8000", "port = 8123").replace(
        'source = "picamera2"', 'source = "usb:0"'))
    (root / "var/lib/dicelens").mkdir(parents=True)  # what the service would have made
    (root / "var/lib/dicelens/history.sqlite3").write_bytes(b"rolls")

    again = run("--root", str(root)).stdout
    assert "keeping the settings" in again
    assert "port = 8123" in config.read_text()
    assert load_config(config).camera.source == "usb:0"
    assert ".local:8123 on a phone" in again

    removed = run("--uninstall", "--root", str(root)).stdout
    assert would_run(removed) == ["systemctl disable --now dicelens.service",
                                  "systemctl daemon-reload"]
    assert not (root / "etc/systemd/system/dicelens.service").exists()
    assert not (root / "opt/dicelens").exists()
    assert config.exists() and (root / "var/lib/dicelens/history.sqlite3").exists()

    assert "uninstalled" in run("--uninstall", "--root", str(root)).stdout  # again: nothing left
    purged = run("--uninstall", "--purge", "--root", str(root)).stdout
    assert "userdel dicelens" in would_run(purged)
    assert not (root / "etc/dicelens").exists() and not (root / "var/lib/dicelens").exists()


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "unknown option: --bogus"),
    (["--root"], "--root needs a folder"),
    (["--purge", "--root", "/tmp/x"], "--purge goes with --uninstall"),
])
def test_bad_options_fail_with_one_line(args, message):
    result = run(*args, check=False)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == f"install.sh: {message}"


def test_a_root_that_is_a_file_fails_with_one_line(tmp_path):
    path = tmp_path / "a-file"
    path.write_text("not a folder")
    result = run("--root", str(path), check=False)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [f"install.sh: --root {path}: not a folder"]


def test_shellcheck_clean():
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: apt-get install shellcheck"
    result = subprocess.run([shellcheck, str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
