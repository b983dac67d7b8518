"""tools/quantize_networks.py's calibration inputs: the rows the readers really feed a network."""

from __future__ import annotations

import random

import numpy as np

from tools.quantize_networks import Rows, captured_rows
from vision import network


def test_the_rows_are_what_the_reader_feeds_the_network_named(real_photos):
    photos = real_photos.photos("real-dice/byler-tray-d6")[:2]
    original = network.Network._run
    fed = []

    def spy(self, rows, blob):
        if self.path.name == "pips_classify.onnx":
            fed.extend(blob(rows))
        return original(self, rows, blob)

    network.Network._run = spy
    try:
        rows = captured_rows("pips_classify.onnx", photos, 10_000, random.Random(0))
    finally:
        network.Network._run = original
    assert network.Network._run is original  # the wrapper is taken away again
    assert len(rows) == len(fed) > 0
    assert all(r.shape == (1, 3, 40, 40) and r.dtype == np.float32 for r in rows)
    assert all(np.array_equal(r[0], f) for r, f in zip(rows, fed, strict=True))
    assert -1.0 <= min(r.min() for r in rows) and max(r.max() for r in rows) <= 1.0


def test_a_seeded_sample_keeps_at_most_the_rows_asked_and_is_the_same_each_time(real_photos):
    photos = real_photos.photos("real-dice/byler-tray-d6")[:2]
    first = captured_rows("pips_classify.onnx", photos, 3, random.Random(5))
    again = captured_rows("pips_classify.onnx", photos, 3, random.Random(5))
    assert len(first) == 3
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert captured_rows("no_such_network.onnx", photos, 3, random.Random(5)) == []


def test_the_calibration_reader_gives_each_row_once_then_none():
    rows = [np.zeros((1, 3, 4, 4), np.float32), np.ones((1, 3, 4, 4), np.float32)]
    reader = Rows("input", rows)
    assert reader.get_next()["input"] is rows[0]
    assert reader.get_next()["input"] is rows[1]
    assert reader.get_next() is None
