"""tools/render_dice.py and tools/render/: the 3D renders of training dice, their labels taken from the geometry."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from tools import face_synth, render_dice
from tools.render import floors, scene, solids, textures
from tools.render.camera import Camera

UP = np.array([0.0, 0.0, 1.0])


@pytest.mark.parametrize("kind, faces, numbered, corners", [
    ("d4-pyramid", 4, 4, 3), ("d4-long", 12, 4, 4), ("d6-pips", 6, 6, 4), ("d6-numerals", 6, 6, 4),
    ("d8", 8, 8, 3), ("d10", 10, 10, 4), ("d10-percentile", 10, 10, 4), ("d12", 12, 12, 5), ("d20", 20, 20, 3)])
def test_every_kind_is_its_polyhedron(kind, faces, numbered, corners):
    solid = solids.SOLIDS[kind]
    assert len(solid.faces) == faces
    assert len(solid.numbered) == numbered
    assert all(len(solid.faces[f]) == corners for f in solid.numbered)  # the d10's kites are flat
    centre = solid.vertices.mean(axis=0)
    for f in range(faces):  # every normal points outwards
        assert solid.normal(f) @ (solid.vertices[solid.faces[f]].mean(axis=0) - centre) > 0


@pytest.mark.parametrize("kind", solids.KINDS)
def test_a_die_at_rest_shows_the_face_opposite_the_one_it_lies_on(kind):
    solid = solids.SOLIDS[kind]
    rng = np.random.default_rng(7)
    for _ in range(20):
        turned = solid.vertices @ solids.rest(solid, rng, cocked=False).T
        up = solids.up_face(solid, turned)
        assert up is not None
        lying = [f for f in range(len(solid.faces)) if solid.normal(f, turned) @ UP < -0.999]
        assert len(lying) == 1
        if kind == "d4-pyramid":  # read at the top vertex: the one not on the floor's face
            assert up not in solid.faces[lying[0]]
            assert turned[up, 2] == pytest.approx(turned[:, 2].max())
        else:
            assert solid.normal(up, turned) @ UP > 0.999
            assert np.allclose(solid.normal(up, turned), -solid.normal(lying[0], turned))


@pytest.mark.parametrize("kind", solids.KINDS)
def test_a_cocked_die_has_no_up_face(kind):
    solid = solids.SOLIDS[kind]
    rng = np.random.default_rng(8)
    for _ in range(20):
        turned = solid.vertices @ solids.rest(solid, rng, cocked=True).T
        assert solids.up_face(solid, turned) is None


@pytest.mark.parametrize("kind", solids.KINDS)
def test_each_value_is_on_one_face_and_opposite_faces_add_up(kind):
    solid = solids.SOLIDS[kind]
    values = solids.values_of_faces(solid, np.random.default_rng(9))
    assert sorted(values.values()) == list(range(1, solid.sides + 1))
    if kind in ("d6-pips", "d8", "d12", "d20"):
        for f, v in values.items():
            opposite = max(values, key=lambda g: -(solid.normal(f) @ solid.normal(g)))
            assert v + values[opposite] == solid.sides + 1


def test_every_pip_of_a_pip_d6_lies_on_its_face():
    """A pip face's texture square is the face itself (it was the face's square turned 45°,
    which put the corner pips past the face's edges: a 4 or a 6 showed no pip or a 1)."""
    solid = solids.SOLIDS["d6-pips"]
    rng = np.random.default_rng(3)
    for _ in range(5):
        turned = solid.vertices @ solids.rest(solid, rng, cocked=False).T
        look = textures.random_look(rng)
        die = scene.Die(solid, look, turned, solids.values_of_faces(solid, rng), None)
        for f, face in enumerate(solid.faces):
            points = turned[face]
            texture, corners = scene._face_image(die, f, points, solid.normal(f, turned), rng)
            assert {tuple(c) for c in np.round(corners, 6)} == {tuple(p) for p in np.round(points, 6)}
            body = textures._body_texture(textures.Look(**{**vars(look), "marbled": 0.0,
                                                                 "speckled": 0.0}), rng)
            pips = textures.pip_texture(die.values[f], look, body)
            ink = (np.abs(pips - body).max(axis=2) > 40).astype(np.uint8)
            assert cv2.connectedComponents(ink)[0] - 1 == die.values[f]


