"""The face textures of the renderer's dice: body (marbling, speckle), numerals with their 6/9 marks, pips.

A face's texture is a :data:`TEXTURE`-pixel square, BGR float32, mapped onto the face later
(tools/render/camera.py). :class:`Look` is how one die looks, drawn at random per die.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tools.face_synth import numeral_mask, truetype_fonts

TEXTURE = 64  # pixels: the side of one face's texture before it is mapped onto the face
#: Body colours by the palette name the labels give (vision.colors.PALETTE), BGR.
BODIES = {"white": (235, 235, 235), "black": (30, 30, 30), "red": (40, 40, 200), "green": (60, 160, 40),
          "blue": (190, 90, 30), "purple": (140, 40, 110), "yellow": (40, 215, 240), "gold": (40, 150, 200)}
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
           cv2.FONT_HERSHEY_PLAIN)
#: a dark body's inks (BGR): white, yellow, red, gold; those within INK_CONTRAST of its colour in every
#: channel are not drawn (a red die's numerals were red: no pip to see)
INKS = ((240, 240, 240), (60, 215, 235), (40, 40, 210), (80, 190, 220))
INK_CONTRAST = 80
#: the share of dice whose numerals are in a TrueType font (tools/face_synth.py's), not OpenCV's
TRUETYPE_SHARE = 0.8


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> np.ndarray:
    """Smooth noise in [0, 1]: random values enlarged from a coarse grid."""
    h, w = shape
    coarse = rng.random((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


@dataclass
class Look:
    """How one die looks."""

    body: np.ndarray  # BGR
    colour: str
    ink: tuple[float, float, float]
    font: Path | int  # a TrueType font's file or an OpenCV font
    thickness: float  # 0.05–0.11: the numerals' size, an OpenCV font's strokes (bold above 0.08), the pips' size
    alpha: float  # 1 opaque; less: translucent
    marbled: float
    speckled: float
    rounding: float  # 0 sharp; up to 0.15 of a face inset
    mark: str  # how 6 and 9 are told apart: "underline", "dot" or "none"


def random_look(rng: np.random.Generator) -> Look:
    colour = str(rng.choice(list(BODIES)))
    body = np.clip(np.array(BODIES[colour], float) + rng.normal(0, 12, 3), 0, 255)
    light_body = body.mean() > 120
    inks = [ink for ink in INKS if np.abs(np.array(ink) - body).max() > INK_CONTRAST]  # no red on red
    ink = (20.0, 20.0, 20.0) if light_body else tuple(float(c) for c in inks[int(rng.integers(len(inks)))])
    fonts = truetype_fonts()  # the same draws whether or not the machine has them
    truetype, pick = rng.random() < TRUETYPE_SHARE, rng.random()
    font = fonts[int(pick * len(fonts))] if fonts and truetype else HERSHEY[int(pick * len(HERSHEY))]
    return Look(body, colour, ink, font, float(rng.uniform(0.05, 0.11)),
                1.0 if rng.random() < 0.7 else float(rng.uniform(0.55, 0.85)),
                float(rng.uniform(0.2, 0.5)) if rng.random() < 0.3 else 0.0,
                float(rng.uniform(0.2, 0.6)) if rng.random() < 0.2 else 0.0,
                float(rng.uniform(0, 0.15)), str(rng.choice(["underline", "dot", "none"])))


def _body_texture(look: Look, rng: np.random.Generator) -> np.ndarray:
    img = np.tile(look.body, (TEXTURE, TEXTURE, 1))
    if look.marbled:
        swirl = np.sin(12 * _noise(rng, (TEXTURE, TEXTURE), 12) + 4 * _noise(rng, (TEXTURE, TEXTURE), 24))
        other = np.clip(look.body[::-1] * 0.8 + 60, 0, 255)
        img = img + (other - img) * (look.marbled * (swirl > 0.4))[..., None]
    if look.speckled:
        dots = rng.random((TEXTURE, TEXTURE)) < 0.03 * look.speckled
        img[dots] = 255 - img[dots]
    return img.astype(np.float32)


def symbol_texture(symbol: str, look: Look, body: np.ndarray, at: tuple[float, float] = (0.5, 0.5),
                   scale: float = 1.0, angle: float = 0.0) -> np.ndarray:
    """``body`` with ``symbol`` written in the die's ink and font (tools/face_synth.py's
    :func:`numeral_mask`, as its drawn faces are), centred at ``at`` (fractions of the texture),
    turned ``angle`` degrees clockwise, 6 and 9 marked as the die's maker marks them."""
    height = 0.42 * TEXTURE * scale / max(1, 0.6 * len(symbol))
    bold = 1 + int(look.thickness > 0.08)  # an OpenCV font's strokes: 1 or 2 × its thinnest
    glyph = numeral_mask(symbol, look.mark if symbol in ("6", "9") else "", height, look.font, bold)
    h, w = glyph.shape
    place = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
    place[:, 2] += (at[0] * TEXTURE - w / 2, at[1] * TEXTURE - h / 2)
    mask = cv2.warpAffine(glyph, place, (TEXTURE, TEXTURE), flags=cv2.INTER_LINEAR)
    return body + (np.array(look.ink, np.float32) - body) * (mask[..., None] / np.float32(255))


def pip_texture(value: int, look: Look, body: np.ndarray) -> np.ndarray:
    """``body`` (a face's square, its sides along the face's edges) with ``value``'s pips. Their
    size and spread differ between makers: taken from the die's numeral thickness and edge
    rounding (no draw of the random generator, so the other kinds' renders are unchanged)."""
    mask = np.zeros((TEXTURE, TEXTURE), np.uint8)
    radius = 0.07 + 0.5 * (look.thickness - 0.05)  # of the face's side: 0.07 to 0.10
    spread = 0.30 - look.rounding / 3  # the corner pips' offset from the middle: 0.30 to 0.25
    for px, py in PIPS[value]:
        cv2.circle(mask, (round(TEXTURE * (0.5 + spread * px)), round(TEXTURE * (0.5 + spread * py))),
                   round(TEXTURE * radius), 255, -1, cv2.LINE_AA)
    return body + (np.array(look.ink, np.float32) - body) * (mask[..., None] / np.float32(255))
