"""What every reader accepts as a photo, reading photo files no larger than is safe, and
a frame shrunk and encoded as JPEG for a phone."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from vision.errors import InvalidImage, VisionError

MIN_SIDE = 16  # pixels: a smaller photo cannot show a readable die
JPEG_QUALITY = 85  # of the pictures sent to a phone: sharp enough to tell the dice apart

# OpenCV's own log: in cv2.utils.logging from OpenCV 5, at cv2's top level in OpenCV 4
# (4.11 on Python 3.11, see constraints.txt); level 0 is LOG_LEVEL_SILENT in both.
_OPENCV_LOG = getattr(cv2.utils, "logging", cv2)
OPENCV_SILENT = 0


def set_opencv_log_level(level: int) -> int:
    """Set the level of OpenCV's own log lines (0 silent, up to 6 verbose); returns the previous."""
    previous: int = _OPENCV_LOG.getLogLevel()
    _OPENCV_LOG.setLogLevel(level)
    return previous


def as_bgr(image: object) -> NDArray[Any]:
    """An H×W×3 uint8 BGR view of ``image`` (H×W grey and H×W×4 BGRA are converted).

    :raises InvalidImage: not a numpy uint8 array of one of those shapes (a ``ValueError``).
    """
    if not isinstance(image, np.ndarray):
        raise InvalidImage(f"not an image: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise InvalidImage(f"not an image: expected uint8 pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise InvalidImage(f"not an image: expected H×W×3 pixels, got shape {image.shape}")


def square_crop(image: NDArray[Any], center: tuple[float, float], span: float, size: int,
                angle: float = 0.0) -> NDArray[Any]:
    """A ``size``×``size``×3 uint8 BGR crop of an H×W×3 uint8 BGR photo: the square of ``span``
    pixels centred on ``center`` (x, y pixels), turned ``angle`` degrees counter-clockwise and
    scaled to fill it; the photo's edge is repeated beyond it."""
    scale = size / span
    matrix: NDArray[Any] = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), angle, scale)
    matrix[:, 2] += (size / 2 - center[0], size / 2 - center[1])
    crop: NDArray[Any] = cv2.warpAffine(image, matrix, (size, size),
                                        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE)
    return crop


