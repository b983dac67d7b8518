"""The file camera with photos it cannot read: too large to decode, damaged, or in a format
known only by its signature (.ppm). Bad ones are skipped by name, the good ones replay."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cameras import open_camera
from device.tray.loop import TrayLoop


@pytest.fixture
def byler(real_photos) -> Path:
    """A folder of real tray photos."""
    return real_photos.folder("real-dice/byler-tray-d6")


HUGE_PPM = b"P6\n40000 40000\n255\n"


def throw_and_show(camera) -> str:
    camera.throw()
    camera.capture_preview()
    camera.capture_preview()
    return camera.photo.name


@pytest.mark.slow
def test_an_oversized_photo_is_skipped_by_name_and_the_good_ones_replay(tmp_path, caplog, byler):
    first, second = sorted(byler.glob("*.jpg"))[:2]
    (tmp_path / "0-huge.ppm").write_bytes(HUGE_PPM)
    shutil.copy(first, tmp_path / "1.jpg")
    (tmp_path / "2-damaged.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    shutil.copy(second, tmp_path / "3.jpg")
    with caplog.at_level(logging.WARNING):
        camera = open_camera(f"file:{tmp_path}", moving_frames=1)
        assert camera.capture().shape == (640, 640, 3)  # the empty tray has the good photos' size
        shown = [throw_and_show(camera) for _ in range(4)]
    assert shown == ["1.jpg", "3.jpg", "1.jpg", "3.jpg"]
    assert np.array_equal(camera.capture(), cv2.imread(str(second)))
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [  # once each, not at every turn
        f"file camera: skipping {tmp_path / '0-huge.ppm'}: image too large "
        "(40000×40000 pixels; at most 50 megapixels)",
        f"file camera: skipping {tmp_path / '2-damaged.png'}: damaged image (the file is cut short)",
    ]


def test_the_tray_loop_stays_ok_with_an_oversized_photo_in_the_folder(tmp_path, byler):
    (tmp_path / "a.tif").write_bytes(HUGE_PPM)  # OpenCV decodes by signature, whatever the suffix
    shutil.copy(next(byler.glob("*.jpg")), tmp_path / "b.jpg")
    loop = TrayLoop(lambda: open_camera(f"file:{tmp_path}", moving_frames=1), lambda frame, t: None)
    for _ in range(4):
        loop.step()
        loop.throw()
    assert loop.status == ("ok", None)
    loop.close()


def test_a_folder_with_no_readable_photo_is_one_plain_message(tmp_path):
    (tmp_path / "a.ppm").write_bytes(HUGE_PPM)
    (tmp_path / "b.jpg").write_bytes(b"not a photo")
    with pytest.raises(ValueError) as raised:
        open_camera(f"file:{tmp_path}")
    assert str(raised.value) == f"file camera: none of the photos in {tmp_path} can be read (each is named in the log)"


def test_one_oversized_photo_says_why(tmp_path):
    (tmp_path / "big.ppm").write_bytes(HUGE_PPM)
    with pytest.raises(ValueError) as raised:
        open_camera(f"file:{tmp_path / 'big.ppm'}")
    assert str(raised.value) == (f"file camera: {tmp_path / 'big.ppm'}: image too large "
                                 "(40000×40000 pixels; at most 50 megapixels)")


@pytest.mark.parametrize("suffix", [".ppm", ".pgm", ".pnm", ".ras"])
def test_a_still_of_any_format_opencv_reads_is_a_photo_not_a_video(tmp_path, suffix, byler):
    photo = cv2.resize(cv2.imread(str(next(byler.glob("*.jpg")))), (160, 120))
    if suffix == ".pgm":
        photo = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    path = tmp_path / f"x{suffix}"
    assert cv2.imwrite(str(path), photo[:, :, 0] if suffix == ".pgm" else photo)
    for name in (f"file:{path}", f"file:{tmp_path}"):
        camera = open_camera(name, moving_frames=1)
        assert camera.can_throw
        assert throw_and_show(camera) == path.name
        assert np.array_equal(camera.capture(), photo)
