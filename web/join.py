"""Joining the table from a phone (blueprint ``join``): ``GET /join.svg``, a QR code of the
page's address, and ``GET /join-wifi.svg``, a QR code that joins the table's own Wi-Fi.

The code carries the numeric address: many Android phones cannot resolve ``.local``
names, so a page opened as ``http://dicelens.local:8000/`` gives
``http://192.168.1.7:8000/``: the address the server listens on (``SERVE_HOST`` in the
app config) when it is one, else the machine's LAN address (the one its default route
leaves from); on the table's own Wi-Fi, the hotspot's address. A page opened by an
address keeps it. ``JOIN_URL`` in the app config (or ``DICE_JOIN_URL``, an http(s)
address of at most 300 characters, checked when ``dicelens serve`` starts:
web/environment.py) overrides it all, for a fixed name behind a router.

``HOTSPOT`` in the app config, ``{"ssid", "password", "address"}`` (set by ``dicelens
serve`` when ``[hotspot] enabled``), is the table's own Wi-Fi; it counts as up while its
address is one of this machine's (``dicelens hotspot`` has started the access point).

Templates get ``join_address()`` → ``(url, reachable)``: ``reachable`` is False when
the server listens on this machine only (``--host 127.0.0.1``), so no phone can join;
and ``hotspot_network()``, the hotspot while it is up, else None. The QR codes are
drawn by segno.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, request
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound

bp = Blueprint("join", __name__)

_WILDCARDS = ("", "0.0.0.0", "::")


@bp.get("/join.svg")
def join_svg() -> Response:
    url, _reachable = join_address()
    return _qr_svg(url, title=url)


@bp.get("/join-wifi.svg")
def join_wifi_svg() -> Response:
    """The Wi-Fi QR code of the table's own network. :raises NotFound: while it is not up."""
    hotspot = hotspot_network()
    if hotspot is None:
        raise NotFound(_("the table's own Wi-Fi is not on"))
    return _qr_svg(wifi_payload(hotspot["ssid"], hotspot["password"]), title=hotspot["ssid"])


def _qr_svg(text: str, title: str) -> Response:
    svg = io.BytesIO()
    # make_qr: a full QR code (phones' camera apps read it; segno.make may pick a Micro QR).
    # A white background and quiet zone, so it scans on the dark theme too.
    segno.make_qr(text, error="m").save(svg, kind="svg", border=4, light="#fff",
                                         omitsize=True, xmldecl=False, title=title)
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"  # the address depends on how the page was opened
    response.vary.add("Host")
    return response


@bp.app_context_processor
def _join_context() -> dict:
    return {"join_address": join_address, "hotspot_network": hotspot_network}


def wifi_payload(ssid: str, password: str) -> str:
    """The Wi-Fi QR code's text for a WPA/WPA2 network: ``WIFI:T:WPA;S:<ssid>;P:<password>;;``.

    ``\\ ; , " :`` in the name and password are escaped with a backslash, as the format
    (ZXing's, which phones' camera apps read) asks; segno's make_wifi_data leaves ``,``
    unescaped.
    """
    def escape(text: str) -> str:
        return "".join("\\" + char if char in '\\;,":' else char for char in text)
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def hotspot_network() -> dict | None:
    """The table's own Wi-Fi while it is up: ``HOTSPOT`` of the app config,
    ``{"ssid", "password", "address"}``, when its address is one of this machine's; else None."""
    hotspot = current_app.config.get("HOTSPOT")
    if not hotspot:
        return None
    with socket.socket() as probe:
        try:
            probe.bind((hotspot["address"], 0))  # only an address of this machine can be bound
        except OSError:
            return None
    return hotspot


def join_address() -> tuple[str, bool]:
    """The address phones open for this table, and whether they can reach it.

    :returns: ``(url, reachable)``, url ending in ``/``, by number unless ``JOIN_URL``
        names it or no address of this machine is known; reachable False when the
        server listens on loopback only.
    """
    configured = current_app.config.get("JOIN_URL")
    listen = str(current_app.config.get("SERVE_HOST", ""))
    reachable = not _is_loopback(listen)
    if configured:
        return str(configured), True
    asked = urlsplit("//" + request.host)
    host = asked.hostname or "localhost"
    hotspot = hotspot_network()
    if hotspot is not None:  # the phones are on the table's own Wi-Fi
        host = hotspot["address"]
    elif reachable and (_is_loopback(host) or not _is_address(host)):
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


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:  # a name
        return False
    return True


def _is_loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name, or empty
        return False
