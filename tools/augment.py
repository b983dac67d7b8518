"""What tools/train_pips.py and train_numerals.py show their networks so that they read trays they never saw
(issue 16).

No PyTorch here, so that tests read it in the run-time venv.

``--colour-jitter`` (:func:`recolour`): a die's pips are the same whatever its colour, and the
sources a network never learned from differ from the others mostly in body and floor colour
(patterson's translucent red and blue dice on green felt, which the detector leaving it out
finds only 0.16–0.35 hot). Hue turned, channels swapped, colour washed out to grey or
strengthened: applied to whole detector windows and classifier crops of real photos and
renders alike, so floors and bodies of every hue are seen.

``--pip-negatives`` (:func:`pip_negatives`): a crop the size of one pip or a few, centred inside
a labelled die, is background. Left out, penlington's close white dice have their pips read as
dice of their own (a single pip is a 1), the phantoms of its leave-one-source-out row: a median
0.2 of the die's side, 0.17 at the 10th percentile, so the crops reach down to 0.1.

``--close-ups`` (:func:`close_up_scale`): the detector sees some windows so close that their
dice are CLOSE_SIDES pixels across and their pips the size of the dice it learned; only the dice's
centres are heat there, so a near die's pip is no die (the detector proposed penlington's pips).
``--close-ups SHARE`` sets their share of windows (:func:`close_up_share`; CLOSE_SHARE without one).

``--varied`` (train_pips.py) and ``--varied-detector`` (both): another table's light and camera
(:func:`vary_light`), a window cut to one die filling it (:func:`filling`), a tilt (:func:`perspective`).
"""

from __future__ import annotations

import argparse
import math

import cv2
import numpy as np

#: :func:`recolour`: the chance of each change, drawn apart
HUE_SHARE = 0.5
SWAP_SHARE = 0.3
SATURATION_SHARE = 0.5
GREY_SHARE = 0.2
SATURATION = (0.3, 1.6)  # the saturation's scale
#: :func:`pip_negatives`: a crop's side over its die's, and how far from the die's centre it
#: lies (in the die's sides): one pip (0.1-0.2 of a side) to a few of the top face, never the whole die
PIP_CROP = (0.1, 0.45)
PIP_REACH = 0.32
#: :func:`close_up_scale`: the share of detector windows seen close up, and their dice's side in
#: the detector's input (pixels): their pips, 0.1-0.2 of it, are then 8-32 px, the size of the
#: dice it learned (tools/train_pips.py WIDE_SIDES 10-80); at most the window's side (160).
#: CLOSE_SHARE is ``--close-ups`` given no share (the runs of 2026-12-01)
CLOSE_SHARE = 0.15
CLOSE_SIDES = (80.0, 160.0)


def recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same dice in other colours: an H×W×3 uint8 BGR image with, each drawn apart, its hue
    turned by any angle (HUE_SHARE), its channels in another order (SWAP_SHARE), its saturation
    scaled by SATURATION (SATURATION_SHARE) and its colour washed toward grey, partly or wholly
    (GREY_SHARE). Brightness is kept (the value channel), so pips stay darker or lighter than
    their face. A new array; ``image`` is not changed."""
    out = image.copy()
    if rng.random() < SWAP_SHARE:
        out = np.ascontiguousarray(out[:, :, rng.permutation(3)])
    hue, saturate = rng.random() < HUE_SHARE, rng.random() < SATURATION_SHARE
    if hue or saturate:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV).astype(np.float32)
        if hue:  # OpenCV's 8-bit hue runs 0-179
            hsv[:, :, 0] = (hsv[:, :, 0] + rng.uniform(0, 180)) % 180
        if saturate:
            hsv[:, :, 1] = np.clip(hsv[:, :, 1] * rng.uniform(*SATURATION), 0, 255)
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < GREY_SHARE:
        grey = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        share = 1.0 if rng.random() < 0.5 else rng.uniform(0.3, 1.0)
        out = cv2.addWeighted(grey, share, out, 1 - share, 0)
    return out


def pip_negatives(photos, per_photo: int, rng: np.random.Generator) -> list[tuple[int, float, float, float, int]]:
    """Background crops (class 0) inside labelled dice: ``per_photo`` a photo (at most one a die),
    each centred within PIP_REACH of a die's side from its top face's centre, PIP_CROP of its
    side across, as tools/train_pips.py's ``_negatives`` gives them: (photo index, x, y, side
    pixels, 0). Cocked dice count too: a pip of any die is no die.

    :param photos: tools/pips_data.py ``Photo``-likes (their ``targets``: (x, y, side) pixels).
    """
    items: list[tuple[int, float, float, float, int]] = []
    if per_photo <= 0:  # no draw from rng: a run without them repeats the one before they existed
        return items
    for k, photo in enumerate(photos):
        dice = photo.targets
        for d in rng.permutation(len(dice))[:per_photo]:
            x, y, side = dice[int(d)]
            angle, reach = rng.uniform(0, 2 * math.pi), side * PIP_REACH * math.sqrt(rng.random())
            items.append((k, x + reach * math.cos(angle), y + reach * math.sin(angle),
                          side * rng.uniform(*PIP_CROP), 0))
    return items


def close_up_scale(sides: list[float], rng: np.random.Generator) -> float:
    """The factor that makes a photo's dice, the median of ``sides`` (pixels, at least one),
    a side drawn from CLOSE_SIDES (log-uniform) in the detector's input."""
    return math.exp(rng.uniform(math.log(CLOSE_SIDES[0]), math.log(CLOSE_SIDES[1]))) / float(np.median(sides))


