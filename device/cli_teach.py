"""``dicelens teach LABELS.json --data DIR``: teach the reader a table's own dice.

``LABELS.json`` has the schema of the datasets' ``labels.json`` (``{"images": [{"file",
"width", "height", "partial"?, "dice": [{"value", "sides"?, "box", "kind"?}]}]}``; ``file``
relative to the labels' folder; ``kind`` one of the datasets' kinds, none for a pip d6;
``width``, ``height`` and ``sides`` optional; ``partial`` true for a photo with dice that are
not labelled (the adaptation's held-out figures score its labelled dice only: a die read
where no label lies is no phantom); other keys ignored). Every labelled die becomes an
example in DIR's history database (:mod:`device.examples`), then the reader adapts to all
the examples of DIR (:mod:`vision.adapt`) and says what it learned in one JSON line: ``{"taught", "photos",
"new", "corrected", "unchanged", "examples", "examples_photos", "by_value": {kind: {value: count}},
"lacking": {kind: [values with no example]} (the reader's kinds: a d6-ornate is a d6, a d8-ornate
a d8), "used", "held_out", "shipped", "summary"}``, where ``held_out``
and ``shipped`` count the taught dice read right, wrong, unread, missed and phantoms held
out by photo with the layer and without, and ``summary`` says it in words ("… read right
98.9 % vs 96.6 % without …"). ``dicelens read --data DIR`` reads with that adaptation.

Everything is checked before anything is written: labels that are not JSON or not of that
schema, a photo missing or not an image, one whose size is not its labels', a box inverted
or outside its photo, a value not on the die, an unknown kind, two labels on one die (each
box holds the other's centre) with different kinds or values, a label on a die taught
before in DIR as another kind or value — one line naming the file and the die, exit status 2,
and the examples already in DIR are as they were. A photo whose labels seem to be another
photo's (:func:`_misfit`) is taught with one warning line on stderr, once the reader has adapted:
the shipped reader that judges it is the one that misses and invents a new table's dice, so it
never refuses them; its reading is the one the adaptation's fit makes of the photo (one reading
serves both), or its own where the fit reads none or reads other kinds.
A die taught again as it was changes nothing (its who and at are kept: ``"unchanged"``); with
the same box and another kind or value it is a correction (``"corrected"``: kind, value, who
and at replaced).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sqlite3
import sys
from pathlib import Path

import cv2
import numpy as np

from device.cli import UsageError, output_folder, summary
from device.cli_read import _Unreadable, load_photo
from device.errors import HistoryDamaged
from device.examples import ExampleConflict, Examples, TaughtFile
from device.history import DATABASE
from device.teach_round import lacking
from vision import adapt, read_dice
from vision.numerals import SIDES
from vision.reading import DieReading, TrayReading
from vision.scoring import score_photo

#: The reader's kinds as the datasets' labels.json names them (``kind``; none for a pip d6).
LABEL_OF_KIND = {"d6-pips": None, "d6": "d6-numerals", "d4": "d4-long"}


def _label(item: dict) -> dict:
    """An example as a die of the datasets' labels.json (value, sides, box, kind but for a pip
    d6, color unknown), with its id, who and at."""
    kind = LABEL_OF_KIND.get(item["kind"], item["kind"])
    return {"value": item["value"], "sides": SIDES[item["kind"]], "box": item["box"],
            **({"kind": kind} if kind else {}), "color": None, "id": item["id"], "who": item["who"], "at": item["at"]}


def register(subparsers) -> None:
    """Add ``teach`` and ``export-examples`` to the ``dicelens`` sub-commands."""
    parser = subparsers.add_parser("teach", help="teach the reader the dice of a table from labelled photos",
                                   description=summary(__doc__))
    parser.add_argument("labels", type=Path, metavar="LABELS.json",
                        help="labelled photos, the schema of the datasets' labels.json")
    parser.add_argument("--data", type=Path, required=True, metavar="DIR",
                        help="the data folder whose examples and adaptation these join")
    parser.add_argument("--who", help="who labelled them (kept with each example)")
    parser.set_defaults(func=run)
    export = subparsers.add_parser(
        "export-examples", help="write a data folder's examples as labelled photos (labels.json) and crops",
        description="Write DIR's examples into OUT: its photos, labels.json in the datasets' schema "
                    "(each die also with its id, who and at; a photo with dice that are no example, "
                    "a roll's, \"partial\": true; dicelens teach reads it back), and crops/ID.png. "
                    "An OUT holding a labels.json, crops or another photo of a photo's name is refused "
                    "(nothing is written) unless --force.")
    export.add_argument("--data", type=Path, required=True, metavar="DIR", help="the data folder")
    export.add_argument("out", type=Path, metavar="OUT", help="the folder to write into (made when missing)")
    export.add_argument("--force", action="store_true",
                        help="write over OUT's labels.json, crops and photos of the same names")
    export.set_defaults(func=run_export)


def run_export(args: argparse.Namespace) -> int:
    """Write the examples, reading DIR only (nothing in it is made or changed); 0 done, 2 no
    such data folder, one with no history or a damaged one, OUT not writable or holding what
    would be written over (without ``--force``)."""
    if not args.data.is_dir():
        raise UsageError(f"--data: {args.data} is not a folder")
    try:
        examples = Examples.reading(args.data)
    except FileNotFoundError:
        raise UsageError(f"--data: {args.data} holds no history ({DATABASE}), so no examples: give the "
                         "data folder of a dicelens serve, or one dicelens teach wrote") from None
    except (HistoryDamaged, sqlite3.Error, OSError) as exc:
        raise _unusable(args.data, exc) from None
    with examples:
        try:
            items = examples.export()
        except sqlite3.Error as exc:
            raise _unusable(args.data, exc) from None
        out = output_folder(args.out, "OUT")
        if not args.force:
            _refuse_overwriting(out, args.data, items)
        (out / "crops").mkdir(exist_ok=True)
        images: dict[str, dict] = {}
        for item in items:
            name = Path(item["photo"]).name
            if name not in images:
                try:
                    shutil.copyfile(args.data / item["photo"], out / name)
                except FileNotFoundError:
                    raise UsageError(f"--data: {args.data / item['photo']}, the photo of example "
                                     f"{item['id']}, is gone") from None
                image = cv2.imread(str(out / name))
                if image is None:  # the data folder's photo was damaged after it was taught
                    raise UsageError(f"{args.data / item['photo']}: not an image, or a damaged one")
                height, width = image.shape[:2]
                images[name] = {"file": name, "width": width, "height": height, "origin": item["origin"],
                                "partial": item["partial"], "dice": []}
            images[name]["dice"].append(_label(item))
            (out / "crops" / f"{item['id']}.png").write_bytes(examples.crop(item["id"]))
    (out / "labels.json").write_text(json.dumps({"source": f"dicelens examples of {args.data}",
                                                  "images": list(images.values())}, indent=1))
    print(json.dumps({"photos": len(images), "dice": sum(len(i["dice"]) for i in images.values()),
                      "out": str(out)}))
    return 0


def _unusable(data: Path, exc: BaseException) -> UsageError:
    """The one line for a data folder whose history cannot be used (damaged, not a database,
    unreadable), as ``dicelens serve`` words it."""
    why = str(exc) if isinstance(exc, HistoryDamaged) else \
        f"the history database {data / DATABASE} cannot be read: {getattr(exc, 'strerror', None) or exc}"
    return UsageError(f"--data: {why} (the file was left as it is; move it aside to start a new history)")


def _refuse_overwriting(out: Path, data: Path, items: list[dict]) -> None:
    """Nothing of OUT is lost: a labels.json, a file in crops/, or a photo of the name of one
    exported but other bytes (the same photo exported before is no loss) is refused.

    :raises UsageError: naming the file, and ``--force``.
    """
    photos = {Path(item["photo"]).name: data / item["photo"] for item in items}
    crops = sorted((out / "crops").iterdir()) if (out / "crops").is_dir() else []
    for path in [out / "labels.json", *crops, *(out / name for name in sorted(photos))]:
        if not (path.exists() or path.is_symlink()):
            continue
        source = photos.get(path.name) if path.parent == out else None
        if source is not None and path.is_file() and source.is_file() and path.read_bytes() == source.read_bytes():
            continue
        raise UsageError(f"OUT: {path} exists and would be written over: choose another folder, "
                         "or --force to write over it")


def _entries(path: Path) -> list[dict]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    images = data.get("images") if isinstance(data, dict) else None
    if not isinstance(images, list):
        raise UsageError(f'{path}: no "images" list (the datasets\' labels.json schema)')
    if not images:
        raise UsageError(f"{path}: no photo to teach")
    for n, entry in enumerate(images, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) \
                or not isinstance(entry.get("dice"), list):
            raise UsageError(f'{path}: image {n} is not {{"file": NAME, "dice": [...]}}')
    return images


def _taught_file(labels: Path, entry: dict) -> TaughtFile:
    name = entry["file"]
    photo = labels.parent / name
    try:
        image, _ = load_photo(str(photo))
    except _Unreadable as exc:
        raise UsageError(f"{labels}: {exc}") from None
    height, width = image.shape[:2]
    said = entry.get("width"), entry.get("height")
    if said != (None, None) and said != (width, height):
        raise UsageError(f"{labels}: {name} is {width}×{height} pixels, its labels say "
                         f"{said[0]}×{said[1]}: not the photo they label")
    dice = []
    for n, die in enumerate(entry["dice"], 1):
        if not isinstance(die, dict):
            raise UsageError(f"{labels}: {name} die {n} is not an object")
        box = die.get("box")
        if isinstance(box, list) and len(box) == 4 and all(isinstance(v, int | float) for v in box) \
                and (box[2] <= box[0] or box[3] <= box[1]):
            raise UsageError(f"{labels}: {name} die {n}: box {box} is inverted (x_max ≤ x_min or "
                             "y_max ≤ y_min): [x_min, y_min, x_max, y_max]")
        try:
            example = adapt.example(die.get("kind"), die.get("value"), box, width, height)
        except adapt.ExampleError as exc:
            raise UsageError(f"{labels}: {name} die {n}: {exc}") from None
        sides = die.get("sides")
        if sides is not None and sides != SIDES[example.kind]:
            raise UsageError(f"{labels}: {name} die {n}: a {example.kind} has "
                             f"{SIDES[example.kind]} sides, not {sides!r}")
        dice.append(example)
    partial = entry.get("partial", False)
    if not isinstance(partial, bool):
        raise UsageError(f"{labels}: {name}: partial must be true or false, not {partial!r}")
    return TaughtFile(photo.read_bytes(), photo.suffix or ".jpg", image, name, dice, partial=partial)


def _misfit(image, dice: list[adapt.Example], found: list[DieReading] | None = None) -> str | None:
    """Why labels seem not to be this photo's (another photo's of the same size), or None: the
    shipped reader of the labelled kinds reads it (``found``, its dice, when read already), and
    of the dice it finds (or of the labels, when fewer) fewer than half lie at a label (matched
    as vision.scoring matches a reading to a label, whatever the value). None when the reader
    finds no die or one, or fewer than two are labelled (a table's own dice may be ones it
    cannot find), without reading the photo.
    """
    if len(dice) < 2:
        return None
    if found is None:
        found = read_dice(image, kinds={die.kind for die in dice}).dice
    score, _ = score_photo(found, [{"value": die.value, "box": die.box} for die in dice])
    at_labels = score.labelled - score.missed
    if min(len(found), len(dice)) >= 2 and 2 * at_labels < min(len(found), len(dice)):
        return (f"the reader finds {len(found)} dice on it, {f'only {at_labels}' if at_labels else 'none'} of them "
                f"where its {len(dice)} labels are: taught as labelled, check that they are this photo's")
    return None


def _digest(image: np.ndarray) -> bytes:
    """A photo known by its pixels: the fit's photos are decoded again from the data folder."""
    return hashlib.sha1(np.ascontiguousarray(image).data).digest() + repr(image.shape).encode()


