"""Read a tray photo: find the dice, read each top face, name its colour."""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.detect import Region, find_regions
from vision.floor import CLOSE_UP_SIDE
from vision.errors import InvalidImage
from vision.layout import layout_fits
from vision.pips import Pip, find_pips
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading

from vision.colors import estimate_white, name_color

MIN_SIDE = 16  # pixels: a smaller photo cannot show a readable die
_RELATIVE_STRENGTH = 0.65  # pips answer at least this share of the die's strongest pip
_CLOSE_UP_FILL = 0.8  # a close-up's die side as a share of the photo's short side
_MARGIN = 3  # pixels around a region searched for pips
_OFF_CENTRE_FEW = 0.2  # of the die's side: how far one or two pips may centre away from the body's
_LEAST_SIDE = 0.6  # of the typical die side: the least width of a die's box
_MOST_ASPECT = 1.8  # a die's box is at most this much longer than wide
_SURE = 0.9  # confidence of a face whose strong blobs form its layout at once
_FALLBACK = 0.6  # ... of one read from the strongest few blobs, the rest dropped
_CLEAR_DROP = 1.05  # the weakest pip kept is this much stronger than the strongest dropped
_CLEAR_DROP_FEW = 1.5  # ... when two are kept, which have no layout to prove them
_FAINT = 0.5  # of the weakest pip: a blob this strong among the pips makes the count doubtful
_FAINT_FEW = 0.4  # ... when it reads one or two pips, which have no layout to check
_FACE_REACH = 0.4  # of the die's side: how far from the face's centre its pips lie
_SPREAD = 0.95  # of the die's side: the farthest two pips of one face are closer than this
_PIP_RADIUS = (0.05, 0.17)  # a pip's radius as a share of the die's side
_INSIDE = 1.6  # pip radii: how deep inside the body a top-face pip lies (side faces show at the rim)


def _as_bgr(image: object) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise InvalidImage(f"not an image: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise InvalidImage(f"not an image: expected uint8 pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise InvalidImage(f"not an image: expected H×W×3 pixels, got shape {image.shape}")


def _top_face(pips: list[Pip]) -> list[Pip]:
    """The pips of the top face: strong ones of the strongest pip's polarity, as big as
    the biggest of them (pips on side faces are foreshortened, so smaller)."""
    if not pips:
        return []
    strongest = max(pips, key=lambda p: p.strength)
    chosen = [p for p in pips if p.polarity == strongest.polarity
              and p.strength >= _RELATIVE_STRENGTH * strongest.strength]
    radius = max(p.radius for p in chosen)
    return [p for p in chosen if p.radius >= 0.7 * radius]


def _alike(pips: list[Pip]) -> bool:
    """Pips of one face are of one size (within a factor 1.6 of their median)."""
    radii = np.array([p.radius for p in pips])
    return bool((radii <= 1.6 * np.median(radii)).all() and (radii >= np.median(radii) / 1.6).all())


def _strongest_layout(face: list[Pip], body: np.ndarray, side: float) -> list[Pip]:
    """When the strong blobs do not form a face, the strongest few that do, if they
    stand clearly above the rest (side-face pips and pips showing through a
    translucent die are fainter than the top face's); else nothing."""
    ranked = sorted(face, key=lambda p: -p.strength)
    for n in range(min(6, len(ranked)), 1, -1):
        top = ranked[:n]
        following = ranked[n].strength if n < len(ranked) else 0.0
        drop = _CLEAR_DROP if n > 2 else _CLEAR_DROP_FEW  # two blobs have no layout to prove them
        if top[-1].strength < drop * following or not _alike(top):
            continue
        points = np.array([(p.x, p.y) for p in top])
        if layout_fits(points) and _centred(points, body, side):
            return top
    return []


def _unexplained(pips: list[Pip], face: list[Pip], side: float) -> bool:
    """Whether a fainter blob of the face's kind sits among its pips: a pip the
    strength cut missed, so the count cannot be trusted."""
    weakest = min(p.strength for p in face)
    centre = np.mean([(p.x, p.y) for p in face], axis=0)
    radius = max(p.radius for p in face)
    faint = _FAINT if len(face) > 2 else _FAINT_FEW
    return any(p not in face and p.polarity == face[0].polarity
               and p.strength >= faint * weakest and p.radius >= 0.7 * radius
               and np.hypot(p.x - centre[0], p.y - centre[1]) <= _FACE_REACH * side
               for p in pips)


def _centred(points: np.ndarray, body: np.ndarray, side: float) -> bool:
    """One pip, or two, sit where that face puts them: the middle of the die, the
    ends of a diagonal (the layout check cannot tell a stray blob from a pip; for
    three pips and more it can, and the body's centre is rough: shadows and
    neighbours shift it)."""
    if len(points) == 1:
        return bool(np.linalg.norm(points[0] - body) <= _OFF_CENTRE_FEW * side)
    spread = max(np.linalg.norm(a - b) for a in points for b in points)
    if spread > _SPREAD * side:  # pips of two dice, or a pip and a blob beside the die
        return False
    if len(points) == 2:
        return bool(np.linalg.norm(points.mean(axis=0) - body) <= _OFF_CENTRE_FEW * side
                    and 0.35 * side <= np.linalg.norm(points[0] - points[1]) <= 1.0 * side)
    return True


def _die_side(regions: list[Region]) -> float:
    """Typical die side in this photo (pixels): median over compact, die-like regions."""
    sides = []
    for region in regions:
        h, w = region.mask.shape
        if 0.6 < w / h < 1.6 and region.area > 0.6 * w * h:
            sides.append(np.sqrt(region.area))
    if sides:
        return float(np.median(sides))
    return float(np.median([np.sqrt(r.area) for r in regions]))


def _split(image: np.ndarray, mask: np.ndarray, origin: tuple[int, int], side: float) -> list[np.ndarray]:
    """Split a blob of touching dice: one seed per die centre (peaks of the distance to the
    blob's edge at least half a die apart), grown by a watershed on the photo's edges."""
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    reach = max(3, int(side * 0.55) | 1)
    peaks = (inside >= cv2.dilate(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))) \
        & (inside > 0.25 * side)
    count, seeds = cv2.connectedComponents(peaks.astype(np.uint8))
    if count <= 2:
        return [mask]
    markers = seeds.astype(np.int32)
    markers[mask == 0] = count  # the floor is a basin of its own
    h, w = mask.shape
    crop = np.ascontiguousarray(image[origin[1]:origin[1] + h, origin[0]:origin[0] + w])
    cv2.watershed(crop, markers)
    return [np.where(markers == k, np.uint8(255), np.uint8(0)) for k in range(1, count)]


