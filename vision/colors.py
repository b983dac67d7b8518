"""Name a die's body colour from a small palette, robust to the camera's white balance.

The palette is the one the tray photos are labelled with (``../shared/datasets/real-dice``):
players call a die "the red one" or "the gold one", so the names are coarse on purpose.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import InvalidImage
from vision.quantiles import median, percentiles

PALETTE: tuple[str, ...] = ("white", "black", "red", "green", "blue", "purple", "yellow", "gold")

#: Typical body colour of each palette name under neutral light, BGR uint8. The synthetic
#: renderer paints dice with these; they are not what ``name_color_box`` compares against.
REFERENCE_BGR: dict[str, tuple[int, int, int]] = {
    "white": (228, 236, 238),
    "black": (34, 32, 32),
    "red": (38, 32, 196),
    "green": (72, 160, 38),
    "blue": (168, 62, 28),
    "purple": (98, 28, 84),
    "yellow": (36, 214, 232),
    "gold": (30, 86, 124),
}


@dataclass(frozen=True)
class ColorRules:
    """Where the palette names meet, in CIELAB of the white-balanced die body.

    ``chroma`` below is the 75th percentile of the body's per-pixel chroma C* (a marbled die
    is named by its coloured part), ``hue`` the CIELAB hue angle h = atan2(b*, a*) in degrees
    of the main hue of its coloured pixels, ``lightness`` the median L* (0–100). Hue edges go
    counter-clockwise: red | gold/yellow | green | blue | purple | red. The defaults were
    fitted to the development photos (``benchmarks/vision_colors.py --fit``); the figures
    reported for them come from cross-validation by photo.
    """

    white_l: float = 45.0  # L* above which a die is light: white when achromatic, else black
    yellow_l: float = 51.0  # L* above which a gold-hued die is yellow
    light_chroma: float = 15.0  # a die lighter than white_l is white below this chroma
    bright_chroma: float = 32.0  # ... lighter than L* 88: a clipped channel fakes chroma
    cool_chroma: float = 6.0  # ... a dark die of green/blue/purple hue is black below this
    warm_dark: float = 16.0  # ... of red/gold hue, at L* 10 (smoke dice look brownish red)
    warm_light: float = 12.0  # ... of red/gold hue, at L* 40 (in between: linear)
    warm_share: float = 0.5  # a dark die of red/gold hue with fewer coloured pixels is black
    red_gold: float = 50.0
    gold_green: float = 112.0  # teal counts as green, as in the dataset labels
    green_blue: float = 218.0
    blue_purple: float = 308.0
    purple_red: float = 345.0

    def name(self, lightness: float, chroma: float, hue: float, coloured: float = 1.0) -> str:
        """Palette name of a body of this lightness (L*), chroma (C*), hue (degrees) and
        share of coloured pixels (0–1, see :func:`body_features`)."""
        hue %= 360.0
        red = hue >= self.purple_red or hue < self.red_gold
        least_share = 0.0
        if lightness > _CLIPPED_L:
            least = self.bright_chroma
        elif lightness > self.white_l:
            least = self.light_chroma
        elif red or hue < self.gold_green:
            t = min(max((lightness - 10.0) / 30.0, 0.0), 1.0)
            least = self.warm_dark + (self.warm_light - self.warm_dark) * t
            least_share = self.warm_share
        else:
            least = self.cool_chroma
        if chroma < least or coloured < least_share:
            return "white" if lightness > self.white_l else "black"
        if red:
            return "red"
        if hue < self.gold_green:
            return "yellow" if lightness > self.yellow_l else "gold"
        if hue < self.green_blue:
            return "green"
        return "blue" if hue < self.blue_purple else "purple"


RULES = ColorRules()
_CLIPPED_L = 88.0  # L* above which some channel of a body is likely clipped at 255


def _as_image(image: NDArray[Any]) -> NDArray[Any]:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 \
            or image.shape[2] != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        shape = getattr(image, "shape", None)
        dtype = getattr(image, "dtype", type(image).__name__)
        raise InvalidImage(f"image must be an H×W×3 uint8 BGR array, got shape {shape} {dtype}")
    return image


def estimate_floor(image: NDArray[Any], exclude: NDArray[Any] | None = None) -> NDArray[Any] | None:
    """The tray floor's colour as the camera sees it, whatever that colour is.

    The per-channel median of the brighter half of the pixels not in ``exclude`` (the floor
    is the bulk of a tray photo; the brighter half drops shadows, dark rims and dark dice).
    When that median is clipped in every channel (:data:`_CLIP` or more), the colour of the
    brightest quarter of the unclipped pixels instead, scaled so its largest channel is 255.

    :param image: H×W×3 uint8 BGR.
    :param exclude: H×W bool/uint8, non-zero on pixels not to use (the dice), or ``None``.
    :returns: BGR float array of shape (3,), or ``None`` when fewer than 200 pixels are left.
    :raises InvalidImage: image not H×W×3 uint8 (a ``ValueError``).
    :raises ValueError: exclude of another size.
    """
    image = _as_image(image)
    h, w = image.shape[:2]
    step = max(1, int(math.sqrt(h * w / 10000)))  # ~10k samples are plenty for a median
    sample = image[::step, ::step].reshape(-1, 3)
    if exclude is not None:
        exclude = np.asarray(exclude)
        if exclude.shape != (h, w):
            raise ValueError(f"exclude must be {h}×{w}, got {exclude.shape}")
        sample = sample[~exclude[::step, ::step].reshape(-1).astype(bool)]
    if len(sample) < 200:
        return None
    brightness = _channel_sum(sample)
    floor = sample[brightness >= np.median(brightness)]
    colour = np.median(floor, axis=0).astype(np.float64)
    # the unclipped pixels only for a clipped floor (a third of the time of a box's estimate)
    unclipped = sample[sample.max(axis=1) < _CLIP] if np.all(colour >= _CLIP) else sample[:0]
    if len(unclipped) >= 200:
        # a light too strong for the sensor: a floor clipped white keeps no colour (it was taken
        # for a neutral one and the dice lost their white balance). The brightest unclipped
        # pixels give its colour, at the clipping level (the floor is at least that bright)
        light = _channel_sum(unclipped)
        colour = np.maximum(np.median(unclipped[light >= np.percentile(light, 75)], axis=0), 1.0)
        colour = colour * 255.0 / colour.max()
    return np.asarray(colour)


_CLIP = 250  # grey level (0–255) at which a channel is taken for clipped by the sensor


def _channel_sum(pixels: NDArray[Any]) -> NDArray[Any]:
    """B + G + R of (N, 3) uint8 pixels, int32: ``sum(axis=1)``'s values in a tenth of its time."""
    total: NDArray[Any] = pixels[:, 0].astype(np.int32) + pixels[:, 1] + pixels[:, 2]
    return total


