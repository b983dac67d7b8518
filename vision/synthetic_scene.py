"""The layout of a synthetic tray (:mod:`vision.synthetic`): the dice chosen from the
options and a seed, placed apart or touching, cocked, marbled, inside a rim, the light over
the floor; and the truth the reader should find in it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colors import PALETTE, REFERENCE_BGR
from vision.synthetic_die import Die, View, convex_hull, die_box, outline_points

_DARK_PIPS = {"white", "yellow", "gold"}  # dice whose pips are painted dark


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
class Scene:
    """A laid-out tray: ``size`` (W, H) pixels, the floor's BGR, the light (H, W) float32 ≈ 1,
    the dice, the view, and where shadows and glare fall."""

    size: tuple[int, int]
    floor: tuple[float, float, float]
    light: NDArray[Any]
    dice: tuple[Die, ...]
    view: View
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
              color: str, cocked: bool) -> Die:
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
    return Die(center=(float(center[0]), float(center[1])), side=float(side),
                angle=float(angle), value=int(value), color=color, body=(body[0], body[1], body[2]), pips=pips,
                cocked=cocked, other=other)


def layout_scene(seed: int, *, count: Any, values: Any, colors: Any, size: tuple[int, int],
                 die_px: tuple[float, float], touching: bool, rotation: bool, perspective: float,
                 floor: tuple[float, float, float] | None, cocked: int, marbled: float = 0.0,
                 rim: bool = False) -> tuple[Scene, np.random.Generator]:
    """The scene of :func:`vision.synthetic.render_tray`'s options (see there), and the
    seed's generator as the layout left it.

    :raises TypeError: for a seed that is not an int.
    :raises ValueError: for an option out of its range.
    """
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
    view = View(float(perspective))
    side = rng.uniform(lo, hi)
    flat = len(values)
    extra = [int(v) for v in rng.integers(1, 7, int(cocked))]
    faces = values + extra
    tints = colors + [PALETTE[i] for i in rng.integers(0, len(PALETTE), int(cocked))]
    placed: list[Die] = []
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
    scene = Scene(
        size=(w, h), floor=floor, light=light, dice=tuple(placed), view=view, rim=rim_px,
        shadow_offset=(math.cos(angle), math.sin(angle)),
        glare_center=(rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h),
        glare_corner=(rng.choice([-0.45, 0.45]), rng.choice([-0.45, 0.45])),
    )
    return scene, rng


_RIM = 0.07  # width of the tray's dark rim, fraction of the image's shorter side
RIM_BGR = (44, 40, 42)
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


def _reach(die_side: float, view: View, cocked: bool) -> float:
    """Radius of a circle holding the die's whole image, pixels."""
    half = die_side / 2 * (1.41 if cocked else 1.0)
    return math.hypot(half, die_side / 2) + die_side * view.lift


def _footprint(center: tuple[float, float], side: float, angle: float, cocked: bool, view: View) -> NDArray[Any]:
    """Convex outline (N, 2) float32 of a die's image, grown by 1.5 px all round."""
    die = Die(center=center, side=side, angle=angle, value=1, color="white", body=(0, 0, 0),
               pips=(0, 0, 0), cocked=cocked, other=1)
    hull = convex_hull(outline_points(die, view))
    middle = hull.mean(axis=0)
    away = hull - middle
    away /= np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-9)
    return np.asarray(hull + 1.5 * away, dtype=np.float32)


def _apart(a: NDArray[Any], b: NDArray[Any]) -> bool:
    area, _ = cv2.intersectConvexConvex(a, b)
    return area <= 0


def _place(rng: np.random.Generator, placed: Sequence[Die], sides: Sequence[float], values: Sequence[int],
           colors: Sequence[str], cocked: bool, size: tuple[int, int], view: View, rotation: bool,
           rim: int) -> list[Die]:
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


def dice_truth(scene: Scene, dice: Sequence[Die]) -> list[dict[str, Any]]:
    """What the reader should find: ``{"value" (None cocked), "sides", "box", "color",
    "cocked"}`` per die of ``dice`` inside the image."""
    truth = []
    for die in dice:
        box = die_box(die, scene.view, scene.size)
        if box is None:
            continue
        truth.append({"value": None if die.cocked else die.value, "sides": 6, "box": box,
                      "color": die.color, "cocked": die.cocked})
    return truth
