"""How the numbered reader puts its detector passes together (vision.numerals._detect), with a
fake detector: each pass's candidates are given per (detector, scale), and a pass is as sure as
its candidates are hot (the classifier faked as sure each is a die). A 640×480 photo is read
first at 0.5 (320 px); an unsure first pass also at 1.25 and 0.2 (PROBES), then at 0.125 and
0.08 (COARSE_PROBES); when all are unsure, the second detector (VARIED_DETECT_FILE) at 0.5,
then at 1.25 and 0.2."""

from __future__ import annotations

import numpy as np
import pytest

import vision.numerals as numerals
from vision.adapt_backend import NumberedBackend
from vision.network import Network

FIRST, FINER, COARSER = 0.5, 1.25, 0.2
FIRST_SCALES = {0.5, 1.25, 0.2, 0.125, 0.08}


@pytest.fixture
def passes(monkeypatch):
    """``passes(first, varied)``: the candidates (x, y, side, heat; photo pixels) each detector
    gives at each scale (rounded to 3 places); returns the list of (varied, scale) passes made."""

    def make(first: dict[float, list[tuple]], varied: dict[float, list[tuple]] | None) -> list[tuple[bool, float]]:
        made: list[tuple[bool, float]] = []
        second = object() if varied is not None else None
        monkeypatch.setattr(numerals, "_VARIED", second)

        def detect_at(pyramid, scale, heat_min=numerals.HEAT_MIN, detector=None):
            is_varied = detector is not None and detector is second
            made.append((is_varied, round(scale, 3)))
            given = (varied if is_varied else first) or {}
            return [c for c in given.get(round(scale, 3), []) if c[3] >= heat_min]

        def strength(looks, found):
            return float(np.mean([c[3] for c in found[:numerals.SURE_SAMPLE]])) if found else 0.0

        monkeypatch.setattr(numerals, "_detect_at", detect_at)
        monkeypatch.setattr(numerals, "_strength", strength)
        return made

    return make


def _detect(height: int = 480, width: int = 640) -> list[tuple[float, float, float, float]]:
    return numerals.detect(np.zeros((height, width, 3), np.uint8))


DIE = (100.0, 100.0, 56.0)  # 28 px at the first scale: the size learned, read where found


def test_a_sure_first_pass_never_reads_the_second_detector(passes):
    made = passes({FIRST: [(*DIE, 0.9)]}, {FIRST: [(*DIE, 0.99)]})
    assert _detect() == [(*DIE, 0.9)]
    assert made == [(False, FIRST)]


def test_an_unsure_photo_is_read_by_the_second_detector_and_its_surer_pass_kept(passes):
    other = (300.0, 200.0, 56.0)
    made = passes({FIRST: [(*DIE, 0.4)]}, {FIRST: [(*DIE, 0.9), (*other, 0.9)]})
    assert _detect() == [(*DIE, 0.9), (*other, 0.9)]
    assert {scale for varied, scale in made if not varied} == FIRST_SCALES
    assert [(v, s) for v, s in made if v] == [(True, FIRST)]  # sure at once: no probe of it


def test_the_second_detector_probes_when_unsure_at_the_first_scale(passes):
    small = (100.0, 100.0, 22.4)  # 28 px at 1.25
    made = passes({FIRST: [(*DIE, 0.3)]}, {FIRST: [(*DIE, 0.5)], FINER: [(*small, 0.8)]})
    assert _detect() == [(*small, 0.8)]
    assert [s for v, s in made if v] == [FIRST, FINER, COARSER]


def test_a_second_pass_not_surer_by_the_margin_is_not_kept(passes):
    passes({FIRST: [(*DIE, 0.5)]}, {FIRST: [(*DIE, 0.5 + numerals.VARIED_MARGIN - 0.01)]})
    assert _detect() == [(*DIE, 0.5)]


def test_the_margin_is_over_every_pass_of_the_first(passes):
    """The finer probe (0.58) is kept over the first scale's 0.6 (PROBE_MARGIN); the second
    detector must be VARIED_MARGIN surer than 0.6, not than 0.58."""
    small = (100.0, 100.0, 22.4)  # 28 px at 1.25
    passes({FIRST: [(*DIE, 0.58)], FINER: [(*small, 0.6)]}, {FIRST: [(*DIE, 0.74)]})
    assert _detect() == [(*DIE, 0.58)]


def test_a_small_photo_is_read_by_the_second_detector_at_the_largest_scale(passes):
    """A 140 px photo's letterbox (2.29) is past MAX_SCALE: both detectors read it at 2.0."""
    die = (50.0, 50.0, 14.0)  # 28 px at 2.0
    made = passes({}, {2.0: [(*die, 0.9)]})
    assert _detect(100, 140) == [(*die, 0.9)]
    assert (True, 2.0) in made


def test_a_second_pass_below_its_floor_is_not_kept(passes):
    passes({FIRST: [(*DIE, 0.25)]}, {FIRST: [(*DIE, numerals.VARIED_MIN - 0.01)]})
    assert _detect() == [(*DIE, 0.25)]


def test_without_a_second_detector_the_first_passes_alone(passes):
    made = passes({FIRST: [(*DIE, 0.4)]}, None)
    assert _detect() == [(*DIE, 0.4)]
    assert not any(varied for varied, _ in made)


def test_a_kept_second_pass_is_measured_again_by_the_second_detector(passes):
    """Its dice of 40 px at 0.2 (8 px, far below the size learned) are read again at the scale
    that makes them LEARNED_SIDE (0.7), by the detector whose pass was kept."""
    die, again = (100.0, 100.0, 40.0), round(0.2 * numerals.LEARNED_SIDE / 8, 3)
    made = passes({}, {FIRST: [(*die, 0.3)], COARSER: [(*die, 0.8)], again: [(*die, 0.95)]})
    assert _detect() == [(*die, 0.95)]
    assert made[-1] == (True, again)


def test_a_second_detector_is_in_the_adaptations_fingerprint(monkeypatch, tmp_path):
    """An adaptation fitted while the reader had no second detector is refitted (vision.adapt)."""
    monkeypatch.setattr(numerals, "_VARIED", None)
    alone = NumberedBackend().fingerprint()
    (tmp_path / numerals.VARIED_DETECT_FILE).write_bytes(b"another network")
    monkeypatch.setattr(numerals, "_VARIED", Network(tmp_path / numerals.VARIED_DETECT_FILE, "numbered-dice detector"))
    assert NumberedBackend().fingerprint() != alone
