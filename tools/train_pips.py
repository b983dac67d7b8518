"""Train the pip-d6 detector and classifier of vision/tray.py (the pip reader), export ONNX.

Run from the repository root, in the training venv of tools/train_numerals.py (PyTorch
is never a run-time dependency of dicelens):

    /tmp/trainvenv/bin/python tools/train_pips.py --threads 1     # all photos → vision/models/
    for k in 0 1 2 3; do   # the out-of-fold networks of benchmarks/vision_real_dice.py --folds
      /tmp/trainvenv/bin/python tools/train_pips.py --threads 1 --leave-out $k --out /tmp/pips-folds/$k
    done

Learns from the labelled photos of the datasets' real-dice/ (DICELENS_DATASETS; read in place, see
tools/pips_data.py) and from synthetic trays (``--synthetic``, always). ``--leave-out``
leaves out every photo of the folds named (folds are by photo) so that
benchmarks/vision_real_dice.py --folds can read each photo with networks that
never saw it; ``--leave-out-source NAME`` leaves out every photo of one source, so that
benchmarks/vision_generalise.py reads that source with networks that never saw its tray,
camera or dice; without them every photo is learned from (the shipped networks). Fixed
seeds. The networks are built from the layer blocks, loss and colour jitter of
tools/train_numerals.py, lighter than its own: the detector's maps add the centre's
offset within its cell, the classifier has one head over background, the values 1..6 and
cocked (a die resting on an edge, learned from ``--cocked`` synthetic trays that only the
classifier sees, so the detector is trained on the same trays as before they existed).
The detector is trained first: the classifier also learns, as background, the places
where it finds a die that no label has, and as cocked the places where it finds one on a
cocked die (often centred on one of its two faces: :func:`mined_by_detector`). A run takes about 40
minutes on one core (detector 11, classifier 25–30, with other work on the machine). It can be
stopped at any moment: each network's state is saved in OUT/detector.resume and
OUT/classifier.resume after every epoch (tools/resume.py), and the same command started again goes
on from there and makes the same networks as an unbroken run; the files go when the run ends.

Two options teach what varies between tables, both off by default (the shipped networks'
recipe): ``--renders DIR`` learns from tools/render_dice.py's pip-d6 renders too (both
networks; tools/pips_data.py :func:`rendered_photos`), and ``--varied`` augments as varied
as real tables (:func:`vary_light`'s colour temperature, brightness, blur, noise and JPEG;
detector windows cut to one die filling them, dice of 10–80 px, a tilt; classifier crops
of dice of 10–20 px). For a leave-one-source-out run, render with ``--floors`` of the
training sources only (tools/train_loso.sh, PIPS_RENDERS). Two more, off by default, aim at
the sources a network never saw (tools/augment.py): ``--colour-jitter`` shows windows and
crops in other hues, channel orders, saturations and grey; ``--pip-negatives N`` teaches N
crops a photo of one pip or a few inside a labelled die as background; ``--close-ups [SHARE]``
shows the detector a SHARE of its windows (0.15 if none is given) with dice of 80–160 px,
whose pips are background.

The shipped reader has a second detector, ``vision/models/pips_detect_varied.onnx``, that it
probes on trays the first is unsure of (vision/tray.py): ``--varied-detector`` trains only the
detector and writes it under that name. The shipped one (2026-12-07; its renders by the renderer
of commit a5e6416: the renderer's random draws changed later that day, with its TrueType numerals):

    tools/render_dice.py /tmp/renders --photos 400 --seed 16 --kinds d6-pips --cocked-share 0 \
        --floors DATASETS/real-dice/*/ DATASETS/real-polyhedral/*/ DATASETS/real-d20/*/
    tools/train_pips.py --threads 1 --varied-detector --renders /tmp/renders --varied \
        --detector-epochs 100 --out vision/models

``--backbone lite0`` (issue 16) makes the classifier tools/lite0.py's ImageNet-pretrained
EfficientNet-Lite0 cut after ``--stage`` (5) and fine-tuned on the same crops, seen at
``--size`` (48) pixels, its backbone at :data:`BACKBONE_LR_SHARE` × the head's rate (the recipe
benchmarks/vision_finetune_probe.py measured best); ``--invert SHARE`` shows a share of the
crops in negative. Its ONNX keeps the reader's contract (a CROP² crop in, 8 classes out). The
leave-one-source-out run of 2026-12-03 (classifier only, beside the 40-epoch detectors):

    tools/train_pips.py --threads 1 --only classifier --leave-out-source SOURCE --out DIR \
        --backbone lite0 --renders RENDERS --varied --colour-jitter --invert 0.25 --classifier-epochs 6
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.augment import (  # noqa: E402
    CLOSE_SHARE,
    close_up,
    close_up_share,
    filling,
    perspective,
    pip_negatives,
    recolour,
    vary_light,
)
from tools.lite0 import STAGES, from_blob, lite0  # noqa: E402
from tools.pips_data import SOURCES, load_photos, rendered_photos, synthetic_photos  # noqa: E402
from tools.resume import Resume  # noqa: E402
from tools.train_numerals import conv_block, focal_loss, jitter_colour  # noqa: E402
from vision.network import to_blob  # noqa: E402
from vision.tray import (  # noqa: E402
    CLASSIFY_FILE,
    COCKED,
    CROP,
    DETECT_FILE,
    DETECT_SIZE,
    MODELS,
    STRIDE,
    VARIED_DETECT_FILE,
    PipReader,
    crop_die,
    input_scale,
)

SEED = 20261130
WINDOW = 160  # pixels: the part of the scaled photo one detector training step sees
#: Detector peaks this strong or stronger are mined (:func:`mined_by_detector`): lower than the
#: reader's HEAT_MIN, because on the photos it learned from the detector is surer than on new ones.
MINING_HEAT_MIN = 0.3
#: ``--backbone lite0``: the backbone's learning rate over the head's (benchmarks/vision_finetune_probe.py's
#: recipe B, 2026-12-03)
BACKBONE_LR_SHARE = 0.3
#: Each labelled die is shown this many times per classifier epoch (byler's small dice are the
#: hardest, patterson has few).
REPEAT = {"byler-tray-d6": 2, "penlington-desk-d6": 2, "patterson-craps-d6-crops": 3, "cocked": 2}
#: ``--varied``: the share of detector samples cut to one die filling the window (a close-up
#: or a crop, as patterson's), and of those read with the dice at any size of WIDE_SIDES
FILL_SHARE = 0.15
WIDE_SHARE = 0.25
WIDE_SIDES = (10.0, 80.0)  # pixels in the detector's input: the sizes vision/tray.py's passes see


class PipDetector(nn.Module):
    """Scaled photo → 4 maps at stride 8: centre logit, log side (input pixels), x and y
    offset of the centre from its cell's middle (cells). Lighter than the numbered-dice
    detector (about 100 MFLOP at 320²) to keep a tray photo within a few ms on one core."""

    def __init__(self) -> None:
        super().__init__()
        self.s8 = nn.Sequential(conv_block(3, 8, 2), conv_block(8, 16, 2), conv_block(16, 16), conv_block(16, 32, 2),
                                conv_block(32, 32), conv_block(32, 32))
        self.s16 = nn.Sequential(conv_block(32, 48, 2), conv_block(48, 48))
        self.fuse = nn.Sequential(nn.Conv2d(48 + 32, 32, 1), conv_block(32, 32))
        self.head = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        a = self.s8(x)
        b = F.interpolate(self.s16(a), scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([b, a], 1)))


class PipClassifier(nn.Module):
    """CROP² crop → 8 logits: background (no die centred here), values 1..6, cocked (about 13 MFLOP;
    wider than the first one of 7 MFLOP, which read fewer of byler's dark marbled dice)."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_block(3, 16), nn.MaxPool2d(2),
            conv_block(16, 32), conv_block(32, 32), nn.MaxPool2d(2),
            conv_block(32, 64), conv_block(64, 64), nn.MaxPool2d(2),
            conv_block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
        self.head = nn.Linear(96, COCKED + 1)

    def forward(self, x):
        return self.head(self.body(x))


class Lite0Classifier(nn.Module):
    """``--backbone lite0``: the same CROP² crop (BGR in [-1, 1], :func:`vision.network.to_blob`) →
    8 logits, by tools/lite0.py's ImageNet-pretrained EfficientNet-Lite0 cut after ``stage`` and
    fine-tuned, with a linear head. The network itself turns the crop into the backbone's input
    (RGB, its scaling, ``size`` pixels), so the exported ONNX keeps the reader's contract."""

    def __init__(self, stage: int, size: int) -> None:
        super().__init__()
        self.backbone, self.size = lite0(stage), size
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(STAGES[stage - 1][4], COCKED + 1))

    def forward(self, x):
        x = F.interpolate(from_blob(x), size=(self.size, self.size), mode="bilinear", align_corners=False)
        return self.head(self.backbone(x)[-1])