def test_six_and_nine_are_marked_as_the_maker_marks_them():
    rng = np.random.default_rng(1)
    look = textures.random_look(rng)
    body = np.full((textures.TEXTURE, textures.TEXTURE, 3), 200, np.float32)
    for symbol in ("6", "9", "5"):
        plain = textures.symbol_texture(symbol, _look(look, "none"), body)
        for mark in ("underline", "dot"):
            marked = textures.symbol_texture(symbol, _look(look, mark), body)
            assert (np.abs(marked - plain).max() > 50) == (symbol != "5")


def _look(look, mark):
    return textures.Look(**{**look.__dict__, "mark": mark})


def test_a_dark_body_s_ink_stands_out_of_it():
    """A red die's numerals and pips were drawn red now and then: labelled with a value none could see."""
    rng = np.random.default_rng(4)
    for _ in range(400):
        look = textures.random_look(rng)
        assert np.abs(np.array(look.ink) - look.body).max() > textures.INK_CONTRAST


@pytest.mark.parametrize("font", [*face_synth.truetype_fonts()[:3], *textures.HERSHEY])
def test_numerals_are_drawn_centred_in_every_font(font):
    """Each numeral is drawn and centred, its strokes no blob (bold fonts too)."""
    look = textures.Look(np.full(3, 230.0), "white", (20.0, 20.0, 20.0), font, 0.06, 1.0, 0.0, 0.0, 0.0, "none")
    body = np.full((textures.TEXTURE, textures.TEXTURE, 3), 230, np.float32)
    for symbol in ("1", "8", "10"):
        ink = np.abs(textures.symbol_texture(symbol, look, body) - body).max(axis=2) > 100
        rows, cols = np.nonzero(ink)
        assert abs(rows.mean() - textures.TEXTURE / 2) < 6 and abs(cols.mean() - textures.TEXTURE / 2) < 8
        box = (rows.max() - rows.min() + 1) * (cols.max() - cols.min() + 1)
        assert 0.1 * box < ink.sum() < 0.75 * box, (symbol, ink.sum(), box)


def test_a_symbol_that_draws_nothing_leaves_the_face_bare():
    assert face_synth.numeral_mask(" ", "", 20, textures.HERSHEY[0], 1).max() == 0


def test_a_photo_s_labels_come_from_its_dice():
    rng = np.random.default_rng(11)
    seen_cocked = seen_flat = 0
    for _ in range(12):
        photo, labels = scene.render_photo(rng, cocked_share=0.3)
        h, w = photo.shape[:2]
        assert (w, h) in scene.RESOLUTIONS
        for label in labels:
            x0, y0, x1, y1 = label["box"]
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            assert x0 <= label["center"][0] <= x1 and y0 <= label["center"][1] <= y1
            assert label["cocked"] == (label["value"] is None)
            if label["cocked"]:
                seen_cocked += 1
            else:
                seen_flat += 1
                assert 1 <= label["value"] <= label["sides"]
            if label["kind"] == "d10" and label["value"] == 10:
                assert label["face"] == "0"
            if label["kind"] == "d10-percentile" and label["value"] is not None:
                assert label["face"] == f"{label['value'] % 10}0"
    assert seen_cocked and seen_flat


def test_a_render_is_the_same_for_the_same_seed():
    first = scene.render_photo(np.random.default_rng(5))
    again = scene.render_photo(np.random.default_rng(5))
    other = scene.render_photo(np.random.default_rng(6))
    assert np.array_equal(first[0], again[0]) and first[1] == again[1]
    assert first[0].shape != other[0].shape or not np.array_equal(first[0], other[0])


