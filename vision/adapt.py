"""The table's own dice (issue 17): a small layer fitted, with numpy only, on top of the shipped
networks from labelled photos of one table, and the reader that uses it.

What is fitted (:func:`fit`), each part chosen on the table's photos held out by photo:

- the scale: the side the table's dice have in its photos (as a share of the photo's long
  side), so the detector reads them at the size it learned (:mod:`vision.scale`), in one pass;
  or the shipped reader's own passes, when they do better;
- the detector's threshold: candidates down to :data:`LOW_HEAT` are looked at;
- two heads (:class:`Head`, logistic regressions whose logits start at the shipped
  classifier's and are held to them by a ridge penalty): die or floor, over the candidate's
  heat, size and look; and its value, over the classifier's log probabilities and
  rotation-invariant ring harmonics of the crop, fitted only for the values taught, so a
  value the table never showed is read as the network reads it;
- whether a die reaching past the photo's edge is "cut off" (not for a camera framing one die);
- the value threshold below which a die is unreadable.

The layer is used only when, held out by photo, it reads the table's dice better than the
shipped reader (more right, and more ``right − WRONG_COST × wrong − phantoms``); an empty or
bad example set gives an :class:`Adaptation` that is not used, and reading with it is reading
with the shipped networks. It is saved as JSON (:data:`FILE`, :data:`VERSION`) and tied to the
networks it was fitted on: retrained networks leave it unused until the table is taught again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import numerals, tray
from vision.colors import name_dice_colors
from vision.image import MIN_SIDE, as_bgr
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading
from vision.scoring import score_photo

VERSION = 1
FILE = "adaptation.json"  # in the data folder
LOW_HEAT = 0.1  # detector peaks down to this are looked at; the head says which are dice
HEATS = (0.1, 0.2, 0.3, 0.45)  # detector thresholds tried held out
VALUE_MINS = (0.0, 0.3, 0.5, 0.6, 0.8, 0.9)  # value thresholds tried held out
WRONG_COST = 3  # a wrong value, which a player may not notice, costs this many unread dice
FOLDS = 5  # photo folds of the held-out figure (fewer photos: one fold each)
RIDGE = 0.1  # the linear terms' penalty (held out on the pip sources: 0.01 overfits 20 photos, 1 underfits)
PART = 0.5  # of a labelled die's side: a candidate smaller than this on it is a part of it (a pip)
STEPS = 250  # Adam steps of the head's fit
RATE = 0.05
#: The datasets' kinds (labels.json ``kind``) as the readers name them; no kind is a pip d6.
KIND_OF_LABEL = {"d4": "d4", "d4-long": "d4", "d6-pips": "d6-pips", "d6": "d6", "d6-numerals": "d6",
                 "d6-ornate": "d6", "d8": "d8", "d8-ornate": "d8", "d10": "d10",
                 "d10-percentile": "d10-percentile", "d12": "d12", "d20": "d20"}

Candidate = tuple[float, float, float, float]  # x, y, side (photo pixels), heat


class ExampleError(ValueError):
    """A labelled example the reader cannot learn from; the message says which and why."""


@dataclass(frozen=True)
class Example:
    """One labelled die: ``kind`` one of :data:`vision.numerals.KINDS`, ``value`` 1..sides,
    ``box`` (x0, y0, x1, y1) photo pixels around it (or around its top face's pips)."""

    kind: str
    value: int
    box: tuple[float, float, float, float]


@dataclass
class TaughtPhoto:
    """A photo (H×W×3 uint8 BGR) and every die in it, labelled."""

    image: NDArray[Any]
    dice: list[Example]


def example(kind: str | None, value: object, box: object, width: int, height: int) -> Example:
    """An :class:`Example` from a labels.json die (``kind`` None for a pip d6), checked.

    :raises ExampleError: an unknown kind, a value not a whole number in 1..sides, a box not
        four numbers inside the photo of ``width`` × ``height`` pixels.
    """
    reader_kind = KIND_OF_LABEL.get("d6-pips" if kind is None else str(kind))
    if reader_kind is None:
        raise ExampleError(f"unknown kind {kind!r}; known: {', '.join(KIND_OF_LABEL)}")
    sides = numerals.SIDES[reader_kind]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ExampleError(f"value {value!r} is not a face of a {reader_kind} (1..{sides})")
    if (not isinstance(box, list | tuple) or len(box) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box)):
        raise ExampleError(f"box {box!r} is not [x_min, y_min, x_max, y_max]")
    x0, y0, x1, y1 = (float(v) for v in box)
    if not (0 <= x0 < x1 <= width + 1 and 0 <= y0 < y1 <= height + 1):
        raise ExampleError(f"box {list(box)} is not inside the {width}×{height} photo")
    return Example(reader_kind, value, (x0, y0, x1, y1))


