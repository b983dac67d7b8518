"""The PIN that guards control actions, and the same-origin check against cross-site requests.

A shared Wi-Fi is not a trusted network (issue 6, item 9):

* When a PIN is set, control actions (arm, throw, read, corrections, principal die,
  dice by hand, settings, clearing history) need it: either the header
  ``X-Dicelens-Pin: <pin>`` on the request, or the session cookie that
  ``POST /api/login {"pin"}`` sets. Changing or clearing the PIN ends every session.
  The header is read only on control actions (never on GET/HEAD), and logging out
  ends the session on the server too.
* Every state-changing request (any method but GET/HEAD/OPTIONS) must come from the
  page's own origin: ``Sec-Fetch-Site``, ``Origin`` and ``Referer`` are checked
  against ``Host`` when the client sends them (browsers always do on cross-site
  requests; scripts such as curl send none and pass). A cross-site request gets
  403 ``{"error": ...}``.
* Its ``Host`` must also be a name the server knows (DNS rebinding: a site whose
  name resolves to this machine would otherwise be "same-origin" with itself):
  ``localhost`` and loopback addresses, ``SERVE_HOST`` (the address served on),
  the host of ``JOIN_URL`` (the address the join QR code gives), this machine's own
  addresses, its host name and ``<hostname>.local``, and the names in ``ALLOWED_HOSTS``
  (``DICE_ALLOWED_HOSTS='["dice.home"]'`` or a comma-separated list; a value that is
  neither stops ``dicelens serve`` at start-up, see :mod:`web.environment`). Any other Host gets 403 ``{"error": ...}``.

The PIN is stored in the controller's settings (``settings()["pin"]``) as the
werkzeug hash :func:`hash_pin` makes, never in clear; ``None`` means no PIN.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import secrets
import socket
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from flask import current_app, request, session
from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

from .environment import host_names
from .errors import Forbidden, TooManyAttempts, Unauthorized

PIN_HEADER = "X-Dicelens-Pin"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A PIN is typed on a phone keypad: digits only, short enough to remember.
PIN_MIN_DIGITS, PIN_MAX_DIGITS = 4, 12
# Checking a PIN costs one hash; a few thousand rounds keeps a tap instant on a Pi
# while a 4-digit PIN is protected by the attempt limit, not by the hash cost.
_PIN_METHOD = "pbkdf2:sha256:20000"


def hash_pin(pin: str) -> str:
    """The stored form of a PIN (werkzeug ``pbkdf2`` hash with a random salt)."""
    return generate_password_hash(pin, method=_PIN_METHOD)


def valid_pin_format(pin: object) -> bool:
    """True for a string of 4 to 12 ASCII digits."""
    return (
        isinstance(pin, str)
        and pin.isascii()
        and pin.isdigit()
        and PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS
    )


def stored_pin() -> str | None:
    """The PIN hash from the controller's settings, or None when no PIN is set."""
    return current_app.extensions["dicelens.controller"].settings().get("pin") or None


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the PIN whose hash is ``stored``."""
    if not isinstance(pin, str) or len(pin) > PIN_MAX_DIGITS:
        return False
    return check_password_hash(stored, pin)


def _fingerprint(stored: str) -> str:
    # What a session remembers: it stops matching as soon as the PIN changes.
    key = current_app.secret_key
    if not key:  # create_app always sets one
        raise RuntimeError("the app has no SECRET_KEY")
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, stored.encode(), hashlib.sha256).hexdigest()[:32]


def log_in(stored: str) -> None:
    """Mark this phone's session as holding the PIN whose hash is ``stored``."""
    session["pin"] = _fingerprint(stored)
    session["login"] = logins().add(current_app.permanent_session_lifetime.total_seconds())
    session.permanent = True


def log_out() -> None:
    """End this phone's session: its login is forgotten by the server too, so a copy of
    the cookie taken before the logout arms nothing."""
    logins().discard(session.pop("login", None))
    session.pop("pin", None)


