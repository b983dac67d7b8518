"""The scene's scale, shared by the readers: a detector pass is read at the scale that puts the
dice at the size its network learned, not at the frame's (a die's share of the frame varies
with the camera's height, lens and frame size; issue 23).

:class:`Pyramid` scales one frame for several passes; :func:`strength` says how sure a pass is
of its dice; :func:`scene_scale` is the scale their measured size asks for."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

SURE_SAMPLE = 4  # strongest candidates whose sureness is a pass's
SIZE_SAMPLE = 8  # strongest candidates whose median side is the dice's size
#: a pyramid's last step shrinking less than this is linear when asked (:class:`Pyramid`): little
#: to alias. 640 px photos shrunk to 384 (0.6) linearly read one die of 227 fewer (vision_scale.py)
LINEAR_STEP = 0.75


class Pyramid:
    """A photo and its halves, each halved from the one before (``INTER_AREA``) when first
    needed: every detector pass of a photo is scaled from the smallest level at least as
    large as it needs, so a 12-megapixel frame is read in full once (shrinking it to 960 px
    straight from full size takes 33 ms on one core here, its half 8 ms).

    :param linear: the last step, from a level to at most :data:`LINEAR_STEP` of its side, is
        linear, not ``INTER_AREA`` (from 1152 to 960 px: 0.3 ms, not 4 ms)."""

    def __init__(self, image: NDArray[Any], linear: bool = False) -> None:
        self.levels = [image]
        self.linear = linear

    def scaled(self, scale: float) -> NDArray[Any]:
        """The photo scaled by ``scale`` (H×W×3 uint8 BGR, sides rounded); enlarged linearly."""
        h, w = self.levels[0].shape[:2]
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        level = 0
        while scale * 2 ** (level + 1) <= 1.0 and min(self.levels[0].shape[:2]) >> (level + 1) >= 1:
            level += 1
        while len(self.levels) <= level:
            last = self.levels[-1]
            self.levels.append(cv2.resize(last, (max(1, last.shape[1] // 2), max(1, last.shape[0] // 2)),
                                          interpolation=cv2.INTER_AREA))
        source = self.levels[level]
        if source.shape[1::-1] == size:
            return source
        area = scale < 1 and not (self.linear and size[0] >= LINEAR_STEP * source.shape[1])
        return cv2.resize(source, size, interpolation=cv2.INTER_AREA if area else cv2.INTER_LINEAR)


def strength(found: list[tuple[float, float, float, float]], die_p: NDArray[Any]) -> float:
    """How sure a detector pass is of its dice: the mean, over its :data:`SURE_SAMPLE`
    strongest candidates ((x, y, side, heat), strongest first), of their heat times the
    classifier's probability that a die is there (``die_p``, one per candidate); 0 for none.
    For the pip reader, dice of the size the networks learned score 0.9 or more; dice of 10
    or 80 px about 0.8, and the pips of large dice read as small dice (often 0.9 hot) about 0.5."""
    n = min(len(found), SURE_SAMPLE)
    return float(np.mean([heat for _, _, _, heat in found[:n]] * die_p[:n])) if n else 0.0


def input_side(sides: list[float], scale: float) -> float:
    """The dice's side in the detector's input at ``scale``: the median of the :data:`SIZE_SAMPLE`
    strongest of ``sides`` (photo pixels, strongest first; at least one)."""
    return float(np.median(sides[:SIZE_SAMPLE])) * scale


def scene_scale(sides: list[float], scale: float, learned: float, learned_range: tuple[float, float],
                max_scale: float) -> float | None:
    """The detector-input scale that puts dice at ``learned`` pixels, from the sides (photo
    pixels, strongest first) of the candidates found at ``scale``; None when ``scale`` already
    does (the median of the :data:`SIZE_SAMPLE` strongest within ``learned_range``, detector-input
    pixels), is within 10 % of it, or nothing was found. At most ``max_scale`` (an enlarged photo
    shows no more detail)."""
    if not sides:
        return None
    side = input_side(sides, scale)
    if learned_range[0] <= side <= learned_range[1]:
        return None
    better = min(max_scale, scale * learned / side)
    return None if abs(better / scale - 1) < 0.1 else better