# --- the shipped readers, as the layer sees them -------------------------------------------

class Backend:
    """A shipped reader as the layer sees it: its candidates at a scale and threshold, their
    crops, and the classifier's log probabilities of :attr:`classes` (0: background)."""

    family = ""
    learned_side = 28.0
    max_scale = 2.0
    value_min = 0.6
    classes: list[tuple[str, int]] = []  # index 0 is background

    def base_scale(self, width: int, height: int) -> float:
        raise NotImplementedError

    def shipped(self, image: NDArray[Any]) -> TrayReading:
        raise NotImplementedError

    def candidates(self, image: NDArray[Any], scale: float | None, heat: float) -> list[Candidate]:
        raise NotImplementedError

    def crops(self, image: NDArray[Any], found: Sequence[Candidate]) -> NDArray[Any]:
        raise NotImplementedError

    def log_probs(self, crops: NDArray[Any]) -> NDArray[Any]:
        """N crops → N×len(classes) log probabilities of the shipped classifier."""
        raise NotImplementedError

    def fingerprint(self) -> str:
        raise NotImplementedError


def _digest(paths: Sequence[Path]) -> str:
    """The networks' files' fingerprint, read once per file version (name, size, time)."""
    return _digest_of(tuple((str(p), *_stat(Path(p))) for p in paths))