# --- detector -------------------------------------------------------------------------

def _detector_sample(image, dice, rng, varied: bool = False, recoloured: bool = False, close: float = 0.0):
    """A scaled, shifted, turned, flipped WINDOW² part of a photo and its target maps;
    ``varied`` (``--varied``): also cut to one die filling it, at any size, another light, a tilt;
    ``recoloured`` (``--colour-jitter``): also in other colours (:func:`recolour`);
    ``close`` (``--close-ups``): that share (0-1) of windows close up (:func:`close_up`)."""
    filled = varied and bool(dice) and rng.random() < FILL_SHARE
    if filled:
        image, dice = filling(image, dice, rng)
    h, w = image.shape[:2]
    scale = input_scale(w, h) * rng.uniform(0.75, 1.3)
    if dice and (filled or (varied and rng.random() < WIDE_SHARE)):
        side = float(np.median([s for _, _, s in dice]))
        scale = math.exp(rng.uniform(*np.log((20.0 if filled else WIDE_SIDES[0], WIDE_SIDES[1])))) / side
    focus = None
    near = None if filled else close_up([s for _, _, s in dice], close, rng)
    if near is not None:
        scale = near
        focus = dice[int(rng.integers(len(dice)))]  # a die in the window, not the floor around
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sh, sw = small.shape[:2]
    ox = int(rng.integers(min(0, WINDOW - sw), max(0, WINDOW - sw) + 1))
    oy = int(rng.integers(min(0, WINDOW - sh), max(0, WINDOW - sh) + 1))
    if focus is not None:
        ox, oy = (round(WINDOW * rng.uniform(0.3, 0.7) - c * scale) for c in focus[:2])
    elif rng.random() < 0.3:  # as at run time: the photo from the top-left corner, black beyond
        ox, oy = min(ox, 0), min(oy, 0)
    canvas = np.zeros((WINDOW, WINDOW, 3), np.uint8)
    x0, y0, x1, y1 = max(0, ox), max(0, oy), min(WINDOW, ox + sw), min(WINDOW, oy + sh)
    canvas[y0:y1, x0:x1] = small[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    points = [(x * scale + ox, y * scale + oy, s * scale) for x, y, s in dice]
    for _ in range(int(rng.integers(4))):  # 90° clockwise: (x, y) → (N - y, x)
        canvas = cv2.rotate(canvas, cv2.ROTATE_90_CLOCKWISE)
        points = [(WINDOW - y, x, s) for x, y, s in points]
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        points = [(WINDOW - x, y, s) for x, y, s in points]
    canvas = jitter_colour(np.ascontiguousarray(canvas), rng)
    if recoloured:
        canvas = recolour(canvas, rng)
    if varied:
        canvas = vary_light(canvas, rng)
        if rng.random() < 0.3:
            canvas, points = perspective(canvas, points, rng)
    n = WINDOW // STRIDE
    heat = np.zeros((n, n), np.float32)
    regress = np.zeros((3, n, n), np.float32)  # log side, dx, dy
    mask = np.zeros((n, n), np.float32)
    grid_y, grid_x = np.mgrid[0:n, 0:n]
    for x, y, s in points:
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        if not (-0.5 <= cx < n - 0.5 and -0.5 <= cy < n - 0.5):
            continue
        sigma = max(0.7, s / STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((grid_x - cx) ** 2 + (grid_y - cy) ** 2) / (2 * sigma ** 2)))
        heat[int(round(cy)), int(round(cx))] = 1.0
        near = (np.abs(grid_x - cx) <= 1.0) & (np.abs(grid_y - cy) <= 1.0)
        regress[0][near] = math.log(s)
        regress[1][near] = (cx - grid_x)[near]
        regress[2][near] = (cy - grid_y)[near]
        mask[near] = 1.0
    return canvas, heat, regress, mask


