"""What every reader accepts as a photo, and reading photo files no larger than is safe."""

from __future__ import annotations

import os
import re
import struct

import cv2
import numpy as np

from vision.errors import InvalidImage, VisionError

MIN_SIDE = 16  # pixels: a smaller photo cannot show a readable die


def as_bgr(image: object) -> np.ndarray:
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


def read_image(path: str | os.PathLike, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """``cv2.imread`` that refuses a file too large to decode safely.

    The size is read from the header (PNG, JPEG, PNM, BMP, WebP, TIFF) before anything is
    decoded; for other formats OpenCV's own limit (``OPENCV_IO_MAX_IMAGE_PIXELS``) stops it.

    :returns: the image (H×W×3 uint8 BGR with the default flags), or None when OpenCV
        cannot decode the file.
    :raises ImageTooLarge: above :data:`MAX_PIXELS` (a ``ValueError``).
    """
    size = header_size(path)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageTooLarge(size)
    try:
        return cv2.imread(str(path), flags)
    except cv2.error as exc:  # OpenCV refuses sizes above its limit by an assertion
        if "CV_IO_MAX_IMAGE" in str(exc):
            raise ImageTooLarge(size) from None
        return None


def header_size(path: str | os.PathLike) -> tuple[int, int] | None:
    """``(width, height)`` in pixels from an image file's header, without decoding it.

    :returns: None for a format not known here, a damaged header or an unreadable file.
    """
    try:
        with open(path, "rb") as file:
            head = file.read(64)
            if head.startswith(b"\xff\xd8"):
                return _jpeg_size(file)
            return _header_size(head, file)
    except (OSError, struct.error, ValueError, IndexError):
        return None


def _header_size(head: bytes, file) -> tuple[int, int] | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    if head[:1] == b"P" and head[1:2] in b"1234567":
        return _pnm_size(head[:2], file)
    if head.startswith(b"BM"):
        if struct.unpack("<I", head[14:18])[0] == 12:  # OS/2 BITMAPCOREHEADER
            return struct.unpack("<HH", head[18:22])
        width, height = struct.unpack("<ii", head[18:26])
        return abs(width), abs(height)  # a negative height: rows stored top-down
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        chunk = head[12:16]
        if chunk == b"VP8 ":
            width, height = struct.unpack("<HH", head[26:30])
            return width & 0x3FFF, height & 0x3FFF
        if chunk == b"VP8L":
            bits = int.from_bytes(head[21:25], "little")
            return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
        if chunk == b"VP8X":
            return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
        return None
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size("<" if head[:2] == b"II" else ">", file)
    return None


def _jpeg_size(file) -> tuple[int, int] | None:
    file.seek(2)
    while True:
        byte = file.read(1)
        if byte != b"\xff":
            return None
        marker = file.read(1)
        while marker == b"\xff":  # fill bytes
            marker = file.read(1)
        code = marker[0]
        if code == 0x01 or 0xD0 <= code <= 0xD9:  # markers with no segment
            continue
        length = struct.unpack(">H", file.read(2))[0]
        if 0xC0 <= code <= 0xCF and code not in (0xC4, 0xC8, 0xCC):  # a start of frame
            height, width = struct.unpack(">xHH", file.read(5))
            return width, height
        file.seek(length - 2, os.SEEK_CUR)


def _pnm_size(magic: bytes, file) -> tuple[int, int] | None:
    file.seek(2)
    text = file.read(4096).decode("latin-1")
    if magic == b"P7":  # PAM: "WIDTH n" and "HEIGHT n" lines
        fields = dict(line.split(None, 1) for line in text.splitlines() if " " in line.strip())
        return int(fields["WIDTH"]), int(fields["HEIGHT"])
    words = re.sub(r"#[^\n]*", " ", text).split()
    return int(words[0]), int(words[1])


def _tiff_size(order: str, file) -> tuple[int, int] | None:
    file.seek(4)
    file.seek(struct.unpack(order + "I", file.read(4))[0])
    found = {}
    for _ in range(struct.unpack(order + "H", file.read(2))[0]):
        tag, kind, _count, value = struct.unpack(order + "HHI4s", file.read(12))
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT or LONG
            found[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), value[:2 if kind == 3 else 4])[0]
    return (found[256], found[257]) if len(found) == 2 else None
