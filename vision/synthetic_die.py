"""One six-sided pip die of a synthetic tray (:mod:`vision.synthetic`), drawn in
perspective: a rounded square with the canonical pip layout, solid or marbled, a side face
showing when seen at an angle, cocked on an edge; and its box as the reader should find it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

SHIFT = 4  # sub-pixel bits for OpenCV drawing
ONE = 1 << SHIFT

# Pip centres on a face, in face units: the face spans [-1, 1] on both axes.
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0.0, 0.0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0.0, 0.0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.55), (0.5, -0.55), (-0.5, 0.0), (0.5, 0.0), (-0.5, 0.55), (0.5, 0.55)),
}
_PIP_RADIUS = 0.2  # face units (a fifth of the half side)
_CORNER = 0.3  # corner radius, face units


@dataclass(frozen=True)
class Die:
    """One die of a scene, as drawn (pixels of the image, radians)."""

    center: tuple[float, float]  # top-face centre, pixels
    side: float  # pixels
    angle: float  # radians
    value: int  # face on top (the larger face of a cocked die)
    color: str
    body: tuple[float, float, float]  # BGR as drawn, before the tray's light
    pips: tuple[float, float, float]
    cocked: bool
    other: int  # second face seen on a cocked die
    # (BGR, streaks: list of (k, 2) face-unit polylines, width)
    marble: tuple[tuple[float, float, float], list[NDArray[Any]], float] | None = None


def _rounded_square(n_arc: int = 4) -> NDArray[Any]:
    """Outline of a rounded square in face units, shape (4 * (n_arc + 1), 2)."""
    points = []
    inner = 1.0 - _CORNER
    for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        start = k * math.pi / 2
        for j in range(n_arc + 1):
            a = start + j * (math.pi / 2) / n_arc
            points.append((sx * inner + _CORNER * math.cos(a), sy * inner + _CORNER * math.sin(a)))
    return np.array(points, dtype=np.float64)


_OUTLINE = _rounded_square()


class View:
    """Projection of tray coordinates into the image for a camera tilted by ``perspective``.

    Ground points keep x; y shrinks by cos(tilt); a point at height z moves up by z·sin(tilt),
    so the near (lower) side faces of the dice show.
    """

    def __init__(self, perspective: float):
        tilt = perspective * math.radians(45.0)
        self.squash = math.cos(tilt)
        self.lift = math.sin(tilt)

    def face(self, die: Die, local: NDArray[Any], scale: float = 1.0) -> NDArray[Any]:
        """Face-unit points (N, 2) of the top face → image pixels (N, 2)."""
        c, s = math.cos(die.angle), math.sin(die.angle)
        half = die.side / 2 * scale
        x = (local[:, 0] * c - local[:, 1] * s) * half
        y = (local[:, 0] * s + local[:, 1] * c) * half * self.squash
        return np.stack([x + die.center[0], y + die.center[1]], axis=1)

    def base(self, top: NDArray[Any], side: float) -> NDArray[Any]:
        """The ground outline under a top-face outline (pixels)."""
        return np.asarray(top + np.array([0.0, side * self.lift]))


def _fixed(points: NDArray[Any]) -> NDArray[Any]:
    return np.asarray(np.round(points * ONE), dtype=np.int32)


def fill_poly(img: NDArray[Any], points: NDArray[Any], color: Sequence[float]) -> None:
    """Fill the polygon of ``points`` ((k, 2) float pixels) on ``img``, antialiased, sub-pixel."""
    cv2.fillPoly(img, [_fixed(points)], color, cv2.LINE_AA, SHIFT)


def convex_hull(points: NDArray[Any]) -> NDArray[Any]:
    """The convex hull of ``points`` ((k, 2) pixels), as (m, 2) float64."""
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def outline_points(die: Die, view: View) -> NDArray[Any]:
    """Every image point the die covers the outline of (top face and what shows of its sides)."""
    if die.cocked:
        top = view.face(die, np.array([[-1.41, -1], [1.41, -1], [1.41, 1], [-1.41, 1]]))
    else:
        top = view.face(die, _OUTLINE)
    return np.vstack([top, view.base(top, die.side)])


def die_box(die: Die, view: View, size: tuple[int, int]) -> list[int] | None:
    """The die's ``[x0, y0, x1, y1]`` box in an image of ``size`` (W, H) pixels, the pixels
    it tints included; None when less than 2 pixels of it are inside the image."""
    pts = outline_points(die, view)
    w, h = size
    # OpenCV's antialiased fill tints pixels up to about 1.5 px beyond the outline.
    x0, y0 = np.ceil(pts.min(axis=0) - 1.5).astype(int)
    x1, y1 = np.floor(pts.max(axis=0) + 1.5).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return [int(x0), int(y0), int(x1), int(y1)]


def _shade(color: tuple[float, float, float], factor: float) -> tuple[float, float, float]:
    b, g, r = (float(min(255.0, v * factor)) for v in color)
    return b, g, r


def _draw_pips(img: NDArray[Any], view: View, die: Die, value: int,
               local_to_face: Callable[[NDArray[Any]], NDArray[Any]], shade: float) -> None:
    color = _shade(die.pips, shade)
    for u, v in _PIPS[value]:
        centre = view.face(die, local_to_face(np.array([[u, v]])))[0]
        # Pip axes follow the face's own squash: project two unit vectors.
        ends = view.face(die, local_to_face(np.array([[u + _PIP_RADIUS, v], [u, v + _PIP_RADIUS]])))
        ax = np.linalg.norm(ends[0] - centre)
        ay = np.linalg.norm(ends[1] - centre)
        direction = ends[0] - centre
        angle = math.degrees(math.atan2(direction[1], direction[0]))
        cv2.ellipse(img, (int(round(centre[0] * ONE)), int(round(centre[1] * ONE))),
                    (max(1, int(round(ax * ONE))), max(1, int(round(ay * ONE)))),
                    angle, 0, 360, color, -1, cv2.LINE_AA, SHIFT)


def _draw_marble(img: NDArray[Any], die: Die, view: View, face: NDArray[Any], light: float) -> None:
    """Streaks of a second colour across the top face of a marbled die, clipped to it."""
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(face.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(face.max(axis=0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    if die.marble is None:
        return
    roi = img[y0:y1, x0:x1]
    layer = roi.copy()
    color, streaks, width = die.marble
    thickness = max(1, int(round(width * die.side / 2)))
    for line in streaks:
        points = view.face(die, line) - (x0, y0)
        cv2.polylines(layer, [_fixed(points)], False, _shade(color, light), thickness,
                      cv2.LINE_AA, SHIFT)
    inside = np.zeros(roi.shape[:2], np.uint8)
    fill_poly(inside, face - (x0, y0), (255,))
    alpha = (inside.astype(np.float32) / 255.0)[:, :, None]
    roi[:] = (layer * alpha + roi * (1.0 - alpha)).astype(np.uint8)


def draw_die(img: NDArray[Any], die: Die, view: View, light: float) -> None:
    """Draw one die into a uint8 BGR image in place."""
    body = _shade(die.body, light)
    if die.cocked:
        # Resting on an edge: two faces at 45°, each foreshortened to 0.71 of its width.
        left = np.array([[-1.41, -1], [0, -1], [0, 1], [-1.41, 1]])
        right = np.array([[0, -1], [1.41, -1], [1.41, 1], [0, 1]])
        top = view.face(die, np.vstack([left, right]))
        fill_poly(img, convex_hull(np.vstack([top, view.base(top, die.side)])), _shade(body, 0.55))
        fill_poly(img, view.face(die, left), _shade(body, 1.0))
        fill_poly(img, view.face(die, right), _shade(body, 0.75))
        _draw_pips(img, view, die, die.value, lambda p: p * [0.707, 1.0] + [-0.707, 0.0], 1.0)
        _draw_pips(img, view, die, die.other, lambda p: p * [0.707, 1.0] + [0.707, 0.0], 0.8)
        return
    top = view.face(die, _OUTLINE)
    if view.lift > 0:
        fill_poly(img, convex_hull(np.vstack([top, view.base(top, die.side)])), _shade(body, 0.62))
    fill_poly(img, top, _shade(body, 0.82))  # bevel
    face = view.face(die, _OUTLINE, scale=0.93)
    fill_poly(img, face, body)
    if die.marble is not None:
        _draw_marble(img, die, view, face, light)
    _draw_pips(img, view, die, die.value, lambda p: p, 1.0)
