"""`dicelens serve` as a subprocess: starts on a free port, answers, stops on SIGTERM and on SIGINT
(started with SIGINT ignored, as a background command is, to show serve stops on it all the same)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from device.cli import build_parser, main
from device.config import HotspotConfig, config_from_dict
from device.serve import build, settings_from, tell_addresses

REPO = Path(__file__).resolve().parents[2]


def _sigint_ignored() -> None:  # as for a command started in the background: `nohup … &`
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start(tmp_path, *options, env=None):
    process = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "serve", "--camera", "sim", "--port", "0",
         "--data", str(tmp_path / "data"), *options],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=_sigint_ignored)
    lines: queue.Queue[str] = queue.Queue()

    def pump():
        for line in process.stderr:
            lines.put(line)
        lines.put("")

    threading.Thread(target=pump, daemon=True).start()
    return process, lines


@contextlib.contextmanager
def serving(tmp_path, *options, stop=signal.SIGTERM, seen: list[str] | None = None):
    """``dicelens serve`` started (:func:`start`) → its base URL; after the block ``stop`` is
    sent, and serve must log that it stopped, exit 0 and print no traceback. ``seen`` gets
    the lines it logged."""
    process, lines = start(tmp_path, *options)
    seen = [] if seen is None else seen
    try:
        yield wait_for(lines, r"Serving on (http://[\d.]+:\d+)", seen).group(1)
        process.send_signal(stop)
        wait_for(lines, r"dicelens stopped", seen)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.wait()
        process.stderr.close()
    assert "Traceback" not in "".join(seen)


def wait_for(lines, pattern, seen, timeout=60):
    while True:
        line = lines.get(timeout=timeout)
        seen.append(line)
        if not line:
            raise AssertionError("serve ended early:\n" + "".join(seen))
        if match := re.search(pattern, line):
            return match


def call(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.slow
def test_serve_answers_then_stops_cleanly(tmp_path, stop):
    with serving(tmp_path, "--auto-throw", "1", stop=stop) as base:
        status, state = call(base + "/api/state")
        assert status == 200 and state["state"] == "idle"
        assert state["camera"]["can_throw"] is True
        status, state = call(base + "/api/arm", {"preset": "2d6"})
        assert status == 200 and state["preset"] == "2d6"
        for _ in range(120):  # --auto-throw 1: the simulated camera throws, vision reads
            time.sleep(0.5)
            if call(base + "/api/state")[1]["latest_roll"] is not None:
                break
        else:
            raise AssertionError("no roll from the auto-thrown dice")
    assert (tmp_path / "data" / "history.sqlite3").exists()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.slow
def test_a_stop_ends_the_open_pages_streams_first(tmp_path, stop):
    """Ctrl-C with phones on the page: their event streams (the roll's and the fight's) end
    at once, so waitress has no thread left to wait for (it waited 5 s, then logged
    "2 thread(s) still running")."""
    seen: list[str] = []
    with serving(tmp_path, stop=stop, seen=seen) as base:
        streams = [urllib.request.urlopen(base + path, timeout=30) for path in ("/api/events", "/api/combat/events")]
        for stream in streams:
            assert stream.readline() == b"retry: 2000\n"
    for stream in streams:
        stream.read()  # to the stream's end
        stream.close()
    assert not [line for line in seen if "still running" in line]


@pytest.mark.parametrize(("camera", "folder"), [
    ("sim", "dicelens-sim"), ("file:{photos}", "dicelens-replay/photos"), ("picamera2", "dicelens"),
    ("usb:0", "dicelens"),
])
@pytest.mark.slow
def test_the_demos_keep_histories_apart_from_the_tables(tmp_path, monkeypatch, camera, folder):
    """`make run` (simulated camera) and the README's demo of replayed photos write no roll
    into the history of the table's real camera, unless a data folder is given."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    (tmp_path / "photos").mkdir()
    name = camera.format(photos=tmp_path / "photos")
    args = build_parser().parse_args(["serve", "--camera", name])
    assert settings_from(args).data_folder == tmp_path / "share" / folder
    config = tmp_path / "dicelens.toml"
    config.write_text(f'data_folder = "{tmp_path / "mine"}"\n')
    args = build_parser().parse_args(["serve", "--camera", name, "--config", str(config)])
    assert settings_from(args).data_folder == tmp_path / "mine"
    args = build_parser().parse_args(["serve", "--camera", name, "--config", str(config), "--data", str(tmp_path / "d")])
    assert settings_from(args).data_folder == tmp_path / "d"


