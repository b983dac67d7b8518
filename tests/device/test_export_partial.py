"""``dicelens export-examples`` of a roll's photo, whose other dice are no example: the photo
is marked ``"partial": true`` (the roll's saved dice tell), its dice are written in the
datasets' labels.json schema, and ``dicelens teach`` reads it back as partial, so the
adaptation's held-out figures do not count the real, unlabelled dice as phantoms."""

from __future__ import annotations

import json

from device.cli import main
from device.controller import Controller
from device.examples import Examples
from device.presets import build_presets

from .controller_fakes import die, fakes, photo


def _roll_with_a_die_tapped_in(tmp_path, history, reader, clock, everything=False) -> None:
    controller = Controller(build_presets(), history, **fakes(reader), clock=clock, refit_seconds=3600)
    try:
        controller.arm("free")
        controller.on_settled(photo(reader, die(3, "red", 100, 100, principal=True), die(2, "white", 300, 100)),
                              clock.tick())
        roll = controller.state()["latest_roll"]
        controller.add_die(roll["id"], 450, 300, 5)  # the die the reader missed: the one example
        if everything:                               # every die of the photo an example too
            controller.correct(roll["id"], 0, value=4)
            controller.correct(roll["id"], 1, value=6)
    finally:
        controller.close()


def test_a_rolls_photo_is_exported_partial_and_taught_back_as_partial(tmp_path, history, reader, clock, capsys):
    _roll_with_a_die_tapped_in(tmp_path, history, reader, clock)
    with Examples(tmp_path) as examples:
        assert [e["partial"] for e in examples.export()] == [True]
        assert [p.partial for p in examples.taught_photos()] == [True]
    out = tmp_path / "out"
    assert main(["export-examples", "--data", str(tmp_path), str(out)]) == 0
    [image] = json.loads((out / "labels.json").read_text())["images"]
    assert image["partial"] is True and (image["width"], image["height"]) == (640, 480)
    [label] = image["dice"]
    assert {key: label[key] for key in ("value", "sides", "box", "color")} == \
        {"value": 5, "sides": 6, "box": [420.0, 270.0, 480.0, 330.0], "color": None}
    assert "kind" not in label  # the datasets name no kind for a pip d6
    fresh = tmp_path / "fresh"
    capsys.readouterr()
    assert main(["teach", str(out / "labels.json"), "--data", str(fresh)]) == 0
    with Examples(fresh) as examples:
        assert [(p.partial, [d.value for d in p.dice]) for p in examples.taught_photos()] == [(True, [5])]


def test_a_rolls_photo_whose_every_die_is_an_example_is_whole(tmp_path, history, reader, clock):
    _roll_with_a_die_tapped_in(tmp_path, history, reader, clock, everything=True)
    with Examples(tmp_path) as examples:
        assert [e["partial"] for e in examples.export()] == [False, False, False]
        assert [p.partial for p in examples.taught_photos()] == [False]


def test_a_rolls_photo_stays_partial_once_the_history_is_cleared(tmp_path, history, reader, clock):
    _roll_with_a_die_tapped_in(tmp_path, history, reader, clock, everything=True)
    history.clear()  # the roll's dice are not known any more: its photo may hold others
    with Examples(tmp_path) as examples:
        assert [p.partial for p in examples.taught_photos()] == [True]


def test_teach_refuses_a_partial_that_is_not_true_or_false(tmp_path, history, reader, clock, capsys):
    _roll_with_a_die_tapped_in(tmp_path, history, reader, clock)
    out = tmp_path / "out"
    assert main(["export-examples", "--data", str(tmp_path), str(out)]) == 0
    labels = json.loads((out / "labels.json").read_text())
    labels["images"][0]["partial"] = "yes"
    (out / "labels.json").write_text(json.dumps(labels))
    capsys.readouterr()
    assert main(["teach", str(out / "labels.json"), "--data", str(tmp_path / "fresh")]) == 2
    name = labels["images"][0]["file"]
    assert capsys.readouterr().err == f"dicelens: {out / 'labels.json'}: {name}: partial must be true or false, not 'yes'\n"


def test_numbered_dice_are_exported_with_the_datasets_kinds_and_taught_back_as_theirs(tmp_path, capsys):
    import cv2
    import numpy as np

    from device.examples import TaughtFile
    from vision import adapt

    image = np.full((200, 300, 3), 90, np.uint8)
    data = cv2.imencode(".png", image)[1].tobytes()
    dice = [adapt.Example("d6", 4, (10, 10, 50, 50)), adapt.Example("d10", 10, (60, 10, 100, 50)),
            adapt.Example("d4", 2, (110, 10, 150, 50)), adapt.Example("d20", 17, (160, 10, 200, 50))]
    with Examples(tmp_path / "data") as examples:
        examples.add([TaughtFile(data, ".png", image, "a.png", dice)])
    out = tmp_path / "out"
    assert main(["export-examples", "--data", str(tmp_path / "data"), str(out)]) == 0
    [image_labels] = json.loads((out / "labels.json").read_text())["images"]
    assert image_labels["partial"] is False
    assert [(d.get("kind"), d["sides"], d["value"]) for d in image_labels["dice"]] == \
        [("d6-numerals", 6, 4), ("d10", 10, 10), ("d4-long", 4, 2), ("d20", 20, 17)]
    assert main(["teach", str(out / "labels.json"), "--data", str(tmp_path / "again")]) == 0
    with Examples(tmp_path / "again") as examples:
        assert [(e["kind"], e["value"]) for e in examples.export()] == [(d.kind, d.value) for d in dice]
