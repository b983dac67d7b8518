"""Bad input: a clear error for what is not an image, an empty reading for an empty frame."""

from __future__ import annotations

import numpy as np
import pytest

from vision import InvalidImage, TrayReading, read_tray
from vision.errors import VisionError


@pytest.mark.parametrize("bad", [
    None,
    "tray.jpg",
    np.zeros((40, 40, 3), np.float32),
    np.zeros((40, 40, 2), np.uint8),
    np.zeros((4, 40, 40, 3), np.uint8),
])
def test_not_an_image_is_a_clear_error(bad):
    with pytest.raises(InvalidImage, match="not an image"):
        read_tray(bad)
    assert issubclass(InvalidImage, VisionError) and issubclass(InvalidImage, ValueError)


@pytest.mark.parametrize("frame", [
    np.zeros((480, 640, 3), np.uint8),  # lens cap on
    np.full((480, 640, 3), 200, np.uint8),  # empty tray, even light
    np.zeros((0, 0, 3), np.uint8),
    np.full((5, 7, 3), 90, np.uint8),  # tiny
    np.zeros((480, 640), np.uint8),  # grey frame
])
@pytest.mark.slow
def test_empty_frames_give_an_empty_reading(frame):
    reading = read_tray(frame)
    assert isinstance(reading, TrayReading)
    assert reading.dice == []
    assert reading.size == (frame.shape[1], frame.shape[0])
    assert reading.seconds >= 0
    assert reading.principal_note == "no dice"