@pytest.mark.slow
def test_systemd_hears_ready_watchdog_and_stopping(tmp_path):
    path = tmp_path / "notify"
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(str(path))
    systemd.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "200000"}
    env.pop("WATCHDOG_PID", None)
    process, lines = start(tmp_path, env=env)
    seen: list[str] = []
    messages: list[str] = []
    try:
        wait_for(lines, r"Serving on", seen)
        while not any(m.startswith("READY=1") for m in messages) or "WATCHDOG=1" not in messages:
            messages.append(systemd.recv(4096).decode())
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        while "STOPPING=1" not in messages:
            messages.append(systemd.recv(4096).decode())
    finally:
        process.kill()
        process.wait()
        process.stderr.close()
        systemd.close()
    assert any(m.startswith("STATUS=camera ok") for m in messages)


@pytest.mark.parametrize(("argv", "message"), [
    (["--camera", "webcam"], "--camera must be one of sim, file:PATH, usb:N, picamera2 (got 'webcam')"),
    (["--port", "99999"], "--port must be 0 to 65535"),
    (["--auto-throw", "0.2"], "--auto-throw must be 0 (off) or 1 to 3600 seconds (got 0.2)"),
    (["--camera", "file:/nonexistent/photos"], "/nonexistent/photos"),
    # values are ASCII digits only: int() and float() take "80_00" and other scripts' digits
    (["--port", "80_00"], "argument --port: '80_00' is not a whole number"),
    (["--port", "\u0668\u0660\u0660\u0660"], "is not a whole number"),
    (["--auto-throw", "1_0"], "argument --auto-throw: '1_0' is not a number"),
    (["--camera", "usb:\u0661"], "--camera must be one of sim, file:PATH, usb:N, picamera2"),
    (["--port", "8000", "--port", "8001"], "argument --port: conflicts with --port given before it"),
])
def test_bad_options_exit_2_before_anything_starts(tmp_path, capsys, argv, message):
    assert main(["serve", "--data", str(tmp_path / "data"), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "data").exists()


def test_bad_config_exits_2_naming_the_key(tmp_path, capsys):
    config = tmp_path / "dicelens.toml"
    config.write_text("[camera]\nresolution = '4k'\n")
    assert main(["serve", "--config", str(config), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert "unknown key camera.resolution in [camera]; allowed: source, width, height, auto_throw" in err
    assert not (tmp_path / "data").exists()


@pytest.mark.slow
def test_a_port_in_use_ends_with_one_line_and_status_1(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        process = subprocess.run(
            [sys.executable, "-m", "device.cli", "serve", "--camera", "sim", "--port", str(port),
             "--data", str(tmp_path / "data")],
            cwd=REPO, capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert process.returncode == 1
    assert f"cannot serve on 127.0.0.1:{port}: Address already in use" in process.stderr
    assert "Traceback" not in process.stderr


# no address at all; another machine's (TEST-NET-1); a port in the host; nothing
@pytest.mark.parametrize("host", ["999.1.1.1", "192.0.2.1", "0.0.0.0:80", ""])
@pytest.mark.slow
def test_a_host_that_is_no_address_of_this_machine_is_one_line_before_anything_starts(tmp_path, host):
    process = subprocess.run(
        [sys.executable, "-m", "device.cli", "serve", "--camera", "sim", "--host", host, "--port", "0",
         "--data", str(tmp_path / "data")],
        cwd=REPO, capture_output=True, text=True, timeout=60)
    assert process.returncode == 2
    assert process.stderr == (f"dicelens: --host {host!r} is not an address or host name of this machine "
                              "(0.0.0.0 listens on all of them)\n")
    assert not (tmp_path / "data").exists()  # no history, photos or key written


def test_auto_throw_waits_for_the_throw_under_way():
    class Stub:
        def __init__(self):
            self.state_name, self.throws = "armed", 0

        def state(self):
            return {"preset": "2d6", "state": self.state_name}

        def throw(self):
            self.throws += 1
            self.state_name = "waiting"

    from device.serve import AutoThrow
    clock = iter([0.0, 1.0, 2.0, 11.0, 12.0]).__next__
    controller = Stub()
    auto = AutoThrow(controller, clock=clock)
    auto()                          # t=0: throws
    auto()                          # t=1: still settling
    auto()                          # t=2: still settling
    assert controller.throws == 1
    auto()                          # t=11: given up on, thrown again
    assert controller.throws == 2


def serve_once(data, *options):
    return subprocess.run(
        [sys.executable, "-m", "device.cli", "serve", "--camera", "sim", "--port", "0",
         "--data", str(data), *options],
        cwd=REPO, capture_output=True, text=True, timeout=60)


def one_error_line(process) -> str:
    assert "Traceback" not in process.stderr, process.stderr
    errors = [line for line in process.stderr.splitlines() if "ERROR" in line or "dicelens:" in line]
    assert len(errors) == 1, process.stderr
    return errors[0]


@pytest.mark.slow
def test_a_file_that_is_not_a_database_is_named_kept_and_exits_2(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    database = data / "history.sqlite3"
    saved = b"my saved rolls, but not SQLite\n" * 200
    database.write_bytes(saved)
    process = serve_once(data)
    assert process.returncode == 2
    line = one_error_line(process)
    assert str(database) in line and "file is not a database" in line and "cannot serve" not in line
    assert database.read_bytes() == saved
    assert sorted(p.name for p in data.iterdir() if p.name.startswith("history")) == ["history.sqlite3"]


@pytest.mark.parametrize(("where", "cause"), [
    ("file", "is a file, not a folder"),
    ("file/inside", "cannot be made: Not a directory"),
])
@pytest.mark.slow
def test_a_data_folder_that_cannot_be_one_is_named_and_exits_2(tmp_path, where, cause):
    (tmp_path / "file").write_text("root:x:0:0\n")
    process = serve_once(tmp_path / where)
    assert process.returncode == 2
    line = one_error_line(process)
    assert f"data folder {tmp_path / where} {cause}" in line and "cannot serve" not in line
    assert (tmp_path / "file").read_text() == "root:x:0:0\n"


@pytest.mark.slow
def test_an_unreadable_config_is_one_line_and_exits_2(tmp_path):
    process = serve_once(tmp_path / "data", "--config", str(tmp_path))  # a folder, not a file
    assert process.returncode == 2
    assert f"config {tmp_path}: cannot read it (Is a directory)" in one_error_line(process)


def test_a_data_folder_this_user_cannot_write_is_named(tmp_path, monkeypatch):
    from device import serve

    monkeypatch.setattr(serve.os, "access", lambda path, mode: False)
    with pytest.raises(serve.StartupError, match=f"data folder {tmp_path} is not writable by this user"):
        serve.open_history(tmp_path, 2**20)
    assert not (tmp_path / "history.sqlite3").exists()


@pytest.mark.slow
def test_serve_on_the_network_tells_the_phones_address_and_that_no_pin_is_set(tmp_path):
    process, lines = start(tmp_path, "--host", "0.0.0.0")
    seen: list[str] = []
    try:
        port = wait_for(lines, r"Serving on http://0\.0\.0\.0:(\d+)", seen).group(1)
        told = wait_for(lines, r"phones open (.+)$", seen).group(1).split(" or ")
        assert f"http://{socket.gethostname().split('.')[0].lower()}.local:{port}/" in told
        assert all(re.fullmatch(rf"http://[\w.-]+:{port}/", address) for address in told)
        assert wait_for(lines, r"WARNING device.serve: (.+)$", seen).group(1) == (
            "no PIN is set: anyone on this network may arm rolls, correct them, change the settings "
            "and clear the history (set pin in the config)")
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def test_serve_on_this_machine_only_says_phones_cannot_reach_it(caplog):
    caplog.set_level(logging.INFO, "device.serve")
    tell_addresses("127.0.0.1", 8000, pin_set=False)
    assert caplog.messages == ["open http://127.0.0.1:8000/ on this machine; phones cannot reach it "
                               "(--host 0.0.0.0 lets them in)"]
    caplog.clear()
    tell_addresses("192.0.2.7", 8001, pin_set=True)  # an address of its own: that one, no warning with a PIN
    assert caplog.messages == ["phones open http://192.0.2.7:8001/"]


def test_the_table_s_own_wifi_reaches_the_join_page(tmp_path):
    # The join page gives its Wi-Fi QR code while the hotspot's address is this machine's (web/join.py).
    config = replace(config_from_dict({"camera": {"source": "sim"}, "hotspot": {
        "enabled": True, "ssid": "Dice table", "password": "roll-them-all"}}), data_folder=tmp_path / "data")
    with contextlib.ExitStack() as stack:
        app = build(config, stack)
        assert app.config["HOTSPOT"] == {"ssid": "Dice table", "password": "roll-them-all", "address": "10.42.0.1"}
        assert "HOTSPOT" not in build(replace(config, hotspot=HotspotConfig(), data_folder=tmp_path / "other"),
                                      stack).config
