"""vision.image.header_size and read_image: the size read from the header (Pillow), too large refused."""

from __future__ import annotations

import os

import cv2
import numpy as np
import pytest

from vision.image import MAX_PIXELS, ImageTooLarge, header_size, read_image


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".ppm", ".pgm", ".pbm", ".bmp", ".webp", ".tif"])
def test_header_size_of_each_format_opencv_writes(tmp_path, suffix):
    path = tmp_path / f"photo{suffix}"
    image = np.random.default_rng(1).integers(0, 255, (23, 37, 3), np.uint8)
    assert cv2.imwrite(str(path), image[:, :, 0] if suffix in (".pgm", ".pbm") else image)
    assert header_size(path) == (37, 23)
    assert read_image(path).shape[:2] == (23, 37)


def test_header_size_of_what_is_no_image(tmp_path):
    (tmp_path / "notes.txt").write_text("P6 is not a size")
    assert header_size(tmp_path / "notes.txt") is None
    assert header_size(tmp_path / "missing.png") is None
    assert header_size(tmp_path) is None


def test_too_large_is_refused_before_decoding(tmp_path):
    path = tmp_path / "big.pgm"
    path.write_bytes(b"P5\n# a comment\n10000 5001\n255\n")
    with pytest.raises(ImageTooLarge, match=r"10000×5001 pixels; at most 50 megapixels") as raised:
        read_image(path)
    assert raised.value.size == (10000, 5001) and 10000 * 5001 > MAX_PIXELS


def test_opencvs_own_limit_is_the_same():
    # device/__init__.py sets it before OpenCV loads; it must agree with MAX_PIXELS
    import device  # noqa: F401

    assert os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] == str(MAX_PIXELS)


def test_a_named_pipe_is_no_photo_and_is_not_waited_on(tmp_path):
    pipe = tmp_path / "photo.jpg"
    os.mkfifo(pipe)  # opening it would wait for a writer for ever (the file camera's folder, `dicelens read`)
    assert read_image(pipe) is None
