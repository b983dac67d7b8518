"""How the pip reader puts its detector passes together (vision.tray.PipReader._detect), with
fakes of the two networks: each pass's candidates are given per scale, and each candidate's
crop is classified as given. A 640×480 photo is read first at 0.6 (384 px); an unsure first
pass is also read at 1.5 and 0.24 (PROBES); when all three are unsure, the varied detector
(VARIED_DETECT_FILE) at 0.6, then at 1.5 and 0.24."""

from __future__ import annotations

import numpy as np
import pytest

import vision.tray as tray
from vision.tray import COCKED, PipReader

FIRST, FINER, COARSER = 0.6, 1.5, 0.24


def _value(v: int) -> np.ndarray:
    """The classifier's probabilities of a die showing ``v``, sure."""
    p = np.full(COCKED + 1, 0.002)
    p[v] = 1.0 - 0.002 * COCKED
    return p


@pytest.fixture
def networks(monkeypatch):
    """``networks(passes, values, varied)``: a reader whose detector gives ``passes`` (scale →
    candidates (x, y, side, heat), photo pixels), whose varied detector gives ``varied`` (the
    same; it is asked for the scales it reads, ``reader.varied_scales``) and whose classifier
    reads the crop at (x, y, side) as ``values[(x, y, side)]`` (a value 1..6; a crop not given
    is floor)."""

    def make(passes: dict[float, list[tuple[float, float, float, float]]], values: dict[tuple, int],
             varied: dict[float, list[tuple[float, float, float, float]]] | None = None) -> PipReader:
        places = {place: k for k, place in enumerate(values, start=1)}
        reader = PipReader()
        assert reader._varied is not None  # the shipped folder holds it
        reader.varied_scales = []

        def one_pass(pyramid, scale, heat_min, detector):  # each pass made once a reading (_Looks.passes)
            if detector is reader._varied:
                reader.varied_scales.append(round(scale, 3))
                return [c for c in (varied or {}).get(round(scale, 3), []) if c[3] >= heat_min]
            return [c for c in passes.get(round(scale, 3), []) if c[3] >= heat_min]

        def crop(image, center, side, angle=0.0):
            return np.full((tray.CROP, tray.CROP, 3), places.get((*center, side), 0), np.uint8)

        def classify(crops):
            floor = np.eye(COCKED + 1)[0]
            by_id = {k: _value(values[place]) for place, k in places.items()}
            return np.stack([by_id.get(int(c[0, 0, 0]), floor) for c in crops])

        monkeypatch.setattr(reader, "_pass", one_pass)
        monkeypatch.setattr(reader, "classify", classify)
        monkeypatch.setattr(tray, "crop_die", crop)
        return reader

    return make


def _photo() -> np.ndarray:
    return np.random.default_rng(3).integers(0, 255, (480, 640, 3), dtype=np.uint8)  # sharp everywhere


def _read(reader: PipReader) -> list[tuple[tuple[float, float], int | None]]:
    return sorted((d.center, d.value) for d in reader.read(_photo(), named=False).dice)


def test_a_die_only_a_pass_not_kept_found_is_read(networks):
    """The finer pass is surer and kept, but finds two of the three dice the first pass saw
    weakly: the third is read too (before, only a coarser pass kept took the first's dice)."""
    a, b, c = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0), (500.0, 300.0, 45.0)
    reader = networks({FIRST: [(*a, 0.5), (*b, 0.5), (*c, 0.5)], FINER: [(*a, 0.95), (*b, 0.95)]},
                      {a: 3, b: 4, c: 6})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4), ((500.0, 300.0), 6)]


def test_a_die_of_another_size_from_a_pass_not_kept_is_not_added(networks):
    """A candidate of a pass not kept, read a die, but twice the kept dice's side (a cluster of
    them, or one die's pips seen as dice by the kept pass): not added beside them."""
    a, b, cluster = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0), (500.0, 300.0, 90.0)
    reader = networks({FIRST: [(*a, 0.5), (*b, 0.5), (*cluster, 0.5)], FINER: [(*a, 0.95), (*b, 0.95)]},
                      {a: 3, b: 4, cluster: 2})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4)]


def _face(center: tuple[float, float], side: float, count: int, pip: float) -> list[tuple[float, float, float]]:
    """``count`` pip candidates of side ``pip`` in the square of ``side`` around ``center``."""
    corners = [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0), (-1, 0), (1, 0)][:count]
    return [(center[0] + dx * side / 4, center[1] + dy * side / 4, pip) for dx, dy in corners]


def test_the_pips_of_a_near_die_read_as_ones_are_its_pips(networks):
    """A desk the networks never saw: the pass kept (the first) sees a near die's five pips as
    dice showing 1, a coarser pass the die, read 5, its side 2.5 times theirs (below PIP_RATIO):
    the die is read, not five 1s (penlington's phantoms read 1)."""
    die = (320.0, 240.0, 60.0)
    pips = _face(die[:2], die[2], 5, 24.0)
    reader = networks({FIRST: [(*p, 0.8) for p in pips], COARSER: [(*die, 0.6)]},
                      {die: 5, **{p: 1 for p in pips}})
    assert _read(reader) == [((320.0, 240.0), 5)]


def test_touching_small_dice_showing_1_are_not_taken_for_pips(networks):
    """Four small dice showing 1 inside a coarse candidate read 2: more ones than its value,
    so not its pips: the four dice are read."""
    cluster = (320.0, 240.0, 60.0)
    dice = _face(cluster[:2], cluster[2], 4, 24.0)
    reader = networks({FIRST: [(*d, 0.8) for d in dice], COARSER: [(*cluster, 0.6)]},
                      {cluster: 2, **{d: 1 for d in dice}})
    assert [value for _, value in _read(reader)] == [1, 1, 1, 1]


