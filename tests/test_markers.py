"""The markers `make test-fast` leaves out are on the tests they name (pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow  # a pytest of its own, in a subprocess


def collected(*args: str) -> list[str]:
    """The test ids ``pytest --collect-only`` gives for ``args``."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_every_browser_test_is_marked_browser():
    every = collected("tests/browser")
    assert every and collected("tests/browser", "-m", "browser") == every
    assert collected("tests/browser", "-m", "not browser") == []