def train_detector(photos, images, epochs: int, rng, varied: bool = False, recoloured: bool = False,
                   close: float = 0.0, resume: Resume | None = None) -> nn.Module:
    """``resume``: where the loop's state is saved after every epoch and taken up from (tools/resume.py)."""
    net = PipDetector()
    batch_size = 16
    steps = epochs * math.ceil(len(photos) / batch_size)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    first, saved = resume.start(net, opt, sched, rng) if resume else (0, {})
    order = saved.get("order", list(range(len(photos))))  # shuffled in place every epoch: part of the state
    for epoch in range(first, epochs):
        rng.shuffle(order)
        net.train()
        total = 0.0
        for i in range(0, len(order), batch_size):
            batch = [_detector_sample(images[k], photos[k].targets, rng, varied, recoloured, close)
                     for k in order[i:i + batch_size]]
            x = torch.from_numpy(to_blob(np.stack([b[0] for b in batch])))
            heat = torch.from_numpy(np.stack([b[1] for b in batch]))
            regress = torch.from_numpy(np.stack([b[2] for b in batch]))
            mask = torch.from_numpy(np.stack([b[3] for b in batch]))[:, None]
            out = net(x)
            l1 = (F.l1_loss(out[:, 1:], regress, reduction="none") * mask).sum() / mask.sum().clamp(min=1)
            loss = focal_loss(out[:, 0], heat) + l1
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"detector epoch {epoch + 1}/{epochs} loss {total / math.ceil(len(order) / batch_size):.3f}",
              flush=True)
        if resume:
            resume.save(epoch + 1, net, opt, sched, rng, {"order": order})
    return net.eval()


