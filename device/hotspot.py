"""``dicelens hotspot``: the table's own Wi-Fi when no known network is in reach.

Run as root at boot before the service (systemd/dicelens-hotspot.service, once
NetworkManager has tried the known networks): with ``[hotspot] enabled = true``
and the Wi-Fi interface not connected, it asks NetworkManager (``nmcli``, on
Raspberry Pi OS Bookworm and Trixie) for an access point, at the fixed address
10.42.0.1, and prints the network's name and password and the page's address, each
with a QR code (the Wi-Fi one joins a phone to the network, web/join.py's payload).
``--dry-run`` prints the commands instead of running them, the state query too: it
needs no NetworkManager.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

import segno

from device.cli import UsageError, summary
from device.config import ConfigError, HotspotConfig, load_config
from web.join import wifi_payload

#: The page's address on the table's own network: NetworkManager's for a shared connection, held fixed.
ADDRESS = "10.42.0.1"
#: NetworkManager's name for the access point's connection.
CONNECTION = "dicelens-hotspot"
#: The interfaces' states: the access point is made only when the Wi-Fi one is not connected.
STATUS = ["nmcli", "--terse", "--fields", "DEVICE,STATE", "device", "status"]


def register(subparsers) -> None:
    """Add ``hotspot`` to the ``dicelens`` sub-commands."""
    parser = subparsers.add_parser("hotspot", help="the Pi's own Wi-Fi when no known network is in reach",
                                   description=summary(__doc__))
    parser.add_argument("--config", type=Path, metavar="PATH", required=True,
                        help="the config file ([hotspot] and [web] are read)")
    parser.add_argument("--dry-run", action="store_true", help="print the nmcli commands instead of running them")
    parser.set_defaults(func=run)


def commands(hotspot: HotspotConfig) -> list[list[str]]:
    """The nmcli commands that make the access point: create and start it, then hold its
    address and keep it from starting on its own (at the next boot the known networks go first).

    :returns: argument lists, in order.
    """
    return [
        ["nmcli", "device", "wifi", "hotspot", "ifname", hotspot.interface, "con-name", CONNECTION,
         "ssid", hotspot.ssid, "password", hotspot.password],
        ["nmcli", "connection", "modify", CONNECTION, "ipv4.method", "shared",
         "ipv4.addresses", f"{ADDRESS}/24", "connection.autoconnect", "no"],
        ["nmcli", "connection", "up", CONNECTION],
    ]


def run(args: argparse.Namespace) -> int:
    """0 when connected, disabled, the access point is up or for a dry run; 1 when nmcli fails; 2 for a bad config."""
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    hotspot = config.hotspot
    if not hotspot.enabled:
        print("dicelens: hotspot.enabled is false: the Pi joins the known networks only")
        return 0
    if args.dry_run:  # no nmcli asked: a desktop may have no NetworkManager
        print(f"would run: {shlex.join(STATUS)}")
        print(f"and when {hotspot.interface} is not connected:")
        for command in commands(hotspot):
            print(f"would run: {shlex.join(command)}")
        print("then print:")
        announce(hotspot, config.web.port)
        return 0
    try:
        state = _nmcli(STATUS)
        states = dict(line.split(":", 1) for line in state.splitlines() if ":" in line)
        if hotspot.interface not in states:
            print(f"dicelens: no network interface {hotspot.interface} (nmcli device status)")
            return 1
        if states[hotspot.interface] == "connected":
            print(f"dicelens: {hotspot.interface} is connected to a known network: no hotspot")
            return 0
        for command in commands(hotspot):
            _nmcli(command)
    except _NmcliFailed as exc:
        print(f"dicelens: {exc}")
        return 1
    announce(hotspot, config.web.port)
    return 0


def announce(hotspot: HotspotConfig, port: int) -> None:
    """Print the network's name, password and the page's address, then a QR code that
    joins a phone to the network and one that opens the page (Unicode half blocks)."""
    url = f"http://{ADDRESS}:{port}/"
    print(f"dicelens: no known network in reach: the table's own Wi-Fi is {hotspot.ssid!r}, "
          f"password {hotspot.password!r}; phones open {url}")
    for what, text in (("join the Wi-Fi", wifi_payload(hotspot.ssid, hotspot.password)), ("open the page", url)):
        print(f"dicelens: QR code to {what}:")
        segno.make_qr(text, error="m").terminal(out=sys.stdout, compact=True)


class _NmcliFailed(Exception):
    pass


def _nmcli(command: list[str]) -> str:
    """Run nmcli → its output. :raises _NmcliFailed: in one line, when it is missing or fails."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise _NmcliFailed("nmcli not found: the hotspot needs NetworkManager "
                           "(Raspberry Pi OS Bookworm and Trixie have it)") from None
    except subprocess.TimeoutExpired:
        raise _NmcliFailed(f"{shlex.join(command[:4])} did not answer within 60 s") from None
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or [f"exit status {result.returncode}"])[-1]
        raise _NmcliFailed(f"{shlex.join(command[:4])} failed: {why}")
    return result.stdout
