"""The commands that open a data folder (trial faults 1 and 2): a damaged history is one plain
line and status 2, as ``serve`` says it, never a traceback; and ``export-examples``, which only
reads, never makes or changes anything in the folder it reads."""

from __future__ import annotations

import json

import cv2

from device.examples import Examples, TaughtFile
from device.history import History
from vision import adapt

from .cli_run import dicelens

BYLER = "real-dice/byler-tray-d6"
DAMAGED = "the history database {data}/history.sqlite3 is damaged: file is not a database"


def _snapshot(folder):
    """Every file under ``folder`` with its bytes (a folder as None)."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes() for p in sorted(folder.rglob("*"))}


def _taught(data, real_photos):
    """``data`` with the first byler photo's dice as examples (no fit: nothing reads them here)."""
    name, entry = next(iter(real_photos.labels(BYLER).items()))
    photo = real_photos.folder(BYLER) / name
    image = cv2.imread(str(photo))
    dice = [adapt.example(None, die["value"], die["box"], image.shape[1], image.shape[0]) for die in entry["dice"]]
    with Examples(data) as examples:
        examples.add([TaughtFile(photo.read_bytes(), ".jpg", image, name, dice)], who="Ana")
    return len(dice)


def test_a_damaged_history_is_one_line_for_every_command_that_opens_it(tmp_path, real_photos):
    data = tmp_path / "data"
    data.mkdir()
    (data / "history.sqlite3").write_text("junk\n")
    labels = real_photos.folder(BYLER) / "labels.json"
    for command in (["export-examples", "--data", str(data), str(tmp_path / "out")],
                    ["teach", str(labels), "--data", str(data)]):
        done = dicelens(*command)
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr == (f"dicelens: --data: {DAMAGED.format(data=data)} (the file was left as it is; "
                               "move it aside to start a new history)\n")
    assert _snapshot(data) == {"history.sqlite3": b"junk\n"}
    assert not (tmp_path / "out").exists()


def test_export_from_a_folder_with_no_history_is_refused_and_makes_nothing(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    data.mkdir()
    done = dicelens("export-examples", "--data", str(data), str(out))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"dicelens: --data: {data} holds no history (history.sqlite3), so no examples: "
                           "give the data folder of a dicelens serve, or one dicelens teach wrote\n")
    assert list(data.iterdir()) == [] and not out.exists()


def test_export_reads_the_data_folder_and_changes_nothing_in_it(tmp_path, real_photos):
    data, out = tmp_path / "data", tmp_path / "out"
    dice = _taught(data, real_photos)
    before = _snapshot(data)
    done = dicelens("export-examples", "--data", str(data), str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"photos": 1, "dice": dice, "out": str(out)}
    assert _snapshot(data) == before  # no -wal or -shm left, nothing migrated or removed


def test_export_of_a_history_without_examples_reads_none_and_leaves_it_as_it_was(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    History(data).close()  # a server's history before any example: no examples table
    before = _snapshot(data)
    done = dicelens("export-examples", "--data", str(data), str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"photos": 0, "dice": 0, "out": str(out)}
    assert json.loads((out / "labels.json").read_text())["images"] == []
    assert _snapshot(data) == before
