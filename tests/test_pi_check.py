"""tools/pi-check.sh (`make pi-check`, the emulated Pi, run by hand): shellcheck finds nothing in it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "pi-check.sh"


def test_shellcheck_clean():
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: apt-get install shellcheck"
    result = subprocess.run([shellcheck, str(SCRIPT)], check=False, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
