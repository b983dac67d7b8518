"""Synthetic tray photos with known truth, for tests and the simulated camera.

A tray is drawn from a seed (:func:`render_tray`): a light floor under uneven light,
six-sided pip dice as rounded squares with the canonical pip layouts, solid or marbled,
optionally seen at an angle (a side face shows), touching each other, cocked on an edge,
inside a dark tray rim, with soft shadows, glare, noise, blur and a white-balance cast.
:func:`render_motion` draws the frames of the throw that ends in such a tray, for the
simulated camera and the settle detector. Everything random comes from generators seeded
with the seed, so a seed and the same options always give the same picture. It does not
stand in for real photos when judging the reader (those are ``../shared/datasets/real-dice``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colors import PALETTE, REFERENCE_BGR

_SHIFT = 4  # sub-pixel bits for OpenCV drawing
_ONE = 1 << _SHIFT

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
_DARK_PIPS = {"white", "yellow", "gold"}


@dataclass(frozen=True)
class _Die:
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


class _View:
    """Projection of tray coordinates into the image for a camera tilted by ``perspective``.

    Ground points keep x; y shrinks by cos(tilt); a point at height z moves up by z·sin(tilt),
    so the near (lower) side faces of the dice show.
    """

    def __init__(self, perspective: float):
        tilt = perspective * math.radians(45.0)
        self.squash = math.cos(tilt)
        self.lift = math.sin(tilt)

    def face(self, die: _Die, local: NDArray[Any], scale: float = 1.0) -> NDArray[Any]:
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
    return np.asarray(np.round(points * _ONE), dtype=np.int32)


def _poly(img: NDArray[Any], points: NDArray[Any], color: Sequence[float]) -> None:
    cv2.fillPoly(img, [_fixed(points)], color, cv2.LINE_AA, _SHIFT)


def _hull(points: NDArray[Any]) -> NDArray[Any]:
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def _outline_points(die: _Die, view: _View) -> NDArray[Any]:
    """Every image point the die covers the outline of (top face and what shows of its sides)."""
    if die.cocked:
        top = view.face(die, np.array([[-1.41, -1], [1.41, -1], [1.41, 1], [-1.41, 1]]))
    else:
        top = view.face(die, _OUTLINE)
    return np.vstack([top, view.base(top, die.side)])


def _box(die: _Die, view: _View, size: tuple[int, int]) -> list[int] | None:
    pts = _outline_points(die, view)
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


def _draw_pips(img: NDArray[Any], view: _View, die: _Die, value: int,
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
        cv2.ellipse(img, (int(round(centre[0] * _ONE)), int(round(centre[1] * _ONE))),
                    (max(1, int(round(ax * _ONE))), max(1, int(round(ay * _ONE)))),
                    angle, 0, 360, color, -1, cv2.LINE_AA, _SHIFT)


def _draw_marble(img: NDArray[Any], die: _Die, view: _View, face: NDArray[Any], light: float) -> None:
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
                      cv2.LINE_AA, _SHIFT)
    inside = np.zeros(roi.shape[:2], np.uint8)
    _poly(inside, face - (x0, y0), (255,))
    alpha = (inside.astype(np.float32) / 255.0)[:, :, None]
    roi[:] = (layer * alpha + roi * (1.0 - alpha)).astype(np.uint8)


def _draw_die(img: NDArray[Any], die: _Die, view: _View, light: float) -> None:
    """Draw one die into a uint8 BGR image in place."""
    body = _shade(die.body, light)
    if die.cocked:
        # Resting on an edge: two faces at 45°, each foreshortened to 0.71 of its width.
        left = np.array([[-1.41, -1], [0, -1], [0, 1], [-1.41, 1]])
        right = np.array([[0, -1], [1.41, -1], [1.41, 1], [0, 1]])
        top = view.face(die, np.vstack([left, right]))
        _poly(img, _hull(np.vstack([top, view.base(top, die.side)])), _shade(body, 0.55))
        _poly(img, view.face(die, left), _shade(body, 1.0))
        _poly(img, view.face(die, right), _shade(body, 0.75))
        _draw_pips(img, view, die, die.value, lambda p: p * [0.707, 1.0] + [-0.707, 0.0], 1.0)
        _draw_pips(img, view, die, die.other, lambda p: p * [0.707, 1.0] + [0.707, 0.0], 0.8)
        return
    top = view.face(die, _OUTLINE)
    if view.lift > 0:
        _poly(img, _hull(np.vstack([top, view.base(top, die.side)])), _shade(body, 0.62))
    _poly(img, top, _shade(body, 0.82))  # bevel
    face = view.face(die, _OUTLINE, scale=0.93)
    _poly(img, face, body)
    if die.marble is not None:
        _draw_marble(img, die, view, face, light)
    _draw_pips(img, view, die, die.value, lambda p: p, 1.0)


def _illumination(rng: np.random.Generator, size: tuple[int, int]) -> NDArray[Any]:
    """Uneven light over the tray: a gentle gradient and vignette, shape (H, W) float32 ≈ 1."""
    w, h = size
    x = np.linspace(-1, 1, w)
    y = np.linspace(-1, 1, h)
    gx, gy = rng.uniform(-0.06, 0.06, 2)
    vignette = rng.uniform(0.03, 0.12)
    # Separable: a column term plus a row term, summed once at full size.
    rows = (1.0 + gy * y - vignette * y**2 / 2).astype(np.float32)
    cols = (gx * x - vignette * x**2 / 2).astype(np.float32)
    return np.asarray(rows[:, None] + cols[None, :])


@dataclass(frozen=True)
class _Scene:
    size: tuple[int, int]
    floor: tuple[float, float, float]
    light: NDArray[Any]
    dice: tuple[_Die, ...]
    view: _View
    shadow_offset: tuple[float, float]
    glare_center: tuple[float, float]
    glare_corner: tuple[float, float]
    rim: int = 0  # pixels


def _choose(rng: np.random.Generator, count: Any, values: Any, colors: Any) -> tuple[list[int], list[str]]:
    """``render_tray``'s ``count``, ``values`` and ``colors`` as given (checked here), made whole."""
    one_colour = colors if isinstance(colors, str) else None
    if one_colour is not None:
        colors = None  # applied once the number of dice is known
    n = None
    for name, seq in (("values", values), ("colors", colors)):
        if seq is not None:
            if n is not None and len(seq) != n:
                raise ValueError(f"{name} has {len(seq)} dice but another option asks for {n}")
            n = len(seq)
    if count is not None:
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
            raise ValueError(f"count must be a whole number ≥ 0, not {count!r}")
        if n is not None and n != count:
            raise ValueError(f"count={count} but {n} values/colours were given")
        n = int(count)
    if n is None:
        n = int(rng.integers(1, 9))
    if values is None:
        values = [int(v) for v in rng.integers(1, 7, n)]
    else:
        values = [int(v) for v in values]
        bad = [v for v in values if not 1 <= v <= 6]
        if bad:
            raise ValueError(f"face values must be 1 to 6, got {bad}")
    if one_colour is not None:
        colors = [one_colour] * n
    if colors is None:
        colors = [PALETTE[i] for i in rng.integers(0, len(PALETTE), n)]
    else:
        colors = list(colors)
        bad = [c for c in colors if c not in PALETTE]
        if bad:
            raise ValueError(f"unknown colour(s) {bad}; palette: {', '.join(PALETTE)}")
    return values, colors


