"""How many labelled dice each numbered-dice detector finds on a source, and the kinds the classifier names them.

Run by hand from the repository root (one core; DICELENS_DATASETS: tools/datasets.py):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_detector_recall.py FOLDER SOURCE

FOLDER holds a run's ``numerals_detect.onnx``, ``numerals_classify.onnx`` and, when trained,
the second detector ``numerals_detect_varied.onnx`` (tools/train_numerals.py; a leave-one-source-out
run of SOURCE, e.g. ``real-polyhedral/banachowicz-mixed-d10``, to measure a tray it never saw).
Each detector reads every photo of SOURCE in one pass (``vision.numerals._detect_at``, heat ≥
HEAT_MIN) at the letterbox's scale and at the scale that makes the photo's labelled dice
LEARNED_SIDE (their median side), with no other pass and no classifier: a die is found when a
candidate lies within 0.4 of its side of its box's centre. Prints, per detector and scale, the
dice found and the candidates; then, per label kind, the kind the classifier names at the
candidate of the last detector (at the learned scale) nearest each die.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools import numerals_data  # noqa: E402
from vision import numerals  # noqa: E402
from vision.network import Network  # noqa: E402
from vision.scale import Pyramid  # noqa: E402

NEAR = 0.4  # of a die's side: a candidate this close to its centre finds it


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a run's folder of numbered-dice networks")
    parser.add_argument("source", help="a source of the datasets, e.g. real-d20/lurig-platform-d20")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    detectors = {"first": Network(args.folder / numerals.DETECT_FILE, "numbered-dice detector")}
    if (args.folder / numerals.VARIED_DETECT_FILE).is_file():
        detectors["second"] = Network(args.folder / numerals.VARIED_DETECT_FILE, "numbered-dice detector")
    numerals._CLASSIFIER = Network(args.folder / "numerals_classify.onnx", "numbered-dice classifier")
    found: Counter = Counter()
    named: Counter = Counter()
    dice = 0
    for photo in numerals_data.load_photos((args.source,)):
        image = cv2.imread(str(photo.path))
        labels = [(x, y, side, d["kind"]) for (x, y, side), d in zip(photo.centres(), photo.dice, strict=True)]
        dice += len(labels)
        pyramid = Pyramid(image)
        side = float(np.median([s for _, _, s, _ in labels]))
        scales = {"letterbox": numerals.DETECT_SIZE / max(image.shape[:2]),
                  "learned": min(numerals.MAX_SCALE, numerals.LEARNED_SIDE / side)}
        for name, detector in detectors.items():
            for where, scale in scales.items():
                candidates = numerals._detect_at(pyramid, scale, numerals.HEAT_MIN, detector)
                found[name, where] += sum(any(np.hypot(cx - x, cy - y) < NEAR * s for cx, cy, _, _ in candidates)
                                          for x, y, s, _ in labels)
                found[name, where, "candidates"] += len(candidates)
        if candidates:  # the last detector's, at the learned scale
            nearest = [min(candidates, key=lambda c, x=x, y=y: np.hypot(c[0] - x, c[1] - y)) for x, y, _, _ in labels]
            kinds, _ = numerals.Looks(image)(nearest)
            named.update((kind, numerals.CLASSES[int(np.argmax(p))])
                         for (_, _, _, kind), p in zip(labels, kinds, strict=True))
    print(f"{args.source}: {dice} labelled dice; networks of {args.folder}")
    for name in detectors:
        for where in ("letterbox", "learned"):
            print(f"  {name} detector at the {where} scale: {found[name, where]} found "
                  f"({100 * found[name, where] / max(dice, 1):.1f} %), {found[name, where, 'candidates']} candidates")
    for kind in sorted({k for k, _ in named}):
        row = sorted(((read, n) for (k, read), n in named.items() if k == kind), key=lambda r: -r[1])
        print(f"  {kind} named: " + ", ".join(f"{read} {n}" for read, n in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
