"""Benchmark the face-value network (vision/faces.py) on every real numbered die of the datasets.

Run by hand from the repository root (one core):

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/vision_faces.py [--network FILE] [--classifier FILE]

The network learned from drawn faces only (tools/train_faces.py), so every real numbered die here
(real-polyhedral/burks-tray-polyhedral: d6, d8, d10, percentile d10, d12, d20;
real-polyhedral/banachowicz-mixed-d10: d10, and d6 and d8 with ornate numerals and an emblem on
some faces; real-d20/lurig-platform-d20: d20; DICELENS_DATASETS, tools/datasets.py) is a die, tray
and camera it never saw. Three readings:

- "crop": each die cropped at its label box (as if the detector had found it exactly) and read
  by :func:`vision.numerals.face_odds_of` (its likeliest value): right and wrong per source and
  kind at each sureness threshold, and the threshold ``FACE_MIN`` (vision/numerals.py) marked;
- "values": the d6, d8 and d10 values at the same crops, told by the numbered classifier (given
  the die's true kind, at ``VALUE_MIN``), by the face network alone (at ``FACE_MIN``) and by the
  reader's rule for them (:func:`vision.numerals.value_of`): right / wrong, the rest unreadable;
  ``--classifier`` reads with a leave-one-source-out run's classifier (tools/train_loso.sh), so
  that the source it left out is a tray neither network saw;
- "tray": :func:`vision.read_dice` on the whole photo, every kind: right, wrong value, wrong
  kind, unreadable, missed, phantom, per source, of the kinds whose value only the face network
  reads (d12, d20, percentile d10); burks' split by the numbered networks' split
  (tools/numerals_data.held_out: they learned from its other photos), lurig's never seen by them.

``--network FILE`` reads with another faces_value.onnx (a run of tools/train_faces.py --out).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.vision_read_dice import count_outcomes  # noqa: E402
from tools import numerals_data  # noqa: E402
from vision import faces, numerals  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.network import Network  # noqa: E402

SOURCES = ("real-polyhedral/burks-tray-polyhedral", "real-polyhedral/banachowicz-mixed-d10",
           "real-d20/lurig-platform-d20")
#: the kinds the network reads (the reader's names: "d6" and "d8" are numbered and ornate ones alike)
KINDS = numerals.CHECKED_KINDS + numerals.FACE_KINDS
#: the sources the shipped numbered networks learned from, three photos in four (README, Development)
LEARNED_BY_NUMBERED = ("real-polyhedral/burks-tray-polyhedral", "real-polyhedral/banachowicz-mixed-d10")
THRESHOLDS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
COLUMNS = ("dice", "right", "wrong", "kind", "unread", "missed", "phantom")


def crop_reading(photos) -> list[dict]:
    """Each numbered die of ``photos`` cropped at its label box: its source, whether held out of
    the shipped numbered networks' training, kind and value, the face network's probability of
    each value, its likeliest and how sure, and for numerals.CHECKED_KINDS the classifier's value scores
    for the die's true kind (None for the others)."""
    read = []
    for photo in photos:
        dice = [d for d in photo.dice if d["kind"] in KINDS]
        if not dice:
            continue
        image = cv2.imread(str(photo.path))
        places = [place for place, d in zip(photo.centres(), photo.dice, strict=True) if d["kind"] in KINDS]
        _, value_scores = numerals.classify(np.stack(numerals.classifier_crops(image, places)))
        for die, (x, y, side), scores in zip(dice, places, value_scores, strict=True):
            kind = die["kind"]
            odds = numerals.face_odds_of(image, (x, y), side, kind)
            read.append({"source": photo.source, "held_out": photo.held_out, "kind": kind, "value": die["value"],
                         "odds": odds, "face": int(np.argmax(odds)) + 1, "sure": float(odds.max()),
                         "scores": scores[numerals.KINDS.index(kind)] if kind in numerals.CHECKED_KINDS else None})
    return read


def print_crop_table(read: list[dict] | None = None) -> None:
    """The "crop" reading (:func:`crop_reading` of every source, made when not given), right and
    wrong ("ok", "x") per source and kind at each of THRESHOLDS."""
    read = read if read is not None else crop_reading(numerals_data.load_photos(SOURCES))
    print(f"crop: each die at its label box, read turned {faces.TURNS} ways; FACE_MIN {numerals.FACE_MIN}")
    print(f"{'source, kind':36}{'dice':>5}" + "".join(f"{'≥' + str(t):>14}" for t in THRESHOLDS))
    groups = defaultdict(list)
    for die in read:
        groups[die["source"], die["kind"]].append(die)
        groups["all", die["kind"]].append(die)
    for (source, kind), dice in sorted(groups.items(), key=lambda g: (g[0][0] == "all", g[0])):
        cells = [f"{sum(d['sure'] >= t and d['face'] == d['value'] for d in dice):5} ok "
                 f"{sum(d['sure'] >= t and d['face'] != d['value'] for d in dice):3} x" for t in THRESHOLDS]
        print(f"{source + ' ' + kind:36}{len(dice):5}" + "".join(f"{c:>14}" for c in cells), flush=True)