def estimate_white(image: NDArray[Any], exclude: NDArray[Any] | None = None) -> NDArray[Any] | None:
    """Estimate the colour the camera gives a neutral surface, from the tray floor.

    Gray-world on the floor (:func:`estimate_floor`). Returns ``None`` when fewer than 200
    pixels are left, or when that colour is too saturated to be a colour cast of a grey
    floor (a green felt, a red cloth, warm wood): correcting for it would repaint the dice.

    :param image: H×W×3 uint8 BGR.
    :param exclude: H×W bool/uint8, non-zero on pixels not to use (the dice), or ``None``.
    :returns: BGR float array of shape (3,), or ``None``.
    :raises InvalidImage: image not H×W×3 uint8 (a ``ValueError``).
    :raises ValueError: exclude of another size.
    """
    return _white(estimate_floor(image, exclude))


def _white(floor: NDArray[Any] | None) -> NDArray[Any] | None:
    """``floor`` (:func:`estimate_floor`) when it can be a grey floor's colour cast (see :func:`estimate_white`)."""
    if floor is None or floor.max() < 20 or _saturation(floor) > _CAST_LIMIT:
        return None
    return floor


def exposure_gain(floor: NDArray[Any] | None) -> float:
    """The factor that brings a floor seen as ``floor`` (BGR, :func:`estimate_floor`) to the
    brightness :data:`FLOOR_LEVEL`, so the light's strength does not change a die's lightness.

    1 when there is no floor, a coloured one (felt, wood: see :func:`estimate_white`) or one
    darker than :data:`DARK_FLOOR`: a dark tray, not a dim light (one photo cannot tell a
    grey floor in dim light from a darker floor; a dark felt brought to FLOOR_LEVEL would
    turn gold dice yellow).
    """
    if floor is None or _saturation(floor) > _CAST_LIMIT or float(np.mean(floor)) < DARK_FLOOR:
        return 1.0
    return FLOOR_LEVEL / float(np.mean(floor))