def _make_die(rng: np.random.Generator, center: tuple[float, float], side: float, angle: float, value: int,
              color: str, cocked: bool) -> _Die:
    body = np.array(REFERENCE_BGR[color], dtype=np.float64)
    body = np.clip(body * rng.uniform(0.9, 1.08) * (1 + rng.normal(0, 0.03, 3)), 0, 255)
    if color in _DARK_PIPS:
        pips = (28.0, 26.0, 26.0)
    elif color == "black" and rng.random() < 0.3:
        pips = (40.0, 40.0, 190.0)  # smoke dice with red pips
    else:
        pips = (235.0, 238.0, 238.0)
    other = value
    if cocked:
        other = int(rng.choice([f for f in range(1, 7) if f not in (value, 7 - value)]))
    return _Die(center=(float(center[0]), float(center[1])), side=float(side),
                angle=float(angle), value=int(value), color=color, body=(body[0], body[1], body[2]), pips=pips,
                cocked=cocked, other=other)


def _layout(seed: int, *, count: Any, values: Any, colors: Any, size: tuple[int, int],
            die_px: tuple[float, float], touching: bool, rotation: bool, perspective: float,
            floor: tuple[float, float, float] | None, cocked: int, marbled: float = 0.0,
            rim: bool = False) -> tuple[_Scene, np.random.Generator]:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    w, h = (int(v) for v in size)
    if w < 32 or h < 32:
        raise ValueError(f"size must be at least 32×32 pixels, got {w}×{h}")
    lo, hi = (float(v) for v in die_px)
    if not 6 <= lo <= hi:
        raise ValueError(f"die_px must be (min, max) with 6 ≤ min ≤ max, got {die_px}")
    if not 0 <= perspective <= 1:
        raise ValueError(f"perspective must be in [0, 1], got {perspective}")
    if isinstance(cocked, bool) or cocked < 0:
        raise ValueError(f"cocked must be a count ≥ 0, got {cocked!r}")
    if not 0 <= marbled <= 1:
        raise ValueError(f"marbled must be in [0, 1], got {marbled}")
    rim_px = int(round(_RIM * min(w, h))) if rim else 0
    rng = np.random.default_rng(seed)
    values, colors = _choose(rng, count, values, colors)
    if floor is None:
        grey = rng.uniform(185, 222)
        b, g, r = (float(np.clip(grey + d, 0, 255)) for d in rng.normal(0, 4, 3))
        floor = (b, g, r)
    elif len(floor) != 3:
        raise ValueError(f"floor must be a BGR triple, got {floor!r}")
    view = _View(float(perspective))
    side = rng.uniform(lo, hi)
    flat = len(values)
    extra = [int(v) for v in rng.integers(1, 7, int(cocked))]
    faces = values + extra
    tints = colors + [PALETTE[i] for i in rng.integers(0, len(PALETTE), int(cocked))]
    placed: list[_Die] = []
    i = 0
    while i < len(faces):
        is_cocked = i >= flat
        sides = [side * rng.uniform(0.95, 1.05)]
        pair = touching and i + 1 < flat
        if pair:
            sides.append(side * rng.uniform(0.95, 1.05))
        dice = _place(rng, placed, sides, faces[i:i + len(sides)], tints[i:i + len(sides)],
                      is_cocked, (w, h), view, rotation, rim_px)
        placed.extend(dice)
        i += len(dice)
    if marbled > 0:
        # A generator of its own, so asking for marbled dice moves nothing else.
        looks = np.random.default_rng([int(seed), 3])
        placed = [replace(d, marble=_marble(looks, d.color)) if looks.random() < marbled else d
                  for d in placed]
    light = _illumination(rng, (w, h))
    angle = rng.uniform(0, 2 * math.pi)
    scene = _Scene(
        size=(w, h), floor=floor, light=light, dice=tuple(placed), view=view, rim=rim_px,
        shadow_offset=(math.cos(angle), math.sin(angle)),
        glare_center=(rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h),
        glare_corner=(rng.choice([-0.45, 0.45]), rng.choice([-0.45, 0.45])),
    )
    return scene, rng


