"""The labelled pip-d6 photos the pip reader (vision/tray.py) learns from and is measured on.

Shared by tools/train_pips.py (training) and benchmarks/vision_real_dice.py
(measuring), so both use the same folds. Photos are read in place from
the datasets' real-dice/ (tools/datasets.py: DICELENS_DATASETS), never copied. No PyTorch here.

Folds are by photo: a whole photo is in one fold, chosen by a hash of its name;
patterson's crops sharing the part before ``_detection_`` come from one photo and
share a fold.

Synthetic trays (vision/synthetic.py, :func:`synthetic_photos`) are learned from too, so
that the simulated camera's dice are read; they are in no fold and never measured on.

3D renders of pip d6 (tools/render_dice.py, :func:`rendered_photos`) can be learned from
too (tools/train_pips.py ``--renders``); like the synthetic trays they are in no fold.

Every die gets a training target ``(x, y, side)`` in pixels: the centre of its top
face and the side of the whole die as seen, because the sources box different things:
byler the whole die, patterson the whole crop (one die), penlington only the pips
of the top face (the die around them is about 1.3 × a 4/5/6 pip box).
"""

from __future__ import annotations

import json
import statistics
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tools.datasets import source as dataset_source
from vision.synthetic import render_tray

SOURCES = ("byler-tray-d6", "penlington-desk-d6", "patterson-craps-d6-crops")
FOLDS = 4

_PIPS_TO_DIE = 1.3  # penlington: the die's side over the longer side of a 4, 5 or 6 pip box
_PIPS_TO_DIE_23 = 1.45  # ... over a 2 or 3 pip box (its pips lie on a diagonal, a shorter box)
_PENLINGTON_SIDE = 60.0  # pixels: a photo of 1s only gives no size, take the source's typical die


@dataclass
class Photo:
    path: Path
    source: str
    dice: list[dict]  # the label dicts as in labels.json (value, box, color)
    targets: list[tuple[float, float, float]]  # (x, y, side) pixels per die

    @property
    def group(self) -> str:
        """The name of the original photo (patterson crops of one photo share it)."""
        return self.path.name.split("_detection_")[0]

    @property
    def fold(self) -> int:
        return zlib.crc32(self.group.encode()) % FOLDS


def _centre(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _longer(box) -> float:
    return float(max(box[2] - box[0], box[3] - box[1]))


def _penlington_side(dice: list[dict]) -> float:
    """The die's side in a penlington photo: its dice lie at about one distance from the camera."""
    big = [_longer(d["box"]) * _PIPS_TO_DIE for d in dice if d["value"] >= 4]
    diagonal = [_longer(d["box"]) * _PIPS_TO_DIE_23 for d in dice if d["value"] in (2, 3)]
    sides = big or diagonal
    return statistics.median(sides) if sides else _PENLINGTON_SIDE


def targets(source: str, dice: list[dict]) -> list[tuple[float, float, float]]:
    """(x, y, side) pixels of each labelled die: its top face's centre and its side."""
    if source == "penlington-desk-d6":
        side = _penlington_side(dice)
        return [(*_centre(d["box"]), side) for d in dice]
    return [(*_centre(d["box"]), _longer(d["box"])) for d in dice]


def load_photos(sources: tuple[str, ...] = SOURCES) -> list[Photo]:
    """Every labelled photo of ``sources`` with its dice's targets."""
    photos = []
    for source in sources:
        folder = dataset_source(f"real-dice/{source}")
        data = json.loads((folder / "labels.json").read_text())
        for entry in data["images"]:
            photos.append(Photo(folder / entry["file"], source, entry["dice"], targets(source, entry["dice"])))
    return photos


def synthetic_photos(count: int, seed: int, cocked: int = 0) -> list[tuple[Photo, np.ndarray]]:
    """``count`` synthetic trays of flat dice, each with a random share of the renderer's
    hard situations (tilt, blur, colour cast, touching dice, glare, shadow, noise, marbled
    dice, a rim): (photo, H×W×3 uint8 BGR image) pairs whose targets use the whole-die box.

    :param cocked: at most this many dice per tray rest on an edge (1 to ``cocked``, their
        label's value None and ``"cocked": True``); 0 draws the same trays as before it existed.
    """
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        def maybe(value):
            return value if rng.random() < 0.3 else None
        options = {"perspective": maybe(float(rng.uniform(0.1, 0.6))), "blur": maybe(float(rng.uniform(0.5, 1.5))),
                   "white_balance": maybe(tuple(float(g) for g in rng.uniform(0.8, 1.25, 3))),
                   "touching": maybe(True), "glare": maybe(float(rng.uniform(0.2, 0.8))),
                   "shadow": maybe(float(rng.uniform(0.2, 0.8))), "noise": maybe(float(rng.uniform(2, 8))),
                   "marbled": maybe(0.5), "rim": maybe(True)}
        low = float(rng.uniform(24, 60))
        tray_seed = int(rng.integers(2**31))
        if cocked:
            options["cocked"] = int(rng.integers(1, cocked + 1))
            options["count"] = int(rng.integers(1, 5))
        image, truth = render_tray(tray_seed, die_px=(low, low * 1.15),
                                   **{key: v for key, v in options.items() if v is not None})
        photo = Photo(Path(f"synthetic-{k}.png"), "synthetic", truth, targets("synthetic", truth))
        out.append((photo, image))
    return out


#: pixels: renders are shrunk to at most this long side when loaded (the real photos' size;
#: a 1920×1080 render held whole would take 6 MB of memory, and the detector sees 384 px)
RENDER_SIDE = 640


def rendered_photos(folder: Path) -> list[tuple[Photo, np.ndarray]]:
    """The pip-d6 renders of ``folder`` (tools/render_dice.py's labels.json; other kinds are
    left out), each shrunk to at most :data:`RENDER_SIDE` pixels: (photo, H×W×3 uint8 BGR)
    pairs whose targets are the top face's centre (the label's ``center``) and the whole
    die's side. A cocked die keeps value None and ``"cocked": True``, as in :func:`synthetic_photos`.

    :raises FileNotFoundError: ``folder`` holds no labels.json.
    """
    out = []
    for entry in json.loads((folder / "labels.json").read_text())["images"]:
        dice = [d for d in entry["dice"] if d["kind"] == "d6-pips"]
        image = cv2.imread(str(folder / entry["file"]))
        if not dice or image is None:
            continue
        scale = min(1.0, RENDER_SIDE / max(image.shape[:2]))
        if scale < 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        dice = [{**d, "box": [c * scale for c in d["box"]], "center": [c * scale for c in d["center"]]}
                for d in dice]
        found = [(d["center"][0], d["center"][1], _longer(d["box"])) for d in dice]
        out.append((Photo(folder / entry["file"], "render", dice, found), image))
    return out
