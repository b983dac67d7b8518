"""Benchmark the untrained pip count (vision.pip_count) alone on every labelled real pip d6.

Run by hand from the repository root (one core):

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/vision_pip_count.py

Each labelled die of real-dice/ (DICELENS_DATASETS: tools/datasets.py) is counted at its
label's box (its centre, the box's longer side), as the pip reader counts a die it found
and is unsure of. Prints per source: dice, counted (a count given), right, wrong (a count
that is not the label: the pip reader reads such a die only if its classifier gives the
same wrong value), and the median and 95th-percentile CPU milliseconds of one count (one core; CPU time, as the
machine is shared).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools import pips_data  # noqa: E402
from vision.pip_count import count_die  # noqa: E402


def main() -> int:
    cv2.setNumThreads(1)
    print(f"{'source':28}{'dice':>6}{'counted':>9}{'right':>7}{'wrong':>7}{'ms median':>11}{'ms p95':>8}")
    for source in pips_data.SOURCES:
        tally: Counter = Counter()
        times: list[float] = []
        for photo in pips_data.load_photos((source,)):
            image = cv2.imread(str(photo.path))
            for die in photo.dice:
                x0, y0, x1, y1 = die["box"]
                start = time.process_time()
                n = count_die(image, ((x0 + x1) / 2, (y0 + y1) / 2), float(max(x1 - x0, y1 - y0)))
                times.append(time.process_time() - start)
                tally["dice"] += 1
                tally["counted"] += n is not None
                tally["right"] += n == die["value"]
                tally["wrong"] += n is not None and n != die["value"]
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        print(f"{source:28}{tally['dice']:6}{tally['counted']:9}{tally['right']:7}{tally['wrong']:7}"
              f"{1000 * statistics.median(times):11.2f}{1000 * p95:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
