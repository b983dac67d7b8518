"""Write the int8 version of a float network of the readers, calibrated on what the reader feeds it.

Run by hand from the repository root (training time; needs ``onnx``, a dev dependency):

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python tools/quantize_networks.py \\
        vision/models/pips_detect.onnx /tmp/pips_detect.int8.onnx [--photos 120] [--seed 0] \\
        [--format qdq|qoperator] [--per-channel] [--reduce-range] [--activations u8|s8] \\
        [--weights u8|s8] [--ops Conv,Gemm] [--exclude NODE,…]

Calibration inputs: ``--photos`` training photos drawn with ``--seed`` from the labelled sources
(DICELENS_DATASETS, tools/datasets.py: every pip photo, the numbered photos not held out), each
read by ``vision.dice.read_dice`` (every kind) as shipped while :class:`vision.network.Network`
is wrapped, so the rows kept are the detector windows and classifier crops the readers really
feed, after their own preprocessing. The rows fed to the network of the same file name as the
one quantized are kept (at most ``--rows``, a seeded reservoir sample): a newly trained
``pips_detect.onnx`` elsewhere is calibrated on the inputs the shipped one is fed.

The network is first prepared by onnxruntime's ``quant_pre_process`` (shape inference and
graph optimisation), then quantized by ``quantize_static`` with MinMax calibration. The same
command, photos and seed give the same file. Prints the rows used and the file's size.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools import numerals_data, pips_data  # noqa: E402
from vision import network  # noqa: E402
from vision.dice import read_dice  # noqa: E402

TYPES = {"u8": "QUInt8", "s8": "QInt8"}
FORMATS = {"qdq": "QDQ", "qoperator": "QOperator"}


def training_photos() -> list[Path]:
    """Every photo the shipped networks learned from: all pip photos, the numbered ones not held out."""
    paths = [p.path for p in pips_data.load_photos()]
    paths += [p.path for p in numerals_data.load_photos() if not p.held_out]
    return sorted(set(paths))


def captured_rows(file_name: str, photos: list[Path], limit: int, rng: random.Random) -> list[np.ndarray]:
    """Up to ``limit`` input rows (each 1×3×H×W float32) that reading ``photos`` fed to the
    network named ``file_name``, a reservoir sample drawn with ``rng``."""
    kept: list[np.ndarray] = []
    seen = 0
    original = network.Network._run

    def recording(self: network.Network, rows: np.ndarray, blob: Any) -> dict[str, np.ndarray]:
        nonlocal seen
        if self.path.name == file_name:
            for row in blob(rows):
                seen += 1
                if len(kept) < limit:
                    kept.append(row[None].copy())
                elif (k := rng.randrange(seen)) < limit:
                    kept[k] = row[None].copy()
        return original(self, rows, blob)

    network.Network._run = recording  # type: ignore[method-assign]
    try:
        for path in photos:
            image = cv2.imread(str(path))
            if image is None:
                raise SystemExit(f"quantize_networks.py: cannot read the photo {path}")
            read_dice(image)
    finally:
        network.Network._run = original  # type: ignore[method-assign]
    return kept


class Rows:
    """The captured rows as onnxruntime's calibration reader (``get_next`` until None)."""

    def __init__(self, input_name: str, rows: list[np.ndarray]) -> None:
        self._feeds: Iterator[dict[str, np.ndarray]] = iter([{input_name: r} for r in rows])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._feeds, None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("network", type=Path, help="the float .onnx network")
    parser.add_argument("output", type=Path, help="the int8 .onnx file to write")
    parser.add_argument("--photos", type=int, default=120, help="training photos read for calibration")
    parser.add_argument("--rows", type=int, default=400, help="at most this many input rows calibrate")
    parser.add_argument("--seed", type=int, default=0, help="seed of the photos' and rows' draw")
    parser.add_argument("--format", choices=FORMATS, default="qdq", help="QDQ pairs or QOperator (QLinearConv…)")
    parser.add_argument("--per-channel", action="store_true", help="a scale per output channel of each weight")
    parser.add_argument("--reduce-range", action="store_true", help="7-bit weights (no saturation without VNNI)")
    parser.add_argument("--activations", choices=TYPES, default="u8", help="activation type")
    parser.add_argument("--weights", choices=TYPES, default="s8", help="weight type")
    parser.add_argument("--ops", help="only these operator types, comma-separated (e.g. Conv); default every one")
    parser.add_argument("--exclude", help="nodes left in float, comma-separated names (as after quant_pre_process)")
    args = parser.parse_args()
    try:
        import onnxruntime
        from onnxruntime import quantization
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:  # onnx is a dev dependency, not the Pi's
        parser.exit(2, f"quantize_networks.py: needs onnx ({exc}); install dicelens[dev]\n")
    if not args.network.is_file():
        parser.exit(2, f"quantize_networks.py: no network file {args.network}\n")
    if args.photos < 1 or args.rows < 1:
        parser.exit(2, "quantize_networks.py: --photos and --rows must be at least 1\n")

    cv2.setNumThreads(1)
    rng = random.Random(args.seed)
    everything = training_photos()
    photos = sorted(rng.sample(everything, min(args.photos, len(everything))))
    rows = captured_rows(args.network.name, photos, args.rows, rng)
    if not rows:
        parser.exit(2, f"quantize_networks.py: reading {len(photos)} photos fed no network named "
                       f"{args.network.name}; name the file as the reader's network it replaces\n")
    input_name = onnxruntime.InferenceSession(str(args.network), providers=["CPUExecutionProvider"]
                                              ).get_inputs()[0].name
    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "prepared.onnx"
        # onnx's own shape inference covers these convolution stacks; the symbolic one needs sympy
        quant_pre_process(str(args.network), str(prepared), skip_symbolic_shape=True)
        quantization.quantize_static(
            str(prepared), str(args.output), Rows(input_name, rows),
            quant_format=getattr(quantization.QuantFormat, FORMATS[args.format]),
            op_types_to_quantize=args.ops.split(",") if args.ops else None,
            nodes_to_exclude=args.exclude.split(",") if args.exclude else None,
            per_channel=args.per_channel, reduce_range=args.reduce_range,
            activation_type=getattr(quantization.QuantType, TYPES[args.activations]),
            weight_type=getattr(quantization.QuantType, TYPES[args.weights]),
            calibrate_method=quantization.CalibrationMethod.MinMax)
    print(f"{args.output}: {len(rows)} rows of {len(photos)} photos (seed {args.seed}), "
          f"{args.output.stat().st_size / 1024:.0f} KiB (float {args.network.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
