"""One entry for every kind of die: :func:`read_dice`, the pip and numbered readers behind it.

On a tray of numbered dice the numbered reader (:func:`vision.numerals.read_numbered`) finds
the dice of every kind and the pip reader (:func:`vision.tray.read_tray`, whose networks
learned pips alone) re-reads the value of each pip d6 it found; a pip tray is the pip
reader's. Asked for pip d6 alone, only the pip reader runs; asked for no pip d6, only the
numbered one.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from numpy.typing import NDArray

from vision.image import as_bgr
from vision.numerals import KINDS, SIDES, NumberedReading, read_numbered
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading
from vision.tray import read_tray

PIPS = "d6-pips"
#: A photo is a tray of numbered dice when the numbered reader names a die of another kind at
#: least this sure; chosen on the photos benchmarks/vision_read_dice.py reports (0.75: 5.1
#: phantoms per 100 pip dice; 0.95: a d4 lost to the pip reader), so optimistic.
NUMBERED_TRAY = 0.9


def kinds_wanted(kinds: Iterable[str] | None) -> frozenset[str]:
    """The kinds named (every one of :data:`vision.numerals.KINDS` for None).

    :raises ValueError: a name not in KINDS, or none named.
    """
    wanted = frozenset(KINDS if kinds is None else kinds)
    if unknown := wanted - set(KINDS):
        raise ValueError(f"unknown die kind {', '.join(sorted(unknown))}; choose from {', '.join(KINDS)}")
    if not wanted:
        raise ValueError(f"no die kind named; choose from {', '.join(KINDS)}")
    return wanted


def read_dice(image: NDArray[Any], kinds: Iterable[str] | None = None,
              principal_color: str | None = None) -> TrayReading:
    """Read the dice of ``kinds`` in a photo.

    :param image: H×W×3 uint8 BGR photo (H×W grey and H×W×4 BGRA are accepted too).
    :param kinds: names from :data:`vision.numerals.KINDS` (``"d4"``, ``"d6-pips"``, ``"d6"``
        (numbered), ``"d8"``, ``"d10"``, ``"d10-percentile"``, ``"d12"``, ``"d20"``); None for
        every kind. Dice of other kinds are left out of the reading.
    :param principal_color: palette name of the principal die, or None for the one die
        whose colour no other die has (RULES D6-2; :func:`vision.principal.mark_principal`),
        chosen among the dice reported.
    :returns: a reading whose dice are :class:`vision.numerals.NumberedReading`: ``kind``,
        ``sides`` (4–20), ``value`` 1..sides (a d10's "0" is 10) or None with ``unreadable``
        its reason (``"cut off"``, ``"cocked"``, ``"blurred"``, ``"ambiguous pips"``,
        ``"ambiguous numeral"``), ``face`` (the printed symbol when it is not the value),
        ``box`` [x0, y0, x1, y1] and ``center`` (x, y) in photo pixels, ``color`` a palette
        name, ``confidence`` in [0, 1]; ``seconds`` the time of both readers. Asked for pip
        d6 and other kinds, both readers run: when the numbered reader names a die of another
        kind at least :data:`NUMBERED_TRAY` sure, it alone decides where the dice are and of
        which kind, and the pip reader only re-reads the dice it named pip d6
        (:func:`reread_pips`); else the photo is a pip tray, read by the pip reader alone.
        Measured by benchmarks/vision_read_dice.py (docs/benchmarks.md, 2026-12-01): letting
        the pip reader add dice beside numbered ones made phantoms (a d20's facets read as pip
        1s) and dropped the numbered reader's pip d6 it missed; the numbered reader alone
        reads pip trays it never learned badly (70 % of their dice, 55 phantoms per 100).
    :raises InvalidImage: ``image`` is not a uint8 image array (a ``ValueError``).
    :raises ValueError: ``kinds`` names a kind not in KINDS, or none.
    """
    start = time.perf_counter()
    wanted = kinds_wanted(kinds)
    bgr = as_bgr(image)
    if wanted == {PIPS}:
        dice: list[DieReading] = [as_pips(die) for die in read_tray(bgr).dice]
    else:
        dice = read_numbered(bgr, kinds=None if PIPS in wanted else wanted).dice
        if PIPS in wanted:
            pips = read_tray(bgr).dice
            if any(getattr(die, "kind", PIPS) != PIPS and die.confidence >= NUMBERED_TRAY for die in dice):
                dice = reread_pips(dice, pips)
            else:  # a pip tray: the pip reader is the better there (it learned pips alone)
                dice = [as_pips(die) for die in pips]
    dice = [die for die in dice if getattr(die, "kind", PIPS) in wanted]
    note = mark_principal(dice, principal_color)
    height, width = bgr.shape[:2]
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start,
                       principal_note=note)


def reread_pips(numbered: list[DieReading], pips: list[DieReading]) -> list[DieReading]:
    """The numbered reader's dice, each it named pip d6 replaced by the pip reader's die there.

    A pip die of ``pips`` (the pip reader's) replaces the numbered pip d6 whose box it
    shares (each box holding the other's centre; one-to-one, nearest centres first) as
    :func:`as_pips`; a numbered pip d6 the pip reader did not find keeps the numbered
    reading, and a pip die matching no numbered pip d6 is left out (no die is added).
    """
    candidates = sorted((_distance(die, pip), i, j) for i, die in enumerate(numbered)
                        if getattr(die, "kind", PIPS) == PIPS
                        for j, pip in enumerate(pips) if _same_die(die, pip))
    chosen: dict[int, int] = {}
    for _, i, j in candidates:
        if i not in chosen and j not in chosen.values():
            chosen[i] = j
    return [as_pips(pips[chosen[i]]) if i in chosen else die for i, die in enumerate(numbered)]


def _distance(a: DieReading, b: DieReading) -> float:
    return (a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2


def _same_die(a: DieReading, b: DieReading) -> bool:
    """Each box holds the other's centre (as vision.scoring matches a die to a label)."""
    def holds(box: tuple[int, int, int, int], point: tuple[float, float]) -> bool:
        return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
    return holds(a.box, b.center) and holds(b.box, a.center)


def as_pips(die: DieReading) -> NumberedReading:
    """A pip reader's die as a die of kind ``"d6-pips"`` (``face`` None), as every kind is reported."""
    return NumberedReading(value=die.value, sides=SIDES[PIPS], box=die.box, center=die.center, color=die.color,
                           confidence=die.confidence, unreadable=die.unreadable, kind=PIPS, face=None)