class Logins:
    """The sessions logged in with the PIN, by a random token the session cookie holds.

    The cookie alone is not enough: a signed cookie stays valid until it expires, so
    logging out must end it on the server. Kept in memory: phones log in again after a
    restart. At most ``limit`` are kept (the oldest is dropped first).
    """

    def __init__(self, limit: int = 1000, clock: Callable[[], float] = time.monotonic):
        self.limit, self._clock = limit, clock
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, lifetime: float) -> str:
        """A new login lasting ``lifetime`` seconds; returns its token."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            if len(self._expiry) >= self.limit:
                del self._expiry[min(self._expiry, key=self._expiry.__getitem__)]
            self._expiry[token] = self._clock() + lifetime
        return token

    def valid(self, token: object) -> bool:
        """Whether ``token`` is a login not ended nor expired."""
        with self._lock:
            return isinstance(token, str) and self._expiry.get(token, 0.0) > self._clock()

    def discard(self, token: object) -> None:
        """End the login ``token`` (unknown tokens are ignored)."""
        if isinstance(token, str):
            with self._lock:
                self._expiry.pop(token, None)


def logins() -> Logins:
    """The app's logged-in sessions."""
    return current_app.extensions["dicelens.logins"]


def is_authorized() -> bool:
    """Whether the current request may run control actions (no PIN set, or PIN given)."""
    stored = stored_pin()
    if stored is None:
        return True
    if hmac.compare_digest(session.get("pin", ""), _fingerprint(stored)) and logins().valid(session.get("login")):
        return True
    given = request.headers.get(PIN_HEADER)
    if given is None or request.method in SAFE_METHODS:
        # A page load or a read never checks a PIN: a wrong header there would use up the
        # address's attempts and lock it out of the page itself.
        return False
    return attempts().check_pin(request.remote_addr, given, stored)


def requires_pin(view: Callable) -> Callable:
    """Decorate a control action: 401 ``{"error"}`` when a PIN is set and not given."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        if not is_authorized():
            raise Unauthorized(_("this action needs the PIN"))
        return view(*args, **kwargs)

    return guarded


class PinAttempts:
    """Counts PIN attempts per client address; too many within a window lock it out.

    An attempt is counted *before* its PIN is checked, under one lock, so however many
    guesses arrive at once from one address, at most ``limit`` are ever checked within
    ``window`` seconds (a check counted after the hash let 30 parallel guesses through).
    A right PIN gives its attempt back.

    :param limit: PINs checked per address within ``window`` seconds.
    :param window: seconds an attempt counts for (the lock-out's length).
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit, self.window, self._clock = limit, window, clock
        self._attempts: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, address: str) -> list[float]:
        now = self._clock()
        recent = [t for t in self._attempts.get(address, ()) if now - t < self.window]
        if recent:
            self._attempts[address] = recent
        else:
            self._attempts.pop(address, None)
        return recent

    def begin(self, address: str | None) -> float:
        """Count one attempt from ``address`` before its PIN is checked.

        :returns: the attempt's ticket, for :meth:`succeeded`.
        :raises TooManyAttempts: when ``address`` has used its attempts (429).
        """
        with self._lock:
            recent = self._recent(address or "")
            if len(recent) >= self.limit:
                raise TooManyAttempts(_("too many wrong PINs; wait a minute and try again"))
            ticket = self._clock()
            self._attempts[address or ""] = [*recent, ticket]
            return ticket

    def succeeded(self, address: str | None, ticket: float) -> None:
        """The attempt ``ticket`` gave the right PIN: it no longer counts."""
        with self._lock:
            recent = self._attempts.get(address or "", [])
            if ticket in recent:
                recent.remove(ticket)

    def check_pin(self, address: str | None, pin: str, stored: str) -> bool:
        """Count an attempt, then check ``pin`` against ``stored``.

        :raises TooManyAttempts: when ``address`` has used its attempts.
        """
        ticket = self.begin(address)
        if pin_matches(pin, stored):
            self.succeeded(address, ticket)
            return True
        return False


