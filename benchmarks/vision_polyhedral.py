"""Benchmark the numbered-dice reader (vision.read_numbered) on real polyhedral photos.

Run by hand from the repository root (one core):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_polyhedral.py [--errors] [--seen]

Photos: the datasets' real-polyhedral/ and real-dice/byler-tray-d6 for pip dice on a
tray (DICELENS_DATASETS: tools/datasets.py). By default only the photos held out from
training (one in four, chosen by file name in tools/numerals_data.py, the whole photo on
one side) are scored;
``--seen`` scores the photos the networks were trained on instead (not a measure of
the reader, a check of the fit).

Per kind of die (d4, pip d6, numbered d6, d8, d10, percentile d10, d12, d20): per-die
accuracy (a die is right when a reading's box and the label's box contain each
other's centre, one-to-one nearest first, and both kind and value agree), wrong
value, wrong kind, unreadable, missed, phantom (a reading of that kind matching no
label), then the median and p95 milliseconds per photo.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.timing import print_times  # noqa: E402
from tools.numerals_data import load_photos  # noqa: E402
from vision.numerals import KINDS, read_numbered  # noqa: E402
from vision.scoring import score_photo  # noqa: E402

COLUMNS = ("dice", "right", "wrong", "kind", "unread", "missed", "phantom")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list every die not read right")
    parser.add_argument("--seen", action="store_true", help="score the training photos instead")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    counts: dict[str, Counter] = defaultdict(Counter)
    confusions: dict[str, Counter] = defaultdict(Counter)
    times, cpu_times, photos = [], [], 0
    for photo in load_photos():
        if photo.held_out == args.seen:
            continue
        photos += 1
        image = cv2.imread(str(photo.path))
        cpu = time.process_time()
        reading = read_numbered(image)
        cpu_times.append(time.process_time() - cpu)
        times.append(reading.seconds)
        _, pairs = score_photo(reading.dice, photo.dice)
        for i, j in pairs:
            die = reading.dice[i] if i is not None else None
            label = photo.dice[j] if j is not None else None
            kind = label["kind"] if label else die.kind
            c = counts[f"{photo.source.split('-')[0]}:{kind}"]
            if label is None:
                c["phantom"] += 1
            else:
                c["dice"] += 1
                if die is None:
                    c["missed"] += 1
                elif die.kind != label["kind"]:
                    c["kind"] += 1
                    confusions[kind][die.kind] += 1
                elif die.value is None:
                    c["unread"] += 1
                elif die.value != label["value"]:
                    c["wrong"] += 1
                    confusions[kind][(label["value"], die.value)] += 1
                else:
                    c["right"] += 1
            if args.errors and (die is None or label is None or die.kind != label["kind"]
                                or die.value != label["value"]):
                print(f"  {photo.path.name}: label {label and (label['kind'], label['value'], label['box'])} "
                      f"read {die and (die.kind, die.value, die.unreadable, die.box, round(die.confidence, 2))}")
    print(f"{'held-out' if not args.seen else 'SEEN IN TRAINING'} photos: {photos}")
    print(f"{'source:kind':34}" + "".join(f"{c:>8}" for c in COLUMNS) + f"{'acc %':>8}{'ph/100':>8}")
    total: Counter = Counter()
    by_kind: dict[str, Counter] = defaultdict(Counter)
    for key in sorted(counts, key=lambda k: (KINDS.index(k.split(":")[1]), k)):
        c = counts[key]
        total.update(c)
        by_kind[key.split(":")[1]].update(c)
        _row(key, c)
    print("all sources:")
    for kind in KINDS:
        if kind in by_kind:
            _row(kind, by_kind[kind])
            if confusions[kind]:
                print(f"{'':34}  confused (label→read): {dict(confusions[kind].most_common(6))}")
    _row("overall", total)
    print_times(times, cpu_times)
    return 0


def _row(name: str, c: Counter) -> None:
    acc = 100 * c["right"] / c["dice"] if c["dice"] else float("nan")
    per100 = 100 * c["phantom"] / c["dice"] if c["dice"] else float("nan")
    print(f"{name:34}" + "".join(f"{c[col]:8}" for col in COLUMNS) + f"{acc:8.1f}{per100:8.2f}")


if __name__ == "__main__":
    sys.exit(main())