def _stat(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


@functools.lru_cache(maxsize=16)
def _digest_of(files: tuple[tuple[str, int, int], ...]) -> str:
    h = hashlib.sha256()
    for name, _, _ in files:
        h.update(Path(name).read_bytes())
    return h.hexdigest()[:16]


class PipBackend(Backend):
    """The pip reader (:class:`vision.tray.PipReader`): classes background and values 1..6."""

    family = "pips"
    learned_side = tray.LEARNED_SIDE
    max_scale = tray.MAX_SCALE
    value_min = tray.VALUE_MIN
    classes = [("background", 0)] + [("d6-pips", v) for v in range(1, 7)]

    def __init__(self, reader: tray.PipReader | None = None) -> None:
        self.reader = reader or tray.PipReader()

    def base_scale(self, width: int, height: int) -> float:
        return tray.input_scale(width, height)

    def shipped(self, image: NDArray[Any]) -> TrayReading:
        return self.reader.read(image)

    def candidates(self, image: NDArray[Any], scale: float | None, heat: float) -> list[Candidate]:
        if scale is None:
            return self.reader.detect(image, heat)
        return self.reader.detect_at(image, scale, heat)

    def crops(self, image: NDArray[Any], found: Sequence[Candidate]) -> NDArray[Any]:
        return np.stack([tray.crop_die(image, (x, y), side) for x, y, side, _ in found])

    def log_probs(self, crops: NDArray[Any]) -> NDArray[Any]:
        p = self.reader.classify(crops)[:, :tray.COCKED]
        out: NDArray[Any] = np.log(np.clip(p, 1e-6, 1.0))
        return out

    def fingerprint(self) -> str:
        return _digest([self.reader.models / tray.DETECT_FILE, self.reader.models / tray.CLASSIFY_FILE])


class NumberedBackend(Backend):
    """The numbered reader (:mod:`vision.numerals`, its networks): classes background and
    every value of every kind of :data:`vision.numerals.KINDS`."""

    family = "numbered"
    learned_side = numerals.LEARNED_SIDE
    max_scale = numerals.MAX_SCALE
    value_min = numerals.VALUE_MIN
    classes = [("background", 0)] + [(k, v) for k in numerals.KINDS for v in range(1, numerals.SIDES[k] + 1)]

    def base_scale(self, width: int, height: int) -> float:
        return numerals.DETECT_SIZE / max(width, height)

    def shipped(self, image: NDArray[Any]) -> TrayReading:
        return numerals.read_numbered(image)

    def candidates(self, image: NDArray[Any], scale: float | None, heat: float) -> list[Candidate]:
        if scale is None:
            return numerals.detect(image, heat)
        return numerals.detect_at(image, min(self.max_scale, scale), heat)

    def crops(self, image: NDArray[Any], found: Sequence[Candidate]) -> NDArray[Any]:
        return np.stack([numerals.crop_die(image, (x, y), side) for x, y, side, _ in found])

    def log_probs(self, crops: NDArray[Any]) -> NDArray[Any]:
        kinds, values = numerals.classify(crops)
        logk = np.log(np.clip(kinds, 1e-6, 1.0))
        columns = [logk[:, 0]]
        for k, kind in enumerate(numerals.KINDS):
            v = values[:, k, :numerals.SIDES[kind]]
            v = v - v.max(axis=1, keepdims=True)
            logv = v - np.log(np.exp(v).sum(axis=1, keepdims=True))
            columns += list((logk[:, k + 1:k + 2] + logv).T)
        out: NDArray[Any] = np.stack(columns, axis=1)
        return out

    def fingerprint(self) -> str:
        return _digest([numerals._DETECTOR.path, numerals._CLASSIFIER.path])


def backend_for(family: str) -> Backend:
    """The shipped reader of ``family`` ("pips" or "numbered")."""
    return PipBackend() if family == "pips" else NumberedBackend()


def family_of(photos: Sequence[TaughtPhoto]) -> str:
    """"pips" when every die taught is a pip d6 (the pip reader reads them), else "numbered"."""
    return "pips" if all(d.kind == "d6-pips" for p in photos for d in p.dice) else "numbered"


# --- features and the head -------------------------------------------------------------------

def _crop_features(crops: NDArray[Any]) -> NDArray[Any]:
    """N crops → N×6: mean saturation and brightness, the grey's spread, the centre's contrast
    with the ring around it, the shares of pixels much darker and much brighter than the median."""
    hsv = np.stack([cv2.cvtColor(c, cv2.COLOR_BGR2HSV) for c in crops]).astype(np.float32) / 255
    grey = crops.astype(np.float32).mean(axis=3) / 255
    n, h, w = grey.shape
    yy, xx = np.mgrid[:h, :w]
    r = np.hypot(yy - (h - 1) / 2, xx - (w - 1) / 2) / (h / 2)
    centre, ring = r < 0.5, (r >= 0.7) & (r < 1.0)
    median = np.median(grey.reshape(n, -1), axis=1)[:, None, None]
    return np.stack([hsv[..., 1].mean(axis=(1, 2)), hsv[..., 2].mean(axis=(1, 2)), grey.std(axis=(1, 2)),
                     grey[:, centre].mean(axis=1) - grey[:, ring].mean(axis=1),
                     (grey < median - 0.2).mean(axis=(1, 2)), (grey > median + 0.2).mean(axis=(1, 2))], axis=1)


RINGS, ANGLES, HARMONICS = 8, 32, 7  # the polar descriptor's samples


def _polar(crops: NDArray[Any]) -> NDArray[Any]:
    """N crops → N×(RINGS × HARMONICS): the magnitudes of the first harmonics of the grey
    around each of RINGS circles about the crop's centre (the grey normalised per crop): the
    same whichever way the die is turned, and telling apart the symmetries of pip patterns
    (one pip, two on a diagonal, four corners…) and of numerals."""
    out = np.zeros((len(crops), RINGS * HARMONICS))
    for n, crop in enumerate(crops):
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        grey = (grey - grey.mean()) / (grey.std() + 1.0)
        half = grey.shape[0] / 2
        polar = cv2.warpPolar(grey, (RINGS, ANGLES), (half, half), half * 0.9, cv2.WARP_POLAR_LINEAR)
        spectrum = np.abs(np.fft.rfft(polar, axis=0))[:HARMONICS] / ANGLES  # ANGLES × RINGS: angles down
        out[n] = spectrum.T.ravel()
    return out


@dataclass
class _Looked:
    """The candidates of one photo and what the layer needs of each."""

    found: list[Candidate]
    offsets: NDArray[Any]  # N×C shipped log probabilities
    features: NDArray[Any]  # N×F


def _look(backend: Backend, image: NDArray[Any], scale: float | None, side: float, heat: float = LOW_HEAT) -> _Looked:
    """The candidates of a detector pass (``scale``; None: the shipped reader's passes) down to
    ``heat``, with what the heads need of them; ``side`` the die's expected side, photo pixels."""
    found = backend.candidates(image, scale, heat)
    if not found:
        c = len(backend.classes)
        return _Looked([], np.zeros((0, c)), np.zeros((0, c + 8 + RINGS * HARMONICS)))
    crops = backend.crops(image, found)
    offsets = backend.log_probs(crops)
    extra = np.array([[peak, np.log(max(s, 1.0) / max(side, 1.0))] for _, _, s, peak in found])
    return _Looked(found, offsets, np.hstack([offsets, extra, _crop_features(crops), _polar(crops)]))


@dataclass
class Head:
    """Two heads over standardised features ``x = (features − mean) / scale``:

    - die or floor: logit = the shipped classifier's (log p(die) − log p(background)) + x @ die_w + die_b;
    - the value, given a die: logits = ``trust`` × the shipped log probabilities of the values
      + x @ value_w + value_b, where only the classes in ``taught`` were fitted (the others keep
      trust 1 and zero terms: a value the table never showed is read as the network reads it).

    A die whose likeliest value by the shipped network is not taught keeps the shipped values'
    probabilities: the layer has not seen what that value looks like on this table.
    """

    mean: NDArray[Any]
    scale: NDArray[Any]
    die_w: NDArray[Any]
    die_b: NDArray[Any]
    value_w: NDArray[Any]
    value_b: NDArray[Any]
    taught: NDArray[Any]  # value classes (1..C-1, as in the backend's classes) the table showed
    trust: NDArray[Any]  # [k]: the taught values' logits weigh the network's log probabilities k times

    def probs(self, offsets: NDArray[Any], features: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        """N×C offsets, N×F features → (N probabilities of a die, N×(C−1) of each value given one)."""
        x = (features - self.mean) / self.scale
        values = offsets[:, 1:]
        die_logit = _logsumexp(values) - offsets[:, 0] + x @ self.die_w + self.die_b
        shipped = _softmax(values)
        adapted = _softmax(np.where(np.isin(np.arange(values.shape[1]) + 1, self.taught), self.trust[0], 1.0) * values
                           + x @ self.value_w + self.value_b)
        own = np.isin(np.argmax(values, axis=1) + 1, self.taught)
        return 1 / (1 + np.exp(-die_logit)), np.where(own[:, None], adapted, shipped)

    def to_dict(self) -> dict[str, Any]:
        return {name: np.round(getattr(self, name), 6).tolist() for name in _HEAD_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Head:
        return cls(*(np.asarray(data[name], np.float64) for name in _HEAD_FIELDS))


_HEAD_FIELDS = ("mean", "scale", "die_w", "die_b", "value_w", "value_b", "taught", "trust")


def _logsumexp(z: NDArray[Any]) -> NDArray[Any]:
    top = z.max(axis=1)
    out: NDArray[Any] = top + np.log(np.exp(z - top[:, None]).sum(axis=1))
    return out


def _softmax(z: NDArray[Any]) -> NDArray[Any]:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p: NDArray[Any] = e / e.sum(axis=1, keepdims=True)
    return p


def _adam(gradient: Any, shapes: Sequence[tuple[int, ...]]) -> list[NDArray[Any]]:
    """:data:`STEPS` Adam steps from zeros; ``gradient(params)`` → their gradients."""
    params = [np.zeros(shape) for shape in shapes]
    m = [np.zeros(shape) for shape in shapes]
    v = [np.zeros(shape) for shape in shapes]
    for step in range(1, STEPS + 1):
        for k, g in enumerate(gradient(params)):
            m[k] = 0.9 * m[k] + 0.1 * g
            v[k] = 0.999 * v[k] + 0.001 * g ** 2
            params[k] -= RATE * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
    return params


def fit_head(offsets: NDArray[Any], features: NDArray[Any], targets: NDArray[Any],
             die_mask: NDArray[Any] | float = 1.0, value_mask: NDArray[Any] | float = 1.0) -> Head:
    """The heads of :class:`Head` from N candidates (N×C offsets, N×F features, N classes, 0 for
    floor): each a mean cross-entropy + :data:`RIDGE` × ‖weights and bias‖², the value head
    over the dice only, each taught value weighted alike (no value favoured for being thrown
    more often)."""
    n, c = offsets.shape
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = (features - mean) / scale
    x_die, x_value = x * die_mask, x * value_mask
    f = x.shape[1]
    is_die = (targets > 0).astype(float)
    base = _logsumexp(offsets[:, 1:]) - offsets[:, 0]

    def die_gradient(params: list[NDArray[Any]]) -> list[NDArray[Any]]:
        w, b = params
        p = 1 / (1 + np.exp(-(base + x_die @ w + b[0])))
        g = (p - is_die) / n
        return [x_die.T @ g + 2 * RIDGE * w, np.array([g.sum() + 2 * RIDGE * b[0]])]

    die_w, die_b = _adam(die_gradient, [(f,), (1,)])
    dice = targets > 0
    taught = np.unique(targets[dice])
    value_w, value_b = np.zeros((f, c - 1)), np.zeros(c - 1)
    if len(taught) >= 2:  # one value alone teaches nothing about telling values apart
        xs, offs, ts = x_value[dice], offsets[dice][:, 1:][:, taught - 1], np.searchsorted(taught, targets[dice])
        counts = np.bincount(ts, minlength=len(taught)).astype(float)
        weight = (1.0 / counts[ts]) / len(taught)
        onehot = np.eye(len(taught))[ts]

        def value_gradient(params: list[NDArray[Any]]) -> list[NDArray[Any]]:
            w, b, t = params  # t: how much less the network's own view counts (0: as much)
            g = (_softmax((1 - t[0]) * offs + xs @ w + b) - onehot) * weight[:, None]
            return [xs.T @ g + 2 * RIDGE * w, g.sum(axis=0) + 2 * RIDGE * b,
                    np.array([-(g * offs).sum() + 2 * RIDGE * t[0]])]

        w, b, t = _adam(value_gradient, [(f, len(taught)), (len(taught),), (1,)])
        value_w[:, taught - 1], value_b[taught - 1] = w, b
        trust = 1 - float(t[0])
    else:
        taught, trust = np.zeros(0, int), 1.0
    return Head(mean, scale, die_w, die_b, value_w, value_b, taught, np.array([trust]))


# --- the adaptation ----------------------------------------------------------------------------

@dataclass
class Figures:
    """Counts over labelled dice: right, wrong value, unreadable, missed; and phantoms."""

    dice: int = 0
    right: int = 0
    wrong: int = 0
    unread: int = 0
    missed: int = 0
    phantom: int = 0

    def add(self, dice: Sequence[DieReading], labels: Sequence[Example]) -> None:
        """Count one photo's readings against its labels (kind and value must agree)."""
        boxes = [{"box": list(e.box), "value": e.value} for e in labels]
        _, pairs = score_photo(dice, boxes)
        self.dice += len(labels)
        for i, j in pairs:
            if j is None:
                self.phantom += 1
            elif i is None:
                self.missed += 1
            elif dice[i].value is None:
                self.unread += 1
            elif dice[i].value == labels[j].value and getattr(dice[i], "kind", "d6-pips") == labels[j].kind:
                self.right += 1
            else:
                self.wrong += 1

    @property
    def share(self) -> float:
        """Share of the labelled dice read right, 0..1 (0 for none)."""
        return self.right / self.dice if self.dice else 0.0

    @property
    def gain(self) -> int:
        return self.right - WRONG_COST * self.wrong - self.phantom

    def to_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ("dice", "right", "wrong", "unread", "missed", "phantom")}


@dataclass
class Adaptation:
    """One table's layer; ``used`` says whether it read the table's held-out photos better.

    ``side`` is the die's side as the detector measures it, as a share of the photo's long
    side (None: the shipped reader's passes find the dice); ``heat`` and ``value_min`` the
    thresholds; ``cut_off`` whether a die reaching past the photo's edge is unreadable "cut
    off" (False for a table whose taught dice mostly do: a camera framing one die);
    ``held_out`` and ``shipped`` the figures of :class:`Figures` held out by photo with the
    layer and with the shipped reader; ``examples`` the dice taught per kind and value.
    """

    family: str = "pips"
    fingerprint: str = ""
    used: bool = False
    side: float | None = None
    heat: float = LOW_HEAT
    value_min: float = 0.6
    cut_off: bool = True
    head: Head | None = None
    kinds: list[str] = field(default_factory=list)
    held_out: dict[str, int] = field(default_factory=dict)
    shipped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, dict[str, int]] = field(default_factory=dict)
    photos: int = 0
    seconds: float = 0.0
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form saved in :data:`FILE`."""
        return {"version": VERSION, "family": self.family, "fingerprint": self.fingerprint, "used": self.used,
                "side": self.side, "heat": self.heat, "value_min": self.value_min, "cut_off": self.cut_off,
                "head": self.head.to_dict() if self.head else None, "kinds": self.kinds,
                "held_out": self.held_out, "shipped": self.shipped, "examples": self.examples,
                "photos": self.photos, "seconds": round(self.seconds, 3), "why": self.why}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Adaptation:
        """:raises ExampleError: not an adaptation of this :data:`VERSION`."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ExampleError(f"not a dicelens adaptation of version {VERSION}")
        head = Head.from_dict(data["head"]) if data.get("head") else None
        return cls(family=data["family"], fingerprint=data["fingerprint"], used=bool(data["used"]),
                   side=data["side"], heat=float(data["heat"]), value_min=float(data["value_min"]),
                   cut_off=bool(data["cut_off"]), head=head,
                   kinds=list(data["kinds"]), held_out=data["held_out"], shipped=data["shipped"],
                   examples=data["examples"], photos=int(data["photos"]), seconds=float(data["seconds"]),
                   why=data.get("why", ""))

    def save(self, folder: Path) -> Path:
        """Write :data:`FILE` into ``folder`` (a temporary file renamed: never half written)."""
        path = Path(folder) / FILE
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.to_dict()))
        temporary.replace(path)
        return path

    def summary(self) -> str:
        """One line: what was learned and the held-out figure, or why the shipped reader reads."""
        taught = sum(n for values in self.examples.values() for n in values.values())
        held, shipped = Figures(**self.held_out), Figures(**self.shipped)
        figure = (f"read right {100 * held.share:.1f} % vs {100 * shipped.share:.1f} % without"
                  if self.held_out else "")
        if not self.used:
            return f"{taught} examples of {self.photos} photos; not used ({self.why})" + (
                f": {figure}" if figure else "")
        scale = ("the reader's own scale" if self.side is None
                 else f"dice of {100 * self.side:.1f} % of the photo's side")
        return (f"{taught} examples of {self.photos} photos; {figure} (held out by photo); "
                f"{scale}, detector threshold {self.heat}, value threshold {self.value_min}")