# --- classifier ------------------------------------------------------------------------

def _positives(photos) -> list[tuple[int, float, float, float, int]]:
    """(photo index, x, y, side, class = value, or COCKED) of every labelled die, repeated per REPEAT."""
    items = []
    for k, photo in enumerate(photos):
        for d, (x, y, s) in zip(photo.dice, photo.targets, strict=True):
            label = COCKED if d.get("cocked") else d["value"]
            items += [(k, x, y, s, label)] * REPEAT.get(photo.source, 1)
    return items


def _negatives(photos, images, per_photo: int, rng) -> list[tuple[int, float, float, float, int]]:
    """Crops with no die in the middle (class 0): random places and places beside a die."""
    items = []
    for k, photo in enumerate(photos):
        h, w = images[k].shape[:2]
        typical = float(np.median([s for _, _, s in photo.targets]))
        found = 0
        for attempt in range(per_photo * 6):
            if found >= per_photo:
                break
            s = typical * rng.uniform(0.7, 1.4)
            if attempt % 2:  # beside a die: part of it in the crop
                x, y, ds = photo.targets[int(rng.integers(len(photo.targets)))]
                angle = rng.uniform(0, 2 * math.pi)
                reach = ds * rng.uniform(0.6, 1.1)
                x, y = x + reach * math.cos(angle), y + reach * math.sin(angle)
            else:
                x, y = rng.uniform(0, w), rng.uniform(0, h)
            if all((x - dx) ** 2 + (y - dy) ** 2 > (0.55 * ds) ** 2 for dx, dy, ds in photo.targets):
                items.append((k, x, y, s, 0))
                found += 1
    return items


