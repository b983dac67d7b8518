"""Benchmark the pip reader (vision.read_tray) on the real photos of real-dice/ (DICELENS_DATASETS).

Run by hand from the repository root (one core, as the issue asks):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_real_dice.py --folds /tmp/pips-folds

``--folds DIR``: the honest figures. DIR holds one folder per training run of
``tools/train_pips.py --leave-out K --out DIR/K`` (K = 0…3); each photo is read by the
networks of the run that left its fold out (tools/pips_data.py: folds by photo), so no
photo is read by networks that learned from it. Photos of a fold with no run in DIR are
left out (the count is printed). Without ``--folds`` the shipped networks read every
photo, which they all learned from: a check of the fit, not a measure.

Prints, per source and overall: per-die accuracy (a die is right when each box holds the
other's centre and the values agree; matched one-to-one, nearest first: vision.scoring),
wrong / unreadable / missed / phantom dice, colour-name accuracy, principal-die accuracy
(photos with exactly one die of a colour no other die has, no colour configured) and the
milliseconds of a reading. ``--sweep`` prints right / wrong / unreadable dice for
thresholds of the value's probability (to choose ``vision.tray.VALUE_MIN`` out of fold);
``--errors`` lists every die not read right.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.timing import print_times  # noqa: E402
from tools.pips_data import SOURCES, load_photos  # noqa: E402
from vision.scoring import Score, score_photo  # noqa: E402
from vision.tray import VALUE_MIN, PipReader  # noqa: E402

THRESHOLDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def _unique_colour_index(labels: list[dict]) -> int | None:
    """The label of the one die whose colour no other die has, if exactly one (all colours known)."""
    counts = Counter(label["color"] for label in labels)
    unique = [i for i, label in enumerate(labels) if label["color"] and counts[label["color"]] == 1]
    if len(unique) == 1 and all(label["color"] for label in labels):
        return unique[0]
    return None


def _readers(folds: Path | None, value_min: float) -> dict[int, PipReader]:
    """fold → the reader whose networks left that fold out (the shipped networks for all without folds)."""
    if folds is None:
        shipped = PipReader(value_min=value_min)
        return dict.fromkeys(range(4), shipped)
    readers = {}
    for run in sorted(p for p in folds.iterdir() if p.is_dir() and p.name.isdigit()):
        reader = PipReader(run, value_min)
        readers.update({int(k): reader for k in run.name})
    return readers


def _row(name: str, score: Score) -> None:
    colour = 100 * score.color_right / score.color_known if score.color_known else float("nan")
    print(f"{name:28} {score.labelled:5} {100 * score.accuracy:6.1f} {score.wrong:5} {score.unreadable:6} "
          f"{score.missed:6} {score.phantom:7} {100 * score.phantom / max(score.labelled, 1):5.2f} {colour:8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=Path, help="folder of the out-of-fold training runs")
    parser.add_argument("--sweep", action="store_true", help="right/wrong/unreadable for several value thresholds")
    parser.add_argument("--errors", action="store_true", help="list every die not read right")
    parser.add_argument("--only", help="run only the sources whose folder name contains this")
    args = parser.parse_args()
    if args.folds is not None and not args.folds.is_dir():
        parser.error(f"--folds {args.folds}: no such folder "
                     "(make it with tools/train_pips.py --leave-out K --out DIR/K)")
    cv2.setNumThreads(1)
    photos = load_photos()
    readers = _readers(args.folds, 0.0 if args.sweep else VALUE_MIN)
    if args.folds is None:
        print("shipped networks: they learned from every photo, so this is a check of the fit, not a measure")
    total, times, cpu_times = Score(), [], []
    principal_right = principal_photos = skipped = cut_phantoms = 0
    sweep: dict[str, list[tuple[float, bool]]] = {}
    print(f"{'source':28} {'dice':>5} {'acc %':>6} {'wrong':>5} {'unread':>6} {'missed':>6} "
          f"{'phantom':>7} {'/100':>5} {'colour %':>8}")
    for source in SOURCES:
        if args.only and args.only not in source:
            continue
        score = Score()
        reasons: Counter = Counter()
        for photo in (p for p in photos if p.source == source):
            if photo.fold not in readers:
                skipped += 1
                continue
            image = cv2.imread(str(photo.path))
            cpu = time.process_time()
            reading = readers[photo.fold].read(image)
            cpu_times.append(time.process_time() - cpu)
            times.append(reading.seconds)
            result, pairs = score_photo(reading.dice, photo.dice)
            score.add(result)
            reasons.update(d.unreadable for d in reading.dice if d.unreadable)
            target = _unique_colour_index(photo.dice)
            if target is not None:
                principal_photos += 1
                principal_right += any(i is not None and j == target and reading.dice[i].principal
                                       for i, j in pairs)
            cut_phantoms += sum(1 for i, j in pairs if j is None and reading.dice[i].unreadable == "cut off")
            for i, j in pairs:
                die = reading.dice[i] if i is not None else None
                label = photo.dice[j] if j is not None else None
                if die is not None and label is not None and die.unreadable is None:  # --sweep reads every value
                    sweep.setdefault(source, []).append((die.confidence, die.value == label["value"]))
                if args.errors and (die is None or label is None or die.value != label["value"]):
                    print(f"  {photo.path.name}: label {label and (label['value'], label['box'])} "
                          f"read {die and (die.value, die.unreadable, die.box, round(die.confidence, 3))}")
        total.add(score)
        _row(source, score)
        if score.confusions:
            print(f"{'':28} wrong (label→read): {dict(Counter(score.confusions).most_common(8))}")
        if reasons:
            print(f"{'':28} unreadable dice, phantoms included: {dict(reasons)}")
    _row("overall", total)
    if cut_phantoms:
        print(f"of the phantoms, {cut_phantoms} are dice cut by the photo's edge (reported 'cut off'; "
              "the labels leave such dice out)")
    if skipped:
        print(f"{skipped} photos left out: their folds have no run in {args.folds}")
    if principal_photos:
        print(f"principal die right: {principal_right}/{principal_photos} "
              f"({100 * principal_right / principal_photos:.1f} %) of photos with one die of a unique colour")
    print_times(times, cpu_times)
    if args.sweep:
        print("value threshold: right / wrong / unreadable (matched dice, not cut off or blurred) per source")
        for t in THRESHOLDS:
            cells = [f"{sum(ok for c, ok in v if c >= t):4} right {sum(not ok for c, ok in v if c >= t):3} wrong "
                     f"{sum(c < t for c, _ in v):3} unread" for v in (sweep.get(s, []) for s in SOURCES)]
            print(f"  {t:4.2f}  " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