_RIM = 0.07  # width of the tray's dark rim, fraction of the image's shorter side
_RIM_BGR = (44, 40, 42)
# Streak colour of marbled dice, per body colour (the dataset's marbled dice: teal with
# dark streaks, blue/black, gold/brown, yellow/orange).
_MARBLE_BGR = {"white": (150, 160, 165), "black": (90, 88, 86), "red": (30, 25, 110),
               "green": (60, 90, 20), "blue": (40, 20, 12), "purple": (50, 14, 40),
               "yellow": (20, 120, 235), "gold": (18, 50, 80)}


def _marble(rng: np.random.Generator, color: str) -> tuple[tuple[float, float, float], list[NDArray[Any]], float]:
    streaks = []
    for _ in range(int(rng.integers(2, 5))):
        start = rng.uniform(-1, 1, 2)
        steps = rng.normal(0, 0.45, (4, 2))
        streaks.append(np.clip(start + np.cumsum(steps, axis=0), -1.2, 1.2))
    return (_MARBLE_BGR[color], streaks, float(rng.uniform(0.12, 0.3)))


def _reach(die_side: float, view: _View, cocked: bool) -> float:
    """Radius of a circle holding the die's whole image, pixels."""
    half = die_side / 2 * (1.41 if cocked else 1.0)
    return math.hypot(half, die_side / 2) + die_side * view.lift


