"""What every reader accepts as a photo."""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import InvalidImage

MIN_SIDE = 16  # pixels: a smaller photo cannot show a readable die


def as_bgr(image: object) -> np.ndarray:
    """An H×W×3 uint8 BGR view of ``image`` (H×W grey and H×W×4 BGRA are converted).

    :raises InvalidImage: not a numpy uint8 array of one of those shapes (a ``ValueError``).
    """
    if not isinstance(image, np.ndarray):
        raise InvalidImage(f"not an image: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise InvalidImage(f"not an image: expected uint8 pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise InvalidImage(f"not an image: expected H×W×3 pixels, got shape {image.shape}")