def load(folder: Path) -> Adaptation | None:
    """The adaptation saved in ``folder``, or None when there is none.

    :raises ExampleError: the file is not an adaptation this version reads.
    """
    path = Path(folder) / FILE
    if not path.is_file():
        return None
    try:
        return Adaptation.from_dict(json.loads(path.read_text()))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ExampleError(f"{path} is not a dicelens adaptation ({exc})") from None


def _expected_side(side: float | None, image: NDArray[Any], backend: Backend) -> float:
    """The die's side (photo pixels) the layer expects: ``side`` of the photo's long side, or
    (None) the side the shipped reader's first pass reads best."""
    h, w = image.shape[:2]
    return backend.learned_side / backend.base_scale(w, h) if side is None else side * max(h, w)


def _reach(image: NDArray[Any], candidate: Candidate) -> float:
    """How far (a share of its side) a candidate die reaches past the photo's edge."""
    h, w = image.shape[:2]
    x, y, side, _ = candidate
    half = side / 2
    return max(-(x - half), -(y - half), x + half - w, y + half - h) / max(side, 1e-9)


def _readings(backend: Backend, image: NDArray[Any], looked: _Looked, head: Head, heat: float,
              value_min: float, kinds: Sequence[str], cut_off: bool = True) -> list[DieReading]:
    if not looked.found:
        return []
    die_p, value_p = head.probs(looked.offsets, looked.features)
    h, w = image.shape[:2]
    out: list[DieReading] = []
    for (x, y, side, peak), p_die, probs in zip(looked.found, die_p, value_p, strict=True):
        if peak < heat or p_die < 0.5:
            continue
        c = int(np.argmax(probs))
        kind, value = backend.classes[c + 1]
        confidence = float(probs[c])
        half = side / 2
        box = (max(0, round(x - half)), max(0, round(y - half)), min(w, round(x + half)), min(h, round(y + half)))
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        unreadable = None
        if cut_off and _reach(image, (x, y, side, peak)) > tray.CUT_OFF:
            unreadable = "cut off"
        elif confidence < value_min or (kind in numerals.NUMERALS_NOT_LEARNED and kind not in kinds):
            unreadable = "ambiguous pips" if kind == "d6-pips" else "ambiguous numeral"
        v = None if unreadable else value
        if backend.family == "pips":
            out.append(DieReading(value=v, sides=6, box=box, center=(float(x), float(y)), color="white",
                                  confidence=confidence, unreadable=unreadable))
        else:
            out.append(numerals.NumberedReading(value=v, sides=numerals.SIDES[kind], box=box,
                                                center=(float(x), float(y)), color="white",
                                                confidence=confidence, unreadable=unreadable, kind=kind,
                                                face=numerals.face_symbol(kind, v)))
    return _without_parts(out)