def _footprint(center: tuple[float, float], side: float, angle: float, cocked: bool, view: _View) -> NDArray[Any]:
    """Convex outline (N, 2) float32 of a die's image, grown by 1.5 px all round."""
    die = _Die(center=center, side=side, angle=angle, value=1, color="white", body=(0, 0, 0),
               pips=(0, 0, 0), cocked=cocked, other=1)
    hull = _hull(_outline_points(die, view))
    middle = hull.mean(axis=0)
    away = hull - middle
    away /= np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-9)
    return np.asarray(hull + 1.5 * away, dtype=np.float32)


def _apart(a: NDArray[Any], b: NDArray[Any]) -> bool:
    area, _ = cv2.intersectConvexConvex(a, b)
    return area <= 0


def _place(rng: np.random.Generator, placed: Sequence[_Die], sides: Sequence[float], values: Sequence[int],
           colors: Sequence[str], cocked: bool, size: tuple[int, int], view: _View, rotation: bool,
           rim: int) -> list[_Die]:
    """Place one die, or two touching face against face, clear of the dice placed so far.

    Candidates are drawn at random; first they must be clear by circles around each die
    (a roomy tray), then, if that fails, by the dice's outlines (a crowded tray).
    """
    w, h = size
    reach = [_reach(s, view, cocked) for s in sides]
    for attempt in range(800):
        exact = attempt >= 400
        angle = rng.uniform(0, 2 * math.pi) if rotation else float(rng.integers(0, 4)) * math.pi / 2
        m = reach[0] + rim + 2
        centers = [(rng.uniform(m, w - m), rng.uniform(m, h - m))]
        if len(sides) == 2:
            # Same orientation, the second die against one of the first's faces.
            axis = rng.integers(0, 4) * math.pi / 2 + angle
            slide = rng.uniform(-0.3, 0.3) * sides[1]
            gap = (sides[0] + sides[1]) / 2 * 0.99
            dx = gap * math.cos(axis) - slide * math.sin(axis)
            dy = gap * math.sin(axis) + slide * math.cos(axis)
            centers.append((centers[0][0] + dx, centers[0][1] + dy * view.squash))
        if not all(r + rim < x < w - r - rim and r + rim < y < h - r - rim
                   for (x, y), r in zip(centers, reach, strict=True)):
            continue
        if exact:
            mine = [_footprint(c, s, angle, cocked, view) for c, s in zip(centers, sides, strict=True)]
            clear = all(_apart(f, _footprint(d.center, d.side, d.angle, d.cocked, view))
                        for f in mine for d in placed)
        else:
            clear = all(math.dist(c, d.center) > r + _reach(d.side, view, d.cocked) + 2
                        for c, r in zip(centers, reach, strict=True) for d in placed)
        if clear:
            return [_make_die(rng, c, s, angle, v, col, cocked)
                    for c, s, v, col in zip(centers, sides, values, colors, strict=True)]
    raise ValueError(f"cannot place {len(placed) + len(sides)} dice of {sides[0]:.0f} px in a "
                     f"{w}×{h} tray; ask for fewer or smaller dice")


def _truth(scene: _Scene, dice: Sequence[_Die]) -> list[dict[str, Any]]:
    truth = []
    for die in dice:
        box = _box(die, scene.view, scene.size)
        if box is None:
            continue
        truth.append({"value": None if die.cocked else die.value, "sides": 6, "box": box,
                      "color": die.color, "cocked": die.cocked})
    return truth


def _paint(scene: _Scene, dice: Sequence[_Die], *, glare: float, shadow: float, blur: float,
           noise: float, white_balance: Sequence[float] | None, noise_rng: np.random.Generator,
           motion: tuple[float, float] = (0.0, 0.0)) -> NDArray[Any]:
    w, h = scene.size
    view = scene.view
    light = scene.light
    if shadow > 0 and dice:
        mask: NDArray[Any] = np.zeros((h, w), np.uint8)
        for die in dice:
            off = np.array(scene.shadow_offset) * die.side * 0.18
            _poly(mask, _hull(_outline_points(die, view)) + off, (255,))
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
        floor[:] = light[:, :, None] * np.asarray(_RIM_BGR, np.float32)
        floor[r:h - r, r:w - r] = inner
    img = cv2.convertScaleAbs(floor)  # saturating cast to uint8
    for die in sorted(dice, key=lambda d: d.center[1]):  # far dice first: near ones hide them
        x = int(min(max(die.center[0], 0), w - 1))
        y = int(min(max(die.center[1], 0), h - 1))
        _draw_die(img, die, view, float(scene.light[y, x]))
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


