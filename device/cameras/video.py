"""A recorded video of the tray, played back in real time as if it were the camera."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from device.cameras.base import Camera
from device.errors import CameraUnavailable, ThrowUnsupported
from rules.phrase import Phrase


class VideoCamera(Camera):
    """Plays a video file at its recorded frame rate, from the start again at its end.

    The throws are those in the recording, so :meth:`throw` is not supported;
    the settle detector finds them as it would with a live camera.

    :param path: a video file OpenCV can read (mp4, avi, mkv...).
    :param clock: monotonic seconds, deciding which frame is "now".
    :raises ValueError: if the file is not a readable video.
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        video = cv2.VideoCapture(str(self.path))
        ok, frame = video.read() if video.isOpened() else (False, None)
        if not ok or frame is None:
            video.release()
            raise ValueError(Phrase("file camera: {path} is not a readable video", path=str(self.path)))
        self._video: cv2.VideoCapture | None = video  # None once closed
        fps = video.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 else 25.0
        self._frame: np.ndarray = frame
        self._index = 0  # index of self._frame in the video
        self._start = clock()

    def __str__(self) -> str:
        return f"file camera {self.path}"

    def _unreadable(self) -> Phrase:
        return Phrase("the file camera {path} can no longer be read", path=str(self.path))

    def throw(self, count: int | None = None) -> None:
        raise ThrowUnsupported(f"the {self} is a video: its throws are the ones recorded in it")

    def capture(self) -> np.ndarray:
        with self._lock:
            if self._video is None:
                raise CameraUnavailable(f"the {self} is closed")
            wanted = int((self._clock() - self._start) * self._fps)
            if wanted > self._index:
                while self._index < wanted:
                    if not self._video.grab():  # the end: play it again from the start
                        self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                        self._start, self._index, wanted = self._clock(), -1, 0
                        if not self._video.grab():
                            raise CameraUnavailable(self._unreadable())
                    self._index += 1
                ok, frame = self._video.retrieve()
                if not ok:
                    raise CameraUnavailable(self._unreadable())
                self._frame = frame
            return self._frame.copy()

    def close(self) -> None:
        with self._lock:
            video, self._video = self._video, None
        if video is not None:
            video.release()
