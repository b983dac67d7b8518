"""Colour names and the principal die when the light changes: the real tray photos made
darker, brighter, warmer and cooler.

Run by hand from the repository root: ``.venv/bin/python benchmarks/vision_light.py``.

The tray photos of ``$DICELENS_DATASETS/real-dice`` (default ``../shared/datasets``; byler's
tray and penlington's desk, every die colour-labelled; patterson's crops show one die each
and are left out) are changed as a change of light would change them: every pixel times
0.6, 0.8, 1.2 or 1.4 (clipped at 255, as the sensor clips), or each channel times a cast's
gains (a warm one, B 0.75 G 0.9 R 1.1, as a 2700 K lamp leaves after the camera's auto
white balance; a cool one, B 1.15 R 0.85, shade). The dice are named from their label boxes
as the readers name them (``vision.colors.name_dice_colors``: one floor measure per photo)
and the principal die is the one die of a colour no other die has
(``vision.principal.mark_principal``). Prints, per light: the share of dice named as in
the original photo, the share named as labelled, and the photos (of two dice or more) whose
principal die (or its absence) is that of the original. Then the principal die by a
measured colour (Settings' "use the die in the tray"): set on the original's principal die
and found under each light, and each die of a colour of its own, then every die, taken in
turn (found, asked, left to the name's rule, another die taken); ``--names`` prints those
photos' rows. ``--camera-exposure`` names the dice as the camera exposed them (exposure 1:
the naming before the floor's brightness was measured).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.vision_colors import die_boxes  # noqa: E402
from tools.datasets import source as dataset_source  # noqa: E402
from vision import colors  # noqa: E402
from vision.principal import (  # noqa: E402
    CLEAR_MARGIN,
    CLEAR_RATIO,
    NEAR_DIFFERENCE,
    MeasuredColor,
    find_measured,
    mark_measured,
    mark_principal,
)
from vision.reading import DieReading  # noqa: E402
from vision.scoring import load_labels  # noqa: E402

SOURCES = ("byler-tray-d6", "penlington-desk-d6")
LIGHTS = {"×0.6": (0.6, 0.6, 0.6), "×0.8": (0.8, 0.8, 0.8), "×1.2": (1.2, 1.2, 1.2), "×1.4": (1.4, 1.4, 1.4),
          "warm": (0.75, 0.9, 1.1), "cool": (1.15, 1.0, 0.85)}


def lit(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """The photo under another light: BGR times ``gains``, rounded and clipped to 0–255."""
    return np.clip(np.rint(image.astype(np.float32) * np.float32(gains)), 0, 255).astype(np.uint8)


def read(image: np.ndarray, boxes: list[list[int]]) -> list[DieReading]:
    """The dice of the label boxes, colour-named as the readers name them."""
    dice = [DieReading(value=None, sides=6, box=tuple(box), center=(0.0, 0.0), color="", confidence=0.0)
            for box in boxes]
    colors.name_dice_colors(image, dice)
    return dice


def named(image: np.ndarray, boxes: list[list[int]]) -> tuple[list[str], int | None]:
    """The dice's colour names and the index of the principal die (None when none is)."""
    dice = read(image, boxes)
    mark_principal(dice)
    return [d.color for d in dice], principal_index(dice)