def mined_by_detector(photos, images, detector: Path) -> list[tuple[int, float, float, float, int]]:
    """What the detector in folder ``detector`` finds, as the reader will crop it: a place
    where no label has a die (side faces, pip-like clutter) as background, one whose centre
    lies in a cocked die's box as COCKED. A die cut by the photo's edge is left out (the
    labels leave such dice out, and the reader reports them "cut off"). One pass at the
    frame's scale, as the detector learned: the reader's other passes need a classifier."""
    reader = PipReader(detector, single_pass=True)
    items = []
    for k, photo in enumerate(photos):
        h, w = images[k].shape[:2]
        cocked = [d["box"] for d in photo.dice if d.get("cocked")]
        for x, y, s, _ in reader.detect(images[k], MINING_HEAT_MIN):
            if not (s / 2 <= x <= w - s / 2 and s / 2 <= y <= h - s / 2):
                continue
            if any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in cocked):
                items.append((k, x, y, s, COCKED))
            elif all((x - dx) ** 2 + (y - dy) ** 2 > (0.55 * ds) ** 2 for dx, dy, ds in photo.targets):
                items.append((k, x, y, s, 0))
    return items


def _crop(images, item, rng, varied: bool = False, recoloured: bool = False) -> np.ndarray:
    """A crop as the detector would give it: centre and side a little off, any turn, other light;
    ``varied`` (``--varied``): also :func:`vary_light`, and a die of 10–20 pixels (shrunk and enlarged);
    ``recoloured`` (``--colour-jitter``): also in other colours (:func:`recolour`)."""
    k, x, y, s, _ = item
    x += rng.normal(0, 0.05 * s)
    y += rng.normal(0, 0.05 * s)
    s *= rng.uniform(0.85, 1.2)
    crop = jitter_colour(crop_die(images[k], (x, y), s, rng.uniform(0, 360)), rng)
    if recoloured:
        crop = recolour(crop, rng)
    if rng.random() < 0.2:
        crop = cv2.GaussianBlur(crop, (3, 3), 0)
    if varied:
        crop = vary_light(crop, rng, blur=1.0)
        if rng.random() < 0.2:
            small = int(rng.integers(14, 29))  # the crop holds about 1.4 sides: a die of 10-20 px
            crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (CROP, CROP))
    return crop


