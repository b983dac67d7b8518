"""The waitress server of the page, held against one client taking the table off the air.

A phone (or a stranger's laptop) on the shared Wi-Fi must not be able to make the server
unreachable for the others. waitress's own settings cap the body (``max_request_body_size``:
a 500 MB body is refused by its Content-Length with 413 before a byte of it is read; one over
``MAX_CONTENT_LENGTH`` but within :data:`WAITRESS_BODY_FACTOR` times it reaches the app, whose
413 is the API's JSON error) and the
number of connections in all; :class:`GuardedChannel` adds what waitress lacks:

* at most ``MAX_CONNECTIONS_PER_ADDRESS`` connections from one client address (one more is
  closed at once: 150 idle sockets from one address had every request time out);
* a request must arrive whole within ``REQUEST_SECONDS`` of its first byte (a header byte
  every 30 s kept a connection, and so a slot, for ever), and a connection that sends nothing
  is closed after waitress's ``channel_timeout``.

An open event stream is one request being answered: neither limit ends it.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server

#: Threads waitress keeps for page loads and API calls beyond the open streams.
SPARE_THREADS = 8
#: waitress reads a body of at most this many times the app's MAX_CONTENT_LENGTH (then its own
#: plain-text 413): a body a little too large is read and refused by the app, with the reason
WAITRESS_BODY_FACTOR = 2


class GuardedChannel(HTTPChannel):
    """waitress's HTTP channel with a per-address connection limit and a request deadline
    (the server's ``dicelens_limits``: ``(connections per address, seconds per request)``)."""

    _started = 0.0  # when the request being received began
    will_close: bool  # waitress's own: close the connection once the response is sent

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        per_address, _ = server.dicelens_limits
        counts, lock = server.dicelens_connections
        self._address = addr[0] if isinstance(addr, tuple) else str(addr)
        with lock:
            counts[self._address] += 1
            over = counts[self._address] > per_address
        self._counted = True
        if over:
            self.handle_close()

    def del_channel(self, map=None):
        if getattr(self, "_counted", False):
            self._counted = False
            counts, lock = self.server.dicelens_connections
            with lock:
                counts[self._address] -= 1
                if counts[self._address] <= 0:
                    del counts[self._address]
        super().del_channel(map)

    def received(self, data):
        if self.request is None:  # the first bytes of a new request
            self._started = time.time()
        return super().received(data)

    def readable(self):
        # Asked on every turn of waitress's loop (each second at most): a request still
        # arriving past its deadline closes the connection.
        if self.request is not None and not self.will_close:
            if time.time() - self._started > self.server.dicelens_limits[1]:
                self.will_close = True
        return super().readable()


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, **options):
    """The waitress server for ``app`` (not started: call ``.run()``).

    Each open page holds a thread for its event stream, so waitress gets ``MAX_STREAMS``
    threads plus :data:`SPARE_THREADS` for page loads and API calls. ``options`` go to
    ``waitress.create_server`` and win over these settings.
    """
    config = app.config
    streams = int(config["MAX_STREAMS"])
    settings = {
        "threads": streams + SPARE_THREADS,
        "connection_limit": 2 * streams + 4 * SPARE_THREADS,
        "channel_timeout": 60,  # seconds a connection may stay silent between requests
        # ≥ this: waitress's plain-text 413; a body between the two limits gets the app's JSON 413
        "max_request_body_size": WAITRESS_BODY_FACTOR * int(config["MAX_CONTENT_LENGTH"]),
        "max_request_header_size": 16 * 1024,
        # Keep reading a connection whose request runs: a stream's client closing it is
        # seen at once (waitress.client_disconnected), not at the next heartbeat.
        "channel_request_lookahead": 1,
        "ident": "dicelens",
    }
    settings.update(options)
    server = create_server(app, host=host, port=port, **settings)
    servers = ([s for s in server.map.values() if isinstance(s, BaseWSGIServer)]
               if isinstance(server, MultiSocketServer) else [server])
    # Shared: one address on IPv4 and IPv6 alike.
    connections: tuple[Counter[str], threading.Lock] = (Counter(), threading.Lock())
    for each in servers:
        each.channel_class = GuardedChannel
        each.dicelens_limits = (int(config["MAX_CONNECTIONS_PER_ADDRESS"]), float(config["REQUEST_SECONDS"]))
        each.dicelens_connections = connections
    return server


def bound_port(server) -> int:
    """The port a :func:`make_server` server listens on (the one picked for port 0), on
    one socket or on several (a host name with an IPv4 and an IPv6 address)."""
    if isinstance(server, MultiSocketServer):
        return next(s.effective_port for s in server.map.values() if isinstance(s, BaseWSGIServer))
    return server.effective_port
