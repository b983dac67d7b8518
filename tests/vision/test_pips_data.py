"""tools/pips_data.py: the renders tools/train_pips.py --renders learns from."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tools.pips_data import RENDER_SIDE, rendered_photos


def _render_folder(tmp_path, entries):
    for entry, image in entries:
        cv2.imwrite(str(tmp_path / entry["file"]), image)
    (tmp_path / "labels.json").write_text(json.dumps({"images": [entry for entry, _ in entries]}))
    return tmp_path


def test_renders_give_their_pip_dice_at_the_size_they_are_loaded(tmp_path):
    pip = {"value": 5, "sides": 6, "kind": "d6-pips", "box": [100, 200, 260, 380], "center": [180.0, 280.0],
           "cocked": False}
    cocked = {**pip, "value": None, "cocked": True, "box": [1000, 500, 1100, 600], "center": [1050.0, 550.0]}
    d20 = {**pip, "value": 20, "sides": 20, "kind": "d20"}
    folder = _render_folder(tmp_path, [
        ({"file": "a.jpg", "dice": [pip, d20, cocked]}, np.zeros((1080, 1920, 3), np.uint8)),
        ({"file": "b.jpg", "dice": [d20]}, np.zeros((240, 320, 3), np.uint8)),  # no pip d6: not learned from
        ({"file": "c.jpg", "dice": [pip]}, np.zeros((480, 640, 3), np.uint8))])
    loaded = rendered_photos(folder)
    assert [p.path.name for p, _ in loaded] == ["a.jpg", "c.jpg"]
    (big, big_image), (small, small_image) = loaded
    assert max(big_image.shape[:2]) == RENDER_SIDE and small_image.shape[:2] == (480, 640)
    scale = RENDER_SIDE / 1920
    assert [d["value"] for d in big.dice] == [5, None] and big.dice[1]["cocked"]
    assert big.targets[0] == pytest.approx((180 * scale, 280 * scale, 180 * scale))  # top face, whole die
    assert small.targets == [pytest.approx((180.0, 280.0, 180.0))]
    assert all(p.source == "render" for p, _ in loaded)


def test_a_folder_without_labels_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError):
        rendered_photos(tmp_path)
