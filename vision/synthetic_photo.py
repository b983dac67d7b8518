"""A synthetic tray (:mod:`vision.synthetic`) painted as a camera sees it: the floor and
rim under the scene's light, soft shadows, the dice, then motion blur, blur, glare, a
white-balance cast and sensor noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synthetic_die import ONE, SHIFT, Die, convex_hull, draw_die, fill_poly, outline_points
from vision.synthetic_scene import RIM_BGR, Scene


def paint_scene(scene: Scene, dice: Sequence[Die], *, glare: float, shadow: float, blur: float,
                noise: float, white_balance: Sequence[float] | None, noise_rng: np.random.Generator,
                motion: tuple[float, float] = (0.0, 0.0)) -> NDArray[Any]:
    """The scene with ``dice`` on it as an H×W×3 uint8 BGR photo, under the effects of
    :func:`vision.synthetic.render_tray` (``motion``: a blur streak, pixels)."""
    w, h = scene.size
    view = scene.view
    light = scene.light
    if shadow > 0 and dice:
        mask: NDArray[Any] = np.zeros((h, w), np.uint8)
        for die in dice:
            off = np.array(scene.shadow_offset) * die.side * 0.18
            fill_poly(mask, convex_hull(outline_points(die, view)) + off, (255,))
        sigma = max(1.0, 0.12 * float(np.mean([d.side for d in dice])))
        # A soft shadow needs no detail: blur at half size, four times less work.
        small = cv2.resize(mask, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), sigma / 2)
        mask = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        light = light * (1.0 - (0.55 * shadow / 255.0) * mask.astype(np.float32))
    floor: NDArray[Any] = light[:, :, None] * np.asarray(scene.floor, np.float32)
    if scene.rim:
        r = scene.rim
        inner = floor[r:h - r, r:w - r].copy()
        inner[:2] = inner[-2:] = inner[:, :2] = inner[:, -2:] = 235.0  # top of the tray wall
        floor[:] = light[:, :, None] * np.asarray(RIM_BGR, np.float32)
        floor[r:h - r, r:w - r] = inner
    img = cv2.convertScaleAbs(floor)  # saturating cast to uint8
    for die in sorted(dice, key=lambda d: d.center[1]):  # far dice first: near ones hide them
        x = int(min(max(die.center[0], 0), w - 1))
        y = int(min(max(die.center[1], 0), h - 1))
        draw_die(img, die, view, float(scene.light[y, x]))
    if motion != (0.0, 0.0):
        img = _motion_blur(img, motion)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), float(blur))
    if not (glare > 0 or noise > 0 or white_balance is not None):
        return img
    out: NDArray[Any] = img.astype(np.float32)
    if glare > 0:
        out = _add_glare(out, scene, dice, glare)
    if white_balance is not None:
        out *= np.asarray(white_balance, np.float32)
    if noise > 0:
        out = cv2.scaleAdd(_noise_field(noise_rng, h, w), float(noise), out)
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


_NOISE_SHIFT = 256  # distinct offsets per axis into the noise tile


def _noise_field(rng: np.random.Generator, h: int, w: int) -> NDArray[Any]:
    """Unit gaussian noise, (h, w, 3) float32.

    Drawing a million normals takes longer than the whole picture, so the field is a window
    at a random offset into a fixed, larger tile of them: neighbouring pixels stay
    independent, which is what sensor noise looks like, and frames differ.
    """
    oy, ox = (int(v) for v in rng.integers(0, _NOISE_SHIFT, 2))
    return _tile(h, w)[oy:oy + h, ox:ox + w]


_TILES: dict[tuple[int, int], NDArray[Any]] = {}


def _tile(h: int, w: int) -> NDArray[Any]:
    if (h, w) not in _TILES:
        if len(_TILES) >= 4:  # a few frame sizes at most (photo, preview)
            _TILES.pop(next(iter(_TILES)))
        fixed = np.random.default_rng(0x5EED)
        _TILES[h, w] = fixed.standard_normal((h + _NOISE_SHIFT, w + _NOISE_SHIFT, 3),
                                             dtype=np.float32)
    return _TILES[h, w]


def _add_glare(out: NDArray[Any], scene: Scene, dice: Sequence[Die], glare: float) -> NDArray[Any]:
    h, w = out.shape[:2]
    gx, gy = scene.glare_center
    sigma = 0.12 * min(w, h)
    xs = np.exp(-((np.arange(w) - gx) ** 2) / (2 * sigma**2)).astype(np.float32)
    ys = np.exp(-((np.arange(h) - gy) ** 2) / (2 * sigma**2)).astype(np.float32)
    spot: NDArray[Any] = np.zeros((h, w), np.float32)
    for die in dice:  # specular highlight on each top face, near one corner
        corner = scene.view.face(die, np.array([scene.glare_corner]))[0]
        cv2.circle(spot, (int(round(corner[0] * ONE)), int(round(corner[1] * ONE))),
                   max(ONE, int(die.side * 0.12 * ONE)), (1.0,), -1, cv2.LINE_AA, SHIFT)
    if dice:
        spot = cv2.GaussianBlur(spot, (0, 0), max(1.0, 0.04 * dice[0].side))
    alpha = np.minimum(glare * (0.5 * ys[:, None] * xs[None, :] + 0.9 * spot), 1.0)
    out += (255.0 - out) * alpha[:, :, None]
    return out


def _motion_blur(img: NDArray[Any], motion: tuple[float, float]) -> NDArray[Any]:
    """Smear the frame along ``motion`` (dx, dy) pixels, the travel during one exposure.

    A box blur stretched along the two axes of the motion: a line-shaped kernel at an
    angle costs ten times more and the settle detector only needs frames to differ.
    """
    kx = int(round(abs(motion[0])))
    ky = int(round(abs(motion[1])))
    if max(kx, ky) < 2:
        return img
    return cv2.blur(img, (max(kx, 1), max(ky, 1)), borderType=cv2.BORDER_REPLICATE)


def check_effects(glare: float, shadow: float, noise: float, blur: float,
                  white_balance: Sequence[float] | None) -> None:
    """:raises ValueError: for an effect of :func:`vision.synthetic.render_tray` out of its range."""
    for name, v, top in (("glare", glare, 1.0), ("shadow", shadow, 1.0)):
        if not 0 <= v <= top:
            raise ValueError(f"{name} must be in [0, {top}], got {v}")
    for name, v in (("noise", noise), ("blur", blur)):
        if v < 0:
            raise ValueError(f"{name} must be ≥ 0, got {v}")
    if white_balance is not None and (len(white_balance) != 3 or min(white_balance) <= 0):
        raise ValueError(f"white_balance must be three positive BGR gains, got {white_balance!r}")
