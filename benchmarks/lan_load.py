"""A table's Wi-Fi under load: N phones want a live stream; how many get one, how fast the API
answers meanwhile, and how soon closed streams' slots are free again.

Serves the real app (real controller and history in a temporary folder) with
``web.server.make_server`` — the settings and limits ``dicelens serve`` uses — in a child
process on 127.0.0.1. The N clients come from 127.0.0.2, 127.0.0.3… (8 a source address,
as phones would), each opening ``GET /api/events``. Then, with every stream open:

* streams given and clients told the streams are full (``event: full``, the page polls);
* ``GET /api/state`` and ``POST /api/dice`` (a roll by hand) latency: median, p99, max;
* every stream closed at once: how long until N clients opening again get a stream each
  (as many as there are slots): the closed streams' slots are free.

    .venv/bin/python benchmarks/lan_load.py                 # 50 clients, then 150
    .venv/bin/python benchmarks/lan_load.py --clients 150 --requests 100

Bounded: every socket waits at most 20 s, and the script ends in well under a minute a run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WAIT = 20.0
PER_ADDRESS = 8
MAX_STREAMS = 64  # web.DEFAULTS


def serve(folder: str) -> None:
    """Child process: the app over the real controller and history, until killed."""
    from device.controller import Controller
    from device.history import History
    from device.presets import build_presets
    from web import create_app
    from web.server import make_server

    history = History(folder)
    controller = Controller(build_presets(), history)
    app = create_app(controller, {"SECRET_KEY": "bench"})
    server = make_server(app, host="127.0.0.1", port=0)
    print(server.effective_port, flush=True)
    server.run()


@contextmanager
def served() -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """:func:`serve` in a child process over a temporary folder, ended on leaving: the port
    it serves on (127.0.0.1) and the child."""
    with tempfile.TemporaryDirectory() as folder:
        child = subprocess.Popen([sys.executable, __file__, "--serve", folder], stdout=subprocess.PIPE, text=True)
        try:
            yield int(child.stdout.readline()), child
        finally:
            child.terminate()
            child.wait(10)


def source(number: int) -> str:
    return f"127.0.0.{2 + number // PER_ADDRESS}"


def open_stream(port: int, number: int) -> tuple[socket.socket, str]:
    """A stream from client ``number``: the socket and "live" or "full" (or why it failed)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source(number), 0))
    sock.settimeout(WAIT)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    data = b""
    try:
        while b"event: state" not in data and b"event: full" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return sock, "closed"
            data += chunk
    except OSError as exc:
        return sock, type(exc).__name__
    return sock, "live" if b"event: state" in data else "full"


def timed(port: int, method: str, path: str, body: dict | None = None) -> float:
    start = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT, source_address=("127.0.0.250", 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{method} {path} answered {response.status}")
    return (time.monotonic() - start) * 1000


def figures(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    return f"median {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms"


def run(clients: int, requests: int) -> None:
    with served() as (port, _):
        streams = [open_stream(port, n) for n in range(clients)]
        kinds = [kind for _, kind in streams]
        timed(port, "POST", "/api/arm", {"preset": "2d6"})
        state = [timed(port, "GET", "/api/state") for _ in range(requests)]
        dice = [timed(port, "POST", "/api/dice", {"values": [3, 4]}) for _ in range(requests)]
        print(f"{clients} clients: {kinds.count('live')} live streams, {kinds.count('full')} told full, "
              f"{clients - kinds.count('live') - kinds.count('full')} other ({sorted(set(kinds))})")
        print(f"  GET /api/state with them open: {figures(state)} ({requests} requests)")
        print(f"  POST /api/dice (a roll saved) with them open: {figures(dice)} ({requests} requests)")
        for sock, _ in streams:
            sock.close()
        closed, wanted = time.monotonic(), min(clients, MAX_STREAMS)
        while True:  # every 250 ms: open them all again, until each gets its stream
            again = [open_stream(port, n) for n in range(clients)]
            live = sum(kind == "live" for _, kind in again)
            for sock, _ in again:
                sock.close()
            if live >= wanted or time.monotonic() - closed > WAIT:
                break
            time.sleep(0.25)
        print(f"  all closed at once: {live} of {clients} get a stream again "
              f"{(time.monotonic() - closed) * 1000:.0f} ms later")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="*", default=[50, 150])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--serve", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    for clients in args.clients:
        run(clients, args.requests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
