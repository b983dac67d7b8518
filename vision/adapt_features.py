"""What the adaptation's heads (:mod:`vision.adapt_head`) see of a detector's candidates: the
shipped classifier's log probabilities, heat, size, the crop's look, its ring harmonics and
its pip counts (new features are appended: a head fitted before them reads the columns it knows)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.adapt_backend import LOW_HEAT, Backend, Candidate
from vision.adapt_head import Head


def _greys(crops: NDArray[Any]) -> NDArray[Any]:
    """N×H×W×3 uint8 BGR crops → N×H×W uint8 grey, in one conversion (per pixel: the same as one a crop)."""
    n, h, w, _ = crops.shape
    out: NDArray[Any] = cv2.cvtColor(np.ascontiguousarray(crops).reshape(n * h, w, 3),
                                     cv2.COLOR_BGR2GRAY).reshape(n, h, w)
    return out


@functools.lru_cache(maxsize=4)
def _centre_and_ring(h: int, w: int) -> tuple[NDArray[Any], NDArray[Any]]:
    """The H×W masks of a crop's centre (within half its radius) and the ring around it (0.7–1)."""
    yy, xx = np.mgrid[:h, :w]
    r = np.hypot(yy - (h - 1) / 2, xx - (w - 1) / 2) / (h / 2)
    return r < 0.5, (r >= 0.7) & (r < 1.0)


def _mean_of_channels(crops: NDArray[Any]) -> NDArray[Any]:
    """N×H×W×3 uint8 → N×H×W float32, the mean of each pixel's three channels: the same bits as
    ``crops.astype(np.float32).mean(axis=3)`` (a sum of three bytes is exact in float32), a
    seventh of its time (numpy's mean over an axis of three is slow)."""
    total = crops[..., 0].astype(np.uint16) + crops[..., 1] + crops[..., 2]
    out: NDArray[Any] = total.astype(np.float32) / np.float32(3)
    return out


def _crop_features(crops: NDArray[Any]) -> NDArray[Any]:
    """N crops → N×6: mean saturation and brightness, the grey's spread, the centre's contrast
    with the ring around it, the shares of pixels much darker and much brighter than the median."""
    n, h, w, _ = crops.shape
    hsv = cv2.cvtColor(np.ascontiguousarray(crops).reshape(n * h, w, 3), cv2.COLOR_BGR2HSV)
    hsv = hsv.reshape(n, h, w, 3).astype(np.float32) / 255
    grey = _mean_of_channels(crops) / 255
    centre, ring = _centre_and_ring(h, w)
    median = np.median(grey.reshape(n, -1), axis=1)[:, None, None]
    return np.stack([hsv[..., 1].mean(axis=(1, 2)), hsv[..., 2].mean(axis=(1, 2)), grey.std(axis=(1, 2)),
                     grey[:, centre].mean(axis=1) - grey[:, ring].mean(axis=1),
                     (grey < median - 0.2).mean(axis=(1, 2)), (grey > median + 0.2).mean(axis=(1, 2))], axis=1)


RINGS, ANGLES, HARMONICS = 8, 32, 7  # the polar descriptor's samples


@functools.lru_cache(maxsize=4)
def _polar_pixels(h: int, w: int) -> NDArray[Any]:
    """The flat index of the H×W crop pixel each of :func:`_polar`'s ANGLES × RINGS samples
    takes: ``cv2.warpPolar``'s nearest-pixel map, read off by warping the pixels' own numbers
    (each warp of a crop's grey is then one gather for all the crops)."""
    half = h / 2
    numbers = np.arange(1, h * w + 1, dtype=np.float32).reshape(h, w)  # 0 would be outside the crop
    taken = cv2.warpPolar(numbers, (RINGS, ANGLES), (half, half), half * 0.9, cv2.WARP_POLAR_LINEAR)
    if not taken.all():
        raise ValueError(f"a polar sample of a {h}×{w} crop falls outside it")
    out: NDArray[Any] = taken.astype(np.int64).ravel() - 1
    return out


def _polar(crops: NDArray[Any]) -> NDArray[Any]:
    """N crops → N×(RINGS × HARMONICS): the magnitudes of the first harmonics of the grey
    around each of RINGS circles about the crop's centre (the grey normalised per crop): the
    same whichever way the die is turned, and telling apart the symmetries of pip patterns
    (one pip, two on a diagonal, four corners…) and of numerals."""
    n, h, w, _ = crops.shape
    grey = _greys(crops).astype(np.float32).reshape(n, h * w)
    grey = (grey - grey.mean(axis=1, keepdims=True)) / (grey.std(axis=1, keepdims=True) + 1.0)
    polars = grey[:, _polar_pixels(h, w)].reshape(n, ANGLES, RINGS)
    spectrum = np.abs(np.fft.rfft(polars, axis=1))[:, :HARMONICS] / ANGLES  # N × harmonics × RINGS
    out: NDArray[Any] = spectrum.transpose(0, 2, 1).reshape(n, RINGS * HARMONICS)
    return out


PIPS = 6  # spots counted up to this many, per polarity
SPOT = (0.004, 0.08)  # a spot's area, as a share of the crop's core (a pip of a d6 seen whole: about 0.02)


