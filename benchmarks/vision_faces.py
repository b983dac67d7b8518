"""Benchmark the face-value network (vision/faces.py) on every real d12 and d20 of the datasets.

Run by hand from the repository root (one core):

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/vision_faces.py [--network FILE]

The network learned from drawn faces only (tools/train_faces.py), so every real d12 and d20 here
(real-polyhedral/burks-tray-polyhedral: 7 d12, 12 d20; real-d20/lurig-platform-d20: 53 d20;
DICELENS_DATASETS, tools/datasets.py) is a die, tray and camera it never saw. Two readings:

- "crop": each die cropped at its label box (as if the detector had found it exactly) and read
  by :func:`vision.faces.read_face`: right and wrong per source at each sureness threshold,
  and the threshold ``FACE_MIN`` (vision/numerals.py) marked;
- "tray": :func:`vision.read_dice` on the whole photo, every kind: right, wrong value, wrong
  kind, unreadable, missed, phantom, per source; burks' split by the numbered networks' split
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.vision_read_dice import count_outcomes  # noqa: E402
from tools import numerals_data  # noqa: E402
from vision import faces, numerals  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.network import Network  # noqa: E402

SOURCES = ("real-polyhedral/burks-tray-polyhedral", "real-d20/lurig-platform-d20")
SIDES = {"d12": 12, "d20": 20}
#: the sources the shipped numbered networks learned from, three photos in four (README, Development)
LEARNED_BY_NUMBERED = ("real-polyhedral/burks-tray-polyhedral",)
THRESHOLDS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
COLUMNS = ("dice", "right", "wrong", "kind", "unread", "missed", "phantom")


def crop_reading(photos) -> list[tuple[int, float, int]]:
    """(numeral read, its probability, the label's value) of each d12 and d20 cropped at its box."""
    read = []
    for photo in photos:
        dice = [d for d in photo.dice if d["kind"] in SIDES]
        image = cv2.imread(str(photo.path)) if dice else None
        for die in dice:
            x0, y0, x1, y1 = die["box"]
            read.append((*faces.read_face(image, ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0),
                                          SIDES[die["kind"]]), die["value"]))
    return read


def print_crop_table() -> None:
    """The "crop" reading of every source, right and wrong ("ok", "x") at each of THRESHOLDS."""
    print(f"crop: each die at its label box, read turned {faces.TURNS} ways; FACE_MIN {numerals.FACE_MIN}")
    print(f"{'source':30}{'dice':>5}" + "".join(f"{'≥' + str(t):>14}" for t in THRESHOLDS))
    rows = [(source.split("/")[-1], crop_reading(numerals_data.load_photos((source,)))) for source in SOURCES]
    for name, read in rows + [("all", [die for _, part in rows for die in part])]:
        cells = [f"{sum(p >= t and n == v for n, p, v in read):5} ok {sum(p >= t and n != v for n, p, v in read):3} x"
                 for t in THRESHOLDS]
        print(f"{name:30}{len(read):5}" + "".join(f"{c:>14}" for c in cells), flush=True)


def tray_reading(photos, split: bool) -> dict[str, Counter]:
    """read_dice's outcome for the d12s and d20s of ``photos``; with ``split``, by the numbered
    networks' split (held out of their training, or learned from), else all "never learned from"."""
    counts: dict[str, Counter] = {}
    for photo in photos:
        if not any(d["kind"] in SIDES for d in photo.dice):
            continue
        dice = read_dice(cv2.imread(str(photo.path))).dice
        c = counts.setdefault(("held out" if photo.held_out else "learned from") if split
                              else "never learned from", Counter())
        by_kind: dict[str, Counter] = defaultdict(Counter)
        count_outcomes(by_kind, dice, photo.dice)
        for kind, outcomes in by_kind.items():  # the d12s and d20s, and phantoms of every kind
            c.update({what: n for what, n in outcomes.items() if kind in SIDES or what == "phantom"})
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", type=Path, help="another faces_value.onnx to read with")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.network:
        faces._NETWORK = Network(args.network, "face-value network")
    print_crop_table()
    print("\ntray: vision.read_dice on the whole photo; the d12s and d20s only (phantoms: any kind)")
    print(f"{'source / numbered split':40}" + "".join(f"{c:>8}" for c in COLUMNS))
    for source in SOURCES:
        photos = numerals_data.load_photos((source,))
        for split, c in sorted(tray_reading(photos, source in LEARNED_BY_NUMBERED).items()):
            print(f"{source.split('/')[-1] + ' ' + split:40}" + "".join(f"{c[col]:8}" for col in COLUMNS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
