"""The camera's setup: how large a frame's dice are for the readers, and the frame with them drawn.

What the readers need is a die's pixels and its share of the frame (``benchmarks/vision_scale.py``,
2026-12-01: dice from 10 to 80 px in the 384 px shrunk frame are read ≥ 97 %, the smallest
10 px of 384 in a 640×480 frame: 17 px). Smaller dice show too few pixels per pip or numeral;
larger ones leave room for few dice and are read at the scale of their pips.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.image import jpeg

SMALLEST = 17  # pixels: a die's side below this in the frame is too small to read
LARGEST_SHARE = 80 / 384  # of the frame's long side: a die larger than this is too large
PICTURE_SIDE = 1280  # pixels: the picture's long side at most (a phone's screen)
_BOX = (0, 220, 255)  # BGR: each die's box
_REGION = (255, 160, 0)  # BGR: the region of the dice


def measure(reading: dict[str, Any] | None, width: int, height: int) -> dict[str, Any]:
    """The dice's size in a frame of ``width`` × ``height`` pixels from its tray reading
    (:meth:`vision.reading.TrayReading.to_dict`).

    :returns: ``{"die_px": median side of the dice's boxes (pixels of the frame) or None for
        no dice, "share": die_px over the frame's long side, "fit": "none" | "small" (below
        :data:`SMALLEST`) | "large" (above :data:`LARGEST_SHARE`) | "ok", "region": [x0, y0, x1,
        y1] around every die (frame pixels) or None}``.
    """
    boxes = [die["box"] for die in (reading or {}).get("dice", [])]
    if not boxes:
        return {"die_px": None, "share": None, "fit": "none", "region": None}
    side = float(np.median([max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]))
    share = side / max(width, height)
    fit = "small" if side < SMALLEST else "large" if share > LARGEST_SHARE else "ok"
    region = [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]
    return {"die_px": round(side), "share": round(share, 4), "fit": fit, "region": region}


def picture(image: NDArray[Any], reading: dict[str, Any], measured: dict[str, Any]) -> bytes:
    """The frame (H×W×3 uint8 BGR) shrunk to :data:`PICTURE_SIDE` at most, each die's box and
    the dice's region (``measured`` from :func:`measure`) drawn, as JPEG bytes.

    :raises InvalidImage: ``image`` is not a uint8 image array.
    :raises ValueError: the picture could not be encoded.
    """
    def boxes(out: NDArray[Any], scale: float) -> None:
        thick = max(3, round(max(out.shape[:2]) / 320))
        if measured.get("region"):
            x0, y0, x1, y1 = (round(v * scale) for v in measured["region"])
            pad = 2 * thick
            cv2.rectangle(out, (x0 - pad, y0 - pad), (x1 + pad, y1 + pad), _REGION, thick)
        for die in (reading or {}).get("dice", []):
            x0, y0, x1, y1 = (round(v * scale) for v in die["box"])
            cv2.rectangle(out, (x0, y0), (x1, y1), _BOX, thick)

    return jpeg(image, PICTURE_SIDE, draw=boxes)