#: grey level (0–255) a light neutral floor is brought to before dice are named: the development
#: photos' floors (byler's trays 183–198, penlington's desk 146–181), where ColorRules was fitted
FLOOR_LEVEL = 175.0
#: grey level below which a floor is taken for a dark tray: below penlington's desk at ×0.6 (88)
DARK_FLOOR = 80.0


#: (max-min)/max of a floor's colour beyond which it is a coloured floor (wood, carpet), not a
#: colour cast: the real tray floors are at most 0.09, banachowicz's wood and cloth 0.37 (median)
#: to 0.78. At 0.55, correcting for warm floors named 51 of their 330 white or ivory dice blue
#: (3 at 0.4); a camera's auto white balance leaves no cast that strong.
_CAST_LIMIT = 0.4


def _saturation(bgr: NDArray[Any]) -> float:
    return float((bgr.max() - bgr.min()) / max(bgr.max(), 1e-6))


def _gains(white_reference: Sequence[float] | NDArray[Any]) -> NDArray[Any]:
    """Per-channel gains that make ``white_reference`` neutral, keeping its brightness."""
    white = np.asarray(white_reference, dtype=np.float64).reshape(-1)
    if white.shape != (3,) or not np.all(np.isfinite(white)) or white.min() <= 0:
        raise ValueError(f"white_reference must be three positive BGR values, "
                         f"got {white_reference!r}")
    return np.asarray(np.clip(white.mean() / white, 0.5, 2.0))


def _lab(pixels: NDArray[Any], gains: NDArray[Any]) -> NDArray[Any]:
    """BGR uint8 pixels (N, 3) under the given gains → CIELAB float (N, 3): L* 0–100, a*, b*."""
    rgb = np.clip(pixels.astype(np.float32) * (gains / 255.0).astype(np.float32), 0, 1)
    return np.asarray(cv2.cvtColor(rgb[None], cv2.COLOR_BGR2LAB)[0])


def _trim(lab: NDArray[Any]) -> NDArray[Any]:
    """Keep the pixels between the 10th and 90th L* percentile (glare, pip edges, shadow)."""
    lo, hi = percentiles(lab[:, 0], (10, 90))
    keep = (lab[:, 0] >= lo) & (lab[:, 0] <= hi)
    return lab[keep] if keep.sum() >= 5 else lab


_PIP_CONTRAST = 28  # grey levels (0–255): less spread than this in a face, no pip shows
_PIP_AREA = 0.15  # largest blob taken for a pip, fraction of the die's area (a pip: 0.02–0.06)
_PIP_EXTENT = 0.6  # least share of its bounding box a pip fills (a disc: 0.79; a streak less)
_PIP_ASPECT = 1.6  # longest over shortest side of a pip's bounding box


