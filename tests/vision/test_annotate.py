"""The annotated photo: same shape, a new image, dice drawn on it."""

from __future__ import annotations

import cv2
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
    assert _label_place((200, 100, 240, 140), (60, 15, 4), (400, 300), taken) == ((200, 97), 0)
    assert _label_place((10, 100, 50, 140), (60, 15, 4), (400, 300), []) == ((10, 97), 0)
    assert _label_place((10, 5, 50, 45), (60, 15, 4), (400, 300), []) == ((10, 63), 0)  # the top edge: below


def test_a_label_moves_along_its_die_before_it_covers_another():
    """Above its die, a label covering another's left part ends at the die's right edge instead."""
    taken = [(190, 80, 215, 101)]
    assert _label_place((200, 100, 240, 140), (20, 15, 4), (400, 300), taken) == ((220, 97), 0)


def test_a_crowded_tray_keeps_every_label_apart(monkeypatch):
    """Three dice in a row on a 640-px photo (byler's crowded trays), labels ("1 gold") wider
    than a die: the first's above it, the second's below, and the third's, which would cover
    one of them wherever it went whole, is its value alone; no label covers or touches another.
    The dice are placed by the label's width as this OpenCV draws it (its fonts differ by version)."""
    filled = []  # a label's black ground is the one filled rectangle drawn

    def rectangle(image, start, end, colour, thickness, *args):
        if thickness == cv2.FILLED:
            filled.append((*start, *end))
        return draw(image, start, end, colour, thickness, *args)

    def die(value, x):
        return DieReading(value, 6, (x, 100, x + 40, 140), (x + 20.0, 120.0), "gold", 0.9)

    draw = cv2.rectangle
    monkeypatch.setattr(cv2, "rectangle", rectangle)
    image = np.full((640, 640, 3), 200, np.uint8)
    annotate(image, TrayReading([die(1, 100)], (640, 640), 0.01))
    width = filled.pop()[2] - 100  # a whole label's
    # the third die ends where its value alone clears the first's label, and its whole label cannot
    annotate(image, TrayReading([die(1, 100), die(2, 142), die(3, 100 + width - 3)], (640, 640), 0.01))
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1), (cx0, cy0, cx1, cy1) = filled
    assert ay0 < 100 and by0 > 140 and bx0 == 142  # above the first die, below the second
    assert cx1 - cx0 < width / 2  # the value alone
    for k, (x0, y0, x1, y1) in enumerate(filled):  # drawn inclusive of their ends: apart by a pixel at least
        assert all(x1 < u0 or u1 < x0 or y1 < v0 or v1 < y0 for u0, v0, u1, v1 in filled[k + 1:])