def close_up_share(text: str) -> float:
    """``--close-ups SHARE``'s argparse type: the share of detector windows seen close up, a
    number over 0 and at most 1; else ``argparse.ArgumentTypeError`` saying so."""
    try:
        share = float(text)
    except ValueError:
        share = math.nan
    if not 0 < share <= 1:  # NaN fails too
        raise argparse.ArgumentTypeError(f"'{text}' is no share of windows: give a number over 0 and at most 1")
    return share


def close_up(sides: list[float], share: float, rng: np.random.Generator) -> float | None:
    """A detector window's close-up scale (:func:`close_up_scale`), drawn for a ``share`` (0-1) of
    windows, else None; ``share`` 0 (no ``--close-ups``) or no dice draws nothing from ``rng``,
    so such a run repeats the runs before close-ups existed."""
    if share <= 0 or not sides or rng.random() >= share:
        return None
    return close_up_scale(sides, rng)


def vary_light(image: np.ndarray, rng, blur: float = 1.8) -> np.ndarray:
    """``--varied``: another table's light and camera on an H×W×3 uint8 image: colour
    temperature (blue against red gains) and tint, brightness ×0.5–1.4, and each with
    probability 0.3 Gaussian blur (sigma up to ``blur`` pixels), sensor noise, JPEG at 25–90."""
    warm = rng.uniform(-1, 1)
    gains = np.array([1 - 0.3 * warm, rng.uniform(0.92, 1.08), 1 + 0.3 * warm]) * rng.uniform(0.5, 1.4)
    out = image.astype(np.float32) * gains
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, blur))
    if rng.random() < 0.3:
        out = out + rng.normal(0, rng.uniform(2, 10), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 91))])[1],
                           cv2.IMREAD_COLOR)
    return out


def filling(image, dice, rng):
    """``--varied``: the part of a photo around one of its dice that the die fills (0.05 of its
    side cut to 0.3 of floor on each side) and the dice whose centres lie in it."""
    x, y, s = dice[int(rng.integers(len(dice)))]
    half = s / 2 + s * rng.uniform(-0.05, 0.3)
    x, y = x + rng.normal(0, 0.05 * s), y + rng.normal(0, 0.05 * s)
    h, w = image.shape[:2]
    x0, y0 = max(0, round(x - half)), max(0, round(y - half))
    x1, y1 = min(w, round(x + half)), min(h, round(y + half))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return image, dice
    inside = [(dx - x0, dy - y0, ds) for dx, dy, ds in dice if x0 <= dx < x1 and y0 <= dy < y1]
    return image[y0:y1, x0:x1], inside


def perspective(canvas, points, rng):
    """``--varied``: the square window seen from a little aside (its corners moved by up to 8 %)."""
    side = canvas.shape[0]
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    matrix = cv2.getPerspectiveTransform(src, src + rng.uniform(-0.08, 0.08, (4, 2)).astype(np.float32) * side)
    canvas = cv2.warpPerspective(canvas, matrix, (side, side))
    if not points:
        return canvas, points
    moved = cv2.perspectiveTransform(np.float32([[(x, y) for x, y, _ in points]]), matrix)[0]
    return canvas, [(float(mx), float(my), s) for (mx, my), (_, _, s) in zip(moved, points, strict=True)]
