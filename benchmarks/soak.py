"""A soak: the server under a steady mix of page loads, rolls, history reads, streams opened and
dropped, and malformed requests, for a fixed time; its memory sampled all along.

Serves the real app (real controller and history in a temporary folder) with
``web.server.make_server`` in a child process on 127.0.0.1, and drives it from 4 client
threads. Prints the requests made and their statuses, and the child's resident memory
(VmRSS) after the first minute's warm-up share, at the end, and its highest: a leak shows as
a climb after the warm-up.

    .venv/bin/python benchmarks/soak.py                   # 120 s
    .venv/bin/python benchmarks/soak.py --seconds 900     # the 15-minute soak

Bounded: ``--seconds`` (at most 3600), every socket waits at most 10 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lan_load import served  # noqa: E402  (the same child: real controller, make_server)

WAIT = 10.0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def request(port: int, method: str, path: str, body: bytes | None = None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        connection.request(method, path, body, {"Content-Type": "application/json"} if body else {})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def stream_briefly(port: int) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.recv(4096)
    return 200


def client(port: int, until: float, seed: int, statuses: Counter, lock: threading.Lock) -> None:
    rng = random.Random(seed)
    actions = [
        lambda: request(port, "GET", "/"),
        lambda: request(port, "GET", "/api/state"),
        lambda: request(port, "GET", "/api/rolls?limit=50"),
        lambda: request(port, "GET", "/history"),
        lambda: request(port, "POST", "/api/arm", json.dumps({"preset": "2d6"}).encode()),
        lambda: request(port, "POST", "/api/dice",
                        json.dumps({"values": [rng.randint(1, 6), rng.randint(1, 5)]}).encode()),
        lambda: request(port, "POST", "/api/dice", b'{"values": [1, 2, "x"'),  # malformed
        lambda: request(port, "GET", "/api/events?last_event_id=" + "9" * 5000),  # malformed
        lambda: stream_briefly(port),
    ]
    while time.monotonic() < until:
        try:
            status = rng.choice(actions)()
        except OSError as exc:
            status = type(exc).__name__
        with lock:
            statuses[status] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    seconds = min(max(args.seconds, 10.0), 3600.0)
    statuses: Counter = Counter()
    lock = threading.Lock()
    with served() as (port, child):
        start = time.monotonic()
        until = start + seconds
        threads = [threading.Thread(target=client, args=(port, until, n, statuses, lock)) for n in range(4)]
        for thread in threads:
            thread.start()
        samples: list[tuple[float, int]] = []
        while time.monotonic() < until:
            samples.append((time.monotonic() - start, rss_kib(child.pid)))
            time.sleep(min(5.0, seconds / 20))
        for thread in threads:
            thread.join(WAIT * 2)
        samples.append((time.monotonic() - start, rss_kib(child.pid)))
    warm = next((kib for t, kib in samples if t >= seconds / 5), samples[0][1])
    print(f"soak {seconds:.0f} s: {sum(statuses.values())} requests, "
          f"statuses {dict(sorted(statuses.items(), key=str))}")
    print(f"server memory (VmRSS): {samples[0][1] / 1024:.1f} MiB at start, {warm / 1024:.1f} MiB after the "
          f"warm-up ({seconds / 5:.0f} s), {samples[-1][1] / 1024:.1f} MiB at the end, "
          f"highest {max(k for _, k in samples) / 1024:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
