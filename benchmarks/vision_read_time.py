"""Benchmark the time of vision.read_dice (every kind) per photo and per die added, on one core.

Run by hand from the repository root, niced on the shared machine:

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/vision_read_time.py \
        [--repeat N] [--limit N] [--save FILE] [--compare FILE]

Photos: every labelled photo of every source of the datasets (DICELENS_DATASETS:
tools/datasets.py), each read by ``read_dice(image)`` (every kind) as shipped: OpenCV and
onnxruntime on one thread (``cv2.setNumThreads(1)``, which vision.network follows).

Prints the load average before and after, then per source and over all photos the median
and p95 CPU milliseconds a photo (process time of the reading; each photo read ``--repeat``
times, its least time kept: the machine is shared), and the cost of a die added two ways:
the least-squares slope of CPU ms against the photo's labelled dice over all real photos,
and over photos composed from real crops, 1 to :data:`COMPOSED_MAX` byler dice pasted on one
floor (byler's own floor colour, 640×640 px; same crops in the same places, one more die each).

``--save FILE`` writes every photo's reading (kind, value, unreadable reason, box, colour and confidence of each die)
as JSON; ``--compare FILE`` reads one saved before and prints the photos and dice that differ
(a die is the same when kind, value, reason, box, colour and confidence to 0.001 are; 0 expected of a change meant to
leave readings alone).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools import numerals_data, pips_data  # noqa: E402
from vision.dice import read_dice  # noqa: E402

COMPOSED_MAX = 16  # dice on the largest composed photo
COMPOSED_SIDE = 640  # pixels: the composed photos' side (byler's photos are 640×640)


def photos(limit: int | None) -> list[tuple[str, Path, int]]:
    """(source, path, labelled dice) of every photo of every source, in source and name order."""
    seen: set[Path] = set()
    out = []
    for photo in numerals_data.load_photos() + pips_data.load_photos():
        if photo.path not in seen:
            seen.add(photo.path)
            out.append((photo.source, photo.path, len(photo.dice)))
    out.sort(key=lambda p: (p[0], p[1].name))
    if limit:
        out = [p for s in dict.fromkeys(p[0] for p in out) for p in [q for q in out if q[0] == s][:limit]]
    return out


def cpu_ms(image: np.ndarray, repeat: int) -> tuple[float, list]:
    """The least CPU milliseconds of ``repeat`` readings of ``image``, and its dice."""
    best, dice = float("inf"), []
    for _ in range(repeat):
        start = time.process_time()
        dice = read_dice(image).dice
        best = min(best, 1000 * (time.process_time() - start))
    return best, dice


def composed(count: int) -> np.ndarray:
    """A 640×640 photo of ``count`` real byler dice (their labelled boxes with a little floor
    around) on byler's floor colour, in a grid; the same first dice on every photo."""
    source = [p for p in pips_data.load_photos(("byler-tray-d6",))]
    crops = []
    for photo in source:
        image = cv2.imread(str(photo.path))
        for d in photo.dice:
            x0, y0, x1, y1 = d["box"]
            pad = max(2, (x1 - x0) // 8)
            crop = image[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad]
            if crop.shape[0] >= 30 and crop.shape[1] >= 30 and crop.shape[0] <= 70 and crop.shape[1] <= 70:
                crops.append(crop)
        if len(crops) >= COMPOSED_MAX:
            break
    floor = np.median(cv2.imread(str(source[0].path))[:40].reshape(-1, 3), axis=0).astype(np.uint8)
    canvas = np.empty((COMPOSED_SIDE, COMPOSED_SIDE, 3), np.uint8)
    canvas[:] = floor
    cell = COMPOSED_SIDE // 4
    for k, crop in enumerate(crops[:count]):
        y, x = (k // 4) * cell + (cell - crop.shape[0]) // 2, (k % 4) * cell + (cell - crop.shape[1]) // 2
        canvas[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    return canvas


def slope(xs: list[float], ys: list[float]) -> float:
    """The least-squares slope of ``ys`` against ``xs``."""
    return float(np.polyfit(np.asarray(xs, float), np.asarray(ys, float), 1)[0])


def _summary(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    print(f"{name:28}{len(ms):7}{statistics.median(ms):9.1f}{ms[int(0.95 * (len(ms) - 1))]:9.1f}")


def _key(die) -> list:
    return [die.kind, die.value, die.unreadable, list(die.box), die.color, round(die.confidence, 3)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="readings of each photo (the least time is kept)")
    parser.add_argument("--limit", type=int, help="only the first N photos of each source")
    parser.add_argument("--save", type=Path, help="write every photo's reading to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare the readings with a file --save wrote")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    all_photos = photos(args.limit)
    read_dice(cv2.imread(str(all_photos[0][1])))  # load the networks first
    by_source: dict[str, list[float]] = {}
    counts, times, readings = [], [], {}
    for source, path, dice in all_photos:
        ms, found = cpu_ms(cv2.imread(str(path)), args.repeat)
        by_source.setdefault(source, []).append(ms)
        counts.append(dice)
        times.append(ms)
        readings[f"{source}/{path.name}"] = [_key(d) for d in found]
    print(f"{'source':28}{'photos':>7}{'median':>9}{'p95':>9}   CPU ms a photo, read_dice (every kind)")
    for source, ms in by_source.items():
        _summary(source, ms)
    _summary("all photos", times)
    print(f"per die, fit over the real photos: {slope(counts, times):.2f} ms a labelled die")
    steps = list(range(1, COMPOSED_MAX + 1))
    composed_ms = [cpu_ms(composed(n), args.repeat)[0] for n in steps]
    pairs = zip(steps, composed_ms, strict=True)
    print("composed photos (dice: CPU ms): " + ", ".join(f"{n}: {t:.1f}" for n, t in pairs))
    print(f"per die, fit over the composed photos: {slope(steps, composed_ms):.2f} ms a die added")
    print(f"load average after: {os.getloadavg()[0]:.1f} (CPU times, but a busy machine slows them too)")
    if args.save:
        args.save.write_text(json.dumps(readings, indent=0))
    if args.compare:
        before = json.loads(args.compare.read_text())
        photos_differ = dice_differ = 0
        for name, dice in readings.items():
            old = before.get(name)
            if old is None or old != dice:
                photos_differ += 1
                old = old or []
                dice_differ += sum(1 for d in dice if d not in old) + sum(1 for d in old if d not in dice)
                print(f"  differs: {name}: before {old} now {dice}")
        print(f"readings compared with {args.compare}: {photos_differ} photos, {dice_differ} dice differ "
              f"of {len(readings)} photos")
    return 0


if __name__ == "__main__":
    sys.exit(main())