def train_classifier(photos, images, epochs: int, rng, mined: list, varied: bool = False,
                     recoloured: bool = False, pip_crops: int = 0, lite: Lite0Classifier | None = None,
                     invert: float = 0.0, resume: Resume | None = None) -> nn.Module:
    """:param mined: :func:`mined_by_detector`, learned in every epoch; ``varied``, ``recoloured``:
    see :func:`_crop`; :param pip_crops: background crops of a pip or a few inside a die, a photo
    and epoch (:func:`pip_negatives`); :param lite: the pretrained network to fine-tune
    (``--backbone lite0``; None: :class:`PipClassifier` from scratch), its backbone at
    :data:`BACKBONE_LR_SHARE` × the head's rate; :param invert: the share of crops shown in
    negative (light pips on a dark body look like dark pips on a light one); :param resume: where the
    loop's state is saved after every epoch and taken up from (tools/resume.py)."""
    net = PipClassifier() if lite is None else lite
    positives = _positives(photos) + mined
    batch_size = 64
    per_epoch = len(positives) + 3 * len(photos) + sum(min(pip_crops, len(p.targets)) for p in photos)
    steps = epochs * math.ceil(per_epoch * 1.05 / batch_size)
    if lite is None:
        opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
        rates: float | list[float] = 3e-3
    else:
        opt = torch.optim.AdamW([{"params": lite.backbone.parameters()}, {"params": lite.head.parameters()}],
                                3e-3, weight_decay=1e-4)
        rates = [3e-3 * BACKBONE_LR_SHARE, 3e-3]
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, rates, total_steps=steps)
    first = resume.start(net, opt, sched, rng)[0] if resume else 0
    for epoch in range(first, epochs):
        items = positives + _negatives(photos, images, 3, rng) + pip_negatives(photos, pip_crops, rng)
        order = rng.permutation(len(items))
        net.train()
        total = 0.0
        for i in range(0, len(order), batch_size):
            batch = [items[j] for j in order[i:i + batch_size]]
            crops = [_crop(images, it, rng, varied, recoloured) for it in batch]
            if invert:  # drawn only when asked, so the shipped recipe's random stream is as before
                crops = [255 - c if rng.random() < invert else c for c in crops]
            x = torch.from_numpy(to_blob(np.stack(crops)))
            target = torch.tensor([it[4] for it in batch])
            loss = F.cross_entropy(net(x), target, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"classifier epoch {epoch + 1}/{epochs} loss {total / math.ceil(len(order) / batch_size):.3f}",
              flush=True)
        if resume:
            resume.save(epoch + 1, net, opt, sched, rng)
    return net.eval()