def attempts() -> PinAttempts:
    """The app's wrong-PIN counter."""
    return current_app.extensions["dicelens.pin_attempts"]


_WILDCARDS = ("", "0.0.0.0", "::")


def _host_name(host: str) -> str | None:
    try:
        name = urlsplit("//" + host).hostname
    except ValueError:
        return None
    return name.rstrip(".").lower() if name else None


def _loopback(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _configured_hosts() -> set[str]:
    config = current_app.config
    names = set(host_names(config.get("ALLOWED_HOSTS") or ()))  # checked at start-up (web.environment)
    serve_host = str(config.get("SERVE_HOST") or "").strip("[]").lower()
    if serve_host not in _WILDCARDS:
        names.add(serve_host)
    join_host = _host_name(urlsplit(str(config.get("JOIN_URL") or "")).netloc)
    if join_host:  # the address the join QR code gives the phones
        names.add(join_host)
    return names


def machine_hosts() -> set[str]:
    """This machine's names and addresses: host name, ``<hostname>.local``, its fully
    qualified name, the addresses they resolve to and the one its default route leaves from."""
    from .join import lan_address  # join builds the page's address the same way

    hostname = socket.gethostname().lower()
    names = {hostname, hostname.split(".")[0] + ".local"}
    try:
        for *_, address in socket.getaddrinfo(hostname, None):
            names.add(str(address[0]).split("%")[0].lower())
    except OSError:  # no resolver for our own name: the other names still count
        pass
    lan = lan_address()
    if lan:
        names.add(lan)
    names |= _interface_addresses()
    return {name for name in names if name}


def _interface_addresses() -> set[str]:
    """The IPv4 and IPv6 addresses of every network interface (Linux; empty elsewhere):
    a Pi on Wi-Fi and Ethernet at once is reached on both."""
    found: set[str] = set()
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                request = struct.pack("256s", name.encode()[:15])
                try:  # SIOCGIFADDR: the interface's IPv4 address
                    answer = fcntl.ioctl(probe.fileno(), 0x8915, request)
                except OSError:  # no IPv4 address on it
                    continue
                found.add(socket.inet_ntoa(answer[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    try:
        with open("/proc/net/if_inet6") as table:
            for line in table:
                found.add(str(ipaddress.IPv6Address(bytes.fromhex(line.split()[0]))))
    except (OSError, ValueError, IndexError):
        pass
    return found


def known_host(host: str) -> bool:
    """Whether ``host`` (a Host header, port included or not) names this server."""
    name = _host_name(host)
    if not name:
        return False
    if _loopback(name) or name in _configured_hosts():
        return True
    cached = current_app.extensions.setdefault("dicelens.machine_hosts", set())
    if name in cached:
        return True
    cached |= machine_hosts()  # looked up again on a miss: a DHCP lease may have changed
    return name in cached


def _same_host(url: str) -> bool:
    try:
        return urlsplit(url).netloc.lower() == request.host.lower()
    except ValueError:
        return False


def check_same_origin() -> None:
    """Reject a state-changing request another site made, or one for a Host this server
    is not (``before_request`` hook).

    :raises Forbidden: for a cross-site request or an unknown Host (403).
    """
    if request.method in SAFE_METHODS:
        return
    if not known_host(request.host):
        raise Forbidden(_("request for an unknown host name refused"))
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise Forbidden(_("cross-site request refused"))
    origin = request.headers.get("Origin")
    if origin is not None:
        if not _same_host(origin):
            raise Forbidden(_("cross-site request refused"))
        return
    referer = request.headers.get("Referer")
    if referer is not None and not _same_host(referer):
        raise Forbidden(_("cross-site request refused"))
