"""The labelled photos the numbered-dice reader learns from and is measured on.

Shared by tools/train_numerals.py (training) and benchmarks/vision_polyhedral.py
(measuring), so both use the same split: a whole photo is either held out or
trained on, decided by a hash of its file name (never by its dice). Photos are
read in place from the datasets (tools/datasets.py: DICELENS_DATASETS), never copied.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from tools.datasets import source as dataset_source

#: Sources: (folder under the datasets (tools/datasets.py), used for training). Byler's tray photos teach the
#: detector small pip dice on a tray; lurig's d20s (CC0 1.0, one labelled d20 a photo) the d20's
#: numerals; penlington (boxes on the pips only) and patterson (crops) are left out.
SOURCES = (
    "real-polyhedral/banachowicz-mixed-d10",
    "real-polyhedral/burks-tray-polyhedral",
    "real-dice/byler-tray-d6",
    "real-d20/lurig-platform-d20",
)

#: Dataset `kind` → the reader's kind (ornate dice are read like numbered ones; tools/render_dice.py's
#: pyramid d4, read at its top vertex, is a d4 like the long one).
KIND_OF_LABEL = {
    "d4-long": "d4", "d4-pyramid": "d4", "d6-pips": "d6-pips", "d6-numerals": "d6", "d6-ornate": "d6",
    "d8": "d8", "d8-ornate": "d8", "d10": "d10", "d10-percentile": "d10-percentile",
    "d12": "d12", "d20": "d20",
}

HELD_OUT_SHARE = 4  # one photo in this many is held out


def held_out(file_name: str) -> bool:
    """Whether a photo is kept out of training (its whole photo, by file name hash)."""
    return zlib.crc32(file_name.encode()) % HELD_OUT_SHARE == 0


@dataclass
class Photo:
    path: Path
    source: str
    dice: list[dict]  # label dicts; `kind` is the reader's kind

    @property
    def held_out(self) -> bool:
        return held_out(self.path.name)

    def centres(self) -> list[tuple[float, float, float]]:
        """(x, y, side) of each labelled die, pixels; side = the longer side of its box."""
        return [((d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2,
                 float(max(d["box"][2] - d["box"][0], d["box"][3] - d["box"][1]))) for d in self.dice]


def load_photos(sources: tuple[str, ...] = SOURCES) -> list[Photo]:
    """Every labelled photo of ``sources``, with the reader's kind on each die."""
    photos = []
    for source in sources:
        photos += _labelled(dataset_source(source), source.split("/")[-1])
    return photos


def load_renders(folder: Path) -> list[Photo]:
    """The photos tools/render_dice.py wrote into ``folder`` (its labels.json), source "renders";
    a cocked die's ``value`` is None."""
    if not (folder / "labels.json").is_file():
        raise FileNotFoundError(f"{folder}: no labels.json (make it with tools/render_dice.py)")
    return _labelled(folder, "renders")


def _labelled(folder: Path, source: str) -> list[Photo]:
    data = json.loads((folder / "labels.json").read_text())
    return [Photo(folder / entry["file"], source,
                  [{**label, "kind": KIND_OF_LABEL[label.get("kind", "d6-pips")]} for label in entry["dice"]])
            for entry in data["images"]]
