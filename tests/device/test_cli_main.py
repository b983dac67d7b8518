"""The `dicelens` entry point: bad input and a closed pipe end without a traceback."""

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


@pytest.fixture
def byler(real_photos) -> Path:
    """A folder of real tray photos."""
    return real_photos.folder("real-dice/byler-tray-d6")


def dicelens(*args, **kwargs):
    return subprocess.Popen(
        [sys.executable, "-m", "device.cli", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs,
    )


def test_unknown_command_is_one_line_and_status_2():
    with dicelens("juggle") as process:
        out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "juggle" in err


def test_reader_that_goes_away_ends_quietly(byler):
    # `dicelens read *.jpg | head -1`: the rest of the output has nowhere to go.
    photos = sorted(str(p) for p in byler.glob("*.jpg")) * 4  # still writing when the reader goes away
    with dicelens("read", *photos) as process:
        assert process.stdout.readline().startswith('{"file"')
        process.stdout.close()
        err = process.stderr.read()
        process.wait(timeout=120)
    assert "Traceback" not in err
    assert process.returncode == 1


def test_no_command_lists_the_commands():
    with dicelens() as process:
        out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert err == "dicelens: give a command: resolve, odds, read, teach, export-examples, serve or hotspot\n"


def test_help_is_plain_text():
    for command in ([], ["read"], ["serve"]):
        with dicelens(*command, "--help") as process:
            out, _ = process.communicate(timeout=60)
        assert process.returncode == 0 and "dicelens" in out and "``" not in out, command


def test_version_names_the_installed_version():
    # The installer's check of a new version (systemd/install.sh) starts with it.
    with dicelens("--version") as process:
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0 and err == ""
    assert out == f"dicelens {importlib.metadata.version('dicelens')}\n"
