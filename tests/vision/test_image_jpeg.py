"""vision.image.jpeg: the one shrink-and-encode of the pictures sent to a phone (the latest
frame, the camera's setup view, a roll's photos)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import InvalidImage
from vision.image import JPEG_QUALITY, jpeg


def _decoded(data: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def test_a_large_frame_is_shrunk_to_its_long_side_and_a_small_one_kept():
    frame = np.full((900, 1600, 3), 120, np.uint8)
    assert _decoded(jpeg(frame, 320)).shape == (180, 320, 3)
    assert _decoded(jpeg(frame, 4000)).shape == (900, 1600, 3)   # never enlarged
    assert _decoded(jpeg(frame)).shape == (900, 1600, 3)


def test_the_drawing_gets_the_scale_and_never_touches_the_frame():
    frame = np.zeros((400, 800, 3), np.uint8)
    seen = []

    def draw(picture, scale):
        seen.append((picture.shape, scale))
        picture[:] = 255

    white = _decoded(jpeg(frame, 200, draw=draw))
    assert seen == [((100, 200, 3), 0.25)] and white.min() > 250
    _decoded(jpeg(frame, None, draw=draw))
    assert seen[-1] == ((400, 800, 3), 1.0) and frame.max() == 0   # not shrunk: drawn on a copy


def test_the_quality_is_the_phones_and_a_non_image_is_refused():
    noisy = np.random.default_rng(1).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    expected = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1].tobytes()
    assert jpeg(noisy) == expected
    with pytest.raises(InvalidImage):
        jpeg(np.zeros((8, 8, 3), np.float32))
