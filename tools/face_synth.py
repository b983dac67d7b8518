"""Draw the top face of a numbered die in 2D, its numeral upright: training crops for tools/train_faces.py.

A training-time module (never imported by dicelens at run time). tools/render_dice.py's 3D dice
show their numerals as blurred blobs at the sizes it draws most dice (a network learned nothing
from them: docs/benchmarks.md), so the face network learns from faces drawn here instead, sharp
and at the size :func:`vision.faces.face_crop` shows a die: the crop's middle is the top face (a
d6's square, a d8's or d20's triangle, a d10's kite, a d12's pentagon), its numeral in one of the
machine's TrueType fonts (DejaVu and Liberation: Debian's fonts-dejavu-core, fonts-dejavu-extra and
fonts-liberation) or OpenCV's Hershey fonts, with the 6 and 9 underlined, dotted or bare, a d10's
10 printed "0"; around it the neighbouring faces, shaded otherwise, and their numerals turned to
their own edges. Randomised: body and ink colours, speckle, marbling, translucency, a lamp's
glare, the face's size and place (the detector's centre a little off), a tilt of up to 30° (an
oblique camera), blur, noise, few pixels and JPEG. The numeral is upright within
±:data:`UPRIGHT` degrees, or the whole face turned further, or an emblem printed in its place (as
on some makers' 1s and highest faces): the network's class "turned"; it reads a crop turned
several ways (:func:`vision.faces.face_odds`) and keeps the surest.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.faces import die_glyphs

FONT_FOLDERS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX)
UPRIGHT = 20.0  # degrees: the drawn numeral's tilt, at most
SCALE = 2  # faces are drawn this many times larger than the crop, then shrunk (smooth edges)


@cache
def truetype_fonts() -> tuple[Path, ...]:
    """The TrueType fonts of FONT_FOLDERS (none of Math or ExtraLight: not a die's numerals); on a
    machine without them the faces are drawn in OpenCV's fonts only (tools/train_faces.py says so)."""
    return tuple(path for folder in FONT_FOLDERS if folder.is_dir() for path in sorted(folder.glob("*.ttf"))
                 if "Math" not in path.name and "ExtraLight" not in path.name)


def _symbol(value: int, sides: int, marks: str, percentile: bool) -> tuple[str, str]:
    """The numeral's text and its mark ("", "underline" or "dot") as the die's maker prints it
    (:func:`vision.faces.die_glyphs`: a d10's 10 is "0", a percentile d10's faces "10"…"90", "00")."""
    text = die_glyphs(sides, percentile)[value - 1]
    return text, (marks if text in ("6", "9") else "")


def numeral_mask(text: str, mark: str, height: float, font: object, bold: int) -> np.ndarray:
    """A uint8 mask of ``text`` whose digits are ``height`` pixels high, tightly cropped, upright
    (1×1 and empty when ``text`` draws nothing); ``font``: a TrueType font's file (a Path) or an
    OpenCV font, ``bold`` the OpenCV font's strokes in multiples of its thinnest; ``mark``: "",
    "underline" or "dot" (a 6 or 9 told apart)."""
    if isinstance(font, Path):
        face = ImageFont.truetype(str(font), max(4, round(height * 1.35)))
        left, top, right, bottom = face.getbbox(text)
        image = Image.new("L", (right - left + 4, bottom - top + 4), 0)
        ImageDraw.Draw(image).text((2 - left, 2 - top), text, fill=255, font=face)
        mask = np.asarray(image).copy()
    else:
        scale = height / 22
        thick = max(1, round(scale * bold))
        (w, h), base = cv2.getTextSize(text, int(font), scale, thick)  # type: ignore[call-overload]
        mask = np.zeros((h + base + 4, w + 4), np.uint8)
        cv2.putText(mask, text, (2, h + 2), int(font), scale, 255, thick, cv2.LINE_AA)  # type: ignore[call-overload]
    rows, cols = np.nonzero(mask > 40)
    if not len(rows):
        return np.zeros((1, 1), np.uint8)
    mask = mask[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    h, w = mask.shape
    if mark == "underline":
        bar = max(1, round(0.1 * h))
        mask = np.vstack([mask, np.zeros((bar, w), np.uint8), np.full((bar, w), 255, np.uint8)])
    elif mark == "dot":
        dot = max(2, round(0.16 * h))
        pad = np.zeros((h, dot * 2), np.uint8)
        cv2.circle(pad, (dot + dot // 2, h - dot // 2 - 1), dot // 2 + 1, 255, -1, cv2.LINE_AA)
        mask = np.hstack([mask, pad])
    return mask


def _stamp(canvas: np.ndarray, mask: np.ndarray, centre: tuple[float, float], angle: float,
           squash: float, ink: np.ndarray) -> None:
    """Paint ``mask`` in ``ink`` onto ``canvas`` centred at ``centre``, turned ``angle`` degrees
    (counter-clockwise) and squashed along its height by ``squash`` (a face seen at a slant)."""
    h, w = mask.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    squeeze = np.array([[1.0, 0, 0], [0, squash, 0], [0, 0, 1]])
    whole = np.vstack([turn, [0, 0, 1]]) @ squeeze
    whole[:2, 2] += (centre[0] - w / 2, centre[1] - h / 2)
    alpha = cv2.warpAffine(mask, whole[:2], (canvas.shape[1], canvas.shape[0]), flags=cv2.INTER_LINEAR)
    a = alpha[..., None].astype(np.float32) / 255
    canvas[:] = canvas * (1 - a) + ink * a


def _polygon(sides: int, radius: float, centre: tuple[float, float], turn: float = 0.0) -> np.ndarray:
    """The corners of a regular polygon, one corner straight up, then turned ``turn`` degrees
    (a square at 45° stands on an edge)."""
    angles = np.radians(-90 + turn + 360 * np.arange(sides) / sides)
    return np.stack([centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)], 1)


def _top_face(sides: int, big: int, centre: tuple[float, float],
              rng: np.random.Generator) -> tuple[np.ndarray, float, tuple[float, float]]:
    """The top face's corners, its numeral's height and the numeral's centre, in a crop of ``big``
    pixels (FACE_SPAN of the die's side) around ``centre``, as a die of ``sides`` lying flat shows
    them from above: a d20's triangle spans about 0.55 of the die, a d12's pentagon 0.5, a d8's
    triangle the whole die (its outline is a hexagon through the triangle's corners), a d6's square
    nearly all of it, and a d10's kite runs from the pole it points to past the die's middle."""
    if sides == 10:
        length = big * rng.uniform(0.75, 1.0)  # pole to the far corner
        width = length * rng.uniform(0.55, 0.7)
        shape = np.array([[0, -0.62], [0.5 * width / length, 0.05], [0, 0.38], [-0.5 * width / length, 0.05]])
        corners = np.array(centre) + shape * length
        return corners, length * rng.uniform(0.35, 0.5), (centre[0], centre[1] + 0.05 * length)
    span, corners_of, tall = {20: ((0.36, 0.46), 3, (0.5, 0.75)), 12: ((0.3, 0.38), 5, (0.55, 0.8)),
                              8: ((0.48, 0.62), 3, (0.45, 0.65)), 6: ((0.55, 0.9), 4, (0.4, 0.6))}[sides]
    radius = big * rng.uniform(*span)  # the corners' distance from the face's middle
    corners = _polygon(corners_of, radius, centre, 45.0 if sides == 6 else 0.0)
    height = radius * rng.uniform(*tall)
    drop = radius * 0.12 if sides in (20, 8) else 0.0  # a triangle's numeral sits a little below its middle
    return corners, height, (centre[0], centre[1] + drop)


def _colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A die's body and ink colours (BGR float), the ink far from the body in lightness."""
    hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(20, 256)]]], np.uint8)
    body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    light = body.mean() > 110
    choice = rng.random()
    if choice < 0.45:
        ink = np.full(3, rng.uniform(0, 50) if light else rng.uniform(200, 255), np.float32)
    elif choice < 0.65:  # gold, silver or copper
        ink = np.array(rng.choice([(40, 170, 215), (190, 190, 190), (60, 110, 190)]), np.float32)
    else:
        hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256),
                          rng.integers(0, 80) if light else rng.integers(170, 256)]]], np.uint8)
        ink = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    if abs(float(ink.mean()) - float(body.mean())) < 60:  # too faint to read: as the makers, contrast
        ink = np.full(3, 20.0 if light else 235.0, np.float32)
    return body, ink


