"""The one TOML config file of ``dicelens serve``: every key, its default, its check.

With no file at all the defaults run on a desktop (simulated camera, mock
buttons). A wrong key or value raises :class:`ConfigError` naming the key and
the allowed values, before anything starts. Example, every key shown with its
default (``data_folder`` left commented out: copied as it is onto a desktop, the simulated
camera's rolls would join the real table's history)::

    # data_folder = "~/.local/share/dicelens"  # history.sqlite3 and photos/; unset: dicelens for
                            # a real camera, dicelens-sim / dicelens-replay/<name of PATH> for
                            # sim / file:PATH
    pin = ""                # PIN every control asks for (arm, throw, dice by hand, correct,
                            # the fight, teaching, settings, clear history); "" = none
    pin_from_page = false   # with pin = "": may the settings page set a PIN? (any phone could)
    principal_color = "red" # colour of the principal die (RULES D6-2); "" = any distinct colour
    settle_seconds = 0.4    # still time after movement before a frame is read
    chain_limit = 100       # links of a perfect-roll chain before it is stopped (RULES T-4)
    resume_minutes = 30     # a roll waiting for dice at a restart is taken up again when its
                            # last step is younger than this, else closed as abandoned (RULES T-3)
    cocked_dice = "rethrow_die"  # a cocked die (RULES T-5): rethrow_die (throw it again) |
                            # rethrow_set (throw that step's dice again) | accept_leaning (the
                            # table enters its top face: the reader reads no leaning die)
    photo_cap_mb = 500      # photos beyond this are pruned, oldest first

    [camera]
    source = "sim"          # sim | file:PATH | usb:N | picamera2
    width = 1280
    height = 960
    auto_throw = 0          # seconds between throws of a sim/file camera; 0 = on request

    [web]
    host = "127.0.0.1"
    port = 8000

    [buttons]               # BCM pin numbers; a preset name bound to each button
    presets = { "2d6" = 17, "1d6" = 27, "free" = 22 }
    read_now = 23           # optional
    led = 24                # optional
    bounce_time = 0.05      # seconds

    [hotspot]               # the Pi's own Wi-Fi when no known network is in reach (dicelens hotspot)
    enabled = false
    ssid = "dicelens"       # 1 to 32 characters
    password = ""           # WPA2, 8 to 63 characters; needed when enabled
    interface = "wlan0"

    [house_rules]           # RULES P-2, P-3, P-4 options of the dice pool
    rule_of_ten = true
    rule_of_one = true
    target_number = 6

    [combat]                # saved heroes and bestiary of the combat page: see device/combat/roster.py

    [[presets]]             # more presets (or replace a built-in by name)
    name = "3d6+1"
    system = "d6"           # d6 (count, kind D6|D3|D2, modifier, random) | pool | free
    count = 3
    modifier = 1

    [[presets]]
    name = "pool7-hard"
    system = "pool"         # size, difficulty, penalty, bonus, mismatch (same_group|other_group)
    size = 7
    difficulty = 2
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.combat import Roster, roster_from_config
from device.errors import DeviceError
from device.presets import Preset, PresetError, build_presets
from rules.cocked import DEFAULT as DEFAULT_COCKED
from rules.cocked import check_policy
from rules.pool import PoolOptions
from vision.colors import PALETTE

#: BCM numbers of the Pi's header GPIO pins.
BCM_PINS = range(2, 28)
CAMERA_SOURCES = "sim, file:PATH, usb:N, picamera2"


class ConfigError(DeviceError, ValueError):
    """A config file that cannot be used; the message names the key and the allowed values."""


#: Data folders of the cameras that are not the table's: the simulated camera's rolls and
#: those of replayed photos are kept apart from the history of a real camera's table.
DEMO_DATA_FOLDERS = {"sim": "dicelens-sim", "file": "dicelens-replay"}


def default_data_folder(camera_source: str) -> Path:
    """The data folder when none is given, in ``$XDG_DATA_HOME`` (else ``~/.local/share``):
    ``dicelens`` for a real camera (``picamera2``, ``usb:N``), ``dicelens-sim`` for the
    simulated camera, ``dicelens-replay/<name>`` for replayed photos (``file:PATH``; the name
    of PATH's folder, photo or video: a replay of one folder keeps its rolls apart from
    another's)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    kind, _, path = camera_source.partition(":")
    if kind == "file":
        return base / DEMO_DATA_FOLDERS[kind] / (Path(path).expanduser().resolve().name or "root")
    return base / DEMO_DATA_FOLDERS.get(kind, "dicelens")


@dataclass(frozen=True)
class CameraConfig:
    source: str = "sim"
    width: int = 1280
    height: int = 960
    auto_throw: float = 0.0


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8000


@dataclass(frozen=True)
class ButtonsConfig:
    presets: dict[str, int] = field(default_factory=lambda: {"2d6": 17, "1d6": 27, "free": 22})
    read_now: int | None = 23
    led: int | None = 24
    bounce_time: float = 0.05


@dataclass(frozen=True)
class HotspotConfig:
    enabled: bool = False
    ssid: str = "dicelens"
    password: str = ""
    interface: str = "wlan0"


@dataclass(frozen=True)
class Config:
    """Everything ``dicelens serve`` is configured with (see the module docstring)."""

    data_folder: Path | None = None  # None: default_data_folder(the camera), once the camera is known
    pin: str | None = None
    pin_from_page: bool = False
    principal_color: str | None = "red"
    settle_seconds: float = 0.4
    chain_limit: int = 100
    resume_minutes: float = 30
    cocked_dice: str = DEFAULT_COCKED
    photo_cap_mb: float = 500
    camera: CameraConfig = field(default_factory=CameraConfig)
    web: WebConfig = field(default_factory=WebConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    hotspot: HotspotConfig = field(default_factory=HotspotConfig)
    house_rules: PoolOptions = field(default_factory=PoolOptions)
    presets: tuple[Preset, ...] = field(default_factory=lambda: tuple(build_presets()))
    combat: Roster = field(default_factory=Roster)  # [combat]: saved heroes, bestiary (device/combat/roster.py)


def check_camera_source(source: object, key: str = "camera.source") -> str:
    """``source`` when it names a camera, else :class:`ConfigError` listing the forms."""
    if isinstance(source, str):
        kind, _, rest = source.partition(":")
        if source in ("sim", "picamera2") or (kind == "file" and rest) or (
                kind == "usb" and rest.isascii() and rest.isdigit()):
            return source
    raise ConfigError(f"{key} must be one of {CAMERA_SOURCES} (got {source!r})")


def load_config(path: str | os.PathLike | None = None) -> Config:
    """Read and check a config file; ``None`` gives the defaults.

    :raises ConfigError: for a missing or unreadable file, bad TOML, an unknown
        key or a bad value; the message names the key and what is allowed.
    """
    if path is None:
        return Config()
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as exc:
        raise ConfigError(f"config {path}: cannot read it ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path}: not valid TOML ({exc})") from None
    try:
        return config_from_dict(data)
    except ConfigError as exc:
        raise ConfigError(f"config {path}: {exc}") from None


def config_from_dict(data: dict) -> Config:
    """Check a parsed TOML document and build the :class:`Config`.

    :raises ConfigError: naming the first bad key and the allowed values.
    """
    top = _Table(data, "")
    house = _Table(top.table("house_rules"), "house_rules.")
    options = PoolOptions(
        rule_of_ten=house.boolean("rule_of_ten", True),
        rule_of_one=house.boolean("rule_of_one", True),
        target_number=house.integer("target_number", 6, 2, 10),
    )
    house.done()
    presets_tables = top.get("presets", [])
    if not isinstance(presets_tables, list):
        raise ConfigError("presets must be an array of tables: [[presets]]")
    try:
        presets = tuple(build_presets(presets_tables, options))
    except PresetError as exc:
        raise ConfigError(str(exc)) from None
    names = [preset.name for preset in presets]

    camera_table = _Table(top.table("camera"), "camera.")
    camera = CameraConfig(
        source=check_camera_source(camera_table.get("source", "sim")),
        width=camera_table.integer("width", 1280, 64, 8192),
        height=camera_table.integer("height", 960, 64, 8192),
        auto_throw=camera_table.number("auto_throw", 0.0, 0.0, 3600.0),
    )
    if 0 < camera.auto_throw < 1:  # a throw must have time to settle before the next
        raise ConfigError(f"camera.auto_throw must be 0 (off) or 1 to 3600 seconds (got {camera.auto_throw:g})")
    camera_table.done()

    web_table = _Table(top.table("web"), "web.")
    host = web_table.get("host", "127.0.0.1")
    if not isinstance(host, str) or not host:
        raise ConfigError(f"web.host must be a host name or address such as 0.0.0.0 (got {host!r})")
    web = WebConfig(host=host, port=web_table.integer("port", 8000, 1, 65535))
    web_table.done()

    buttons = _buttons(_Table(top.table("buttons"), "buttons."), names)
    hotspot = _hotspot(_Table(top.table("hotspot"), "hotspot."))

    color = top.get("principal_color", "red")
    if color == "":
        color = None
    elif color not in PALETTE:
        raise ConfigError(f"principal_color must be one of {', '.join(PALETTE)} or \"\" "
                          f"(got {color!r})")
    pin = top.get("pin", "")
    if not isinstance(pin, str) or (pin and not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12)):
        raise ConfigError(f"pin must be a string of 4 to 12 digits 0-9, or \"\" for none (got {pin!r})")
    try:
        combat = roster_from_config(top.table("combat"))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    data_folder = top.get("data_folder", None)
    if data_folder is not None and (not isinstance(data_folder, str) or not data_folder):
        raise ConfigError(f"data_folder must be a folder path (got {data_folder!r})")
    try:
        cocked_dice = check_policy(top.get("cocked_dice", DEFAULT_COCKED))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    config = Config(
        data_folder=Path(data_folder).expanduser() if data_folder else None,
        pin=pin or None,
        pin_from_page=top.boolean("pin_from_page", False),
        principal_color=color,
        settle_seconds=top.number("settle_seconds", 0.4, 0.05, 10.0),
        chain_limit=top.integer("chain_limit", 100, 1, 10000),
        resume_minutes=top.number("resume_minutes", 30, 0, 7 * 24 * 60),
        cocked_dice=cocked_dice,
        photo_cap_mb=top.number("photo_cap_mb", 500, 0, 1_000_000),
        camera=camera, web=web, buttons=buttons, hotspot=hotspot, house_rules=options, presets=presets, combat=combat,
    )
    top.done()
    return config


def _hotspot(table: _Table) -> HotspotConfig:
    words = {}
    for key, default, low, high in (("ssid", "dicelens", 1, 32), ("password", "", 0, 63),
                                    ("interface", "wlan0", 1, 15)):
        value = table.get(key, default)
        if not isinstance(value, str) or not low <= len(value.encode()) <= high or not value.isprintable():
            raise ConfigError(f"hotspot.{key} must be a string of {low} to {high} bytes (got {value!r})")
        words[key] = value
    config = HotspotConfig(enabled=table.boolean("enabled", False), **words)
    if config.enabled and len(config.password) < 8:  # WPA2's shortest passphrase
        raise ConfigError("hotspot.password must have 8 to 63 characters when hotspot.enabled is true")
    table.done()
    return config


def _buttons(table: _Table, names: list[str]) -> ButtonsConfig:
    default = ButtonsConfig()
    bound = table.get("presets", default.presets)
    if not isinstance(bound, dict):
        raise ConfigError('buttons.presets must be a table of preset name = BCM pin, '
                          'e.g. { "2d6" = 17 }')
    pins: dict[int, str] = {}

    def take(key: str, pin: object) -> int:
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
            raise ConfigError(f"{key} must be a BCM pin number 2 to 27 (got {pin!r})")
        if pin in pins:
            raise ConfigError(f"{key}: pin {pin} is already used by {pins[pin]}")
        pins[pin] = key
        return pin

    presets = {}
    for name, pin in bound.items():
        if name not in names:
            raise ConfigError(f"buttons.presets: no preset named {name!r}; presets: {', '.join(names)}")
        presets[name] = take(f"buttons.presets.{name}", pin)
    optional = {}
    for key in ("read_now", "led"):
        value = table.get(key, getattr(default, key))
        optional[key] = None if value in (None, 0) else take(f"buttons.{key}", value)
    config = ButtonsConfig(presets=presets, bounce_time=table.number("bounce_time", 0.05, 0.0, 1.0),
                           **optional)
    table.done()
    return config


class _Table:
    """One TOML table being checked: typed getters, then :meth:`done` rejects leftovers."""

    def __init__(self, data: object, prefix: str):
        if not isinstance(data, dict):
            raise ConfigError(f"{prefix.rstrip('.')} must be a table")
        self.data, self.prefix = data, prefix
        self.used: set[str] = set()
        self.allowed = _ALLOWED[prefix]

    def get(self, key: str, default: object) -> object:
        self.used.add(key)
        return self.data.get(key, default)

    def table(self, key: str) -> Any:  # what the file has: _Table and roster_from_config check it
        return self.get(key, {})

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{self.prefix}{key} must be true or false (got {value!r})")
        return value

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        value = self.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{self.prefix}{key} must be a whole number {low} to {high} (got {value!r})")
        return value

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ConfigError(f"{self.prefix}{key} must be a number {low:g} to {high:g} (got {value!r})")
        return float(value)

    def done(self) -> None:
        for key in self.data:
            if key not in self.allowed:
                where = f"[{self.prefix.rstrip('.')}]" if self.prefix else "the top level"
                raise ConfigError(f"unknown key {self.prefix}{key!s} in {where}; "
                                  f"allowed: {', '.join(self.allowed)}")


_ALLOWED = {
    "": ("data_folder", "pin", "pin_from_page", "principal_color", "settle_seconds", "chain_limit",
         "resume_minutes", "cocked_dice", "photo_cap_mb", "camera", "web", "buttons", "hotspot", "house_rules",
         "presets", "combat"),
    "camera.": ("source", "width", "height", "auto_throw"),
    "web.": ("host", "port"),
    "buttons.": ("presets", "read_now", "led", "bounce_time"),
    "hotspot.": ("enabled", "ssid", "password", "interface"),
    "house_rules.": ("rule_of_ten", "rule_of_one", "target_number"),
}
