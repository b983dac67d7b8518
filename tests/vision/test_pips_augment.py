"""tools/pips_augment.py: what tools/train_pips.py --colour-jitter and --pip-negatives show the networks."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from tools.pips_augment import PIP_CROP, PIP_REACH, pip_negatives, recolour
from tools.pips_data import Photo


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
