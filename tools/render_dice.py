"""Render labelled photos of dice in 3D for training: every kind, on floors and under lights of any table.

A training-time tool (never imported by dicelens at run time), its parts in tools/render/ by
job. The dice are real polyhedra (tools/render/solids.py's :data:`SOLIDS`: the d20 is
trimesh's icosahedron, the others are built from their vertices), placed at rest on the floor
plane, seen through a pinhole camera from straight above to 35° oblique, and drawn by a small
rasteriser of NumPy and OpenCV (faces back-to-front, each face's numerals, pips and body
texture mapped onto it by its homography): about a hundred times faster than a path tracer
on one core (docs: ../shared/notes/rendering.md).

    .venv/bin/python tools/render_dice.py OUT --photos 200 [--seed 1] [--floors DIR...]

writes OUT/render-00000.jpg… and OUT/labels.json (rewritten every LABELS_EVERY photos, so a
run stopped early leaves the photos so far labelled) in the datasets' schema (``value``
1..sides or None when cocked, ``sides``, ``kind`` as in real-polyhedral/'s labels plus
``d4-pyramid``, ``face`` the printed symbol when it is not str(value), ``box`` the whole
die in pixels, ``center`` of the top face (the top vertex of a pyramid d4), ``cocked``,
``color``), and prints the dice rendered per hour on one core.

Labels come from the geometry: after the die is turned to rest on a face, the face whose
outward normal is nearest the floor's up is read (a pyramid d4: the vertex highest
above the floor, whose number stands at its three corners); a cocked die rests on an
edge and no face normal is within solids.py's :data:`FLAT_DEGREES` of up, so it has no value.
Randomised per photo: resolution (320×240 to 1920×1080), JPEG quality, camera tilt and
focal length (wide-angle barrel distortion), floor (felt, wood, laminate, paper, cloth,
a dark tray with coloured walls, a busy mat, or a dice-free patch of a real photo),
colour temperature 2700–6500 K with a partial white balance, one to three lamps with
their shadows and glare; per die: kind, size (25–150 px), body colour, translucency,
marbling, speckle, ink, font, edge rounding, pip size and spread, 6/9 marks (underline, dot or none), touching
neighbours.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.render.floors import real_floor_patches  # noqa: E402
from tools.render.scene import COCKED_SHARE, render_photo  # noqa: E402
from tools.render.solids import KINDS  # noqa: E402

LABELS_EVERY = 25  # photos: labels.json is rewritten this often, so a run stopped early leaves a usable folder


def _write_labels(out: Path, seed: int, images: list[dict]) -> None:
    """labels.json of the photos written so far (replaced whole: a reader never sees half of it)."""
    part = out / "labels.json.part"
    part.write_text(json.dumps({"source": "tools/render_dice.py", "seed": seed,
                                "box_semantics": "whole die as rendered", "images": images}, indent=1))
    part.replace(out / "labels.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the photos and labels.json")
    parser.add_argument("--photos", type=int, default=100, help="how many photos to render")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS), metavar="KIND",
                        help=f"kinds of die to render ({', '.join(KINDS)}); all by default")
    parser.add_argument("--floors", nargs="*", type=Path, default=[], metavar="DIR",
                        help="dataset folders (labels.json) whose die-free patches are floors too")
    parser.add_argument("--cocked-share", type=float, default=COCKED_SHARE, metavar="P",
                        help=f"the share of dice rendered cocked, 0 to 1 (default {COCKED_SHARE})")
    args = parser.parse_args(argv)
    if args.photos < 1:
        parser.error("--photos must be at least 1")
    if not 0.0 <= args.cocked_share <= 1.0:
        parser.error("--cocked-share must be from 0 to 1")
    for folder in args.floors:
        if not (folder / "labels.json").is_file():
            parser.error(f"--floors {folder}: no labels.json there")
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    patches = real_floor_patches(args.floors)
    args.out.mkdir(parents=True, exist_ok=True)
    images, dice, start = [], 0, time.process_time()
    for k in range(args.photos):
        photo, labels = render_photo(rng, tuple(args.kinds), patches, cocked_share=args.cocked_share)
        name = f"render-{k:05d}.jpg"
        cv2.imwrite(str(args.out / name), photo, [cv2.IMWRITE_JPEG_QUALITY, 95])
        images.append({"file": name, "width": photo.shape[1], "height": photo.shape[0], "dice": labels})
        dice += len(labels)
        if (k + 1) % LABELS_EVERY == 0 or k + 1 == args.photos:
            _write_labels(args.out, args.seed, images)
    seconds = time.process_time() - start
    print(f"{args.photos} photos, {dice} dice in {seconds:.1f} s of CPU: "
          f"{3600 * dice / max(seconds, 1e-9):.0f} dice an hour on one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
