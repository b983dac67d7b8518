"""One entry for every kind of die: :func:`read_dice`, the pip and numbered readers behind it.

Pip d6 are read by the pip reader (:func:`vision.tray.read_tray`, whose networks learned
pips alone), every other kind by the numbered reader (:func:`vision.numerals.read_numbered`).
Asked for pip d6 alone, only the pip reader runs; asked for no pip d6, only the numbered one.
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
        name, ``confidence`` in [0, 1]; ``seconds`` the time of both readers. A die both
        readers find is the numbered reader's when it names a kind other than pip d6 (the
        pip reader knows no other kind), else the pip reader's.
    :raises InvalidImage: ``image`` is not a uint8 image array (a ``ValueError``).
    :raises ValueError: ``kinds`` names a kind not in KINDS, or none.
    """
    start = time.perf_counter()
    wanted = kinds_wanted(kinds)
    bgr = as_bgr(image)
    dice: list[DieReading] = []
    if wanted - {PIPS}:
        numbered = read_numbered(bgr, kinds=None if PIPS in wanted else wanted).dice
        dice = [die for die in numbered if getattr(die, "kind", PIPS) != PIPS]
    if PIPS in wanted:
        dice += [as_pips(die) for die in read_tray(bgr).dice
                 if not any(_same_die(die, other) for other in dice)]
    dice = [die for die in dice if getattr(die, "kind", PIPS) in wanted]
    note = mark_principal(dice, principal_color)
    height, width = bgr.shape[:2]
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start,
                       principal_note=note)


def _same_die(a: DieReading, b: DieReading) -> bool:
    """Each box holds the other's centre (as vision.scoring matches a die to a label)."""
    def holds(box: tuple[int, int, int, int], point: tuple[float, float]) -> bool:
        return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
    return holds(a.box, b.center) and holds(b.box, a.center)


def as_pips(die: DieReading) -> NumberedReading:
    """A pip reader's die as a die of kind ``"d6-pips"`` (``face`` None), as every kind is reported."""
    return NumberedReading(value=die.value, sides=SIDES[PIPS], box=die.box, center=die.center, color=die.color,
                           confidence=die.confidence, unreadable=die.unreadable, kind=PIPS, face=None)
