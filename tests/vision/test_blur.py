"""Out-of-focus dice (vision/blur.py): read only when sure, else "blurred"; real dice are sharp."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.blur import BLURRED, sharpness
from vision.scoring import Score, load_labels, score_photo
from vision.synthetic import render_tray
from vision.tray import BLURRED_VALUE_MIN, read_tray


def _die_sharpness(image, truth):
    x0, y0, x1, y1 = truth["box"]
    return sharpness(image, ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0))


def test_sharp_dice_measure_above_the_threshold_and_blurred_ones_below():
    for seed in range(4):
        sharp, truth = render_tray(seed)
        blurred, _ = render_tray(seed, blur=5.0)
        assert all(_die_sharpness(sharp, t) > 2 * BLURRED for t in truth)
        assert all(_die_sharpness(blurred, t) < BLURRED for t in truth)


@pytest.mark.parametrize("folder", ["byler-tray-d6", "penlington-desk-d6", "patterson-craps-d6-crops"])
def test_no_labelled_real_die_measures_blurred(folder, real_photos):
    for path, entry in load_labels(real_photos.folder(f"real-dice/{folder}")):
        image = cv2.imread(str(path))
        assert all(_die_sharpness(image, die) > BLURRED for die in entry["dice"]), path.name


@pytest.mark.slow
def test_a_blurred_die_is_read_only_when_sure_and_otherwise_said_to_be_blurred():
    score, reasons = Score(), Counter()
    for seed in range(6):
        image, truth = render_tray(seed, blur=5.0)
        reading = read_tray(image)
        score.add(score_photo(reading.dice, truth)[0])
        reasons.update(d.unreadable for d in reading.dice)
    assert score.wrong == 0
    assert reasons["blurred"] >= 0.25 * score.labelled and reasons["ambiguous pips"] == 0
    assert all(d.confidence >= BLURRED_VALUE_MIN for seed in range(3)
               for d in read_tray(render_tray(seed, blur=5.0)[0]).dice if d.value is not None)


@pytest.mark.slow
def test_sharp_dice_are_never_said_to_be_blurred():
    for seed in range(4):
        assert all(d.unreadable != "blurred" for d in read_tray(render_tray(seed)[0]).dice)


def test_a_flat_or_empty_square_has_no_sharpness():
    grey = np.full((50, 50, 3), 128, np.uint8)
    assert sharpness(grey, (25, 25), 20) == 0.0
    assert sharpness(grey, (-40, -40), 20) == 0.0
