"""The waitress server holds against one client: idle sockets from one address, a request that
trickles in, a body far over the limit (web/server.py). Served on 127.0.0.1 only; the other
client is 127.0.0.2 (all of 127/8 is this machine). Every wait is bounded."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from web import create_app
from web.server import make_server

from .conftest import running

WAIT = 10.0  # seconds any socket waits at most


def serving(controller, **config):
    """The app around ``controller`` served by :func:`web.server.make_server` on a free port."""
    return running(make_server(create_app(controller, {"TESTING": True, "MAX_STREAMS": 2, **config}),
                               host="127.0.0.1", port=0))


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


@pytest.mark.slow
def test_a_request_trickling_in_is_closed_at_its_deadline(controller):
    with serving(controller, REQUEST_SECONDS=1) as port, connect(port, "127.0.0.2") as sock:
        sock.sendall(b"G")  # and nothing more: waitress alone would wait for ever
        assert answer(sock) == b""  # closed by the server, within WAIT


def test_a_huge_body_is_refused_by_its_content_length_before_it_is_sent(controller):
    with serving(controller) as port, connect(port, "127.0.0.2") as sock:
        sock.sendall(b"POST /api/arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500000000\r\n\r\n")
        assert answer(sock).startswith(b"HTTP/1.1 413")


def test_a_body_a_little_over_the_limit_is_the_apis_json_413(controller):
    """300 KB to /api/arm (the limit is 256 KB): the API's JSON error with its reason, not
    waitress's plain text (found by a fresh user's trial)."""
    body = b'{"preset": "' + b"x" * 300_000 + b'"}'
    with serving(controller) as port, connect(port, "127.0.0.2") as sock:
        sock.sendall(b"POST /api/arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        head, _, payload = answer(sock).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"application/json" in head
    assert json.loads(payload)["error"]


@pytest.mark.parametrize("where", ["header", "query"])
def test_a_last_event_id_of_4301_digits_is_400_with_the_reason(client, where):
    digits = "9" * 4301
    if where == "header":
        response = client.get("/api/events", headers={"Last-Event-ID": digits})
    else:
        response = client.get(f"/api/events?last_event_id={digits}")
    assert response.status_code == 400
    assert "last_event_id must be a roll seq" in response.get_json()["error"]


def stream_slots_free(app) -> bool:
    """Whether every stream slot and subscription is free again, waiting WAIT at most."""
    streams, controller = app.extensions["dicelens.streams"], app.extensions["dicelens.controller"]
    for _ in range(int(WAIT / 0.02)):
        if not streams.open and not controller.subscribers:
            return True
        threading.Event().wait(0.02)
    return False


def serving_app(app):
    return running(make_server(app, host="127.0.0.1", port=0))


def open_stream(port: int) -> socket.socket:
    sock = connect(port, "127.0.0.2")
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    return sock


@pytest.mark.slow
def test_a_closed_stream_frees_its_slot_before_the_next_heartbeat(controller):
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 600})
    with serving_app(app) as port:
        sock = open_stream(port)
        assert app.extensions["dicelens.streams"].open == 1
        sock.close()
        assert stream_slots_free(app)  # 600 s before the heartbeat would have noticed


@pytest.mark.slow
def test_a_client_that_never_reads_holds_its_slot_no_longer_than_a_stream_lasts(controller):
    app = create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 600, "STREAM_SECONDS": 1})
    with serving_app(app) as port, open_stream(port):  # open, and never read again
        assert stream_slots_free(app)
