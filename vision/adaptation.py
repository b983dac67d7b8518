"""A table's adaptation as saved (:data:`FILE`, JSON of :data:`VERSION`), and the figures it is
judged by against the shipped reader (:mod:`vision.adapt` fits and reads with it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.adapt_backend import LOW_HEAT
from vision.adapt_examples import Example, ExampleError
from vision.adapt_head import Head
from vision.reading import DieReading
from vision.scoring import score_photo

VERSION = 1
FILE = "adaptation.json"  # in the data folder
WRONG_COST = 3  # a wrong value, which a player may not notice, costs this many unread dice
#: dice: held out, the layer must read this many more right (or find this many more) than the
#: shipped reader (byler, 5 photos taught: 27 right of 53 against 25, and 56.5 against 74.1 %
#: on the photos read after)
MARGIN = 3


@dataclass
class Figures:
    """Counts over labelled dice: right, wrong value, unreadable, missed; and phantoms."""

    dice: int = 0
    right: int = 0
    wrong: int = 0
    unread: int = 0
    missed: int = 0
    phantom: int = 0

    def add(self, dice: Sequence[DieReading], labels: Sequence[Example],
            pairs: Sequence[tuple[int | None, int | None]] | None = None, partial: bool = False) -> None:
        """Count one photo's readings against its labels (kind and value must agree);
        ``pairs`` their match (:func:`vision.scoring.score_photo`'s, which depends on the boxes
        only), None to match them here; on a ``partial`` photo (not every die labelled) a
        reading matching no label may be a real die: it is no phantom, only the labelled dice
        are scored."""
        if pairs is None:
            _, pairs = score_photo(dice, [{"box": list(e.box), "value": e.value} for e in labels])
        self.dice += len(labels)
        for i, j in pairs:
            if j is None:
                self.phantom += not partial
            elif i is None:
                self.missed += 1
            elif dice[i].value is None:
                self.unread += 1
            elif dice[i].value == labels[j].value and getattr(dice[i], "kind", "d6-pips") == labels[j].kind:
                self.right += 1
            else:
                self.wrong += 1

    @property
    def share(self) -> float:
        """Share of the labelled dice read right, 0..1 (0 for none)."""
        return self.right / self.dice if self.dice else 0.0

    @property
    def found(self) -> int:
        """The labelled dice a reading lies on (right, wrong or unreadable)."""
        return self.right + self.wrong + self.unread

    @property
    def gain(self) -> int:
        return self.right - WRONG_COST * self.wrong - self.phantom

    def to_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in ("dice", "right", "wrong", "unread", "missed", "phantom")}


@dataclass
class Adaptation:
    """One table's layer; ``used`` says whether it read the table's held-out photos better.

    ``side`` is the die's side as the detector measures it, as a share of the photo's long
    side (None: the shipped reader's passes find the dice); ``size`` the side every candidate is
    cropped at, the same share (None: the side the detector measures); ``heat`` and ``value_min`` the
    thresholds; ``cut_off`` whether a die reaching past the photo's edge is unreadable "cut
    off" (False for a table whose taught dice mostly do: a camera framing one die);
    ``held_out`` and ``shipped`` the figures of :class:`Figures` held out by photo with the
    layer and with the shipped reader; ``examples`` the dice taught per kind and value.
    """

    family: str = "pips"
    fingerprint: str = ""
    used: bool = False
    side: float | None = None
    size: float | None = None
    heat: float = LOW_HEAT
    value_min: float = 0.6
    cut_off: bool = True
    head: Head | None = None
    kinds: list[str] = field(default_factory=list)
    held_out: dict[str, int] = field(default_factory=dict)
    shipped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, dict[str, int]] = field(default_factory=dict)
    photos: int = 0
    seconds: float = 0.0
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form saved in :data:`FILE`."""
        return {"version": VERSION, "family": self.family, "fingerprint": self.fingerprint, "used": self.used,
                "side": self.side, "size": self.size, "heat": self.heat, "value_min": self.value_min,
                "cut_off": self.cut_off,
                "head": self.head.to_dict() if self.head else None, "kinds": self.kinds,
                "held_out": self.held_out, "shipped": self.shipped, "examples": self.examples,
                "photos": self.photos, "seconds": round(self.seconds, 3), "why": self.why}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Adaptation:
        """:raises ExampleError: not an adaptation of this :data:`VERSION`."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ExampleError(f"not a dicelens adaptation of version {VERSION}")
        head = Head.from_dict(data["head"]) if data.get("head") else None
        return cls(family=data["family"], fingerprint=data["fingerprint"], used=bool(data["used"]),
                   side=data["side"], size=data.get("size"), heat=float(data["heat"]),
                   value_min=float(data["value_min"]),
                   cut_off=bool(data["cut_off"]), head=head,
                   kinds=list(data["kinds"]), held_out=data["held_out"], shipped=data["shipped"],
                   examples=data["examples"], photos=int(data["photos"]), seconds=float(data["seconds"]),
                   why=data.get("why", ""))

    def save(self, folder: Path) -> Path:
        """Write :data:`FILE` into ``folder`` (a temporary file renamed: never half written)."""
        path = Path(folder) / FILE
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.to_dict()))
        temporary.replace(path)
        return path

    def summary(self) -> str:
        """One line: what was learned and the held-out figure, or why the shipped reader reads."""
        taught = sum(n for values in self.examples.values() for n in values.values())
        held, shipped = Figures(**self.held_out), Figures(**self.shipped)
        figure = (f"read right {100 * held.share:.1f} % vs {100 * shipped.share:.1f} % without"
                  if self.held_out else "")
        taught_of = f"{_counted(taught, 'example')} of {_counted(self.photos, 'photo')}"
        if not self.used and figure:  # why, in the figures it was judged by
            more = held.right - shipped.right
            why = ("no more dice read right" if more <= 0
                   else f"{_counted(more, 'die')} more, within the {MARGIN}-dice margin it needs" if more < MARGIN
                   else f"{_counted(more, 'die')} more, but more of the others missed, misread or invented")
            return f"{taught_of}; not used: {figure}, {why}"
        if not self.used:
            return f"{taught_of}; not used ({self.why})"
        scale = ("the reader's own scale" if self.side is None
                 else f"dice of {100 * self.side:.1f} % of the photo's side")
        if self.size is not None:
            scale += f", cropped at {100 * self.size:.1f} % of it"
        return (f"{taught_of}; {figure} (held out by photo); "
                f"{scale}, detector threshold {self.heat}, value threshold {self.value_min}")


def _counted(n: int, noun: str) -> str:
    """"1 photo", "2 photos", "2 dice": a log line's count in English."""
    return f"{n} {noun}" if n == 1 else f"{n} {'dice' if noun == 'die' else noun + 's'}"


def load(folder: Path) -> Adaptation | None:
    """The adaptation saved in ``folder``, or None when there is none.

    :raises ExampleError: the file is not an adaptation this version reads.
    """
    path = Path(folder) / FILE
    if not path.is_file():
        return None
    try:
        return Adaptation.from_dict(json.loads(path.read_text()))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ExampleError(f"{path} is not a dicelens adaptation ({exc})") from None
