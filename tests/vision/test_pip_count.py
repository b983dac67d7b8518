"""The pip count (vision/pip_count.py) and the pip reader's use of it: a die the classifier is
unsure of is read only when the count of its top face agrees with the classifier's value."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import pip_count
from vision.pip_count import count_die, count_pips
from vision.scoring import Score, load_labels, score_photo
from vision.synthetic import render_tray
from vision.tray import COCKED, VALUE_MIN, PipReader

NO_COUNT = 2.0  # an agree_min no value reaches: the reader without the count


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


def _unsure_reader(monkeypatch, value: int, p: float, agree_min: float = pip_count.AGREE_MIN) -> PipReader:
    """The shipped reader whose classifier gives every crop ``value`` (1..6) at probability ``p``
    given a die (the rest spread over the other values), a die 0.98 likely, never cocked."""
    reader = PipReader(agree_min=agree_min)
    probs = np.zeros(COCKED + 1)
    probs[0] = 0.02
    probs[1:COCKED] = 0.98 * (1 - p) / 5
    probs[value] = 0.98 * p

    def classify(crops):
        return np.tile(probs, (len(crops), 1))

    monkeypatch.setattr(reader, "classify", classify)
    return reader


def _drawn_die(value: int):
    image, truth = render_tray(7, values=[value])
    centre, side = _truth_centre(truth[0])
    assert count_die(image, centre, side) == value
    return image, [(centre[0], centre[1], side)]


def test_an_unsure_die_whose_count_agrees_is_read(monkeypatch):
    image, places = _drawn_die(5)
    die = _unsure_reader(monkeypatch, 5, 0.45).read_at(image, places)[0]
    assert 0.45 < VALUE_MIN
    assert (die.value, die.unreadable) == (5, None)
    assert die.confidence == pytest.approx(0.45)


@pytest.mark.parametrize(("value", "p", "agree_min"), [
    (3, 0.45, pip_count.AGREE_MIN),  # the count (5) disagrees with the classifier's value
    (5, 0.1, pip_count.AGREE_MIN),  # the count agrees but the classifier's value is below AGREE_MIN
    (5, 0.45, NO_COUNT),  # the reader without the count
], ids=["disagrees", "too-unsure", "no-count"])
def test_an_unsure_die_stays_unreadable_with_its_reason(monkeypatch, value, p, agree_min):
    image, places = _drawn_die(5)
    die = _unsure_reader(monkeypatch, value, p, agree_min).read_at(image, places)[0]
    assert (die.value, die.unreadable) == (None, "ambiguous pips")


def test_a_die_that_cannot_be_counted_stays_unreadable(monkeypatch):
    image, places = _drawn_die(5)
    x, y, side = places[0]
    cv2.circle(image, (round(x - 0.1 * side), round(y + 0.15 * side)), round(0.1 * side), (255, 255, 255), -1)
    assert count_die(image, (x, y), side) is None  # glare on the face
    die = _unsure_reader(monkeypatch, 5, 0.45).read_at(image, places)[0]
    assert (die.value, die.unreadable) == (None, "ambiguous pips")


def test_a_sure_die_is_read_as_the_classifier_says_whatever_the_count(monkeypatch):
    image, places = _drawn_die(5)
    die = _unsure_reader(monkeypatch, 3, 0.9).read_at(image, places)[0]
    assert (die.value, die.unreadable) == (3, None)  # the count (5) is not asked


@pytest.mark.slow
def test_real_dice_the_classifier_is_never_sure_of_are_read_by_the_count(real_photos):
    """The shipped classifier made unsure of every die (a value threshold above 1): the dice
    read are those whose count agrees, nearly all right; without the count none is read."""
    counted, without = PipReader(value_min=1.01), PipReader(value_min=1.01, agree_min=NO_COUNT)
    score, read_without = Score(), 0
    for source in ("byler-tray-d6", "penlington-desk-d6"):
        for path, entry in load_labels(real_photos.folder(f"real-dice/{source}")):
            image = cv2.imread(str(path))
            dice = counted.read(image).dice
            score.add(score_photo(dice, entry["dice"])[0])
            read_without += sum(d.value is not None for d in without.read(image).dice)
    assert read_without == 0
    assert score.correct >= 0.5 * score.labelled
    assert score.wrong <= 0.03 * score.labelled
