"""systemd/install.sh, dry-run into a temporary root: the files it writes, the commands it would run,
a second run that keeps the settings, the uninstall; and shellcheck on it."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from device.cli import build_parser
from device.config import load_config
from device.serve import settings_from

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"
# The installer's venv is made by the system's Python (3.11 on Bookworm, 3.13 on Trixie).
SYSTEM_PYTHON = subprocess.run(["/usr/bin/python3", "-c", "import sys; print(*sys.version_info[:2], sep='.')"],
                               capture_output=True, text=True, check=True).stdout.strip()
SITE = f"opt/dicelens/venv/lib/python{SYSTEM_PYTHON}/site-packages"


def run(*args: str, check: bool = True, script: Path = SCRIPT) -> subprocess.CompletedProcess:
    # --no-deps: the test checks the installation, not PyPI's numpy and OpenCV downloads;
    # the new version's check (a photo read) takes them from the venv running the tests
    # (one of the system's Python: the same version).
    assert SYSTEM_PYTHON == f"{sys.version_info.major}.{sys.version_info.minor}", \
        f"run the tests in a venv of /usr/bin/python3 ({SYSTEM_PYTHON}), as make does on Debian"
    env = dict(os.environ, DICELENS_PIP_OPTIONS="--no-deps",
               PYTHONPATH=os.pathsep.join({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}))
    result = subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                            env=env, timeout=600)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def would_run(output: str) -> list[str]:
    return [line.removeprefix("would run: ") for line in output.splitlines()
            if line.startswith("would run: ")]


def checkout_copy(folder: Path) -> Path:
    """A copy of this checkout (as `git pull` would leave it) → its install.sh, to change."""
    shutil.copytree(REPO, folder, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "*.egg-info", "build", ".pytest_cache", ".hypothesis"))
    return folder / "systemd" / "install.sh"


def releases(root: Path) -> tuple[str, str | None, list[str]]:
    """(the release venv links to, the one previous links to or None, every release kept)."""
    app = root / "opt/dicelens"
    previous = os.readlink(app / "previous") if (app / "previous").is_symlink() else None
    return os.readlink(app / "venv"), previous, sorted(p.name for p in (app / "releases").iterdir())


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, str]:
    """One dry-run installation shared by the tests below: (root, output)."""
    root = tmp_path_factory.mktemp("install") / "root"
    return root, run("--root", str(root)).stdout


def test_writes_the_unit_and_the_venv(installed):
    root, _ = installed
    for name in ("dicelens.service", "dicelens-hotspot.service"):
        assert (root / "etc/systemd/system" / name).read_text() == (REPO / "systemd" / name).read_text()
    venv = root / "opt/dicelens/venv"
    running, previous, kept = releases(root)
    assert running == f"releases/{kept[0]}" and previous is None and len(kept) == 1
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
    assert not config.hotspot.enabled and config.hotspot.ssid == "dicelens"


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
    assert commands[-4:] == ["systemctl daemon-reload", "systemctl enable dicelens.service dicelens-hotspot.service",
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

    first, _, _ = releases(root)
    second = run("--root", str(root)).stdout
    again = run("--root", str(root)).stdout
    # Each update a venv of its own, checked before it runs; the one it replaced is kept.
    assert "checked the new version: it runs and reads a photo" in second
    running, previous, kept = releases(root)
    assert len(kept) == 2 and f"releases/{kept[0]}" != first  # the oldest one is gone
    assert (running, previous) == (f"releases/{kept[1]}", f"releases/{kept[0]}")
    assert would_run(again)[-1] == "systemctl restart dicelens.service"

    back = run("--rollback", "--root", str(root)).stdout
    assert releases(root) == (previous, running, kept)
    assert would_run(back) == ["systemctl restart dicelens.service"]
    run("--rollback", "--root", str(root))  # and forth again
    assert releases(root) == (running, previous, kept)

    assert "keeping the settings" in again
    assert "port = 8123" in config.read_text()
    assert load_config(config).camera.source == "usb:0"
    assert ".local:8123 on a phone" in again

    removed = run("--uninstall", "--root", str(root)).stdout
    assert would_run(removed) == ["systemctl disable --now dicelens.service dicelens-hotspot.service",
                                  "systemctl daemon-reload"]
    assert not (root / "etc/systemd/system/dicelens.service").exists()
    assert not (root / "etc/systemd/system/dicelens-hotspot.service").exists()
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


def test_a_new_version_that_fails_its_check_leaves_the_running_one(tmp_path):
    """An install.sh before releases/ left a venv in /opt/dicelens/venv: a broken update
    changes nothing; a good one keeps the old venv as the previous version, for --rollback."""
    root = tmp_path / "root"
    old_venv = root / "opt/dicelens/venv"
    old_venv.mkdir(parents=True)
    (old_venv / "the-old-version").touch()
    broken = checkout_copy(tmp_path / "broken")
    cli_read = broken.parents[1] / "device/cli_read.py"
    cli_read.write_text(cli_read.read_text() + "\nimport a_module_this_version_forgot\n")

    result = run("--root", str(root), script=broken, check=False)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "install.sh: the new version failed its check (ModuleNotFoundError: No module named "
        "'a_module_this_version_forgot'); the running one was left as it is")
    assert "systemctl restart dicelens.service" not in would_run(result.stdout)
    assert sorted(p.name for p in (root / "opt/dicelens").iterdir()) == ["releases", "venv"]
    assert not old_venv.is_symlink() and (old_venv / "the-old-version").exists()
    assert list((root / "opt/dicelens/releases").iterdir()) == []

    run("--root", str(root))
    running, previous, kept = releases(root)
    assert previous == "releases/before-releases" and len(kept) == 2
    assert (root / "opt/dicelens/previous/the-old-version").exists()
    run("--rollback", "--root", str(root))
    assert (old_venv / "the-old-version").exists()  # through the link, as the unit's ExecStart
    assert releases(root)[:2] == ("releases/before-releases", running)


def test_rollback_without_a_previous_version_fails_with_one_line(tmp_path):
    result = run("--rollback", "--root", str(tmp_path / "root"), check=False)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == ["install.sh: no previous version to go back to"]


def test_pip_installs_the_pinned_versions(tmp_path):
    """install.sh gives pip the checkout's constraints.txt: a pin it cannot meet stops the update."""
    copy = checkout_copy(tmp_path / "pinned")
    constraints = copy.parents[1] / "constraints.txt"
    constraints.write_text(constraints.read_text() + "dicelens==0.0.1\n")
    result = run("--root", str(tmp_path / "root"), script=copy, check=False)
    assert result.returncode == 1
    assert "Cannot install dicelens 0.1.0" in result.stderr  # the pin conflicts with its version
    assert result.stderr.splitlines()[-1] == (
        "install.sh: pip could not install this version; the running one was left as it is")
    assert list((tmp_path / "root/opt/dicelens/releases").iterdir()) == []


def test_shellcheck_clean():
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: apt-get install shellcheck"
    result = subprocess.run([shellcheck, str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
