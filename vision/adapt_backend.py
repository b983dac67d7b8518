"""The shipped readers as the adaptation (:mod:`vision.adapt`) sees them: candidates, crops,
the classifier's log probabilities, and the fingerprint of the networks they come from."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision import faces, numerals, tray
from vision.adapt_examples import TaughtPhoto
from vision.image import MIN_SIDE, as_bgr
from vision.reading import TrayReading

Candidate = tuple[float, float, float, float]  # x, y, side (photo pixels), heat
LOW_HEAT = 0.1  # detector peaks down to this are looked at; the head says which are dice


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

    def shipped(self, image: NDArray[Any], named: bool = True) -> TrayReading:
        """The shipped reader's reading; ``named`` False: the dice's colours may be left unnamed."""
        raise NotImplementedError

    def candidates(self, image: NDArray[Any], scale: float | None, heat: float) -> list[Candidate]:
        raise NotImplementedError

    def crops(self, image: NDArray[Any], found: Sequence[Candidate]) -> NDArray[Any]:
        raise NotImplementedError

    def log_probs(self, crops: NDArray[Any]) -> NDArray[Any]:
        """N crops → N×len(classes) log probabilities of the shipped classifier."""
        raise NotImplementedError

    def log_probs_of(self, image: NDArray[Any], found: Sequence[Candidate], crops: NDArray[Any]) -> NDArray[Any]:
        """:meth:`log_probs` of the candidates ``found`` of ``image``, cropped as :meth:`crops`
        gives ``crops``: taken from the shipped reader's looks at them where this image's first
        pass (:meth:`candidates` at the shipped passes) classified them already, not run again."""
        return self.log_probs(crops)

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
        self._last: tuple[NDArray[Any], tray.PipFirstPass] | None = None

    def base_scale(self, width: int, height: int) -> float:
        return tray.input_scale(width, height)

    def shipped(self, image: NDArray[Any], named: bool = True) -> TrayReading:
        return self.reader.read(image, first=self._first_pass(image), named=named)

    def candidates(self, image: NDArray[Any], scale: float | None, heat: float) -> list[Candidate]:
        if scale is None:
            return self.reader.detect(image, heat, self._first_pass(image))
        return self.reader.detect_at(image, scale, heat)

    def _first_pass(self, image: NDArray[Any]) -> tray.PipFirstPass:
        """The reader's first pass of ``image``, kept for the last image met: the fit reads a
        photo and then its candidates down to a lower heat, sharing its pyramid and crops."""
        if self._last is None or self._last[0] is not image:
            self._last = (image, self.reader.first_pass(image, LOW_HEAT))
        return self._last[1]

    def crops(self, image: NDArray[Any], found: Sequence[Candidate]) -> NDArray[Any]:
        return np.stack([tray.crop_die(image, (x, y), side) for x, y, side, _ in found])

    def log_probs(self, crops: NDArray[Any]) -> NDArray[Any]:
        return _pip_log_probs(self.reader.classify(crops))

    def log_probs_of(self, image: NDArray[Any], found: Sequence[Candidate], crops: NDArray[Any]) -> NDArray[Any]:
        if self._last is None or self._last[0] is not image:
            return self.log_probs(crops)
        return _pip_log_probs(self._last[1].looks(list(found)))

    def fingerprint(self) -> str:
        return _digest(self.reader.files)


class NumberedBackend(Backend):
    """The numbered reader (:mod:`vision.numerals`, its networks): classes background and
    every value of every kind of :data:`vision.numerals.KINDS`."""

    family = "numbered"
    learned_side = numerals.LEARNED_SIDE
    max_scale = numerals.MAX_SCALE
    value_min = numerals.VALUE_MIN
    classes = [("background", 0)] + [(k, v) for k in numerals.KINDS for v in range(1, numerals.SIDES[k] + 1)]

    def __init__(self) -> None:
        self._last: tuple[NDArray[Any], numerals.FirstPass] | None = None

    def base_scale(self, width: int, height: int) -> float:
        return numerals.DETECT_SIZE / max(width, height)

    def shipped(self, image: NDArray[Any], named: bool = True) -> TrayReading:
        bgr = as_bgr(image)
        first = self._first_pass(bgr) if min(bgr.shape[:2]) >= MIN_SIDE and bgr.max() > 0 else None  # else none read
        return numerals.read_numbered(bgr, first=first, named=named)

    def candidates(self, image: NDArray[Any], scale: float | None, heat: float) -> list[Candidate]:
        if scale is None:
            return numerals.detect(image, heat, self._first_pass(image))
        return numerals.detect_at(image, min(self.max_scale, scale), heat)

    def _first_pass(self, image: NDArray[Any]) -> numerals.FirstPass:
        """The reader's first pass of ``image`` (its passes kept down to :data:`LOW_HEAT`), kept
        for the last image met: the fit reads a photo and then its candidates down to a lower
        heat, sharing its pyramid, passes and crops (as :class:`PipBackend` does)."""
        if self._last is None or self._last[0] is not image:
            self._last = (image, numerals.first_pass(image, floor=LOW_HEAT))
        return self._last[1]

    def crops(self, image: NDArray[Any], found: Sequence[Candidate]) -> NDArray[Any]:
        return np.stack(numerals.classifier_crops(image, [c[:3] for c in found]))

    def log_probs(self, crops: NDArray[Any]) -> NDArray[Any]:
        return _numbered_log_probs(*numerals.classify(crops))

    def log_probs_of(self, image: NDArray[Any], found: Sequence[Candidate], crops: NDArray[Any]) -> NDArray[Any]:
        if self._last is None or self._last[0] is not image:
            return self.log_probs(crops)
        return _numbered_log_probs(*self._last[1].looks(list(found)))

    def fingerprint(self) -> str:
        varied = [numerals._VARIED.path] if numerals._VARIED else []
        return _digest([numerals._DETECTOR.path, *varied, numerals._CLASSIFIER.path, faces._NETWORK.path])


def _pip_log_probs(p: NDArray[Any]) -> NDArray[Any]:
    """The pip classifier's N×8 probabilities (:meth:`vision.tray.PipReader.classify`) → N×7 log
    probabilities of background and values 1..6."""
    out: NDArray[Any] = np.log(np.clip(p[:, :tray.COCKED], 1e-6, 1.0))
    return out


def _numbered_log_probs(kinds: NDArray[Any], values: NDArray[Any]) -> NDArray[Any]:
    """:func:`vision.numerals.classify`'s kind probabilities and value scores → N×C log
    probabilities of background and each value of each kind (:attr:`NumberedBackend.classes`)."""
    logk = np.log(np.clip(kinds, 1e-6, 1.0))
    columns = [logk[:, 0]]
    for k, kind in enumerate(numerals.KINDS):
        v = values[:, k, :numerals.SIDES[kind]]
        v = v - v.max(axis=1, keepdims=True)
        logv = v - np.log(np.exp(v).sum(axis=1, keepdims=True))
        columns += list((logk[:, k + 1:k + 2] + logv).T)
    out: NDArray[Any] = np.stack(columns, axis=1)
    return out


def backend_for(family: str) -> Backend:
    """The shipped reader of ``family`` ("pips" or "numbered")."""
    return PipBackend() if family == "pips" else NumberedBackend()


def family_of(photos: Sequence[TaughtPhoto]) -> str:
    """"pips" when every die taught is a pip d6 (the pip reader reads them), else "numbered"."""
    return "pips" if all(d.kind == "d6-pips" for p in photos for d in p.dice) else "numbered"
