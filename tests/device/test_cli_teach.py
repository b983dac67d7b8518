"""``dicelens teach LABELS.json --data DIR`` and ``dicelens read --data DIR``: the table's own
dice taught from the committed sample (tests/data), kept across runs, refused in one line."""

from __future__ import annotations

import json
import shutil

import pytest

from device import examples as examples_module
from device.cli import main
from device.examples import Examples
from vision import adapt, tray

from .cli_run import dicelens

pytestmark = pytest.mark.slow  # each test fits a layer over real photos

BYLER = "real-dice/byler-tray-d6"


def _labels(tmp_path, real_photos, source=BYLER, count=4, name="labels.json", change=None):
    """A labels.json of the sample's first ``count`` photos of ``source`` (their files by full
    path), each entry passed through ``change`` first."""
    folder = real_photos.folder(source)
    entries = [dict(entry, file=str(folder / entry["file"])) for entry in list(real_photos.labels(source).values())[:count]]
    if change:
        entries = [change(json.loads(json.dumps(e))) for e in entries]
    path = tmp_path / name
    path.write_text(json.dumps({"source": "test", "images": entries}))
    return path


def _teach(labels, data, capsys, who="Ana"):
    status = main(["teach", str(labels), "--data", str(data), "--who", who])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_teach_keeps_every_die_and_says_what_it_learned(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    status, out, err = _teach(_labels(tmp_path, real_photos), data, capsys)
    assert status == 0, err
    dice = sum(len(e["dice"]) for e in list(real_photos.labels(BYLER).values())[:4])
    said = json.loads(out)
    assert (said["taught"], said["photos"], said["new"], said["examples"]) == (dice, 4, dice, dice)
    assert sum(said["by_value"]["d6-pips"].values()) == dice and set(said["lacking"]) == {"d6-pips"}
    assert said["held_out"]["dice"] == said["shipped"]["dice"] == dice
    assert "read right " in said["summary"] and " % without" in said["summary"]  # with and without
    saved = adapt.load(data)
    assert saved is not None and saved.family == "pips" and saved.photos == 4
    with Examples(data) as examples:  # a new connection: what a restart sees
        kept = examples.export()
    assert len(kept) == dice
    assert {e["who"] for e in kept} == {"Ana"}
    assert all(e["kind"] == "d6-pips" and 1 <= e["value"] <= 6 and e["at"] for e in kept)
    assert all((data / e["photo"]).is_file() for e in kept)


def test_teaching_again_adds_no_die_twice_and_a_new_value_replaces_the_old(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    labels = _labels(tmp_path, real_photos, count=2)
    assert _teach(labels, data, capsys)[0] == 0
    with Examples(data) as examples:
        before = examples.export()

    def relabelled(entry):
        entry["dice"][0]["value"] = 7 - entry["dice"][0]["value"]
        return entry

    status, out, _ = _teach(_labels(tmp_path, real_photos, count=2, name="fixed.json", change=relabelled), data, capsys,
                            who="Bia")
    said = json.loads(out)
    assert status == 0 and (said["new"], said["corrected"], said["unchanged"]) == (0, 2, len(before) - 2)
    with Examples(data) as examples:
        after = examples.export()
    assert len(after) == len(before)
    changed = [(b["value"], a["value"]) for b, a in zip(before, after, strict=True) if b["value"] != a["value"]]
    assert len(changed) == 2 and all(old + new == 7 for old, new in changed)
    # a correction says who made it; the dice taught as they were keep who taught them
    assert [a["who"] for a in after] == ["Bia" if a["value"] != b["value"] else "Ana"
                                         for b, a in zip(before, after, strict=True)]


def test_teaching_the_same_labels_again_changes_nothing(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    labels = _labels(tmp_path, real_photos, count=3)
    assert _teach(labels, data, capsys)[0] == 0
    with Examples(data) as examples:
        before = examples.export()
    for row in before:  # an earlier day's teaching: a re-teach that rewrote "at" would show it
        assert row["at"] > "2001-01-01"
    with Examples(data) as examples, examples._db:
        examples._db.execute("UPDATE examples SET at = '2001-01-01T00:00:00+00:00'")
        before = examples.export()
    status, out, err = _teach(labels, data, capsys, who="Bia")
    said = json.loads(out)
    assert status == 0, err
    assert (said["taught"], said["new"], said["corrected"], said["unchanged"]) == (len(before), 0, 0, len(before))
    with Examples(data) as examples:
        assert examples.export() == before  # who, at, kind, value: all as they were


def _moved(box, by=3):
    return [box[0] + by, box[1] + by, box[2] + by, box[3] + by]


def test_two_labels_on_one_die_with_different_values_are_refused(tmp_path, real_photos, capsys):
    third = list(real_photos.labels(BYLER))[2]  # a photo the good labels of _refused do not teach

    def doubled(entry):
        if entry["file"].endswith(third):
            die = entry["dice"][0]
            entry["dice"].append(dict(die, value=7 - die["value"], box=_moved(die["box"])))
        return entry
    count = len(real_photos.labels(BYLER)[third]["dice"])
    _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, count=3, name="two.json", change=doubled),
             "two.json", f"{third} die {count + 1} lies on die 1 of the same photo", "one die shows one face")


def test_a_label_on_a_die_taught_as_another_value_is_refused(tmp_path, real_photos, capsys):
    def moved(entry):
        die = entry["dice"][1]
        entry["dice"][1] = dict(die, value=7 - die["value"], box=_moved(die["box"]))
        return entry
    _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, count=2, name="moved.json", change=moved),
             "moved.json", "die 2 lies on a die taught before", "one die shows one face")


