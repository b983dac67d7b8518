"""Train the face-value network of vision/faces.py (the numeral on a numbered die's top face), export ONNX.

Run from the repository root, in the training venv (tools/train_numerals.py says how to make it):

    /tmp/trainvenv/bin/python tools/train_faces.py --threads 1 [--examples N] [--epochs N] [--out DIR]

Learns only from faces drawn by tools/face_synth.py (``--examples`` of them, drawn once from a fixed
seed: d6, d8, d10, percentile d10, d12 and d20 faces in the shares of DIE_SHARE, each numeral of a die as often, a
quarter of them turned away from upright and a few with an emblem for a numeral: the class
"turned"), each epoch shifted and recoloured anew. It never learns from a photo: the figures it
prints at the end are of every real numbered die of the datasets (real-polyhedral, real-d20),
each cropped at its label box as the reader crops a die it found and read by the network written
(benchmarks/vision_faces.py's "crop" table): dice, trays and cameras the network never saw. Resumable
(tools/resume.py): the state is saved in OUT/faces.resume after every epoch, the same command takes
it up, and it is removed when OUT/faces_value.onnx is written.
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
from benchmarks.vision_faces import print_crop_table  # noqa: E402
from tools.face_synth import UPRIGHT, draw_face, truetype_fonts  # noqa: E402
from tools.resume import Resume  # noqa: E402
from tools.train_numerals import _export, conv_block, jitter_colour  # noqa: E402
from vision import faces  # noqa: E402
from vision.faces import FACE_CROP, GLYPHS, TURNED, die_glyphs  # noqa: E402
from vision.network import Network, to_blob  # noqa: E402
from vision.numerals import MODELS  # noqa: E402

SEED = 20261207
#: the share of each die among the drawn faces, (sides, percentile): share (a d20's many
#: numerals, a d10's often misread ones)
DIE_SHARE = {(20, False): 0.28, (12, False): 0.14, (10, False): 0.22, (10, True): 0.08, (8, False): 0.14,
             (6, False): 0.14}
TURNED_SHARE = 0.25
EMBLEM_SHARE = 0.04  # faces with an emblem in the numeral's place, of the class "turned" too
BATCH = 64


class FaceNet(nn.Module):
    """FACE_CROP² crop of a die → TURNED logits: of the upright numeral on its top face, each of
    GLYPHS, and last of "turned" (no numeral upright in the middle)."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_block(3, 24), nn.MaxPool2d(2),
            conv_block(24, 32), conv_block(32, 32), nn.MaxPool2d(2),
            conv_block(32, 64), conv_block(64, 64), nn.MaxPool2d(2),
            conv_block(64, 96), conv_block(96, 96), nn.MaxPool2d(2),
            conv_block(96, 128), nn.Flatten(), nn.Dropout(0.3))
        self.value = nn.Linear(128 * (FACE_CROP // 16) ** 2, TURNED)

    def forward(self, x):
        return self.value(self.body(x))


def _turn(glyph: str, rng: np.random.Generator) -> float:
    """A turn far from upright (degrees): sideways, or half round too for a numeral that does not
    look the same so (1, 8, 11, 0 and 00 do)."""
    if glyph in ("1", "8", "11", "0", "00"):
        return float(rng.uniform(UPRIGHT + 25, 180 - UPRIGHT - 25) + 180 * rng.integers(2))
    return float(rng.uniform(UPRIGHT + 25, 360 - UPRIGHT - 25))


def draw_examples(count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` drawn faces (count×FACE_CROP×FACE_CROP×3 uint8) and their classes (1 + the index
    of the numeral in GLYPHS, or TURNED for a face turned away from upright, TURNED_SHARE of them,
    or with an emblem, EMBLEM_SHARE), from SEED."""
    rng = np.random.default_rng(SEED)
    crops = np.empty((count, FACE_CROP, FACE_CROP, 3), np.uint8)
    classes = np.empty(count, np.int64)
    dice = list(DIE_SHARE)
    for i in range(count):
        sides, percentile = dice[int(rng.choice(len(dice), p=list(DIE_SHARE.values())))]
        value = int(rng.integers(1, sides + 1))
        glyph = die_glyphs(sides, percentile)[value - 1]
        turned = rng.random() < TURNED_SHARE
        emblem = not turned and rng.random() < EMBLEM_SHARE
        crops[i] = draw_face(value, sides, FACE_CROP, rng, _turn(glyph, rng) if turned else 0.0, emblem, percentile)
        classes[i] = TURNED if turned or emblem else GLYPHS.index(glyph) + 1
    return crops, classes


def _augment(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The drawn face a little shifted, turned and scaled, in another light and colours."""
    matrix = cv2.getRotationMatrix2D((FACE_CROP / 2, FACE_CROP / 2), rng.uniform(-5, 5), rng.uniform(0.9, 1.1))
    matrix[:, 2] += rng.normal(0, 0.04 * FACE_CROP, 2)
    crop = cv2.warpAffine(crop, matrix, (FACE_CROP, FACE_CROP), borderMode=cv2.BORDER_REFLECT)
    crop = jitter_colour(crop, rng)
    if rng.random() < 0.3:
        crop = np.ascontiguousarray(crop[:, :, rng.permutation(3)])
    if rng.random() < 0.1:
        crop = cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return crop


def train(crops: np.ndarray, classes: np.ndarray, epochs: int, resume: Resume) -> FaceNet:
    net = FaceNet()
    rng = np.random.default_rng(SEED + 1)
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    steps = epochs * math.ceil(len(crops) / BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    target = torch.from_numpy(classes - 1)
    first, _ = resume.start(net, opt, sched, rng)
    for epoch in range(first, epochs):
        net.train()
        order = rng.permutation(len(crops))
        total = right = 0.0
        for i in range(0, len(order), BATCH):
            rows = order[i:i + BATCH]
            x = torch.from_numpy(to_blob(np.stack([_augment(crops[j], rng) for j in rows])))
            logits = net(x)
            loss = F.cross_entropy(logits, target[rows], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(rows)
            right += (logits.argmax(1) == target[rows]).sum().item()
        print(f"epoch {epoch + 1}/{epochs} loss {total / len(order):.3f} "
              f"right {100 * right / len(order):.1f} % (drawn faces)", flush=True)
        resume.save(epoch + 1, net, opt, sched, rng)
    return net.eval()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)  # the defaults make the shipped network
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--examples", type=int, default=40000, help="faces drawn to learn from")
    parser.add_argument("--out", type=Path, default=MODELS, help="folder to write faces_value.onnx into")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(SEED)
    cv2.setNumThreads(1)
    start = time.time()
    crops, classes = draw_examples(args.examples)
    print(f"{len(crops)} faces drawn in {time.time() - start:.0f} s, in {len(truetype_fonts())} TrueType fonts "
          f"(the shipped network: 36, Debian's fonts-dejavu-core, fonts-dejavu-extra and fonts-liberation) and "
          "OpenCV's", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    resume = Resume(args.out / "faces.resume", {"epochs": args.epochs, "examples": args.examples})
    net = train(crops, classes, args.epochs, resume)
    _export(net, (1, 3, FACE_CROP, FACE_CROP), args.out / "faces_value.onnx", ["value"], True)
    resume.remove()
    faces._NETWORK = Network(args.out / "faces_value.onnx", "face-value network")
    print_crop_table()  # the real numbered dice, read by the network just written
    print(f"trained in {time.time() - start:.0f} s; wrote {args.out / 'faces_value.onnx'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