def _add_glare(out: NDArray[Any], scene: _Scene, dice: Sequence[_Die], glare: float) -> NDArray[Any]:
    h, w = out.shape[:2]
    gx, gy = scene.glare_center
    sigma = 0.12 * min(w, h)
    xs = np.exp(-((np.arange(w) - gx) ** 2) / (2 * sigma**2)).astype(np.float32)
    ys = np.exp(-((np.arange(h) - gy) ** 2) / (2 * sigma**2)).astype(np.float32)
    spot: NDArray[Any] = np.zeros((h, w), np.float32)
    for die in dice:  # specular highlight on each top face, near one corner
        corner = scene.view.face(die, np.array([scene.glare_corner]))[0]
        cv2.circle(spot, (int(round(corner[0] * _ONE)), int(round(corner[1] * _ONE))),
                   max(_ONE, int(die.side * 0.12 * _ONE)), (1.0,), -1, cv2.LINE_AA, _SHIFT)
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


def _check_effects(glare: float, shadow: float, noise: float, blur: float,
                   white_balance: Sequence[float] | None) -> None:
    for name, v, top in (("glare", glare, 1.0), ("shadow", shadow, 1.0)):
        if not 0 <= v <= top:
            raise ValueError(f"{name} must be in [0, {top}], got {v}")
    for name, v in (("noise", noise), ("blur", blur)):
        if v < 0:
            raise ValueError(f"{name} must be ≥ 0, got {v}")
    if white_balance is not None and (len(white_balance) != 3 or min(white_balance) <= 0):
        raise ValueError(f"white_balance must be three positive BGR gains, got {white_balance!r}")


def render_tray(seed: int, *, count: int | None = None, values: Sequence[int] | None = None,
                colors: Sequence[str] | str | None = None, size: tuple[int, int] = (640, 640),
                die_px: tuple[float, float] = (36, 60), touching: bool = False,
                rotation: bool = True, glare: float = 0.0, shadow: float = 0.0,
                noise: float = 0.0, blur: float = 0.0, perspective: float = 0.0,
                floor: tuple[float, float, float] | None = None, cocked: int = 0,
                white_balance: tuple[float, float, float] | None = None,
                marbled: float = 0.0, rim: bool = False,
                ) -> tuple[NDArray[Any], list[dict[str, Any]]]:
    """Draw a settled tray of six-sided pip dice with known truth.

    :param seed: the picture's seed; the same seed and options give the same picture.
    :param count: number of flat dice; random 1–8 when neither count, values nor colors say.
    :param values: face value on top of each flat die (1–6); random when omitted.
    :param colors: palette name of each die (``vision.colors.PALETTE``), or one name for all;
        random when omitted.
    :param size: (width, height) of the image, pixels.
    :param die_px: (min, max) side of a die's top face, pixels; one size is drawn per tray
        and each die varies ±5 % around it.
    :param touching: place dice in pairs that touch face against face.
    :param rotation: dice at any angle; ``False`` keeps them square to the image (2, 3 and 6
        still come in both orientations).
    :param glare: strength in [0, 1] of a light hotspot on the floor and a highlight on each die.
    :param shadow: strength in [0, 1] of the soft shadow each die casts.
    :param noise: standard deviation of gaussian sensor noise, grey levels (0–255).
    :param blur: gaussian blur sigma, pixels (out of focus).
    :param perspective: camera tilt in [0, 1], 0 straight above, 1 about 45° (side faces show
        below each die, the tray is foreshortened vertically).
    :param floor: BGR colour of the tray floor; a light grey when omitted.
    :param cocked: number of extra dice resting on an edge (two faces show); their truth value
        is ``None``.
    :param white_balance: BGR gains of a camera colour cast, e.g. ``(0.8, 1.0, 1.25)`` warm.
    :param marbled: share in [0, 1] of the dice drawn marbled (streaks of a second colour).
    :param rim: draw the tray's dark rim around the frame (dice stay inside it).
    :returns: ``(image, truth)``: image H×W×3 uint8 BGR; truth one dict per die,
        ``{"value": int | None, "sides": 6, "box": [x0, y0, x1, y1], "color": str,
        "cocked": bool}``, box in pixels around the whole visible die (top and side faces),
        clipped to the image, x1/y1 exclusive.
    :raises ValueError: options out of range, lengths that disagree, an unknown colour, or
        more dice than fit in the tray.
    :raises TypeError: a seed that is not an int.
    """
    _check_effects(glare, shadow, noise, blur, white_balance)
    scene, rng = _layout(seed, count=count, values=values, colors=colors, size=size,
                         die_px=die_px, touching=touching, rotation=rotation,
                         perspective=perspective, floor=floor, cocked=cocked,
                         marbled=marbled, rim=rim)
    image = _paint(scene, scene.dice, glare=glare, shadow=shadow, blur=blur, noise=noise,
                   white_balance=white_balance, noise_rng=rng)
    return image, _truth(scene, scene.dice)


