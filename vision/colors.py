"""Name a die's body colour from a small palette, robust to the camera's white balance.

The palette is the one the tray photos are labelled with (``../shared/datasets/real-dice``):
players call a die "the red one" or "the gold one", so the names are coarse on purpose.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

PALETTE: tuple[str, ...] = ("white", "black", "red", "green", "blue", "purple", "yellow", "gold")

#: Typical body colour of each palette name under neutral light, BGR uint8. The synthetic
#: renderer paints dice with these; they are not what ``name_color`` compares against.
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

# Hue sectors (degrees of the CIELAB hue angle, h = atan2(b*, a*)) and the lightness line
# between the dark and the light colour of a sector. Set by looking at the distributions of
# the byler tray dice (see benchmarks/vision_colors.py); the sector edges sit in the gaps.
_HUE_SECTORS: tuple[tuple[float, float, str], ...] = (
    (350.0, 360.0, "red"),
    (0.0, 52.0, "red"),
    (52.0, 112.0, "gold"),  # "yellow" when light, see _YELLOW_L
    (112.0, 218.0, "green"),  # teal counts as green, as in the dataset labels
    (218.0, 308.0, "blue"),
    (308.0, 350.0, "purple"),
)
_YELLOW_L = 51.0  # L* above which a gold-hued die is yellow
_WHITE_L = 50.0  # L* above which an achromatic die is white
_GREY_CHROMA = 9.0  # C* below which a die is achromatic (white or black)
_WARM_DARK_CHROMA = 17.0  # ... for dark dice of warm hue: smoke dice look brownish red
_WARM_DARK_L = 26.0
_LIGHT_CHROMA = 30.0  # ... for light dice: ivory white dice are yellowish


def _as_image(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 \
            or image.shape[2] != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        shape = getattr(image, "shape", None)
        dtype = getattr(image, "dtype", type(image).__name__)
        raise ValueError(f"image must be an H×W×3 uint8 BGR array, got shape {shape} {dtype}")
    return image


def estimate_white(image: np.ndarray, exclude: np.ndarray | None = None) -> np.ndarray | None:
    """Estimate the colour the camera gives a neutral surface, from the tray floor.

    Gray-world on the floor: the per-channel median of the brighter half of the pixels not
    in ``exclude`` (the floor is the bulk of a tray photo; the brighter half drops shadows,
    dark rims and dark dice). Returns ``None`` when fewer than 200 pixels are left, or when
    that colour is too saturated to be a colour cast of a grey floor (a green felt, a red
    cloth): correcting for it would repaint the dice.

    :param image: H×W×3 uint8 BGR.
    :param exclude: H×W bool/uint8, non-zero on pixels not to use (the dice), or ``None``.
    :returns: BGR float array of shape (3,), or ``None``.
    :raises ValueError: image not H×W×3 uint8, or exclude of another size.
    """
    image = _as_image(image)
    h, w = image.shape[:2]
    step = max(1, int(math.sqrt(h * w / 40000)))  # ~40k samples are plenty for a median
    sample = image[::step, ::step].reshape(-1, 3)
    if exclude is not None:
        exclude = np.asarray(exclude)
        if exclude.shape != (h, w):
            raise ValueError(f"exclude must be {h}×{w}, got {exclude.shape}")
        sample = sample[~exclude[::step, ::step].reshape(-1).astype(bool)]
    if len(sample) < 200:
        return None
    brightness = sample.sum(axis=1, dtype=np.int32)
    floor = sample[brightness >= np.median(brightness)]
    white = np.median(floor, axis=0).astype(np.float64)
    if white.max() < 20 or _saturation(white) > _CAST_LIMIT:
        return None
    return white


_CAST_LIMIT = 0.55  # (max-min)/max of a floor beyond which it is a coloured floor, not a cast


def _saturation(bgr: np.ndarray) -> float:
    return float((bgr.max() - bgr.min()) / max(bgr.max(), 1e-6))


def _gains(white_reference) -> np.ndarray:
    """Per-channel gains that make ``white_reference`` neutral, keeping its brightness."""
    white = np.asarray(white_reference, dtype=np.float64).reshape(-1)
    if white.shape != (3,) or not np.all(np.isfinite(white)) or white.min() <= 0:
        raise ValueError(f"white_reference must be three positive BGR values, got {white_reference!r}")
    return np.clip(white.mean() / white, 0.5, 2.0)


def _lab(pixels: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """BGR uint8 pixels (N, 3) under the given gains → CIELAB float (N, 3): L* 0–100, a*, b*."""
    rgb = np.clip(pixels.astype(np.float32) * (gains / 255.0).astype(np.float32), 0, 1)
    return cv2.cvtColor(rgb[None], cv2.COLOR_BGR2LAB)[0]


def _body(lab: np.ndarray) -> np.ndarray:
    """Drop the pips and highlights: keep the pixels between the 20th and 80th L* percentile.

    Pips are far lighter or far darker than the body and cover well under a fifth of a
    face's centre; trimming both ends works for dark pips on light dice and the reverse.
    """
    lo, hi = np.percentile(lab[:, 0], [20, 80])
    keep = (lab[:, 0] >= lo) & (lab[:, 0] <= hi)
    return lab[keep] if keep.sum() >= 5 else lab


def classify_lab(lightness: float, a: float, b: float, chroma: float) -> str:
    """Palette name of a body colour given in CIELAB (white-balanced).

    :param lightness: median L* of the body, 0–100.
    :param a: mean a* of the body.
    :param b: mean b* of the body.
    :param chroma: median C* (per-pixel chroma) of the body; for marbled dice it is above
        the chroma of the mean colour.
    :returns: a name from ``PALETTE``.
    """
    hue = math.degrees(math.atan2(b, a)) % 360.0
    warm = hue < 75.0 or hue >= 345.0
    if lightness > _WHITE_L:
        grey = chroma < _LIGHT_CHROMA
    elif warm and lightness < _WARM_DARK_L:
        grey = chroma < _WARM_DARK_CHROMA
    else:
        grey = chroma < _GREY_CHROMA
    if grey:
        return "white" if lightness > _WHITE_L else "black"
    for lo, hi, name in _HUE_SECTORS:
        if lo <= hue < hi:
            if name == "gold" and lightness > _YELLOW_L:
                return "yellow"
            return name
    raise AssertionError(f"hue {hue} outside every sector")  # the sectors cover [0, 360)


def name_color(image: np.ndarray, mask: np.ndarray, *, white_reference=None) -> str:
    """Name a die's body colour from the palette.

    The pixels under ``mask`` are white-balanced (against ``white_reference``, or the floor
    estimated by :func:`estimate_white` from the pixels outside the mask), the pips and
    highlights are trimmed off by lightness, and the median lightness, chroma and mean hue
    of what is left pick the name (:func:`classify_lab`).

    :param image: H×W×3 uint8 BGR.
    :param mask: H×W bool or uint8, non-zero on the die's body (pips may be included, they
        are trimmed; the floor should not be).
    :param white_reference: BGR of the tray floor (a neutral surface) as the camera sees it,
        or ``None`` to estimate it from the image outside the mask. When the estimate is
        not a plausible colour cast (a coloured floor) no correction is made.
    :returns: a name from ``PALETTE``.
    :raises ValueError: image not H×W×3 uint8, mask of another size or empty, a
        white_reference that is not three positive numbers.
    """
    image = _as_image(image)
    mask = np.asarray(mask)
    if mask.shape != image.shape[:2]:
        raise ValueError(f"mask must be {image.shape[0]}×{image.shape[1]}, got {mask.shape}")
    mask = mask.astype(bool)
    if not mask.any():
        raise ValueError("mask selects no pixel")
    if white_reference is None:
        white_reference = estimate_white(image, exclude=mask)
    gains = np.ones(3) if white_reference is None else _gains(white_reference)
    ys, xs = np.nonzero(mask)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    crop = mask[y0:y1, x0:x1].astype(np.uint8)
    inner = cv2.erode(crop, np.ones((3, 3), np.uint8))  # off the edge, where the floor bleeds in
    if inner.sum() >= 20:
        crop = inner
    return _name_pixels(_smooth(image[y0:y1, x0:x1])[crop.astype(bool)], gains)


def _smooth(patch: np.ndarray) -> np.ndarray:
    """3×3 mean: sensor noise on dark dice otherwise reads as colour (chroma per pixel)."""
    return cv2.blur(patch, (3, 3), borderType=cv2.BORDER_REPLICATE)


def _name_pixels(pixels: np.ndarray, gains: np.ndarray) -> str:
    body = _body(_lab(pixels, gains))
    chroma = np.hypot(body[:, 1], body[:, 2])
    return classify_lab(float(np.median(body[:, 0])), float(body[:, 1].mean()),
                        float(body[:, 2].mean()), float(np.median(chroma)))


def name_color_box(image: np.ndarray, box: Sequence[int], *, white_reference=None) -> str:
    """Name the colour of the die in ``box``, from the middle of the box.

    The middle half of the box (a quarter of its area) lies on the die's top face at any
    rotation when the box is around the whole die seen from above, so no floor gets in.
    Without a white reference, the floor is estimated from the image outside the box.

    :param image: H×W×3 uint8 BGR.
    :param box: [x0, y0, x1, y1] pixels around the die, x1/y1 exclusive; clipped to the image.
    :param white_reference: as in :func:`name_color`.
    :returns: a name from ``PALETTE``.
    :raises ValueError: bad image, a box with no pixel inside the image.
    """
    image = _as_image(image)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"box {list(box)} has no pixel inside the {w}×{h} image")
    qx, qy = (x1 - x0) / 4, (y1 - y0) / 4
    ix0, iy0 = int(x0 + qx), int(y0 + qy)
    ix1, iy1 = max(int(math.ceil(x1 - qx)), ix0 + 1), max(int(math.ceil(y1 - qy)), iy0 + 1)
    if white_reference is None:
        outside = np.zeros((h, w), bool)
        outside[y0:y1, x0:x1] = True
        white_reference = estimate_white(image, exclude=outside)
    gains = np.ones(3) if white_reference is None else _gains(white_reference)
    return _name_pixels(_smooth(image[iy0:iy1, ix0:ix1]).reshape(-1, 3), gains)
