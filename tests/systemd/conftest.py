"""`dicelens serve` started as systemd starts it, and stopped as systemd stops it."""

from __future__ import annotations

import contextlib
import signal
import subprocess

import pytest


@contextlib.contextmanager
def _stopped_by_sigterm(command: list[str], **popen):
    """``command`` started (stderr piped, text) → the process; after the block it gets
    SIGTERM, as `systemctl stop` sends, and must exit 0 with no traceback on stderr
    (killed if it hangs, so a failing test leaves nothing running)."""
    serve = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **popen)
    try:
        yield serve
        serve.send_signal(signal.SIGTERM)
        errors = serve.communicate(timeout=60)[1]
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.communicate()
    assert serve.returncode == 0, errors
    assert "Traceback" not in errors


@pytest.fixture
def stopped_by_sigterm():
    return _stopped_by_sigterm
