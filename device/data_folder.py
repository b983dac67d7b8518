"""The data folder ``dicelens serve`` keeps its history in: one server at a time, and each
replay its own.

A server holds ``serve.lock`` in its data folder (an ``fcntl`` lock the system drops when
the process ends, however it ends): a second server on the same folder stops at start with
one line naming the first's pid, rather than mixing its rolls, numbers and waiting roll into
the first's. ``dicelens teach``, ``read`` and ``export-examples`` take no lock (a server
reads what ``teach`` wrote at its next throw).

Before 2026-12-02 every replay (``--camera file:PATH``) kept its rolls in
``$XDG_DATA_HOME/dicelens-replay`` itself; now each keeps them in
``dicelens-replay/<the name of PATH>``. The first replay started since takes that shared
history over (:func:`adopt_shared_replay`: the folder moved whole, nothing copied or lost).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from collections.abc import Iterator
from pathlib import Path

from device.errors import DeviceError
from device.history import DATABASE

log = logging.getLogger(__name__)

LOCK = "serve.lock"


class StartupError(DeviceError, ValueError):
    """The data folder or the history database cannot be used; the message names the
    file and the cause in one line. ``serve`` exits with status 2 (systemd does not retry)."""


@contextlib.contextmanager
def held(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s :data:`LOCK` while the server runs (its pid written in it).

    A folder that cannot be made or written takes no lock: opening its history says why.

    :raises StartupError: another server holds it.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / LOCK, "a+")  # noqa: SIM115 - held open for the server's life
    except OSError:
        yield
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.seek(0)
            pid = lock.read().strip() or "unknown"
            raise StartupError(f"data folder {folder} is in use by another dicelens serve (pid {pid}, "
                               f"{folder / LOCK}): stop it, or give this one another --data") from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        yield


def adopt_shared_replay(folder: Path) -> None:
    """Move the history all replays shared (``folder``'s parent, ``dicelens-replay``, when it
    holds a history database) to ``folder``, this replay's own, saying so in one log line.

    :raises StartupError: it could not be moved (it is left as it was), or a server runs on it.
    """
    shared = folder.parent
    if not (shared / DATABASE).is_file():
        return
    moving = shared.with_name(shared.name + ".moving")
    if (shared / LOCK).exists():  # a server given it as --data may be writing there
        with held(shared):
            pass
    try:
        shared.rename(moving)
        try:
            shared.mkdir()
            moving.rename(folder)
        except OSError:  # back as it was
            with contextlib.suppress(OSError):
                shared.rmdir()
            with contextlib.suppress(OSError):
                moving.rename(shared)
            raise
    except OSError as exc:
        raise StartupError(f"the history the replays shared, {shared / DATABASE}, could not be moved to "
                           f"{folder}: {exc.strerror or exc}") from None
    log.warning("dicelens: the history every replay shared is now this one's, in %s; each other replay "
                "keeps its rolls in %s/<its folder's name>", folder, shared)
