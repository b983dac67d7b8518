"""Find pips: small round blobs, darker or lighter than the die body around them.

Blobs are found with a scale-normalised Laplacian of Gaussian over a few
scales, so one code path reads the 6-pixel pips of a die 40 pixels wide and
the 15-pixel pips of a die filling a close-up.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SIGMAS = (1.2, 1.6, 2.2, 3.0, 4.0, 5.4)  # pixels; a pip of radius r answers best at sigma = r / 1.41
_MOST_CANDIDATES = 40  # per polarity: a face has six pips; more weak blobs change nothing
_MIN_STRENGTH = 10.0  # grey levels (scale-normalised LoG): weaker blobs are texture or noise


@dataclass
class Pip:
    """A pip candidate: centre (x, y) pixels in the photo, radius pixels,
    strength (scale-normalised LoG, grey levels) and polarity (+1 light on dark body, -1 dark)."""

    x: float
    y: float
    radius: float
    strength: float
    polarity: int


def find_pips(crop: np.ndarray, mask: np.ndarray, origin: tuple[int, int],
              radii: tuple[float, float] = (0.0, float("inf"))) -> list[Pip]:
    """Pip candidates inside ``mask``.

    Each colour channel is searched: red pips on a smoke-black die barely show
    in grey but stand out in the red channel, white pips on a red die in blue.

    :param crop: h×w×3 uint8 BGR crop around a region.
    :param mask: h×w uint8 0/255, where pips may lie.
    :param origin: (x, y) pixels of the crop's top-left corner in the photo.
    :param radii: (smallest, largest) pip radius sought, pixels; only the scales
        that can find such pips are computed.
    """
    sigmas = [s for s in SIGMAS if radii[0] <= s * 1.41 <= radii[1]] or [SIGMAS[0]]
    shape = crop.shape[:2]
    light, dark = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    light_scale, dark_scale = np.zeros(shape, np.uint8), np.zeros(shape, np.uint8)
    for channel in cv2.split(crop.astype(np.float32)):
        for k, sigma in enumerate(sigmas):
            blurred = cv2.GaussianBlur(channel, (0, 0), sigma)
            response = -(sigma * sigma) * cv2.Laplacian(blurred, cv2.CV_32F)  # > 0 on light blobs
            for best, scale, signed in ((light, light_scale, response), (dark, dark_scale, -response)):
                better = signed > best
                np.copyto(best, signed, where=better)
                np.copyto(scale, np.uint8(k), where=better)
    pips = []
    # each polarity on its own: a dark die body must not hide the light pips on it
    for polarity, best, scale in ((1, light, light_scale), (-1, dark, dark_scale)):
        peaks = (best >= cv2.dilate(best, np.ones((5, 5), np.uint8))) & (best > _MIN_STRENGTH) & (mask > 0)
        ys, xs = np.nonzero(peaks)
        strongest = np.argsort(-best[ys, xs])[:_MOST_CANDIDATES]
        for y, x in zip(ys[strongest], xs[strongest]):
            pips.append(Pip(float(x + origin[0]), float(y + origin[1]),
                            sigmas[scale[y, x]] * 1.41, float(best[y, x]), polarity))
    return _suppress_overlaps(pips)


def _suppress_overlaps(pips: list[Pip]) -> list[Pip]:
    """Keep the strongest of blobs of one polarity that overlap (one pip answering at two places)."""
    kept: list[Pip] = []
    for pip in sorted(pips, key=lambda p: -p.strength):
        if all(pip.polarity != k.polarity
               or (pip.x - k.x) ** 2 + (pip.y - k.y) ** 2 > (max(pip.radius, k.radius) * 1.2) ** 2
               for k in kept):
            kept.append(pip)
    return kept
