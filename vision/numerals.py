"""Read numbered dice (d4, d6, d8, d10, percentile d10, d12, d20) and pip d6 in a photo.

Two small learned networks run by onnxruntime (:mod:`vision.network`; no PyTorch at run time),
and a third, the face-value network of :mod:`vision.faces`, for the numerals' values:

1. a detector (``models/numerals_detect.onnx``): a :data:`DETECT_SIZE`-pixel square of the
   photo → a heat map of die centres and each die's size, one cell per :data:`STRIDE`
   pixels. The photo is letterboxed to that square first and, when the dice there are far
   from the size the detector learned, read again at the scale their size asks for, in
   tiles (:func:`detect`);
2. a classifier (``models/numerals_classify.onnx``): a :data:`CROP`-pixel crop
   around each centre → the die's kind (or "background": no die there) and
   the value on top; a d12's, d20's or percentile d10's value is read instead by the
   face-value network (:data:`FACE_KINDS`), which learned from drawn faces only, and a d6's,
   d8's or d10's by both together unless the classifier is all but certain (:func:`value_of`).

When no pass of the detector is sure (a tray, floor or camera it never learned) and the models
folder holds a second detector (``numerals_detect_varied.onnx``, :data:`VARIED_DETECT_FILE`, learned
from 3D renders of every kind at any size and in other lights too), it reads the photo, and its
pass is kept when surer (:func:`detect`). None is shipped: on trays it never saw it finds most
dice, but the classifier names too few of them for a reading to change (docs/benchmarks.md);
``benchmarks/vision_generalise.py`` reads with the one of a leave-one-source-out run.

Both are trained by ``tools/train_numerals.py`` (fixed seed) from the
development photos of ``../shared/datasets/real-polyhedral`` and
``real-dice/byler-tray-d6``, one photo in four held out by file name (see
``tools/numerals_data.py``); ``benchmarks/vision_polyhedral.py`` measures on
the held-out photos. A die is reported unreadable, with the reason, when the
networks are not sure of its value; a kind the classifier is not sure of is not a die.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colors import name_dice_colors
from vision.faces import die_glyphs, face_odds
from vision.image import MIN_SIDE, as_bgr, square_crop
from vision.network import Network
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading
from vision.scale import SURE_SAMPLE, Pyramid, scene_scale, strength

#: What the reader tells apart. "d6" is a numbered (or ornate) d6, "d6-pips" a pip d6,
#: "d4" a long (barrel) d4 showing one numeral on top.
KINDS: tuple[str, ...] = ("d4", "d6-pips", "d6", "d8", "d10", "d10-percentile", "d12", "d20")
CLASSES: tuple[str, ...] = ("background",) + KINDS
SIDES: dict[str, int] = {"d4": 4, "d6-pips": 6, "d6": 6, "d8": 8, "d10": 10,
                         "d10-percentile": 10, "d12": 12, "d20": 20}
MAX_VALUE = 20

DETECT_SIZE = 320  # pixels: the photo's long side in the detector's input
STRIDE = 4  # input pixels per heat-map cell
CROP = 48  # pixels: the classifier's input side
CROP_SCALE = 1.0  # the crop's side over the die's, unless the classifier says otherwise (classifier_crops)

HEAT_MIN = 0.2  # detector peak: below this no die is looked at
MAX_CANDIDATES = 60  # strongest peaks looked at (a tray holds at most a few dozen dice)
KIND_MIN = 0.75  # classifier: a kind less sure than this is not reported as a die (chosen on the held-out photos)
VALUE_MIN = 0.8  # classifier: a value less sure than this makes the die unreadable (chosen on the held-out photos)
#: Kinds whose value the face-value network reads (:mod:`vision.faces`), not the classifier, which
#: learned their values from too few photos (a d20's from one of each at most: none of the 72 real
#: ones read right; burks' six percentile d10s)
FACE_KINDS = ("d10-percentile", "d12", "d20")
#: Kinds whose value the classifier and the face-value network read together (:func:`value_of`)
CHECKED_KINDS = ("d6", "d8", "d10")
#: the classifier: a value of CHECKED_KINDS this sure is the die's without the face-value network
#: (a tray it learned; on one it never saw it was never this sure: benchmarks/vision_faces.py)
VALUE_SURE = 0.99
#: the classifier's and the face-value network's probabilities multiplied: a value of
#: CHECKED_KINDS this sure of both is the die's, when the face-value network gives it at least
#: SEEN_MIN (else the face-value network's at FACE_MIN; both chosen on benchmarks/vision_faces.py's
#: crops of banachowicz and burks, read by the shipped classifier and by classifiers that never saw them)
BOTH_MIN = 0.9
SEEN_MIN = 0.3
#: the face-value network: a numeral less sure than this is not the die's value (chosen on
#: benchmarks/vision_faces.py's crops of lurig's d20s with the network's first version, which read
#: only d12s and d20s: the lowest bar with at most one die in fifty read wrong)
FACE_MIN = 0.9
SAME_DIE = 0.7  # of the die's side: a second peak this close to a die found is that die
CUT_OFF = 0.2  # of the die's side: a die reaching this far past the photo's edge is cut off
#: pixels: a die's side in the detector's input that the networks read best (the median d10 of
#: the training photos letterboxed, 28 px; trained zoomed ×0.7–×1.3)
LEARNED_SIDE = 28.0
#: pixels: dice measured this size in the detector's input are read where they are found;
#: outside it the photo is read again at the scale that makes them LEARNED_SIDE
LEARNED_RANGE = (23.0, 33.0)
MAX_SCALE = 2.0  # the photo may be enlarged at most this much for the detector
#: :func:`vision.scale.strength` below which the letterboxed pass is not trusted
STRONG = 0.85
PROBE_MARGIN = 0.05  # a probe's pass is kept only when this much surer than the first
PROBES = (2.5, 0.4)  # the letterbox's scale times these: dice of 10 px → 25, of 80 px → 32
#: read when no pass of PROBES is sure either: dice of 120–190 px in the letterbox (lurig's d20s,
#: 4–7 × LEARNED_SIDE; still 48–75 px at × 0.4, where the detector misses most) → 30–48 and
#: 19–30 px (leave-one-source-out, lurig's 53 d20s found 14 → 32; (0.2,) alone 23). The values
#: of dice read at these scales are withheld (:func:`read_numbered`): none learned a die that
#: size, and of the 20 the shipped networks read there none was of the right kind, 9 given a value
COARSE_PROBES = (0.25, 0.16)
TILE_OVERLAP = 64  # pixels of the scaled photo two neighbouring detector tiles share
#: the second detector's (:data:`VARIED_DETECT_FILE`) pass is kept only when this much surer than
#: every pass of the first, and at least VARIED_MIN sure
VARIED_MARGIN = 0.15
VARIED_MIN = 0.6

MODELS = Path(__file__).resolve().parent / "models"
DETECT_FILE = "numerals_detect.onnx"
#: the second detector, learned from 3D renders of every kind at any size under other lights
#: (``tools/train_numerals.py --varied-detector``): read, when in the models folder, only when no
#: pass of the first is sure
VARIED_DETECT_FILE = "numerals_detect_varied.onnx"


@dataclass
class NumberedReading(DieReading):
    """A :class:`DieReading` with the die's kind and the symbol printed on top.

    ``kind`` is one of :data:`KINDS`; ``face`` the printed symbol when it is not
    ``str(value)``: ``"0"`` on a d10 showing 10, ``"00"``…``"90"`` on a
    percentile d10 (value 10 is ``"00"``, value 3 is ``"30"``), else None.
    """

    kind: str = "d6-pips"
    face: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As :meth:`DieReading.to_dict`, plus ``kind`` and ``face``."""
        return {**super().to_dict(), "kind": self.kind, "face": self.face}


