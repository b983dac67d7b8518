"""Render labelled photos of dice in 3D for training: every kind, on floors and under lights of any table.

A training-time tool (never imported by dicelens at run time). The dice are real polyhedra
(:data:`SOLIDS`: the d20 is trimesh's icosahedron, the others are built from their vertices),
placed at rest on the floor plane, seen through a pinhole camera from straight above to
35° oblique, and drawn by a small rasteriser of NumPy and OpenCV (faces back-to-front,
each face's numerals, pips and body texture mapped onto it by its homography): about a
hundred times faster than a path tracer on one core (docs: ../shared/notes/rendering.md).

    .venv/bin/python tools/render_dice.py OUT --photos 200 [--seed 1] [--floors DIR...]

writes OUT/render-00000.jpg… and OUT/labels.json (rewritten every LABELS_EVERY photos, so a
run stopped early leaves the photos so far labelled) in the datasets' schema (``value``
1..sides or None when cocked, ``sides``, ``kind`` as in real-polyhedral/'s labels plus
``d4-pyramid``, ``face`` the printed symbol when it is not str(value), ``box`` the whole
die in pixels, ``center`` of the top face (the top vertex of a pyramid d4), ``cocked``,
``color``), and prints the dice rendered per hour on one core.

Labels come from the geometry: after the die is turned to rest on a face, the face whose
outward normal is nearest the floor's up is read (a pyramid d4: the vertex highest
above the floor, whose number stands at its three corners); a cocked die rests on an
edge and no face normal is within :data:`FLAT_DEGREES` of up, so it has no value.
Randomised per photo: resolution (320×240 to 1920×1080), JPEG quality, camera tilt and
focal length (wide-angle barrel distortion), floor (felt, wood, laminate, paper, cloth,
a dark tray with coloured walls, a busy mat, or a dice-free patch of a real photo),
colour temperature 2700–6500 K with a partial white balance, one to three lamps with
their shadows and glare; per die: kind, size (25–150 px), body colour, translucency,
marbling, speckle, ink, font, edge rounding, pip size and spread, 6/9 marks (underline, dot or none), touching
neighbours.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import trimesh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from vision.numerals import face_symbol  # noqa: E402

PHI = (1 + 5 ** 0.5) / 2
FLAT_DEGREES = 5.0  # a die is flat when its up face's normal is this close to up, else cocked
TEXTURE = 64  # pixels: the side of one face's texture before it is mapped onto the face
#: Body colours by the palette name the labels give (vision.colors.PALETTE), BGR.
BODIES = {"white": (235, 235, 235), "black": (30, 30, 30), "red": (40, 40, 200), "green": (60, 160, 40),
          "blue": (190, 90, 30), "purple": (140, 40, 110), "yellow": (40, 215, 240), "gold": (40, 150, 200)}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_PLAIN)
#: A numeral's size on a face of each kind, relative to a d6's (the square around a triangle is loose);
#: as on real d8s and d20s, whose top numeral spans about a third of the face (it was half that).
NUMERAL_SCALE = {"d8": 0.85, "d20": 0.8, "d10": 0.85, "d10-percentile": 0.75, "d12": 0.9, "d4-long": 0.9}
FLOORS = ("felt", "wood", "laminate", "paper", "cloth", "tray", "mat")
RESOLUTIONS = ((320, 240), (640, 480), (640, 640), (800, 600), (1280, 720), (1280, 960), (1920, 1080))
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


@dataclass
class Solid:
    """A die's shape: vertices (N×3, centred), faces (lists of vertex indices, counter-clockwise
    seen from outside), and which faces carry a value (``numbered``, in value order of no meaning)."""

    kind: str
    sides: int
    vertices: np.ndarray
    faces: list[list[int]]
    numbered: list[int]

    def normal(self, face: int, vertices: np.ndarray | None = None) -> np.ndarray:
        v = self.vertices if vertices is None else vertices
        p = v[self.faces[face]]
        n = np.cross(p[1] - p[0], p[2] - p[0])
        return n / np.linalg.norm(n)


def _hull_faces(vertices: np.ndarray) -> list[list[int]]:
    """The faces of a convex polyhedron given by its vertices: every plane through three of
    them with all others on one side, its vertices ordered counter-clockwise from outside."""
    faces: list[list[int]] = []
    seen: set[frozenset[int]] = set()
    for a, b, c in itertools.combinations(range(len(vertices)), 3):
        n = np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a])
        if np.linalg.norm(n) < 1e-9:
            continue
        n /= np.linalg.norm(n)
        d = (vertices - vertices[a]) @ n
        if d.max() > 1e-6 and d.min() < -1e-6:
            continue
        if d.max() > 1e-6:
            n = -n
        on = frozenset(np.flatnonzero(np.abs(d) < 1e-6).tolist())
        if on in seen:
            continue
        seen.add(on)
        idx = sorted(on)
        centre = vertices[idx].mean(axis=0)
        u = vertices[idx[0]] - centre
        u /= np.linalg.norm(u)
        w = np.cross(n, u)
        faces.append(sorted(idx, key=lambda i: math.atan2((vertices[i] - centre) @ w, (vertices[i] - centre) @ u)))
    return faces


def _solid(kind: str, sides: int, vertices, numbered=None) -> Solid:
    v = np.asarray(vertices, float)
    v /= np.abs(v).max()
    faces = _hull_faces(v)
    return Solid(kind, sides, v, faces, list(range(len(faces))) if numbered is None else numbered(v, faces))


def _d10_vertices() -> np.ndarray:
    """A pentagonal trapezohedron: two apexes and a zig-zag of ten vertices (kites are planar
    when the ring's height is h·(1 − cos 36°)/(1 + cos 36°))."""
    h, c = 1.15, math.cos(math.pi / 5)
    z = h * (1 - c) / (1 + c)
    ring = [(math.cos(k * math.pi / 5), math.sin(k * math.pi / 5), z if k % 2 == 0 else -z) for k in range(10)]
    return np.array([(0, 0, h), (0, 0, -h), *ring])


def _long_d4_vertices() -> np.ndarray:
    """A barrel d4: a square prism along x with a low pyramid at each end."""
    ring = [(sx * 1.6, sy, sz) for sx in (-1, 1) for sy in (-0.55, 0.55) for sz in (-0.55, 0.55)]
    return np.array([*ring, (-2.1, 0, 0), (2.1, 0, 0)])


def _long_faces(v: np.ndarray, faces: list[list[int]]) -> list[int]:
    return [i for i, f in enumerate(faces) if len(f) == 4]


def _solids() -> dict[str, Solid]:
    cube = list(itertools.product((-1, 1), repeat=3))
    octa = [s * e for e in np.eye(3) for s in (-1, 1)]
    dodeca = cube + [p for a, b in ((1 / PHI, PHI),) for s1 in (-1, 1) for s2 in (-1, 1)
                     for p in ((0, s1 * a, s2 * b), (s1 * a, s2 * b, 0), (s2 * b, 0, s1 * a))]
    solids = {
        "d4-pyramid": _solid("d4-pyramid", 4, [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)]),
        "d4-long": _solid("d4-long", 4, _long_d4_vertices(), _long_faces),
        "d6-pips": _solid("d6-pips", 6, cube),
        "d6-numerals": _solid("d6-numerals", 6, cube),
        "d8": _solid("d8", 8, octa),
        "d10": _solid("d10", 10, _d10_vertices()),
        "d10-percentile": _solid("d10-percentile", 10, _d10_vertices()),
        "d12": _solid("d12", 12, dodeca),
        "d20": _solid("d20", 20, trimesh.creation.icosahedron().vertices),
    }
    for solid in solids.values():
        expected = 4 if solid.kind.startswith("d4") else solid.sides
        assert len(solid.numbered) == expected, (solid.kind, len(solid.numbered))
    return solids