def principal_index(dice: list[DieReading]) -> int | None:
    return next((i for i, d in enumerate(dice) if d.principal), None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", nargs="*", default=(), help="photos (file stems) whose measured row to print")
    parser.add_argument("--camera-exposure", action="store_true", help="name dice with exposure 1 (as before)")
    args = parser.parse_args()
    if args.camera_exposure:
        colors.exposure_gain = lambda floor: 1.0
    photos = []
    for source in SOURCES:
        for path, entry in load_labels(dataset_source(f"real-dice/{source}")):
            image = cv2.imread(str(path))
            photos.append((image, die_boxes(source, entry, image), [d["color"] for d in entry["dice"]], path.stem))
    originals = [named(image, boxes) for image, boxes, _, _ in photos]
    dice = sum(len(boxes) for _, boxes, _, _ in photos)
    labelled = sum(1 for _, _, labels, _ in photos for c in labels if c)
    right = sum(n == c for (names, _), (_, _, labels, _) in zip(originals, photos, strict=True)
                for n, c in zip(names, labels, strict=True) if c)
    print(f"{len(photos)} photos of {', '.join(SOURCES)}: {dice} dice; the original's names "
          f"{100 * right / labelled:.1f} % as labelled" + (" (camera exposure)" if args.camera_exposure else ""))
    print(f"{'light':6} {'same name':>10} {'as labelled':>12} {'same principal':>15}")
    for light, gains in LIGHTS.items():
        same = as_labelled = principal_same = principal_photos = 0
        for (image, boxes, labels, _), (names0, principal0) in zip(photos, originals, strict=True):
            names, principal = named(lit(image, gains), boxes)
            same += sum(a == b for a, b in zip(names, names0, strict=True))
            as_labelled += sum(n == c for n, c in zip(names, labels, strict=True) if c)
            if len(boxes) >= 2:
                principal_photos += 1
                principal_same += principal == principal0
        print(f"{light:6} {100 * same / dice:9.1f}% {100 * as_labelled / labelled:11.1f}% "
              f"{principal_same:7}/{principal_photos}")
    measured_row(photos, originals, args.names)
    return 0


def measured_row(photos: list, originals: list, show: Sequence[str]) -> None:
    """The principal die set by its measured colour on the original photo (as Settings'
    "use the die in the tray" does), then found by it under each light
    (``vision.principal.mark_measured``); and, of the photos of two dice or more, each die
    whose labelled colour no other die of its photo has (a principal die as RULES D6-2 has
    it), then every die, taken in turn for the principal die (``find_measured``: found, asked
    for, left to the name's rule, or another die taken: a twin of its colour)."""
    chosen = [k for k, (_, principal) in enumerate(originals) if principal is not None and len(photos[k][1]) >= 2]
    several = [k for k, (_, boxes, _, _) in enumerate(photos) if len(boxes) >= 2]
    labs = {k: colors.dice_lab(photos[k][0], photos[k][1]) for k in several}
    distinct = {k: [i for i, c in enumerate(photos[k][2]) if c and photos[k][2].count(c) == 1] for k in several}
    print(f"principal die by measured colour (difference ≤ {NEAR_DIFFERENCE}, others ≥ {CLEAR_RATIO}× and "
          f"+{CLEAR_MARGIN} as far): set on the original's in the {len(chosen)} photos that have one; "
          f"each of the {sum(map(len, distinct.values()))} dice of a labelled colour no other die of its "
          f"photo has; each of the {sum(len(labs[k]) for k in several)} dice: found, asked, name rule, wrong")
    print(f"{'light':6} {'same principal':>15} {'distinct colour':>31} {'every die':>31}")
    for light, gains in LIGHTS.items():
        same = 0
        counts = {group: {"found": 0, "several near": 0, "none near": 0, "wrong": 0} for group in ("distinct", "all")}
        for k in several:
            image, boxes, _, stem = photos[k]
            seen = lit(image, gains)
            if k in chosen:
                principal = originals[k][1]
                dice = read(seen, boxes)
                mark_measured(seen, dice, MeasuredColor(originals[k][0][principal], labs[k][principal]))
                same += principal_index(dice) == principal
                if principal_index(dice) != principal or stem in show:
                    print(f"  {light} {stem}: principal {principal} ({originals[k][0][principal]}) "
                          f"found {principal_index(dice)}")
            now = colors.dice_lab(seen, boxes)
            for i, lab in enumerate(labs[k]):
                found = find_measured(now, lab)
                outcome = "found" if found == i else found if isinstance(found, str) else "wrong"
                counts["all"][outcome] += 1
                if i in distinct[k]:
                    counts["distinct"][outcome] += 1
                    if outcome != "found":
                        print(f"  {light} {stem}: die {i} ({photos[k][2][i]}, the only one) {outcome}")
        print(f"{light:6} {same:7}/{len(chosen)}       " + "   ".join(
            " ".join(f"{100 * n / sum(group.values()):5.1f}%" for n in group.values()) for group in counts.values()))

if __name__ == "__main__":
    sys.exit(main())
