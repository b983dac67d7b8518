"""Camera sources behind one interface, named as on the command line.

``picamera2`` (the Pi camera), ``usb:N`` (a webcam), ``file:PATH`` (a folder
of tray photos, one photo or a video) and ``sim`` (synthetic throws). Each
source's module is imported only when it is opened, so picamera2 is needed
only on the Pi.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from device.cameras.base import Camera
from device.cameras.replay import is_photo

__all__ = ["CAMERA_NAMES", "Camera", "open_camera", "parse_camera_name"]

#: The forms of a camera name, for messages.
CAMERA_NAMES = ("picamera2", "usb:N", "file:PATH", "sim")


def parse_camera_name(name: str) -> tuple[str, str | int | None]:
    """Split a camera name into its kind and argument.

    :returns: ``("picamera2", None)``, ``("usb", N)``, ``("file", PATH)`` or ``("sim", None)``.
    :raises ValueError: for a name of none of the forms in :data:`CAMERA_NAMES`.
    """
    kind, sep, arg = name.partition(":")
    if kind in ("picamera2", "sim") and not sep:
        return kind, None
    if kind == "usb" and sep:
        if arg.isascii() and arg.isdigit():  # int() would take "1_0" and other scripts' digits
            return kind, int(arg)
        raise ValueError(f"camera {name!r}: usb:N needs a device number N (0, 1, ...)")
    if kind == "file" and arg:
        return kind, arg
    raise ValueError(f"unknown camera {name!r}; use one of: {', '.join(CAMERA_NAMES)}")


def open_camera(name: str, **options) -> Camera:
    """Open the camera named ``name`` (see :data:`CAMERA_NAMES`).

    :param options: passed to the source (None values mean its default): ``picamera2`` and ``usb:N`` take
        ``size=(width, height)``; ``picamera2`` also ``preview_size``, ``timeout``;
        ``file:`` photos and ``sim`` take ``moving_frames``, ``auto_throw`` (seconds
        between throws), ``clock``, ``seed``; ``sim`` also ``count``,
        ``principal_color``, ``size``; a ``file:`` video takes ``clock``.
    :raises ValueError: for a malformed name, a path with no photo or video, bad options.
    :raises CameraUnavailable: if the camera is missing, busy or unplugged.
    """
    kind, arg = parse_camera_name(name)
    path = Path(arg) if kind == "file" and isinstance(arg, str) else None
    if path is not None and path.is_file() and not is_photo(path):  # a still of any format is a photo
        kind = "video"
    options = {k: v for k, v in options.items() if v is not None}  # None: the source's default
    unknown = sorted(set(options) - _OPTIONS[kind])
    if unknown:
        allowed = ", ".join(sorted(_OPTIONS[kind])) or "none"
        raise ValueError(f"camera {name}: unknown option(s) {', '.join(unknown)} (it takes: {allowed})")
    if kind == "picamera2":
        return importlib.import_module("device.cameras.picamera").Picamera2Camera(**options)
    if kind == "usb":
        return importlib.import_module("device.cameras.usb").UsbCamera(arg, **options)
    if kind == "sim":
        return importlib.import_module("device.cameras.sim").SimCamera(**options)
    if kind == "video":
        return importlib.import_module("device.cameras.video").VideoCamera(path, **options)
    return importlib.import_module("device.cameras.replay").PhotoFolderCamera(path, **options)


_REPLAY_OPTIONS = {"moving_frames", "auto_throw", "clock", "seed"}
_OPTIONS = {
    "picamera2": {"size", "preview_size", "timeout"},
    "usb": {"size"},
    "file": _REPLAY_OPTIONS,
    "video": {"clock"},
    "sim": _REPLAY_OPTIONS | {"count", "principal_color", "size"},
}