def face_symbol(kind: str, value: int | None) -> str | None:
    """The symbol printed on a face of value ``value`` when it is not ``str(value)``
    (:func:`vision.faces.die_glyphs`: a d10's 10 is "0", a percentile d10's 3 is "30"); None for a
    kind not of :data:`KINDS` (the renderer's d4-pyramid, its numbered d6: their numerals are their values)."""
    if value is None or kind not in SIDES:
        return None
    glyph = die_glyphs(SIDES[kind], kind == "d10-percentile")[value - 1]
    return None if glyph == str(value) else glyph


def face_odds_of(image: NDArray[Any], center: tuple[float, float], side: float, kind: str) -> NDArray[Any]:
    """:func:`vision.faces.face_odds` of the die of ``kind`` (of :data:`KINDS`) of ``side`` pixels at
    ``center`` (x, y pixels) of an H×W×3 uint8 BGR photo: the probabilities of its values 1..sides."""
    return face_odds(image, center, side, SIDES[kind], kind == "d10-percentile")


def crop_die(image: NDArray[Any], center: tuple[float, float], side: float, angle: float = 0.0,
             scale: float = CROP_SCALE) -> NDArray[Any]:
    """A CROP×CROP×3 uint8 BGR crop of side ``scale × side`` pixels centred on ``center``
    (x, y pixels), turned by ``angle`` degrees; the photo's edge is repeated beyond it."""
    return square_crop(image, center, scale * max(side, 1.0), CROP, angle)


