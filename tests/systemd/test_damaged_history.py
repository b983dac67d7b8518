"""README "When something is wrong", a damaged history database: the service exits with the status
systemd does not retry, naming the file, and the README's commands move it aside, nothing lost."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from device.history import History

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

REPO = Path(__file__).resolve().parents[2]
STATE = "/var/lib/dicelens"


def readme_commands() -> list[str]:
    """The shell block of the README's damaged-database entry."""
    text = (REPO / "README.md").read_text()
    entry = text[text.index("**A damaged history database**"):]
    block = re.search(r"```sh\n(.*?)```", entry, re.S).group(1)
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_a_damaged_history_stops_the_service_and_the_readme_moves_it_aside(tmp_path):
    data = tmp_path / "var/lib/dicelens"
    (data / "photos").mkdir(parents=True)
    damaged = b"SQLite format 3\x00" + b"\xff" * 4000  # a header, then garbage
    (data / "history.sqlite3").write_bytes(damaged)
    (data / "photos" / "7.jpg").write_bytes(b"jpeg")
    config = tmp_path / "config.toml"
    config.write_text(f'data_folder = "{data}"\n[camera]\nsource = "sim"\n')

    program = Path(sys.executable).with_name("dicelens")
    result = subprocess.run([str(program), "serve", "--config", str(config)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2  # RestartPreventExitStatus=2: not retried
    assert f"history database {data / 'history.sqlite3'} cannot be used" in result.stderr
    assert "move it aside" in result.stderr and "Traceback" not in result.stderr

    commands = readme_commands()
    assert commands[-1] == "sudo systemctl restart dicelens"
    for command in commands[:-1]:  # as root on the Pi; here in the test's folder, as this user
        command = command.removeprefix("sudo ").replace(STATE, str(data))
        subprocess.run(command, shell=True, check=True, timeout=30)

    (kept,) = data.glob("damaged-*")
    assert (kept / "history.sqlite3").read_bytes() == damaged
    assert (kept / "photos" / "7.jpg").read_bytes() == b"jpeg"
    with History(data) as history:  # what the restarted service opens: a new, empty history
        assert history.rolls() == []
    assert (kept / "photos" / "7.jpg").exists()
