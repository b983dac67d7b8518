"""The pip count (vision/pip_count.py) and its rule: a die the classifier is unsure of would be
read only when the count of its top face agrees with the classifier's value (measured by
benchmarks/vision_generalise.py --pip-count; not wired into the reader)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pip_count import confirms, count_die, count_pips
from vision.scoring import load_labels
from vision.synthetic import render_tray


def _face(pips: list[tuple[float, float]], body=(235, 235, 235), ink=(20, 20, 20), side=60) -> np.ndarray:
    """A crop of one flat die filling it: ``pips`` at (x, y) in units of the side."""
    crop = np.full((side, side, 3), body, np.uint8)
    for x, y in pips:
        cv2.circle(crop, (round(x * side), round(y * side)), round(0.09 * side), ink, -1, cv2.LINE_AA)
    return crop


FIVE = [(0.28, 0.28), (0.72, 0.28), (0.5, 0.5), (0.28, 0.72), (0.72, 0.72)]


def _truth_centre(die: dict) -> tuple[tuple[float, float], float]:
    x0, y0, x1, y1 = die["box"]
    return ((x0 + x1) / 2, (y0 + y1) / 2), float(max(x1 - x0, y1 - y0))


def test_counts_drawn_dice_of_every_face_and_colour():
    counted, total = 0, 0
    for seed in range(12):
        image, truth = render_tray(seed, count=6)
        for die in truth:
            n = count_die(image, *_truth_centre(die))
            assert n in (None, die["value"]), (seed, die)
            counted += n is not None
            total += 1
    assert counted >= 0.9 * total


def test_counts_a_face_whatever_its_polarity_and_turn():
    assert count_pips(_face(FIVE)) == 5
    assert count_pips(_face(FIVE, body=(30, 20, 140), ink=(240, 240, 240))) == 5  # white pips on a red die
    turned = cv2.warpAffine(_face(FIVE), cv2.getRotationMatrix2D((29.5, 29.5), 30, 0.9), (60, 60),
                            borderValue=(120, 120, 120))
    assert count_pips(turned) == 5


@pytest.mark.parametrize("crop", [
    _face([]),  # a plain face
    _face([(0.3, 0.3), (0.7, 0.3), (0.5, 0.72)]),  # three spots in a triangle: no d6 face
    _face([(0.25, 0.25), (0.5, 0.25), (0.75, 0.25), (0.25, 0.5), (0.5, 0.5), (0.75, 0.5), (0.5, 0.75)]),  # seven
    _face([(0.2, 0.2), (0.4, 0.4)]),  # two pips off the die's centre (a side face's)
], ids=["plain", "triangle", "seven", "off-centre"])
def test_no_count_for_spots_that_are_no_d6_face(crop):
    assert count_pips(crop) is None


def test_no_count_under_glare():
    crop = _face(FIVE, body=(150, 150, 150))
    assert count_pips(crop) == 5
    cv2.circle(crop, (24, 38), 6, (255, 255, 255), -1)  # a highlight on the face, lighter than it
    assert count_pips(crop) is None


def _drawn_die(value: int):
    image, truth = render_tray(7, values=[value])
    return image, *_truth_centre(truth[0])


def test_an_unsure_value_the_count_agrees_with_is_confirmed():
    image, centre, side = _drawn_die(5)
    assert confirms(image, centre, side, 5, 0.45, minimum=0.2)


@pytest.mark.parametrize(("value", "p"), [
    (3, 0.45),  # the count (5) disagrees with the classifier's value
    (5, 0.1),  # the count agrees but the classifier's value is below the minimum
], ids=["disagrees", "too-unsure"])
def test_an_unsure_value_stays_unconfirmed(value, p):
    image, centre, side = _drawn_die(5)
    assert not confirms(image, centre, side, value, p, minimum=0.2)


def test_a_die_that_cannot_be_counted_is_never_confirmed():
    image, (x, y), side = _drawn_die(5)
    cv2.circle(image, (round(x - 0.1 * side), round(y + 0.15 * side)), round(0.1 * side), (255, 255, 255), -1)
    assert count_die(image, (x, y), side) is None  # glare on the face
    assert not confirms(image, (x, y), side, 5, 0.45, minimum=0.2)


@pytest.mark.parametrize(("source", "least"), [("byler-tray-d6", 0.5), ("penlington-desk-d6", 0.5)])
def test_real_dice_counted_at_their_labels_boxes(real_photos, source, least):
    """The sample's labelled dice (byler's coloured and marbled ones, penlington's oblique white
    ones): most are counted, and a count given is nearly always the label."""
    counted = right = total = 0
    for path, entry in load_labels(real_photos.folder(f"real-dice/{source}")):
        image = cv2.imread(str(path))
        for die in entry["dice"]:
            n = count_die(image, *_truth_centre(die))
            total += 1
            counted += n is not None
            right += n == die["value"]
    assert counted >= least * total
    assert right >= 0.9 * counted
