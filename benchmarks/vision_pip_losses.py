"""Where the leave-one-source-out pip reader loses each labelled die it does not read right.

Run by hand from the repository root (one core), after tools/train_loso.sh has trained the
pip networks into DIR (default /work/tmp/loso):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_pip_losses.py [DIR] [--value-min V] [--heat H]

Each pip source's photos are read as benchmarks/vision_generalise.py reads them (by
DIR/pips/<source>/, networks that never saw the source), at one value threshold and detector
threshold, and every labelled die is put in the first stage of the reader that lost it:

- ``right``, ``wrong`` (a value, not the label's), ``unreadable: <reason>``;
- ``lost after detection: classifier says floor``: a candidate of a detector pass lies on the die
  (each one's centre inside the other's square, its side half to twice the label's) at the
  detector threshold, and the classifier
  gives its crop less than the reader's DIE_MIN of being a die;
- ``lost after detection: another pass kept``: such a candidate is read a die, but the pass
  the reader kept has none on the die;
- ``lost after detection: pips rule``: the kept pass has one, and its pips rule
  (``PipReader._without_pips``) left it out;
- ``detected only below the threshold``: a candidate lies on it only at heats from FLOOR up;
- ``never detected``: no candidate of any pass the reader made, down to FLOOR.

Beside each stage: how many of its dice the classifier reads right, at the value threshold,
from a crop at the label (its centre and side: tools/pips_data.targets), which says whether
the crop's place and size or the classifier is at fault; and the median ratio of the nearest
candidate's side to the label's. The phantoms (readings matching no label) are counted too.
Figures are printed per source, then over all pip sources.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tools import pips_data  # noqa: E402
from vision.scoring import score_photo  # noqa: E402
from vision.tray import COCKED, DIE_MIN, HEAT_MIN, VALUE_MIN, PipReader, crop_die  # noqa: E402

SIDES = (0.5, 2.0)  # a candidate's side over the label's: outside this it is not the die's (a pip, a cluster)
FLOOR = 0.1  # the weakest detector peak looked at for "detected only below the threshold"
STAGES = ("right", "wrong", "unreadable: ambiguous pips", "unreadable: cocked", "unreadable: blurred",
          "unreadable: cut off", "lost after detection: classifier says floor",
          "lost after detection: another pass kept", "lost after detection: pips rule",
          "detected only below the threshold", "never detected")


def _on(candidate: tuple[float, float, float, float], target: tuple[float, float, float]) -> bool:
    """Whether a candidate (x, y, side, heat) is of a label's target (x, y, side): each holds the
    other's centre, and its side is within SIDES of the label's (not one of the die's pips)."""
    (x, y, side, _), (tx, ty, ts) = candidate, target
    return abs(x - tx) <= min(side, ts) / 2 and abs(y - ty) <= min(side, ts) / 2 \
        and SIDES[0] <= side / ts <= SIDES[1]


def _label_crop_right(reader: PipReader, image: np.ndarray, target: tuple[float, float, float], value: int) -> bool:
    """Whether the classifier reads the label's value from a crop at the label, at the reader's
    die and value thresholds (DIE_MIN, its value_min; the cocked verdict aside)."""
    x, y, side = target
    p = reader.classify(crop_die(image, (x, y), side)[None])[0]
    die_p = 1.0 - float(p[0])
    if die_p < DIE_MIN:
        return False
    values = p[1:COCKED] / die_p
    return int(np.argmax(values)) + 1 == value and float(values.max()) >= reader.value_min


class TracingReader(PipReader):
    """The pip reader, keeping the candidates of the pass it kept before its pips rule (``kept``)."""

    kept: list[tuple[float, float, float, float]]

    def read(self, image, principal_color=None, first=None, named=True):
        self.kept = []
        return super().read(image, principal_color, first, named)

    def _without_pips(self, looks, found, others):
        self.kept = list(found)
        return super()._without_pips(looks, found, others)


def trace_source(source: str, reader: TracingReader, stages: Counter, crop_right: Counter,
                 side_ratios: dict[str, list[float]]) -> None:
    """Add the stage of every labelled die of ``source``'s photos (see the module's docstring)."""
    for photo in pips_data.load_photos((source,)):
        image = cv2.imread(str(photo.path))
        first = reader.first_pass(image, floor=FLOOR)
        reading = reader.read(image, first=first)
        _, pairs = score_photo(reading.dice, photo.dice)
        matched = {j: reading.dice[i] for i, j in pairs if i is not None and j is not None}
        stages["phantom"] += sum(1 for i, j in pairs if j is None)
        candidates = [c for found in first.looks.passes.values() for c in found]
        for j, (label, target) in enumerate(zip(photo.dice, photo.targets, strict=True)):
            die = matched.get(j)
            on = [c for c in candidates if _on(c, target)]
            hot = [c for c in on if c[3] >= reader.heat_min]
            if die is not None:
                stage = ("right" if die.value == label["value"] else "wrong") if die.value is not None \
                    else f"unreadable: {die.unreadable}"
            elif hot:
                read = [c for c, d in zip(hot, first.looks.read(hot), strict=True) if d is not None]
                kept = reader.kept or first.found  # no pips rule: one pass only, the first
                stage = "lost after detection: " + ("classifier says floor" if not read else
                                                    "pips rule" if any(c in kept for c in read) else
                                                    "another pass kept")
            else:
                stage = "detected only below the threshold" if on else "never detected"
            stages[stage] += 1
            crop_right[stage] += _label_crop_right(reader, image, target, label["value"])
            if on:
                nearest = min(on, key=lambda c: (c[0] - target[0]) ** 2 + (c[1] - target[1]) ** 2)
                side_ratios[stage].append(nearest[2] / target[2])


def print_table(name: str, stages: Counter, crop_right: Counter, side_ratios: dict[str, list[float]]) -> None:
    total = sum(n for stage, n in stages.items() if stage != "phantom")
    print(f"\n{name}: {total} labelled dice, {stages['phantom']} phantoms (readings of no labelled die)")
    print("| stage | dice | share | read right from a crop at the label "
          "| nearest candidate's side / label's (median) |")
    print("|---|---|---|---|---|")
    for stage in STAGES:
        if stages[stage]:
            ratios = side_ratios.get(stage)
            ratio = f"{statistics.median(ratios):.2f}" if ratios else "–"
            print(f"| {stage} | {stages[stage]} | {100 * stages[stage] / total:.1f} % | "
                  f"{crop_right[stage]} | {ratio} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="?", default=Path("/work/tmp/loso"),
                        help="folder of tools/train_loso.sh's networks (pips/<source>/)")
    parser.add_argument("--value-min", type=float, default=VALUE_MIN, help=f"value threshold (default {VALUE_MIN})")
    parser.add_argument("--heat", type=float, default=HEAT_MIN, help=f"detector threshold (default {HEAT_MIN})")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    totals: tuple[Counter, Counter, dict[str, list[float]]] = (Counter(), Counter(), defaultdict(list))
    traced = 0
    for source in pips_data.SOURCES:
        folder = args.runs / "pips" / source
        if not (folder / "classifier.done").exists():
            print(f"{source}: left out, no finished run in {folder}")
            continue
        reader = TracingReader(folder, value_min=args.value_min, heat_min=args.heat)
        counts: tuple[Counter, Counter, dict[str, list[float]]] = (Counter(), Counter(), defaultdict(list))
        trace_source(source, reader, *counts)
        print_table(f"{source} (value threshold {args.value_min}, heat {args.heat})", *counts)
        totals[0].update(counts[0])
        totals[1].update(counts[1])
        for stage, ratios in counts[2].items():
            totals[2][stage] += ratios
        traced += 1
    if traced > 1:
        print_table("all pip sources traced", *totals)
    return 0 if traced else 1


if __name__ == "__main__":
    sys.exit(main())
