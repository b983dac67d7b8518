"""The roll's side of the camera loop: its hooks, its status, reading the tray now."""

from __future__ import annotations

from collections.abc import Callable

from device.errors import CameraUnavailable
from device.roll.core import RollCore
from rules.phrase import Phrase


def camera_status(status: str, message: str | None) -> dict:
    """``{"status", "message": English (the CLI's, the logs'), "reason": Phrase.to_dict() of
    it | None}``: a page words the reason in its language (``web/messages.py`` camera_text)."""
    return {"status": status, "message": message,
            "reason": message.to_dict() if isinstance(message, Phrase) else None}


class CameraSide(RollCore):
    """What the camera loop (``device.tray.loop.TrayLoop``) tells the controller and does for it."""

    def attach_camera(self, *, throw: Callable[[int | None], None] | None = None,
                      read_now: Callable[[], None] | None = None,
                      can_throw: bool | Callable[[], bool] = False,
                      can_throw_dice: Callable[[int], bool] | None = None,
                      last_frame_at: Callable[[], float | None] | None = None) -> None:
        """Give the controller the camera loop's hooks (``device.tray.loop.TrayLoop``).

        :param throw: ``throw(count)`` starts a throw of ``count`` dice (None: the
            camera's default) on a sim/file camera.
        :param read_now: reads the tray at once (the frame comes to the tray dispatcher).
        :param can_throw: whether the camera throws by itself now (a bool or a callable).
        :param can_throw_dice: ``can_throw_dice(sides)``, whether it throws dice of that many
            sides (the simulated camera: d6 only); None: any dice it throws.
        :param last_frame_at: when the camera last gave a frame, seconds on the
            controller's clock (None before the first), for :meth:`health`.
        """
        with self._lock:
            self._throw_fn, self._read_now_fn = throw, read_now
            self._can_throw = can_throw if callable(can_throw) else (lambda: bool(can_throw))
            self._can_throw_dice = can_throw_dice or (lambda sides: True)
            self._last_frame_at = last_frame_at or (lambda: None)
            self._publish_state()

    def on_status(self, status: str, message: str | None = None) -> None:
        """The camera loop's report: ``"ok"``, ``"no camera"`` or ``"reconnecting"``, and why
        (a :class:`Phrase` where a player may meet it)."""
        with self._lock:
            camera = {**self._camera, **camera_status(status, message)}
            if camera == self._camera:
                return
            self._camera = camera
            self._hub.publish("camera", self._camera_dict(self._preset))
            self._publish_state()


    def read_now(self) -> None:
        """Read the tray now, without waiting for it to settle.

        :raises CameraUnavailable: when no camera is attached.
        """
        with self._lock:
            read_now = self._read_now_fn
            if read_now is None:
                raise CameraUnavailable(Phrase("no camera to read from"))
            self._read_requested = True
        read_now()
