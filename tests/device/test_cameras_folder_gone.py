"""The file camera's folder disappearing while it runs is said once, for the folder, not once per photo."""

from __future__ import annotations

import logging
import shutil

import cv2
import numpy as np
import pytest

from device.cameras import open_camera
from device.tray.loop import TrayLoop


def test_a_folder_gone_is_one_line_for_the_folder(tmp_path, caplog):
    folder = tmp_path / "tray"
    folder.mkdir()
    rng = np.random.default_rng(7)
    for number in range(30):
        cv2.imwrite(str(folder / f"{number:02d}.jpg"), rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    statuses = []
    loop = TrayLoop(lambda: open_camera(f"file:{folder}", moving_frames=1), lambda frame, t: None,
                    lambda status, message: statuses.append((status, message)))
    loop.step()
    assert statuses == [("ok", None)]
    shutil.rmtree(folder)
    with caplog.at_level(logging.WARNING):
        with pytest.raises(ValueError, match="is gone"):
            loop.throw()
        loop.step()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not any("skipping" in line for line in warnings), warnings
    assert loop.status == ("reconnecting", f"file camera: the folder {folder} is gone")