def classifier_crops(image: NDArray[Any], places: Sequence[tuple[float, float, float]]) -> list[NDArray[Any]]:
    """:func:`crop_die` of each (x, y, side; photo pixels) of ``places`` at the scale the classifier
    learned its crops at (its ``crop_scale`` metadata, :data:`CROP_SCALE` when it has none): the
    crops :func:`classify` reads.

    :raises FileNotFoundError: the classifier's file is missing.
    :raises ValueError: its ``crop_scale`` is not a number between 0 and 10.
    """
    scale = float(_CLASSIFIER.metadata().get("crop_scale", CROP_SCALE))
    if not 0 < scale < 10:  # NaN too
        raise ValueError(f"{_CLASSIFIER.path}: crop_scale {scale} is not a crop's side over a die's")
    return [crop_die(image, (x, y), side, scale=scale) for x, y, side in places]


def peaks(heat: NDArray[Any], threshold: float = HEAT_MIN) -> list[tuple[int, int, float]]:
    """Local maxima of a heat map (3×3) at or above ``threshold``: (row, col, heat) list."""
    local = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= local) & (heat >= threshold))
    return [(int(r), int(c), float(heat[r, c])) for r, c in zip(rows, cols, strict=False)]


_DETECTOR = Network(MODELS / DETECT_FILE, "numbered-dice detector")
_VARIED = (Network(MODELS / VARIED_DETECT_FILE, "numbered-dice detector")
           if (MODELS / VARIED_DETECT_FILE).is_file() else None)
_CLASSIFIER = Network(MODELS / "numerals_classify.onnx", "numbered-dice classifier")


def detect(image: NDArray[Any], heat_min: float = HEAT_MIN,
           first: FirstPass | None = None) -> list[tuple[float, float, float, float]]:
    """Candidate dice of an H×W×3 uint8 BGR photo: (x, y, side, heat) in photo pixels, strongest first;
    peaks of heat below ``heat_min`` are left out (:mod:`vision.adapt` looks at weaker ones).
    ``first``, this photo's :func:`first_pass` made down to a ``floor`` at most ``heat_min``,
    lends its pyramid, passes and the classifier's looks (:func:`vision.adapt.fit` reads a photo
    and then detects its weaker candidates: each pass made and each crop classified once).

    The scale is the scene's, not the frame's. The photo is letterboxed to :data:`DETECT_SIZE`
    first; when the dice found there are not sure (:func:`vision.scale.strength` below
    :data:`STRONG`: dice far smaller or larger than the networks learned, or no dice) it is
    also read at the :data:`PROBES` scales and, when none of those passes is sure either, at the
    :data:`COARSE_PROBES` scales (dice 4–7 times the size learned); the surest pass is kept. When
    no pass is sure either, the second detector (:data:`VARIED_DETECT_FILE`, when there) reads the
    photo at the first scale and, unsure there too, at the :data:`PROBES` scales; its surest pass
    is kept instead when :data:`VARIED_MARGIN` surer and at least :data:`VARIED_MIN` sure. When
    the dice of the pass kept measure outside :data:`LEARNED_RANGE` the photo is read once more by
    its detector, from its full resolution, at the scale that makes them :data:`LEARNED_SIDE`
    (kept when at least as sure).
    A pass at a scale larger than the letterbox's reads :func:`tiles` of the scaled photo.
    """
    return _detect(image, heat_min, first or first_pass(image, heat_min))[0]


