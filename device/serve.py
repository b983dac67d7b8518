"""``dicelens serve``: camera, tray loop, buttons, controller and the web app, until stopped.

Everything is opened in an :class:`contextlib.ExitStack` and closed in reverse
order when waitress returns: on SIGTERM (systemd stopping the unit) and on
Ctrl-C alike. Under systemd (``Type=notify``) it sends READY=1 once the app is
built, the camera's status as STATUS=, and WATCHDOG=1 from every turn of the
camera loop (device/watchdog.py). The config is read and checked before anything starts; a bad
key, value or camera name, or a bad ``DICE_*`` environment variable (web/environment.py),
ends with exit status 2 and one line on stderr.

Data folder: ``--data``, else the config's ``data_folder``, else
``$XDG_DATA_HOME/dicelens`` (``~/.local/share/dicelens``) for a real camera, and
``dicelens-sim`` or ``dicelens-replay/<name of PATH>`` beside it for the simulated camera and
replayed photos, so that a demo's rolls never join the table's history, nor one replay's
another's (:func:`device.config.default_data_folder`). It holds the history database, the photos
and ``secret_key`` (the key signing the phones' cookies; a PIN login itself lasts until
logout or a restart, web/security.py); one server at a time (:mod:`device.data_folder`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import secrets
import signal
import socket
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from device.cli import number, summary, whole_number
from device.config import Config, check_camera_source, default_data_folder, load_config
from device.controller import Controller
from device.data_folder import StartupError, adopt_shared_replay, held
from device.errors import CameraUnavailable, DeviceError, HistoryDamaged
from device.history import DATABASE, History
from device.hotspot import ADDRESS as HOTSPOT_ADDRESS
from device.tray.loop import TrayLoop
from device.watchdog import Watchdog

if TYPE_CHECKING:
    from flask import Flask

log = logging.getLogger(__name__)

#: What the status LED shows for each controller state (device.buttons.LED_PATTERNS keys).
LED_FOR_STATE = {"idle": "off", "armed": "armed", "waiting": "armed", "reading": "armed",
                 "prompting": "waiting", "resolved": "done"}


def register(subparsers) -> None:
    """Add ``serve`` to the ``dicelens`` command line."""
    parser = subparsers.add_parser("serve", help="run the companion: camera, buttons and the page",
                                   description=summary(__doc__))
    parser.add_argument("--camera", help="sim | file:PATH | usb:N | picamera2 (default: the config's, else sim)")
    parser.add_argument("--config", type=Path, help="TOML config file (default: none, desktop defaults)")
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1; 0.0.0.0 for the phones)")
    parser.add_argument("--port", type=whole_number, help="port of the page (default 8000; 0 picks a free one)")
    parser.add_argument("--data", type=Path, help="data folder (default: ~/.local/share/dicelens for a real camera, "
                        "dicelens-sim for the simulated one, dicelens-replay/<name of PATH> for file:PATH)")
    parser.add_argument("--auto-throw", type=number, metavar="N",
                        help="sim/file camera: throw every N seconds, N of 1 or more (a finished "
                             "roll's preset is armed again); 0: only on request")
    parser.set_defaults(func=run)


def settings_from(args: argparse.Namespace) -> Config:
    """The config file with the command line's overrides, checked.

    :raises ConfigError: (a ValueError) naming the bad key or option.
    :raises EnvironmentSettingError: (a ValueError) naming a bad ``DICE_*`` variable.
    """
    from web.environment import check_environment  # the page's settings: imported only to serve

    config = load_config(args.config)
    check_environment()
    camera = config.camera
    if args.camera is not None:
        camera = replace(camera, source=check_camera_source(args.camera, "--camera"))
    if args.auto_throw is not None:
        if not (args.auto_throw == 0 or 1 <= args.auto_throw <= 3600):
            raise ValueError(f"--auto-throw must be 0 (off) or 1 to 3600 seconds (got {args.auto_throw:g})")
        camera = replace(camera, auto_throw=args.auto_throw)
    web = config.web
    if args.host is not None:
        web = replace(web, host=args.host)
    check_host(web.host, "--host" if args.host is not None else "web.host")
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise ValueError(f"--port must be 0 to 65535 (got {args.port})")
        web = replace(web, port=args.port)
    data = (args.data.expanduser() if args.data is not None
            else config.data_folder or default_data_folder(camera.source))
    return replace(config, camera=camera, web=web, data_folder=data)


def check_host(host: str, option: str) -> None:
    """Refuse an address to listen on that is none of this machine's, before anything is
    started or written (waitress would say only "Invalid host/port specified.").

    :param option: where the host was given (``--host``, ``web.host``), for the message.
    :raises ValueError: naming the host.
    """
    refused = ValueError(f"{option} {host!r} is not an address or host name of this machine "
                         "(0.0.0.0 listens on all of them)")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError):
        raise refused from None
    with socket.socket(family, kind, proto) as probe:
        try:
            probe.bind(address)  # port 0: any free port, and nothing listens
        except OSError as exc:
            if exc.errno == errno.EADDRNOTAVAIL:  # another machine's address
                raise refused from None


def run(args: argparse.Namespace) -> int:
    """Run until SIGTERM or Ctrl-C; returns the exit status."""
    config = settings_from(args)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    built: list[Flask] = []  # the app, once built: a stop ends its pages' event streams first

    def interrupt(signum, frame) -> None:
        for app in built:
            web.end_streams(app)
        raise KeyboardInterrupt  # waitress and the ExitStack end cleanly, as on Ctrl-C

    # SIGINT too: a process started in the background (`nohup … &`) inherits SIGINT
    # ignored, and Python then leaves it so; `kill -INT` must still stop it cleanly.
    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        with contextlib.ExitStack() as stack:
            watchdog = Watchdog()
            stack.callback(watchdog.close)
            import web
            app = build(config, stack, watchdog)
            built.append(app)
            log.info("dicelens: camera %s, data in %s", config.camera.source, config.data_folder)
            watchdog.ready(f"serving on {config.web.host}:{config.web.port}")
            pin_set = app.extensions["dicelens.controller"].settings()["pin"] is not None
            try:
                web.serve(app, host=config.web.host, port=config.web.port,
                          listening=lambda port: tell_addresses(config.web.host, port, pin_set))
            except OSError as exc:  # the port is taken (may free up: a retry can help); the host was checked
                log.error("cannot serve on %s:%s: %s", config.web.host, config.web.port, exc.strerror or exc)
                return 1
    except KeyboardInterrupt:
        pass
    except StartupError as exc:  # the user's data folder or database: retrying cannot fix it
        log.error("%s", exc)
        return 2
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("dicelens stopped")
    return 0


def phone_addresses(host: str, port: int) -> list[str]:
    """The addresses a phone opens for the page served on ``host``: for all of this
    machine's addresses (``0.0.0.0``, ``::``), its LAN address and ``<hostname>.local``
    (mDNS, which Raspberry Pi OS answers); else the one address given; none for loopback."""
    from web.join import _WILDCARDS, _is_loopback, lan_address

    if _is_loopback(host):
        return []
    if host not in _WILDCARDS:
        return [f"http://{f'[{host}]' if ':' in host else host}:{port}/"]
    names = [lan_address(), socket.gethostname().split(".")[0].lower() + ".local"]
    return [f"http://{name}:{port}/" for name in names if name]


def tell_addresses(host: str, port: int, pin_set: bool) -> None:
    """Log where the phones open the page and, served to the network with no PIN, that
    anyone on it may change things (one line each)."""
    addresses = phone_addresses(host, port)
    if not addresses:
        log.info("open http://%s:%s/ on this machine; phones cannot reach it "
                 "(--host 0.0.0.0 lets them in)", host, port)
        return
    log.info("phones open %s", " or ".join(addresses))
    if not pin_set:
        log.warning("no PIN is set: anyone on this network may arm rolls, correct them, change the "
                    "settings and clear the history (set pin in the config)")


def build(config: Config, stack: contextlib.ExitStack, watchdog: Watchdog | None = None):
    """Open every part in ``stack`` and return the web app.

    :raises ValueError: for a camera name that names no source (a folder with no photos).
    """
    import web
    from device.cameras import open_camera
    from device.combat import CombatSession
    from device.tray.dispatch import TrayDispatcher
    from device.tray.settle import SettleDetector
    from web.security import hash_pin

    source = config.camera.source
    options = _camera_options(config)
    try:
        camera = open_camera(source, **options)  # a name that names nothing stops us here
    except CameraUnavailable:  # the loop keeps trying and logs why, once; the page and dice by hand work
        camera = None
    if camera is not None:
        stack.callback(_close_quietly, camera)  # the loop closes it too; close() is idempotent

    data = config.data_folder or default_data_folder(source)  # as settings_from chose it
    if source.startswith("file:") and data == default_data_folder(source):
        adopt_shared_replay(data)
    stack.enter_context(held(data))  # one server a data folder
    history = stack.enter_context(open_history(data, int(config.photo_cap_mb * 2**20)))
    secret_key = _secret_key(data)
    controller = Controller(config.presets, history, principal_color=config.principal_color,
                            pin=hash_pin(config.pin) if config.pin else None,
                            pin_from_page=config.pin_from_page,
                            chain_limit=config.chain_limit, house_rules=config.house_rules,
                            cocked_dice=config.cocked_dice, resume_seconds=config.resume_minutes * 60)
    stack.callback(controller.close)
    watchdog = watchdog or Watchdog()

    def on_status(status: str, message: str | None) -> None:
        controller.on_status(status, message)
        watchdog.status(f"camera {status}" + (f": {message}" if message else ""))

    fight = CombatSession(data, config.combat,  # RULES T-5: the settings page's policy
                          cocked_dice=lambda: controller.settings()["cocked_dice"])
    # Every settled frame goes one way: a combat step waiting for the tray first, then the
    # teaching round while it is on, then the roll.
    tray = TrayDispatcher([fight, controller.teaching_round, controller], controller.readers, controller.annotate)
    controller.use_tray(tray)
    loop = WatchedTrayLoop(lambda: open_camera(source, **options), tray.on_settled,
                           on_status, camera=camera, detector=SettleDetector(config.settle_seconds),
                           watchdog=watchdog)
    stack.callback(loop.close)
    controller.attach_camera(throw=loop.throw, read_now=loop.read_now,
                             can_throw=lambda: loop.can_throw, can_throw_dice=loop.can_throw_dice,
                             last_frame_at=lambda: loop.last_frame_at)
    on_status(*loop.status)
    loop.start()

    buttons = _buttons(config, controller)
    if buttons is not None:
        stack.callback(buttons.close)
        _follow(controller, stack, "led", lambda state: buttons.show(_led_state(state)))
    if config.camera.auto_throw:
        _every(config.camera.auto_throw, AutoThrow(controller), stack)
    app_config: dict[str, object] = {"SECRET_KEY": secret_key, "SERVE_HOST": config.web.host}
    if config.hotspot.enabled:  # the join page gives its Wi-Fi QR code while it is up (web/join.py)
        hotspot = config.hotspot
        app_config["HOTSPOT"] = {"ssid": hotspot.ssid, "password": hotspot.password, "address": HOTSPOT_ADDRESS}
    return web.combat.attach(web.create_app(controller, app_config), fight)


def open_history(folder: Path, photo_cap_bytes: int) -> History:
    """The history in ``folder`` (made when missing), checked before anything is written.

    A file that is not a history database is left exactly as it is: it may hold the
    table's saved rolls.

    :raises StartupError: for a folder that is a file, cannot be made or written, or a
        database that is no sound history (device.history's checks: quick_check, schema,
        rows' JSON, a zero-byte file beside photos).
    """
    if folder.exists() and not folder.is_dir():
        raise StartupError(f"data folder {folder} is a file, not a folder: "
                           "give a folder with --data or data_folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StartupError(f"data folder {folder} cannot be made: {exc.strerror or exc}") from None
    if not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
        raise StartupError(f"data folder {folder} is not writable by this user")
    database = folder / DATABASE
    try:
        return History(folder, photo_cap_bytes)
    except (sqlite3.Error, HistoryDamaged) as exc:
        raise StartupError(f"history database {database} cannot be used: {exc} (the file was left "
                           "as it is; move it aside to start a new history)") from None
    except OSError as exc:
        raise StartupError(f"data folder {folder}: {exc.filename or folder}: "
                           f"{exc.strerror or exc}") from None


class WatchedTrayLoop(TrayLoop):
    """The tray loop feeding systemd's watchdog on every turn: a hung loop gets the service restarted."""

    def __init__(self, *args, watchdog: Watchdog, **options) -> None:
        super().__init__(*args, **options)
        self._watchdog = watchdog

    def step(self) -> float:
        self._watchdog.alive()
        return super().step()


def _camera_options(config: Config) -> dict:
    kind = config.camera.source.partition(":")[0]
    size = (config.camera.width, config.camera.height)
    if kind in ("usb", "picamera2"):
        return {"size": size}
    if kind == "sim":
        return {"principal_color": config.principal_color}
    return {}


def _buttons(config: Config, controller: Controller):
    """The GPIO buttons: gpiozero's own pins on a Pi, MockFactory pins elsewhere."""
    from device.buttons import RollButtons

    bound = config.buttons
    if not bound.presets and bound.read_now is None and bound.led is None:
        return None
    factory = None
    if not _on_raspberry_pi():
        from gpiozero.pins.mock import MockFactory
        log.info("not a Raspberry Pi: the buttons are simulated (gpiozero MockFactory)")
        factory = MockFactory()

    def press(name: str) -> None:
        try:
            controller.arm(name)
        except KeyError as exc:  # the preset was removed on the page
            log.warning("button: %s", exc)

    def read() -> None:
        try:
            controller.read_now()
        except DeviceError as exc:
            log.warning("read button: %s", exc)

    return RollButtons({pin: name for name, pin in bound.presets.items()}, on_preset=press,
                       on_read=read if bound.read_now is not None else None,
                       read_pin=bound.read_now, led_pin=bound.led, pin_factory=factory,
                       bounce_time=bound.bounce_time)


def _led_state(state: dict) -> str:
    if state["camera"]["status"] != "ok" and state["state"] not in ("idle", "resolved"):
        return "error"
    if state["state"] == "prompting" and state["needs"] is None:
        return "error"  # a problem to fix on the page, not more dice
    return LED_FOR_STATE[state["state"]]


def _follow(controller: Controller, stack: contextlib.ExitStack, name: str, show) -> None:
    """Call ``show(state)`` on a thread for every state event, until the stack closes."""
    subscription = controller.subscribe()
    stop = threading.Event()

    def follow() -> None:
        show(controller.state())
        while not stop.is_set():
            event = subscription.get(timeout=0.5)
            if event is not None and event.kind == "state":
                try:
                    show(event.data)
                except Exception:  # the LED must never stop the companion
                    log.exception("%s failed", name)

    thread = threading.Thread(target=follow, name=name, daemon=True)
    thread.start()
    stack.callback(subscription.close)
    stack.callback(thread.join, 2)
    stack.callback(stop.set)


def _every(seconds: float, action, stack: contextlib.ExitStack) -> None:
    stop = threading.Event()

    def repeat() -> None:
        while not stop.wait(seconds):
            action()

    thread = threading.Thread(target=repeat, name="auto-throw", daemon=True)
    thread.start()
    stack.callback(thread.join, 2)
    stack.callback(stop.set)


class AutoThrow:
    """The demo's throws (``--auto-throw N``): called every N seconds, it throws the dice the
    armed roll wants (a finished roll is armed again), unless a throw is still settling
    or being read. A throw that never settles is given up after :attr:`patience` seconds.
    """

    patience = 10.0

    def __init__(self, controller: Controller, clock=time.monotonic):
        self.controller, self.clock = controller, clock
        self.last = float("-inf")

    def __call__(self) -> None:
        state = self.controller.state()
        if state["preset"] is None:
            return
        busy = state["state"] in ("waiting", "reading")
        if busy and self.clock() - self.last < self.patience:
            return
        try:
            self.controller.throw()
            self.last = self.clock()
        except DeviceError as exc:
            log.info("auto-throw: %s", exc)


def _secret_key(folder: Path) -> str:
    """:raises StartupError: when the key file cannot be read or written."""
    path = folder / "secret_key"
    try:
        key = path.read_text().strip() if path.exists() else ""
        if not key:
            path.touch(mode=0o600)
            key = secrets.token_hex(32)
            path.write_text(key)
    except (OSError, UnicodeDecodeError) as exc:
        raise StartupError(f"{path} cannot be used: {getattr(exc, 'strerror', None) or exc}") from None
    return key


def _on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def _close_quietly(thing) -> None:
    try:
        thing.close()
    except Exception:
        log.exception("closing %s", thing)

