"""vision/adapt.py, vision/adapt_features.py: the shortcuts of the fit and of a reading with the
layer give what the plain computation gives (issue 17: the same layer, the same readings)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import adapt, adapt_features, numerals
from vision.adapt_features import _Looked
from vision.reading import DieReading


def _crops(side, n=9, seed=3):
    return np.random.default_rng(seed).integers(0, 256, (n, side, side, 3), dtype=np.uint8)


@pytest.mark.parametrize("side", [40, 48])  # the pip reader's crops, the numbered reader's
def test_the_rings_gathered_at_once_are_each_crops_polar_warp(side):
    crops = _crops(side)
    half = side / 2
    warps = []
    for crop in crops:
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        grey = (grey - grey.mean()) / (grey.std() + 1.0)
        warps.append(cv2.warpPolar(grey, (adapt_features.RINGS, adapt_features.ANGLES), (half, half), half * 0.9,
                                   cv2.WARP_POLAR_LINEAR))
    spectrum = np.abs(np.fft.rfft(np.stack(warps), axis=1))[:, :adapt_features.HARMONICS] / adapt_features.ANGLES
    expected = spectrum.transpose(0, 2, 1).reshape(len(crops), -1)
    assert np.array_equal(adapt_features._polar(crops), expected)  # bit for bit


def test_the_grey_of_three_summed_bytes_is_numpys_float_mean():
    crops = _crops(40, 20)
    assert np.array_equal(adapt_features._mean_of_channels(crops), crops.astype(np.float32).mean(axis=3))


def _die(value, x, side, confidence=0.9, kind=None):
    box = (x, 0, x + side, side)
    center = (x + side / 2, side / 2)
    if kind is None:
        return DieReading(value=value, sides=6, box=box, center=center, color="white", confidence=confidence)
    return numerals.NumberedReading(value=value, sides=numerals.SIDES[kind], box=box, center=center, color="white",
                                    confidence=confidence, kind=kind, face=numerals.face_symbol(kind, value))


def _unsure(die, value_min):
    if die.value is None or die.confidence >= value_min:
        return die
    return replace(die, value=None)


@pytest.mark.parametrize("partial", [False, True])
def test_the_value_thresholds_counted_at_once_are_each_counted_alone(partial):
    dice = [_die(3, 0, 20, 0.95), _die(4, 30, 20, 0.55), _die(None, 60, 20, 0.2), _die(2, 90, 20, 0.35),
            _die(5, 200, 20, 0.99), _die(7, 120, 20, 0.7, kind="d10")]
    labels = [adapt.Example("d6-pips", 3, (0, 0, 20, 20)), adapt.Example("d6-pips", 4, (30, 0, 50, 20)),
              adapt.Example("d6-pips", 1, (60, 0, 80, 20)), adapt.Example("d6-pips", 6, (90, 0, 110, 20)),
              adapt.Example("d6-pips", 7 - 1, (150, 0, 170, 20)), adapt.Example("d10", 7, (120, 0, 140, 20))]
    _, pairs = adapt.score_photo(dice, [{"box": list(e.box), "value": e.value} for e in labels])
    at_once = [adapt.Figures() for _ in adapt.VALUE_MINS]
    adapt._add_unsure(at_once, adapt.VALUE_MINS, dice, labels, pairs, partial)
    for figures, v in zip(at_once, adapt.VALUE_MINS, strict=True):
        alone = adapt.Figures()
        alone.add([_unsure(d, v) for d in dice], labels, pairs, partial)
        assert figures == alone
    assert (at_once[0].right, at_once[0].wrong, at_once[-1].right, at_once[-1].wrong) == (3, 1, 1, 0)


def test_a_die_below_the_heat_leaves_the_die_it_lay_on_a_die():
    # a large die at a low heat with a small part of it at a higher one: at the low threshold the
    # part is left out (it lies on the die), at the higher one the die is not read and the part is
    backend = adapt.PipBackend()
    found = [(50.0, 50.0, 60.0, 0.15), (50.0, 50.0, 10.0, 0.6), (150.0, 50.0, 40.0, 0.5)]
    looked = _Looked(found, np.zeros((3, 7)), np.zeros((3, 1)))
    values = np.full((3, 6), 0.02)
    values[:, 2] = 0.9
    probs = (np.array([0.9, 0.9, 0.3]), values)  # the third no die for the die head
    image = np.zeros((100, 200, 3), np.uint8)
    dice = adapt._dice_of(backend, image, looked, probs, 0.6, ["d6-pips"])
    assert [peak for peak, _ in dice] == [0.15, 0.6]
    for heat, sides in ((0.1, [60]), (0.2, [10])):
        read = adapt._at_heat(dice, heat)
        assert [d.box[2] - d.box[0] for d in read] == sides
        assert read == adapt._readings(backend, image, looked, probs, heat, 0.6, ["d6-pips"])
        assert all(d.value == 3 for d in read)


def test_the_candidates_matched_once_are_handed_out_anew():
    backend = adapt.PipBackend()
    looked = _Looked([(10.0, 10.0, 20.0, 0.9), (60.0, 10.0, 20.0, 0.9)], np.zeros((2, 7)), np.zeros((2, 1)))
    labels = [adapt.Example("d6-pips", 4, (0, 0, 20, 20))]
    first = adapt._targets(backend, looked, labels)
    assert first.tolist() == [4, 0]
    first[1] = -1  # the fit marks a partial photo's unlabelled dice in its copy
    assert adapt._targets(backend, looked, labels).tolist() == [4, 0]
    other = [adapt.Example("d6-pips", 2, (50, 0, 70, 20))]  # other labels: matched again
    assert adapt._targets(backend, looked, other).tolist() == [0, 2]


def _head_read(real_photos, name: str, head: tuple[str, int], taught: list[str]):
    """The shipped reader's one die of burks' photo ``name``, and the layer's reading of it when its
    head is 0.95 sure of ``head`` (kind, value), ``taught`` the kinds taught."""
    image = cv2.imread(str(real_photos.photo("real-polyhedral/burks-tray-polyhedral", name)))
    (die,) = numerals.read_numbered(image).dice
    backend = adapt.NumberedBackend()
    (x, y), side = die.center, die.box[2] - die.box[0]
    looked = _Looked([(x, y, float(side), 0.9)], np.zeros((1, 7)), np.zeros((1, 1)))
    values = np.full((1, len(backend.classes) - 1), 0.001)
    values[0, backend.classes.index(head) - 1] = 0.95
    (_, read), = adapt._dice_of(backend, image, looked, (np.array([0.9]), values), 0.8, taught)
    return die, read


def test_an_untaught_d12_is_read_by_the_face_network_never_by_the_layer_s_value_head(real_photos):
    # the layer's value head learned no d12 (only d6s taught): its "3" on burks' d12 showing 11 is
    # not given; the face-value network reads the die, as the reader alone does
    die, read = _head_read(real_photos, "burks_012.jpg", ("d12", 3), ["d6"])
    assert (die.kind, die.value) == ("d12", 11)
    assert (read.kind, read.value, read.unreadable) == ("d12", 11, None)
    # taught d12s: the layer's head decides
    _, taught = _head_read(real_photos, "burks_012.jpg", ("d12", 3), ["d12"])
    assert (taught.kind, taught.value) == ("d12", 3)


def test_an_untaught_percentile_die_is_read_as_one_by_the_face_network(real_photos):
    # its "30" is a percentile die's 3: read as the reader alone reads it, not as a d10's numeral
    _, read = _head_read(real_photos, "burks_054.jpg", ("d10-percentile", 7), ["d6"])
    assert (read.kind, read.value, read.face, read.unreadable) == ("d10-percentile", 3, "30", None)