def _without_parts(dice: list[DieReading]) -> list[DieReading]:
    """``dice`` without those whose centre lies on a die read :data:`PART` or more times larger:
    its pips, or the numeral of its face, seen as a die."""
    def side(d: DieReading) -> int:
        return max(d.box[2] - d.box[0], d.box[3] - d.box[1])

    kept: list[DieReading] = []
    for die in sorted(dice, key=lambda d: -side(d)):
        if not any(side(die) <= PART * side(k) and k.box[0] <= die.center[0] <= k.box[2]
                   and k.box[1] <= die.center[1] <= k.box[3] for k in kept):
            kept.append(die)
    return [d for d in dice if any(d is k for k in kept)]


def _targets(backend: Backend, looked: _Looked, labels: Sequence[Example]) -> NDArray[Any]:
    """Each candidate's class: the labelled die it matches (:func:`vision.scoring.score_photo`), else background."""
    targets = np.zeros(len(looked.found), int)
    if not looked.found or not labels:
        return targets
    probes = [DieReading(value=None, sides=6, box=(round(x - s / 2), round(y - s / 2), round(x + s / 2),
                                                   round(y + s / 2)), center=(x, y), color="", confidence=0.0)
              for x, y, s, _ in looked.found]
    _, pairs = score_photo(probes, [{"box": list(e.box), "value": e.value} for e in labels])
    index = {cls: k for k, cls in enumerate(backend.classes)}
    for i, j in pairs:
        if i is None or j is None:
            continue
        label = labels[j]
        # a candidate much smaller than the die it lies on is one of its pips, not the die
        if looked.found[i][2] >= PART * max(label.box[2] - label.box[0], label.box[3] - label.box[1]):
            targets[i] = index[(label.kind, label.value)]
    return targets


