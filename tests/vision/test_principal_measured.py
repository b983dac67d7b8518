"""The principal die by the colour measured on the table's own die (RULES D6-2a): found again
when the light changes, asked for when two dice are about that colour, the name's rule when
no die is near it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import colors
from vision.principal import CLEAR_MARGIN, MeasuredColor, find_measured, mark_measured, mark_principal
from vision.reading import DieReading
from vision.synthetic import render_tray

SOURCE = "real-dice/byler-tray-d6"
#: the sample's byler photos whose principal die is the one die of a colour no other has: a
#: yellow die whose body clips white at ×1.4, a red one with a near-red twin, a blue one
PHOTOS = ("IMG_20191208_112340.jpg", "IMG_20191209_095859.jpg", "IMG_20191209_095453.jpg")
LIGHTS = {"×0.6": (0.6, 0.6, 0.6), "×1.4": (1.4, 1.4, 1.4), "warm": (0.75, 0.9, 1.1), "cool": (1.15, 1.0, 0.85)}


def lit(image, gains):
    return np.clip(np.rint(image.astype(np.float32) * np.float32(gains)), 0, 255).astype(np.uint8)


def dice_of(image, boxes):
    dice = [DieReading(None, 6, tuple(box), (0.0, 0.0), "", 0.0) for box in boxes]
    colors.name_dice_colors(image, dice)
    return dice


def principal(dice):
    return [i for i, die in enumerate(dice) if die.principal]


@pytest.mark.parametrize("name", PHOTOS)
@pytest.mark.parametrize("light", LIGHTS)
def test_the_measured_principal_die_is_found_under_another_light(real_photos, name, light):
    image = cv2.imread(str(real_photos.photo(SOURCE, name)))
    boxes = [die["box"] for die in real_photos.labels(SOURCE)[name]["dice"]]
    original = dice_of(image, boxes)
    assert mark_principal(original) is None
    chosen = principal(original)[0]
    measured = MeasuredColor(original[chosen].color, colors.dice_lab(image, boxes)[chosen])
    seen = lit(image, LIGHTS[light])
    dice = dice_of(seen, boxes)
    assert mark_measured(seen, dice, measured) is None
    assert principal(dice) == [chosen]


def test_two_dice_of_about_the_measured_colour_are_asked_for_not_guessed():
    image, truth = render_tray(3, values=[2, 5, 4], colors=["blue", "blue", "white"], rotation=False)
    boxes = [t["box"] for t in truth]
    dice = dice_of(image, boxes)
    first, second, _ = colors.dice_lab(image, boxes)
    measured = MeasuredColor("blue", tuple((a + b) / 2 for a, b in zip(first, second, strict=True)))
    assert mark_measured(image, dice, measured) == "several dice of about the measured blue"
    assert principal(dice) == []


def test_no_die_near_the_measured_colour_leaves_the_name_s_rule():
    image, truth = render_tray(4, values=[2, 5], colors=["red", "white"], rotation=False)
    boxes = [t["box"] for t in truth]
    dice = dice_of(image, boxes)
    far = MeasuredColor("red", (30.0, -40.0, -40.0))  # nothing on this tray is that teal
    assert mark_measured(image, dice, far) is None
    assert [dice[i].color for i in principal(dice)] == ["red"]
    assert mark_measured(image, dice, MeasuredColor("green", far.lab)) == "no die of colour green"


def test_a_measured_colour_round_trips_and_a_bad_one_is_refused():
    measured = MeasuredColor("blue", (20.04, 3.06, -30.0))
    assert MeasuredColor.from_dict(measured.to_dict()) == MeasuredColor("blue", (20.0, 3.1, -30.0))
    for bad in ({"name": "teal", "lab": [1, 2, 3]}, {"name": "blue", "lab": [1, 2]}, {"name": "blue"},
                {"name": "blue", "lab": [1, 2, float("nan")]}, ["blue"]):
        with pytest.raises(ValueError, match="a measured colour is"):
            MeasuredColor.from_dict(bad)


def test_a_die_is_taken_only_when_clearly_nearer_than_any_other():
    measured = (40.0, 10.0, 10.0)
    assert find_measured([(40.0, 10.0, 10.0), (40.0, 10.0, 10.0 + CLEAR_MARGIN / 2)], measured) == "several near"
    assert find_measured([(40.0, 10.0, 10.0), (40.0, 10.0, 10.0 + 2 * CLEAR_MARGIN)], measured) == 0
    assert find_measured([(40.0, 18.0, 10.0), (40.0, 10.0, 20.0)], measured) == "several near"  # 8 and 10 away
    assert find_measured([(40.0, 40.0, 10.0)], measured) == "none near"
    assert find_measured([(70.0, 10.0, 10.0)], measured) == 0  # 30 L* apart: lightness weighs half
