"""The Raspberry Pi camera through picamera2 (a Pi system package, imported here only)."""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

import cv2
import numpy as np

from device.cameras.base import Camera
from device.errors import CameraUnavailable
from rules.phrase import Phrase

log = logging.getLogger(__name__)


class Picamera2Camera(Camera):
    """One long-lived Picamera2 object with a full-resolution and a low-resolution stream.

    The "main" stream (RGB888: BGR byte order, as OpenCV wants) gives the frames
    read by vision; the "lores" stream (YUV420, the format every Pi can scale
    to) gives the preview frames for motion. :meth:`capture` asks picamera2 for
    a request with ``flush=True``, so the frame returned started its exposure
    after the call: never a frame exposed while the dice still moved.

    :meth:`lock_3a` runs one autofocus cycle (cameras with a motorised lens,
    such as Camera Module 3), reads the exposure time, analogue gain, colour
    gains and lens position of a frame taken next, and sets them as fixed
    controls with auto exposure, auto white balance and autofocus off;
    :meth:`unlock_3a` turns auto exposure and white balance on again, and
    continuous autofocus.

    :param size: (width, height) of full frames in pixels; None for the sensor's full size.
    :param preview_size: (width, height) of preview frames in pixels; keep the width a
        multiple of 64 so the YUV420 rows carry no padding.
    :param timeout: seconds to wait for a frame before the camera counts as gone.
    :raises CameraUnavailable: if picamera2 is missing or the camera cannot start.
    """

    def __init__(self, size: tuple[int, int] | None = None, preview_size: tuple[int, int] = (320, 240),
                 timeout: float = 3.0) -> None:
        try:
            from libcamera import controls  # picamera2's own dependency: the AfMode values
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraUnavailable(Phrase(
                "picamera2 is not installed (on the Pi: apt install python3-picamera2, "
                "and a venv made with --system-site-packages)")) from exc
        self._timeout = timeout
        self._af_modes = controls.AfModeEnum
        self._has_autofocus = False
        self._lock = threading.Lock()
        self._picam2 = None
        try:
            found = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera itself failing
            raise CameraUnavailable(Phrase("the Pi camera could not start: {why}", why=str(exc))) from exc
        if not found:  # Picamera2() would only say "list index out of range"
            raise CameraUnavailable(_why_no_camera())
        main = {"format": "RGB888"} | ({"size": tuple(size)} if size else {})
        try:
            self._picam2 = Picamera2()
            config = self._picam2.create_still_configuration(
                main=main, lores={"size": tuple(preview_size), "format": "YUV420"})
            self._picam2.configure(config)
            self._picam2.start()
            self._has_autofocus = "AfMode" in self._picam2.camera_controls
        except Exception as exc:  # libcamera reports a missing or busy camera in several ways
            self.close()
            raise CameraUnavailable(Phrase("the Pi camera could not start: {why}", why=str(exc))) from exc

    def __str__(self) -> str:
        return "Pi camera"

    def capture(self) -> np.ndarray:
        return self._take("main", flush=True)

    def capture_preview(self) -> np.ndarray:
        yuv = self._take("lores", flush=False)
        return cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)

    def lock_3a(self) -> None:
        with self._lock:
            picam2 = self._started()
            try:
                if self._has_autofocus:  # a blocking cycle, bounded: a dead camera must not hang the loop
                    picam2.wait(picam2.autofocus_cycle(wait=False), timeout=self._timeout)
                request = self._request(flush=True)  # exposed after the cycle, with its focus
                try:
                    metadata = request.get_metadata()
                finally:
                    request.release()
                held = {"AeEnable": False, "AwbEnable": False,
                        "ExposureTime": metadata["ExposureTime"], "AnalogueGain": metadata["AnalogueGain"],
                        "ColourGains": metadata["ColourGains"]}
                if self._has_autofocus:
                    held |= {"AfMode": self._af_modes.Manual, "LensPosition": metadata["LensPosition"]}
                picam2.set_controls(held)
            except CameraUnavailable:
                raise
            except Exception as exc:  # TimeoutError, a missing metadata key, libcamera refusing a control
                raise CameraUnavailable(f"the Pi camera could not lock its exposure: {exc!r}") from exc
        log.debug("Pi camera holds %s", held)

    def unlock_3a(self) -> None:
        with self._lock:
            picam2 = self._started()
            auto = {"AeEnable": True, "AwbEnable": True}
            if self._has_autofocus:
                auto["AfMode"] = self._af_modes.Continuous
            try:
                picam2.set_controls(auto)
            except Exception as exc:  # libcamera's RuntimeError when the camera is gone
                raise CameraUnavailable(f"the Pi camera could not unlock its exposure: {exc}") from exc

    def _take(self, stream: str, *, flush: bool) -> np.ndarray:
        with self._lock:
            request = self._request(flush=flush)
            try:
                # make_array copies out of the request's buffer, which goes back to libcamera
                return request.make_array(stream)
            finally:
                request.release()

    def _started(self):
        """The running Picamera2 (call it holding the lock)."""
        if self._picam2 is None:
            raise CameraUnavailable("the Pi camera is closed")
        return self._picam2

    def _request(self, *, flush: bool):
        """The next completed request (call it holding the lock); the caller releases it."""
        try:
            return self._started().capture_request(wait=self._timeout, flush=flush)
        except CameraUnavailable:
            raise
        except Exception as exc:  # TimeoutError, or libcamera's RuntimeError when the cable is out
            raise CameraUnavailable(Phrase("the Pi camera gave no frame: {why}", why=str(exc))) from exc

    def close(self) -> None:
        with self._lock:  # never close the camera under a capture in progress
            picam2, self._picam2 = self._picam2, None
        if picam2 is None:
            return
        try:
            picam2.stop()
            picam2.close()
        except Exception as exc:  # a camera already gone cannot be stopped; nothing else to free
            log.warning("closing the Pi camera: %s", exc)


def _why_no_camera() -> Phrase:
    """Why libcamera lists no camera, in words: a permission the service user lacks, or no camera."""
    denied = [path for path in sorted(Path("/dev").glob("media*")) if not os.access(path, os.R_OK | os.W_OK)]
    if denied:
        return Phrase("no permission to open {device} (the user must be in its group, video)", device=str(denied[0]))
    return Phrase("no Pi camera found (check the ribbon cable, then restart the Pi: it looks for its camera at boot)")