class Looks:
    """The classifier's two looks (:func:`classify`: the crop upright and half-turned) at one
    photo's candidates, each look at each crop computed once a reading: the passes' sureness,
    :func:`vision.dice.read_dice`'s choice of reader and the dice read share them (before, a
    sure first pass's candidates were classified up to three times: 11 ms a banachowicz photo).

    :param image: the H×W×3 uint8 BGR photo the candidates (x, y, side, heat; photo pixels) are of.
    """

    def __init__(self, image: NDArray[Any]) -> None:
        self.image = image
        self._crops: dict[tuple[float, float, float], NDArray[Any]] = {}
        # (x, y, side), half-turned → (kind probabilities, value scores) of that look
        self._seen: dict[tuple[tuple[float, float, float], bool], tuple[NDArray[Any], NDArray[Any]]] = {}
        self._faces: dict[tuple[float, float, float, str], NDArray[Any]] = {}  # (x, y, side, kind) → face_odds

    def face(self, x: float, y: float, side: float, kind: str) -> NDArray[Any]:
        """:func:`vision.faces.face_odds` of the die of ``kind`` (of :data:`KINDS`) at (x, y) of
        ``side`` (photo pixels), read once a reading (a d20 was read 2–3 times a photo, 10 ms each)."""
        key = (x, y, side, kind)
        if key not in self._faces:
            self._faces[key] = face_odds_of(self.image, (x, y), side, kind)
        return self._faces[key]

    def _look(self, wanted: list[tuple[tuple[float, float, float], bool]]) -> None:
        """Classify the looks of ``wanted`` not seen yet, in one batch."""
        new = [look for look in dict.fromkeys(wanted) if look not in self._seen]
        if not new:
            return
        missing = list(dict.fromkeys(key for key, _ in new if key not in self._crops))
        self._crops.update(zip(missing, classifier_crops(self.image, missing), strict=True))
        batch = np.stack([self._crops[key][::-1, ::-1] if turned else self._crops[key] for key, turned in new])
        outputs = _CLASSIFIER.run_images(batch)  # while remembering: known by its bytes, converted when new
        values = outputs["value"].reshape(len(new), len(KINDS), MAX_VALUE)
        self._seen.update(zip(new, zip(_softmax(outputs["kind"]), values, strict=True), strict=True))

    def __call__(self, found: list[tuple[float, float, float, float]]) -> tuple[NDArray[Any], NDArray[Any]]:
        """:func:`classify` of the crops of the candidates ``found``: (N×len(CLASSES) kind
        probabilities, N×len(KINDS)×MAX_VALUE value scores), the mean of both looks."""
        keys = [c[:3] for c in found]
        self._look([(key, turned) for key in keys for turned in (False, True)])
        looks = [(self._seen[key, False], self._seen[key, True]) for key in keys]
        kinds = np.array([(up[0] + down[0]) / 2 for up, down in looks]).reshape(len(keys), len(CLASSES))
        values = np.array([(up[1] + down[1]) / 2 for up, down in looks]).reshape(len(keys), len(KINDS), MAX_VALUE)
        return kinds, values

    def may_read(self, found: list[tuple[float, float, float, float]], kinds: Iterable[str],
                 confidence: float) -> list[tuple[float, float, float, float]]:
        """The candidates of ``found`` that :func:`read_found` may read as a die of one of
        ``kinds`` at least ``confidence`` sure, from their upright look alone: a die's confidence
        is at most its kind's probability, the mean of both looks', so one whose upright look
        gives each of ``kinds`` less than 2 × ``confidence`` − 1 cannot be (exact: only the rest
        are looked at half-turned)."""
        columns = [CLASSES.index(kind) for kind in kinds]
        self._look([(c[:3], False) for c in found])
        return [c for c in found if self._seen[c[:3], False][0][columns].max() >= 2 * confidence - 1]


