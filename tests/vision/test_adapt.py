"""vision/adapt.py: the table's own layer over the shipped networks, on the committed sample."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import adapt, read_tray

BYLER = "real-dice/byler-tray-d6"


def _photos(real_photos, source=BYLER, change=lambda value: value):
    out = []
    for path, entry in zip(real_photos.photos(source), real_photos.labels(source).values(), strict=True):
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        out.append(adapt.TaughtPhoto(image, [adapt.example(d.get("kind"), change(d["value"]), d["box"], w, h)
                                             for d in entry["dice"]]))
    return out


def _values(reading):
    return [(d.box, d.value, d.unreadable) for d in reading.dice]


def test_no_examples_change_nothing(real_photos):
    photo = _photos(real_photos)[0]
    for taught in ([], [photo], [adapt.TaughtPhoto(photo.image, [])] * 3):
        adaptation = adapt.fit(taught, adapt.PipBackend())
        assert not adaptation.used and adaptation.why
        assert _values(adapt.read(photo.image, adaptation)) == _values(read_tray(photo.image))
    assert _values(adapt.read(photo.image, None)) == _values(read_tray(photo.image))


@pytest.mark.slow
def test_a_table_whose_dice_the_network_misreads_is_learned(real_photos):
    # A table whose dice show 7 - v where the network learned v (as dice whose faces it reads
    # wrong would): the shipped reader reads them wrong, the layer learns them.
    photos = _photos(real_photos, change=lambda value: 7 - value)
    adaptation = adapt.fit(photos, adapt.PipBackend())
    held, shipped = adapt.Figures(**adaptation.held_out), adapt.Figures(**adaptation.shipped)
    assert shipped.right < 0.1 * shipped.dice
    assert adaptation.used and held.right > 0.6 * held.dice
    assert adaptation.summary().startswith(f"{held.dice} examples of {len(photos)} photos; read right ")


@pytest.mark.slow
def test_the_saved_layer_reads_as_the_fitted_one_and_only_on_its_networks(real_photos, tmp_path):
    photos = _photos(real_photos, change=lambda value: 7 - value)
    adaptation = adapt.fit(photos[:6], adapt.PipBackend())
    assert adaptation.used
    adaptation.save(tmp_path)
    loaded = adapt.load(tmp_path)
    assert loaded is not None and loaded.to_dict() == adaptation.to_dict()
    image = photos[8].image
    assert _values(adapt.read(image, loaded)) == _values(adapt.read(image, adaptation))
    assert _values(adapt.read(image, loaded)) != _values(read_tray(image))
    loaded.fingerprint = "networks retrained since"
    assert _values(adapt.read(image, loaded)) == _values(read_tray(image))


def test_a_file_that_is_not_an_adaptation_is_refused(tmp_path):
    assert adapt.load(tmp_path) is None
    (tmp_path / adapt.FILE).write_text('{"version": 99}')
    with pytest.raises(adapt.ExampleError, match="not a dicelens adaptation"):
        adapt.load(tmp_path)


def test_a_value_never_taught_is_read_as_the_network_reads_it():
    rng = np.random.default_rng(1)
    n, c, f = 300, 7, 5
    targets = rng.choice([0, 1, 5], n)  # floor, ones and fives only
    offsets = np.log(np.full((n, c), 0.02))
    offsets[np.arange(n), targets] = np.log(0.88)
    features = np.hstack([offsets, rng.normal(size=(n, f))])
    head = adapt.fit_head(offsets, features, targets)
    assert list(head.taught) == [1, 5]
    three = np.log(np.array([[0.05, 0.05, 0.05, 0.7, 0.05, 0.05, 0.05]]))
    die_p, value_p = head.probs(three, np.hstack([three, rng.normal(size=(1, f))]))
    shipped = np.exp(three[0, 1:]) / np.exp(three[0, 1:]).sum()
    assert value_p[0] == pytest.approx(shipped)


@pytest.mark.parametrize(("kind", "value", "box", "message"), [
    ("d7", 1, [0, 0, 5, 5], "unknown kind 'd7'"),
    (None, 7, [0, 0, 5, 5], "value 7 is not a face of a d6-pips"),
    ("d10", True, [0, 0, 5, 5], "value True is not a face"),
    ("d20", 3, [0, 0, 5], "is not [x_min, y_min, x_max, y_max]"),
    ("d8-ornate", 3, [90, 0, 120, 5], "not inside the 100×50 photo"),
])
def test_an_example_the_reader_cannot_learn_is_refused(kind, value, box, message):
    with pytest.raises(adapt.ExampleError, match=message.replace("[", r"\[").replace("]", r"\]")):
        adapt.example(kind, value, box, 100, 50)


def test_the_datasets_kinds_are_the_readers():
    assert adapt.example("d8-ornate", 3, [0, 0, 5, 5], 10, 10).kind == "d8"
    assert adapt.example("d10", 10, [0, 0, 5, 5], 10, 10) == adapt.Example("d10", 10, (0.0, 0.0, 5.0, 5.0))
    assert adapt.example(None, 6, [0, 0, 5, 5], 10, 10).kind == "d6-pips"


class _WideDetector(adapt.PipBackend):
    """The shipped pip reader, but its detector sizes a die that fills the photo twice the
    photo (as the leave-one-source-out networks size patterson's crops of one die)."""

    def candidates(self, image, scale, heat):
        h, w = image.shape[:2]
        return [(w / 2, h / 2, 2 * max(h, w), 0.9)]


@pytest.mark.slow
def test_a_camera_framing_one_die_does_not_make_it_cut_off(real_photos):
    framed = []
    for photo in _photos(real_photos)[:3]:
        for die in photo.dice:
            x0, y0, x1, y1 = (round(v) for v in die.box)
            image = np.ascontiguousarray(photo.image[y0:y1, x0:x1])
            framed.append(adapt.TaughtPhoto(image, [adapt.Example("d6-pips", die.value, (0, 0, x1 - x0, y1 - y0))]))
    backend = _WideDetector()
    adaptation = adapt.fit(framed, backend)
    assert adaptation.cut_off is False
    assert adapt.Adaptation.from_dict(adaptation.to_dict()).cut_off is False
    adaptation.used = True  # whatever the held-out figure, the dice it reads are not cut off
    readings = [d for p in framed for d in adapt.read(p.image, adaptation, backend=backend).dice]
    assert readings and all(d.unreadable != "cut off" for d in readings)
    assert adapt.fit(_photos(real_photos)[:3], adapt.PipBackend()).cut_off is True


@pytest.mark.parametrize(("examples", "photos", "said"), [
    ({"d6-pips": {"3": 1}}, 1, "1 example of 1 photo; not used (why)"),
    ({"d6-pips": {"3": 1, "4": 1}}, 1, "2 examples of 1 photo; not used (why)"),
    ({"d6-pips": {"3": 1}, "d10": {"10": 2}}, 2, "3 examples of 2 photos; not used (why)"),
])
def test_the_summary_counts_in_the_singular_and_the_plural(examples, photos, said):
    assert adapt.Adaptation(examples=examples, photos=photos, why="why").summary() == said


def test_on_a_partial_photo_a_die_read_where_no_label_lies_is_no_phantom():
    """A roll's photo teaches only its corrected or tapped-in dice: the other dice on it are
    real, so the held-out figures score its labelled dice only."""
    from vision.reading import DieReading

    def reading(value, x):
        return DieReading(value=value, sides=6, box=(x, 0, x + 20, 20), center=(x + 10, 10), color="", confidence=1.0)

    readings, labels = [reading(3, 0), reading(5, 50)], [adapt.Example("d6-pips", 3, (0, 0, 20, 20))]
    whole, partial = adapt.Figures(), adapt.Figures()
    whole.add(readings, labels)
    partial.add(readings, labels, partial=True)
    assert (whole.dice, whole.right, whole.phantom) == (1, 1, 1)
    assert (partial.dice, partial.right, partial.phantom) == (1, 1, 0)
