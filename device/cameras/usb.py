"""A USB webcam through OpenCV's VideoCapture."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import cv2
import numpy as np

from device.cameras.base import Camera, shrink
from device.errors import CameraUnavailable
from rules.phrase import Phrase
from vision.image import OPENCV_SILENT, set_opencv_log_level

# Frames a V4L2 webcam may hold queued; grabbing past them gives a frame taken now.
_QUEUED_FRAMES = 4

# OpenCV's V4L2 backend passes CAP_PROP_AUTO_EXPOSURE to V4L2_CID_EXPOSURE_AUTO as it is:
# 1 is V4L2_EXPOSURE_MANUAL, 3 V4L2_EXPOSURE_APERTURE_PRIORITY (a webcam's auto exposure).
# Turning an auto control off holds the value it had reached (V4L2's documented behaviour),
# so a lock writes no values back.
_LOCKED = ((cv2.CAP_PROP_AUTO_EXPOSURE, 1), (cv2.CAP_PROP_AUTO_WB, 0), (cv2.CAP_PROP_AUTOFOCUS, 0))
_AUTO = ((cv2.CAP_PROP_AUTO_EXPOSURE, 3), (cv2.CAP_PROP_AUTO_WB, 1), (cv2.CAP_PROP_AUTOFOCUS, 1))


class UsbCamera(Camera):
    """A webcam, device number ``index`` (``usb:0`` is /dev/video0 on Linux).

    Webcams queue a few frames; :meth:`capture` grabs past the queue so the
    frame it returns was taken after the call, not while the dice still moved.
    :meth:`lock_3a` turns auto exposure, auto white balance and autofocus off
    (each where the webcam has it; a refused one is skipped), :meth:`unlock_3a`
    on again.

    :param index: the VideoCapture device number.
    :param size: (width, height) in pixels to ask of the webcam; None keeps its default.
    :raises CameraUnavailable: if the webcam cannot be opened.
    """

    def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
        self.index = index
        self._lock = threading.Lock()
        capture = _quietly_open(index)
        if not capture.isOpened():
            capture.release()
            raise CameraUnavailable(_why_not_open(index))
        self._capture: cv2.VideoCapture | None = capture  # None once closed
        if size:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def __str__(self) -> str:
        return f"USB camera {self.index}"

    def capture(self) -> np.ndarray:
        return self._read(flush=True)

    def capture_preview(self) -> np.ndarray:
        return shrink(self._read(flush=False))

    def lock_3a(self) -> None:
        self._set_all(_LOCKED)

    def unlock_3a(self) -> None:
        self._set_all(_AUTO)

    def _set_all(self, values: tuple[tuple[int, float], ...]) -> None:
        with self._lock:
            if self._capture is None:
                raise CameraUnavailable(f"USB camera {self.index} is closed")
            for prop, value in values:
                self._capture.set(prop, value)  # False where the webcam lacks the control: nothing to hold

    def _read(self, *, flush: bool) -> np.ndarray:
        with self._lock:
            if self._capture is None:
                raise CameraUnavailable(f"USB camera {self.index} is closed")
            if flush:
                for _ in range(_QUEUED_FRAMES):
                    self._capture.grab()
            ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraUnavailable(Phrase("USB camera {n} stopped giving frames (unplugged?)", n=self.index))
        if frame.ndim == 2:  # some webcams give grey frames
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        return frame

    def close(self) -> None:
        with self._lock:
            capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


def _quietly_open(index: int) -> cv2.VideoCapture:
    """Open the webcam without OpenCV's own warnings, which would repeat at every retry
    of the camera loop; the reason is logged once, in words (:func:`_why_not_open`)."""
    level = set_opencv_log_level(OPENCV_SILENT)  # some builds say it at ERROR
    try:
        return cv2.VideoCapture(index)
    finally:
        set_opencv_log_level(level)


def _why_not_open(index: int) -> Phrase:
    device = Path(f"/dev/video{index}")  # V4L2's name for it on Linux, where the Pi runs
    if device.exists() and not os.access(device, os.R_OK | os.W_OK):
        return Phrase("USB camera {n}: no permission to open {device} (the user must be in its group, video)",
                      n=index, device=str(device))
    return Phrase("USB camera {n} could not be opened (is it plugged in?)", n=index)
