"""Joining the table from a phone (blueprint ``join``): ``GET /join.svg``, a QR code of the page's address.

The address is the one the request came in on (``http://dicelens.local:8000/`` opened on
a phone gives that), except when the page was opened as ``localhost`` on the machine
itself: a phone cannot use that, so the machine's LAN address takes its place, when
the server listens on the network (``SERVE_HOST`` in the app config: ``0.0.0.0``,
``::`` or an address of this machine). ``JOIN_URL`` in the app config (or
``DICE_JOIN_URL``, an http(s) address of at most 300 characters, checked when ``dicelens
serve`` starts: web/environment.py) overrides it all, for a fixed name behind a router.

Templates get ``join_address()`` → ``(url, reachable)``: ``reachable`` is False when
the server listens on this machine only (``--host 127.0.0.1``), so no phone can join.
The QR code is drawn by segno.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, request

bp = Blueprint("join", __name__)

_WILDCARDS = ("", "0.0.0.0", "::")


@bp.get("/join.svg")
def join_svg():
    url, _reachable = join_address()
    svg = io.BytesIO()
    # make_qr: a full QR code (phones' camera apps read it; segno.make may pick a Micro QR).
    # A white background and quiet zone, so it scans on the dark theme too.
    segno.make_qr(url, error="m").save(svg, kind="svg", border=4, light="#fff",
                                        omitsize=True, xmldecl=False, title=url)
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"  # the address depends on how the page was opened
    response.vary.add("Host")
    return response


@bp.app_context_processor
def _join_context() -> dict:
    return {"join_address": join_address}


def join_address() -> tuple[str, bool]:
    """The address phones open for this table, and whether they can reach it.

    :returns: ``(url, reachable)``, url ending in ``/``; reachable False when the server
        listens on loopback only.
    """
    configured = current_app.config.get("JOIN_URL")
    listen = str(current_app.config.get("SERVE_HOST", ""))
    reachable = not _is_loopback(listen)
    if configured:
        return str(configured), True
    asked = urlsplit("//" + request.host)
    host = asked.hostname or "localhost"
    if _is_loopback(host) and reachable:
        host = (listen if listen not in _WILDCARDS else lan_address()) or host
    if ":" in host:  # an IPv6 address goes in brackets
        host = f"[{host}]"
    port = f":{asked.port}" if asked.port else ""
    return f"{request.scheme}://{host}{port}/", reachable


def lan_address() -> str | None:
    """This machine's address on the local network (the one its default route leaves from), or None.

    Connecting a UDP socket only picks the route; no packet is sent.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): any routable address does
            address = probe.getsockname()[0]
        except OSError:  # no network at all
            return None
    return None if _is_loopback(address) else address


def _is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name, or empty
        return False