def jpeg(image: NDArray[Any], max_side: int | None = None, *,
         draw: Callable[[NDArray[Any], float], None] | None = None, quality: int = JPEG_QUALITY) -> bytes:
    """``image`` (H×W×3 uint8 BGR) as JPEG bytes: shrunk (never enlarged) so that its long
    side is ``max_side`` pixels at most, then drawn on by ``draw(picture, scale)`` (``scale``:
    the picture's pixels per pixel of ``image``; ``image`` itself is never drawn on).

    :raises InvalidImage: ``image`` is not a uint8 image array.
    :raises ValueError: the picture could not be encoded.
    """
    bgr = as_bgr(image)
    height, width = bgr.shape[:2]
    scale = 1.0 if max_side is None else min(1.0, max_side / max(width, height))
    picture = bgr
    if scale < 1:
        picture = cv2.resize(bgr, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    if draw is not None:
        picture = picture.copy() if picture is image else picture
        draw(picture, scale)
    ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the picture could not be encoded as JPEG")
    return bytes(encoded.tobytes())


#: Pixels a photo file may have to be decoded (50 megapixels): a tray photo has a few;
#: a 20000×20000 image would need 1.2 GB decoded, more than a 2 GB Pi can spare.
MAX_PIXELS = 50_000_000


class ImageTooLarge(VisionError, ValueError):
    """A photo file whose pixels (from its header) exceed :data:`MAX_PIXELS`; never decoded.

    :ivar size: ``(width, height)`` in pixels, or None when only OpenCV's own limit told.
    """

    def __init__(self, size: tuple[int, int] | None):
        self.size = size
        limit = f"at most {MAX_PIXELS // 1_000_000} megapixels"
        super().__init__(f"image too large ({size[0]}×{size[1]} pixels; {limit})" if size
                         else f"image too large ({limit})")


class DamagedImage(VisionError, ValueError):
    """A photo file whose image data is cut short (a half-written JPEG or PNG); never read in part."""

    def __init__(self) -> None:
        super().__init__("damaged image (the file is cut short)")


def read_image(path: str | os.PathLike[str], flags: int = cv2.IMREAD_COLOR) -> NDArray[Any] | None:
    """``cv2.imread`` that refuses a file too large to decode safely, or cut short.

    The size is read from the header (:func:`header_size`) before anything is decoded;
    for a format Pillow does not know, OpenCV's own limit (``OPENCV_IO_MAX_IMAGE_PIXELS``) stops it.
    A JPEG is decoded by Pillow first to see that its data is whole (at 1/8 of its size,
    by ``Image.draft``: 10 ms for 4000×3000 pixels, against 64 ms for ``cv2.imread``);
    another format is looked at so only when OpenCV cannot decode it.

    :returns: the image (H×W×3 uint8 BGR with the default flags), or None when OpenCV
        cannot decode the file, or it is no regular file (a named pipe would be waited on
        for ever, a folder or device is no photo).
    :raises ImageTooLarge: above :data:`MAX_PIXELS` (a ``ValueError``).
    :raises DamagedImage: when the file ends before its image data does (a ``ValueError``);
        OpenCV would return the part it has, the rest grey, with only a libjpeg warning.
    """
    if not os.path.isfile(path):
        return None
    size, kind = _header(path)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageTooLarge(size)
    # OpenCV decodes a JPEG cut short (grey below the cut, a libjpeg warning only), so a
    # JPEG is checked first; other formats cut short fail in OpenCV, then are checked.
    if kind == "JPEG" and _cut_short(path) or kind is None and _cut_in_header(path):
        raise DamagedImage()  # before OpenCV, whose libjpeg would print its own warning
    try:
        image: NDArray[Any] | None = cv2.imread(str(path), flags)  # None: not an image
    except cv2.error as exc:  # OpenCV refuses sizes above its limit by an assertion
        if "CV_IO_MAX_IMAGE" in str(exc):
            raise ImageTooLarge(size) from None
        return None
    if image is None and kind is not None and _cut_short(path):
        raise DamagedImage()
    return image


HEADER_CUT_BYTES = 1 << 20  # a file larger than this is not searched for its end marker
#: a format's first bytes and the marker its last chunk holds: a file that starts as one and
#: lacks its end was cut short before its header ended (Pillow cannot open it to tell)
_ENDS = ((b"\xff\xd8\xff", b"\xff\xd9"), (b"\x89PNG\r\n\x1a\n", b"IEND"))


def _cut_in_header(path: str | os.PathLike[str]) -> bool:
    """Whether a file Pillow cannot open, of at most :data:`HEADER_CUT_BYTES`, starts as a JPEG
    or PNG and lacks its end marker (a photo cut within its first kilobytes: its EXIF, its tables)."""
    if os.path.getsize(path) > HEADER_CUT_BYTES:
        return False
    with open(path, "rb") as file:
        data = file.read()
    return any(data.startswith(start) and end not in data for start, end in _ENDS)


def _cut_short(path: str | os.PathLike[str]) -> bool:
    """Whether Pillow finds the file's image data cut short ("image file is truncated",
    raised by ``load`` while ``ImageFile.LOAD_TRUNCATED_IMAGES`` is False, its default).
    Other failures (a codec Pillow lacks) are left for OpenCV to judge."""
    try:
        with Image.open(path) as image:
            image.draft("RGB", (1, 1))  # JPEG: decode at 1/8 scale, still every byte; others: ignored
            image.load()
    except OSError as exc:
        return "truncated" in str(exc)
    except (ValueError, SyntaxError):
        return False
    return False


def header_size(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """``(width, height)`` in pixels from an image file's header, without decoding it
    (Pillow's ``Image.open`` reads only the header until pixels are asked for).

    :returns: None for a format Pillow does not know, a damaged header or an unreadable file.
    """
    return _header(path)[0]


def _header(path: str | os.PathLike[str]) -> tuple[tuple[int, int] | None, str | None]:
    """(size, Pillow's format name such as "JPEG") from the header; (None, None) when
    Pillow cannot read it."""
    try:
        with Image.open(path) as image:  # Pillow's own size check is off: see below
            return image.size, image.format
    except (OSError, ValueError, SyntaxError):
        return None, None


# Pillow only reads headers here, never pixels; its decompression-bomb check would hide the
# size of the very files MAX_PIXELS is there to refuse.
Image.MAX_IMAGE_PIXELS = None
