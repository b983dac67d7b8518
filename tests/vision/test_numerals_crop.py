"""The numbered classifier's crops are cut at the scale it learned them at: the ``crop_scale`` a
network carries in its ONNX metadata (tools/train_numerals.py --crop-scale), 1.0 without it."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import vision.numerals as numerals
from vision.adapt_backend import NumberedBackend
from vision.network import Network

SHIPPED = numerals.MODELS / "numerals_classify.onnx"


def _with_crop_scale(folder, value: str) -> Network:
    """The shipped classifier with ``crop_scale`` ``value`` written into its metadata."""
    model = onnx.load(str(SHIPPED))
    onnx.helper.set_model_props(model, {"crop_scale": value})
    path = folder / "numerals_classify.onnx"
    onnx.save(model, str(path))
    return Network(path, "numbered-dice classifier")


@pytest.fixture
def wider(tmp_path) -> Network:
    return _with_crop_scale(tmp_path, "1.25")


@pytest.fixture
def photo() -> np.ndarray:
    rng = np.random.default_rng(5)
    return rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)


def test_a_network_gives_its_metadata(wider):
    assert wider.metadata() == {"crop_scale": "1.25"}
    assert "crop_scale" not in Network(SHIPPED, "numbered-dice classifier").metadata()


def test_the_crop_is_cut_at_the_classifiers_scale(monkeypatch, wider, photo):
    plain = numerals.classifier_crops(photo, [(160.0, 120.0, 40.0)])[0]
    assert np.array_equal(plain, numerals.crop_die(photo, (160.0, 120.0), 40.0))
    monkeypatch.setattr(numerals, "_CLASSIFIER", wider)
    crop = numerals.classifier_crops(photo, [(160.0, 120.0, 40.0)])[0]
    assert np.array_equal(crop, numerals.crop_die(photo, (160.0, 120.0), 40.0, scale=1.25))
    assert not np.array_equal(crop, plain)


def test_the_reader_and_the_adaptation_classify_those_crops(monkeypatch, wider, photo):
    monkeypatch.setattr(numerals, "_CLASSIFIER", wider)
    found = [(160.0, 120.0, 40.0, 0.9), (60.0, 60.0, 30.0, 0.5)]
    looks = numerals.Looks(photo)
    kinds, _ = looks(found)
    expected, _ = numerals.classify(np.stack([numerals.crop_die(photo, c[:2], c[2], scale=1.25) for c in found]))
    assert np.allclose(kinds, expected, atol=1e-5)
    crops = NumberedBackend().crops(photo, found)
    assert np.array_equal(crops[0], numerals.crop_die(photo, (160.0, 120.0), 40.0, scale=1.25))


@pytest.mark.parametrize("value", ["0", "-1", "nan", "wide"])
def test_a_crop_scale_that_is_no_scale_is_a_clear_error(monkeypatch, tmp_path, photo, value):
    monkeypatch.setattr(numerals, "_CLASSIFIER", _with_crop_scale(tmp_path, value))
    with pytest.raises(ValueError, match="crop_scale|could not convert"):
        numerals.classifier_crops(photo, [(160.0, 120.0, 40.0)])[0]
