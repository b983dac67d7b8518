"""The ``DICE_*`` environment variables of the web app: what each may hold, checked at start-up.

:func:`web.create_app` loads every ``DICE_NAME`` variable into the Flask config as
``NAME`` (Flask's ``from_prefixed_env``: the text read as JSON, else kept as text).
A bad value would otherwise surface later as a 500 (``/healthz``, ``/join.svg``) or be
ignored without a word (``ALLOWED_HOSTS``), so ``dicelens serve`` calls
:func:`check_environment` before anything starts: one line naming the variable and
what it allows, exit status 2, as for a bad config key.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit

PREFIX = "DICE_"
#: Characters of ``JOIN_URL``: its QR code must stay one a phone reads at arm's length.
JOIN_URL_MAX = 300
_LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)\Z")


class EnvironmentSettingError(ValueError):
    """A ``DICE_*`` variable with a value it cannot hold; the message names it and what is allowed."""


def host_names(value: object) -> list[str]:
    """The host names of ``ALLOWED_HOSTS``: a JSON list of names, or names separated by commas.

    :returns: lower-case names (no trailing dot), IPv6 addresses without brackets.
    :raises ValueError: for anything that is not such a list, or an item that is no host name.
    """
    if isinstance(value, str):
        items = [item.strip() for item in value.split(",") if item.strip()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        if wrong := [item for item in value if not isinstance(item, str)]:
            raise ValueError(f"{wrong[0]!r} is not a host name or address")
        items = [item.strip() for item in value]
    else:
        raise ValueError(f"{value!r} is not a list of names")
    names = []
    for item in items:
        name = (item[1:-1] if item.startswith("[") and item.endswith("]") else item).rstrip(".").lower()
        if not _is_host_name(name):
            raise ValueError(f"{item!r} is not a host name or address")
        names.append(name)
    return names


def _is_host_name(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return 0 < len(name) <= 253 and all(_LABEL.match(label) for label in name.split("."))


def _number(low: float, high: float, *, integer: bool = False, unit: str = "") -> Callable[[object], str | None]:
    kind = "a whole number" if integer else "a number"
    allowed = f"{kind}{unit} from {_plain(low)} to {_plain(high)}"

    def check(value: object) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
            return allowed
        if not low <= value <= high:
            return allowed
        return None

    return check


def _plain(number: float) -> str:
    """A bound as a person writes it: 67108864 and 0.1, not 6.71089e+07."""
    return str(number) if isinstance(number, int) else f"{number:g}"


def _boolean(value: object) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def _same_site(value: object) -> str | None:
    return None if value in ("Lax", "Strict", "None") else "Lax, Strict or None"


def _join_url(value: object) -> str | None:
    allowed = f"an http:// or https:// address of at most {JOIN_URL_MAX} characters, e.g. http://dice.home:8000/"
    if not isinstance(value, str) or len(value) > JOIN_URL_MAX:
        return allowed
    try:
        parts = urlsplit(value)
        host = parts.hostname
        parts.port  # noqa: B018 -- raises ValueError for a port out of range
    except ValueError:
        return allowed
    if parts.scheme not in ("http", "https") or not host or not _is_host_name(host):
        return allowed
    return None


def _allowed_hosts(value: object) -> str | None:
    try:
        host_names(value)
    except ValueError as exc:
        return f'a JSON list of host names (["dice.home"]) or names separated by commas ({exc})'
    return None


#: Every ``DICE_*`` setting the app reads (without the prefix), and its check: None when
#: the value is allowed, else what is.
SETTINGS: dict[str, Callable[[object], str | None]] = {
    "HEARTBEAT_SECONDS": _number(1, 3600, unit=" of seconds"),
    "SSE_RETRY_MS": _number(0, 600_000, integer=True, unit=" of milliseconds"),
    "MAX_STREAMS": _number(1, 1000, integer=True),
    "STREAM_SECONDS": _number(1, 86_400, unit=" of seconds"),
    "PIN_ATTEMPTS": _number(1, 1000, integer=True),
    "PIN_LOCKOUT_SECONDS": _number(1, 86_400, unit=" of seconds"),
    "MAX_CONTENT_LENGTH": _number(1024, 64 * 2**20, integer=True, unit=" of bytes"),
    "MAX_CONNECTIONS_PER_ADDRESS": _number(2, 1000, integer=True),
    "REQUEST_SECONDS": _number(1, 600, unit=" of seconds"),
    "HEALTH_FRAME_SECONDS": _number(0.1, 3600, unit=" of seconds"),
    "HEALTH_MIN_FREE_MB": _number(0, 1_000_000, unit=" of megabytes"),
    "JOIN_URL": _join_url,
    "ALLOWED_HOSTS": _allowed_hosts,
    "SESSION_COOKIE_SECURE": _boolean,
    "SESSION_COOKIE_HTTPONLY": _boolean,
    "SESSION_COOKIE_SAMESITE": _same_site,
    "PERMANENT_SESSION_LIFETIME": _number(60, 365 * 86_400, integer=True, unit=" of seconds"),
}


def check_environment(environ: Mapping[str, str] | None = None) -> None:
    """Check every ``DICE_*`` variable as :func:`web.create_app` will read it.

    :param environ: the environment (default ``os.environ``).
    :raises EnvironmentSettingError: (a ``ValueError``) for an unknown ``DICE_*`` name or a
        value its setting does not allow, naming the variable and what is allowed.
    """
    environ = os.environ if environ is None else environ
    for variable in sorted(environ):
        if not variable.startswith(PREFIX):
            continue
        key, text = variable[len(PREFIX):], environ[variable]
        check = SETTINGS.get(key)
        if check is None:
            known = ", ".join(PREFIX + name for name in SETTINGS)
            raise EnvironmentSettingError(f"{variable} is not a dicelens setting; the settings are: {known}")
        try:
            value = json.loads(text)  # as Flask's from_prefixed_env reads it
        except ValueError:
            value = text
        allowed = check(value)
        if allowed is not None:
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise EnvironmentSettingError(f"{variable} must be {allowed} (got {shown!r})")
