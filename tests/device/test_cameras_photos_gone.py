"""The file camera whose photos are deleted or cut short while it runs: a half-written
photo is skipped by name; with no readable photo left the camera is not ok (so /healthz
says why), and ok again once a readable photo is back."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from device.cameras import open_camera
from device.tray.loop import TrayLoop


@pytest.fixture
def first(real_photos) -> Path:
    """A real tray photo."""
    return real_photos.photos("real-dice/byler-tray-d6")[0]


@pytest.fixture
def second(real_photos) -> Path:
    """Another real tray photo."""
    return real_photos.photos("real-dice/byler-tray-d6")[1]


def cut_in_half(source: Path, target: Path) -> None:
    data = source.read_bytes()
    target.write_bytes(data[: len(data) // 2])


def test_a_photo_cut_short_is_skipped_by_name(tmp_path, caplog, first, second):
    shutil.copy(first, tmp_path / "1.jpg")
    cut_in_half(second, tmp_path / "2-cut.jpg")
    with caplog.at_level(logging.WARNING):
        camera = open_camera(f"file:{tmp_path}", moving_frames=1)
        shown = []
        for _ in range(3):
            camera.throw()
            camera.capture_preview()
            shown.append(camera.photo.name)
    assert shown == ["1.jpg", "1.jpg", "1.jpg"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [f"file camera: skipping {tmp_path / '2-cut.jpg'}: damaged image (the file is cut short)"]


def test_one_photo_cut_short_says_why(tmp_path, first):
    cut_in_half(first, tmp_path / "cut.png")
    with pytest.raises(ValueError) as raised:
        open_camera(f"file:{tmp_path / 'cut.png'}")
    assert str(raised.value) == f"file camera: {tmp_path / 'cut.png'}: damaged image (the file is cut short)"


def test_no_readable_photo_left_makes_the_camera_not_ok_until_one_is_back(tmp_path, first, second):
    shutil.copy(first, tmp_path / "1.jpg")
    shutil.copy(second, tmp_path / "2.jpg")
    statuses = []
    loop = TrayLoop(lambda: open_camera(f"file:{tmp_path}", moving_frames=1), lambda frame, t: None,
                    lambda status, message: statuses.append((status, message)))
    loop.step()
    assert statuses == [("ok", None)]
    loop.throw()
    loop.step()
    assert loop.status == ("ok", None)

    (tmp_path / "1.jpg").unlink()  # deleted while serving
    cut_in_half(second, tmp_path / "2.jpg")  # half-written while serving
    gone = f"file camera: none of the photos in {tmp_path} can be read (each is named in the log)"
    with pytest.raises(ValueError, match="none of the photos"):
        loop.throw()
    loop.step()
    assert loop.status == ("reconnecting", gone)
    assert statuses[-1] == ("reconnecting", gone)
    loop.step()  # opened again: still nothing readable
    assert loop.status == ("reconnecting", gone)

    shutil.copy(first, tmp_path / "3.jpg")
    loop.step()
    assert loop.status == ("ok", None)
    assert statuses[-1] == ("ok", None)
    loop.throw()
    loop.close()


def test_a_photo_renamed_to_another_suffix_is_no_photo(tmp_path, first, second):
    shutil.copy(first, tmp_path / "a.bak")
    shutil.copy(second, tmp_path / "B.JPG")                  # the suffix in any case
    camera = open_camera(f"file:{tmp_path}", moving_frames=1)
    assert camera.photos == [tmp_path / "B.JPG"]
    (tmp_path / "B.JPG").rename(tmp_path / "b.jpg.old")
    with pytest.raises(ValueError) as raised:
        open_camera(f"file:{tmp_path}")
    assert str(raised.value).startswith("file camera: no photos (.jpg, .jpeg, .png, .bmp, .webp, .tif, .tiff, ")


def test_a_photo_deleted_since_it_was_listed_is_named_gone(tmp_path, caplog, first, second):
    shutil.copy(first, tmp_path / "a.jpg")
    shutil.copy(second, tmp_path / "b.jpg")
    camera = open_camera(f"file:{tmp_path}", moving_frames=1)
    (tmp_path / "b.jpg").unlink()
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            camera.throw()
            camera.capture_preview()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [f"file camera: skipping {tmp_path / 'b.jpg'}: gone (deleted or moved since it was listed)"]
    one = open_camera(f"file:{tmp_path / 'a.jpg'}", moving_frames=1)  # a camera of one photo
    (tmp_path / "a.jpg").unlink()
    with pytest.raises(ValueError) as raised:
        one.throw()
    assert str(raised.value) == f"file camera: {tmp_path / 'a.jpg'}: gone (deleted or moved since it was listed)"
