"""A pip count of a found die's top face: an untrained second opinion for the pip reader.

The classifier of :mod:`vision.tray` learned the look of the trays it was trained on; on a
tray it never saw it is often unsure of a value it has right. This count learns nothing: it
finds the spots of the die's crop whose colour is far from the face's (dark pips on a light
die, light or coloured ones on a dark die), keeps those of one pip's size, and counts them
only when they lie as a d6's pips do (centrally symmetric; a centre pip exactly when the
count is odd; in a line for 2 and 3, a square's corners for 4 and 5, two rows of three for 6).
Anything else (side faces' pips in the box, glare, marbling, a cut-off face) gives no count.

Not wired into the reader: the rule of :func:`confirms` (read an unsure die when the count
agrees) was measured leave-one-source-out (``benchmarks/vision_generalise.py --pip-count``)
and raised only byler's dice read right (63.9 → 65.1 %), not penlington's, whose unsure dice
the classifier calls cocked, nor patterson's, whose dice the detector misses: below the bar
for shipping it (docs/benchmarks.md). ``benchmarks/vision_pip_count.py`` measures the count alone.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import numerals

SIDE = 48  # pixels: the crop's side the count is made at (a die's pips 7–11 px)
#: a spot is this far (CIELAB units, L halved) from the face's colour at least; less is no spot
MIN_CONTRAST = 28.0
#: a pip's area as a share of the die's side squared (d6 pips are 0.12–0.22 of the side across)
PIP_AREA = (0.006, 0.06)
SAME_SIZE = 0.45  # a spot smaller than this share of the largest is no pip of that face (side faces' are)
FACE = 0.42  # of the side: a pip's centre lies at most this far from the crop's centre on each axis
INNER = 0.3  # of the side: a spot whose centre lies this close to the crop's centre (each axis) is on the face
TOLERANCE = 0.09  # of the side: how far a pip may lie from where the d6's pattern puts it
SPAN = (0.25, 0.95)  # of the side: the distance between a face's two farthest pips (2 to 6)
CENTRED = 0.2  # of the side: the pips' centre lies this close to the crop's (the die's) centre at most


def count_pips(crop: NDArray[Any]) -> int | None:
    """The pips on the top face of an S×S×3 uint8 BGR crop of one die, the die's side across
    (:func:`vision.numerals.crop_die`, any S; counted at :data:`SIDE` pixels) → 1..6, or None
    when its spots are not a d6 face's pips (none, more than 6, or not in a d6's pattern)."""
    crop = cv2.resize(crop, (SIDE, SIDE), interpolation=cv2.INTER_AREA if crop.shape[0] > SIDE else cv2.INTER_LINEAR)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 0.5
    inner = slice(SIDE // 6, SIDE - SIDE // 6)
    face = np.median(lab[inner, inner].reshape(-1, 3), axis=0)
    far = np.linalg.norm(lab - face, axis=2) > MIN_CONTRAST
    darker = lab[..., 0] < face[0]
    # a face's pips are all darker or all lighter than it; any other spot on the face (glare,
    # marbling, a pip merged with a streak) leaves it uncounted
    (dark, dark_stray), (light, light_stray) = _pips(far & darker), _pips(far & ~darker)
    counts = [n for n in (_pattern(dark), _pattern(light)) if n is not None]
    return counts[0] if len(counts) == 1 and not dark_stray and not light_stray else None


def _pips(spots: NDArray[Any]) -> tuple[NDArray[Any], bool]:
    """The spots of one polarity (SIDE×SIDE bool) of one pip's size on the face: their centres
    (K×2, units of the side), and whether another spot at least a pip's size lies on the face."""
    count, _, stats, centres = cv2.connectedComponentsWithStats(spots.astype(np.uint8), connectivity=4)
    area = stats[1:count, cv2.CC_STAT_AREA].astype(np.float32) / SIDE**2
    width, height = stats[1:count, cv2.CC_STAT_WIDTH], stats[1:count, cv2.CC_STAT_HEIGHT]
    left, top = stats[1:count, cv2.CC_STAT_LEFT], stats[1:count, cv2.CC_STAT_TOP]
    inside = (left > 0) & (top > 0) & (left + width < SIDE) & (top + height < SIDE)  # else the floor
    middle = inside & (np.abs(centres[1:count] - (SIDE - 1) / 2).max(axis=1) <= FACE * SIDE)
    pip = (area >= PIP_AREA[0]) & (area <= PIP_AREA[1]) & middle \
        & (np.maximum(width, height) <= 2 * np.minimum(width, height))
    if pip.any():
        pip &= area >= SAME_SIZE * area[pip].max()
    on_face = np.abs(centres[1:count] - (SIDE - 1) / 2).max(axis=1) <= INNER * SIDE
    stray = bool(np.any(~pip & inside & on_face & (area >= PIP_AREA[0])))
    return centres[1:count][pip] / SIDE, stray