def test_the_varied_detector_reads_a_tray_the_first_is_unsure_of(networks):
    """Every pass of the first detector is unsure (a table it never learned: weak heat); the
    varied detector's pass at the first scale is sure, and its dice are read."""
    a, b, floor = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0), (500.0, 300.0, 45.0)
    reader = networks({FIRST: [(*floor, 0.6)], FINER: [(*a, 0.5)]}, {a: 3, b: 4},
                      varied={FIRST: [(*a, 0.95), (*b, 0.95)]})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4)]
    assert reader.varied_scales == [FIRST]  # sure at the first scale: no probe of its own


def test_the_varied_detector_is_not_run_when_the_first_is_sure(networks):
    a, b = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0)
    reader = networks({FIRST: [(*a, 0.95), (*b, 0.95)]}, {a: 3, b: 4}, varied={FIRST: [(*a, 0.95)]})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4)]
    assert reader.varied_scales == []


def test_an_unsure_varied_pass_probes_its_scales_and_loses_to_a_surer_first_pass(networks):
    """Both detectors unsure everywhere: the varied detector reads at the probes too, and the
    surest pass of all is kept, the first detector's here (a pass other than the first must be
    PROBE_MARGIN surer)."""
    a, b = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0)
    reader = networks({FIRST: [(*a, 0.7), (*b, 0.7)]}, {a: 3, b: 4}, varied={COARSER: [(*a, 0.72)]})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4)]
    assert sorted(reader.varied_scales) == [COARSER, FIRST, FINER]


def test_a_varied_pass_of_dice_smaller_than_learned_is_not_kept(networks):
    """The varied detector's surest pass sees 10-px "dice" (in the 384-px input: a numbered die's
    numerals read as pips) and its finer pass no surer: the first detector's pass is kept."""
    a = (300.0, 200.0, 45.0)
    specks = [(100.0 + 40 * k, 400.0, 10.0) for k in range(4)]
    reader = networks({FIRST: [(*a, 0.6)]}, {a: 5, **{s: 1 for s in specks}},
                      varied={FIRST: [(*s, 0.9) for s in specks], FINER: [(*s, 0.5) for s in specks]})
    assert _read(reader) == [((300.0, 200.0), 5)]


def test_a_varied_pass_must_be_surer_than_every_pass_of_the_first(networks):
    """The first detector's finer probe (0.7; 0.65 after the probe margin) is kept over its first
    pass; a varied pass 0.12 surer than that probe (less than VARIED_MARGIN) is not kept: the dice
    are where the probe put them."""
    a, b = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0)
    va, vb = (102.0, 100.0, 45.0), (302.0, 100.0, 45.0)
    reader = networks({FIRST: [(*a, 0.5)], FINER: [(*a, 0.7), (*b, 0.7)]}, {a: 3, b: 4, va: 3, vb: 4},
                      varied={FIRST: [(*va, 0.82), (*vb, 0.82)]})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4)]
    reader = networks({FIRST: [(*a, 0.5)], FINER: [(*a, 0.7), (*b, 0.7)]}, {a: 3, b: 4, va: 3, vb: 4},
                      varied={FIRST: [(*va, 0.86), (*vb, 0.86)]})  # 0.16 surer: kept
    assert _read(reader) == [((102.0, 100.0), 3), ((302.0, 100.0), 4)]


def test_a_die_only_a_varied_pass_not_kept_found_is_read(networks):
    """As a probe's (test_a_die_only_a_pass_not_kept_found_is_read): a die of the kept dice's
    size that only the varied detector found, read a value, is read too."""
    a, b, c = (100.0, 100.0, 45.0), (300.0, 100.0, 45.0), (500.0, 300.0, 45.0)
    reader = networks({FIRST: [(*a, 0.7), (*b, 0.7)]}, {a: 3, b: 4, c: 6}, varied={FIRST: [(*c, 0.6)]})
    assert _read(reader) == [((100.0, 100.0), 3), ((300.0, 100.0), 4), ((500.0, 300.0), 6)]


def test_a_varied_pass_must_be_sure_enough_where_the_first_finds_nothing(networks):
    """Blurred noise: the first detector finds nothing (strength 0), the varied one "dice" below
    VARIED_MIN: none is read."""
    specks = [(100.0 + 60 * k, 300.0, 45.0) for k in range(3)]
    reader = networks({}, {sp: 6 for sp in specks}, varied={FIRST: [(*sp, 0.55) for sp in specks]})
    assert _read(reader) == []


def test_a_varied_pass_of_dice_outside_the_learned_size_is_read_again_by_it_at_their_scale(networks):
    """The varied pass at the first scale sees dice of 80 px (input 48 px, above LEARNED_RANGE):
    it reads the photo again at their scale (0.35), and what it finds there is kept; the first
    detector is not asked at that scale."""
    a, b = (100.0, 100.0, 80.0), (300.0, 100.0, 80.0)
    refined = round(FIRST * tray.LEARNED_SIDE / (80.0 * FIRST), 3)
    reader = networks({FIRST: [(*a, 0.3)]}, {a: 2, b: 5},
                      varied={FIRST: [(*a, 0.9)], refined: [(*a, 0.95), (*b, 0.95)]})
    assert _read(reader) == [((100.0, 100.0), 2), ((300.0, 100.0), 5)]
    assert refined in reader.varied_scales
