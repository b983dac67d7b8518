"""How the pip reader reports cocked dice (resting on an edge, two faces up: RULES T-1).

No labelled real photo shows a cocked die, so this reads synthetic trays
(``vision.synthetic.render_tray(seed, cocked=2)``, seeds the training never drew) seen
straight from above, tilted, with touching dice, and both, and prints for the cocked dice how
each was reported (``cocked``, another unreadable reason, a value — which RULES T-1
forbids — or missed), and how the flat dice beside them were read.

Run by hand from the repository root: ``.venv/bin/python benchmarks/vision_cocked.py
[--models DIR] [--trays N]``; DIR holds the two networks (``vision/models`` by default).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from vision.scoring import score_photo  # noqa: E402
from vision.synthetic import render_tray  # noqa: E402
from vision.tray import MODELS, PipReader  # noqa: E402

LOOKS = {"from above": {}, "tilted (perspective 0.4)": {"perspective": 0.4}, "touching dice": {"touching": True},
         "tilted, touching": {"perspective": 0.4, "touching": True}}
FIRST_SEED = 10_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=MODELS, help="folder of the two networks")
    parser.add_argument("--trays", type=int, default=40, help="trays per look, 2 cocked dice each")
    args = parser.parse_args()
    reader = PipReader(args.models)
    print(f"{'look':26} {'cocked':>6} {'said cocked':>11} {'other reason':>12} {'a value':>7} {'missed':>6}"
          f" | {'flat dice':>9} {'right':>6} {'wrong':>5} {'said cocked':>11} {'phantom':>7}")
    for name, options in LOOKS.items():
        cocked, flat = Counter(), Counter()
        for seed in range(FIRST_SEED, FIRST_SEED + args.trays):
            image, truth = render_tray(seed, cocked=2, **options)
            dice = reader.read(image).dice
            for i, j in score_photo(dice, truth)[1]:
                die = None if i is None else dice[i]
                if j is None:
                    flat["phantom"] += 1
                elif truth[j]["cocked"]:
                    cocked["missed" if die is None else "value" if die.value is not None
                           else "cocked" if die.unreadable == "cocked" else "other"] += 1
                else:
                    flat["dice"] += 1
                    flat["missed" if die is None else "right" if die.value == truth[j]["value"]
                         else "said cocked" if die.unreadable == "cocked" else "wrong" if die.value
                         else "unreadable"] += 1
        total = sum(cocked.values())
        print(f"{name:26} {total:6} {cocked['cocked']:11} {cocked['other']:12} {cocked['value']:7} "
              f"{cocked['missed']:6} | {flat['dice']:9} {100 * flat['right'] / max(flat['dice'], 1):5.1f}% "
              f"{flat['wrong']:5} {flat['said cocked']:11} {flat['phantom']:7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
