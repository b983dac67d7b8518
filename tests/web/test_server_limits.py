"""The waitress server holds against one client: idle sockets from one address, a request that
trickles in, a body far over the limit (web/server.py). Served on 127.0.0.1 only; the other
client is 127.0.0.2 (all of 127/8 is this machine). Every wait is bounded."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from waitress import wasyncore

from web import create_app
from web.server import make_server

WAIT = 10.0  # seconds any socket waits at most


@contextmanager
def serving(controller, **config) -> Iterator[int]:
    app = create_app(controller, {"TESTING": True, "MAX_STREAMS": 2, **config})
    server = make_server(app, host="127.0.0.1", port=0)
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        stop.set()
        thread.join()
        wasyncore.close_all(server._map)
        server.task_dispatcher.shutdown()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source, 0))
    sock.settimeout(WAIT)
    return sock


def answer(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (bounded by WAIT per read)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def get_state(port: int, source: str) -> bytes:
    with connect(port, source) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return answer(sock)


def test_idle_sockets_from_one_address_do_not_take_the_server_off_the_air(controller):
    with serving(controller, MAX_CONNECTIONS_PER_ADDRESS=4) as port:
        idle = [connect(port) for _ in range(120)]  # more than waitress's connection_limit (36)
        try:
            assert get_state(port, "127.0.0.2").startswith(b"HTTP/1.1 200")
        finally:
            for sock in idle:
                sock.close()


def test_a_request_trickling_in_is_closed_at_its_deadline(controller):
    with serving(controller, REQUEST_SECONDS=1) as port, connect(port, "127.0.0.2") as sock:
        sock.sendall(b"G")  # and nothing more: waitress alone would wait for ever
        assert answer(sock) == b""  # closed by the server, within WAIT


def test_a_huge_body_is_refused_by_its_content_length_before_it_is_sent(controller):
    with serving(controller) as port, connect(port, "127.0.0.2") as sock:
        sock.sendall(b"POST /api/arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500000000\r\n\r\n")
        assert answer(sock).startswith(b"HTTP/1.1 413")


@pytest.mark.parametrize("where", ["header", "query"])
def test_a_last_event_id_of_4301_digits_is_400_with_the_reason(client, where):
    digits = "9" * 4301
    if where == "header":
        response = client.get("/api/events", headers={"Last-Event-ID": digits})
    else:
        response = client.get(f"/api/events?last_event_id={digits}")
    assert response.status_code == 400
    assert "last_event_id must be a roll seq" in response.get_json()["error"]
