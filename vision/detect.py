"""Find die bodies: regions of the photo that stand out from the tray floor.

Touching dice come out as one region; :mod:`vision.split` separates them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.floor import floor_distance, floor_model

_MIN_THRESHOLD = 9.0  # Lab units: below this nothing is told apart from the floor
_HALVE_ABOVE = 700  # pixels: a photo bigger than this is segmented at half size
_MIN_SIDE = 10  # pixels: a die smaller than this cannot show readable pips


@dataclass
class Region:
    """One connected blob standing out from the floor.

    ``mask`` is a uint8 0/255 crop of the blob, ``origin`` its top-left
    corner ``(x, y)`` in the photo, ``area`` its pixel count.
    """

    mask: np.ndarray
    origin: tuple[int, int]
    area: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        h, w = self.mask.shape
        return (self.origin[0], self.origin[1], self.origin[0] + w, self.origin[1] + h)


def _fill_small_holes(mask: np.ndarray, max_area: int) -> np.ndarray:
    """Fill holes up to ``max_area`` pixels (pips of floor-like colour), not a tray's whole floor."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(mask), connectivity=4)
    small = np.zeros(count, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] <= max_area
    h, w = mask.shape
    for i in np.nonzero(small)[0]:
        x, y, bw, bh = stats[i, :4]
        if x == 0 or y == 0 or x + bw == w or y + bh == h:
            small[i] = False
    return np.where(small[labels], np.uint8(255), mask)


def foreground(image: np.ndarray) -> np.ndarray:
    """uint8 0/255 H×W mask of what is not tray floor."""
    floor, noise = floor_model(image)
    dist = floor_distance(cv2.GaussianBlur(image, (3, 3), 0), floor)
    threshold = max(_MIN_THRESHOLD, 4.0 * noise)
    mask = (dist > threshold).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    return _fill_small_holes(mask, max(64, mask.size // 400))


def find_regions(image: np.ndarray) -> list[Region]:
    """The blobs of :func:`foreground` big enough to be a die.

    A big photo is segmented at half size (bodies need no more; pips are found
    at full size later), which is four times cheaper.
    """
    height, width = image.shape[:2]
    if max(height, width) > _HALVE_ABOVE:
        small = cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
        mask = cv2.resize(foreground(small), (width, height), interpolation=cv2.INTER_NEAREST)
    else:
        mask = foreground(image)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    regions = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < _MIN_SIDE or h < _MIN_SIDE or area < _MIN_SIDE * _MIN_SIDE * 0.6:
            continue
        crop = (labels[y:y + h, x:x + w] == i).astype(np.uint8) * 255
        regions.append(Region(crop, (x, y), area))
    return regions
