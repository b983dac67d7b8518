"""One rendered photo and its labels: dice placed at rest in the camera's view, their faces
textured and drawn back-to-front over a floor with shadows, glare, colour cast, lens, noise and JPEG.

The label's keys are described in tools/render_dice.py's docstring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tools.render.camera import Camera, _paste
from tools.render.floors import FLOORS, _kelvin, _lamps, floor_texture
from tools.render.solids import KINDS, SOLIDS, Solid, rest, up_face, values_of_faces
from tools.render.textures import TEXTURE, Look, _body_texture, pip_texture, random_look, symbol_texture
from vision.numerals import face_symbol

#: A numeral's size on a face of each kind, relative to a d6's (the square around a triangle is loose);
#: as on real d8s and d20s, whose top numeral spans about a third of the face (it was half that).
NUMERAL_SCALE = {"d8": 0.85, "d20": 0.8, "d10": 0.85, "d10-percentile": 0.75, "d12": 0.9, "d4-long": 0.9}


COCKED_SHARE = 0.08  # of the dice rendered, those cocked (real tables have few: a rethrow each, RULES T-1)
RESOLUTIONS = ((320, 240), (640, 480), (640, 640), (800, 600), (1280, 720), (1280, 960), (1920, 1080))


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
    photo's edge, none overlapping; ``touching``: each next to the one before), each cocked
    (on an edge) with probability ``cocked_share``."""
    w, h = camera.size
    corners = np.array([camera.floor_point(p) for p in ((0.15 * w, 0.15 * h), (0.85 * w, 0.85 * h))])
    low, high = corners.min(0)[:2], corners.max(0)[:2]
    dice: list[Die] = []
    cocked = rng.random() < cocked_share  # once a die, not once a try: flat dice fail to fit more often
    for _ in range(count * 20):
        if len(dice) == count:
            break
        solid = SOLIDS[str(rng.choice(kinds))]
        scale = rng.uniform(0.85, 1.15)
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
        cocked = rng.random() < cocked_share
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


def render_photo(rng: np.random.Generator, kinds: tuple[str, ...] = KINDS, patches: list[np.ndarray] | None = None,
                 max_dice: int = 8, cocked_share: float = COCKED_SHARE) -> tuple[np.ndarray, list[dict]]:
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
