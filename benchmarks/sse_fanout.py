"""Event fan-out: N phones on one event stream each; how long until a roll reaches them.

Starts the web app under waitress (threads as ``web.serve`` sets them: one per
stream plus spares) in a child process, with the device's event hub feeding it. N clients on loopback
open ``GET /api/events``; once all are connected the server publishes rolls, each
stamped with CLOCK_MONOTONIC (shared by both processes) at the moment of
``publish``. Every client records when the roll's ``data:`` line arrives.

Prints the median, p99 and maximum publish→receipt delay in milliseconds over
all clients and rolls, whether every client got every roll exactly once, and how
long a plain API request takes while all the streams are open.

    .venv/bin/python benchmarks/sse_fanout.py                  # 50 clients, 20 rolls
    .venv/bin/python benchmarks/sse_fanout.py --clients 100 --rolls 50
"""

from __future__ import annotations

import argparse
import http.client
import json
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class BenchFeed:
    """The controller calls the event stream makes, over the device's real EventHub."""

    def __init__(self):
        from device.events import EventHub

        self.hub = EventHub()
        self.rolls: list[dict] = []
        self.lock = threading.Lock()
        self.subscribed = 0

    def state(self) -> dict:
        return {"state": "idle", "preset": None, "roller": None, "prompt": None, "needs": None,
                "camera": {"status": "ok", "message": None, "can_throw": False},
                "latest_roll": None, "odds": None}

    def settings(self) -> dict:
        return {"principal_color": None, "presets": [], "pin": None}

    def rolls_since(self, seq: int) -> list[dict]:
        with self.lock:
            return [r for r in self.rolls if r["seq"] > seq]

    def subscribe(self):
        with self.lock:
            self.subscribed += 1
        return self.hub.subscribe()

    def publish_roll(self, seq: int) -> None:
        roll = {"id": seq, "seq": seq, "preset": "2d6", "system": "d6", "complete": True, "total": 7,
                "dice": [{"index": 0, "natural": 3, "role": "principal"},
                         {"index": 1, "natural": 4, "role": "secondary"}]}
        with self.lock:
            self.rolls.append(roll)
        roll = dict(roll, published=time.monotonic())
        self.hub.publish("roll", roll, seq)


def serve(clients: int, rolls: int, interval: float) -> None:
    """Child process: serve, wait for the clients, publish the rolls, then idle until killed."""
    import web

    feed = BenchFeed()
    app = web.create_app(feed, {"MAX_STREAMS": clients + 8, "HEARTBEAT_SECONDS": 15})
    server_ready = threading.Event()

    def publisher():
        server_ready.wait()
        while feed.subscribed < clients:
            time.sleep(0.01)
        time.sleep(0.5)  # every client has read its state event
        for seq in range(1, rolls + 1):
            feed.publish_roll(seq)
            time.sleep(interval)

    import waitress

    from web.server import SPARE_THREADS

    server = waitress.create_server(app, host="127.0.0.1", port=0,
                                    threads=clients + SPARE_THREADS,
                                    connection_limit=2 * clients + 32)
    print(server.effective_port, flush=True)
    threading.Thread(target=publisher, daemon=True).start()
    server_ready.set()
    server.run()


def measure(port: int, clients: int, rolls: int, timeout: float):
    """Open the streams, read until each saw every roll.

    :returns: delays (seconds), the seqs each client received, and the selector
        holding the still-open streams (the caller closes them).
    """
    selector = selectors.DefaultSelector()
    buffers, seqs = {}, []
    for number in range(clients):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, number)
        buffers[number] = b""
        seqs.append([])
    delays: list[float] = []
    deadline = time.monotonic() + timeout
    while sum(len(s) for s in seqs) < clients * rolls and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            received = time.monotonic()
            chunk = key.fileobj.recv(65536)
            if not chunk:
                raise SystemExit(f"client {key.data}: the server closed the stream")
            buffers[key.data] += chunk
            *lines, buffers[key.data] = buffers[key.data].split(b"\n")
            for line in lines:
                if line.startswith(b"data: {") and b'"published"' in line:
                    roll = json.loads(line[6:])
                    delays.append(received - roll["published"])
                    seqs[key.data].append(roll["seq"])
    return delays, seqs, selector


def page_loads(port: int, count: int = 20) -> list[float]:
    """Seconds each of ``count`` plain ``GET /api/state`` requests takes (streams still open)."""
    times = []
    for _ in range(count):
        start = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status != 200:
            raise SystemExit(f"GET /api/state answered {response.status} with the streams open")
        times.append(time.monotonic() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rolls", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between rolls")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.clients, args.rolls, args.interval)
        return 0
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--clients", str(args.clients), "--rolls", str(args.rolls),
         "--interval", str(args.interval)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        port = int(child.stdout.readline())
        delays, seqs, streams = measure(port, args.clients, args.rolls, timeout=30 + args.rolls * args.interval)
        loads = sorted(t * 1000 for t in page_loads(port))
        for key in list(streams.get_map().values()):
            key.fileobj.close()
        streams.close()
    finally:
        child.terminate()
        child.wait(10)
    expected = list(range(1, args.rolls + 1))
    complete = sum(1 for s in seqs if s == expected)
    ms = sorted(d * 1000 for d in delays)
    p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))] if ms else float("nan")
    print(f"clients {args.clients}, rolls {args.rolls}, deliveries {len(ms)} of {args.clients * args.rolls}")
    print(f"publish->receipt delay: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms")
    print(f"clients with every roll exactly once, in order: {complete} of {args.clients}")
    print(f"GET /api/state with the {args.clients} streams open: median {statistics.median(loads):.2f} ms, "
          f"max {loads[-1]:.2f} ms ({len(loads)} requests)")
    return 0 if complete == args.clients else 1


if __name__ == "__main__":
    sys.exit(main())
