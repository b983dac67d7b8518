"""How sharp a die looks: an out-of-focus die needs a surer reading, else it is "blurred".

The measure is taken on the die's square resized to one size, so it is blur relative to
the die (what hides its pips), not in pixels: the strongest Laplacian responses (99th
percentile) over the crop's contrast (95th − 5th percentile of grey levels).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.quantiles import percentiles

#: Below this a die is blurred. The labelled dice of ../shared/datasets/real-dice measure
#: well above it (1st percentile: byler 0.35, penlington 0.47, patterson 0.65); synthetic
#: dice (vision.synthetic) of 36–60 px measure 1.0 sharp, 0.44 at blur sigma 1.5 (read
#: right), 0.30 at sigma 2.5, 0.23 at sigma 3.5 and 0.16 at sigma 5 (medians).
BLURRED = 0.25
_SIZE = 48  # pixels: the side every die's square is resized to before measuring


def sharpness(image: NDArray[Any], center: tuple[float, float], side: float) -> float:
    """Sharpness of the die of side ``side`` pixels centred on ``center`` (x, y pixels)
    in an H×W×3 uint8 BGR photo; the square is clipped to the photo. 0 for a square
    with no pixels or no contrast."""
    h, w = image.shape[:2]
    x0, y0 = max(0, round(center[0] - side / 2)), max(0, round(center[1] - side / 2))
    x1, y1 = min(w, round(center[0] + side / 2)), min(h, round(center[1] + side / 2))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0.0
    cut = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    grey = cv2.resize(cut, (_SIZE, _SIZE), interpolation=cv2.INTER_AREA)
    high, low = percentiles(grey, (95, 5))
    contrast = float(high - low)
    if contrast < 1.0:
        return 0.0
    return float(percentiles(np.abs(cv2.Laplacian(grey, cv2.CV_32F)), (99,))[0]) / contrast