SOLIDS = _solids()
KINDS = tuple(SOLIDS)


def _rotation_onto(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The 3×3 rotation taking direction ``a`` onto ``b``."""
    return trimesh.geometry.align_vectors(a, b)[:3, :3]


def _spin(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def values_of_faces(solid: Solid, rng: np.random.Generator) -> dict[int, int]:
    """Face (or, on a pyramid d4, vertex) index → value, opposite faces summing to sides + 1 where
    the solid has them."""
    if solid.kind == "d4-pyramid":
        return dict(zip(range(4), (int(v) for v in rng.permutation(4) + 1), strict=True))
    faces = list(solid.numbered)
    normals = {f: solid.normal(f) for f in faces}
    pairs, left = [], set(faces)
    for f in faces:
        if f in left:
            left.discard(f)
            g = min(left, key=lambda g: normals[f] @ normals[g], default=None)
            if g is not None and normals[f] @ normals[g] < -0.99:
                left.discard(g)
                pairs.append((f, g))
            else:
                pairs.append((f, None))
    values = {}
    order = rng.permutation(len(pairs))
    for low, k in enumerate(order):
        f, g = pairs[k]
        values[f] = low + 1
        if g is not None:
            values[g] = solid.sides - low
    return values


def rest(solid: Solid, rng: np.random.Generator, cocked: bool) -> np.ndarray:
    """A rotation putting the die at rest: on a face, or (``cocked``) on an edge, tilted
    FLAT_DEGREES·2 to 35° away from either face; spun at random about the vertical."""
    down = np.array([0.0, 0.0, -1.0])
    if cocked:
        f = int(rng.integers(len(solid.faces)))
        fv = set(solid.faces[f])
        g = next(i for i, face in enumerate(solid.faces) if i != f and len(fv & set(face)) == 2)
        nf, ng = solid.normal(f), solid.normal(g)
        t = rng.uniform(0.25, 0.75)
        direction = (1 - t) * nf + t * ng
        rotation = _rotation_onto(direction / np.linalg.norm(direction), down)
    else:
        resting = [i for i in range(len(solid.faces)) if solid.kind != "d4-long" or i in solid.numbered]
        rotation = _rotation_onto(solid.normal(int(rng.choice(resting))), down)
    return _spin(rng.uniform(0, 2 * math.pi)) @ rotation


def up_face(solid: Solid, vertices: np.ndarray) -> int | None:
    """The value-bearing face (a pyramid d4: vertex) that is up for these turned vertices,
    or None when the die is cocked (no face normal within FLAT_DEGREES of up, or, for a
    pyramid d4, no face flat on the floor)."""
    up = np.array([0.0, 0.0, 1.0])
    limit = math.cos(math.radians(FLAT_DEGREES))
    if solid.kind == "d4-pyramid":
        if max(-(solid.normal(f, vertices) @ up) for f in range(4)) < limit:
            return None
        return int(np.argmax(vertices[:, 2]))
    best = max(solid.numbered, key=lambda f: solid.normal(f, vertices) @ up)
    return best if solid.normal(best, vertices) @ up >= limit else None


# --- textures -------------------------------------------------------------------------

def _noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> np.ndarray:
    """Smooth noise in [0, 1]: random values enlarged from a coarse grid."""
    h, w = shape
    coarse = rng.random((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


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


@dataclass
class Look:
    """How one die looks."""

    body: np.ndarray  # BGR
    colour: str
    ink: tuple[float, float, float]
    font: int
    thickness: float  # of the numerals, fraction of the texture
    alpha: float  # 1 opaque; less: translucent
    marbled: float
    speckled: float
    rounding: float  # 0 sharp; up to 0.15 of a face inset
    mark: str  # how 6 and 9 are told apart: "underline", "dot" or "none"


def random_look(rng: np.random.Generator) -> Look:
    colour = str(rng.choice(list(BODIES)))
    body = np.clip(np.array(BODIES[colour], float) + rng.normal(0, 12, 3), 0, 255)
    light_body = body.mean() > 120
    ink = (20.0, 20.0, 20.0) if light_body else tuple(float(c) for c in rng.choice(
        [(240, 240, 240), (60, 215, 235), (40, 40, 210), (80, 190, 220)]))
    return Look(body, colour, ink, int(rng.choice(FONTS)), float(rng.uniform(0.05, 0.11)),
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
    """``body`` with ``symbol`` written in the die's ink and font, centred at ``at`` (fractions of
    the texture), turned ``angle`` degrees clockwise, 6 and 9 marked as the die's maker marks them."""
    mask = np.zeros((TEXTURE, TEXTURE), np.uint8)  # 8-bit: OpenCV 5 writes text on nothing else
    height = 0.42 * TEXTURE * scale / max(1, 0.6 * len(symbol))
    thickness = max(1, round(look.thickness * TEXTURE * scale))
    font_scale = height / 22
    (w, h), _ = cv2.getTextSize(symbol, look.font, font_scale, thickness)
    x, y = round(at[0] * TEXTURE - w / 2), round(at[1] * TEXTURE + h / 2)
    cv2.putText(mask, symbol, (x, y), look.font, font_scale, 255, thickness, cv2.LINE_AA)
    if symbol in ("6", "9") and look.mark == "underline":
        cv2.line(mask, (x, y + thickness + 2), (x + w, y + thickness + 2), 255, thickness, cv2.LINE_AA)
    elif symbol in ("6", "9") and look.mark == "dot":
        cv2.circle(mask, (x + w + thickness + 1, y), thickness, 255, -1, cv2.LINE_AA)
    if angle:
        turn = cv2.getRotationMatrix2D((at[0] * TEXTURE, at[1] * TEXTURE), -angle, 1.0)
        mask = cv2.warpAffine(mask, turn, (TEXTURE, TEXTURE))
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


