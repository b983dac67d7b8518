"""Run ``dicelens`` as a real subprocess, as a user or a script would."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def dicelens(*args: str) -> subprocess.CompletedProcess:
    """``python -m device.cli ARGS`` from the repository root; text output, 60 s at most."""
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True,
                          text=True, timeout=60, cwd=REPO)


def dicelens_json(*args: str) -> dict:
    """The one JSON line of a successful command that wrote nothing on stderr."""
    done = dicelens(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])