def render_motion(seed: int, t: float, *, throw_seconds: float = 1.0, exposure: float = 1 / 30,
                  **options: Any) -> tuple[NDArray[Any], list[dict[str, Any]]]:
    """One camera frame of a throw that ends in ``render_tray(seed, **options)``'s tray.

    Before ``t = 0`` the tray is empty. From 0 to ``throw_seconds`` the dice roll in from one
    side (the same side for a seed), slowing down to rest, tumbling (the face on top
    changes) and smeared by motion blur over ``exposure``. From ``throw_seconds`` on, the
    frame is the settled tray, identical to ``render_tray``'s except for the sensor noise,
    which is drawn afresh for every ``t``.

    :param seed: the throw's seed (same meaning as in ``render_tray``).
    :param t: time since the dice were thrown, seconds.
    :param throw_seconds: time until the dice are at rest, seconds (> 0).
    :param exposure: exposure time of a frame, seconds (sets the blur length).
    :param options: any keyword of ``render_tray``.
    :returns: ``(image, truth)`` as ``render_tray``, truth for the dice visible in the frame
        (while moving, ``value`` is the face showing at that moment).
    :raises ValueError: as ``render_tray``, or throw_seconds ≤ 0, exposure < 0.
    """
    if not throw_seconds > 0 or exposure < 0:
        raise ValueError("throw_seconds must be > 0 and exposure ≥ 0")
    effects = {k: options.pop(k) for k in ("glare", "shadow", "noise", "blur", "white_balance")
               if k in options}
    effects = {"glare": 0.0, "shadow": 0.0, "noise": 0.0, "blur": 0.0, "white_balance": None,
               **effects}
    _check_effects(**effects)
    defaults = dict(count=None, values=None, colors=None, size=(640, 640), die_px=(36, 60),
                    touching=False, rotation=True, perspective=0.0, floor=None, cocked=0,
                    marbled=0.0, rim=False)
    unknown = set(options) - set(defaults)
    if unknown:
        raise TypeError(f"unknown option(s) {sorted(unknown)}")
    scene, _ = _layout(seed, **{**defaults, **options})
    noise_rng = np.random.default_rng([int(seed), 1, int(round(t * 1e6)) & 0x7FFFFFFF])
    if t < 0:
        return _paint(replace(scene, dice=()), (), noise_rng=noise_rng, **effects), []
    u = min(float(t) / throw_seconds, 1.0)
    if u >= 1.0:
        return _paint(scene, scene.dice, noise_rng=noise_rng, **effects), _truth(scene, scene.dice)
    throw_rng = np.random.default_rng([int(seed), 2])
    w, h = scene.size
    heading = throw_rng.uniform(0, 2 * math.pi)
    travel = 0.9 * math.hypot(w, h)
    left = (1.0 - u) ** 2  # distance still to go, as a fraction: speed falls to 0 at rest
    speed = 2.0 * (1.0 - u) / throw_seconds  # d(left)/dt, fraction per second
    moving = []
    for die in scene.dice:
        jitter = throw_rng.normal(0, 0.08, 2) * travel
        start = (-math.cos(heading) * travel + jitter[0], -math.sin(heading) * travel + jitter[1])
        spin = throw_rng.uniform(4, 12) * (1 if throw_rng.random() < 0.5 else -1)
        faces = throw_rng.integers(1, 7, 8)
        tumbling = left > 0.01
        value = int(faces[int(left * 40) % 8]) if tumbling else die.value
        moving.append(replace(
            die, center=(die.center[0] + start[0] * left, die.center[1] + start[1] * left),
            angle=die.angle + spin * left, value=value,
            cocked=die.cocked, other=die.other))
    blur_vec = (math.cos(heading) * travel * speed * exposure,
                math.sin(heading) * travel * speed * exposure)
    image = _paint(scene, moving, noise_rng=noise_rng, motion=blur_vec, **effects)
    return image, _truth(scene, moving)