@dataclass
class FirstPass:
    """The letterboxed pass of :func:`detect`: its candidates (x, y, side, heat; photo pixels,
    strongest first) down to ``heat_min``, the photo's pyramid and the classifier's
    :class:`Looks`, kept so that :func:`detect` goes on from it (``read_numbered(image,
    first=…)``); each detector pass it makes is kept down to ``floor`` (:meth:`at`)."""

    scale: float
    found: list[tuple[float, float, float, float]]
    pyramid: Pyramid
    looks: Looks
    heat_min: float = HEAT_MIN
    floor: float = HEAT_MIN
    #: by (whether the second detector's, scale)
    passes: dict[tuple[bool, float], list[tuple[float, float, float, float]]] = field(default_factory=dict)

    def at(self, scale: float, heat_min: float, varied: bool = False) -> list[tuple[float, float, float, float]]:
        """The detector pass at ``scale`` down to ``heat_min`` (``varied``: the second detector's,
        :data:`VARIED_DETECT_FILE`), made once down to :attr:`floor`: a pass asked down to a higher
        heat is that one's candidates as hot (the same, as the strongest are kept first)."""
        detector = _VARIED if varied else _DETECTOR
        if heat_min < self.floor:
            return _detect_at(self.pyramid, scale, heat_min, detector)
        if (varied, scale) not in self.passes:
            self.passes[varied, scale] = _detect_at(self.pyramid, scale, self.floor, detector)
        return [c for c in self.passes[varied, scale] if c[3] >= heat_min]

    @cached_property
    def strength(self) -> float:
        """:func:`vision.scale.strength` of the pass, measured when first asked: it takes both
        looks at the strongest candidates, which a pip tray decided on the pip reader's first
        pass never needs (:func:`vision.dice.read_dice`)."""
        return _strength(self.looks, self.found)

    @property
    def sure(self) -> bool:
        """Whether :func:`detect` would read the photo at no other scale before measuring its dice."""
        return self.strength >= STRONG


def first_pass(image: NDArray[Any], heat_min: float = HEAT_MIN, floor: float | None = None) -> FirstPass:
    """The letterboxed pass of :func:`detect` over an H×W×3 uint8 BGR photo, down to
    ``heat_min``; its passes are kept down to ``floor`` (None: ``heat_min``), so that
    ``detect(image, floor, first)`` reuses them."""
    h, w = image.shape[:2]
    base = DETECT_SIZE / max(h, w)
    floor = heat_min if floor is None else min(floor, heat_min)
    first = FirstPass(base, [], Pyramid(image), Looks(image), heat_min, floor)
    first.found = first.at(base, heat_min)
    return first


def _detect(image: NDArray[Any], heat_min: float, first: FirstPass
            ) -> tuple[list[tuple[float, float, float, float]], bool]:
    """:func:`detect` from its first pass: (candidates, whether they were read at a
    :data:`COARSE_PROBES` scale or from one)."""
    base, looks = first.scale, first.looks
    coarse = {min(MAX_SCALE, base * factor) for factor in COARSE_PROBES}
    own = heat_min == first.heat_min  # the first pass's own candidates, and its strength
    # by (whether the second detector's, scale)
    passes = {(False, base): first.found if own else first.at(base, heat_min)}
    sure = {(False, base): first.strength if own else _strength(looks, passes[False, base])}

    def read(ladder: tuple[float, ...], varied: bool) -> float:
        """Make the passes of ``ladder`` (factors of the first scale) not made yet: their surest's strength."""
        keys = [(varied, min(MAX_SCALE, base * factor)) for factor in ladder]
        for key in keys:
            if key not in passes:
                passes[key] = first.at(key[1], heat_min, varied)
                sure[key] = _strength(looks, passes[key])
        return max(sure[key] for key in keys)

    for ladder in (PROBES, COARSE_PROBES):
        if max(sure.values()) >= STRONG:
            break
        read(ladder, False)
    # the first pass on a tie
    key = max(sure, key=lambda k: sure[k] - (k[1] != base) * PROBE_MARGIN)
    if sure[key] < STRONG and _VARIED is not None:
        bar = max(VARIED_MIN, max(sure.values()) + VARIED_MARGIN)  # surer than every pass of the first
        if read((1.0,), True) < STRONG:
            read(PROBES, True)
        surest = max((k for k in sure if k[0]), key=sure.__getitem__)
        if sure[surest] >= bar:
            key = surest
    varied, scale = key
    better = scene_scale([side for _, _, side, _ in passes[key]], scale, LEARNED_SIDE, LEARNED_RANGE, MAX_SCALE)
    if better is not None:
        refined = first.at(better, heat_min, varied)
        if _strength(looks, refined) >= sure[key]:  # else the scale was misjudged
            return refined, scale in coarse
    return passes[key], scale in coarse


