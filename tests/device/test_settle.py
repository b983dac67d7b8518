"""Settle detection on synthetic throw sequences: frames with times, no sleeping."""

from __future__ import annotations

import random

import numpy as np
import pytest

from device.tray.settle import SettleDetector

FPS = 10  # preview frames per second, as the tray loop pulls them
FELT = (40, 110, 30)  # BGR of a green tray


def tray(dice: list[tuple[int, int]], rng: np.random.Generator, *, noise: float = 6.0,
         brightness: int = 0, size: tuple[int, int] = (320, 240)) -> np.ndarray:
    """A preview frame: felt with sensor noise and white 24 px dice at the given corners."""
    width, height = size
    frame = np.empty((height, width, 3), np.float32)
    frame[:] = FELT
    for x, y in dice:
        frame[y:y + 24, x:x + 24] = (235, 235, 235)
    frame += rng.normal(0, noise, frame.shape) + brightness
    return np.clip(frame, 0, 255).astype(np.uint8)


def feed(detector: SettleDetector, frames: list[np.ndarray], start: float) -> list[float]:
    """Times at which the detector reported a settled tray."""
    settled = []
    for i, frame in enumerate(frames):
        t = start + i / FPS
        if detector.update(frame, t):
            settled.append(t)
    return settled


def throw(rng: np.random.Generator, seconds: float, end: list[tuple[int, int]]) -> list[np.ndarray]:
    """Frames of dice bouncing around the tray and landing at ``end``."""
    n = round(seconds * FPS)
    frames = []
    for i in range(n):
        if i == n - 1:
            dice = [(x + 6, y - 5) for x, y in end]  # last bounce, just before landing
        else:
            dice = [(int(rng.integers(0, 290)), int(rng.integers(0, 210))) for _ in end]
        frames.append(tray(dice, rng))
    return frames


def still(rng: np.random.Generator, seconds: float, dice: list[tuple[int, int]], **kw) -> list[np.ndarray]:
    return [tray(dice, rng, **kw) for _ in range(round(seconds * FPS))]


def test_one_result_per_throw_after_the_still_time():
    rng = np.random.default_rng(1)
    landed = [(100, 80), (180, 150)]
    before = still(rng, 1.0, [])
    moving = throw(rng, 1.2, landed)
    after = still(rng, 3.0, landed)
    detector = SettleDetector(still_seconds=0.4)
    settled = feed(detector, before + moving, 0.0)
    assert settled == []  # an empty still tray, then moving dice: no result
    first_still = (len(before) + len(moving)) / FPS
    settled = feed(detector, after, first_still)
    assert len(settled) == 1  # three still seconds: still only one result
    assert settled[0] == pytest.approx(first_still + 0.4)


@pytest.mark.slow
def test_a_new_throw_gives_a_new_result():
    rng = np.random.default_rng(2)
    frames = (throw(rng, 0.8, [(50, 50)]) + still(rng, 1.0, [(50, 50)])
              + throw(rng, 0.8, [(200, 120)]) + still(rng, 1.0, [(200, 120)]))
    settled = feed(SettleDetector(still_seconds=0.4), frames, 10.0)
    assert settled == pytest.approx([10.0 + 0.8 + 0.4, 10.0 + 2.6 + 0.4])


@pytest.mark.slow
def test_a_pause_shorter_than_the_still_time_is_not_a_result():
    rng = np.random.default_rng(3)
    # The dice stop for 0.2 s on the rim, then roll on and land elsewhere.
    frames = (throw(rng, 0.5, [(60, 60)]) + still(rng, 0.2, [(60, 60)])
              + throw(rng, 0.5, [(220, 40)]) + still(rng, 1.0, [(220, 40)]))
    settled = feed(SettleDetector(still_seconds=0.4), frames, 0.0)
    assert settled == pytest.approx([1.2 + 0.4])


