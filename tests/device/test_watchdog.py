"""The systemd notifications, received on a real AF_UNIX datagram socket standing in for systemd's."""

from __future__ import annotations

import logging
import os
import socket
import uuid

import pytest

from device.watchdog import Watchdog


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A bound datagram socket named by NOTIFY_SOCKET, as systemd sets it for Type=notify."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)  # a datagram is queued before send() returns: nothing to wait for
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    """Every message queued on the socket, oldest first."""
    messages = []
    while True:
        try:
            messages.append(sock.recv(4096).decode())
        except BlockingIOError:
            return messages


def test_ready_and_status_reach_systemd(systemd):
    watchdog = Watchdog()
    assert watchdog.enabled
    watchdog.ready("serving on port 8000")
    watchdog.status("camera unavailable:\n  no camera found")
    assert received(systemd) == ["READY=1\nSTATUS=serving on port 8000",
                                 "STATUS=camera unavailable: no camera found"]
    watchdog.close()


def test_alive_pings_at_most_once_per_half_period(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "90000000")  # WatchdogSec=90
    clock = FakeClock()
    watchdog = Watchdog(clock=clock)
    assert watchdog.interval == 45.0
    watchdog.alive()  # the first turn pings at once
    assert received(systemd) == ["WATCHDOG=1"]
    for _ in range(44):  # a loop turning every second
        clock.now += 1
        watchdog.alive()
    assert received(systemd) == []
    clock.now += 1
    watchdog.alive()
    watchdog.alive()
    assert received(systemd) == ["WATCHDOG=1"]
    watchdog.close()


def test_a_loop_that_stops_turning_stops_the_pings(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    clock = FakeClock()
    watchdog = Watchdog(clock=clock)
    watchdog.alive()
    clock.now += 300  # the loop hung: nobody calls alive(), so nothing is sent
    assert received(systemd) == ["WATCHDOG=1"]
    watchdog.close()


def test_no_watchdog_pings_without_watchdog_usec(systemd):
    watchdog = Watchdog()
    assert watchdog.interval is None
    watchdog.alive()
    assert received(systemd) == []
    watchdog.close()


def test_watchdog_meant_for_another_process_is_ignored(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    watchdog = Watchdog()
    assert watchdog.interval is None
    watchdog.alive()
    assert received(systemd) == []
    watchdog.close()


def test_watchdog_for_this_process(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    watchdog = Watchdog()
    assert watchdog.interval == 1.0
    watchdog.alive()
    assert received(systemd) == ["WATCHDOG=1"]
    watchdog.close()


def test_bad_watchdog_usec_is_logged_and_ignored(systemd, monkeypatch, caplog):
    monkeypatch.setenv("WATCHDOG_USEC", "ninety")
    with caplog.at_level(logging.WARNING, logger="device.watchdog"):
        watchdog = Watchdog()
    assert watchdog.interval is None
    assert "WATCHDOG_USEC" in caplog.text
    watchdog.close()


def test_close_says_stopping_once(systemd):
    watchdog = Watchdog()
    watchdog.close()
    watchdog.close()
    watchdog.ready()
    assert received(systemd) == ["STOPPING=1"]
    assert not watchdog.enabled


def test_abstract_socket_address(monkeypatch):
    """systemd may name an abstract socket: "@name" stands for a leading NUL byte."""
    name = f"dicelens-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.setblocking(False)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        watchdog = Watchdog()
        watchdog.ready()
        assert received(sock) == ["READY=1"]
        watchdog.close()


def test_no_notify_socket_is_a_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    watchdog = Watchdog()
    assert not watchdog.enabled
    watchdog.ready("up")
    watchdog.status("x")
    watchdog.alive()
    watchdog.close()


def test_missing_socket_is_logged_not_raised(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    with caplog.at_level(logging.WARNING, logger="device.watchdog"):
        watchdog = Watchdog()
    assert not watchdog.enabled
    assert "no READY or watchdog pings" in caplog.text
    watchdog.ready()
    watchdog.close()


def test_systemd_going_away_is_logged_once(systemd, monkeypatch, caplog):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    clock = FakeClock()
    watchdog = Watchdog(clock=clock)
    systemd.close()  # the receiving end disappears: sends now fail
    with caplog.at_level(logging.WARNING, logger="device.watchdog"):
        for _ in range(3):
            clock.now += 5
            watchdog.alive()
    assert caplog.text.count("cannot notify systemd") == 1
    watchdog.close()
