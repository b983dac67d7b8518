"""The annotated photo: same shape, a new image, dice drawn on it."""

from __future__ import annotations

import numpy as np

from vision import annotate
from vision.reading import DieReading, TrayReading


def test_annotate_draws_on_a_copy_of_the_same_shape():
    image = np.full((120, 160, 3), 200, np.uint8)
    dice = [
        DieReading(4, 6, (10, 10, 50, 50), (30.0, 30.0), "red", 0.9, principal=True),
        DieReading(None, 6, (80, 60, 120, 100), (100.0, 80.0), "white", 0.0, unreadable="cocked"),
    ]
    out = annotate(image, TrayReading(dice, (160, 120), 0.01))
    assert out.shape == image.shape and out.dtype == np.uint8
    assert out is not image and (image == 200).all()
    assert (out[10, 10:50] != 200).any()  # the box of the first die
    assert (out[60:100, 80] != 200).any()  # the unreadable die is drawn too


def test_annotate_without_dice_is_a_plain_copy():
    image = np.random.default_rng(1).integers(0, 255, (30, 40, 3), dtype=np.uint8)
    out = annotate(image, TrayReading([], (40, 30), 0.0))
    assert np.array_equal(out, image) and out is not image


def test_a_photo_for_every_language_carries_the_values_alone():
    """The page's photos (words=False): "4" and "?", not "4 red" and "? cocked"."""
    image = np.full((120, 160, 3), 200, np.uint8)
    dice = [DieReading(4, 6, (10, 40, 50, 80), (30.0, 60.0), "red", 0.9),
            DieReading(None, 6, (80, 60, 120, 100), (100.0, 80.0), "white", 0.0, unreadable="cocked")]
    reading = TrayReading(dice, (160, 120), 0.01)
    neutral = annotate(image, reading, words=False)
    assert np.array_equal(neutral, annotate(image, reading, labels=["4", "?"]))
    assert not np.array_equal(neutral, annotate(image, reading))
