"""A USB webcam through OpenCV's VideoCapture."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from device.cameras.base import Camera, shrink
from device.errors import CameraUnavailable

# Frames a V4L2 webcam may hold queued; grabbing past them gives a frame taken now.
_QUEUED_FRAMES = 4


class UsbCamera(Camera):
    """A webcam, device number ``index`` (``usb:0`` is /dev/video0 on Linux).

    Webcams queue a few frames; :meth:`capture` grabs past the queue so the
    frame it returns was taken after the call, not while the dice still moved.

    :param index: the VideoCapture device number.
    :param size: (width, height) in pixels to ask of the webcam; None keeps its default.
    :raises CameraUnavailable: if the webcam cannot be opened.
    """

    def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
        self.index = index
        self._lock = threading.Lock()
        self._capture = cv2.VideoCapture(index)
        if not self._capture.isOpened():
            self._capture.release()
            self._capture = None
            raise CameraUnavailable(f"USB camera {index} could not be opened (is it plugged in?)")
        if size:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def __str__(self) -> str:
        return f"USB camera {self.index}"

    def capture(self) -> np.ndarray:
        return self._read(flush=True)

    def capture_preview(self) -> np.ndarray:
        return shrink(self._read(flush=False))

    def _read(self, *, flush: bool) -> np.ndarray:
        with self._lock:
            if self._capture is None:
                raise CameraUnavailable(f"USB camera {self.index} is closed")
            if flush:
                for _ in range(_QUEUED_FRAMES):
                    self._capture.grab()
            ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraUnavailable(f"USB camera {self.index} stopped giving frames (unplugged?)")
        if frame.ndim == 2:  # some webcams give grey frames
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        return frame

    def close(self) -> None:
        with self._lock:
            capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()