def _counts(photos: Sequence[TaughtPhoto]) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = {}
    for photo in photos:
        for die in photo.dice:
            out.setdefault(die.kind, Counter())[str(die.value)] += 1
    return {k: dict(sorted(c.items(), key=lambda kv: int(kv[0]))) for k, c in out.items()}


def fit(photos: Sequence[TaughtPhoto], backend: Backend | None = None) -> Adaptation:
    """Fit the layer to a table's labelled photos (see the module's docstring).

    :param photos: every photo taught, each with all its dice labelled (a die left unlabelled
        teaches the layer that it is floor).
    :param backend: the shipped reader to adapt (None: that of :func:`family_of` the photos).
    :returns: the adaptation; ``used`` False (with ``why``) for fewer than two photos, or
        when it does not read the held-out photos better than the shipped reader.
    """
    start = time.process_time()
    backend = backend or backend_for(family_of(photos))
    adaptation = Adaptation(family=backend.family, fingerprint=backend.fingerprint(), photos=len(photos),
                            value_min=backend.value_min, examples=_counts(photos),
                            kinds=sorted({d.kind for p in photos for d in p.dice}))
    if len(photos) < 2 or not any(p.dice for p in photos):
        adaptation.why = "fewer than two labelled photos"
        adaptation.seconds = time.process_time() - start
        return adaptation
    shipped = Figures()
    for photo in photos:
        shipped.add(backend.shipped(photo.image).dice, photo.dice)
    adaptation.shipped = shipped.to_dict()
    # the dice's side as labelled, and as the detector measures the dice it matches
    sides = [max(e.box[2] - e.box[0], e.box[3] - e.box[1]) / max(p.image.shape[:2]) for p in photos for e in p.dice]
    labelled = float(np.median(sides))
    first = [_look(backend, p.image, None, _expected_side(None, p.image, backend)) for p in photos]
    measured = [looked.found[i][2] / max(p.image.shape[:2]) for p, looked in zip(photos, first, strict=True)
                for i, t in enumerate(_targets(backend, looked, p.dice)) if t]
    side = float(np.median(measured)) if measured else labelled
    matched = [_reach(p.image, looked.found[i]) > tray.CUT_OFF for p, looked in zip(photos, first, strict=True)
               for i, t in enumerate(_targets(backend, looked, p.dice)) if t]
    adaptation.cut_off = not matched or sum(matched) <= len(matched) / 2
    options: dict[float | None, list[_Looked]] = {None: first}
    scaled = [_look(backend, p.image, backend.learned_side / (side * max(p.image.shape[:2])),
                    side * max(p.image.shape[:2])) for p in photos]
    options[side] = scaled
    folds = min(FOLDS, len(photos))
    best: tuple[int, int, float | None, float, float] | None = None
    for option, looks in options.items():
        targets = [_targets(backend, looked, p.dice) for p, looked in zip(photos, looks, strict=True)]
        figures = {(h, v): Figures() for h in HEATS for v in VALUE_MINS}
        for fold in range(folds):
            train = [k for k in range(len(photos)) if k % folds != fold]
            head = _fit_on(looks, targets, train)
            for k in range(len(photos)):
                if k % folds != fold:
                    continue
                for (h, v), fig in figures.items():
                    fig.add(_readings(backend, photos[k].image, looks[k], head, h, v, adaptation.kinds,
                                              adaptation.cut_off)
                            if head else [], photos[k].dice)
        for (h, v), fig in figures.items():
            key = (fig.gain, fig.right, option, h, v)
            if best is None or key[:2] > best[:2]:
                best = key
                adaptation.held_out = fig.to_dict()
    assert best is not None
    _, _, option, heat, value_min = best
    held = Figures(**adaptation.held_out)
    adaptation.side, adaptation.heat, adaptation.value_min = option, heat, value_min
    looks = options[option]
    targets = [_targets(backend, looked, p.dice) for p, looked in zip(photos, looks, strict=True)]
    adaptation.head = _fit_on(looks, targets, list(range(len(photos))))
    adaptation.used = adaptation.head is not None and held.gain > shipped.gain and held.right > shipped.right
    if not adaptation.used:
        adaptation.why = "it reads the taught photos held out no better than the shipped reader"
    adaptation.seconds = time.process_time() - start
    return adaptation