def _pattern(points: NDArray[Any]) -> int | None:
    """How many pips ``points`` (K×2, in units of the die's side) are, when they lie as a d6
    face's K pips do; None otherwise."""
    k = len(points)
    if not 1 <= k <= 6:
        return None
    centre = points.mean(axis=0)
    if np.linalg.norm(centre - 0.5) > CENTRED:  # a face's pips are about its centre
        return None
    if k == 1:
        return 1
    pairs = np.linalg.norm(points[:, None] - points[None], axis=2)
    mirrored = np.linalg.norm((2 * centre - points)[:, None] - points[None], axis=2).min(axis=1)
    radii = np.linalg.norm(points - centre, axis=1)
    if mirrored.max() > TOLERANCE or not SPAN[0] <= pairs.max() <= SPAN[1]:
        return None
    if (radii.min() <= TOLERANCE) != (k % 2 == 1):  # a centre pip exactly on odd faces
        return None
    outer = np.sort(radii)[k % 2:]
    if k in (2, 3):
        far = points[np.unravel_index(pairs.argmax(), pairs.shape)[0]]
        direction = (centre - far) / (np.linalg.norm(centre - far) + 1e-9)
        offset = points - centre
        off_line = np.abs(offset[:, 0] * direction[1] - offset[:, 1] * direction[0])
        return k if off_line.max() <= TOLERANCE else None
    if k in (4, 5):
        ring = points[radii > TOLERANCE]
        if len(ring) != 4:
            return None
        sides = np.sort(np.linalg.norm(ring[:, None] - ring[None], axis=2)[np.triu_indices(4, 1)])
        square = outer.max() <= 1.35 * outer.min() and 1.2 <= sides[4:].mean() / sides[:4].mean() <= 1.65
        return k if square else None
    if k == 6:  # two pips at d from the centre, four at d√2
        rows = 1.2 <= outer[2:].mean() / outer[:2].mean() <= 1.7 and outer[2:].max() <= 1.25 * outer[2:].min()
        return 6 if rows else None
    return None


def count_die(image: NDArray[Any], center: tuple[float, float], side: float) -> int | None:
    """:func:`count_pips` of the die of ``side`` pixels centred at ``center`` (x, y pixels) of an
    H×W×3 uint8 BGR photo (cropped by :func:`vision.numerals.crop_die`)."""
    return count_pips(numerals.crop_die(image, center, side))


def confirms(image: NDArray[Any], center: tuple[float, float], side: float, value: int, value_p: float,
             minimum: float) -> bool:
    """The rule measured (not shipped): whether a die the classifier is unsure of (its likeliest
    value ``value``, 1..6, of probability ``value_p`` given a die, below the reader's value
    threshold) would be read as ``value`` after all: when ``value_p`` ≥ ``minimum`` and
    :func:`count_die` of the die at ``center`` (x, y pixels) of ``side`` pixels in the H×W×3
    uint8 BGR photo is ``value``. A die the count disagrees with or cannot count stays
    unreadable: never guessed. Only for the classifier's doubt ("ambiguous pips"): a die it calls
    cocked stays cocked, since a cocked die's upper face can show a whole face's pattern (drawn
    cocked dice do: RULES T-1)."""
    return value_p >= minimum and count_die(image, center, side) == value
