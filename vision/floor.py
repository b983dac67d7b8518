"""The tray floor: its colour everywhere in the photo, and what stands out from it.

The floor is the most common colour of the photo (or of its border when no
colour dominates), with a smooth quadratic fall-off fitted to it so uneven
light across the tray does not look like dice.
"""

from __future__ import annotations

import cv2
import numpy as np

_SMALL_SIDE = 128  # the floor is modelled on a thumbnail of this size (pixels)
_WINDOW = 21  # thumbnail pixels: the floor window, about 1/6 of the photo
CLOSE_UP_SIDE = 160  # pixels: a photo no bigger than this shows one die close up
_SHADOW_WEIGHT = 0.35  # darker-than-floor lightness counts this much (soft shadows are not dice)


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)


def floor_model(image: np.ndarray) -> tuple[np.ndarray, float]:
    """Estimate the floor colour at every pixel.

    The floor around a die is the median colour of a window several dice
    wide, so a tray inside a white box, its dark rim and uneven light are all
    "floor" where they are. A photo under :data:`CLOSE_UP_SIDE` pixels is a
    close-up of one die: its floor is the median colour of its border.

    :param image: H×W×3 uint8 BGR photo.
    :returns: (H×W×3 float32 Lab floor colour, noise of the floor in Lab units).
    """
    height, width = image.shape[:2]
    if max(height, width) <= CLOSE_UP_SIDE:
        lab = _lab(image)
        border = np.concatenate([lab[:2].reshape(-1, 3), lab[-2:].reshape(-1, 3),
                                 lab[:, :2].reshape(-1, 3), lab[:, -2:].reshape(-1, 3)])
        floor = np.median(border, axis=0)
        # the die may cover much of the border: judge the noise on its floor-like quarter
        noise = 1.4826 * float(np.percentile(np.linalg.norm(border - floor, axis=1), 25))
        return np.broadcast_to(floor.astype(np.float32), lab.shape), noise
    scale = _SMALL_SIDE / max(height, width)
    sw, sh = max(8, round(width * scale)), max(8, round(height * scale))
    small = cv2.cvtColor(cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2Lab)
    local = cv2.medianBlur(small, _WINDOW)
    dist = np.linalg.norm(small.astype(np.float32) - local.astype(np.float32), axis=2)
    noise = 1.4826 * float(np.median(dist))
    floor = cv2.resize(local, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return floor, noise


def floor_distance(image: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """How much each pixel differs from the floor (Lab units, H×W float32).

    Darker-than-floor lightness counts a third, so the soft shadows dice cast are
    not taken for dice while dark dice still stand out by far.
    """
    diff = _lab(image) - floor
    d_l = diff[..., 0]
    d_l = np.where(d_l < 0, _SHADOW_WEIGHT * d_l, d_l)
    return cv2.magnitude(cv2.magnitude(d_l, diff[..., 1]), diff[..., 2])
