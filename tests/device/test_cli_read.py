"""``dicelens read IMAGE…`` through a real subprocess: one JSON object per photo per line."""

from __future__ import annotations

import json
import os

import cv2
import numpy as np
import pytest

from .cli_run import dicelens

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


def test_read_prints_one_json_line_per_photo(tmp_path, four_ones):
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((480, 640, 3), np.uint8))
    done = dicelens("read", str(four_ones), str(black), "--annotate", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(four_ones), str(black)]
    first = lines[0]
    assert set(first) == {"file", "dice", "seconds"}
    assert first["seconds"] > 0
    assert len(first["dice"]) >= 3
    for die in first["dice"]:
        assert set(die) == {"value", "sides", "box", "color", "principal", "confidence", "unreadable", "kind", "face"}
        assert (die["kind"], die["sides"], die["face"]) == ("d6-pips", 6, None) and len(die["box"]) == 4
        assert die["value"] in (1, None)
    assert lines[1]["dice"] == []
    annotated = cv2.imread(str(tmp_path / "out" / (four_ones.stem + ".annotated.png")))
    assert annotated.shape == (480, 640, 3)


def test_principal_colour_is_passed_on(four_ones):
    done = dicelens("read", str(four_ones), "--principal-color", "red")
    assert done.returncode == 0, done.stderr
    assert not any(die["principal"] for die in json.loads(done.stdout)["dice"])


def test_unknown_colour_is_one_line_of_usage_error(four_ones):
    done = dicelens("read", str(four_ones), "--principal-color", "mauve")
    assert done.returncode == 2
    assert "unknown colour 'mauve'" in done.stderr and "Traceback" not in done.stderr


def test_not_an_image_is_reported_and_the_others_still_read(tmp_path, four_ones):
    text = tmp_path / "notes.txt"
    text.write_text("not a photo")
    done = dicelens("read", str(text), str(tmp_path / "missing.jpg"), str(four_ones))
    assert done.returncode == 2
    assert "notes.txt: not an image, or a damaged one" in done.stderr
    assert "missing.jpg: no such file" in done.stderr
    assert "Traceback" not in done.stderr
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(four_ones)]


def test_annotate_folder_that_is_a_file_is_one_line_before_any_reading(tmp_path, four_ones):
    afile = tmp_path / "notes.txt"
    afile.write_text("keep me")
    for folder, message in [(afile, f"--annotate: {afile} is not a folder"),
                            ("/dev/null", "--annotate: /dev/null is not a folder"),
                            (afile / "out", f"--annotate: cannot create {afile / 'out'}: {afile} is not a folder"),
                            ("/sys", "--annotate: cannot write into /sys: Permission denied")]:
        done = dicelens("read", str(four_ones), "--annotate", str(folder))
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr == f"dicelens: {message}\n"
    assert afile.read_text() == "keep me"


def test_annotate_creates_missing_folders_and_keeps_photos_of_the_same_name(tmp_path, four_ones):
    other = tmp_path / "other"
    other.mkdir()
    copy = other / four_ones.name
    copy.write_bytes(four_ones.read_bytes())
    out = tmp_path / "a" / "b"
    done = dicelens("read", str(four_ones), str(copy), "--annotate", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == [f"{four_ones.stem}-2.annotated.png", f"{four_ones.stem}.annotated.png"]


def test_every_wrong_image_argument_is_one_plain_line_and_the_others_still_read(tmp_path, four_ones):
    broken = tmp_path / "x.gif"
    broken.write_bytes(b"GIF89a")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    pipe = tmp_path / "pipe.jpg"
    os.mkfifo(pipe)  # opening it would wait for a writer for ever
    done = dicelens("read", str(broken), str(empty), str(pipe), str(tmp_path), str(tmp_path / "missing.png"), str(four_ones))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [  # no OpenCV log line ("[ERROR:0@0.1] global loadsave.cpp…")
        f"dicelens: {broken}: not an image, or a damaged one",
        f"dicelens: {empty}: empty file, not an image",
        f"dicelens: {pipe} is not a file (a pipe or a device), not an image",
        f"dicelens: {tmp_path} is a folder, not an image",
        f"dicelens: {tmp_path / 'missing.png'}: no such file",
    ]
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(four_ones)]


def test_a_photo_cut_short_is_damaged_and_the_others_still_read(tmp_path, four_ones):
    cut = tmp_path / "cut.jpg"
    data = four_ones.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    done = dicelens("read", str(cut), str(four_ones))
    assert done.returncode == 2
    # one line of ours, and libjpeg's own "Premature end of JPEG file" not printed
    assert done.stderr == f"dicelens: {cut}: damaged image (the file is cut short)\n"
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(four_ones)]


def test_an_annotated_copy_that_cannot_be_written_is_reported_and_the_reading_kept(tmp_path, four_ones):
    blocker = tmp_path / f"{four_ones.stem}.annotated.png"
    blocker.mkdir()  # a folder where the annotated photo would go
    done = dicelens("read", str(four_ones), "--annotate", str(tmp_path), "--principal-color", "RED")
    assert done.returncode == 2
    assert done.stderr == f"dicelens: --annotate: cannot write {blocker}: Is a directory\n"
    assert json.loads(done.stdout)["file"] == str(four_ones)
