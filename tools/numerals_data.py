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
#: detector small pip dice on a tray; penlington (boxes on the pips only) and
#: patterson (crops) are left out.
SOURCES = (
    "real-polyhedral/banachowicz-mixed-d10",
    "real-polyhedral/burks-tray-polyhedral",
    "real-dice/byler-tray-d6",
)

#: Dataset `kind` → the reader's kind (ornate dice are read like numbered ones).
KIND_OF_LABEL = {
    "d4-long": "d4", "d6-pips": "d6-pips", "d6-numerals": "d6", "d6-ornate": "d6",
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


def load_photos(sources: tuple[str, ...] = SOURCES) -> list[Photo]:
    """Every labelled photo of ``sources``, with the reader's kind on each die."""
    photos = []
    for source in sources:
        folder = dataset_source(source)
        data = json.loads((folder / "labels.json").read_text())
        for entry in data["images"]:
            dice = []
            for label in entry["dice"]:
                kind = KIND_OF_LABEL[label.get("kind", "d6-pips")]
                dice.append({**label, "kind": kind})
            photos.append(Photo(folder / entry["file"], source.split("/")[-1], dice))
    return photos
