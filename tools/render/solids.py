"""The dice's solids for the renderer: their shapes, values and rest poses, and the up face read from the geometry.

The d20 is trimesh's icosahedron, the others are built from their vertices (their faces are
the convex hull's). A die rests on a face, or cocked on an edge; the face whose outward
normal is nearest the floor's up is read (a pyramid d4: the vertex highest above the floor),
and a die with no face normal within :data:`FLAT_DEGREES` of up is cocked: it has no value.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import trimesh

PHI = (1 + 5 ** 0.5) / 2
FLAT_DEGREES = 5.0  # a die is flat when its up face's normal is this close to up, else cocked


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
