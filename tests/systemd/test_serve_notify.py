"""`dicelens serve` as systemd runs it (Type=notify, WatchdogSec): READY, watchdog pings from the
camera loop, STOPPING on SIGTERM, all received on a real AF_UNIX datagram socket."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


def test_serve_notifies_ready_pings_the_watchdog_and_says_stopping(tmp_path, stopped_by_sigterm):
    address = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(address))
        systemd.settimeout(60)  # a guard against a hang, not a measurement
        env = dict(os.environ, NOTIFY_SOCKET=str(address), WATCHDOG_USEC="1000000")
        env.pop("WATCHDOG_PID", None)
        program = Path(sys.executable).with_name("dicelens")
        command = [str(program), "serve", "--camera", "sim", "--port", "0", "--data", str(tmp_path / "data")]
        with stopped_by_sigterm(command, env=env, cwd=tmp_path):
            messages = [systemd.recv(4096).decode() for _ in range(3)]
            assert any(message.startswith("READY=1") for message in messages), messages
            pings = [message for message in messages if message == "WATCHDOG=1"]
            while len(pings) < 2:  # the loop keeps feeding it (every 0.5 s here)
                message = systemd.recv(4096).decode()
                if message == "WATCHDOG=1":
                    pings.append(message)
        while (message := systemd.recv(4096).decode()) != "STOPPING=1":  # sent before it exited
            pass
