"""A table's labelled photos as the adaptation (:mod:`vision.adapt`) learns from them: each die
taught, checked against the photo it is in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from numpy.typing import NDArray

from vision import numerals

#: The datasets' kinds (labels.json ``kind``) as the readers name them; no kind is a pip d6.
KIND_OF_LABEL = {"d4": "d4", "d4-long": "d4", "d6-pips": "d6-pips", "d6": "d6", "d6-numerals": "d6",
                 "d6-ornate": "d6", "d8": "d8", "d8-ornate": "d8", "d10": "d10",
                 "d10-percentile": "d10-percentile", "d12": "d12", "d20": "d20"}


class ExampleError(ValueError):
    """A labelled example the reader cannot learn from; the message says which and why."""


@dataclass(frozen=True)
class Example:
    """One labelled die: ``kind`` one of :data:`vision.numerals.KINDS`, ``value`` 1..sides,
    ``box`` (x0, y0, x1, y1) photo pixels around it (or around its top face's pips)."""

    kind: str
    value: int
    box: tuple[float, float, float, float]


@dataclass
class TaughtPhoto:
    """A photo (H×W×3 uint8 BGR) and its dice labelled: every die in it, or only some when
    ``partial`` (a roll's photo with only its corrected or tapped-in dice as examples)."""

    image: NDArray[Any]
    dice: list[Example]
    partial: bool = False


def example(kind: str | None, value: object, box: object, width: int, height: int) -> Example:
    """An :class:`Example` from a labels.json die (``kind`` None for a pip d6), checked.

    :raises ExampleError: an unknown kind, a value not a whole number in 1..sides, a box not
        four numbers inside the photo of ``width`` × ``height`` pixels.
    """
    reader_kind = KIND_OF_LABEL.get("d6-pips" if kind is None else str(kind))
    if reader_kind is None:
        raise ExampleError(f"unknown kind {kind!r}; known: {', '.join(KIND_OF_LABEL)}")
    sides = numerals.SIDES[reader_kind]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ExampleError(f"value {value!r} is not a face of a {reader_kind} (1..{sides})")
    if (not isinstance(box, list | tuple) or len(box) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box)):
        raise ExampleError(f"box {box!r} is not [x_min, y_min, x_max, y_max]")
    x0, y0, x1, y1 = (float(v) for v in box)
    if not (0 <= x0 < x1 <= width + 1 and 0 <= y0 < y1 <= height + 1):
        raise ExampleError(f"box {list(box)} is not inside the {width}×{height} photo")
    return Example(reader_kind, value, (x0, y0, x1, y1))