# --- the scene ------------------------------------------------------------------------

@dataclass
class Camera:
    """A pinhole camera at ``position`` looking at the floor's origin; ``radial`` is the
    barrel distortion k (image point p ↦ p·(1 + k·r²), r in half-diagonals)."""

    position: np.ndarray
    rotation: np.ndarray  # world → camera
    focal: float
    size: tuple[int, int]
    radial: float

    @classmethod
    def looking_down(cls, tilt: float, distance: float, focal: float, size: tuple[int, int],
                     radial: float) -> Camera:
        position = distance * np.array([0.0, -math.sin(tilt), math.cos(tilt)])
        forward = -position / distance
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        return cls(position, np.stack([right, down, forward]), focal, size, radial)

    def project(self, points: np.ndarray) -> np.ndarray:
        """N×3 world points → N×2 image pixels (undistorted)."""
        c = (points - self.position) @ self.rotation.T
        w, h = self.size
        return np.stack([self.focal * c[:, 0] / c[:, 2] + w / 2, self.focal * c[:, 1] / c[:, 2] + h / 2], 1)

    def floor_point(self, pixel: tuple[float, float]) -> np.ndarray:
        w, h = self.size
        ray = self.rotation.T @ np.array([(pixel[0] - w / 2) / self.focal, (pixel[1] - h / 2) / self.focal, 1.0])
        return self.position + ray * (-self.position[2] / ray[2])

    def distort(self, pixels: np.ndarray) -> np.ndarray:
        """Where undistorted pixels land in the distorted photo (the inverse of :meth:`remap`'s
        model, by fixed-point iteration)."""
        w, h = self.size
        centre, norm = np.array([w / 2, h / 2]), math.hypot(w, h) / 2
        u = (pixels - centre) / norm
        d = u.copy()
        for _ in range(20):
            d = u / (1 + self.radial * (d ** 2).sum(1, keepdims=True))
        return d * norm + centre

    def remap(self, image: np.ndarray) -> np.ndarray:
        """The photo as the distorting lens gives it."""
        if not self.radial:
            return image
        h, w = image.shape[:2]
        centre, norm = np.array([w / 2, h / 2]), math.hypot(w, h) / 2
        gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = (np.stack([gx, gy], -1) - centre) / norm
        u = d * (1 + self.radial * (d ** 2).sum(-1, keepdims=True))
        src = (u * norm + centre).astype(np.float32)
        return cv2.remap(image, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


@dataclass
class Die:
    solid: Solid
    look: Look
    vertices: np.ndarray  # world, turned and placed
    values: dict[int, int]
    up: int | None

    @property
    def value(self) -> int | None:
        return None if self.up is None else self.values[self.up]


def place_dice(count: int, kinds: tuple[str, ...], camera: Camera, touching: bool,
               cocked_share: float, rng: np.random.Generator) -> list[Die]:
    """Up to ``count`` dice at rest on the floor inside the camera's view (none cut by the
    photo's edge, none overlapping; ``touching``: each next to the one before)."""
    w, h = camera.size
    corners = np.array([camera.floor_point(p) for p in ((0.15 * w, 0.15 * h), (0.85 * w, 0.85 * h))])
    low, high = corners.min(0)[:2], corners.max(0)[:2]
    dice: list[Die] = []
    for _ in range(count * 20):
        if len(dice) == count:
            break
        solid = SOLIDS[str(rng.choice(kinds))]
        scale = rng.uniform(0.85, 1.15)
        cocked = rng.random() < cocked_share
        turned = solid.vertices @ rest(solid, rng, cocked).T * scale
        radius = float(np.linalg.norm(turned[:, :2], axis=1).max())
        if touching and dice:
            last = dice[-1].vertices
            centre = last[:, :2].mean(0)
            angle = rng.uniform(0, 2 * math.pi)
            reach = np.linalg.norm(last[:, :2] - centre, axis=1).max() * 0.8 + radius * 0.8
            xy = centre + reach * np.array([math.cos(angle), math.sin(angle)])
        else:
            xy = rng.uniform(low, high)
        placed = turned + np.array([*xy, -turned[:, 2].min()])
        image = camera.distort(camera.project(placed))
        if image.min() < 2 or image[:, 0].max() > w - 2 or image[:, 1].max() > h - 2:
            continue
        if any(_overlap(placed, other.vertices) for other in dice):
            continue
        dice.append(Die(solid, random_look(rng), placed, values_of_faces(solid, rng), up_face(solid, placed)))
    return dice


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two dice's footprints on the floor overlap (their inscribed circles, loosely)."""
    ca, cb = a[:, :2].mean(0), b[:, :2].mean(0)
    ra = np.linalg.norm(a[:, :2] - ca, axis=1).min()
    rb = np.linalg.norm(b[:, :2] - cb, axis=1).min()
    return float(np.linalg.norm(ca - cb)) < 0.95 * (ra + rb) + 0.1


def _face_frame(points: np.ndarray, normal: np.ndarray, up: np.ndarray):
    """A square around a face in its plane: (4×3 corners, side), its first axis along ``up``."""
    centre = points.mean(0)
    v = up - (up @ normal) * normal
    v /= np.linalg.norm(v)
    u = np.cross(v, normal)
    half = float(np.abs((points - centre) @ np.stack([u, v], 1)).max())
    return centre, np.array([centre - half * u + half * v, centre + half * u + half * v,
                             centre + half * u - half * v, centre - half * u - half * v]), u, v, half


def _face_image(die: Die, face: int, points: np.ndarray, normal: np.ndarray, rng: np.random.Generator):
    """(texture, 4×3 world corners of the square it covers) of one face of a die."""
    body = _body_texture(die.look, rng)
    solid = die.solid
    reference = die.vertices[solid.faces[face][0]] - points.mean(0)  # numerals point at a vertex
    if solid.kind == "d6-pips":  # pips lie along the face's edges: its square is the face itself
        reference = die.vertices[solid.faces[face][:2]].mean(0) - points.mean(0)
    centre, corners, u, v, half = _face_frame(points, normal, reference)
    if solid.kind == "d4-pyramid":
        img = body
        for i in solid.faces[face]:  # each corner's number, its top toward that corner
            offset = die.vertices[i] - centre
            x, y = float(offset @ u) / half, float(offset @ v) / half
            img = symbol_texture(str(die.values[i]), die.look, img, (0.5 + 0.4 * x, 0.5 - 0.4 * y), 0.4,
                                 math.degrees(math.atan2(x, y)))
        return img, corners
    if face not in die.values:
        return body, corners
    value = die.values[face]
    if solid.kind == "d6-pips":
        return pip_texture(value, die.look, body), corners
    symbol = face_symbol("d10-percentile" if solid.kind == "d10-percentile" else
                         "d10" if solid.kind == "d10" else "", value) or str(value)
    # bold fonts are drawn larger too (×0.8–1.04): makers' numerals differ in size
    scale = NUMERAL_SCALE.get(solid.kind, 1.0) * (0.8 + 4 * (die.look.thickness - 0.05))
    return symbol_texture(symbol, die.look, body, (0.5, 0.5), scale), corners


def _lamps(rng: np.random.Generator) -> list[tuple[np.ndarray, float]]:
    lamps = []
    for _ in range(int(rng.integers(1, 4))):
        elevation, azimuth = rng.uniform(math.radians(35), math.radians(85)), rng.uniform(0, 2 * math.pi)
        direction = np.array([math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth),
                              math.sin(elevation)])
        lamps.append((direction, float(rng.uniform(0.4, 1.0))))
    return lamps