def test_the_labels_of_another_photo_of_the_same_size_are_taught_with_a_warning(tmp_path, real_photos, capsys):
    """Never refused (the shipped reader that judges them misses a new table's dice), but said."""
    folder = real_photos.folder(BYLER)
    names = list(real_photos.labels(BYLER))
    entry = dict(real_photos.labels(BYLER)[names[0]], file=str(folder / names[1]))  # photo 0's labels on photo 1
    labels = tmp_path / "other.json"
    labels.write_text(json.dumps({"images": [entry]}))
    status, out, err = _teach(labels, tmp_path / "data", capsys)
    assert status == 0 and json.loads(out)["new"] == len(entry["dice"])
    assert len(err.splitlines()) == 1 and err.startswith("dicelens: warning: ")
    assert names[1] in err and "check that they are this photo's" in err
    assert "none of them where its 12 labels are" in err, err  # not "only 0 of them"
    good = _labels(tmp_path, real_photos, count=1, name="good.json")
    status, out, err = _teach(good, tmp_path / "fresh", capsys)
    assert status == 0 and err == ""  # a photo's own labels: no warning


def test_one_shipped_reading_of_each_photo_judges_its_labels_and_serves_the_fit(tmp_path, real_photos, capsys,
                                                                                 monkeypatch):
    # the misfit check reads the photo as the fit's comparison with the shipped reader does:
    # the fit's reading serves both (the real pip reader, its calls counted by photo)
    folder = real_photos.folder(BYLER)
    names = list(real_photos.labels(BYLER))
    entries = [dict(real_photos.labels(BYLER)[names[0]], file=str(folder / names[1])),  # photo 0's labels on 1
               dict(real_photos.labels(BYLER)[names[2]], file=str(folder / names[2]))]
    labels = tmp_path / "two.json"
    labels.write_text(json.dumps({"images": entries}))
    reads = []
    original = tray.PipReader.read

    def counted(self, image, *args, **kwargs):
        reads.append(image.tobytes())
        return original(self, image, *args, **kwargs)

    monkeypatch.setattr(tray.PipReader, "read", counted)
    status, out, err = _teach(labels, tmp_path / "data", capsys)
    assert status == 0 and json.loads(out)["examples_photos"] == 2
    assert len(err.splitlines()) == 1 and names[1] in err and "check that they are this photo's" in err
    assert len(reads) == 2 and len(set(reads)) == 2  # each photo read once


def _refused(tmp_path, real_photos, capsys, labels, *words):
    """Teach good labels, then ``labels``: refused in one line naming ``words``, status 2,
    the examples and the adaptation as they were."""
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=2, name="good.json"), data, capsys)[0] == 0
    saved = (data / adapt.FILE).read_bytes()
    with Examples(data) as examples:
        before = examples.export()
    status, out, err = _teach(labels, data, capsys)
    assert status == 2
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("dicelens: ")
    for word in words:
        assert word in err
    with Examples(data) as examples:
        assert examples.export() == before
    assert (data / adapt.FILE).read_bytes() == saved
    return err


