"""Benchmark vision.read_dice (every kind) against the two readers behind it, read_numbered and read_tray.

Run by hand from the repository root (one core):

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/vision_read_dice.py [--limit N]

Photos (DICELENS_DATASETS: tools/datasets.py):

- "held-out": the numbered reader's held-out photos (tools/numerals_data.held_out: one in
  four by file name, the whole photo on one side), all its sources (pip, numbered and
  mixed trays): a measure for the numbered reader; the pip networks learned from byler's.
- "pip photos": every real-dice photo the pip reader learned from (tools/pips_data.py):
  in-distribution for both shipped networks, a check of the fit, not a measure.

Per set and per kind (the label's kind; a phantom's is the reading's): dice, right, wrong
value, wrong kind, unreadable, missed, phantom (a reading matching no label; one-to-one,
each box holding the other's centre, nearest first: vision.scoring), accuracy and
phantoms per 100 dice, then the median milliseconds a photo of each reader.
``--limit N`` scores the first N photos of each set in name order (a quick run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools import numerals_data, pips_data  # noqa: E402
from vision.dice import PIPS, as_pips, read_dice  # noqa: E402
from vision.numerals import KINDS, read_numbered  # noqa: E402
from vision.scoring import score_photo  # noqa: E402
from vision.tray import read_tray  # noqa: E402

COLUMNS = ("dice", "right", "wrong", "kind", "unread", "missed", "phantom")
READERS = ("read_dice", "read_numbered", "read_tray")


def _photos(limit: int | None) -> dict[str, list[tuple[Path, list[dict]]]]:
    held = sorted((p for p in numerals_data.load_photos() if p.held_out), key=lambda p: (p.source, p.path.name))
    pips = sorted(pips_data.load_photos(), key=lambda p: (p.source, p.path.name))
    sets = {
        "held-out (numbered reader's split)": [(p.path, p.dice) for p in held],
        "pip photos (in-distribution for both networks)":
            [(p.path, [{**d, "kind": PIPS} for d in p.dice]) for p in pips],
    }
    return {name: photos[:limit] if limit else photos for name, photos in sets.items()}


def _read(name: str, image) -> tuple[list, float]:
    if name == "read_dice":
        reading = read_dice(image)
        return reading.dice, reading.seconds
    if name == "read_numbered":
        reading = read_numbered(image)
        return reading.dice, reading.seconds
    reading = read_tray(image)
    return [as_pips(die) for die in reading.dice], reading.seconds


def count_outcomes(counts: dict[str, Counter], dice: list, labels: list[dict]) -> None:
    """Add one photo's readings ``dice`` against its ``labels`` to ``counts`` (by the label's kind;
    a phantom's is the reading's): dice, right, wrong, kind, unread, missed, phantom."""
    _, pairs = score_photo(dice, labels)
    for i, j in pairs:
        die = dice[i] if i is not None else None
        label = labels[j] if j is not None else None
        c = counts[label["kind"] if label else die.kind]
        if label is None:
            c["phantom"] += 1
            continue
        c["dice"] += 1
        if die is None:
            c["missed"] += 1
        elif die.kind != label["kind"]:
            c["kind"] += 1
        elif die.value is None:
            c["unread"] += 1
        else:
            c["right" if die.value == label["value"] else "wrong"] += 1


def _row(name: str, c: Counter) -> None:
    acc = 100 * c["right"] / c["dice"] if c["dice"] else float("nan")
    per100 = 100 * c["phantom"] / c["dice"] if c["dice"] else float("nan")
    print(f"{name:30}" + "".join(f"{c[col]:7}" for col in COLUMNS) + f"{acc:7.1f}{per100:7.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="score only the first N photos of each set")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for set_name, photos in _photos(args.limit).items():
        counts = {reader: defaultdict(Counter) for reader in READERS}
        times: dict[str, list[float]] = defaultdict(list)
        for path, labels in photos:
            image = cv2.imread(str(path))
            for reader in READERS:
                dice, seconds = _read(reader, image)
                times[reader].append(seconds)
                count_outcomes(counts[reader], dice, labels)
        print(f"\n{set_name}: {len(photos)} photos")
        print(f"{'reader / kind':30}" + "".join(f"{c:>7}" for c in COLUMNS) + f"{'acc %':>7}{'ph/100':>7}")
        for reader in READERS:
            total: Counter = Counter()
            for kind in sorted(counts[reader], key=KINDS.index):
                total.update(counts[reader][kind])
                _row(f"{reader} {kind}", counts[reader][kind])
            _row(f"{reader} all", total)
            print(f"{'':30}median {1000 * statistics.median(times[reader]):.1f} ms a photo")
    print(f"\nload average while measuring: {os.getloadavg()[0]:.1f} (times are only meaningful near 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
