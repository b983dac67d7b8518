"""The annotated photo: same shape, a new image, dice drawn on it."""

from __future__ import annotations

import numpy as np

from vision import annotate
from vision.annotate import _label_place
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


def test_a_label_stays_readable_on_a_phone_whatever_the_photos_size():
    """Trial fault 17: on a 1280 px photo the labels were about 6 px high on a phone. Shown
    whole 360 px wide, a label's box (black, under its digits) is at least 12 px high."""
    for width, height in ((640, 480), (1280, 960), (2592, 1944)):
        image = np.full((height, width, 3), 200, np.uint8)
        size = width // 20
        die = DieReading(5, 6, (width // 2, height // 2, width // 2 + size, height // 2 + size),
                         (width / 2 + size / 2, height / 2 + size / 2), "red", 0.9)
        out = annotate(image, TrayReading([die], (width, height), 0.01), words=False)
        black = np.where((out[:, width // 2: width // 2 + size] == 0).all(axis=2).any(axis=1))[0]
        shown_px = (black.max() - black.min() + 1) * 360 / width
        assert shown_px >= 12, (width, shown_px)


def test_touching_dice_labels_do_not_cover_each_other():
    """A crowded tray: two dice side by side with long labels ("? ambiguous pips"). The first's
    label is above it; the second's, which would cover it there, goes below its die."""
    image = np.full((300, 400, 3), 200, np.uint8)
    dice = [DieReading(None, 6, (100, 100, 140, 140), (120.0, 120.0), "white", 0.3, unreadable="ambiguous pips"),
            DieReading(None, 6, (142, 100, 182, 140), (162.0, 120.0), "white", 0.3, unreadable="ambiguous pips")]
    out = annotate(image, TrayReading(dice, (400, 300), 0.01))
    black = (out == 0).all(axis=2)
    assert black[60:100, 100:142].any()    # the first die's label, above it
    assert black[140:190, 142:182].any()   # the second's, below its die
    assert not black[140:190, 100:142].any()


def test_a_label_keeps_above_its_die_when_nothing_is_in_the_way():
    taken = [(0, 0, 50, 20)]
    assert _label_place((200, 100, 240, 140), (60, 15, 4), (400, 300), taken) == (200, 97)
    assert _label_place((10, 100, 50, 140), (60, 15, 4), (400, 300), []) == (10, 97)
    assert _label_place((10, 5, 50, 45), (60, 15, 4), (400, 300), []) == (10, 63)  # the top edge: below