def _body_pixels(patch: NDArray[Any], region: NDArray[Any], side: float, exposure: float = 1.0) -> NDArray[Any]:
    """The body pixels of a die: ``region`` of ``patch`` less the pips, (N, 3) uint8 BGR."""
    smooth, body = _body_mask(patch, region, side, exposure)
    return np.asarray(smooth[body])


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _round_blobs(part: NDArray[Any], side: float) -> NDArray[Any]:
    """The blobs of ``part`` (h×w bool) shaped like a pip: round, no bigger than a big pip.

    An opening first cuts the one-pixel bridges that blur and glints leave between pips.
    """
    part = cv2.morphologyEx(part.astype(np.uint8), cv2.MORPH_OPEN, _CROSS)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=4)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    w = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64)
    h = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    round_ = (area >= _PIP_EXTENT * w * h) & (np.maximum(w, h) <= _PIP_ASPECT * np.minimum(w, h))
    pip_like = round_ & (area <= _PIP_AREA * side * side)
    pip_like[0] = False  # the background label
    return np.asarray(pip_like[labels])


def _body_mask(patch: NDArray[Any], region: NDArray[Any], side: float,
               exposure: float = 1.0) -> tuple[NDArray[Any], NDArray[Any]]:
    """``region`` less the pips: (the patch smoothed, h×w bool body mask).

    The region's pixels are split in two by lightness (Otsu): pips are lighter or darker
    than the body whatever their colour (white, black, red or yellow). The blobs of
    either part with a pip's size and round shape go, with a one-pixel rim (their blurred
    edge); the body between big crowded pips is one large web and stays, and so do the
    long streaks of a marbled die.

    :param patch: h×w×3 uint8 BGR around the die.
    :param region: h×w bool, the part of the patch on the die.
    :param side: the die's side, pixels (sets the size of a pip).
    :param exposure: the factor bringing the floor to :data:`FLOOR_LEVEL`: the pips' contrast
        is judged at that exposure, so dim light does not hide a smoke die's red pips.
    """
    patch = cv2.blur(patch, (3, 3), borderType=cv2.BORDER_REPLICATE)  # noise reads as chroma
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    values = gray[region]
    if len(values) < 8 or (int(values.max()) - int(values.min())) * exposure < _PIP_CONTRAST:
        return patch, region  # no contrast: no pip in view
    level, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    light = region & (gray > level)
    pips = _round_blobs(light, side) | _round_blobs(region & ~light, side)
    rimmed = region & ~cv2.dilate(pips.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    if rimmed.sum() >= max(8, 0.2 * region.sum()):
        return patch, rimmed
    body = region & ~pips
    return patch, body if body.any() else region


def body_features(lab: NDArray[Any]) -> tuple[float, float, float, float]:
    """(lightness, chroma, hue, coloured) of a die body from its pixels in CIELAB, (N, 3).

    Lightness is the median L*, chroma the 75th percentile of per-pixel C*, hue the mean
    hue of the pixels within 25° of the peak of a chroma-weighted hue histogram, so a few
    leftover pip pixels of another hue do not drag it, and coloured the share of
    pixels with C* above 12: a smoke die whose red pips glow through it has a few very
    red pixels, a dark red die is red all over.
    """
    lab = _trim(lab)
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    hue = np.degrees(np.arctan2(lab[:, 2], lab[:, 1])) % 360.0
    coloured = chroma > _HUE_CHROMA
    if coloured.sum() >= 3:
        weights = np.bincount((hue[coloured] // 10).astype(int) % 36, weights=chroma[coloured],
                              minlength=36)
        # each bin with its two neighbours (np.roll's sums, by index: a roll costs 11 µs here)
        peak = int(np.argmax(weights + weights[_PREVIOUS_BIN] + weights[_NEXT_BIN])) * 10 + 5
        near = coloured & (np.abs((hue - peak + 180.0) % 360.0 - 180.0) <= 25.0)
        a, b = lab[near, 1].mean(), lab[near, 2].mean()
    else:
        a, b = lab[:, 1].mean(), lab[:, 2].mean()
    return (median(lab[:, 0]), float(percentiles(chroma, (75,))[0]),
            float(math.degrees(math.atan2(b, a)) % 360.0), float(np.mean(chroma > _SHARE_CHROMA)))


_PREVIOUS_BIN = np.roll(np.arange(36), 1)  # of the 36 hue bins of 10°: the bin before each, the bin after
_NEXT_BIN = np.roll(np.arange(36), -1)
_HUE_CHROMA = 8.0  # C* above which a pixel's hue means something
_SHARE_CHROMA = 12.0  # C* above which a pixel counts as coloured


def box_features(image: NDArray[Any], box: Sequence[int], *,
                 white_reference: Sequence[float] | NDArray[Any] | None = None, exposure: float | None = None
                 ) -> tuple[float, float, float, float]:
    """(lightness, chroma, hue, coloured) of the die in ``box`` (see :func:`body_features`
    and :func:`name_color_box`)."""
    image = _as_image(image)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"box {list(box)} has no pixel inside the {w}×{h} image")
    if white_reference is None or exposure is None:
        outside = np.zeros((h, w), bool)
        outside[y0:y1, x0:x1] = True
        floor = estimate_floor(image, exclude=outside)  # once: estimate_white is _white of it
        if white_reference is None:
            white_reference = _white(floor)
        if exposure is None:
            exposure = exposure_gain(floor)
    gains = (np.ones(3) if white_reference is None else _gains(white_reference)) * exposure
    patch = image[y0:y1, x0:x1]
    if min(patch.shape[:2]) > _MAX_SIDE:  # a large die's pixels add time, not a surer colour
        factor = _MAX_SIDE / min(patch.shape[:2])
        patch = cv2.resize(patch, (max(1, round(patch.shape[1] * factor)), max(1, round(patch.shape[0] * factor))),
                           interpolation=cv2.INTER_AREA)
    bh, bw = patch.shape[:2]
    side = min(bw, bh) / 1.2  # between a square die (side = box) and one at 45° (box / 1.41)
    body = _body_pixels(patch, _disc(bh, bw), side, exposure)
    lightness, chroma, hue, coloured = body_features(_lab(body, gains))
    # a body the camera clipped stays clipped (ColorRules: _CLIPPED_L), however much it is dimmed
    if exposure < 1 and lightness <= _CLIPPED_L < median(_lab(body, gains / exposure)[:, 0]):
        lightness = _CLIPPED_L + 1
    return lightness, chroma, hue, coloured


#: pixels: a box whose shorter side is longer is shrunk to it first (dice of 120–200 px in a
#: Camera Module 3 frame: 16 → 5 ms a frame; the real photos' dice, 25–69 px, are not shrunk)
_MAX_SIDE = 72
_DISC = 0.34  # radius of the disc read in a box, fraction of the box side: inside the die
#               at any rotation (a die at 45° holds a disc of radius 0.354 × box side)


@lru_cache(maxsize=256)
def _disc(height: int, width: int) -> NDArray[Any]:
    """The height×width bool disc a box's die is read from (radius :data:`_DISC` of its shorter
    side; the whole box when that holds fewer than 4 pixels), made once a size (0.1 ms a die):
    read-only."""
    yy, xx = np.mgrid[0:height, 0:width]
    radius = _DISC * min(width, height)
    disc: NDArray[Any] = (xx - (width - 1) / 2) ** 2 + (yy - (height - 1) / 2) ** 2 <= radius**2
    if disc.sum() < 4:
        disc = np.ones((height, width), bool)
    disc.flags.writeable = False
    return disc


def name_color_box(image: NDArray[Any], box: Sequence[int], *,
                   white_reference: Sequence[float] | NDArray[Any] | None = None,
                   exposure: float | None = None, rules: ColorRules = RULES) -> str:
    """Name the colour of the die in ``box``, from a disc in the middle of the box.

    The disc (radius 0.34 × the box side) lies on the die at any rotation when the box is
    around the whole die seen from above, so no floor gets in. Its pixels are
    white-balanced (against ``white_reference``, or the floor estimated by
    :func:`estimate_white` from the image outside the box), the pips are found as round
    blobs lighter or darker than the body and left out, highlights and shadow are trimmed
    off by lightness, and the lightness, chroma and hue of what is left
    (:func:`body_features`) pick the name (:class:`ColorRules`).

    :param image: H×W×3 uint8 BGR.
    :param box: [x0, y0, x1, y1] pixels around the die, x1/y1 exclusive; clipped to the image.
    :param white_reference: BGR of the tray floor (a neutral surface) as the camera sees it,
        or ``None`` to estimate it from the image outside the box. When the estimate is
        not a plausible colour cast (a coloured floor) no correction is made.
    :param exposure: the factor the pixels are multiplied by so the floor has the brightness
        :data:`FLOOR_LEVEL` (:func:`exposure_gain`), or ``None`` to measure it outside the box;
        1 names the die as the camera exposed it.
    :param rules: where the names meet; the fitted defaults unless you refit them.
    :returns: a name from ``PALETTE``.
    :raises InvalidImage: image not H×W×3 uint8 (a ``ValueError``).
    :raises ValueError: a box with no pixel inside the image, a bad white_reference.
    """
    return rules.name(*box_features(image, box, white_reference=white_reference, exposure=exposure))


def name_dice_colors(image: NDArray[Any], dice: Sequence[Any]) -> None:
    """Set ``color`` on every die of one photo (objects with ``box`` ``[x0, y0, x1, y1]``
    pixels and ``color``, such as :class:`vision.reading.DieReading`), each named by
    :func:`name_color_box` against one measure of the floor outside all the dice's boxes,
    once per photo rather than once per die: its colour (:func:`estimate_white`: the white
    balance) and its brightness (:func:`exposure_gain`: the exposure), so the light's colour
    and strength leave the names as they are.

    :param image: H×W×3 uint8 BGR.
    :raises InvalidImage: image not H×W×3 uint8 (a ``ValueError``).
    """
    if not dice:
        return
    image = _as_image(image)
    white, exposure = _floor_measure(image, [die.box for die in dice])
    boxes = _BoxFloors(image) if white is None else None  # a coloured floor: each box's own, as name_color_box
    for die in dice:
        reference = white if boxes is None else boxes.white(die.box)
        die.color = name_color_box(image, die.box, white_reference=reference, exposure=exposure)


def dice_lab(image: NDArray[Any], boxes: Sequence[Sequence[int]]) -> list[tuple[float, float, float]]:
    """The CIELAB colour of each die body of one photo, as :func:`name_dice_colors` sees it:
    white-balanced and exposed against one measure of the floor outside all the boxes, so the
    same die gives about the same colour under another light's strength or colour.

    Each is ``(L*, a*, b*)``: L* the body's median lightness (0–100), (a*, b*) its chroma
    (75th percentile C*) at its main hue (:func:`body_features`).

    :param boxes: ``[x0, y0, x1, y1]`` pixels, one a die (as :attr:`DieReading.box`).
    :raises InvalidImage: image not H×W×3 uint8 (a ``ValueError``).
    :raises ValueError: a box with no pixel inside the image.
    """
    if not boxes:
        return []
    image = _as_image(image)
    white, exposure = _floor_measure(image, boxes)
    floors = _BoxFloors(image) if white is None else None  # a coloured floor: each box's own, as box_features
    measured = []
    for box in boxes:
        reference = white if floors is None else floors.white(box)
        lightness, chroma, hue, _ = box_features(image, box, white_reference=reference, exposure=exposure)
        measured.append((lightness, chroma * math.cos(math.radians(hue)), chroma * math.sin(math.radians(hue))))
    return measured


def _floor_measure(image: NDArray[Any], boxes: Sequence[Sequence[int]]) -> tuple[NDArray[Any] | None, float]:
    """(white reference or None, exposure) of the floor outside ``boxes``: one measure a photo."""
    covered = np.zeros(image.shape[:2], bool)
    for box in boxes:
        covered[box[1]:box[3], box[0]:box[2]] = True
    floor = estimate_floor(image, exclude=covered)
    return _white(floor), exposure_gain(floor)


_NEUTRAL = np.ones(3)  # a white reference that corrects nothing (:func:`_gains`: gains of 1)


class _BoxFloors:
    """The white reference :func:`box_features` measures for a box when given none
    (:func:`estimate_white` outside that box alone), for every box of one photo from one pass
    over its floor sample: on a coloured floor (no photo-wide white reference) each die is
    named so, and the sample's medians cost 0.6 ms a die (banachowicz's 25-dice photos,
    vision_read_time.py). Brightness and channel values are integers, so each median is read
    off histograms of the sample less the box's samples, the values numpy's medians give.

    :param image: H×W×3 uint8 BGR.
    """

    def __init__(self, image: NDArray[Any]) -> None:
        self.image = image
        h, w = image.shape[:2]
        self.step = max(1, int(math.sqrt(h * w / 10000)))  # estimate_floor's sample
        self.grid = image[::self.step, ::self.step]
        self.bright = _channel_sum(self.grid.reshape(-1, 3)).reshape(self.grid.shape[:2])
        self.hist = np.bincount(self.bright.ravel(), minlength=_BRIGHT)
        self._above: dict[int, list[NDArray[Any]]] = {}  # level → each channel's histogram at or above it

    def _channels_above(self, level: int) -> list[NDArray[Any]]:
        if level not in self._above:  # most boxes of a photo share their floor's level
            brighter = self.grid[self.bright >= level]
            self._above[level] = [np.bincount(brighter[:, c], minlength=256) for c in range(3)]
        return self._above[level]

    def white(self, box: Sequence[int]) -> NDArray[Any]:
        """:func:`estimate_white` of the photo outside ``box`` ([x0, y0, x1, y1], clipped as
        :func:`box_features` clips it); :data:`_NEUTRAL` where that is None (no correction)."""
        h, w = self.image.shape[:2]
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        rows = slice(-(-y0 // self.step), -(-y1 // self.step)) if y1 > y0 else slice(0, 0)
        cols = slice(-(-x0 // self.step), -(-x1 // self.step)) if x1 > x0 else slice(0, 0)
        inside_bright, inside = self.bright[rows, cols].ravel(), self.grid[rows, cols].reshape(-1, 3)
        hist = self.hist - np.bincount(inside_bright, minlength=_BRIGHT)
        count = int(hist.sum())
        if count < 200:
            return _NEUTRAL
        level = _histogram_median(hist, count)
        first = math.ceil(level)  # the brighter half: brightness >= the median
        if first >= _BRIGHT:
            return _NEUTRAL
        bright = inside_bright >= first
        colour = np.empty(3)
        for c, above in enumerate(self._channels_above(first)):
            values = above - np.bincount(inside[bright, c], minlength=256)
            colour[c] = _histogram_median(values, int(values.sum()))
        if np.all(colour >= _CLIP):  # a clipped floor: estimate_floor's own way
            outside = np.zeros((h, w), bool)
            outside[y0:y1, x0:x1] = True
            white = estimate_white(self.image, exclude=outside)
        else:
            white = _white(colour)
        return _NEUTRAL if white is None else white


_BRIGHT = 3 * 255 + 1  # B + G + R levels


def _histogram_median(hist: NDArray[Any], count: int) -> float:
    """``np.median`` of the ``count`` integers counted by ``hist`` (value → count)."""
    cumulative = np.cumsum(hist)
    middle = int(np.searchsorted(cumulative, count // 2 + 1))  # the value of rank count // 2
    if count % 2:
        return float(middle)
    below = int(np.searchsorted(cumulative, count // 2))  # rank count // 2 - 1
    return (below + middle) / 2
