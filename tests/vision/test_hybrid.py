"""The learned classifier's second look at the hand-tuned reader's dice (vision/hybrid.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision import DieReading, read_tray
from vision.hybrid import NOT_A_DIE, VALUE_MIN, second_look
from vision.pips_learned import CROP
from vision.scoring import load_labels

DATASETS = Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets" / "real-dice"


class FixedClassifier:
    """Answers the given probabilities (background, 1..6) for the crops, in order."""

    def __init__(self, *probs: list[float]) -> None:
        self.probs = np.array(probs, float)
        self.asked = 0

    def classify(self, crops: np.ndarray) -> np.ndarray:
        assert crops.shape[1:] == (CROP, CROP, 3)
        self.asked += len(crops)
        return self.probs[: len(crops)] if len(self.probs) else np.tile([1.0] + [0.0] * 6, (len(crops), 1))


def _die(value, unreadable=None, x=50):
    return DieReading(value=value, sides=6, box=(x - 20, 30, x + 20, 70), center=(float(x), 50.0),
                      color="white", confidence=0.5, unreadable=unreadable)


def test_a_sure_value_settles_an_ambiguous_die_an_unsure_one_does_not():
    image = np.full((100, 300, 3), 90, np.uint8)
    sure, unsure, read = _die(None, "ambiguous pips", 50), _die(None, "ambiguous pips", 150), _die(3, x=250)
    classifier = FixedClassifier([0.0, 0, 0, 0, VALUE_MIN + 0.01, 0, 1 - VALUE_MIN - 0.01],
                                 [0.0, 0.5, 0.5, 0, 0, 0, 0], [0.0, 0, 0, 0, 0, 0, 1.0])
    dice = second_look(image, [sure, unsure, read], classifier)
    assert [(d.value, d.unreadable) for d in dice] == [(4, None), (None, "ambiguous pips"), (3, None)]
    assert dice[0].confidence > VALUE_MIN


def test_a_crop_likelier_background_drops_the_die_and_cut_off_dice_are_not_asked():
    image = np.full((100, 300, 3), 90, np.uint8)
    phantom, die, cut = _die(2, x=50), _die(5, x=150), _die(None, "cut off", x=280)
    classifier = FixedClassifier([NOT_A_DIE, 0.5, 0, 0, 0, 0, 0], [NOT_A_DIE - 0.01, 0, 0, 0, 0, 0.49, 0.5])
    assert second_look(image, [phantom, die, cut], classifier) == [die, cut]
    assert classifier.asked == 2
    assert die.value == 5  # a die already read keeps the hand-tuned value


def test_read_tray_takes_the_second_look_with_the_reader_given():
    path, _ = load_labels(DATASETS / "byler-tray-d6")[0]
    image = cv2.imread(str(path))
    assert read_tray(image).dice
    everything_background = FixedClassifier()
    assert [d for d in read_tray(image, pip_reader=everything_background).dice if d.unreadable != "cut off"] == []
    assert everything_background.asked > 0
