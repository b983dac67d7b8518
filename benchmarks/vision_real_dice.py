"""Benchmark the dice reader on the real photos of ../shared/datasets/real-dice/.

Run by hand from the repository root (one core, as the issue asks):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_real_dice.py [--errors] [--folds /tmp/pips-oof]

Prints, per source and overall: per-die accuracy, wrong / unreadable /
missed / phantom dice, colour-name accuracy, principal-die accuracy (photos
with exactly one die of a colour no other die has, no colour configured) and
the median and p95 milliseconds of a reading. The hand-tuned thresholds
were set while looking at these development photos: the held-out photos of
the same sources may score lower. The learned classifier's second look
(vision/hybrid.py) was trained on these photos: ``--folds DIR`` (as in
benchmarks/vision_real_dice_learned.py, folder of ``tools/train_pips.py
--leave-out K --out DIR/K`` runs) has each photo looked at by the networks
that left its fold out, the honest figures; without it, the shipped networks.
Wall-clock times depend on what else runs on the machine (the load average
is printed); the CPU time of the reading does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.pips_data import Photo  # noqa: E402
from vision import read_tray  # noqa: E402
from vision.pips_learned import PipReader  # noqa: E402
from vision.scoring import Score, load_labels, score_photo  # noqa: E402

DATASETS = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "real-dice"


def _unique_colour_index(labels: list[dict]) -> int | None:
    counts = Counter(label["color"] for label in labels)
    unique = [i for i, label in enumerate(labels) if label["color"] and counts[label["color"]] == 1]
    if len(unique) == 1 and all(label["color"] for label in labels):
        return unique[0]
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list every wrong, missed or phantom die")
    parser.add_argument("--only", help="run only the sources whose folder name contains this")
    parser.add_argument("--folds", type=Path, help="folder of the out-of-fold pip network runs")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    fold_readers = {}
    for run in sorted(p for p in (args.folds.iterdir() if args.folds else ()) if p.is_dir()):
        reader = PipReader(run)
        fold_readers.update({int(k): reader for k in run.name})
    total, times, cpu_times = Score(), [], []
    total_cut_phantoms = 0
    principal_right = principal_photos = 0
    print(f"{'source':28} {'dice':>5} {'acc %':>6} {'wrong':>5} {'unread':>6} {'missed':>6} "
          f"{'phantom':>7} {'colour %':>8}")
    for labels_file in sorted(DATASETS.glob("*/labels.json")):
        folder = labels_file.parent
        if args.only and args.only not in folder.name:
            continue
        score = Score()
        reasons: Counter = Counter()
        cut_phantoms = 0
        for path, entry in load_labels(folder):
            image = cv2.imread(str(path))
            cpu = time.process_time()
            reader = fold_readers[Photo(path, folder.name, [], []).fold] if args.folds else None
            reading = read_tray(image, pip_reader=reader)
            cpu_times.append(time.process_time() - cpu)
            times.append(reading.seconds)
            photo, pairs = score_photo(reading.dice, entry["dice"])
            score.add(photo)
            reasons.update(d.unreadable for d in reading.dice if d.unreadable)
            target = _unique_colour_index(entry["dice"])
            if target is not None:
                principal_photos += 1
                principal_right += any(i is not None and j == target and reading.dice[i].principal
                                       for i, j in pairs)
            cut_phantoms += sum(1 for i, j in pairs if j is None and reading.dice[i].unreadable == "cut off")
            if args.errors:
                for i, j in pairs:
                    die = reading.dice[i] if i is not None else None
                    label = entry["dice"][j] if j is not None else None
                    if die is None or label is None or die.value != label["value"]:
                        print(f"  {path.name}: label {label and (label['value'], label['box'])} "
                              f"read {die and (die.value, die.unreadable, die.box)}")
        total.add(score)
        colour = 100 * score.color_right / score.color_known if score.color_known else float("nan")
        print(f"{folder.name:28} {score.labelled:5} {100 * score.accuracy:6.1f} {score.wrong:5} "
              f"{score.unreadable:6} {score.missed:6} {score.phantom:7} {colour:8.1f}")
        if score.confusions:
            print(f"{'':28} wrong (label→read): {dict(Counter(score.confusions).most_common(8))}")
        if reasons:
            print(f"{'':28} unreadable: {dict(reasons)}")
        if cut_phantoms:
            print(f"{'':28} of the phantoms, {cut_phantoms} are dice cut by the photo's edge "
                  "(reported 'cut off'; the labels leave such dice out)")
        total_cut_phantoms += cut_phantoms
    colour = 100 * total.color_right / total.color_known if total.color_known else float("nan")
    print(f"{'overall':28} {total.labelled:5} {100 * total.accuracy:6.1f} {total.wrong:5} "
          f"{total.unreadable:6} {total.missed:6} {total.phantom:7} {colour:8.1f}")
    print(f"phantom dice per 100 real dice: {100 * total.phantom / max(total.labelled, 1):.2f} "
          f"({100 * (total.phantom - total_cut_phantoms) / max(total.labelled, 1):.2f} "
          "without the 'cut off' dice at the photo's edge)")
    if principal_photos:
        print(f"principal die right: {principal_right}/{principal_photos} "
              f"({100 * principal_right / principal_photos:.1f} %) of photos with one die of a unique colour")
    ms = sorted(1000 * t for t in times)
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} (times are only meaningful near 0)")
    print(f"time per photo (one core): median {statistics.median(ms):.1f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms over {len(ms)} photos (wall clock)")
    cpu_ms = sorted(1000 * t for t in cpu_times)
    print(f"CPU time per photo (one thread, unaffected by other work): median "
          f"{statistics.median(cpu_ms):.1f} ms, p95 {cpu_ms[int(0.95 * (len(cpu_ms) - 1))]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