def print_value_table(read: list[dict], left_out: str | None = None) -> None:
    """The "values" reading of numerals.CHECKED_KINDS: right / wrong by the classifier alone, the face
    network alone and the reader's rule (:func:`vision.numerals.value_of`), per source and by what
    the classifier learned of it: the shipped one three photos in four of LEARNED_BY_NUMBERED
    ("held out": the fourth), a leave-one-source-out one every photo but ``left_out``'s."""
    print(f"\nvalues: the d6, d8 and d10 at their label boxes, right / wrong (the rest unreadable): the "
          f"classifier at VALUE_MIN {numerals.VALUE_MIN}, the face network at FACE_MIN {numerals.FACE_MIN}, "
          f"the reader's rule (VALUE_SURE {numerals.VALUE_SURE}, BOTH_MIN {numerals.BOTH_MIN}, "
          f"SEEN_MIN {numerals.SEEN_MIN})")
    print(f"{'source, classifier saw it, kind':52}{'dice':>5}{'classifier':>14}{'face':>14}{'reader':>14}")
    groups = defaultdict(list)
    for die in read:
        if left_out:
            seen = "never seen" if die["source"] == left_out.split("/")[-1] else "learned"
        elif any(die["source"] == learned.split("/")[-1] for learned in LEARNED_BY_NUMBERED):
            seen = "held out" if die["held_out"] else "learned"
        else:
            seen = "never seen"
        if die["kind"] in numerals.CHECKED_KINDS:
            groups[f"{die['source']} {seen}", die["kind"]].append(die)
    for (source, kind), dice in sorted(groups.items()):
        counts = Counter()
        for die in dice:
            odds = numerals._softmax(die["scores"][None, :numerals.SIDES[kind]])[0]
            told = {"classifier": (int(np.argmax(odds)) + 1, float(odds.max()), numerals.VALUE_MIN),
                    "face": (die["face"], die["sure"], numerals.FACE_MIN),
                    "reader": (*numerals.value_of(kind, odds, lambda d=die: d["odds"]), 0.0)}
            for who, (value, sure, bar) in told.items():
                if sure >= bar and value is not None:
                    counts[who, value == die["value"]] += 1
        print(f"{source + ' ' + kind:52}{len(dice):5}" + "".join(
            f"{f'{counts[who, True]} / {counts[who, False]}':>14}" for who in ("classifier", "face", "reader")))


def tray_reading(photos, split: bool) -> dict[str, Counter]:
    """read_dice's outcome for the dice of numerals.FACE_KINDS of ``photos``; with ``split``, by the
    numbered networks' split (held out of their training, or learned from), else all "never
    learned from"."""
    counts: dict[str, Counter] = {}
    for photo in photos:
        if not any(d["kind"] in numerals.FACE_KINDS for d in photo.dice):
            continue
        dice = read_dice(cv2.imread(str(photo.path))).dice
        c = counts.setdefault(("held out" if photo.held_out else "learned from") if split
                              else "never learned from", Counter())
        by_kind: dict[str, Counter] = defaultdict(Counter)
        count_outcomes(by_kind, dice, photo.dice)
        for kind, outcomes in by_kind.items():  # the face kinds' dice, and phantoms of every kind
            c.update({what: n for what, n in outcomes.items() if kind in numerals.FACE_KINDS or what == "phantom"})
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", type=Path, help="another faces_value.onnx to read with")
    parser.add_argument("--classifier", type=Path,
                        help="a leave-one-source-out run's numerals_classify.onnx (with --left-out; no tray reading)")
    parser.add_argument("--left-out", choices=SOURCES, help="the source that classifier never learned from")
    args = parser.parse_args()
    if bool(args.classifier) != bool(args.left_out):
        parser.error("--classifier and --left-out go together")
    cv2.setNumThreads(1)
    if args.network:
        faces._NETWORK = Network(args.network, "face-value network")
    if args.classifier:
        numerals._CLASSIFIER = Network(args.classifier, "numbered-dice classifier")
    read = crop_reading(numerals_data.load_photos(SOURCES))
    print_crop_table(read)
    print_value_table(read, args.left_out)
    if args.classifier:
        return 0
    print(f"\ntray: vision.read_dice on the whole photo; the {', '.join(numerals.FACE_KINDS)} only "
          "(phantoms: any kind)")
    print(f"{'source / numbered split':40}" + "".join(f"{c:>8}" for c in COLUMNS))
    for source in SOURCES:
        photos = numerals_data.load_photos((source,))
        for split, c in sorted(tray_reading(photos, source in LEARNED_BY_NUMBERED).items()):
            print(f"{source.split('/')[-1] + ' ' + split:40}" + "".join(f"{c[col]:8}" for col in COLUMNS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
