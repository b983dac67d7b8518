"""The renderer's floors and lights: procedural floors, die-free patches of real photos, lamps, colour temperature."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import cv2
import numpy as np

from tools.render.textures import _noise

FLOORS = ("felt", "wood", "laminate", "paper", "cloth", "tray", "mat")


def floor_texture(kind: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """A size×size BGR floor of one of FLOORS."""
    base = rng.uniform(40, 230, 3)
    grain = _noise(rng, (size, size), 8)[..., None]
    if kind == "felt":
        base = rng.choice([(40, 110, 30), (90, 40, 20), (30, 30, 120), (60, 60, 60)]) + rng.uniform(-20, 20, 3)
        img = base * (0.9 + 0.2 * rng.random((size, size, 1)))
    elif kind in ("wood", "laminate"):
        base = np.array((60, 110, 170)) * rng.uniform(0.6, 1.3)
        y = np.arange(size)[:, None, None]
        rings = 0.5 + 0.5 * np.sin(y / rng.uniform(3, 9) + 6 * grain)
        img = base * (0.75 + 0.3 * rings)
        if kind == "laminate":
            planks = rng.uniform(0.85, 1.15, (size // 64 + 1, 1, 3))
            img = img * np.repeat(planks, 64, axis=0)[:size]
            img[::64] *= 0.6
    elif kind == "paper":
        img = np.full((size, size, 3), rng.uniform(200, 250)) * (0.96 + 0.04 * rng.random((size, size, 1)))
    elif kind == "cloth":
        x = np.arange(size)
        weave = (np.sin(x[:, None] * 1.6) * np.sin(x[None, :] * 1.6))[..., None]
        img = base * (0.85 + 0.1 * weave + 0.1 * grain)
    elif kind == "tray":
        img = np.full((size, size, 3), rng.uniform(15, 50)) * (0.9 + 0.2 * grain)
        wall = int(size * rng.uniform(0.05, 0.15))
        colour = rng.uniform(30, 220, 3)
        for _ in range(4):  # the four walls
            img = np.rot90(img)
            img[:wall] = colour * (0.8 + 0.2 * grain[:wall])
    else:  # mat: a busy print
        img = np.clip(np.full((size, size, 3), base) * (0.9 + 0.2 * grain), 0, 255).astype(np.uint8)
        for _ in range(int(rng.integers(10, 40))):  # OpenCV 5 draws on 8-bit images only
            centre = tuple(int(c) for c in rng.integers(0, size, 2))
            colour = tuple(int(c) for c in rng.integers(0, 256, 3))
            if rng.random() < 0.5:
                cv2.circle(img, centre, int(rng.integers(5, size // 6)), colour, -1)
            else:
                cv2.line(img, centre, tuple(int(c) for c in rng.integers(0, size, 2)), colour,
                         int(rng.integers(2, 12)))
    return np.clip(img, 0, 255).astype(np.uint8)


def real_floor_patches(folders: list[Path], size: int = 96) -> list[np.ndarray]:
    """Square patches of the photos in dataset folders (labels.json) that hold no labelled
    die: every ``size``-pixel cell of a grid clear of all boxes (by a die's side, so no
    unlabelled edge of one leaks in)."""
    patches = []
    for folder in folders:
        for entry in json.loads((folder / "labels.json").read_text())["images"]:
            image = cv2.imread(str(folder / entry["file"]))
            if image is None:
                continue
            h, w = image.shape[:2]
            boxes = [d["box"] for d in entry["dice"]]
            margin = max([max(b[2] - b[0], b[3] - b[1]) for b in boxes], default=0)
            for y, x in itertools.product(range(0, h - size + 1, size), range(0, w - size + 1, size)):
                if all(x + size + margin <= b[0] or b[2] + margin <= x or y + size + margin <= b[1]
                       or b[3] + margin <= y for b in boxes):
                    patches.append(image[y:y + size, x:x + size].copy())
    return patches


def _kelvin(kelvin: float) -> np.ndarray:
    """BGR gains of a light of ``kelvin`` (Tanner Helland's fit of the black body), green 1."""
    t = kelvin / 100
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    return np.array([b, g, r]).clip(1, 255) / max(g, 1)


def _lamps(rng: np.random.Generator) -> list[tuple[np.ndarray, float]]:
    lamps = []
    for _ in range(int(rng.integers(1, 4))):
        elevation, azimuth = rng.uniform(math.radians(35), math.radians(85)), rng.uniform(0, 2 * math.pi)
        direction = np.array([math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth),
                              math.sin(elevation)])
        lamps.append((direction, float(rng.uniform(0.4, 1.0))))
    return lamps
