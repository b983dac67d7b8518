"""systemd notifications of ``dicelens serve``: ready, status, and a watchdog fed by the camera loop.

Under systemd with ``Type=notify`` (systemd/dicelens.service) the environment
names the notification socket (``NOTIFY_SOCKET``) and, with ``WatchdogSec=``,
the watchdog period (``WATCHDOG_USEC``, microseconds). The messages go through
the ``sdnotify`` library. Outside systemd (a desktop, the tests) every call
does nothing.

Usage::

    watchdog = Watchdog()
    ...                      # bind the web server
    watchdog.ready()         # READY=1: systemd counts the service as started
    # in the camera loop, once per turn, and only there:
    watchdog.alive()         # WATCHDOG=1, at most once per half period
    ...
    watchdog.close()         # STOPPING=1 and the socket closed

A camera loop that hangs stops calling :meth:`alive`; systemd then kills the
service after ``WatchdogSec`` and restarts it (``Restart=on-failure``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
import warnings
from collections.abc import Callable

import sdnotify

log = logging.getLogger(__name__)


class Watchdog:
    """The service's line to systemd; thread-safe, and a no-op without ``NOTIFY_SOCKET``.

    :param clock: monotonic seconds, for spacing the watchdog pings.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._last_ping: float | None = None
        self._failed = False
        self._notifier: sdnotify.SystemdNotifier | None = None
        self.interval = _ping_interval()
        if os.environ.get("NOTIFY_SOCKET"):
            try:
                with warnings.catch_warnings():
                    # On a failed connect sdnotify drops its socket unclosed.
                    warnings.simplefilter("ignore", ResourceWarning)
                    self._notifier = sdnotify.SystemdNotifier(debug=True)
            except OSError as exc:
                log.warning("systemd notification socket %s: %s; no READY or watchdog pings",
                            os.environ["NOTIFY_SOCKET"], exc.strerror or exc)

    @property
    def enabled(self) -> bool:
        """True when messages reach systemd (run by systemd with ``Type=notify``)."""
        return self._notifier is not None

    def ready(self, status: str | None = None) -> None:
        """Tell systemd that the service is up (``READY=1``); call once the web server listens.

        :param status: one line for ``systemctl status``, e.g. "serving on port 8000".
        """
        self._send("READY=1" + (f"\nSTATUS={_one_line(status)}" if status else ""))

    def status(self, text: str) -> None:
        """Show one line in ``systemctl status dicelens`` (``STATUS=``), e.g. "camera unavailable: …"."""
        self._send(f"STATUS={_one_line(text)}")

    def alive(self) -> None:
        """Feed the watchdog (``WATCHDOG=1``); the camera loop calls it on every turn.

        Pings at most once per :attr:`interval` (half of ``WatchdogSec``), so calling
        it on every turn costs nothing; does nothing when systemd set no watchdog.
        """
        if self.interval is None or self._notifier is None:
            return
        now = self._clock()
        with self._lock:
            if self._last_ping is not None and now - self._last_ping < self.interval:
                return
            self._last_ping = now
        self._send("WATCHDOG=1")

    def close(self) -> None:
        """Tell systemd the service is stopping (``STOPPING=1``) and close the socket; idempotent."""
        with self._lock:
            notifier, self._notifier = self._notifier, None
        if notifier is not None:
            try:
                notifier.notify("STOPPING=1")
            except OSError:
                pass  # systemd is going away too: nothing to tell
            notifier.socket.close()

    def _send(self, message: str) -> None:
        notifier = self._notifier
        if notifier is None:
            return
        try:
            notifier.notify(message)
        except OSError as exc:
            # Logged once: the loop calls alive() several times a second.
            if not self._failed:
                self._failed = True
                log.warning("cannot notify systemd (%s): %s", message.split("=")[0], exc)
        else:
            self._failed = False


def _ping_interval() -> float | None:
    """Half the watchdog period in seconds, from ``WATCHDOG_USEC``; None when there is no watchdog.

    As sd_watchdog_enabled(3): ignored when ``WATCHDOG_PID`` names another process.
    """
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    if not (usec.isascii() and usec.isdigit()) or int(usec) == 0:
        if usec:
            log.warning("WATCHDOG_USEC=%r is not a number of microseconds; no watchdog pings", usec)
        return None
    return int(usec) / 1e6 / 2


def _one_line(text: str) -> str:
    return " ".join(text.split())
