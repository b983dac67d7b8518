"""Scoring readings against labelled dice (used by the benchmark and the tests).

A reading and a label match when each box contains the other's centre and
the values agree; pairs are made one-to-one, nearest centres first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.reading import DieReading


def _box_center(box: Sequence[float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@dataclass
class Score:
    """Counts of one or more photos: dice labelled, read right, wrong, unreadable, missed, phantom."""

    labelled: int = 0
    correct: int = 0
    wrong: int = 0
    unreadable: int = 0
    missed: int = 0
    phantom: int = 0
    color_known: int = 0
    color_right: int = 0
    confusions: list[tuple[int, int | None]] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in ("labelled", "correct", "wrong", "unreadable", "missed", "phantom",
                     "color_known", "color_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.confusions += other.confusions

    @property
    def accuracy(self) -> float:
        return self.correct / self.labelled if self.labelled else 1.0


def score_photo(dice: Sequence[DieReading], labels: Sequence[dict[str, Any]]
                ) -> tuple[Score, list[tuple[int | None, int | None]]]:
    """Match readings to labels (dicts with value, box, color) of one photo.

    :returns: the score and the list of (reading index or None, label index or
        None) pairs, unmatched readings and labels included.
    """
    score = Score(labelled=len(labels))
    pairs = []
    boxes = [label["box"] for label in labels]
    centers = [_box_center(box) for box in boxes]  # once, not once per reading (the fit scores thousands)
    for i, die in enumerate(dice):
        x, y = die.center
        x0, y0, x1, y1 = die.box
        for j, (box, (lx, ly)) in enumerate(zip(boxes, centers, strict=True)):
            if box[0] <= x <= box[2] and box[1] <= y <= box[3] and x0 <= lx <= x1 and y0 <= ly <= y1:
                pairs.append(((x - lx) ** 2 + (y - ly) ** 2, i, j))
    pairs.sort()
    used_r, used_l, matched = set(), set(), []
    for _, i, j in pairs:
        if i in used_r or j in used_l:
            continue
        used_r.add(i)
        used_l.add(j)
        matched.append((i, j))
    for i, j in matched:
        die, label = dice[i], labels[j]
        if die.value is None:
            score.unreadable += 1
        elif die.value == label["value"]:
            score.correct += 1
        else:
            score.wrong += 1
            score.confusions.append((label["value"], die.value))
        if label.get("color"):
            score.color_known += 1
            score.color_right += die.color == label["color"]
    score.missed = len(labels) - len(matched)
    score.phantom = len(dice) - len(matched)
    unmatched: list[tuple[int | None, int | None]] = [(i, None) for i in range(len(dice)) if i not in used_r]
    unmatched += [(None, j) for j in range(len(labels)) if j not in used_l]
    return score, matched + unmatched


def load_labels(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The (image path, image entry) pairs of one dataset folder's labels.json."""
    data = json.loads((folder / "labels.json").read_text())
    return [(folder / entry["file"], entry) for entry in data["images"]]