def test_labels_that_are_not_json_are_refused(tmp_path, real_photos, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"images": [')
    _refused(tmp_path, real_photos, capsys, bad, "bad.json", "not JSON")


def test_labels_not_of_the_schema_are_refused(tmp_path, real_photos, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"photos": []}')
    _refused(tmp_path, real_photos, capsys, bad, '"images"')
    bad.write_text('{"images": [{"file": "x.jpg"}]}')
    _refused(tmp_path, real_photos, capsys, bad, "image 1")


def test_a_missing_photo_is_refused_before_anything_is_added(tmp_path, real_photos, capsys):
    def gone(entry):
        entry["file"] = str(tmp_path / "gone.jpg")
        return entry
    labels = _labels(tmp_path, real_photos, count=3, name="gone.json",
                     change=lambda e: gone(e) if e["file"].endswith(list(real_photos.labels(BYLER))[2]) else e)
    _refused(tmp_path, real_photos, capsys, labels, "gone.jpg", "no such file")


def test_a_photo_that_is_not_the_one_labelled_is_refused(tmp_path, real_photos, capsys):
    def swapped(entry):
        entry["width"], entry["height"] = entry["height"] + 10, entry["width"]
        return entry
    _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, name="size.json", change=swapped),
             "its labels say", "not the photo")

    def outside(entry):
        entry["dice"][0]["box"] = [600, 600, 900, 900]
        return entry
    _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, name="box.json", change=outside),
             "die 1", "not inside")

    def inverted(entry):
        x0, y0, x1, y1 = entry["dice"][0]["box"]
        entry["dice"][0]["box"] = [x1, y1, x0, y0]
        return entry
    err = _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, name="inverted.json", change=inverted),
                   "die 1", "is inverted")
    assert "not inside" not in err


def test_an_unknown_kind_or_a_value_not_on_the_die_is_refused(tmp_path, real_photos, capsys):
    def kind(entry):
        entry["dice"][-1]["kind"] = "d7"
        return entry
    _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, name="kind.json", change=kind),
             "unknown kind 'd7'")

    def value(entry):
        entry["dice"][0]["value"] = 9
        return entry
    _refused(tmp_path, real_photos, capsys, _labels(tmp_path, real_photos, name="value.json", change=value),
             "value 9 is not a face of a d6-pips")


def test_a_save_that_fails_midway_keeps_what_was_taught(tmp_path, real_photos, capsys, monkeypatch):
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=1, name="one.json"), data, capsys)[0] == 0
    with Examples(data) as examples:
        before = examples.export()
    photos_before = sorted(p.name for p in (data / examples_module.FOLDER).iterdir())
    calls = []

    def crop(image, box):
        calls.append(box)
        if len(calls) == 12:
            raise OSError(28, "No space left on device")
        return b"png"

    monkeypatch.setattr(examples_module, "_crop_png", crop)
    status, out, err = _teach(_labels(tmp_path, real_photos, count=4), data, capsys)
    assert (status, out) == (2, "")  # one line, as any bad input: no traceback (trial fault 1)
    assert err == (f"dicelens: --data: the examples could not be saved in {data} (No space left on device): "
                   "nothing was added\n")
    with Examples(data) as examples:
        assert examples.export() == before
    assert sorted(p.name for p in (data / examples_module.FOLDER).iterdir()) == photos_before


def test_read_with_the_folders_adaptation(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=4), data, capsys)[0] == 0
    photo = real_photos.photos(BYLER)[5]
    done = dicelens("read", "--data", str(data), str(photo))
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    import cv2
    expected = adapt.read(cv2.imread(str(photo)), adapt.load(data))
    assert [d["box"] for d in line["dice"]] == [d.to_dict()["box"] for d in expected.dice]
    assert [d["value"] for d in line["dice"]] == [d.value for d in expected.dice]
    assert {(d["kind"], d["face"]) for d in line["dice"]} == {("d6-pips", None)}  # as every reading names them


def test_read_data_with_an_adaptation_not_used_reads_as_the_camera_and_says_so(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=4), data, capsys)[0] == 0
    saved = adapt.load(data)
    # a layer that is not used, but whose head would read otherwise than the shipped reader
    adapt.Adaptation(**{**saved.__dict__, "used": False, "why": "it reads no better"}).save(data)
    photo = real_photos.photos(BYLER)[5]
    done = dicelens("read", "--data", str(data), str(photo))
    assert done.returncode == 0
    assert done.stderr == f"dicelens: --data: {data}'s adaptation is not used (it reads no better): " \
                          "read without it, as the camera reads\n"
    import cv2

    from vision import read_dice
    camera = read_dice(cv2.imread(str(photo)), kinds={"d6-pips"})  # the camera's pip reader (device.tray.readers)
    assert [(d["value"], d["box"]) for d in json.loads(done.stdout)["dice"]] == \
        [(d.value, d.to_dict()["box"]) for d in camera.dice]


def test_read_data_with_an_adaptation_of_other_networks_reads_as_the_camera_and_says_so(tmp_path, real_photos,
                                                                                         capsys):
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=4), data, capsys)[0] == 0
    saved = adapt.load(data)
    assert not adapt.stale(saved)
    adapt.Adaptation(**{**saved.__dict__, "used": True, "fingerprint": "0123456789abcdef"}).save(data)  # since replaced
    assert adapt.stale(adapt.load(data))
    photo = real_photos.photos(BYLER)[5]
    done = dicelens("read", "--data", str(data), str(photo))
    assert done.returncode == 0
    assert done.stderr == f"dicelens: --data: {data}'s adaptation was fitted on other networks than dicelens has " \
                          "now: read without it, as the camera reads; dicelens serve --data fits it again at start\n"


