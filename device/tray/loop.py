"""The camera loop: watches the tray a few times a second and hands on settled frames.

One thread owns the camera: it pulls preview frames into a
:class:`~device.tray.settle.SettleDetector` and, when the dice have settled, takes
one full-resolution frame (after the settling, never one exposed while the
dice moved) for ``on_settled``. Exposure, white balance and focus are held
from before each throw until it is read (:meth:`Camera.lock_3a`): they are
measured once the tray has been still for ``lock_after`` seconds, so the
principal die's colour and the frame's sharpness do not drift while the dice
roll. A camera that fails or disappears is reported
through ``on_status`` and opened again with a growing pause, so reading
resumes by itself when it comes back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np

from device.cameras import Camera
from device.errors import CameraUnavailable, said
from device.tray.settle import SettleDetector
from rules.phrase import Phrase

log = logging.getLogger(__name__)

#: Camera statuses given to ``on_status``.
OK, NO_CAMERA, RECONNECTING = "ok", "no camera", "reconnecting"


class TrayLoop:
    """Runs the camera on its own thread; call :meth:`start`, then :meth:`close` (or use ``with``).

    :param open_camera: opens the camera; called at start and after every failure.
        It raises :class:`~device.errors.CameraUnavailable` (or any error) when it cannot.
    :param on_settled: called on the loop thread with one full-resolution frame
        (H×W×3 uint8 BGR) and its time in seconds (``clock``) after each settled
        throw and after each :meth:`read_now`.
    :param on_status: called on the loop thread with ``(status, message)`` when
        the camera's status changes: ``"ok"`` (message None), ``"no camera"``
        (never opened yet) or ``"reconnecting"`` (lost, being opened again); the
        message is one plain line.
    :param camera: an already open camera to start with (``open_camera`` is then
        only used after a failure).
    :param detector: the settle detector (default ``SettleDetector()``, 0.4 s).
    :param interval: seconds between preview frames.
    :param lock_after: seconds the tray must be still, after the camera opened or
        the last throw was read, before its exposure, white balance and focus are
        measured and locked (time for auto exposure to settle on the still tray).
    :param retry_seconds: first pause before opening a failed camera again; it
        doubles after each failure up to ``retry_max`` seconds.
    :param clock: monotonic seconds, for the frames' times.
    """

    def __init__(self, open_camera: Callable[[], Camera],
                 on_settled: Callable[[np.ndarray, float], None],
                 on_status: Callable[[str, str | None], None] | None = None, *,
                 camera: Camera | None = None, detector: SettleDetector | None = None,
                 interval: float = 0.2, lock_after: float = 1.0, retry_seconds: float = 1.0,
                 retry_max: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        if interval <= 0 or retry_seconds <= 0 or retry_max < retry_seconds or lock_after < 0:
            raise ValueError("interval and retry_seconds must be above 0, retry_max at least retry_seconds, "
                             "lock_after 0 or more")
        self._open_camera = open_camera
        self._on_settled = on_settled
        self._on_status = on_status
        self._camera = camera
        self._detector = detector or SettleDetector()
        self._interval = interval
        self._lock_after = lock_after
        self._locked = False  # the camera's 3A held (only the loop thread touches these two)
        self._calm_since: float | None = None  # since when the tray is still and the camera unlocked
        self._retry_seconds = retry_seconds
        self._retry_max = retry_max
        self._clock = clock
        self._lock = threading.Lock()  # guards _camera (swapped on failure) and _status
        self._status: tuple[str, str | None] = (OK, None) if camera else (NO_CAMERA, "the camera is starting")
        self._ever_opened = camera is not None
        self._retry_delay = retry_seconds
        self._read_requested = False
        self._last_frame_at: float | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- asked by other threads ----------------------------------------------
    @property
    def status(self) -> tuple[str, str | None]:
        """The camera's ``(status, message)``, as last given to ``on_status``."""
        with self._lock:
            return self._status

    @property
    def last_frame_at(self) -> float | None:
        """When the camera last gave a preview frame (``clock`` seconds), None before the first."""
        with self._lock:
            return self._last_frame_at

    @property
    def can_throw(self) -> bool:
        """True when the camera throws dice on request (file and simulated cameras)."""
        with self._lock:
            return self._camera is not None and self._camera.can_throw

    def can_throw_dice(self, sides: int) -> bool:
        """True when the camera throws dice of ``sides`` sides on request (the simulated one: d6 only)."""
        with self._lock:
            camera = self._camera
            return (camera is not None and camera.can_throw
                    and (camera.throw_sides is None or sides in camera.throw_sides))

    def throw(self, count: int | None = None) -> None:
        """Start the next throw of a file or simulated camera.

        :param count: dice to throw, for the simulated camera; None for its default.
        :raises ThrowUnsupported: for a real camera.
        :raises CameraUnavailable: while there is no camera.
        """
        self._working_camera().throw(count)
        self._wake.set()  # show the throw without waiting for the next turn

    def read_now(self) -> None:
        """Read the tray now, settled or not: the loop captures a frame at once for ``on_settled``.

        The throw under way then gives no second result when it settles.

        :raises CameraUnavailable: while there is no camera.
        """
        self._working_camera()
        with self._lock:
            self._read_requested = True
        self._wake.set()

    def _working_camera(self) -> Camera:
        with self._lock:
            if self._camera is None:
                raise CameraUnavailable(self._status[1] or "no camera")
            return self._camera

    # -- the thread ----------------------------------------------------------
    def start(self) -> TrayLoop:
        """Start the loop thread; returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tray-loop", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            delay = self.step()
            self._wake.wait(delay)

    def step(self) -> float:
        """One turn of the loop (the thread calls it; tests may too).

        :returns: seconds to wait before the next turn.
        """
        camera = self._camera
        if camera is None:
            try:
                camera = self._open_camera()
            except Exception as exc:  # CameraUnavailable, or a source that breaks another way
                return self._failed(said(exc))
            with self._lock:
                if self._stop.is_set():  # closed while opening: do not keep it
                    _close_quietly(camera)
                    return 0.0
                self._camera = camera
            self._ever_opened = True
            self._retry_delay = self._retry_seconds
            self._detector.reset()  # frames of another camera are not comparable
            self._locked, self._calm_since = False, None  # a camera opened anew runs on auto
            self._set_status(OK, None)
        try:
            with self._lock:
                read, self._read_requested = self._read_requested, False
            if read:
                self._detector.mark_read()
                self._hand_on(camera.capture())
                self._unlock(camera)
            preview, t = camera.capture_preview(), self._clock()
            with self._lock:
                self._last_frame_at = t  # for /healthz: a camera that hangs shows as an old frame
            if self._detector.update(preview, t):
                self._hand_on(camera.capture())  # taken now, after the settling
                self._unlock(camera)
            elif self._detector.moving:
                self._calm_since = None
            elif not self._locked:
                if self._calm_since is None:
                    self._calm_since = t
                if t - self._calm_since >= self._lock_after - 1e-9:  # frame times add up in floats
                    camera.lock_3a()
                    self._locked = True
        except Exception as exc:  # the camera failed: close it, open it again later
            with self._lock:
                self._camera = None
                self._read_requested = False
            _close_quietly(camera)
            return self._failed(said(exc))
        return self._interval

    def _unlock(self, camera: Camera) -> None:
        """The throw is read: auto exposure follows the scene again until the tray is still anew."""
        if self._locked:
            camera.unlock_3a()
            self._locked = False
        self._calm_since = None

    def _hand_on(self, frame: np.ndarray) -> None:
        t = self._clock()
        try:
            self._on_settled(frame, t)
        except Exception:  # a bug downstream must not stop the camera
            log.exception("on_settled failed")

    def _failed(self, message: str) -> float:
        message = message or Phrase("the camera failed")
        self._set_status(RECONNECTING if self._ever_opened else NO_CAMERA, message)
        delay, self._retry_delay = self._retry_delay, min(self._retry_delay * 2, self._retry_max)
        return delay

    def _set_status(self, status: str, message: str | None) -> None:
        with self._lock:
            if self._status == (status, message):
                return
            self._status = (status, message)
        if status == OK:
            log.info("camera ok")
        else:
            log.warning("camera: %s (%s)", message, status)
        if self._on_status is not None:
            try:
                self._on_status(status, message)
            except Exception:
                log.exception("on_status failed")

    def close(self) -> None:
        """Stop the thread (waits for it) and close the camera; calling it again does nothing."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
            if self._thread.is_alive():
                log.warning("the camera loop did not stop within 10 s")
        with self._lock:
            camera, self._camera = self._camera, None
        if camera is not None:
            _close_quietly(camera)

    def __enter__(self) -> TrayLoop:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _close_quietly(camera: Camera) -> None:
    try:
        camera.close()
    except Exception as exc:  # a camera that is gone may fail to close; nothing more to free
        log.warning("closing the camera: %s", exc)