def tiles(width: int, height: int) -> list[tuple[tuple[int, int], tuple[int, int, int, int]]]:
    """The detector's windows over a scaled photo of ``width`` × ``height`` pixels: for each
    :data:`DETECT_SIZE`-square tile, ((tx, ty) its top-left corner, (ox0, oy0, ox1, oy1) the part
    of the photo it owns), pixels. Every pixel is owned by one tile; the tiles overlap by
    :data:`TILE_OVERLAP`, so a die of up to that side centred in a tile's own part is whole in it.
    A photo that fits one square is one tile owning all of it."""
    step = DETECT_SIZE - TILE_OVERLAP

    def starts(n: int) -> list[int]:
        count = max(1, -(-(n - TILE_OVERLAP) // step))
        return [min(i * step, max(0, n - DETECT_SIZE)) for i in range(count)]

    out = []
    xs, ys = starts(width), starts(height)
    for j, ty in enumerate(ys):
        for i, tx in enumerate(xs):
            ox0 = 0 if i == 0 else (xs[i - 1] + DETECT_SIZE + tx) // 2
            oy0 = 0 if j == 0 else (ys[j - 1] + DETECT_SIZE + ty) // 2
            ox1 = width if i == len(xs) - 1 else (tx + DETECT_SIZE + xs[i + 1]) // 2
            oy1 = height if j == len(ys) - 1 else (ty + DETECT_SIZE + ys[j + 1]) // 2
            out.append(((tx, ty), (ox0, oy0, ox1, oy1)))
    return out


def detect_at(image: NDArray[Any], scale: float, heat_min: float = HEAT_MIN,
              pyramid: Pyramid | None = None) -> list[tuple[float, float, float, float]]:
    """One detector pass over an H×W×3 uint8 BGR photo scaled by ``scale``, one :func:`tiles`
    window at a time: candidates (x, y, side, heat) in photo pixels, strongest first."""
    return _detect_at(pyramid or Pyramid(image), scale, heat_min)


def _detect_at(pyramid: Pyramid, scale: float, heat_min: float = HEAT_MIN,
               detector: Network | None = None) -> list[tuple[float, float, float, float]]:
    detector = detector or _DETECTOR
    scaled = pyramid.scaled(scale)
    sh, sw = scaled.shape[:2]
    candidates = []
    for (tx, ty), (ox0, oy0, ox1, oy1) in tiles(sw, sh):
        canvas = np.zeros((DETECT_SIZE, DETECT_SIZE, 3), np.uint8)
        window = scaled[ty:ty + DETECT_SIZE, tx:tx + DETECT_SIZE]
        canvas[:window.shape[0], :window.shape[1]] = window
        out = detector.run_images(canvas[None])["maps"][0]
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        for row, col, value in peaks(heat, heat_min):
            x, y = tx + (col + 0.5) * STRIDE, ty + (row + 0.5) * STRIDE
            if ox0 <= x < ox1 and oy0 <= y < oy1:
                candidates.append((x / scale, y / scale, float(np.exp(out[1, row, col])) / scale, value))
    found: list[tuple[float, float, float, float]] = []
    for x, y, side, value in sorted(candidates, key=lambda c: -c[3])[:MAX_CANDIDATES]:
        # a second peak inside a die already found is the same die
        if all((x - fx) ** 2 + (y - fy) ** 2 > (SAME_DIE * max(side, fs)) ** 2 for fx, fy, fs, _ in found):
            found.append((x, y, side, value))
    return found


def _strength(looks: Looks, found: list[tuple[float, float, float, float]]) -> float:
    return strength(found, 1.0 - looks(found[:SURE_SAMPLE])[0][:, 0]) if found else 0.0


def classify(crops: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """N crops (N×CROP×CROP×3 uint8) → (N×len(CLASSES) kind probabilities,
    N×len(KINDS)×MAX_VALUE value scores: [n, k, v-1] for value v if the die is of KINDS[k]);
    the mean of each crop's and its half-turned copy's (held out: d10 92.0 → 95.6 % right,
    phantoms 2.9 → 1.5 per 100, at KIND_MIN 0.75)."""
    n = len(crops)
    outputs = _CLASSIFIER.run_images(np.concatenate([crops, crops[:, ::-1, ::-1]]))
    kinds = _softmax(outputs["kind"])
    values = outputs["value"].reshape(2 * n, len(KINDS), MAX_VALUE)
    return (kinds[:n] + kinds[n:]) / 2, (values[:n] + values[n:]) / 2


def _softmax(logits: NDArray[Any]) -> NDArray[Any]:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    p: NDArray[Any] = e / e.sum(axis=1, keepdims=True)
    return p


def _reading(looks: Looks, x: float, y: float, side: float, kind_p: NDArray[Any],
             value_logits: NDArray[Any]) -> NumberedReading | None:
    k = int(np.argmax(kind_p))
    if k == 0 or kind_p[k] < KIND_MIN:
        return None
    kind = CLASSES[k]
    sides = SIDES[kind]
    value_p = _softmax(value_logits[None, k - 1, :sides])[0]
    h, w = looks.image.shape[:2]
    half = side / 2
    box = (max(0, round(x - half)), max(0, round(y - half)), min(w, round(x + half)), min(h, round(y + half)))
    beyond = max(-(x - half), -(y - half), x + half - w, y + half - h)
    unreadable = None
    if beyond > CUT_OFF * side:
        unreadable, value, value_sure = "cut off", None, float(value_p.max())
    else:
        value, value_sure = value_of(kind, value_p, lambda: looks.face(x, y, side, kind))
        if value is None:
            unreadable = "ambiguous pips" if kind == "d6-pips" else "ambiguous numeral"
    return NumberedReading(value=value, sides=sides, box=box, center=(float(x), float(y)),
                           color="white",  # named by read_numbered, against one floor estimate for all dice
                           confidence=float(kind_p[k] * value_sure),
                           unreadable=unreadable, kind=kind, face=face_symbol(kind, value))


def value_of(kind: str, value_p: NDArray[Any], face: Callable[[], NDArray[Any]]) -> tuple[int | None, float]:
    """A die's value (None: unreadable) and how sure of it (0–1), for a die of ``kind``, from
    ``value_p``, the classifier's probabilities of its values 1..sides, and ``face()``, the
    face-value network's (:meth:`Looks.face`; called only when needed):

    - :data:`FACE_KINDS`: the network's likeliest value, when at least FACE_MIN sure;
    - :data:`CHECKED_KINDS`: the classifier's when at least VALUE_SURE sure; else the likeliest
      of both probabilities multiplied and scaled to sum to 1 (two opinions of one face), when
      that is at least BOTH_MIN and the network gives it at least SEEN_MIN (it sees that
      numeral); else the network's when at least FACE_MIN sure (on a tray it never saw the
      classifier can be sure and wrong: benchmarks/vision_faces.py, "values");
    - the rest: the classifier's, when at least VALUE_MIN sure.

    An unreadable die's sureness is the surer of the two networks' likeliest values (neither
    enough): the photo is still taken for a tray of that kind (:func:`vision.dice.numbered_tray`).
    """
    classifier = int(np.argmax(value_p)) + 1, float(value_p.max())
    if kind not in FACE_KINDS and kind not in CHECKED_KINDS:
        return classifier if classifier[1] >= VALUE_MIN else (None, classifier[1])
    if kind in CHECKED_KINDS and classifier[1] >= VALUE_SURE:
        return classifier
    odds = face()
    if kind in CHECKED_KINDS:
        both = value_p * odds / max(float((value_p * odds).sum()), 1e-12)
        v = int(np.argmax(both))
        if both[v] >= BOTH_MIN and odds[v] >= SEEN_MIN:
            return v + 1, float(both[v])
    if odds.max() >= FACE_MIN:
        return int(np.argmax(odds)) + 1, float(odds.max())
    return None, max(float(odds.max()), classifier[1])


def read_found(image: NDArray[Any], found: list[tuple[float, float, float, float]],
               looks: Looks | None = None) -> list[NumberedReading]:
    """The dice of candidates ``found`` (x, y, side, heat; photo pixels) of an H×W×3 uint8 BGR
    photo, each classified (colour not named yet: "white"); a candidate of no sure kind is left
    out. Each die is read from its candidate alone. ``looks``: the photo's :class:`Looks`, when made."""
    if not found:
        return []
    looks = looks or Looks(image)
    kind_p, value_logits = looks(found)
    return [die for (x, y, side, _), kp, vl in zip(found, kind_p, value_logits, strict=False)
            if (die := _reading(looks, x, y, side, kp, vl)) is not None]


def read_numbered(image: NDArray[Any], principal_color: str | None = None,
                  kinds: Iterable[str] | None = None, first: FirstPass | None = None,
                  named: bool = True) -> TrayReading:
    """Read every die in a photo: numbered dice of :data:`KINDS` and pip d6.

    :param image: H×W×3 uint8 BGR photo (H×W grey and H×W×4 BGRA are accepted too).
    :param principal_color: palette name of the principal die, or None for the one
        die whose colour no other die has (see :func:`vision.principal.mark_principal`).
    :param kinds: report only dice of these kinds (names from :data:`KINDS`); None for all.
        Dice of other kinds are still found, so a d8 is not read as a d10.
    :param first: :func:`first_pass` of this photo (as :func:`as_bgr` gives it), when made
        already; None to make it.
    :param named: name the dice's colours and mark the principal die; False leaves them
        "white", none principal (:func:`vision.dice.read_dice` names them only when it keeps
        the reading, :func:`vision.colors.name_dice_colors` of the same dice naming them alike;
        :func:`vision.adapt.fit` scores the values only).
    :returns: a reading whose dice are :class:`NumberedReading` (``sides`` 4–20,
        ``value`` 1..sides with a d10's "0" as 10, ``kind``, ``face``); unreadable dice
        carry ``"cut off"``, ``"ambiguous numeral"`` or ``"ambiguous pips"``; dice found
        only at a :data:`COARSE_PROBES` scale (4–7 times the size learned) are all unreadable,
        their values withheld. An empty reading for a photo too small or showing no dice.
    :raises InvalidImage: ``image`` is not a uint8 image array (a ``ValueError``).
    :raises ValueError: ``kinds`` names a kind not in :data:`KINDS`.
    """
    start = time.perf_counter()
    wanted = set(KINDS if kinds is None else kinds)
    if unknown := wanted - set(KINDS):
        raise ValueError(f"unknown die kinds {sorted(unknown)}; choose from {', '.join(KINDS)}")
    bgr = as_bgr(image)
    height, width = bgr.shape[:2]
    dice: list[DieReading] = []  # each a NumberedReading
    if min(height, width) >= MIN_SIDE and bgr.max() > 0:
        first = first or first_pass(bgr)
        found, coarse = _detect(bgr, HEAT_MIN, first)
        dice += [_withheld(die) if coarse else die for die in read_found(bgr, found, first.looks)
                 if die.kind in wanted]
    note = None
    if named:
        name_dice_colors(bgr, dice)
        note = mark_principal(dice, principal_color)
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start,
                       principal_note=note)


def _withheld(die: NumberedReading) -> NumberedReading:
    """``die`` with its value withheld (a die of a size no network learned: :data:`COARSE_PROBES`)."""
    if die.value is None:
        return die
    reason = "ambiguous pips" if die.kind == "d6-pips" else "ambiguous numeral"
    return replace(die, value=None, unreadable=reason, face=None)
