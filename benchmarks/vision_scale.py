"""The pip reader at the sizes and frames a real camera gives: real tray photos placed on
larger canvases and rescaled, and synthetic trays rendered at those sizes.

Run by hand from the repository root (one core, as the other vision benchmarks):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_scale.py

Each of byler's tray photos (``$DICELENS_DATASETS/real-dice/byler-tray-d6``, default
``../shared/datasets``; every ``--step``-th photo) is rescaled so its dice (the median side
of its labelled boxes) measure 10, 12, 16, 20, 25, 40 or 80 px in the detector's input (the
frame shrunk to a long side of ``vision.tray.DETECT_SIZE``), and placed in the middle of a
frame of 640×480, 1280×960, 1920×1080 or 4608×2592 filled with the photo's floor colour
(a tray seen from higher up) or cut to it (from closer); only the sizes where a die measures
at most 200 px in the frame are read. Dice the frame cuts are neither counted nor, when
found, phantoms. Renders (``vision.synthetic.render_tray``) are drawn at each frame and size.

Prints, per detector-input size and frame: dice, % read right, wrong, unreadable, missed,
phantoms per 100 dice, then the same photos as they are (640×640, dice about 25 px in the
detector's input): the figure every size is compared with. ``--single-pass`` reads with the
detector on the shrunk frame only (the reader before the scene's scale was measured). The
shipped networks learned from byler's photos: the figures compare sizes, they are not a
held-out measure (``vision_real_dice.py --folds`` is).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.timing import print_times  # noqa: E402
from tools.datasets import source as dataset_source  # noqa: E402
from tools.numerals_data import load_photos  # noqa: E402
from vision import numerals  # noqa: E402
from vision.scoring import Score, load_labels, score_photo  # noqa: E402
from vision.synthetic import render_tray  # noqa: E402
from vision.tray import DETECT_SIZE, PipReader  # noqa: E402

SIZES = (10, 12, 16, 20, 25, 40, 80)  # a die's side in the detector's input, pixels
FRAMES = ((640, 480), (1280, 960), (1920, 1080), (4608, 2592))
MAX_DIE = 200  # pixels in the frame: larger dice are beyond a tray camera's range


def floor_colour(image: np.ndarray) -> np.ndarray:
    """The median BGR of the photo's outer tenth (the tray's floor and rim)."""
    h, w = image.shape[:2]
    m = max(1, min(h, w) // 10)
    border = np.concatenate([image[:m].reshape(-1, 3), image[-m:].reshape(-1, 3),
                             image[:, :m].reshape(-1, 3), image[:, -m:].reshape(-1, 3)])
    return np.median(border, axis=0)


def place(image: np.ndarray, dice: list[dict], die_input: float, frame: tuple[int, int],
          seed: int, detect_size: int = DETECT_SIZE) -> tuple[np.ndarray, list[dict], list[bool]]:
    """The photo rescaled so its dice measure ``die_input`` px in the detector's input of a
    ``frame`` (W, H) frame (its long side shrunk to ``detect_size``), centred in it: (frame
    image, labels moved, whether each is whole)."""
    side = float(np.median([max(d["box"][2] - d["box"][0], d["box"][3] - d["box"][1]) for d in dice]))
    factor = die_input * max(frame) / detect_size / side
    h, w = image.shape[:2]
    sw, sh = max(1, round(w * factor)), max(1, round(h * factor))
    scaled = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
    fw, fh = frame
    rng = np.random.default_rng(seed)
    canvas = np.clip(floor_colour(image) + rng.normal(0, 2, (fh, fw, 3)), 0, 255).astype(np.uint8)
    ox, oy = (fw - sw) // 2, (fh - sh) // 2  # negative: the frame cuts the photo
    sx0, sy0 = max(0, -ox), max(0, -oy)
    dx0, dy0 = max(0, ox), max(0, oy)
    cw, ch = min(sw - sx0, fw - dx0), min(sh - sy0, fh - dy0)
    canvas[dy0:dy0 + ch, dx0:dx0 + cw] = scaled[sy0:sy0 + ch, sx0:sx0 + cw]
    labels, whole = [], []
    for die in dice:
        x0, y0, x1, y1 = (v * factor for v in die["box"])
        x0, x1, y0, y1 = x0 + ox, x1 + ox, y0 + oy, y1 + oy
        box = [max(0, round(x0)), max(0, round(y0)), min(fw, round(x1)), min(fh, round(y1))]
        if box[2] - box[0] <= 0 or box[3] - box[1] <= 0:
            continue
        labels.append({**die, "box": box})
        whole.append(x0 >= 0 and y0 >= 0 and x1 <= fw and y1 <= fh)
    return canvas, labels, whole


def score_whole(reading, labels: list[dict], whole: list[bool], kinds: bool = False,
                only: str | None = None) -> Score:
    """The score of the whole dice only: a die the frame cuts, and what is read on it, count for
    nothing. ``kinds``: a die is right only when its kind is the label's too (numbered dice);
    ``only``: the dice of that kind only (labelled so, or phantoms read so)."""
    full, pairs = score_photo(reading.dice, labels)
    score = Score()
    for i, j in pairs:
        if j is not None and not whole[j]:
            continue
        if only is not None and (labels[j]["kind"] if j is not None else reading.dice[i].kind) != only:
            continue
        if j is None:
            score.phantom += 1
            continue
        score.labelled += 1
        if i is None:
            score.missed += 1
            continue
        die = reading.dice[i]
        if die.value is None:
            score.unreadable += 1
        elif die.value == labels[j]["value"] and (not kinds or die.kind == labels[j]["kind"]):
            score.correct += 1
        else:
            score.wrong += 1
    return score


def row(name: str, score: Score) -> str:
    return (f"{name:34} {score.labelled:5} {100 * score.accuracy:6.1f} {score.wrong:5} {score.unreadable:6} "
            f"{score.missed:6} {100 * score.phantom / max(score.labelled, 1):7.2f}")


def numbered(args: argparse.Namespace) -> None:
    """The numbered reader's figures: banachowicz's held-out photos (d10s among d8s and d6s)
    at each size of ``args.sizes`` in its detector's input (:data:`vision.numerals.DETECT_SIZE`)
    and frame; every die, and the d10s alone."""
    photos = [photo for photo in load_photos(("real-polyhedral/banachowicz-mixed-d10",))
              if photo.held_out != args.seen][::args.numbered_step]
    images = [(cv2.imread(str(photo.path)), photo.dice) for photo in photos]
    size = numerals.DETECT_SIZE
    print(f"numbered reader: {len(images)} banachowicz photos "
          f"({'SEEN IN TRAINING' if args.seen else 'held out of training'}); "
          f"die side in the detector's input ({size} px), frame; right = kind and value")
    print(f"{'':34} {'dice':>5} {'acc %':>6} {'wrong':>5} {'unread':>6} {'missed':>6} {'ph/100':>7}"
          f"   d10: {'dice':>5} {'acc %':>6} {'ph/100':>7}")

    def score(cases) -> tuple[Score, Score]:
        every, d10 = Score(), Score()
        for image, labels, whole in cases:
            reading = numerals.read_numbered(image)
            every.add(score_whole(reading, labels, whole, kinds=True))
            d10.add(score_whole(reading, labels, whole, kinds=True, only="d10"))
        return every, d10

    def line(name: str, scores: tuple[Score, Score]) -> str:
        d10 = scores[1]
        return (row(name, scores[0]) + f"        {d10.labelled:5} {100 * d10.accuracy:6.1f} "
                f"{100 * d10.phantom / max(d10.labelled, 1):7.2f}")

    print(line("as they are", score((image, dice, [True] * len(dice)) for image, dice in images)))
    for die in args.sizes:
        lines, total = [], (Score(), Score())
        for frame in FRAMES:
            die_frame = die * max(frame) / size
            if die_frame > MAX_DIE:
                continue
            scores = score(place(image, dice, die, frame, k, size) for k, (image, dice) in enumerate(images))
            for t, s in zip(total, scores, strict=True):
                t.add(s)
            lines.append(line(f"  {frame[0]}×{frame[1]} (die {die_frame:.0f} px)", scores))
        print(line(f"{die} px", total))
        print("\n".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=5, help="read every STEP-th byler photo (default 5: 30 photos)")
    parser.add_argument("--renders", type=int, default=10, help="synthetic trays per size and frame (default 10)")
    parser.add_argument("--single-pass", action="store_true",
                        help="the detector on the shrunk (or letterboxed) frame only")
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES, help="detector-input die sizes (default all)")
    parser.add_argument("--reader", choices=("pips", "numbered", "both"), default="both",
                        help="which reader to measure (default both)")
    parser.add_argument("--numbered-step", type=int, default=1,
                        help="read every STEP-th photo with the numbered reader (default 1)")
    parser.add_argument("--seen", action="store_true",
                        help="numbered reader: the photos it was trained on (to choose thresholds on)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.single_pass:  # the numbered reader as before: its letterboxed frame only
        numerals.STRONG, numerals.LEARNED_RANGE = 0.0, (0.0, float("inf"))
    if args.reader != "pips":
        numbered(args)
    if args.reader == "numbered":
        return 0
    reader = PipReader(single_pass=args.single_pass)
    photos = load_labels(dataset_source("real-dice/byler-tray-d6"))[::args.step]
    images = [(cv2.imread(str(path)), entry["dice"]) for path, entry in photos]
    header = f"{'':34} {'dice':>5} {'acc %':>6} {'wrong':>5} {'unread':>6} {'missed':>6} {'ph/100':>7}"
    base = Score()
    for image, dice in images:
        base.add(score_whole(reader.read(image), dice, [True] * len(dice)))
    print(f"{len(images)} byler photos, {base.labelled} dice" + (" (single pass)" if args.single_pass else ""))
    print(header)
    print(row("as they are (640×640, ~25 px)", base))
    cm3_wall, cm3_cpu = [], []
    for kind in ("real photos", "renders"):
        print(f"{kind}: die side in the detector's input, frame")
        for size in args.sizes:
            per_size = Score()
            lines = []
            for frame in FRAMES:
                die_frame = size * max(frame) / DETECT_SIZE
                if die_frame > MAX_DIE:
                    continue
                score = Score()
                if kind == "real photos":
                    cases = (place(image, dice, size, frame, k) for k, (image, dice) in enumerate(images))
                else:
                    cases = ((image, truth, [True] * len(truth)) for image, truth in
                             (render_tray(k, size=frame, die_px=(die_frame / 1.25, die_frame / 1.15), noise=2.0)
                              for k in range(args.renders)))
                for image, labels, whole in cases:
                    cpu = time.process_time()
                    reading = reader.read(image)
                    if frame == FRAMES[-1]:
                        cm3_cpu.append(time.process_time() - cpu)
                        cm3_wall.append(reading.seconds)
                    score.add(score_whole(reading, labels, whole))
                per_size.add(score)
                lines.append(row(f"  {frame[0]}×{frame[1]} (die {die_frame:.0f} px)", score))
            print(row(f"{size} px", per_size))
            print("\n".join(lines))
    if cm3_cpu:  # only sizes whose dice fit a Camera Module 3's frame read one
        print(f"frames of {FRAMES[-1][0]}×{FRAMES[-1][1]} (a Camera Module 3's):")
        print_times(cm3_wall, cm3_cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
