"""Synthetic tray photos with known truth, for tests and the simulated camera.

A tray is drawn from a seed (:func:`render_tray`): a light floor under uneven light,
six-sided pip dice as rounded squares with the canonical pip layouts, solid or marbled,
optionally seen at an angle (a side face shows), touching each other, cocked on an edge,
inside a dark tray rim, with soft shadows, glare, noise, blur and a white-balance cast.
:func:`render_motion` draws the frames of the throw that ends in such a tray, for the
simulated camera and the settle detector. Everything random comes from generators seeded
with the seed, so a seed and the same options always give the same picture. It does not
stand in for real photos when judging the reader (those are ``../shared/datasets/real-dice``).

A die is drawn by :mod:`vision.synthetic_die`, the tray laid out by
:mod:`vision.synthetic_scene` and painted as a camera sees it by :mod:`vision.synthetic_photo`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.synthetic_photo import check_effects, paint_scene
from vision.synthetic_scene import dice_truth, layout_scene


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
    check_effects(glare, shadow, noise, blur, white_balance)
    scene, rng = layout_scene(seed, count=count, values=values, colors=colors, size=size,
                              die_px=die_px, touching=touching, rotation=rotation,
                              perspective=perspective, floor=floor, cocked=cocked,
                              marbled=marbled, rim=rim)
    image = paint_scene(scene, scene.dice, glare=glare, shadow=shadow, blur=blur, noise=noise,
                        white_balance=white_balance, noise_rng=rng)
    return image, dice_truth(scene, scene.dice)


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
    check_effects(**effects)
    defaults = dict(count=None, values=None, colors=None, size=(640, 640), die_px=(36, 60),
                    touching=False, rotation=True, perspective=0.0, floor=None, cocked=0,
                    marbled=0.0, rim=False)
    unknown = set(options) - set(defaults)
    if unknown:
        raise TypeError(f"unknown option(s) {sorted(unknown)}")
    scene, _ = layout_scene(seed, **{**defaults, **options})
    noise_rng = np.random.default_rng([int(seed), 1, int(round(t * 1e6)) & 0x7FFFFFFF])
    if t < 0:
        return paint_scene(replace(scene, dice=()), (), noise_rng=noise_rng, **effects), []
    u = min(float(t) / throw_seconds, 1.0)
    if u >= 1.0:
        return paint_scene(scene, scene.dice, noise_rng=noise_rng, **effects), dice_truth(scene, scene.dice)
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
    image = paint_scene(scene, moving, noise_rng=noise_rng, motion=blur_vec, **effects)
    return image, dice_truth(scene, moving)
