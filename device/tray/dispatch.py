"""The one way a settled frame reaches a step: :class:`TrayDispatcher` (RULES T-2).

The tray loop hands every settled frame to :meth:`TrayDispatcher.on_settled`, the only
``on_settled`` it knows. The dispatcher asks its consumers, in the order written where it
is built (``device/serve.py``: a waiting fight step first, then the roll), which of them
waits for the frame; it reads the frame the way that one asks, matches it
(:func:`device.tray.match.match`) against the tray as last seen, and hands the result to
that one consumer. It keeps the tray as last seen (any consumer's frame, or one nobody
took), so a roll's "moved since" filter holds while the fight takes frames, and the latest
frame, JPEG-encoded for the page's colour picker.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from device.tray.match import Match, Wanted, match
from device.tray.problems import Problem
from vision.image import jpeg
from vision.principal import mark_measured
from vision.reading import DieReading, TrayReading

log = logging.getLogger(__name__)

#: The longest side of the latest frame sent to a phone, pixels (a full Pi frame would be megabytes).
FRAME_MAX_SIDE = 1280

#: ``reader(image BGR H×W×3 uint8, principal_color) -> TrayReading``.
Reader = Callable[[np.ndarray, str | None], TrayReading]


@dataclass(frozen=True)
class Taken:
    """A frame given to the consumer that waited for it: what it asked (``wanted``, with its
    ``token``), the ``match`` (a problem ``"no reading"`` when the reader failed, ``reading``
    then None), the reading's dict, the photo and annotation JPEGs when asked for, and when
    the tray settled (``t``, seconds on the loop's clock), and ``before``: the tray the
    reading was compared with (RULES T-2)."""

    wanted: Wanted
    match: Match
    reading: TrayReading | None
    reading_dict: dict[str, Any] | None
    photos: tuple[bytes, bytes] | None
    t: float
    before: Sequence[DieReading] | None = None


class TrayConsumer(Protocol):
    """A part whose steps take dice from the tray (the roll controller, the fight)."""

    def wanted(self, t: float) -> Wanted | None:
        """What it asks of a frame settled at ``t``: None when it waits for none (a
        ``take=False`` Wanted: not for it, but read its way)."""
        ...

    def take(self, taken: Taken) -> bool:
        """The frame it waited for; False when it kept nothing of it (a failed save), so the
        tray as seen stays as it was and the same dice count as moved next time."""
        ...


class TrayDispatcher:
    """Settled frames → the first consumer that waits for one.

    :param consumers: in the order they are asked.
    :param readers: ``{"pips": Reader, "numbered": Reader}`` (by default ``vision.read_dice``
        narrowed to each one's kinds: :mod:`device.tray.readers`).
    :param annotate: ``(image, TrayReading) -> image``, the annotated photo.
    """

    def __init__(self, consumers: Sequence[TrayConsumer], readers: Mapping[str, Reader],
                 annotate: Callable[..., np.ndarray]):
        self._consumers = list(consumers)
        self._readers = dict(readers)
        self._annotate = annotate
        self._lock = threading.Lock()
        self._seen: list[DieReading] | None = None
        self._frame: np.ndarray | None = None
        self._frame_reading: dict[str, Any] | None = None

    def on_settled(self, frame: np.ndarray, t: float) -> bool:
        """A full-resolution frame (H×W×3 uint8 BGR) of a tray that settled at ``t``
        (seconds): read, matched and handed to the first consumer waiting for it.

        :returns: whether a consumer took it. A frame nobody takes is still read (the
            last consumer's way), for the tray as seen and the latest frame.
        """
        chosen: tuple[TrayConsumer, Wanted] | None = None
        fallback: Wanted | None = None
        for consumer in self._consumers:
            wanted = consumer.wanted(t)
            if wanted is not None and wanted.take:
                chosen = (consumer, wanted)
                break
            fallback = wanted or fallback
        wanted = chosen[1] if chosen else fallback or Wanted(take=False)
        with self._lock:
            before = self._seen if wanted.before == "last" else wanted.before
        try:
            reading = self._readers[wanted.reader](frame, wanted.color)
            if wanted.measured is not None:  # RULES D6-2a: the die of the measured principal colour
                reading.principal_note = mark_measured(frame, reading.dice, wanted.measured)
            reading_dict = reading.to_dict()
            photos = self._encode(frame, reading) if chosen and wanted.photos else None
        except Exception as exc:  # a bad frame must not stop the evening
            log.warning("could not read the tray: %s", exc)
            if chosen:
                chosen[0].take(Taken(wanted, Match(None, Problem("no reading", why=str(exc), asks=wanted.asks)),
                                     None, None, None, t, before))
            return chosen is not None
        with self._lock:
            self._frame, self._frame_reading = frame, reading_dict
        if chosen is None:
            self._see(reading.dice)
            return False
        if chosen[0].take(Taken(wanted, match(reading, wanted, before), reading, reading_dict, photos, t, before)):
            self._see(reading.dice)
        return True

    def seen(self) -> list[DieReading] | None:
        """The dice of the last frame read: the tray as last seen (None: nothing to compare with)."""
        with self._lock:
            return None if self._seen is None else list(self._seen)

    def forget(self) -> None:
        """The tray holds dice nobody saw (dice entered by hand): compare with nothing."""
        with self._lock:
            self._seen = None

    def latest_frame(self) -> tuple[np.ndarray | None, dict[str, Any] | None]:
        """The last frame read (whoever took it) and its reading dict."""
        with self._lock:
            return self._frame, copy.deepcopy(self._frame_reading)

    def latest_frame_jpeg(self, max_side: int = FRAME_MAX_SIDE) -> tuple[bytes, dict[str, Any]] | None:
        """The last frame read as a JPEG no longer than ``max_side`` pixels, and
        ``{"width", "height", "reading"}`` of the full frame; None before the first frame.

        :raises ValueError: when the frame cannot be encoded.
        """
        image, reading = self.latest_frame()
        return None if image is None else frame_jpeg(image, reading, max_side)

    def _see(self, dice: Sequence[DieReading]) -> None:
        with self._lock:
            self._seen = list(dice)

    def _encode(self, frame: np.ndarray, reading: TrayReading) -> tuple[bytes, bytes]:
        return jpeg(frame), jpeg(self._annotate(frame, reading))


def frame_jpeg(image: np.ndarray, reading: dict[str, Any] | None,
               max_side: int = FRAME_MAX_SIDE) -> tuple[bytes, dict[str, Any]]:
    """``image`` (H×W×3 uint8 BGR) scaled down to ``max_side`` pixels and JPEG-encoded, and
    ``{"width", "height"}`` of the full image with its ``reading``.

    :raises ValueError: when it cannot be encoded.
    """
    height, width = image.shape[:2]
    return jpeg(image, max_side), {"width": width, "height": height, "reading": reading}
