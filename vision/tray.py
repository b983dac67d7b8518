"""Read a tray photo of pip d6: two small learned networks run by onnxruntime (:mod:`vision.network`).

1. a detector (``models/pips_detect.onnx``): the photo scaled to at most
   :data:`DETECT_SIZE` pixels on its long side (never enlarged), and, when the dice
   there are far from the size it learned, at the scale the dice's size asks for
   (:meth:`PipReader.detect`) → maps, one cell per :data:`STRIDE` pixels: die-centre
   heat, the die's side and the centre's offset in its cell;
2. a classifier (``models/pips_classify.onnx``): a crop around each centre (the crop
   of :func:`vision.numerals.crop_die`) → background (no die there), the value 1..6 or
   cocked (resting on an edge, two faces up: learned from synthetic trays only, the
   real photos have none).

When every pass of the detector is unsure (a tray, floor or camera it never learned), a
second detector (``models/pips_detect_varied.onnx``, :data:`VARIED_DETECT_FILE`), learned
from 3D renders of varied tables too, reads the photo, and its pass is kept when surer.

Trained by ``tools/train_pips.py`` (fixed seed) on the development photos of
``../shared/datasets/real-dice`` and synthetic trays; ``benchmarks/vision_real_dice.py
--folds`` measures it out of fold (each photo read by networks trained without it). No
PyTorch at run time. A die whose value the classifier is not sure of is reported
unreadable; a blurred die (:mod:`vision.blur`) needs a surer value, or it is unreadable
as blurred.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import numerals
from vision.blur import BLURRED, sharpness
from vision.colors import name_dice_colors
from vision.image import MIN_SIDE, as_bgr
from vision.network import Network
from vision.numerals import peaks
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading
from vision.scale import SURE_SAMPLE, Pyramid, input_side, scene_scale, strength

DETECT_SIZE = 384  # pixels: the longest side the detector sees (byler's 40 px dice → 24 px)
STRIDE = 8  # input pixels per map cell
CROP = 40  # pixels: the classifier's input side
COCKED = 7  # the classifier's class of a cocked die (0 is background, 1..6 the values)
_PAD = 16  # the detector's input sides are multiples of this (its coarsest stride)
#: pixels: a die's side in the detector's input that the networks read best (byler's dice,
#: 25–69 px in 640 px photos, shrunk to 384 and scaled by 0.75–1.3 in training: median 25)
LEARNED_SIDE = 28.0
#: pixels: dice measured this size in the detector's input are read where they are found;
#: outside it the frame is read again at the scale that makes them LEARNED_SIDE
LEARNED_RANGE = (22.0, 34.0)
MAX_SCALE = 2.0  # the detector's input may enlarge a photo of small dice at most this much
#: :func:`vision.scale.strength` below which the first pass is not trusted: at 10–12 px the detector
#: finds few dice and sizes them 10–30 px at random; at 80 px it misses many
STRONG = 0.85
PROBE_MARGIN = 0.05  # a probe's pass is kept only when this much surer than the first
#: a varied detector's pass is kept only when this much surer than every pass of the first: at
#: 0.05 it won drawn trays and numbered trays the first read right by a hair and split a die in two
#: or read pips as dice (held-out numbered photos: 6 phantoms, 2 at 0.15; docs/benchmarks.md)
VARIED_MARGIN = 0.15
#: ... and only when at least this sure: where the first finds nothing (strength 0), blurred noise
#: and busy textures gave it passes of 0.48–0.54 (phantoms); patterson's dice 0.6–0.85 mostly
VARIED_MIN = 0.6
PROBES = (2.5, 0.4)  # the first pass's scale times these: dice of 10 px → 25, of 80 px → 32

HEAT_MIN = 0.45  # detector peak: below this no die is looked at (chosen out of fold)
MAX_CANDIDATES = 60  # strongest peaks looked at (a tray holds at most a few dozen dice)
DIE_MIN = 0.9  # classifier: a crop less likely than this to hold a die is no die (chosen out of fold: side faces)
#: classifier: a value less sure than this makes the die unreadable (out of fold: 0.7 has 3
#: fewer wrong values of 1654 but reads byler's dice below 97 %; 0.5 has 2 more)
VALUE_MIN = 0.6
BLURRED_VALUE_MIN = 0.9  # the same for a blurred die (vision.blur; no die of the real photos is)
BLURRED_DIE_MIN = 0.2  # DIE_MIN for a blurred crop, which looks less like a die: reported "blurred", not left out
#: classifier: a die at least this likely (given a die) to be cocked is reported cocked
#: (out of fold: synthetic cocked dice ≥ 0.18, real dice ≤ 0.13)
COCKED_MIN = 0.15
#: a candidate read no value this many times smaller than a die another pass found around it is
#: one of its pips (a die's pips are 1/5–1/6 of its side)
PIP_RATIO = 4.0
#: the same for candidates read a 1 (a lone pip looks like a face of one) inside a die read a
#: value, when each candidate inside it is one or read no value, and they are no more than its
#: value (not touching small dice a coarse candidate holds) (on a desk it never learned, the
#: detector's pass at the learned size saw penlington's near dice's pips: 111 phantoms read 1)
ONE_PIP_RATIO = 2.0
#: a candidate of a pass not kept is a die of the tray when its side is within this factor of the
#: median side of the kept pass's dice (not a pip, not a cluster of dice: :meth:`PipReader._missed`)
SIZE_SPREAD = 1.6
SAME_DIE = 0.5  # of the die's side: a weaker peak this close to a stronger one is the same die
#: DIE_MIN for a crop past the photo's edge (a part of a die): reported "cut off", not left
#: out (out of fold, 0.3 adds no phantom to 0.5 and reports 34 of 40 synthetic half dice, not 30)
CUT_DIE_MIN = 0.3
#: of the die's side: a die reaching this far past the photo's edge is cut off (no labelled die, out of fold)
CUT_OFF = 0.2

Candidate = tuple[float, float, float, float]  # a detector candidate: x, y, side (photo pixels), heat

MODELS = Path(__file__).resolve().parent / "models"
DETECT_FILE = "pips_detect.onnx"
CLASSIFY_FILE = "pips_classify.onnx"
#: a second detector, learned from 3D renders of varied tables beside the photos: probed when
#: :data:`DETECT_FILE`'s passes are all unsure (a tray it never learned), it reads other tables'
#: dice better and the trays learned worse (README, Benchmarks)
VARIED_DETECT_FILE = "pips_detect_varied.onnx"


def input_scale(width: int, height: int) -> float:
    """The factor a photo of ``width`` × ``height`` pixels is scaled by for the detector."""
    return min(1.0, DETECT_SIZE / max(width, height))


def detector_input(image: NDArray[Any], scale: float | None = None,
                   pyramid: Pyramid | None = None) -> tuple[NDArray[Any], float]:
    """The photo scaled by ``scale`` (None: :func:`input_scale`), padded right and below with
    black to multiples of 16 pixels; scaled from ``pyramid`` (the photo's) when given.
    :returns: (H'×W'×3 uint8 BGR, scale)."""
    h, w = image.shape[:2]
    scale = input_scale(w, h) if scale is None else scale
    scaled = (pyramid or Pyramid(image)).scaled(scale)
    nh, nw = scaled.shape[:2]
    canvas = np.zeros((-(-nh // _PAD) * _PAD, -(-nw // _PAD) * _PAD, 3), np.uint8)
    canvas[:nh, :nw] = scaled
    return canvas, scale


def _reach(x: float, y: float, side: float, width: int, height: int) -> float:
    """How far (pixels) a die of ``side`` centred at (x, y) reaches past the photo's edge."""
    half = side / 2
    return max(-(x - half), -(y - half), x + half - width, y + half - height)


def _inside(a: Candidate, b: Candidate) -> bool:
    """Whether candidate ``a``'s centre lies in the square of candidate ``b``'s side around its centre."""
    return abs(a[0] - b[0]) <= b[2] / 2 and abs(a[1] - b[1]) <= b[2] / 2


def _still_cut(found: list[Candidate], first: list[Candidate], width: int, height: int) -> list[Candidate]:
    """``found`` with the side of each die the first pass saw cut by the photo's edge where it
    is (within SAME_DIE of its side): another scale sees the half die left as a whole small die."""
    out = []
    for x, y, side, heat in found:
        for fx, fy, fs, _ in first:
            if fs > side and (x - fx) ** 2 + (y - fy) ** 2 <= (SAME_DIE * fs) ** 2 \
                    and _reach(fx, fy, fs, width, height) > CUT_OFF * fs:
                side = fs
        out.append((x, y, side, heat))
    return out


def _smaller_than_learned(found: list[Candidate], scale: float) -> bool:
    """Whether the dice of a pass at ``scale`` measure less than :data:`LEARNED_RANGE` in the
    detector's input (:func:`vision.scale.input_side`; no dice: True)."""
    return not found or input_side([c[2] for c in found], scale) < LEARNED_RANGE[0]


def _one_each(found: list[Candidate]) -> list[Candidate]:
    """``found`` (strongest first) without the weaker of two candidates closer than
    :data:`SAME_DIE` of the larger's side: :func:`_still_cut` can give two parts of one cut
    die (two of its pips, at a finer scale) the die's side."""
    out: list[Candidate] = []
    for x, y, side, heat in found:
        if all((x - fx) ** 2 + (y - fy) ** 2 > (SAME_DIE * max(side, fs)) ** 2 for fx, fy, fs, _ in out):
            out.append((x, y, side, heat))
    return out


def crop_die(image: NDArray[Any], center: tuple[float, float], side: float, angle: float = 0.0) -> NDArray[Any]:
    """The crop of :func:`vision.numerals.crop_die` (a little floor around the die, turned by
    ``angle`` degrees) shrunk to CROP×CROP×3 uint8 BGR."""
    crop = numerals.crop_die(image, center, side, angle)
    return cv2.resize(crop, (CROP, CROP), interpolation=cv2.INTER_AREA)


class _Looks:
    """The classifier's probabilities of one photo's candidates and what they are read as: each
    candidate's crop is classified, and read, once a reading (the passes' sureness, the pips
    rule and the dice read share them), the new crops of each call in one batch; each detector
    pass is made once too, down to the heat ``floor``: a pass asked down to a higher heat is
    that one's candidates as hot (the same, as the strongest are kept first)."""

    def __init__(self, reader: PipReader, image: NDArray[Any], floor: float | None = None) -> None:
        self.reader, self.image = reader, image
        self.floor = reader.heat_min if floor is None else floor
        self.probs: dict[tuple[float, float, float], NDArray[Any]] = {}
        self.dice: dict[tuple[float, float, float], DieReading | None] = {}
        self.passes: dict[tuple[Network, float], list[Candidate]] = {}  # by detector and scale, down to floor

    def __call__(self, found: list[Candidate]) -> NDArray[Any]:
        """N×8 probabilities (see :meth:`PipReader.classify`) of the N candidates ``found``."""
        new = list(dict.fromkeys(c[:3] for c in found if c[:3] not in self.probs))
        if new:
            crops = np.stack([crop_die(self.image, (x, y), side) for x, y, side in new])
            self.probs.update(zip(new, self.reader.classify(crops), strict=True))
        return np.stack([self.probs[c[:3]] for c in found]) if found else np.zeros((0, COCKED + 1))

    def read(self, found: list[Candidate]) -> list[DieReading | None]:
        """Each candidate of ``found`` read (:meth:`PipReader._die`): None where it is no die."""
        new = [c for c in found if c[:3] not in self.dice]
        for (x, y, side, _), p in zip(new, self(new), strict=True):
            self.dice[(x, y, side)] = self.reader._die(self.image, x, y, side, p)
        return [self.dice[c[:3]] for c in found]


@dataclass
class PipFirstPass:
    """The first pass of :meth:`PipReader.detect`: its candidates (x, y, side, heat; photo
    pixels, strongest first), :func:`vision.scale.strength`, the photo's pyramid and the
    classifier's looks at the candidates, kept so that :meth:`PipReader.read` goes on from it."""

    found: list[Candidate]
    strength: float
    pyramid: Pyramid
    looks: _Looks

    @property
    def sure(self) -> bool:
        """Whether :meth:`PipReader.detect` would read the photo at no other scale before measuring its dice."""
        return self.strength >= STRONG


class PipReader:
    """The networks of one models folder (two, or three with the varied detector), loaded on first use.

    :param models: folder holding :data:`DETECT_FILE` and :data:`CLASSIFY_FILE`, and
        :data:`VARIED_DETECT_FILE` when the reader is to probe it (the shipped folder does; a
        folder of ``tools/train_pips.py``'s two networks alone reads with its detector only).
    :param value_min: :data:`VALUE_MIN`; 0 reports every die's likeliest value (for
        choosing the threshold out of fold).
    :param single_pass: detect on the photo shrunk to :data:`DETECT_SIZE` only, whatever
        the dice's size (the reader before :func:`scene_scale`; for the benchmarks, and for
        ``tools/train_pips.py``'s mining, which has no classifier yet).
    :param heat_min: :data:`HEAT_MIN`, the weakest detector peak whose crop is classified
        (benchmarks/vision_generalise.py ``--heats`` chooses it leave-one-source-out).
    """

    def __init__(self, models: Path = MODELS, value_min: float = VALUE_MIN, single_pass: bool = False,
                 heat_min: float = HEAT_MIN) -> None:
        self.models = Path(models)
        self.value_min = value_min
        self.heat_min = heat_min
        self.single_pass = single_pass
        self._detector = Network(self.models / DETECT_FILE, "pip reader")
        varied = self.models / VARIED_DETECT_FILE
        self._varied = Network(varied, "pip reader") if varied.is_file() else None
        self._classifier = Network(self.models / CLASSIFY_FILE, "pip reader")

    @property
    def files(self) -> list[Path]:
        """The network files it reads (:mod:`vision.adapt` fingerprints them)."""
        return [n.path for n in (self._detector, self._classifier, self._varied) if n is not None]

    def detect(self, image: NDArray[Any], heat_min: float | None = None,
               first: PipFirstPass | None = None) -> list[tuple[float, float, float, float]]:
        """Candidate dice of an H×W×3 uint8 BGR photo: (x, y, side, heat) in photo pixels,
        strongest first; peaks of heat below ``heat_min`` (None: the reader's) are left out. ``first``, this photo's
        :meth:`first_pass`, lends its pyramid and the classifier's looks (:func:`vision.adapt.fit`
        reads a photo and detects its weaker candidates: each crop classified once).

        The scale is the scene's, not the frame's. The photo is shrunk to :data:`DETECT_SIZE`
        first; when the dice found there are not sure (:func:`vision.scale.strength` below :data:`STRONG`:
        dice far smaller or larger than the networks learned, or no dice) it is also read at
        the :data:`PROBES` scales; when none of these passes is sure either, the varied
        detector (:data:`VARIED_DETECT_FILE`) reads the photo at the first scale and, unsure, at
        the probes' too. The surest pass is kept: a probe's must be :data:`PROBE_MARGIN` surer
        than the first, the varied detector's :data:`VARIED_MARGIN` surer than every pass of
        the first detector and :data:`VARIED_MIN` sure. When the dice of that pass
        measure outside :data:`LEARNED_RANGE` the photo is read once more, from its full
        resolution (:class:`Pyramid`), at the scale of :func:`vision.scale.scene_scale`, kept when it is
        at least as sure (a single die filling a close-up is sure at its own size). A pass of
        the varied detector whose dice then still measure less than :data:`LEARNED_RANGE` is
        not kept (the next surest is): on numbered trays it read numerals and grain as pips.
        """
        heat = self.heat_min if heat_min is None else heat_min
        if first is None:
            return self._detect(image, heat, _Looks(self, image))
        return self._detect(image, heat, first.looks, first if heat == self.heat_min else None, first.pyramid)

    def first_pass(self, image: NDArray[Any], floor: float | None = None) -> PipFirstPass:
        """The first pass of :meth:`detect` over an H×W×3 uint8 BGR photo (shrunk to
        :data:`DETECT_SIZE`), kept so that :meth:`read` goes on from it (``read(image, first=…)``);
        its detector passes are kept down to heat ``floor`` (≤ the reader's ``heat_min``, None: it), so that
        ``detect(image, floor, first)`` reuses them."""
        looks = _Looks(self, image, floor)
        pyramid = Pyramid(image, linear=True)
        h, w = image.shape[:2]
        found = self._detect_at(pyramid, input_scale(w, h), self.heat_min, looks)
        return PipFirstPass(found, self._strength(looks, found), pyramid, looks)

    def _detect(self, image: NDArray[Any], heat_min: float, looks: _Looks,
                first: PipFirstPass | None = None, pyramid: Pyramid | None = None) -> list[Candidate]:
        h, w = image.shape[:2]
        base = input_scale(w, h)
        pyramid = first.pyramid if first else pyramid or Pyramid(image, linear=True)
        first_key = (self._detector, base)
        passes = {first_key: first.found if first else self._detect_at(pyramid, base, heat_min, looks)}
        if self.single_pass:
            return passes[first_key]
        sure = {first_key: first.strength if first else self._strength(looks, passes[first_key])}

        def probe(detector: Network, scale: float) -> float:
            """The pass of ``detector`` at ``scale`` made (once), and its strength."""
            key = (detector, min(MAX_SCALE, scale))
            if key not in passes:
                passes[key] = self._detect_at(pyramid, key[1], heat_min, looks, detector)
                sure[key] = self._strength(looks, passes[key])
            return sure[key]

        detectors = [self._detector] if self._varied is None else [self._detector, self._varied]
        for detector in detectors:
            if max(sure.values()) >= STRONG:
                break
            if probe(detector, base) < STRONG:
                for factor in PROBES:
                    probe(detector, base * factor)
        firsts = [key for key in sure if key[0] is self._detector]
        best = max(firsts, key=lambda k: sure[k] - (k != first_key) * PROBE_MARGIN)  # the first pass on a tie
        bar = max(VARIED_MIN, max(sure[k] for k in firsts) + VARIED_MARGIN)
        varied = sorted((k for k in sure if k[0] is not self._detector and sure[k] >= bar), key=sure.__getitem__,
                        reverse=True)
        for key in [*varied, best]:
            detector, scale = key
            found = passes[key]
            better = scene_scale([side for _, _, side, _ in found], scale, LEARNED_SIDE, LEARNED_RANGE, MAX_SCALE)
            if better is not None:
                refined = self._detect_at(pyramid, better, heat_min, looks, detector)
                if self._strength(looks, refined) >= sure[key]:  # else the scale was misjudged
                    found, scale = refined, better
            if detector is self._detector or not _smaller_than_learned(found, scale):
                break
            # the varied detector's "dice" smaller than it learned even at their own scale: a
            # numbered die's numerals or a floor's grain read as pips (burks' d10 as six 1s)
        others = [c for cands in passes.values() if cands is not found for c in cands]
        if not others:
            return found
        if found is not passes[first_key]:
            found = _one_each(_still_cut(found, passes[first_key], image.shape[1], image.shape[0]))
        found = found + self._missed(looks, others, found)
        if detector is self._detector:  # a varied pass not kept finds dice (_missed) but does not
            # make dice of the kept pass its pips (a large die's: two read twice, once as its pips)
            others = [c for (net, _), cands in passes.items() if net is self._detector and cands is not found
                      for c in cands]
        return self._without_pips(looks, found, others)

    def detect_at(self, image: NDArray[Any], scale: float, heat_min: float | None = None) -> list[Candidate]:
        """One detector pass over an H×W×3 uint8 BGR photo scaled by ``scale`` (at most
        :data:`MAX_SCALE`): candidates (x, y, side, heat) in photo pixels, strongest first
        (:mod:`vision.adapt` reads at the scale of the table's dice)."""
        return self._detect_at(Pyramid(image), min(MAX_SCALE, scale), self.heat_min if heat_min is None else heat_min)

    def _reads_die(self, looks: _Looks, found: list[Candidate]) -> list[bool]:
        """Whether each candidate is read a die (:meth:`_die`), not one read no value
        ("blurred", "ambiguous pips") or no die."""
        return [d is not None and d.unreadable not in ("blurred", "ambiguous pips") for d in looks.read(found)]

    def _missed(self, looks: _Looks, others: list[Candidate], found: list[Candidate]) -> list[Candidate]:
        """The candidates of the other passes (``others``) that overlap none of ``found``, are
        read a die with a value (not cocked, blurred or unsure: weak evidence that another pass
        missed it) and are of their size (within :data:`SIZE_SPREAD` of the median side): the pass
        kept, the surest, need not find every die another sees (byler's dice of 200 px in a
        1920×1080 frame: a pass seeing them at 16 px found 2 of 4, the first pass all 4; on trays
        it never learned, 132 of byler's 1057 dice were read by a pass not kept)."""
        if not found:
            return []
        scene = float(np.median([side for _, _, side, _ in found]))
        alone = [c for c in sorted(others, key=lambda c: -c[3])
                 if scene / SIZE_SPREAD <= c[2] <= scene * SIZE_SPREAD
                 and not any(_inside(c, f) or _inside(f, c) for f in found)]
        return _one_each([c for c, die in zip(alone, looks.read(alone), strict=True) if die and die.value])

    def _without_pips(self, looks: _Looks, found: list[Candidate], others: list[Candidate]) -> list[Candidate]:
        """``found`` without its candidates not read a die (:meth:`_reads_die`) that lie inside a
        die :data:`PIP_RATIO` times their side or more found by another pass (``others``) and
        classified a die: they are its pips (a pass at the size dice were learned sees a large
        die's pips as blurred dice: 17.6 phantoms per 100 dice of 80 px). That die takes their
        place unless a candidate inside it is read a die: then it is several dice (a coarse
        pass's candidate around touching dice of 10 px). Its pips too are the candidates read 1
        or no value inside a die read a value :data:`ONE_PIP_RATIO` times their side or more,
        when they are all the candidates there and no more than its value (a lone pip looks like
        a face of one to networks that never saw the tray). Left out too are those :data:`PIP_RATIO`
        times smaller than the median die read: the pips of a die no pass found (one the frame
        cuts, one read blurred)."""
        h, w = looks.image.shape[:2]
        dice = self._reads_die(looks, found)
        for big in sorted(others, key=lambda c: -c[3]):
            x, y, side, _ = big
            inside = [k for k, c in enumerate(found) if c[2] * PIP_RATIO <= side and _inside(c, big)]
            pips = [k for k in inside if not dice[k]]
            near = [k for k, c in enumerate(found) if c[2] * ONE_PIP_RATIO <= side and _inside(c, big)]
            if near and all(d is None or d.value in (None, 1) for d in looks.read([found[k] for k in near])):
                face = looks.read([big])[0]  # classified only here: most candidates of other passes hold none
                if face is not None and face.value is not None and len(near) <= face.value:
                    pips = inside = near  # the face's pips (no more than it shows), each read a face of one pip
            if not pips:
                continue
            die_min = CUT_DIE_MIN if _reach(x, y, side, w, h) > CUT_OFF * side else DIE_MIN
            if 1.0 - looks([big])[0, 0] < die_min:
                continue
            keep = [k for k in range(len(found)) if k not in pips]
            found, dice = [found[k] for k in keep], [dice[k] for k in keep]
            if len(pips) == len(inside) and big not in found:
                found, dice = found + [big], dice + [True]
        sides = [c[2] for c, die in zip(found, dice, strict=False) if die]
        scene = float(np.median(sides)) if sides else 0.0
        return [c for c, die in zip(found, dice, strict=False) if die or c[2] * PIP_RATIO > scene]

    @staticmethod
    def _strength(looks: _Looks, found: list[Candidate]) -> float:
        return strength(found, 1.0 - looks(found[:SURE_SAMPLE])[:, 0]) if found else 0.0

    def _detect_at(self, pyramid: Pyramid, scale: float, heat_min: float,
                   looks: _Looks | None = None, detector: Network | None = None) -> list[Candidate]:
        """One pass's candidates down to ``heat_min`` (``detector``: None for :data:`DETECT_FILE`'s);
        made once for ``looks`` (down to its floor)."""
        detector = detector or self._detector
        if looks is None or heat_min < looks.floor:
            return self._pass(pyramid, scale, heat_min, detector)
        if (detector, scale) not in looks.passes:
            looks.passes[detector, scale] = self._pass(pyramid, scale, looks.floor, detector)
        return [c for c in looks.passes[detector, scale] if c[3] >= heat_min]

    def _pass(self, pyramid: Pyramid, scale: float, heat_min: float, detector: Network) -> list[Candidate]:
        canvas, scale = detector_input(pyramid.levels[0], scale, pyramid)
        if not canvas.any():  # a black frame (lens cap on), seen on the small canvas, not the 12-megapixel frame
            return []
        maps = detector.run_images(canvas[None])["maps"][0]
        heat = 1.0 / (1.0 + np.exp(-maps[0]))
        found: list[tuple[float, float, float, float]] = []
        for row, col, value in sorted(peaks(heat, heat_min), key=lambda p: -p[2])[:MAX_CANDIDATES]:
            side = float(np.exp(maps[1, row, col])) / scale
            x = (col + 0.5 + float(maps[2, row, col])) * STRIDE / scale
            y = (row + 0.5 + float(maps[3, row, col])) * STRIDE / scale
            # a second peak inside a die already found is the same die
            if all((x - fx) ** 2 + (y - fy) ** 2 > (SAME_DIE * max(side, fs)) ** 2 for fx, fy, fs, _ in found):
                found.append((x, y, side, value))
        return found

    def classify(self, crops: NDArray[Any]) -> NDArray[Any]:
        """N×CROP×CROP×3 uint8 crops (see :func:`crop_die`) → N×8 probabilities: background,
        values 1..6, cocked; the mean of each crop's and its half-turned copy's (out of fold, fewer
        wrong values at the same coverage than one look)."""
        n = len(crops)
        logits = self._classifier.run_images(np.concatenate([crops, crops[:, ::-1, ::-1]]))["classes"]
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        mean: NDArray[Any] = (p[:n] + p[n:]) / 2
        return mean

    def read(self, image: NDArray[Any], principal_color: str | None = None,
             first: PipFirstPass | None = None, named: bool = True) -> TrayReading:
        """Read every pip d6 in a photo.

        :param image: H×W×3 uint8 BGR photo (H×W grey and H×W×4 BGRA are accepted too).
        :param principal_color: palette name of the principal die, or None for the one
            die whose colour no other die has (see :func:`vision.principal.mark_principal`).
        :param first: :meth:`first_pass` of this photo (as :func:`as_bgr` gives it), when made
            already; None to make it.
        :param named: name the dice's colours and mark the principal die; False leaves them
            "white", none principal (:func:`vision.adapt.fit` scores the values only).
        :returns: a reading of :class:`DieReading` (sides 6; ``box`` a square of the die's
            side around the top face's centre, clipped to the photo); unreadable dice carry
            ``"cut off"``, ``"cocked"`` (resting on an edge, two faces up: at least
            :data:`COCKED_MIN` likely), ``"blurred"`` (:mod:`vision.blur`) or ``"ambiguous pips"``;
            ``confidence`` is the classifier's probability of the value read, given a die
            is there. Empty for a photo smaller than 16 pixels, an all-black one or one
            showing no dice.
        :raises InvalidImage: ``image`` is not a uint8 image array (a ``ValueError``).
        :raises FileNotFoundError: the networks are not in the models folder.
        """
        start = time.perf_counter()
        bgr = as_bgr(image)
        height, width = bgr.shape[:2]
        dice: list[DieReading] = []
        if min(height, width) >= MIN_SIDE:
            looks = first.looks if first else _Looks(self, bgr)
            found = self._detect(bgr, self.heat_min, looks, first)
            dice = [d for d in looks.read(found) if d is not None]
        note = None
        if named:
            name_dice_colors(bgr, dice)
            note = mark_principal(dice, principal_color)
        return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start,
                           principal_note=note)

    def read_at(self, image: NDArray[Any], places: list[tuple[float, float, float]]) -> list[DieReading | None]:
        """The dice at ``places`` of an H×W×3 uint8 BGR photo ((x, y, side): a die's centre and
        side in photo pixels, as another reader found it), each read by the classifier alone, as
        :meth:`read` reads a die it found (colour not named: "white"); None where it sees no die."""
        return _Looks(self, image).read([(x, y, side, 1.0) for x, y, side in places])

    def _die(self, image: NDArray[Any], x: float, y: float, side: float, p: NDArray[Any]) -> DieReading | None:
        die_p = 1.0 - float(p[0])
        if die_p < BLURRED_DIE_MIN:
            return None
        h, w = image.shape[:2]
        half = side / 2
        box = (max(0, round(x - half)), max(0, round(y - half)), min(w, round(x + half)), min(h, round(y + half)))
        if box[2] <= box[0] or box[3] <= box[1]:
            return None
        cut = max(-(x - half), -(y - half), x + half - w, y + half - h) > CUT_OFF * side
        blurred = sharpness(image, (x, y), side) < BLURRED
        if die_p < (BLURRED_DIE_MIN if blurred else CUT_DIE_MIN if cut else DIE_MIN):
            return None
        values = p[1:COCKED] / die_p
        v = int(np.argmax(values))
        unreadable = None
        if cut:
            unreadable = "cut off"
        elif p[COCKED] / die_p >= COCKED_MIN:
            unreadable = "cocked"
        elif blurred:
            if die_p < DIE_MIN or values[v] < max(self.value_min, BLURRED_VALUE_MIN):  # blur merges pips: be surer
                unreadable = "blurred"
        elif values[v] < self.value_min:
            unreadable = "ambiguous pips"
        return DieReading(value=None if unreadable else v + 1, sides=6, box=box, center=(float(x), float(y)),
                          color="white", confidence=float(values[v]), unreadable=unreadable)


_SHIPPED = PipReader()


def read_tray(image: NDArray[Any], principal_color: str | None = None, *,
              reader: PipReader | None = None, first: PipFirstPass | None = None) -> TrayReading:
    """Read every pip d6 in a tray photo (see :meth:`PipReader.read`).

    :param reader: the networks to read with; None for the shipped ones (vision/models).
    :param first: ``reader``'s :meth:`PipReader.first_pass` of this photo, when made already.
    """
    return (reader or _SHIPPED).read(image, principal_color, first)


def first_pass(image: NDArray[Any]) -> PipFirstPass:
    """The shipped networks' :meth:`PipReader.first_pass`."""
    return _SHIPPED.first_pass(image)


def read_at(image: NDArray[Any], places: list[tuple[float, float, float]]) -> list[DieReading | None]:
    """The shipped networks' :meth:`PipReader.read_at`."""
    return _SHIPPED.read_at(image, places)
