"""The face-value network (vision/faces.py): a d12's and d20's numeral, on real dice it never saw."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.face_synth import draw_face
from vision import faces, numerals, read_dice
from vision.faces import FACE_CROP, TURNED, TURNS, best_numeral, face_crop, read_face, turned_crops
from vision.network import Network
from vision.numerals import FACE_MIN

BURKS = "real-polyhedral/burks-tray-polyhedral"
LURIG = "real-d20/lurig-platform-d20"
SIDES = {"d12": 12, "d20": 20}


def test_the_surest_turn_gives_the_numeral_and_a_value_beyond_the_die_is_never_read():
    odds = np.full((TURNS, TURNED), 0.01, np.float32)
    odds[3, 16] = 0.6  # 17, turned 90°: not on a d12
    odds[5, 10] = 0.5  # 11
    odds[7, 4] = 0.1  # 5: 0.45 of its turn, less than 11 in its own (0.55)
    odds[5, TURNED - 1] = 0.3  # and "turned" in 11's crop
    assert best_numeral(odds, 20)[0] == 17
    numeral, sure = best_numeral(odds, 12)
    assert numeral == 11
    # the probability is among the die's own numerals and "turned": 0.5 of 0.5 + 11 × 0.01 + 0.3
    assert sure == pytest.approx(0.5 / (0.5 + 11 * 0.01 + 0.3))


def test_a_crop_shows_the_middle_of_the_die_and_turns_with_the_angle():
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (150, 60), (170, 100), (255, 255, 255), -1)  # a bar above the die's centre
    crops = turned_crops(image, (160, 110), 100)
    assert crops.shape == (TURNS, FACE_CROP, FACE_CROP, 3) and crops.dtype == np.uint8
    upright, quarter = crops[0, :, :, 0], crops[TURNS // 4, :, :, 0]  # 0° and 90° counter-clockwise
    assert upright[: FACE_CROP // 2].mean() > 50 and upright[FACE_CROP // 2:].mean() < 5
    assert quarter[:, : FACE_CROP // 2].mean() > 50 and quarter[:, FACE_CROP // 2:].mean() < 5
    # the edge of the photo is repeated, never black, for a die at its edge
    edge = face_crop(np.full((50, 50, 3), 200, np.uint8), (2, 2), 40)
    assert edge.min() == 200


@pytest.mark.parametrize("sides", [12, 20])
def test_reads_drawn_faces_of_every_numeral_turned_any_way(sides):
    # faces drawn from another seed than the network learned from, then turned: most read right,
    # and of those read sure, none wrong
    rng = np.random.default_rng(7)
    right = sure_wrong = 0
    for value in range(1, sides + 1):
        face = draw_face(value, sides, 96, rng)
        turned = cv2.warpAffine(face, cv2.getRotationMatrix2D((48, 48), float(rng.uniform(0, 360)), 1.0),
                                (96, 96), borderMode=cv2.BORDER_REFLECT)
        numeral, sure = read_face(turned, (48, 48), 96 / faces.FACE_SPAN, sides)
        right += numeral == value
        sure_wrong += numeral != value and sure >= FACE_MIN
    assert right >= 0.75 * sides
    assert sure_wrong == 0


@pytest.mark.slow
def test_real_d12s_and_d20s_it_never_saw_are_read_right_or_not_at_all(real_photos):
    read = wrong = total = 0
    for source in (BURKS, LURIG):
        for name, entry in real_photos.labels(source).items():
            image = cv2.imread(str(real_photos.photo(source, name)))
            for die in entry["dice"]:
                if die["kind"] not in SIDES:
                    continue
                x0, y0, x1, y1 = die["box"]
                numeral, sure = read_face(image, ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0),
                                          SIDES[die["kind"]])
                total += 1
                read += sure >= FACE_MIN and numeral == die["value"]
                wrong += sure >= FACE_MIN and numeral != die["value"]
    assert total == 8
    assert wrong == 0
    assert read >= 4


@pytest.mark.slow
def test_a_reading_reads_each_face_once(real_photos, monkeypatch):
    """read_dice asks for a d12's or d20's value in several passes: the face-value network runs
    once a die (numerals.Looks.face), ~10 ms each."""
    asked: list[tuple] = []

    def counted(image, center, side, sides):
        asked.append((center, side, sides))
        return read_face(image, center, side, sides)

    monkeypatch.setattr(numerals, "read_face", counted)
    for source in (BURKS, LURIG):
        for name in real_photos.labels(source):
            asked.clear()
            read_dice(cv2.imread(str(real_photos.photo(source, name))))
            assert len(asked) == len(set(asked))


def test_a_die_of_more_numerals_than_learned_is_refused():
    with pytest.raises(ValueError, match="d30"):
        read_face(np.zeros((100, 100, 3), np.uint8), (50, 50), 60, 30)


def test_a_missing_network_file_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(faces, "_NETWORK", Network(tmp_path / "faces_value.onnx", "face-value network"))
    with pytest.raises(FileNotFoundError, match="faces_value.onnx"):
        read_face(np.zeros((100, 100, 3), np.uint8), (50, 50), 60, 20)
