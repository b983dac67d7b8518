"""Colour naming on the real tray photos: accuracy per source and a confusion matrix.

Run by hand from the repository root: ``.venv/bin/python benchmarks/vision_colors.py``.
Every die with a colour label in the datasets' ``real-dice/*/labels.json`` (tools/datasets.py) is named from
its label box with ``vision.colors.name_color_box``. Boxes mean different things per source:
byler boxes are the whole die (used as they are), penlington boxes hug the pips of the top
face (grown to a square 1.3× their longer side, at least 36 px: about the top face),
patterson images are one die each (the whole crop). Three white-balance modes are scored:
the floor's colour estimated with every labelled die left out (what the reader can do with
its detections; the floor's brightness too, for the exposure), ``name_color_box``
estimating both alone, and none (nor any exposure correction).

The thresholds of ``vision.colors.ColorRules`` were fitted to these photos. ``--fit`` shows
how: a coordinate search over a grid of each threshold, maximising the mean of the
per-source accuracies, on all photos (the defaults) and in 5-fold cross-validation with the
folds split by photo (patterson crops of one photo stay together), each fold scored with
thresholds fitted on the other four. Report the cross-validated figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.datasets import source as dataset_source  # noqa: E402
from tools.pips_data import SOURCES  # noqa: E402
from vision.colors import PALETTE, RULES, ColorRules, box_features, estimate_floor, estimate_white, exposure_gain  # noqa: E402

GRID = {
    "white_l": [40, 45, 50, 55, 60, 65],
    "yellow_l": [45, 48, 51, 54, 57],
    "light_chroma": [10, 12, 15, 18, 22, 26],
    "cool_chroma": [6, 8, 10, 12, 14, 16],
    "warm_dark": [12, 16, 20, 24, 28, 32],
    "warm_light": [6, 8, 10, 12, 14, 16, 20],
    "warm_share": [0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    "red_gold": [40, 45, 50, 55, 60],
    "gold_green": [100, 106, 112, 120, 130],
    "green_blue": [200, 210, 218, 230, 240],
    "blue_purple": [300, 304, 308, 312, 316],
    "purple_red": [335, 340, 345, 350, 355],
}


@dataclasses.dataclass
class Die:
    source: str
    photo: str  # photos whose dice must stay on one side of a split share this
    label: str
    features: tuple[float, float, float, float]
    complete: bool  # every die of the photo has a colour label


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


def load(balance: str) -> tuple[list[Die], list[float]]:
    """Every labelled die's colour features, and the milliseconds each took."""
    dice, times = [], []
    for source in SOURCES:
        labels = dataset_source(f"real-dice/{source}") / "labels.json"
        for entry in json.loads(labels.read_text())["images"]:
            image = cv2.imread(str(labels.parent / entry["file"]))
            boxes = die_boxes(source, entry, image)
            ref = exposure = None
            if balance == "floor":
                covered = np.zeros(image.shape[:2], bool)
                for x0, y0, x1, y1 in boxes:
                    covered[y0:y1, x0:x1] = True
                ref = estimate_white(image, exclude=covered)
                exposure = exposure_gain(estimate_floor(image, exclude=covered))
            elif balance == "none":
                ref, exposure = (1.0, 1.0, 1.0), 1.0
            photo = entry["file"].split("_detection_")[0]
            complete = all(die.get("color") for die in entry["dice"])
            for die, box in zip(entry["dice"], boxes, strict=True):
                if die.get("color") is None:
                    continue
                start = time.perf_counter()
                features = box_features(image, box, white_reference=ref, exposure=exposure)
                times.append(1000 * (time.perf_counter() - start))
                dice.append(Die(source, f"{source}/{photo}", die["color"], features, complete))
    return dice, times


def accuracy(dice: list[Die], rules: ColorRules) -> dict[str, float]:
    right, total = Counter(), Counter()
    for die in dice:
        total[die.source] += 1
        right[die.source] += rules.name(*die.features) == die.label
    return {source: right[source] / total[source] for source in total}


def fit(dice: list[Die], rounds: int = 3) -> ColorRules:
    """Coordinate search from the middle of every grid: each threshold in turn set to its
    best grid value (ties: the nearer one), a few rounds."""
    rules = dataclasses.replace(RULES, **{name: float(values[len(values) // 2])
                                          for name, values in GRID.items()})

    def score(candidate: ColorRules) -> float:
        return float(np.mean(list(accuracy(dice, candidate).values())))

    for _ in range(rounds):
        for name, values in GRID.items():
            current = getattr(rules, name)
            best = max(values, key=lambda v: (score(dataclasses.replace(rules, **{name: v})),
                                              -abs(v - current)))
            rules = dataclasses.replace(rules, **{name: float(best)})
    return rules


def unique_die(colours: list[str]) -> int | None:
    """Index of the one die whose colour no other die has, None unless exactly one is."""
    counts = Counter(colours)
    unique = [i for i, c in enumerate(colours) if counts[c] == 1]
    return unique[0] if len(unique) == 1 else None


def principal_report(dice: list[Die], named: list[str]) -> None:
    """Photos with exactly one die of a colour no other die has (by the labels): how often
    the named colours single out the same die, as the principal die rule would."""
    photos = defaultdict(list)
    for i, die in enumerate(dice):
        photos[die.photo].append(i)
    right = total = 0
    for indices in photos.values():
        first = dice[indices[0]]
        if len(indices) < 2 or not first.complete or first.source.startswith("patterson"):
            continue  # patterson: one crop per die, the photo's other dice may be missing
        target = unique_die([dice[i].label for i in indices])
        if target is None:
            continue
        total += 1
        right += unique_die([named[i] for i in indices]) == target
    print(f"  principal die by colour (label boxes): {right}/{total} photos "
          f"({100 * right / max(total, 1):.1f} %) single out the labels' unique die")


def report(dice: list[Die], named: list[str]) -> None:
    per = defaultdict(Counter)
    confusion = Counter()
    for die, name in zip(dice, named, strict=True):
        per[die.source][die.label == name] += 1
        confusion[die.label, name] += 1
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
    principal_report(dice, named)


def cross_validate(dice: list[Die], folds: int = 5, seed: int = 0) -> list[str]:
    """Names of every die from thresholds fitted without its photo's fold."""
    photos = sorted({die.photo for die in dice})
    order = np.random.default_rng(seed).permutation(len(photos))
    fold_of = {photos[i]: k % folds for k, i in enumerate(order)}
    named: list[str] = [""] * len(dice)
    for k in range(folds):
        train = [die for die in dice if fold_of[die.photo] != k]
        rules = fit(train)
        print(f"  fold {k}: fitted on {len(train)} dice: {rules}")
        for i, die in enumerate(dice):
            if fold_of[die.photo] == k:
                named[i] = rules.name(*die.features)
    return named


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fit", action="store_true",
                        help="refit the thresholds on all photos and cross-validate the fit")
    args = parser.parse_args()
    for balance, title in (("floor", "white reference from the floor, all labelled dice left out"),
                           ("auto", "white reference estimated by name_color_box alone"),
                           ("none", "no white balance")):
        dice, times = load(balance)
        print(f"{title}: {len(dice)} dice, name_color_box median {np.median(times):.2f} ms, "
              f"p95 {np.percentile(times, 95):.2f} ms per die")
        report(dice, [RULES.name(*die.features) for die in dice])
        print()
        if args.fit and balance == "floor":
            print("refitted on all photos:", fit(dice))
            print("5-fold cross-validation by photo (held-out fold named by the others' fit):")
            report(dice, cross_validate(dice))
            print()


if __name__ == "__main__":
    main()