def test_kinds_cannot_narrow_an_adaptation(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=4), data, capsys)[0] == 0
    done = dicelens("read", "--data", str(data), "--kinds", "d20", str(real_photos.photos(BYLER)[5]))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "dicelens: --kinds and --data: an adaptation reads the kinds it was taught\n"


def test_read_data_without_an_adaptation_is_refused(tmp_path, real_photos):
    photo = real_photos.photos(BYLER)[0]
    done = dicelens("read", "--data", str(tmp_path), str(photo))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"dicelens: --data: {tmp_path} holds no adaptation; make one with dicelens teach LABELS.json --data DIR\n"
    (tmp_path / adapt.FILE).write_text("{not json")
    done = dicelens("read", "--data", str(tmp_path), str(photo))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "not a dicelens adaptation" in done.stderr
    shutil.rmtree(tmp_path)
    done = dicelens("read", "--data", str(tmp_path), str(photo))
    assert done.returncode == 2 and done.stderr == f"dicelens: --data: {tmp_path} is not a folder\n"


def test_exported_examples_teach_another_folder_the_same_dice(tmp_path, real_photos, capsys):
    data, out, again = tmp_path / "data", tmp_path / "out", tmp_path / "again"
    assert _teach(_labels(tmp_path, real_photos, count=2), data, capsys)[0] == 0
    assert main(["export-examples", "--data", str(data), str(out)]) == 0
    with Examples(data) as examples:
        kept = examples.export()
    assert json.loads(capsys.readouterr().out) == {"photos": 2, "dice": len(kept), "out": str(out)}
    assert sorted(p.name for p in (out / "crops").iterdir()) == sorted(f"{e['id']}.png" for e in kept)
    images = json.loads((out / "labels.json").read_text())["images"]
    assert [image["partial"] for image in images] == [False, False]   # every die of a taught photo labelled
    assert all(d["sides"] == 6 and "kind" not in d for image in images for d in image["dice"])  # datasets' pip d6
    assert _teach(out / "labels.json", again, capsys)[0] == 0
    with Examples(again) as examples:
        taught = examples.export()
    assert [(e["kind"], e["value"], e["box"]) for e in taught] == [(e["kind"], e["value"], e["box"]) for e in kept]
    assert main(["export-examples", "--data", str(tmp_path / "none"), str(out)]) == 2
    assert capsys.readouterr().err == f"dicelens: --data: {tmp_path / 'none'} is not a folder\n"


def test_a_taught_photo_damaged_since_is_one_line_on_export(tmp_path, real_photos, capsys):
    data = tmp_path / "data"
    assert _teach(_labels(tmp_path, real_photos, count=1), data, capsys)[0] == 0
    with Examples(data) as examples:
        photo = examples.export()[0]["photo"]
    (data / photo).write_bytes(b"not a photo any more")
    assert main(["export-examples", "--data", str(data), str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"dicelens: {data / photo}: not an image, or a damaged one\n"


def test_export_writes_over_nothing_in_out_unless_forced(tmp_path, real_photos, capsys):
    data, out = tmp_path / "data", tmp_path / "out"
    assert _teach(_labels(tmp_path, real_photos, count=2), data, capsys)[0] == 0
    out.mkdir()
    (out / "labels.json").write_text('{"my": "own"}')
    assert main(["export-examples", "--data", str(data), str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"dicelens: OUT: {out / 'labels.json'} exists and would be written over: choose another "
                   "folder, or --force to write over it\n")
    assert [p.name for p in out.iterdir()] == ["labels.json"] and (out / "labels.json").read_text() == '{"my": "own"}'
    (out / "labels.json").unlink()
    (out / "crops").mkdir()
    (out / "crops" / "mine.png").write_bytes(b"a crop of mine")
    assert main(["export-examples", "--data", str(data), str(out)]) == 2
    assert f"OUT: {out / 'crops' / 'mine.png'} exists" in capsys.readouterr().err
    (out / "crops" / "mine.png").unlink()
    with Examples(data) as examples:
        name = examples.export()[0]["photo"].split("/")[-1]
    (out / name).write_bytes(b"another photo of that name")
    assert main(["export-examples", "--data", str(data), str(out)]) == 2
    assert f"OUT: {out / name} exists" in capsys.readouterr().err and not (out / "labels.json").exists()
    assert main(["export-examples", "--data", str(data), str(out), "--force"]) == 0
    capsys.readouterr()
    assert json.loads((out / "labels.json").read_text())["images"]
    assert main(["export-examples", "--data", str(data), str(out)]) == 2  # its own export is no longer empty space
    assert f"OUT: {out / 'labels.json'} exists" in capsys.readouterr().err