def _paste(canvas: np.ndarray, texture: np.ndarray, quad: np.ndarray, polygon: np.ndarray,
           shade: float, alpha: float) -> None:
    """Map ``texture`` onto the image quad (4×2) and blend it in inside ``polygon``."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(polygon.min(0)).astype(int).clip(0, [w - 1, h - 1])
    x1, y1 = np.ceil(polygon.max(0)).astype(int).clip(0, [w - 1, h - 1]) + 1
    if x1 - x0 < 1 or y1 - y0 < 1:
        return
    src = np.float32([[0, 0], [TEXTURE, 0], [TEXTURE, TEXTURE], [0, TEXTURE]])
    matrix = cv2.getPerspectiveTransform(src, np.float32(quad - [x0, y0]))
    warped = cv2.warpPerspective(texture, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((polygon - [x0, y0]) * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    a = (mask.astype(np.float32) / 255 * alpha)[..., None]
    part = canvas[y0:y1, x0:x1]
    part[:] = part * (1 - a) + np.clip(warped * shade, 0, 255) * a


def render_photo(rng: np.random.Generator, kinds: tuple[str, ...] = KINDS, patches: list[np.ndarray] | None = None,
                 max_dice: int = 8, cocked_share: float = 0.08) -> tuple[np.ndarray, list[dict]]:
    """One photo and its labels (see the module's docstring for the label's keys)."""
    size = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    w, h = size
    die_px = rng.uniform(25, min(150, min(w, h) / 3))
    focal = w * rng.uniform(0.55, 1.3)
    radial = float(rng.uniform(-0.3, 0.0)) if focal < 0.8 * w else 0.0
    camera = Camera.looking_down(math.radians(rng.uniform(0, 35)), 2.6 * focal / die_px, focal, size, radial)
    dice = place_dice(int(rng.integers(1, max_dice + 1)), kinds, camera, rng.random() < 0.3, cocked_share, rng)
    # the floor: a texture laid on the plane under the view
    ground = np.array([camera.floor_point(p) for p in ((0, 0), (w, 0), (w, h), (0, h))])[:, :2]
    lo, hi = ground.min(0), ground.max(0)
    if patches and rng.random() < 0.4:
        patch = patches[int(rng.integers(len(patches)))]
        floor = cv2.resize(patch, (512, 512), interpolation=cv2.INTER_LINEAR)
    else:
        floor = floor_texture(str(rng.choice(FLOORS)), 512, rng)
    quad = camera.project(np.array([[lo[0], lo[1], 0], [hi[0], lo[1], 0], [hi[0], hi[1], 0], [lo[0], hi[1], 0]]))
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [512, 0], [512, 512], [0, 512]]), np.float32(quad))
    canvas = cv2.warpPerspective(floor, matrix, size, borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    lamps = _lamps(rng)
    # shadows: each die's outline cast along each lamp onto the floor
    shadow = np.zeros((h, w), np.float32)
    for die in dice:
        for direction, strength in lamps:
            cast = die.vertices - np.outer(die.vertices[:, 2] / direction[2], direction)
            hull = cv2.convexHull(np.round(camera.project(cast)).astype(np.int32))
            layer = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(layer, hull, round(127 * strength))
            shadow = np.maximum(shadow, layer / np.float32(255))
    blur = max(3, int(die_px / 6) | 1)
    canvas *= 1 - cv2.GaussianBlur(shadow, (blur, blur), 0)[..., None]
    view = camera.position
    for die in sorted(dice, key=lambda d: -np.linalg.norm(d.vertices.mean(0) - view)):
        image_points = camera.project(die.vertices)
        hull = cv2.convexHull(image_points.astype(np.float32)).reshape(-1, 2)
        edge = np.tile(die.look.body * 0.55, (TEXTURE, TEXTURE, 1)).astype(np.float32)
        _paste(canvas, edge, np.array([hull.min(0), [hull.max(0)[0], hull.min(0)[1]], hull.max(0),
                                       [hull.min(0)[0], hull.max(0)[1]]]), hull, 1.0, die.look.alpha)
        for f, face in enumerate(die.solid.faces):
            points = die.vertices[face]
            normal = die.solid.normal(f, die.vertices)
            to_eye = view - points.mean(0)
            if normal @ to_eye <= 0:
                continue
            to_eye /= np.linalg.norm(to_eye)
            shade = 0.35 + sum(s * max(0.0, float(normal @ d)) for d, s in lamps) * 0.8
            texture, corners = _face_image(die, f, points, normal, rng)
            glare = max((s * max(0.0, float((2 * (normal @ d) * normal - d) @ to_eye)) ** 40 for d, s in lamps))
            if glare > 0.05:
                spot = np.zeros((TEXTURE, TEXTURE), np.uint8)
                cv2.circle(spot, tuple(int(c) for c in rng.integers(16, 48, 2)), TEXTURE // 5, 255, -1)
                texture = texture + glare * cv2.GaussianBlur(spot, (15, 15), 0)[..., None].astype(np.float32)
            inset = points.mean(0) + (points - points.mean(0)) * (1 - die.look.rounding)
            corners = points.mean(0) + (corners - points.mean(0)) * (1 - die.look.rounding)
            _paste(canvas, texture, camera.project(corners), camera.project(inset), shade, die.look.alpha)
    # the light's colour, the camera's partial white balance, the lens, the sensor
    cast = _kelvin(rng.uniform(2700, 6500))
    canvas *= cast ** rng.uniform(0.2, 0.8) * rng.uniform(0.7, 1.25)
    photo = camera.remap(np.clip(canvas, 0, 255).astype(np.uint8))
    if rng.random() < 0.3:
        photo = cv2.GaussianBlur(photo, (3, 3), rng.uniform(0.3, 1.2))
    noise = rng.normal(0, rng.uniform(0, 5), photo.shape)
    photo = np.clip(photo + noise, 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    return photo, [_label(die, camera) for die in dice]


def _label(die: Die, camera: Camera) -> dict:
    pixels = camera.distort(camera.project(die.vertices))
    w, h = camera.size
    box = [max(0, int(pixels[:, 0].min())), max(0, int(pixels[:, 1].min())),
           min(w, math.ceil(pixels[:, 0].max())), min(h, math.ceil(pixels[:, 1].max()))]
    if die.up is None:
        top = die.vertices.mean(0, keepdims=True)
    elif die.solid.kind == "d4-pyramid":
        top = die.vertices[[die.up]]
    else:
        top = die.vertices[die.solid.faces[die.up]].mean(0, keepdims=True)
    centre = camera.distort(camera.project(top))[0]
    value = die.value
    symbol = face_symbol(die.solid.kind, value)
    return {"value": value, "sides": die.solid.sides, "kind": die.solid.kind, "face": symbol, "box": box,
            "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
            "cocked": die.up is None, "color": die.look.colour}


LABELS_EVERY = 25  # photos: labels.json is rewritten this often, so a run stopped early leaves a usable folder


def _write_labels(out: Path, seed: int, images: list[dict]) -> None:
    """labels.json of the photos written so far (replaced whole: a reader never sees half of it)."""
    part = out / "labels.json.part"
    part.write_text(json.dumps({"source": "tools/render_dice.py", "seed": seed,
                                "box_semantics": "whole die as rendered", "images": images}, indent=1))
    part.replace(out / "labels.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the photos and labels.json")
    parser.add_argument("--photos", type=int, default=100, help="how many photos to render")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS), metavar="KIND",
                        help=f"kinds of die to render ({', '.join(KINDS)}); all by default")
    parser.add_argument("--floors", nargs="*", type=Path, default=[], metavar="DIR",
                        help="dataset folders (labels.json) whose die-free patches are floors too")
    args = parser.parse_args(argv)
    if args.photos < 1:
        parser.error("--photos must be at least 1")
    for folder in args.floors:
        if not (folder / "labels.json").is_file():
            parser.error(f"--floors {folder}: no labels.json there")
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    patches = real_floor_patches(args.floors)
    args.out.mkdir(parents=True, exist_ok=True)
    images, dice, start = [], 0, time.process_time()
    for k in range(args.photos):
        photo, labels = render_photo(rng, tuple(args.kinds), patches)
        name = f"render-{k:05d}.jpg"
        cv2.imwrite(str(args.out / name), photo, [cv2.IMWRITE_JPEG_QUALITY, 95])
        images.append({"file": name, "width": photo.shape[1], "height": photo.shape[0], "dice": labels})
        dice += len(labels)
        if (k + 1) % LABELS_EVERY == 0 or k + 1 == args.photos:
            _write_labels(args.out, args.seed, images)
    seconds = time.process_time() - start
    print(f"{args.photos} photos, {dice} dice in {seconds:.1f} s of CPU: "
          f"{3600 * dice / max(seconds, 1e-9):.0f} dice an hour on one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
