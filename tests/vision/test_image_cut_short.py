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
@pytest.mark.parametrize("kept", [50, 400, 1000])
def test_a_photo_cut_within_its_header_is_damaged_too(tmp_path, photo, suffix, kept):
    """Cut in its first kilobyte, Pillow cannot open the file to see it is cut short: it was
    "not a readable photo" (fresh-user trial), and libjpeg's warning the only hint."""
    ok, encoded = cv2.imencode(suffix, cv2.imread(str(photo)))
    assert ok
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes(encoded.tobytes()[:kept])
    with pytest.raises(DamagedImage):
        read_image(cut)


def test_a_file_that_is_no_photo_is_still_none(tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    assert read_image(text) is None


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_whole_photos_still_read_alike(tmp_path, suffix, photo):
    image = cv2.imread(str(photo))
    grey = tmp_path / f"grey{suffix}"
    assert cv2.imwrite(str(grey), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    whole = tmp_path / f"whole{suffix}"
    assert cv2.imwrite(str(whole), image)
    for path in (whole, grey):
        assert (read_image(path) == cv2.imread(str(path))).all()
