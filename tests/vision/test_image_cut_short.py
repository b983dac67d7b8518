"""vision.image.read_image refuses a photo file cut short (a half-written JPEG or PNG)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision.errors import VisionError
from vision.image import DamagedImage, read_image


@pytest.fixture
def photo(real_photos) -> Path:
    return real_photos.photos("real-dice/byler-tray-d6")[0]


def cut_in_half(data: bytes, path: Path) -> Path:
    path.write_bytes(data[: len(data) // 2])
    return path


def test_a_jpeg_cut_at_half_its_bytes_is_damaged(tmp_path, photo):
    cut = cut_in_half(photo.read_bytes(), tmp_path / "cut.jpg")
    assert cv2.imread(str(cut)) is not None  # OpenCV alone would read it, the rest grey
    with pytest.raises(DamagedImage) as raised:
        read_image(cut)
    assert str(raised.value) == "damaged image (the file is cut short)"
    assert isinstance(raised.value, VisionError) and isinstance(raised.value, ValueError)


def test_a_png_cut_at_half_its_bytes_is_damaged(tmp_path, photo):
    ok, png = cv2.imencode(".png", cv2.imread(str(photo)))
    assert ok
    with pytest.raises(DamagedImage):
        read_image(cut_in_half(png.tobytes(), tmp_path / "cut.png"))


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_whole_photos_still_read_alike(tmp_path, suffix, photo):
    image = cv2.imread(str(photo))
    grey = tmp_path / f"grey{suffix}"
    assert cv2.imwrite(str(grey), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    whole = tmp_path / f"whole{suffix}"
    assert cv2.imwrite(str(whole), image)
    for path in (whole, grey):
        assert (read_image(path) == cv2.imread(str(path))).all()
