"""The camera interface every source implements."""

from __future__ import annotations

import cv2
import numpy as np

from device.errors import ThrowUnsupported

# Preview frames are this wide: plenty for motion, cheap to compare a few times a second.
PREVIEW_WIDTH = 320


def shrink(frame: np.ndarray, width: int = PREVIEW_WIDTH) -> np.ndarray:
    """A copy of ``frame`` scaled down to ``width`` pixels wide (never up), same channels."""
    height, frame_width = frame.shape[:2]
    if frame_width <= width:
        return frame.copy()
    size = (width, max(1, round(height * width / frame_width)))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


class Camera:
    """A source of tray images: the Pi camera, a USB webcam, replayed files or the simulator.

    Use it with ``with`` or call :meth:`close`. Failures raise
    :class:`device.errors.CameraUnavailable` with a one-line message.
    """

    #: True when :meth:`throw` starts a throw (file and simulated cameras).
    can_throw: bool = False
    #: The sides of the dice :meth:`throw` can show; None for any (a file camera shows its photos).
    throw_sides: frozenset[int] | None = None

    def capture(self) -> np.ndarray:
        """One full-resolution frame taken now: H×W×3 uint8 BGR.

        :raises CameraUnavailable: if the camera gives no frame.
        """
        raise NotImplementedError

    def capture_preview(self) -> np.ndarray:
        """One small frame for motion detection: h×w×3 uint8 BGR, about 320 px wide.

        :raises CameraUnavailable: if the camera gives no frame.
        """
        return shrink(self.capture())

    def lock_3a(self) -> None:
        """Measure exposure, white balance and focus (the camera's "3A") now and hold them.

        The tray loop calls it while the tray is still, before a throw, and
        :meth:`unlock_3a` once the throw is read: the principal die's colour and
        the frame's sharpness stay as measured while the dice roll. Cameras
        without such controls (files, the simulator) do nothing.

        :raises CameraUnavailable: if the camera fails meanwhile.
        """

    def unlock_3a(self) -> None:
        """Let exposure, white balance and focus follow the scene again (the throw was read).

        :raises CameraUnavailable: if the camera fails meanwhile.
        """

    def throw(self, count: int | None = None) -> None:
        """Start the next throw of dice (file and simulated cameras only).

        :param count: how many dice to throw, for cameras that choose (the simulator).
        :raises ThrowUnsupported: for a real camera: the players throw the dice.
        """
        raise ThrowUnsupported(f"the {self} cannot throw dice; throw real dice into the tray")

    def close(self) -> None:
        """Release the camera; calling it again does nothing."""

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
