"""Fakes for the controller tests: frames that carry a number, readers that look it up."""

from __future__ import annotations

import numpy as np

from vision.numerals import SIDES, NumberedReading
from vision.reading import DieReading, TrayReading


def die(value, color="white", x=100, y=100, principal=False, unreadable=None, size=60) -> DieReading:
    """A die read at (x, y) pixels; ``value`` None with ``unreadable`` for a cocked die."""
    return DieReading(value=value, sides=6, box=(x, y, x + size, y + size),
                      center=(x + size / 2, y + size / 2), color=color, confidence=0.9,
                      unreadable=unreadable, principal=principal)


def numbered(value, kind="d10", color="blue", x=100, y=100, unreadable=None, size=60) -> NumberedReading:
    """A numbered die (``kind`` of vision.numerals.KINDS) read at (x, y) pixels; a d10's 0 is 10."""
    return NumberedReading(value=value, sides=SIDES[kind], box=(x, y, x + size, y + size),
                           center=(x + size / 2, y + size / 2), color=color, confidence=0.9,
                           unreadable=unreadable, kind=kind)


class FakeReader:
    """``reader(image, principal_color)`` for frames made by :meth:`frame`: returns the
    TrayReading registered for that frame, and records the colours it was asked for.
    :meth:`numbered` is the same lookup as the numbered reader; :attr:`used` says which
    reader read each frame ("pips" or "numbered")."""

    def __init__(self):
        self.readings: dict[int, TrayReading] = {}
        self.colors: list[str | None] = []
        self.used: list[str] = []

    def frame(self, *dice: DieReading, note: str | None = None) -> np.ndarray:
        number = len(self.readings) + 1
        image = np.zeros((48, 64, 3), np.uint8)
        image[0, 0] = (number % 256, number // 256, 0)
        self.readings[number] = TrayReading(dice=list(dice), size=(64, 48), seconds=0.01,
                                            principal_note=note)
        return image

    def __call__(self, image: np.ndarray, principal_color: str | None) -> TrayReading:
        self.used.append("pips")
        return self._lookup(image, principal_color)

    def numbered(self, image: np.ndarray, principal_color: str | None) -> TrayReading:
        self.used.append("numbered")
        return self._lookup(image, principal_color)

    def _lookup(self, image: np.ndarray, principal_color: str | None) -> TrayReading:
        self.colors.append(principal_color)
        number = int(image[0, 0, 0]) + 256 * int(image[0, 0, 1])
        return self.readings[number]


#: The size of :func:`photo`'s frames (pixels): room for dice whose boxes lie inside the photo.
WIDTH, HEIGHT = 640, 480


def photo(reader, *dice) -> np.ndarray:
    """A frame of WIDTH × HEIGHT pixels that ``reader`` reads as ``dice`` (boxes inside it)."""
    number = len(reader.readings) + 1
    image = np.full((HEIGHT, WIDTH, 3), 90, np.uint8)
    image[0, 0] = (number % 256, number // 256, 0)
    for d in dice:
        x0, y0, x1, y1 = d.box
        image[y0:y1, x0:x1] = 230  # a light square where each die lies: its crop is not the floor
    reader.readings[number] = TrayReading(dice=list(dice), size=(WIDTH, HEIGHT), seconds=0.01)
    return image


def annotate(image: np.ndarray, reading: TrayReading, labels=None) -> np.ndarray:
    out = image.copy()
    out[1:3, 1:3] = 255
    return out


class Clock:
    """A clock the test moves by hand, seconds."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def tick(self, seconds: float = 1.0) -> float:
        self.t += seconds
        return self.t


def fakes(reader) -> dict:
    """The controller's readers and annotate, all fakes (both readers: one lookup of the frames)."""
    return {"reader": reader, "numbered_reader": reader.numbered, "annotate": annotate}


def settle(tray, clock, frame, controller=None) -> dict:
    """Hand ``tray`` (a controller, or a tray dispatcher feeding ``controller``) a settled
    ``frame`` a tick later; the controller's state after."""
    tray.on_settled(frame, clock.tick())
    return (controller or tray).state()