def _export(net, shape, path: Path, output: str, axes: dict) -> None:
    torch.onnx.export(net, torch.zeros(shape), str(path), input_names=["image"], output_names=[output],
                      opset_version=13, dynamic_axes=axes, dynamo=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--leave-out", type=int, nargs="*", default=[],
                        help="folds (tools/pips_data.py) whose photos are not learned from")
    parser.add_argument("--leave-out-source", metavar="NAME", choices=SOURCES,
                        help="a source (tools/pips_data.py) none of whose photos is learned from "
                             "(benchmarks/vision_generalise.py)")
    parser.add_argument("--out", type=Path, default=MODELS, help="folder for the two .onnx files")
    parser.add_argument("--only", choices=("detector", "classifier"), help="train and export only this network")
    parser.add_argument("--varied-detector", action="store_true",
                        help=f"train only the detector and write it as {VARIED_DETECT_FILE}, the second detector "
                             "the reader probes on trays its first is unsure of (needs --renders and --varied)")
    parser.add_argument("--detector-epochs", type=int, default=200)
    parser.add_argument("--classifier-epochs", type=int, default=150)
    parser.add_argument("--synthetic", type=int, default=200, help="synthetic trays learned from besides the photos")
    parser.add_argument("--cocked", type=int, default=150,
                        help="synthetic trays with 1-3 cocked dice, learned from by the classifier only")
    parser.add_argument("--backbone", choices=("scratch", "lite0"), default="scratch",
                        help="the classifier: a small network from scratch (the shipped recipe) or the "
                             "ImageNet-pretrained EfficientNet-Lite0 fine-tuned (tools/lite0.py)")
    parser.add_argument("--stage", type=int, default=5, choices=range(1, len(STAGES) + 1),
                        help="--backbone lite0: the stage it is cut after")
    parser.add_argument("--size", type=int, default=48, help="--backbone lite0: the pixels it sees a crop at")
    parser.add_argument("--invert", type=float, default=0.0, metavar="SHARE",
                        help="the share of classifier crops shown in negative")
    parser.add_argument("--renders", type=Path, metavar="DIR",
                        help="a folder of tools/render_dice.py's pip-d6 renders learned from too (both networks)")
    parser.add_argument("--varied", action="store_true",
                        help="augment as varied as real tables: dice filling the window, dice of 10-80 px, "
                             "colour temperature, brightness, blur, noise, JPEG, perspective, low resolution")
    parser.add_argument("--colour-jitter", action="store_true",
                        help="show both networks the dice in other colours: hue turned, channels swapped, "
                             "saturation scaled, washed to grey (tools/augment.py)")
    parser.add_argument("--pip-negatives", type=int, default=0, metavar="N",
                        help="N crops a photo and epoch of a pip or a few (0.1-0.45 of the die's side) "
                             "inside a labelled die, learned by the classifier as background (tools/augment.py)")
    parser.add_argument("--close-ups", type=close_up_share, nargs="?", const=CLOSE_SHARE, default=0.0,
                        metavar="SHARE",
                        help=f"show the detector a SHARE of windows (default {CLOSE_SHARE}) with dice of 80-160 px, "
                             "their pips as background (tools/augment.py)")
    args = parser.parse_args()
    if args.varied_detector:
        if args.only == "classifier":
            parser.error("--varied-detector trains the detector only: not with --only classifier")
        if not (args.renders and args.varied):
            parser.error("--varied-detector learns from renders with varied augmentations: give --renders DIR --varied")
        args.only = "detector"
    if args.renders and not (args.renders / "labels.json").is_file():
        parser.error(f"--renders {args.renders}: no labels.json there (make it with tools/render_dice.py)")
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    photos = [p for p in load_photos() if p.fold not in args.leave_out and p.source != args.leave_out_source]
    print(f"{len(photos)} photos to train on, folds {args.leave_out} and source {args.leave_out_source} left out")
    images = [cv2.imread(str(p.path)) for p in photos]
    extra = synthetic_photos(args.synthetic, SEED) + (rendered_photos(args.renders) if args.renders else [])
    for photo, image in extra:
        photos.append(photo)
        images.append(image)
    print(f"{sum(p.source == 'render' for p in photos)} renders from {args.renders}, varied {args.varied}, "
          f"colour jitter {args.colour_jitter}, pip negatives {args.pip_negatives}, close-ups {args.close_ups}",
          flush=True)
    start = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    # What decides the networks: a stopped run is taken up only by a run of the same options.
    recipe = {k: v for k, v in vars(args).items() if k not in ("threads", "only", "out")}
    resumes = {network: Resume(args.out / f"{network}.resume", recipe) for network in ("detector", "classifier")}
    if args.only != "classifier":
        torch.manual_seed(SEED)  # each network from the same seed, so --only repeats it exactly
        detector = train_detector(photos, images, args.detector_epochs, np.random.default_rng(SEED), args.varied,
                                  args.colour_jitter, args.close_ups, resumes["detector"])
        _export(detector, (1, 3, DETECT_SIZE, DETECT_SIZE),
                args.out / (VARIED_DETECT_FILE if args.varied_detector else DETECT_FILE), "maps",
                {"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}})
        print(f"detector trained in {time.time() - start:.0f} s", flush=True)
    if args.only != "detector":
        for photo, image in synthetic_photos(args.cocked, SEED + 1, cocked=3):
            photo.source = "cocked"
            photos.append(photo)
            images.append(image)
        mined = mined_by_detector(photos, images, args.out)  # the detector just trained, or already there
        print(f"{sum(m[4] == 0 for m in mined)} hard negatives and {sum(m[4] == COCKED for m in mined)} cocked "
              f"dice as the detector in {args.out} finds them", flush=True)
        torch.manual_seed(SEED)
        lite = Lite0Classifier(args.stage, args.size) if args.backbone == "lite0" else None
        classifier = train_classifier(photos, images, args.classifier_epochs, np.random.default_rng(SEED), mined,
                                      args.varied, args.colour_jitter, args.pip_negatives, lite, args.invert,
                                      resumes["classifier"])
        _export(classifier, (1, 3, CROP, CROP), args.out / CLASSIFY_FILE, "classes",
                {"image": {0: "n"}, "classes": {0: "n"}})
    for network, resume in resumes.items():  # kept until here: a run stopped in the classifier keeps its detector
        if args.only in (None, network):  # not another run's in the same folder (train_loso.sh's steps)
            resume.remove()
    print(f"trained in {time.time() - start:.0f} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