def _read_mask(image: np.ndarray, mask: np.ndarray, origin: tuple[int, int],
               side: float) -> DieReading | None:
    """Read one die whose body is ``mask`` (a crop at ``origin`` of the photo)."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    x0, y0 = origin[0] + int(xs.min()), origin[1] + int(ys.min())
    x1, y1 = origin[0] + int(xs.max()) + 1, origin[1] + int(ys.max()) + 1
    h, w = image.shape[:2]
    cx0, cy0 = max(0, x0 - _MARGIN), max(0, y0 - _MARGIN)
    cx1, cy1 = min(w, x1 + _MARGIN), min(h, y1 + _MARGIN)
    crop_mask = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    sub = mask[y0 - origin[1]:y1 - origin[1], x0 - origin[0]:x1 - origin[0]]
    crop_mask[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0] = sub
    # depth inside the body's convex hull: a white die on a light floor stands out in pieces
    hull = np.zeros_like(crop_mask)
    cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(crop_mask)), 255)
    inside = cv2.distanceTransform(hull, cv2.DIST_L2, 3)
    radii = (_PIP_RADIUS[0] * side, _PIP_RADIUS[1] * side)
    # one scale beyond the range either way, so an out-of-range blob is not read as a pip
    pips = find_pips(image[cy0:cy1, cx0:cx1], crop_mask, (cx0, cy0), (radii[0] / 1.4, radii[1] * 1.4))
    pips = [p for p in pips
            if radii[0] <= p.radius <= radii[1]
            and inside[int(p.y) - cy0, int(p.x) - cx0] >= _INSIDE * p.radius]
    face = _top_face(pips)
    if not face:
        return None
    points = np.array([(p.x, p.y) for p in face])
    value: int | None = len(face)
    unreadable = None
    confidence = _SURE
    body = np.array([xs.mean() + origin[0], ys.mean() + origin[1]])
    if not layout_fits(points) or not _centred(points, body, side) or _unexplained(pips, face, side):
        face = _strongest_layout(face, body, side)
        if face:
            points = np.array([(p.x, p.y) for p in face])
            value, confidence = len(face), _FALLBACK
        else:
            value, unreadable = None, "ambiguous pips"
    color = ""  # named by _name_colours, once the floor's white is known
    center = points.mean(axis=0)
    return DieReading(value=value, sides=6, box=(x0, y0, x1, y1),
                      center=(float(center[0]), float(center[1])), color=color,
                      confidence=confidence if value else 0.0, unreadable=unreadable)


def _die_sized(box: tuple[int, int, int, int], side: float) -> bool:
    """A box a die can fill: neither side much under a die's, not a strip (a tray wall)."""
    w, h = box[2] - box[0], box[3] - box[1]
    return min(w, h) >= _LEAST_SIDE * side and max(w, h) <= _MOST_ASPECT * min(w, h)


