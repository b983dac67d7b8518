"""The pip reader (vision/tray.py) on a handful of real photos of each scene, with their labels.

The shipped networks learned from every development photo, so the real photos here
check that the networks and the run-time code fit together (a regression check);
the figures on photos the networks never saw come from
benchmarks/vision_real_dice.py --folds.
"""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from vision.scoring import Score, load_labels, score_photo
from vision.tray import (
    CLASSIFY_FILE,
    CROP,
    DETECT_FILE,
    MODELS,
    VARIED_DETECT_FILE,
    PipReader,
    crop_die,
    detector_input,
    read_tray,
)

# (folder, photos taken, least share of dice read right, most phantoms per labelled die)
SCENES = [
    ("byler-tray-d6", 6, 0.9, 0.03),  # top-down tray, many colours, small dice touching
    ("penlington-desk-d6", 5, 0.9, 0.1),  # oblique webcam, white dice, side faces show
    ("patterson-craps-d6-crops", 10, 0.9, 0.0),  # translucent close-ups, logos, show-through pips
]


def _photos(real_photos, folder: str, count: int):
    photos = load_labels(real_photos.folder(f"real-dice/{folder}"))
    return photos[:: max(len(photos) // count, 1)][:count]


@pytest.mark.parametrize(("folder", "count", "least", "phantoms"), SCENES)
@pytest.mark.slow
def test_reads_real_photos(folder, count, least, phantoms, real_photos):
    score = Score()
    for path, entry in _photos(real_photos, folder, count):
        reading = read_tray(cv2.imread(str(path)))
        assert reading.size == (entry["width"], entry["height"])
        for die in reading.dice:
            assert die.sides == 6
            assert (die.value is None) == (die.unreadable is not None)
            assert die.value is None or 1 <= die.value <= 6
            assert 0.0 <= die.confidence <= 1.0
            x0, y0, x1, y1 = die.box
            assert 0 <= x0 < x1 <= entry["width"] and 0 <= y0 < y1 <= entry["height"]
        score.add(score_photo(reading.dice, entry["dice"])[0])
    assert score.correct >= least * score.labelled
    assert score.wrong <= 0.03 * score.labelled
    assert score.phantom <= phantoms * score.labelled


@pytest.mark.slow
def test_names_colours_and_marks_the_principal_die(real_photos):
    path, entry = _photos(real_photos, "byler-tray-d6", 6)[1]
    reading = read_tray(cv2.imread(str(path)))
    pairs = score_photo(reading.dice, entry["dice"])[1]
    matched = [(reading.dice[i], entry["dice"][j]) for i, j in pairs if i is not None and j is not None]
    assert sum(die.color == label["color"] for die, label in matched) >= 0.7 * len(matched)
    colour = matched[0][0].color
    reading = read_tray(cv2.imread(str(path)), principal_color=colour)
    marked = [die for die in reading.dice if die.principal]
    same = [die for die in reading.dice if die.color == colour]
    assert (len(marked) == 1) == (len(same) == 1)
    assert (reading.principal_note is None) == (len(same) == 1)
    json.dumps(reading.to_dict())


@pytest.mark.slow
def test_a_value_it_is_not_sure_of_is_unreadable_never_guessed(real_photos):
    path, _ = _photos(real_photos, "penlington-desk-d6", 6)[0]
    reading = PipReader(value_min=1.01).read(cv2.imread(str(path)))
    assert reading.dice
    assert all(die.value is None and die.unreadable == "ambiguous pips" for die in reading.dice)


def test_the_detector_threshold_decides_which_peaks_are_looked_at(real_photos):
    path, _ = _photos(real_photos, "byler-tray-d6", 6)[0]
    image = cv2.imread(str(path))
    low, high = PipReader(heat_min=0.1), PipReader(heat_min=0.999)
    found = low.detect(image)
    assert found and all(c[3] >= 0.1 for c in found)
    assert high.detect(image) == [] and high.read(image).dice == []


def test_the_detector_sees_the_photo_shrunk_to_384_pixels_never_enlarged():
    canvas, scale = detector_input(np.zeros((480, 640, 3), np.uint8))
    assert (canvas.shape, scale) == ((288, 384, 3), 0.6)
    canvas, scale = detector_input(np.zeros((67, 70, 3), np.uint8))
    assert (canvas.shape, scale) == ((80, 80, 3), 1.0)
    assert crop_die(np.zeros((67, 70, 3), np.uint8), (35, 33), 60).shape == (CROP, CROP, 3)


def test_a_grey_photo_is_read_too(real_photos):
    path, entry = _photos(real_photos, "patterson-craps-d6-crops", 10)[0]
    grey = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY)
    assert read_tray(grey).size == (entry["width"], entry["height"])


def test_the_shipped_reader_reads_with_the_varied_detector_too():
    assert PipReader().files == [MODELS / DETECT_FILE, MODELS / CLASSIFY_FILE, MODELS / VARIED_DETECT_FILE]


def test_missing_networks_are_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="pips_detect.onnx"):
        PipReader(tmp_path).read(np.full((64, 64, 3), 120, np.uint8))


@pytest.mark.slow
def test_the_detector_runs_without_the_classifier(tmp_path, real_photos):
    # tools/train_pips.py mines hard negatives with a detector before any classifier exists,
    # in one pass (the reader's other passes ask the classifier whether dice were found)
    shutil.copy(MODELS / DETECT_FILE, tmp_path)
    path, _ = _photos(real_photos, "byler-tray-d6", 1)[0]
    image = cv2.imread(str(path))
    reader = PipReader(tmp_path, single_pass=True)
    assert reader.files == [tmp_path / DETECT_FILE, tmp_path / CLASSIFY_FILE]  # no varied detector in it
    assert len(reader.detect(image, heat_min=0.2)) >= len(reader.detect(image)) > 0
    with pytest.raises(FileNotFoundError, match="pips_classify.onnx"):
        reader.read(image)