@pytest.mark.slow
def test_sensor_noise_and_exposure_drift_are_not_movement():
    rng = np.random.default_rng(4)
    dice = [(100, 100), (40, 170)]
    frames = [tray(dice, rng, noise=10.0, brightness=random.Random(4).randint(-4, 4)) for _ in range(100)]
    detector = SettleDetector(still_seconds=0.4)
    assert feed(detector, frames, 0.0) == []
    assert not detector.moving


def test_no_result_while_a_die_creeps():
    rng = np.random.default_rng(5)
    # A die sliding slowly: 1 px a frame, too little between two frames, for 1.5 s.
    creep = [tray([(60 + i, 100)], rng) for i in range(15)]
    frames = throw(rng, 0.5, [(60, 100)]) + creep + still(rng, 1.0, [(74, 100)])
    settled = feed(SettleDetector(still_seconds=0.4), frames, 0.0)
    assert settled == pytest.approx([(5 + 14) / FPS + 0.4])  # the last creeping frame is where it stops


def test_grey_frames_and_zero_still_time():
    rng = np.random.default_rng(6)
    frames = [f[:, :, 1].copy() for f in throw(rng, 0.5, [(30, 30)]) + still(rng, 0.5, [(30, 30)])]
    # still since the first landed frame, which the next frame confirms
    assert feed(SettleDetector(still_seconds=0.0), frames, 0.0) == pytest.approx([0.6])


def test_reset_needs_a_fresh_throw():
    rng = np.random.default_rng(7)
    detector = SettleDetector(still_seconds=0.4)
    feed(detector, throw(rng, 0.5, [(30, 30)]) + still(rng, 0.1, [(30, 30)]), 0.0)
    detector.reset()  # e.g. the frame was read on request mid-throw
    assert feed(detector, still(rng, 2.0, [(30, 30)]), 0.6) == []


def test_a_throw_read_on_request_while_moving_gives_no_second_result():
    rng = np.random.default_rng(9)
    detector = SettleDetector(still_seconds=0.4)
    assert feed(detector, throw(rng, 0.5, [(30, 30)]), 0.0) == []
    detector.mark_read()  # "read now" pressed while the dice still roll
    assert feed(detector, throw(rng, 0.5, [(90, 30)]) + still(rng, 1.0, [(90, 30)]), 0.5) == []
    # the next throw is a new one
    assert feed(detector, throw(rng, 0.5, [(40, 90)]) + still(rng, 1.0, [(40, 90)]), 2.0) == pytest.approx([2.9])


def test_a_still_tray_read_on_request_leaves_the_next_throw_alone():
    rng = np.random.default_rng(10)
    detector = SettleDetector(still_seconds=0.4)
    assert feed(detector, still(rng, 1.0, [(30, 30)]), 0.0) == []
    detector.mark_read()
    assert feed(detector, throw(rng, 0.5, [(40, 90)]) + still(rng, 1.0, [(40, 90)]), 1.0) == pytest.approx([1.9])


def test_a_camera_changing_size_starts_over():
    rng = np.random.default_rng(8)
    detector = SettleDetector(still_seconds=0.4)
    feed(detector, throw(rng, 0.5, [(30, 30)]), 0.0)
    small = [tray([(30, 30)], rng, size=(160, 120)) for _ in range(3)]
    # a resized frame is not compared with the old one, but the throw's movement still counts
    assert feed(detector, small + still(rng, 0.0, []), 0.5) == []
    assert feed(detector, [tray([(30, 30)], rng, size=(160, 120)) for _ in range(5)], 0.8) == pytest.approx([0.9])


@pytest.mark.parametrize("frame", [
    np.zeros((10, 10, 4), np.uint8),
    np.zeros((10, 10, 3), np.float32),
    np.zeros(10, np.uint8),
])
def test_bad_frames_are_refused(frame):
    with pytest.raises(ValueError, match="preview frame"):
        SettleDetector().update(frame, 0.0)


@pytest.mark.parametrize("kwargs", [
    {"still_seconds": -1}, {"motion_fraction": 0}, {"motion_fraction": 1.5}, {"pixel_threshold": 0},
])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        SettleDetector(**kwargs)