def _looks_like_a_die(mask: np.ndarray, side: float) -> bool:
    """A blob about one die big, roughly square and solid (not a rim, wall or cable)."""
    area = cv2.countNonZero(mask)
    if not 0.35 * side * side <= area <= 2.6 * side * side:
        return False
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea)
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    hull = cv2.contourArea(cv2.convexHull(contour))
    return min(w, h) > 0.5 * max(w, h) and area > 0.75 * hull


def _read_region(image: np.ndarray, region: Region, side: float) -> list[DieReading]:
    """Read a blob as one die, or as several touching dice when one die does not explain it.

    A blob that reads as one die is split only when the parts read as more
    than one die; a part without a valid face is kept (unreadable) only when it
    is shaped like a die, so rims, walls and cables stay out.
    """
    whole = _read_mask(image, region.mask, region.origin, side)
    whole_read = whole is not None and whole.value is not None and _die_sized(whole.box, side)
    single = _looks_like_a_die(region.mask, side)
    if whole_read and single and region.area < 1.8 * side * side:
        return [whole]
    parts = _split(image, region.mask, region.origin, side)
    dice = []
    if len(parts) > 1:
        for mask in parts:
            die = _read_mask(image, mask, region.origin, side)
            if die is not None and _die_sized(die.box, side) \
                    and (die.value is not None or _looks_like_a_die(mask, side)):
                dice.append(die)
    if whole_read and sum(die.value is not None for die in dice) <= 1:
        return [whole]
    if not dice and whole is not None and single:
        return [whole]
    return dice


def _read_close_up(image: np.ndarray) -> list[DieReading]:
    """A close-up of one die (a crop cut around it): the die fills the photo, so the
    whole photo is its body and its side is most of the photo's."""
    h, w = image.shape[:2]
    die = _read_mask(image, np.full((h, w), 255, np.uint8), (0, 0), _CLOSE_UP_FILL * min(h, w))
    if die is None:
        return []
    middle = np.zeros((h, w), np.uint8)  # the die's body fills the middle of a close-up
    middle[h // 4:h - h // 4, w // 4:w - w // 4] = 255
    die.color = name_color(image, middle)
    return [die]


def _flag_cut_off(die: DieReading, width: int, height: int) -> None:
    """A die the photo's edge cuts close to its top face may hide pips beyond the edge:
    unreadable, never guessed. (A die whose near side only touches the edge, its
    top face well inside, is still read.)"""
    x0, y0, x1, y1 = die.box
    reach = 0.5 * min(x1 - x0, y1 - y0)
    cx, cy = die.center
    if (x0 <= 0 and cx - reach < 0) or (y0 <= 0 and cy - reach < 0) \
            or (x1 >= width and cx + reach > width) or (y1 >= height and cy + reach > height):
        die.value, die.unreadable, die.confidence = None, "cut off", 0.0


def _name_colours(image: np.ndarray, regions: list[Region], dice: list[DieReading]) -> None:
    """Name every die's colour against one white reference: the floor around the dice."""
    if not dice:
        return
    bodies = np.zeros(image.shape[:2], np.uint8)
    for region in regions:
        x0, y0, x1, y1 = region.box
        bodies[y0:y1, x0:x1] |= region.mask
    white = estimate_white(image, exclude=bodies)
    for die in dice:
        x0, y0, x1, y1 = die.box
        die.color = name_color(image[y0:y1, x0:x1], bodies[y0:y1, x0:x1], white_reference=white)


def read_tray(image: np.ndarray, principal_color: str | None = None, *, pip_reader=None) -> TrayReading:
    """Read every die in a tray photo.

    :param image: H×W×3 uint8 BGR photo (H×W grey and H×W×4 BGRA are accepted too).
    :param principal_color: palette name of the principal die, or None to take
        the one die whose colour no other die has.
    :param pip_reader: the :class:`vision.pips_learned.PipReader` taking a second look
        (:func:`vision.hybrid.second_look`); None for the shipped networks.
    :returns: the reading; an empty one for a photo too small or showing no dice.
    :raises InvalidImage: if ``image`` is not a uint8 image array.
    :raises FileNotFoundError: the learned pip networks are not in their models folder.
    """
    start = time.perf_counter()
    bgr = _as_bgr(image)
    height, width = bgr.shape[:2]
    dice: list[DieReading] = []
    if min(height, width) >= MIN_SIDE:
        if max(height, width) <= CLOSE_UP_SIDE:
            dice += _read_close_up(bgr)
        elif regions := find_regions(bgr):
            side = _die_side(regions)
            for region in regions:
                dice += _read_region(bgr, region, side)
            for die in dice:
                _flag_cut_off(die, width, height)
            _name_colours(bgr, regions, dice)
    if dice:
        # imported here: vision.pips_learned imports this module
        from vision.hybrid import second_look

        dice = second_look(bgr, dice, pip_reader)
    note = mark_principal(dice, principal_color)
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start,
                       principal_note=note)
