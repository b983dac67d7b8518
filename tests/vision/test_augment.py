"""tools/augment.py: what tools/train_pips.py --colour-jitter, --pip-negatives and --close-ups show the networks."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.augment import (
    CLOSE_SIDES,
    PIP_CROP,
    PIP_REACH,
    close_up,
    close_up_scale,
    close_up_share,
    pip_negatives,
    recolour,
)
from tools.pips_data import SOURCES, Photo, targets


def _red_die() -> np.ndarray:
    """A red face with one white pip on green felt, BGR."""
    image = np.full((64, 64, 3), (40, 140, 30), np.uint8)
    image[16:48, 16:48] = (30, 30, 200)
    cv2.circle(image, (32, 32), 5, (245, 245, 245), -1)
    return image


def test_recolour_shows_the_die_in_every_hue_and_grey_and_keeps_its_pips_lighter():
    image = _red_die()
    before = image.copy()
    rng = np.random.default_rng(1)
    bodies, greys = set(), 0
    for _ in range(200):
        out = recolour(image, rng)
        assert out.shape == image.shape and out.dtype == np.uint8
        body, pip = out[20, 20].astype(int), out[32, 32].astype(int)
        bodies.add(int(np.argmax(body)))
        greys += int(body.max() - body.min() < 8)
        assert pip.mean() > body.mean()  # a pip stays lighter than its face, whatever the colour
    assert bodies == {0, 1, 2}  # the red face also seen as blue and as green
    assert greys > 0
    np.testing.assert_array_equal(image, before)  # a copy recoloured, not the training photo


def test_recolour_is_repeated_by_its_seed():
    image = _red_die()
    first = [recolour(image, np.random.default_rng(7)) for _ in range(2)]
    np.testing.assert_array_equal(*first)


def _photo(targets) -> Photo:
    return Photo(Path("p.jpg"), "byler-tray-d6", [{"value": 1, "box": [0, 0, 1, 1]}] * len(targets), targets)


def test_pip_negatives_lie_inside_a_die_and_are_a_pip_or_a_few_across():
    photos = [_photo([(100.0, 100.0, 60.0), (300.0, 200.0, 40.0)]), _photo([(50.0, 60.0, 80.0)]), _photo([])]
    rng = np.random.default_rng(3)
    for _ in range(50):
        items = pip_negatives(photos, 2, rng)
        assert sorted(k for k, *_ in items) == [0, 0, 1]  # at most one a die, none on a photo without dice
        for k, x, y, side, label in items:
            assert label == 0
            die = min(photos[k].targets, key=lambda t: math.hypot(x - t[0], y - t[1]))
            assert math.hypot(x - die[0], y - die[1]) <= PIP_REACH * die[2] + 1e-9
            assert PIP_CROP[0] * die[2] <= side <= PIP_CROP[1] * die[2]


def test_no_pip_negatives_draws_nothing_so_the_shipped_recipe_is_unchanged():
    rng = np.random.default_rng(5)
    state = rng.bit_generator.state
    assert pip_negatives([_photo([(100.0, 100.0, 60.0)])], 0, rng) == []
    assert rng.bit_generator.state == state


def _sample_photos(real_photos, source: str) -> list[Photo]:
    """The photos of tests/data of one source, with tools/pips_data.py's targets."""
    folder = f"real-dice/{source}"
    return [Photo(path, source, entry["dice"], targets(source, entry["dice"]))
            for path, entry in zip(real_photos.photos(folder), real_photos.labels(folder).values(), strict=True)]


def test_pip_negatives_reach_down_to_a_single_pip_of_a_near_die(real_photos):
    # penlington's phantoms left out: single pips a median 0.2 of their die's side, 0.17 at the
    # 10th percentile; negatives of 0.2-0.45 reached only the largest of them
    photos = _sample_photos(real_photos, "penlington-desk-d6")
    rng = np.random.default_rng(11)
    shares = []
    for _ in range(40):
        for k, x, y, side, _label in pip_negatives(photos, 2, rng):
            die = min(photos[k].targets, key=lambda t: math.hypot(x - t[0], y - t[1]))
            shares.append(side / die[2])
    assert min(shares) < 0.12 and max(shares) > 0.4
    assert np.mean(np.array(shares) < 0.2) > 0.15  # a single pip is no rare sight


@pytest.mark.parametrize("source", SOURCES)
def test_close_ups_show_the_dice_so_near_that_their_pips_are_the_size_of_dice(real_photos, source):
    rng = np.random.default_rng(2)
    for photo in _sample_photos(real_photos, source):
        side = float(np.median([s for _, _, s in photo.targets]))
        seen = [side * close_up_scale([s for _, _, s in photo.targets], rng) for _ in range(200)]
        assert CLOSE_SIDES[0] - 1e-6 <= min(seen) < 90 and 150 < max(seen) <= CLOSE_SIDES[1] + 1e-6
    # a pip, 0.1-0.2 of its die's side, is then 8-32 px: the size of the dice the detector learned
    assert 0.1 * CLOSE_SIDES[0] >= 8 and 0.2 * CLOSE_SIDES[1] <= 32


@pytest.mark.parametrize("share", [0.05, 0.15, 0.5])
def test_close_ups_are_the_share_of_windows_asked_for(share):
    rng = np.random.default_rng(3)
    drawn = [close_up([40.0, 44.0], share, rng) for _ in range(4000)]
    near = [scale for scale in drawn if scale is not None]
    assert abs(len(near) / len(drawn) - share) < 0.02
    assert all(CLOSE_SIDES[0] - 1e-6 <= 42.0 * scale <= CLOSE_SIDES[1] + 1e-6 for scale in near)


def test_no_close_ups_draws_nothing_so_a_run_without_them_is_unchanged():
    rng = np.random.default_rng(4)
    assert close_up([40.0], 0.0, rng) is None and close_up([], 0.5, rng) is None
    assert rng.random() == np.random.default_rng(4).random()


@pytest.mark.parametrize("text", ["0", "-0.1", "1.5", "nan", "half"])
def test_a_close_up_share_that_is_none_is_refused_saying_why(text):
    with pytest.raises(argparse.ArgumentTypeError, match="no share of windows: give a number over 0 and at most 1"):
        close_up_share(text)


def test_a_close_up_share_is_read_as_a_number():
    assert close_up_share("0.05") == 0.05 and close_up_share("1") == 1.0