def _fit_on(looks: Sequence[_Looked], targets: Sequence[NDArray[Any]], photos: Sequence[int]) -> Head | None:
    chosen = [k for k in photos if looks[k].found]
    if not chosen:
        return None
    c = looks[chosen[0]].offsets.shape[1]
    f = looks[chosen[0]].features.shape[1]
    die_mask, value_mask = np.zeros(f), np.ones(f)
    die_mask[c:c + 8] = 1.0  # whether a die is there: heat, size and look, not which value it shows
    value_mask[c:c + 8] = 0.0  # its value: the network's and the rings' view of it
    return fit_head(np.vstack([looks[k].offsets for k in chosen]), np.vstack([looks[k].features for k in chosen]),
                    np.concatenate([targets[k] for k in chosen]), die_mask, value_mask)


def read(image: NDArray[Any], adaptation: Adaptation | None, principal_color: str | None = None,
         backend: Backend | None = None) -> TrayReading:
    """Read a photo with a table's adaptation: as :func:`vision.read_tray` (pips) or
    :func:`vision.read_numbered` (numbered) would, with the layer when it is ``used`` and fitted
    on the same networks; else with the shipped reader of its family (pips for None).

    :param image: H×W×3 uint8 BGR photo (grey and BGRA accepted).
    :raises InvalidImage: ``image`` is not a uint8 image array.
    """
    family = adaptation.family if adaptation else "pips"
    backend = backend or backend_for(family)
    if adaptation is None or not adaptation.used or adaptation.head is None \
            or adaptation.fingerprint != backend.fingerprint():
        return backend.shipped(image)
    start = time.perf_counter()
    bgr = as_bgr(image)
    height, width = bgr.shape[:2]
    dice: list[DieReading] = []
    if min(height, width) >= MIN_SIDE and bgr.max() > 0:
        side = _expected_side(adaptation.side, bgr, backend)
        scale = None if adaptation.side is None else backend.learned_side / side
        looked = _look(backend, bgr, scale, side, adaptation.heat)  # fewer crops to classify
        dice = _readings(backend, bgr, looked, adaptation.head, adaptation.heat, adaptation.value_min,
                         adaptation.kinds, adaptation.cut_off)
    name_dice_colors(bgr, dice)
    note = mark_principal(dice, principal_color)
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start, principal_note=note)