def _pip_counts(crops: NDArray[Any]) -> NDArray[Any]:
    """N crops → N×(2 × PIPS): one-hot, how many spots much darker (then much brighter) than
    the die's face lie in the crop's core (its middle two thirds): a pip count the network's
    view lacks on dice unlike those it learned (byler's marbled and coloured dice, read with
    networks that never saw them: 79.8 → 86.5 % right after 40 photos); no count: all zero.
    The crops' spots are labelled at once, stacked with a row of floor between them."""
    n, h, w, _ = crops.shape
    out = np.zeros((n, 2 * PIPS))
    if not n:
        return out
    core = _greys(crops)[:, h // 6:h - h // 6, w // 6:w - w // 6].astype(np.float32)
    ch, cw = core.shape[1:]
    flat = core.reshape(n, -1)
    median = np.median(flat, axis=1).astype(np.float64)
    spread = (flat.max(axis=1) - flat.min(axis=1)).astype(np.float64) + 1e-3
    low, high = SPOT[0] * ch * cw, SPOT[1] * ch * cw
    # the thresholds in float32, as a crop's grey compared with one number is
    for polarity, spots in enumerate((core < (median - 0.3 * spread).astype(np.float32)[:, None, None],
                                      core > (median + 0.3 * spread).astype(np.float32)[:, None, None])):
        sheet = np.zeros((n, ch + 1, cw), np.uint8)
        sheet[:, :ch] = spots
        _, _, stats, _ = cv2.connectedComponentsWithStats(sheet.reshape(n * (ch + 1), cw), connectivity=8)
        area = stats[1:, cv2.CC_STAT_AREA]
        counts = np.bincount(stats[1:, cv2.CC_STAT_TOP][(area >= low) & (area <= high)] // (ch + 1), minlength=n)
        counted = np.flatnonzero((counts >= 1) & (counts <= PIPS))
        out[counted, PIPS * polarity + counts[counted] - 1] = 1.0
    return out


def _sized(found: list[Candidate], size: float) -> list[Candidate]:
    """``found`` each given the table's die side ``size`` (a detector that never saw the table's
    dice sizes them wrong: of banachowicz's first 8 photos' 80 d10, 21 lie on a candidate at the
    detector's sides, 53 at their labelled side), without the weaker of two closer than
    :data:`SAME_DIE` of it (one die, two peaks)."""
    out: list[Candidate] = []
    for x, y, _, heat in sorted(found, key=lambda c: -c[3]):
        if all((x - fx) ** 2 + (y - fy) ** 2 > (SAME_DIE * size) ** 2 for fx, fy, _, _ in out):
            out.append((x, y, size, heat))
    return out


@dataclass
class _Looked:
    """The candidates of one photo and what the layer needs of each."""

    found: list[Candidate]
    offsets: NDArray[Any]  # N×C shipped log probabilities
    features: NDArray[Any]  # N×F
    #: by labels' id: the labels and the candidates' classes (:func:`vision.adapt._targets`), which
    #: the fit asks of the same candidates several times
    targets: dict[int, tuple[Sequence[Any], NDArray[Any]]] = field(default_factory=dict, repr=False)


SAME_DIE = 0.5  # of the table's die side: a weaker candidate this close to a stronger one is the same die


def _look(backend: Backend, image: NDArray[Any], scale: float | None, side: float, heat: float = LOW_HEAT,
          size: float | None = None, found: list[Candidate] | None = None, head: Head | None = None) -> _Looked:
    """The candidates of a detector pass (``scale``; None: the shipped reader's passes) down to
    ``heat``, with what the heads need of them; ``side`` the die's expected side, photo pixels;
    ``size`` (photo pixels) the side every candidate is cropped at, None for the detector's own;
    ``found`` that pass's candidates when known (not sized); ``head``, when given, keeps only
    the candidates its die head takes for dice, and computes the rings and pip counts of those
    only (reading: most candidates down to a low heat are floor)."""
    found = backend.candidates(image, scale, heat) if found is None else found
    if size is not None:
        found = _sized(found, size)
    c = len(backend.classes)
    if not found:
        return _Looked([], np.zeros((0, c)), np.zeros((0, c + 8 + RINGS * HARMONICS + 2 * PIPS)))
    crops = backend.crops(image, found)
    offsets = backend.log_probs(crops) if size is not None else backend.log_probs_of(image, found, crops)
    extra = np.array([[peak, np.log(max(s, 1.0) / max(side, 1.0))] for _, _, s, peak in found])
    seen = np.hstack([offsets, extra, _crop_features(crops)])
    die_p = head.die_probs(offsets, seen) if head is not None else None
    if die_p is not None:
        keep = die_p >= 0.5
        found = [f for f, k in zip(found, keep, strict=True) if k]
        crops, offsets, seen = crops[keep], offsets[keep], seen[keep]
        if not found:
            return _Looked([], np.zeros((0, c)), np.zeros((0, c + 8 + RINGS * HARMONICS + 2 * PIPS)))
    return _Looked(found, offsets, np.hstack([seen, _polar(crops), _pip_counts(crops)]))