def _read_by_fit(file: TaughtFile, shipped: dict[bytes, TrayReading], family: str) -> list[DieReading] | None:
    """The dice of ``file``'s labelled kinds in the fit's shipped reading of its photo
    (``shipped``, by :func:`_digest`), when that reading is the one :func:`_misfit` reads — the
    pip reader's of a photo of pip d6 only, or the numbered reader's of one without pip d6,
    whose kinds only filter its dice —; None when the fit read it otherwise or not at all."""
    kinds = {die.kind for die in file.dice}
    reading = shipped.get(_digest(file.image))
    if reading is None or not (kinds == {"d6-pips"} if family == "pips" else "d6-pips" not in kinds):
        return None
    return [die for die in reading.dice if family == "pips" or getattr(die, "kind", None) in kinds]


def run(args: argparse.Namespace) -> int:
    """Check every photo and label, add them, adapt, warn of labels that seem another photo's,
    print; 0 done, 2 bad input (nothing added)."""
    files = [_taught_file(args.labels, entry) for entry in _entries(args.labels)]
    output_folder(args.data, "--data")
    try:
        examples = Examples(args.data)
    except (HistoryDamaged, sqlite3.Error) as exc:
        raise _unusable(args.data, exc) from None
    with examples:
        try:
            added = examples.add(files, who=args.who)
        except ExampleConflict as exc:
            raise UsageError(f"{args.labels}: {exc}") from None
        except (sqlite3.Error, OSError) as exc:  # a full disk: add() changed nothing
            raise UsageError(f"--data: the examples could not be saved in {args.data} "
                             f"({getattr(exc, 'strerror', None) or exc}): nothing was added") from None
        photos = examples.taught_photos()
    readings: list[TrayReading] = []
    adaptation = adapt.fit(photos, readings=readings)
    try:
        adaptation.save(args.data)
    except OSError as exc:
        raise UsageError(f"--data: the adaptation could not be saved in {args.data} ({exc.strerror or exc}): "
                         "the examples were added; teach the same labels again once that is fixed") from None
    shipped = {_digest(photo.image): reading for photo, reading in zip(photos, readings, strict=False)}
    for file in files:
        if not file.partial and (misfit := _misfit(file.image, file.dice, _read_by_fit(file, shipped,
                                                                                      adaptation.family))):
            print(f"dicelens: warning: {args.labels}: {file.origin}: {misfit}", file=sys.stderr)
    print(json.dumps({"taught": sum(len(f.dice) for f in files), "photos": len(files), "new": added.new,
                      "corrected": added.corrected, "unchanged": added.unchanged,
                      "examples": sum(len(p.dice) for p in photos), "examples_photos": len(photos),
                      "by_value": adaptation.examples, "lacking": lacking(adaptation.examples), "used": adaptation.used,
                      "held_out": adaptation.held_out, "shipped": adaptation.shipped,
                      "summary": adaptation.summary()}))
    return 0
