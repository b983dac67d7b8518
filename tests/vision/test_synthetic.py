"""The synthetic tray renderer: deterministic, truthful boxes, the dice asked for."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.colors import PALETTE
from vision.synthetic import render_motion, render_tray


def _dice_mask(image: np.ndarray, floor: tuple[int, int, int]) -> np.ndarray:
    """Pixels clearly not the plain floor (renders without light effects)."""
    diff = np.abs(image.astype(np.int16) - np.array(floor, np.int16)).max(axis=2)
    return (diff > 60).astype(np.uint8)


@pytest.mark.parametrize("options", [
    {},
    {"count": 12, "touching": True, "glare": 0.6, "shadow": 0.7, "noise": 6, "blur": 1.2},
    {"perspective": 0.7, "cocked": 2, "white_balance": (0.8, 1.0, 1.25)},
    {"marbled": 0.5, "rim": True},
])
@pytest.mark.slow
def test_same_seed_same_picture(options):
    first, truth = render_tray(7, **options)
    again, truth_again = render_tray(7, **options)
    other, _ = render_tray(8, **options)
    assert np.array_equal(first, again) and truth == truth_again
    assert not np.array_equal(first, other)
    assert first.dtype == np.uint8 and first.shape == (640, 640, 3)


def test_marbling_moves_no_die():
    plain, truth = render_tray(12, count=8)
    marbled, marbled_truth = render_tray(12, count=8, marbled=1.0)
    assert marbled_truth == truth
    assert not np.array_equal(plain, marbled)


def test_dice_stay_inside_the_rim():
    rim = round(0.07 * 480)
    for seed in range(4):
        image, truth = render_tray(seed, count=10, rim=True, size=(640, 480))
        assert image[5, 5].max() < 80  # the dark rim
        for t in truth:
            x0, y0, x1, y1 = t["box"]
            assert rim <= x0 and rim <= y0 and x1 <= 640 - rim and y1 <= 480 - rim


def test_size_is_width_by_height():
    image, _ = render_tray(1, size=(320, 240), count=2, die_px=(30, 34))
    assert image.shape == (240, 320, 3)


@pytest.mark.parametrize("seed", range(6))
def test_values_and_colours_are_the_ones_asked(seed):
    values = [1, 2, 3, 4, 5, 6, 6, 1]
    colors = list(PALETTE)
    _, truth = render_tray(seed, values=values, colors=colors)
    assert [t["value"] for t in truth] == values
    assert [t["color"] for t in truth] == colors
    assert all(t["sides"] == 6 and t["cocked"] is False for t in truth)


@pytest.mark.parametrize(("seed", "perspective"), [(s, p) for s in range(4) for p in (0.0, 0.6)])
def test_boxes_inside_the_image_and_around_each_die(seed, perspective):
    floor = (200, 200, 200)
    image, truth = render_tray(seed, count=6, colors="blue", floor=floor, perspective=perspective,
                               size=(480, 360), die_px=(30, 44))
    mask = _dice_mask(image, floor)
    covered = np.zeros_like(mask)
    for t in truth:
        x0, y0, x1, y1 = t["box"]
        assert 0 <= x0 < x1 <= 480 and 0 <= y0 < y1 <= 360
        inside = mask[y0:y1, x0:x1]
        # The die fills its box: a die at 45° fills half of it, less its white pips...
        assert inside.mean() > 0.35
        # ...and reaches all four sides of it (within the antialiased edge).
        assert inside[:3].any() and inside[-3:].any()
        assert inside[:, :3].any() and inside[:, -3:].any()
        covered[y0:y1, x0:x1] = 1
    assert mask[covered == 0].sum() == 0  # no die outside every box


@pytest.mark.slow
def test_touching_dice_touch():
    floor = (205, 205, 205)
    for seed in range(5):
        image, truth = render_tray(seed, count=6, colors="red", touching=True, floor=floor)
        n, _ = cv2.connectedComponents(_dice_mask(image, floor))
        assert n - 1 == 3, f"seed {seed}: 6 dice in pairs should make 3 blobs, got {n - 1}"


def test_apart_dice_do_not_touch():
    floor = (205, 205, 205)
    image, _ = render_tray(3, count=8, colors="green", floor=floor)
    n, _ = cv2.connectedComponents(_dice_mask(image, floor))
    assert n - 1 == 8


def test_pips_are_drawn():
    floor = (210, 210, 210)
    for value in range(1, 7):
        image, truth = render_tray(value, values=[value], colors=["white"], floor=floor,
                                   die_px=(80, 80), rotation=False)
        x0, y0, x1, y1 = truth[0]["box"]
        gray = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        n, _ = cv2.connectedComponents((gray < 100).astype(np.uint8))
        assert n - 1 == value


def test_one_colour_for_every_die():
    _, truth = render_tray(3, colors="purple")
    assert truth and all(t["color"] == "purple" for t in truth)


def test_cocked_dice_are_extra_and_have_no_value():
    _, truth = render_tray(4, values=[2, 5], cocked=2)
    assert [t["value"] for t in truth] == [2, 5, None, None]
    assert [t["cocked"] for t in truth] == [False, False, True, True]


@pytest.mark.parametrize(("options", "message"), [
    ({"values": [0]}, "1 to 6"),
    ({"values": [1, 2], "colors": ["red"]}, "another option"),
    ({"colors": ["teal"]}, "unknown colour"),
    ({"count": 200}, "cannot place"),
    ({"glare": 2.0}, "glare"),
    ({"perspective": -0.1}, "perspective"),
    ({"marbled": 1.5}, "marbled"),
])
@pytest.mark.slow
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        render_tray(1, **options)


@pytest.mark.slow
def test_a_throw_ends_in_the_settled_tray():
    settled, truth = render_tray(5, count=4)
    empty, none = render_motion(5, -0.5, count=4)
    assert none == [] and empty.std() < 20  # just the floor
    still, still_truth = render_motion(5, 2.0, count=4)
    assert np.array_equal(still, settled) and still_truth == truth
    frames = [render_motion(5, t, count=4)[0].astype(np.int16) for t in (0.3, 0.4, 0.98, 0.99)]
    fast = np.abs(frames[1] - frames[0]).mean()
    slow = np.abs(frames[3] - frames[2]).mean()
    assert fast > 5 * slow  # the dice slow down to rest


def test_throw_frames_are_deterministic_with_fresh_noise():
    a, _ = render_motion(9, 0.5, noise=4)
    b, _ = render_motion(9, 0.5, noise=4)
    c, _ = render_motion(9, 1.5, noise=4)
    d, _ = render_motion(9, 1.6, noise=4)
    assert np.array_equal(a, b)
    assert not np.array_equal(c, d)
    assert np.abs(c.astype(np.int16) - d).mean() < 8  # only noise differs once at rest
