"""Benchmark the table's own dice (vision/adapt.py): a table taught K photos, then read.

Run by hand from the repository root (one core), after tools/train_loso.sh has trained the
leave-one-source-out networks into DIR (default /work/tmp/loso):

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/vision_adapt.py [DIR] [--k 0 5 10 20 40]
        [--sources NAME…] [--test N] [--shipped]

``--shipped`` fits and reads with the shipped networks instead, which learned these sources:
for the fit's time alone (no leave-one-source-out run needed), not for what it reads.

Each source of the datasets (DICELENS_DATASETS: tools/datasets.py) is a table whose dice the
networks never saw (as benchmarks/vision_generalise.py reads it: pip sources by the pip reader
with DIR/pips/<source>/, banachowicz and burks by the numbered reader with
DIR/numerals/<source>/, lurig by the shipped numbered networks, which never learned from it).
Its photos in labels.json order: the labels of the first K are taught (vision.adapt.fit, as
``dicelens teach`` does) and the photos after the first max(K) are read (the same photos for
every K, so the rows compare); K = 0 is the shipped reader. Prints per source and K: dice,
right, wrong (value or kind), unreadable, missed (and of them, "det", those the detector never
found: no candidate down to adapt.LOW_HEAT lies on them, which no head can mend), phantom, the
share read right, whether the layer was used and its held-out figure on the taught photos, the
fit's CPU seconds, and what
reading with the layer costs a photo more than without it (median over the same photos); then
the head's fit time for 1,000 examples, the whole fit's per 1,000 dice taught (the largest K's),
and the read-time cost per photo (median CPU ms, with the layer and without).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.datasets import source as dataset_source  # noqa: E402
from vision import adapt, numerals  # noqa: E402
from vision.network import Network  # noqa: E402
from vision.scoring import score_photo  # noqa: E402
from vision.tray import PipReader  # noqa: E402

SOURCES = ("real-dice/byler-tray-d6", "real-dice/penlington-desk-d6", "real-dice/patterson-craps-d6-crops",
           "real-polyhedral/banachowicz-mixed-d10", "real-polyhedral/burks-tray-polyhedral",
           "real-d20/lurig-platform-d20")
SHIPPED_ONLY = ("lurig-platform-d20",)  # no training tool learns from it: the shipped networks never saw it


def unfound(backend: adapt.Backend, adaptation: adapt.Adaptation | None, photo: adapt.TaughtPhoto,
            dice: list) -> int:
    """How many of the photo's labelled dice no reading matched and no candidate of the
    detector's pass the reader reads with (the layer's scale, or the shipped passes), down
    to adapt.LOW_HEAT, lies on: misses of the detector, which no head can mend (the other
    misses are candidates a head or threshold turned down)."""
    _, pairs = score_photo(dice, [{"box": list(e.box), "value": e.value} for e in photo.dice])
    missed = [photo.dice[j] for i, j in pairs if i is None and j is not None]
    if not missed:
        return 0
    used = adaptation is not None and adaptation.used
    side = adapt._expected_side(adaptation.side if used else None, photo.image, backend)
    scale = backend.learned_side / side if used and adaptation.side is not None else None
    size = adaptation.size * max(photo.image.shape[:2]) if used and adaptation.size is not None else None
    looked = adapt._look(backend, photo.image, scale, side, size=size)
    return len(missed) - int(np.count_nonzero(adapt._targets(backend, looked, missed)))


def taught_photos(folder: Path) -> list[adapt.TaughtPhoto]:
    """Every photo of a source folder with its labels as examples."""
    out = []
    for entry in json.loads((folder / "labels.json").read_text())["images"]:
        image = cv2.imread(str(folder / entry["file"]))
        h, w = image.shape[:2]
        dice = [adapt.example(d.get("kind"), d["value"], d["box"], w, h) for d in entry["dice"]]
        out.append(adapt.TaughtPhoto(image, dice))
    return out


@contextmanager
def numbered_networks(folder: Path | None):
    saved = numerals._DETECTOR, numerals._CLASSIFIER
    if folder is not None:
        numerals._DETECTOR = Network(folder / "numerals_detect.onnx", "numbered-dice detector")
        numerals._CLASSIFIER = Network(folder / "numerals_classify.onnx", "numbered-dice classifier")
    try:
        yield
    finally:
        numerals._DETECTOR, numerals._CLASSIFIER = saved


def backend_of(runs: Path, path: str, shipped: bool = False) -> tuple[adapt.Backend, Path | None] | None:
    name = path.split("/")[-1]
    if shipped:
        return (adapt.PipBackend() if path.startswith("real-dice/") else adapt.NumberedBackend()), None
    if path.startswith("real-dice/"):
        folder = runs / "pips" / name
        return (adapt.PipBackend(PipReader(folder)), None) if (folder / "classifier.done").exists() else None
    if name in SHIPPED_ONLY:
        return adapt.NumberedBackend(), None
    folder = runs / "numerals" / name
    return (adapt.NumberedBackend(), folder) if (folder / "detector.done").exists() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="?", default=Path("/work/tmp/loso"))
    parser.add_argument("--k", type=int, nargs="+", default=[0, 5, 10, 20, 40])
    parser.add_argument("--sources", nargs="+", help="source names (default: all)")
    parser.add_argument("--test", type=int, metavar="N", help="read only the N photos after the first max(K) "
                        "(default: all of them; on a loaded machine a full run takes hours)")
    parser.add_argument("--shipped", action="store_true", help="the shipped networks for every source "
                        "(they learned these sources: for the fit's time only)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"{'source':28}{'K':>4}{'dice':>6}{'right':>6}{'wrong':>6}{'unread':>7}{'missed':>7}{'(det)':>6}"
          f"{'phant':>6}{'right %':>8}  layer (held-out on taught photos)      fit CPU s")
    read_ms: dict[str, list[float]] = {"with": [], "without": []}
    fits: list[tuple[float, int]] = []  # each fit's CPU seconds and dice taught
    fit_examples: list[adapt._Looked] = []
    for path in SOURCES:
        name = path.split("/")[-1]
        if args.sources and name not in args.sources:
            continue
        chosen = backend_of(args.runs, path, args.shipped)
        if chosen is None:
            print(f"{name}: left out, no finished run in {args.runs}")
            continue
        backend, networks = chosen
        with numbered_networks(networks):
            photos = taught_photos(dataset_source(path))
            rest = photos[max(args.k):][:args.test]
            shipped_ms: list[float] = []
            for k in args.k:
                adaptation = adapt.fit(photos[:k], backend) if k else None
                figures, detector_missed, extra = adapt.Figures(), 0, []
                for n, photo in enumerate(rest):
                    cpu = time.process_time()
                    reading = adapt.read(photo.image, adaptation, backend=backend)
                    spent = time.process_time() - cpu
                    if k == 0:
                        read_ms["without"].append(spent)
                        shipped_ms.append(spent)
                    elif adaptation is not None and adaptation.used and k == max(args.k):
                        read_ms["with"].append(spent)
                        if n < len(shipped_ms):  # K = 0 read it
                            extra.append(spent - shipped_ms[n])
                    figures.add(reading.dice, photo.dice)
                    detector_missed += unfound(backend, adaptation, photo, reading.dice)
                layer = ""
                if adaptation is not None:
                    held, ship = adapt.Figures(**adaptation.held_out), adapt.Figures(**adaptation.shipped)
                    layer = (f"{'used' if adaptation.used else 'not used':9}"
                             f"{100 * held.share:5.1f} % vs {100 * ship.share:5.1f} %"
                             f" side {adaptation.side and round(adaptation.side, 3)}"
                             f"{'' if adaptation.size is None else ' cropped'} heat {adaptation.heat}"
                             f" v {adaptation.value_min}")
                c = figures
                taught = sum(len(p.dice) for p in photos[:k])
                fitted = f"{adaptation.seconds:6.1f} ({taught} dice)" if adaptation else ""
                if adaptation is not None:
                    fits.append((adaptation.seconds, taught))
                print(f"{name[:27]:28}{k:4}{c.dice:6}{c.right:6}{c.wrong:6}{c.unread:7}{c.missed:7}"
                      f"{detector_missed:6}{c.phantom:6}{100 * c.share:8.1f}  {layer:38}{fitted}", flush=True)
                if extra:
                    print(f"{name}: reading with the layer costs {1000 * statistics.median(extra):+.1f} ms CPU a photo "
                          f"(median over {len(extra)} photos, the same read without it)")
                if adaptation is not None and k == max(args.k) and adaptation.head is not None and not fit_examples:
                    fit_examples = [adapt._look(backend, p.image, None, adapt._expected_side(None, p.image, backend))
                                    for p in photos[:k]]
    if fit_examples:
        offsets = np.vstack([x.offsets for x in fit_examples if x.found])
        features = np.vstack([x.features for x in fit_examples if x.found])
        picks = np.arange(1000) % len(offsets)
        targets = np.random.default_rng(0).integers(0, offsets.shape[1], 1000)
        cpu = time.process_time()
        adapt.fit_head(offsets[picks], features[picks], targets)
        print(f"the head's fit, 1,000 examples: {time.process_time() - cpu:.2f} s CPU (one core)")
    if fits:
        seconds, taught = max(fits, key=lambda f: f[1])
        print(f"the whole fit: {seconds:.1f} s CPU for {taught} dice taught, {1000 * seconds / max(taught, 1):.1f} s "
              "per 1,000 (one core)")
    for what, times in read_ms.items():
        if times:
            print(f"read a photo {what} the layer: median {1000 * statistics.median(times):.1f} ms CPU "
                  f"({len(times)} photos)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