def _texture(size: int, body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The body's surface: plain, marbled (a second colour in smooth swirls) or speckled."""
    canvas = np.empty((size, size, 3), np.float32)
    canvas[:] = body
    kind = rng.random()
    if kind < 0.3:
        noise = cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), size / rng.uniform(8, 20))
        noise = (noise - noise.min()) / max(float(np.ptp(noise)), 1e-6)
        swirl = np.abs(np.sin(noise * rng.uniform(6, 14)))[..., None] ** rng.uniform(1, 4)
        second = rng.uniform(0, 255, 3).astype(np.float32)
        canvas = canvas * (1 - 0.7 * swirl) + second * 0.7 * swirl
    elif kind < 0.5:
        for _ in range(int(rng.integers(20, 120))):
            spot = (int(rng.integers(0, size)), int(rng.integers(0, size)))
            cv2.circle(canvas, spot, int(rng.integers(1, 3)), rng.uniform(0, 255, 3).tolist(), -1)
    return canvas


def _emblem(height: float, rng: np.random.Generator) -> np.ndarray:
    """A uint8 mask of a maker's emblem ``height`` pixels high in place of a numeral: a star, a
    ring, a shield or a few strokes (never a numeral)."""
    side = max(4, round(height))
    mask = np.zeros((side, side), np.uint8)
    c, r = side / 2, side / 2 - 1
    kind = rng.integers(4)
    if kind == 0:
        points = [(c + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
                   c - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5)) for i in range(10)]
        cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 255, cv2.LINE_AA)
    elif kind == 1:
        cv2.circle(mask, (round(c), round(c)), round(r), 255, max(1, side // 8), cv2.LINE_AA)
        cv2.circle(mask, (round(c), round(c)), max(1, round(r / 3)), 255, -1, cv2.LINE_AA)
    elif kind == 2:
        shield = [(0.1, 0.05), (0.9, 0.05), (0.9, 0.5), (0.5, 0.95), (0.1, 0.5)]
        cv2.polylines(mask, [np.round(np.array(shield) * side).astype(np.int32)], True, 255,
                      max(1, side // 8), cv2.LINE_AA)
    else:
        for _ in range(int(rng.integers(3, 7))):
            a, b = rng.uniform(0, side, 2), rng.uniform(0, side, 2)
            cv2.line(mask, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), 255,
                     max(1, side // 10), cv2.LINE_AA)
    return mask


def draw_face(value: int, sides: int, size: int, rng: np.random.Generator, turn: float = 0.0,
              emblem: bool = False, percentile: bool = False) -> np.ndarray:
    """A ``size``×``size``×3 uint8 BGR crop of a d``sides`` (6, 8, 10, 12 or 20; a percentile d10
    with ``percentile``) showing ``value`` on top, as :func:`vision.faces.face_crop` crops a found
    die, its numeral upright within ±UPRIGHT degrees, then turned ``turn`` degrees
    counter-clockwise (a 6 or 9 turned is always marked, as makers do: a bare one turned half round
    is the other); with ``emblem``, an emblem in the numeral's place."""
    big = size * SCALE
    body, ink = _colours(rng)
    canvas = _texture(big, body, rng)
    # the detector's centre is the die's, not always its top face's (a slanted view, a shadow): a
    # wider spread (0.08) read lurig's d20s worse (docs/benchmarks.md)
    centre = (big / 2 + rng.normal(0, 0.05 * big), big / 2 + rng.normal(0, 0.05 * big))
    corners, height, middle = _top_face(sides, big, centre, rng)
    height *= 0.7 if percentile else 1.0  # two digits in a kite
    radius = float(np.linalg.norm(corners - np.array(centre), axis=1).mean())
    # neighbours: each beyond one edge, a shade of its own, its numeral turned to its own edge
    light = rng.uniform(0.55, 1.0, len(corners))
    marks = str(rng.choice(["underline", "dot", ""], p=[0.4, 0.3, 0.3] if turn == 0 else [0.55, 0.45, 0.0]))
    fonts = truetype_fonts()
    font: object = fonts[int(rng.integers(len(fonts)))] if fonts and rng.random() < 0.8 else int(rng.choice(HERSHEY))
    bold = int(rng.integers(1, 3))
    for i, (a, b) in enumerate(zip(corners, np.roll(corners, -1, 0), strict=True)):
        mid = (a + b) / 2
        out = mid - np.array(centre)
        out /= np.linalg.norm(out)
        far = [a, b, mid + out * radius * 1.6 + (b - a) * 0.8, mid + out * radius * 1.6 - (b - a) * 0.8]
        shade = canvas * light[i]
        mask = np.zeros((big, big), np.uint8)
        cv2.fillConvexPoly(mask, np.array(far, np.int32), 255)
        canvas[mask > 0] = shade[mask > 0]
        text, mark = _symbol(int(rng.integers(1, sides + 1)), sides, marks, percentile)
        edge_angle = math.degrees(math.atan2(-(b - a)[1], (b - a)[0]))
        at = mid + out * radius * rng.uniform(0.55, 0.8)
        _stamp(canvas, numeral_mask(text, mark, height * rng.uniform(0.8, 1.1), font, bold), (at[0], at[1]),
               edge_angle + 180, rng.uniform(0.5, 1.0), ink * light[i])
    cv2.polylines(canvas, [np.round(corners).astype(np.int32)], True, (body * 0.5).tolist(),
                  max(1, round(big / 90)), cv2.LINE_AA)
    text, mark = _symbol(value, sides, marks, percentile)
    symbol = _emblem(height * 1.2, rng) if emblem else numeral_mask(text, mark, height, font, bold)
    _stamp(canvas, symbol, middle, rng.uniform(-UPRIGHT, UPRIGHT), 1.0, ink)
    if turn:
        whole = cv2.getRotationMatrix2D((big / 2, big / 2), turn, 1.0)
        canvas = cv2.warpAffine(canvas, whole, (big, big), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.3:  # translucent: the body's far side shows through, softer and lighter
        canvas = cv2.GaussianBlur(canvas, (0, 0), 1.5) * 0.8 + 255 * 0.2
    if rng.random() < 0.3:  # a lamp's glare
        glare = np.zeros((big, big), np.float32)
        spot = (int(rng.integers(0, big)), int(rng.integers(0, big)))
        cv2.ellipse(glare, spot, (int(rng.integers(3, big // 6)), int(rng.integers(3, big // 8))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), 3)[..., None] * rng.uniform(0.4, 0.9)
        canvas = canvas * (1 - glare) + 255 * glare
    canvas *= np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), big)[None, :, None]  # light across the die
    # an oblique camera: the die seen at a slant of up to 30° (foreshortened along one direction)
    tilt = math.cos(math.radians(rng.uniform(0, 30)))
    direction = rng.uniform(0, 180)
    to_slant = cv2.getRotationMatrix2D((big / 2, big / 2), direction, 1.0)
    back = cv2.getRotationMatrix2D((big / 2, big / 2), -direction, 1.0)
    squeeze = np.array([[1.0, 0, 0], [0, tilt, big / 2 * (1 - tilt)], [0, 0, 1]])
    whole = np.vstack([back, [0, 0, 1]]) @ squeeze @ np.vstack([to_slant, [0, 0, 1]])
    canvas = cv2.warpAffine(np.clip(canvas, 0, 255).astype(np.uint8), whole[:2], (big, big),
                            borderMode=cv2.BORDER_REFLECT)
    crop = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.4:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.4, 1.2))
    if rng.random() < 0.3:  # a small die in a webcam's frame, enlarged to the crop
        small = int(rng.integers(size // 2, size))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (size, size))
    crop = np.clip(crop + rng.normal(0, rng.uniform(0, 8), crop.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        _, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        crop = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    return crop