def test_a_die_stands_out_of_a_plain_floor():
    """Where a die's box is, the photo differs from the floor around it (the die was drawn)."""
    rng = np.random.default_rng(3)
    for _ in range(6):
        photo, labels = scene.render_photo(rng, kinds=("d20", "d6-pips"), max_dice=1)
        (label,) = labels
        x0, y0, x1, y1 = label["box"]
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        inside = photo[cy - 3:cy + 4, cx - 3:cx + 4].reshape(-1, 3).mean(0)
        floor = np.concatenate([photo[:y0].reshape(-1, 3), photo[y1:].reshape(-1, 3)]).mean(0)
        assert np.abs(inside - floor).max() > 5


def test_warm_light_is_redder_than_daylight():
    warm, day = floors._kelvin(2700), floors._kelvin(6500)
    assert warm[2] / warm[0] > 2 and 0.9 < day[2] / day[0] < 1.1


def test_the_command_writes_photos_and_labels(tmp_path, capsys, real_photos):
    floors = real_photos.folder("real-dice/byler-tray-d6")
    assert render_dice.main([str(tmp_path), "--photos", "3", "--seed", "2", "--kinds", "d12", "d20",
                             "--floors", str(floors)]) == 0
    data = json.loads((tmp_path / "labels.json").read_text())
    assert len(data["images"]) == 3
    for entry in data["images"]:
        image = cv2.imread(str(tmp_path / entry["file"]))
        assert image.shape[:2] == (entry["height"], entry["width"])
        assert {d["kind"] for d in entry["dice"]} <= {"d12", "d20"}
    assert "dice an hour on one core" in capsys.readouterr().out


def test_floor_patches_of_real_photos_hold_no_labelled_die(tmp_path, real_photos):
    image = np.full((300, 400, 3), 255, np.uint8)
    image[100:140, 150:190] = 0  # the one labelled die
    cv2.imwrite(str(tmp_path / "a.png"), image)
    (tmp_path / "labels.json").write_text(json.dumps({"images": [
        {"file": "a.png", "width": 400, "height": 300, "dice": [{"value": 1, "box": [150, 100, 190, 140]}]}]}))
    patches = floors.real_floor_patches([tmp_path], size=48)
    assert len(patches) >= 10 and all(p.shape == (48, 48, 3) and p.min() == 255 for p in patches)
    sample = floors.real_floor_patches([real_photos.folder("real-dice/byler-tray-d6")], size=48)
    assert sample


def test_a_floors_folder_without_labels_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        render_dice.main([str(tmp_path / "out"), "--floors", str(tmp_path)])
    assert stop.value.code == 2
    assert f"--floors {tmp_path}: no labels.json there" in capsys.readouterr().err


@pytest.mark.parametrize("share", [0.08, 0.3])
def test_the_share_of_cocked_dice_is_the_one_asked(share):
    """A cocked die fits the view more often than a flat one, so drawn once a try the share
    came out about twice the one asked (19 % of 1640 dice for 8 %)."""
    rng = np.random.default_rng(4)
    cocked = total = 0
    for _ in range(200):  # as render_photo's cameras: dice of 25 to 150 px; 100 left the share ±0.02 by chance
        w, h = scene.RESOLUTIONS[int(rng.integers(len(scene.RESOLUTIONS)))]
        focal, die_px = w * rng.uniform(0.55, 1.3), rng.uniform(25, min(150, min(w, h) / 3))
        camera = Camera.looking_down(math.radians(rng.uniform(0, 35)), 2.6 * focal / die_px, focal, (w, h), 0.0)
        dice = scene.place_dice(8, ("d6-pips",), camera, bool(rng.random() < 0.3), share, rng)
        cocked += sum(die.up is None for die in dice)
        total += len(dice)
    assert total > 400
    assert abs(cocked / total - share) <= 0.03
