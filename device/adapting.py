"""The reader refitted to the table's examples in the background (issue 17).

A new or removed example asks for a fit (:meth:`Refitter.request`); one worker thread waits
until no request has come for ``quiet_seconds`` (ten corrections in a row fit once), fits
:func:`vision.adapt.fit` on every example of the data folder and saves it there
(:data:`vision.adapt.FILE`). No roll waits on it: the live reader reads with the adaptation
last fitted (:meth:`Refitter.adaptation_for`), and only when vision/adapt's own rule says it
reads the table's held-out examples better than the shipped reader (``used``). A fit that
fails logs why and changes nothing: the adaptation before it stays, in memory and on disk.
An adaptation written into the folder by another process (``dicelens teach --data`` while the
server runs) is read at the next look at :attr:`Refitter.adaptation`: each look stats the
file (no read while it is unchanged), so a throw never waits on more than one small JSON read.
An adaptation is tied to the networks it was fitted on (their fingerprint): after an update
that changed them (the int8 networks, a retrained detector), the start refits it from the kept
examples in the background, and until then the shipped reader reads as it did before teaching.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from device.examples import Examples
from vision import adapt

log = logging.getLogger(__name__)

QUIET_SECONDS = 10.0  # a fit waits for this long without a new example


class Refitter:
    """Fits the data folder's adaptation from its examples, one fit at a time, off the roll's threads.

    :param folder: the data folder (its ``adaptation.json`` is read at start and again whenever
        it changed, written after each fit; fitted again at start when the folder holds another
        number of examples than it was fitted on).
    :param examples: its examples (:meth:`device.examples.Examples.beside`).
    :param fit: ``(taught photos) -> Adaptation`` (default :func:`vision.adapt.fit`).
    :param networks: ``family -> fingerprint`` of the networks the reader of that family reads
        with now (default: the shipped ones'); an adaptation fitted on others is fitted again at start.
    """

    def __init__(self, folder: Path, examples: Examples, *, quiet_seconds: float = QUIET_SECONDS,
                 fit: Callable[[Sequence[adapt.TaughtPhoto]], adapt.Adaptation] = adapt.fit,
                 networks: Callable[[str], str] = lambda family: adapt.backend_for(family).fingerprint()) -> None:
        self.folder, self.examples, self.quiet_seconds, self._fit = Path(folder), examples, quiet_seconds, fit
        self._networks = networks
        self._changed = threading.Condition()
        self._asked = self._done = 0     # requests made, and the last one a finished fit covers
        self._now = False                # settle(): fit what is asked without the quiet wait
        self._closing = False
        self._thread: threading.Thread | None = None
        self._loading = threading.Lock()
        self._seen: tuple[int, int, int] | None = None  # the file's (inode, size, mtime) last read
        self._adaptation: adapt.Adaptation | None = None
        self._load_if_changed()
        if self._behind() or self._other_networks():  # a server stopped in its quiet wait; an update
            self.request()

    @property
    def adaptation(self) -> adapt.Adaptation | None:
        """The adaptation last fitted here, or saved into the folder since by another process
        (``dicelens teach``); None: none, or a file this version does not read (logged)."""
        self._load_if_changed()
        return self._adaptation

    @adaptation.setter
    def adaptation(self, adaptation: adapt.Adaptation | None) -> None:
        self._adaptation = adaptation

    def _behind(self) -> bool:
        """Whether the folder holds another number of examples than the adaptation was fitted on."""
        with self.examples.lock:
            count = self.examples.count()
        fitted = {} if self._adaptation is None else self._adaptation.examples
        return count != sum(n for values in fitted.values() for n in values.values())

    def _other_networks(self) -> bool:
        """Whether the adaptation was fitted on other networks than its family's reader has now."""
        fitted = self._adaptation
        return fitted is not None and fitted.fingerprint != self._networks(fitted.family)

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            stat = os.stat(self.folder / adapt.FILE)
        except OSError:
            return None
        return stat.st_ino, stat.st_size, stat.st_mtime_ns

    def _load_if_changed(self) -> None:
        stamp = self._stamp()
        if stamp == self._seen:
            return
        with self._loading:
            if stamp == self._seen:
                return
            try:
                self._adaptation = adapt.load(self.folder)
            except adapt.ExampleError as exc:  # an older or damaged file: the shipped reader reads
                log.warning("the table's adaptation is not used: %s", exc)
                self._adaptation = None
            self._seen = stamp

    def adaptation_for(self, family: str) -> adapt.Adaptation | None:
        """The adaptation the live reader of ``family`` (``"pips"``, ``"numbered"``) reads with,
        or None: there is none, it is of the other family, or it reads no better than the shipped reader."""
        adaptation = self.adaptation
        return adaptation if adaptation is not None and adaptation.used and adaptation.family == family else None

    def request(self) -> None:
        """Ask for a fit with the examples as they are now (returns at once)."""
        with self._changed:
            if self._closing:
                return
            self._asked += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="dicelens-refit", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def settle(self, timeout: float | None = None) -> bool:
        """Fit what was asked for now, without the quiet wait, and wait until it is fitted;
        False when ``timeout`` seconds passed first (for the tests and a stopping server)."""
        with self._changed:
            self._now = True
            self._changed.notify_all()
            done = self._changed.wait_for(lambda: self._done >= self._asked, timeout)
            self._now = False
            return done

    def close(self) -> None:
        """Stop the worker after the fit it is in, if any; idempotent."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closing or self._asked > self._done)
                seen = self._asked
                while not (self._closing or self._now):  # debounce: until quiet, or settle() asks now
                    self._changed.wait(self.quiet_seconds)
                    if self._asked == seen:
                        break
                    seen = self._asked
                if self._closing:
                    return
                seen = self._asked
            self._refit()
            with self._changed:
                self._done = seen
                self._changed.notify_all()

    def _refit(self) -> None:
        try:
            with self.examples.lock:
                photos = self.examples.taught_photos()
            adaptation = self._fit(photos)
            with self._loading:
                adaptation.save(self.folder)
                self._adaptation, self._seen = adaptation, self._stamp()
        except Exception:  # noqa: BLE001 - the reader keeps the adaptation it had
            log.exception("the table's adaptation could not be fitted: the one before is kept")
            return
        log.info("the table's adaptation fitted: %s", adaptation.summary())
