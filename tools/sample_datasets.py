"""Make tests/data/: the small sample of the real photos that the tests read.

Run from the repository root with the full datasets at hand (tools/datasets.py):

    .venv/bin/python tools/sample_datasets.py

A user's clone has no datasets beside it, so the tests read this sample, committed in the
repository (at most 2 MB): the photos each test names, copied as they are, with each
source's LICENSE.txt and a labels.json in the datasets' schema holding just their entries.
The burks photos are the one exception: halved (800 → 400 px, boxes halved too), because
eight of them as they are would take 0.8 MB; the numbered reader sees them at 320 px either
way. Each source's folder is rewritten whole; the photos chosen are listed here.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.datasets import source  # noqa: E402

SAMPLE = ROOT / "tests" / "data"
LIMIT = 2 * 1024 * 1024  # bytes: the sample travels in every clone

#: source → (photos, scale). byler: the first 8 labelled photos (every colour of the
#: palette) and the 3 the end-to-end roll replays; penlington: the photo of four 1s and
#: four more across the source; patterson: the first 30 crops (red and blue); banachowicz:
#: held-out photos of the numbered reader (tools/numerals_data.held_out); burks: one die
#: of each kind the tests name; lurig: d20s from above and at an angle, and LURIG_PIP_TRAY.
CHOSEN: dict[str, tuple[list[str], float]] = {
    "real-dice/byler-tray-d6": ([
        "IMG_20191209_095453.jpg", "IMG_20191209_095859.jpg", "IMG_20191209_100002.jpg",
        "IMG_20191208_112332.jpg", "IMG_20191209_100023.jpg", "IMG_20191208_112340.jpg",
        "IMG_20191209_095336.jpg", "IMG_20191209_095503.jpg",
        "IMG_20191209_100605.jpg", "IMG_20191209_100538.jpg", "IMG_20191208_112623.jpg"], 1.0),
    "real-dice/penlington-desk-d6": ([
        "pl-70b4ad8f4b.jpg", "pl-3504b480be.jpg", "pl-8a861db258.jpg", "pl-3502ee0f81.jpg",
        "pl-9add87f93c.jpg"], 1.0),
    "real-dice/patterson-craps-d6-crops": ([], 1.0),  # filled below: the first 30 crops
    "real-polyhedral/banachowicz-mixed-d10": ([
        "20211121_171739.jpg", "20211121_172348.jpg", "20211121_174446.jpg", "20211121_180410.jpg",
        "20211121_171337.jpg", "20211121_173743.jpg"], 1.0),
    "real-polyhedral/burks-tray-polyhedral": ([
        "burks_000.jpg", "burks_004.jpg", "burks_012.jpg", "burks_020.jpg", "burks_021.jpg",
        "burks_027.jpg", "burks_053.jpg", "burks_054.jpg"], 0.5),
    "real-d20/lurig-platform-d20": ([], 1.0),  # filled below: 2 from above, 1 at an angle
}
PATTERSON_CROPS = 30
#: a lone d20 that vision.read_dice took for a pip tray and read as a pip 2 (tests/vision/test_read_dice.py)
LURIG_PIP_TRAY = "d20-78d630d7fe.jpg"


def _chosen(name: str, images: list[dict]) -> list[str]:
    files, _ = CHOSEN[name]
    if name.endswith("patterson-craps-d6-crops"):
        return [entry["file"] for entry in images[:PATTERSON_CROPS]]
    if name.endswith("lurig-platform-d20"):
        top = [e["file"] for e in images if e["view"].startswith("fixed top-down")][:2]
        return top + [e["file"] for e in images if not e["view"].startswith("fixed top-down")][:1] + [LURIG_PIP_TRAY]
    return files


def _scaled(entry: dict, scale: float) -> dict:
    def box(b: list[int]) -> list[int]:
        return [round(v * scale) for v in b]
    dice = [{**die, "box": box(die["box"]), **({"face_box": box(die["face_box"])} if "face_box" in die else {})}
            for die in entry["dice"]]
    return {**entry, "width": round(entry["width"] * scale), "height": round(entry["height"] * scale),
            "dice": dice}


def main() -> int:
    for name, (_, scale) in CHOSEN.items():
        folder = source(name)
        labels = json.loads((folder / "labels.json").read_text())
        by_file = {entry["file"]: entry for entry in labels["images"]}
        out = SAMPLE / name
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        shutil.copy(folder / "LICENSE.txt", out / "LICENSE.txt")
        entries = []
        for file in _chosen(name, labels["images"]):
            entry = by_file[file]
            if scale == 1.0:
                shutil.copy(folder / file, out / file)
            else:
                image = cv2.imread(str(folder / file))
                small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                cv2.imwrite(str(out / file), small, [cv2.IMWRITE_JPEG_QUALITY, 90])
                entry = _scaled(entry, scale)
                entry["sample_note"] = f"scaled by {scale} from the dataset's photo (tools/sample_datasets.py)"
            entries.append(entry)
        (out / "labels.json").write_text(json.dumps({**labels, "images": entries}, indent=1) + "\n")
    size = sum(p.stat().st_size for p in SAMPLE.rglob("*") if p.is_file())
    print(f"tests/data: {size / 1024:.0f} KiB")
    if size > LIMIT:
        print(f"over the {LIMIT // 1024} KiB limit: choose fewer photos", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
