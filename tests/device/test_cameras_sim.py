"""The simulated camera: synthetic throws that settle, with known dice."""

from __future__ import annotations

import numpy as np
import pytest

from device.cameras import open_camera
from device.tray.settle import SettleDetector
from vision.colors import PALETTE


def previews_until_settled(camera, detector: SettleDetector, start: float, limit: int = 20) -> int | None:
    """Preview frames pulled (5 a second) until the detector reports a settled tray."""
    for i in range(limit):
        if detector.update(camera.capture_preview(), start + i / 5):
            return i
    return None


def test_a_throw_rolls_in_and_settles_once():
    with open_camera("sim", seed=3) as camera:
        assert camera.can_throw
        empty = camera.capture()
        assert empty.shape == (640, 640, 3) and empty.dtype == np.uint8
        detector = SettleDetector()
        assert previews_until_settled(camera, detector, 0.0) is None  # no throw: nothing settles
        camera.throw(count=3)
        settled_at = previews_until_settled(camera, detector, 10.0)
        assert settled_at is not None and settled_at >= 4  # 4 frames of rolling dice first
        assert previews_until_settled(camera, detector, 20.0) is None  # and only once
        assert len(camera.truth) == 3
        assert camera.truth[0]["color"] == "red"  # the principal die
        assert all(d["color"] != "red" for d in camera.truth[1:])
        assert all(1 <= d["value"] <= 6 for d in camera.truth)
        assert not np.array_equal(camera.capture(), empty)


def test_the_dice_are_in_the_settled_frame():
    camera = open_camera("sim", seed=5, count=2, moving_frames=2)
    camera.throw()
    for _ in range(3):
        camera.capture_preview()
    frame = camera.capture()
    felt = np.median(frame.reshape(-1, 3), axis=0)
    for die in camera.truth:
        x0, y0, x1, y1 = die["box"]
        crop = frame[y0:y1, x0:x1].reshape(-1, 3)
        assert np.abs(crop.astype(float) - felt).max() > 60  # something unlike the floor is there


def test_the_same_seed_gives_the_same_throws():
    frames = []
    for _ in range(2):
        camera = open_camera("sim", seed=11, moving_frames=1, size=(320, 320))
        for count in (1, 4):
            camera.throw(count)
            camera.capture_preview()
            camera.capture_preview()
        frames.append((camera.capture(), camera.truth))
    assert np.array_equal(frames[0][0], frames[1][0]) and frames[0][1] == frames[1][1]
    assert len(frames[0][1]) == 4


def test_any_colours_without_a_principal_colour():
    camera = open_camera("sim", seed=2, count=8, principal_color=None, moving_frames=1)
    camera.throw()
    assert {d["color"] for d in camera.truth} <= set(PALETTE)
    assert len(camera.truth) == 8


def test_auto_throw_on_the_simulator():
    clock = type("Clock", (), {"t": 0.0, "__call__": lambda self: self.t})()
    camera = open_camera("sim", auto_throw=3, clock=clock, moving_frames=1, size=(200, 200))
    camera.capture_preview()
    clock.t = 2.9
    camera.capture_preview()
    assert camera.throws == 1
    clock.t = 3.0
    camera.capture_preview()
    assert camera.throws == 2


@pytest.mark.parametrize(("options", "message"), [
    ({"count": 0}, "1 to 8"),
    ({"count": 9}, "1 to 8"),
    ({"principal_color": "pink"}, "principal_color must be one of"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        open_camera("sim", **options)


def test_a_throw_of_too_many_dice_is_refused():
    camera = open_camera("sim")
    with pytest.raises(ValueError, match="1 to 8"):
        camera.throw(12)


def test_every_frame_of_a_throw_is_seen_moving():
    # Were two frames of a throw alike, a slow loop could take the throw as settled mid-roll.
    camera = open_camera("sim", seed=7, size=(320, 320))
    detector = SettleDetector()
    detector.update(camera.capture_preview(), -1.0)  # the empty tray
    for n in range(12):
        camera.throw(count=n % 3 + 1)
        for k in range(3):  # the fourth frame is the dice coming to rest
            detector.update(camera.capture_preview(), n * 10 + k / 5)
            assert detector.moving, (n, k)
        for k in range(3, 10):
            detector.update(camera.capture_preview(), n * 10 + k / 5)
