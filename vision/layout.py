"""Check that pips form one of the six faces of a pip die.

The canonical layouts are checked up to an affine map (any rotation, and
the foreshortening of a camera at an angle): 3 in a line with the middle at
the midpoint, 4 at the corners of a parallelogram, 5 = 4 + the centre, 6 =
two parallel rows of three.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

_TOLERANCE = 0.25  # of the layout's mean radius: how far a pip may sit from its place


def _parallelogram(corners: np.ndarray, tol: float) -> bool:
    """Four points whose diagonals bisect each other, with no point near the middle."""
    center = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - center[1], corners[:, 0] - center[0])
    p = corners[np.argsort(angles)]
    if np.linalg.norm((p[0] + p[2]) - (p[1] + p[3])) > 2 * tol:
        return False
    return bool(np.linalg.norm(p - center, axis=1).min() > 2 * tol)


def layout_fits(points: np.ndarray) -> bool:
    """Whether n = len(points) pip centres (n×2 pixels) form the face showing n.

    :returns: True for 1 and 2 pips (any place fits), the layout check for 3–6,
        False for none or more than 6.
    """
    n = len(points)
    if n in (1, 2):
        return True
    if n == 0 or n > 6:
        return False
    center = points.mean(axis=0)
    spread = float(np.linalg.norm(points - center, axis=1).mean())
    tol = _TOLERANCE * spread
    if n == 3:
        dists = [(np.linalg.norm(points[i] - points[j]), i, j) for i, j in combinations(range(3), 2)]
        _, i, j = max(dists)
        middle = points[3 - i - j]
        return bool(np.linalg.norm(middle - (points[i] + points[j]) / 2) < tol)
    if n == 4:
        return _parallelogram(points, tol)
    if n == 5:
        k = int(np.argmin(np.linalg.norm(points - center, axis=1)))
        corners = np.delete(points, k, axis=0)
        return bool(np.linalg.norm(points[k] - corners.mean(axis=0)) < tol) and _parallelogram(corners, tol)
    # six: the two pips nearest the centre are the midpoints of two opposite sides
    order = np.argsort(np.linalg.norm(points - center, axis=1))
    middles, corners = points[order[:2]], points[order[2:]]
    if not _parallelogram(corners, tol):
        return False
    for pairing in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))):
        mids = np.array([corners[list(pair)].mean(axis=0) for pair in pairing])
        for a, b in ((0, 1), (1, 0)):
            if (np.linalg.norm(middles[0] - mids[a]) < tol and np.linalg.norm(middles[1] - mids[b]) < tol):
                return True
    return False
