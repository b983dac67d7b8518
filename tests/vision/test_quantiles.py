"""vision.quantiles: numpy's percentiles and medians, value for value, on what the readers give them."""

from __future__ import annotations

import numpy as np
import pytest

from vision.quantiles import median, percentiles

QS = (0, 5, 10, 75, 90, 95, 99, 100)


def _samples():
    rng = np.random.default_rng(16)
    for n in (1, 2, 3, 4, 7, 48 * 48, 1999, 2000):
        yield rng.normal(0, 40, n).astype(np.float32)  # a* / b* of a die's pixels
        yield rng.integers(0, 256, n).astype(np.float32)  # grey levels: many ties
        yield rng.uniform(0, 100, (n, 1)).astype(np.float32)  # L*, not flat
        yield rng.normal(0, 40, n)  # float64


@pytest.mark.parametrize("values", list(_samples()), ids=lambda v: f"{v.dtype}x{v.size}")
def test_percentiles_and_median_are_numpys(values):
    theirs = [np.percentile(values, q) for q in QS]
    if np.asarray(theirs).dtype == np.float64:  # numpy 1, or float64 values: the same arithmetic
        assert percentiles(values, QS) == theirs
    else:  # numpy 2 keeps float32 values' percentiles in float32: equal to its precision
        np.testing.assert_allclose(percentiles(values, QS), theirs, rtol=1e-6, atol=1e-5)
    assert all(isinstance(p, np.float64) for p in percentiles(values, QS))
    assert median(values) == float(np.median(values))


def test_integer_values_and_the_input_left_as_it_was():
    values = np.array([7, 3, 250, 3, 9, 0], np.uint8)
    kept = values.copy()
    assert percentiles(values, (10, 50, 75)) == [np.percentile(values, q) for q in (10, 50, 75)]
    assert np.array_equal(values, kept)


@pytest.mark.parametrize("function", [lambda v: percentiles(v, (50,)), median])
def test_no_values_is_an_error(function):
    with pytest.raises(ValueError, match="no values"):
        function(np.zeros(0, np.float32))
