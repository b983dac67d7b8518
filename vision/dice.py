"""One entry for every kind of die: :func:`read_dice`, the pip and numbered readers behind it.

On a tray of numbered dice the numbered reader (:func:`vision.numerals.read_numbered`) finds
the dice of every kind and the pip reader's classifier (:func:`vision.tray.read_at`, whose
networks learned pips alone) re-reads the value of each pip d6 it found; a pip tray is the pip
reader's. Asked for pip d6 alone, only the pip reader runs; asked for no pip d6, only the
numbered one.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from numpy.typing import NDArray

from vision.colors import name_dice_colors
from vision.image import MIN_SIDE, as_bgr
from vision.numerals import CLASSES, KINDS, SIDES, Looks, NumberedReading, first_pass, read_found, read_numbered
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading
from vision.tray import first_pass as pip_first_pass
from vision.tray import read_at, read_tray

PIPS = "d6-pips"
#: A photo is a tray of numbered dice when the numbered reader names a die of another kind at
#: least this sure; chosen on the photos benchmarks/vision_read_dice.py reports (0.75: 5.1
#: phantoms per 100 pip dice; 0.95: a d4 lost to the pip reader), so optimistic.
NUMBERED_TRAY = 0.9
OTHER_KINDS = tuple(kind for kind in KINDS if kind != PIPS)
#: On a pip tray, a pip reader's die that the numbered classifier, looking at the same place,
#: names a die of another kind at least this sure (its kind probability) is that die: chosen on
#: benchmarks/vision_read_dice.py's photos (2026-12-01, shipped networks): of the pip reader's
#: dice on real pip dice none is at 0.85 (2 of 1641 at 0.75), of those on d20s, d12s and
#: d10s (and their facets) 40 of 73 are; 0.9: 37.
NUMBERED_DIE = 0.85
#: ... unless the pip reader is at least this sure of it: 86 % of its dice on the real pip photos
#: are, none of the 88 the numbered classifier names another kind at NUMBERED_DIE (at most
#: 0.92); so most pip dice cost no look (vision_read_time.py)
PIPS_SURE = 0.95


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
        kind at least :data:`NUMBERED_TRAY` sure (:func:`numbered_tray`), it alone decides
        where the dice are and of which kind, and the pip reader's classifier only re-reads
        the dice it named pip d6 (:func:`reread_pips`); else the photo is a pip tray, read by
        the pip reader alone. A pip tray is decided without the numbered reader's passes at
        other scales when its letterboxed pass names no other kind :data:`NUMBERED_TRAY` sure
        and is sure itself (:attr:`vision.numerals.FirstPass.sure`) or the pip reader's first
        pass is (:attr:`vision.tray.PipFirstPass.sure`: dice of the size the pip networks
        learned); each first pass is shared with its reader's later passes. On a pip tray the
        numbered classifier looks at each die the pip reader found (:func:`recheck_pips`): when
        it names one a die of another kind :data:`NUMBERED_DIE` sure, the photo is a tray of
        numbered dice after all, read as one (the numbered reader places the dice, the pip
        reader's classifier re-reads its pip d6), and a die so named that the numbered reader
        did not place is reported as that kind, its value read as the numbered reader reads it
        (:func:`vision.numerals.value_of`) or unreadable with the reason (a d20's or d10's faces
        are never read as pip d6 values: RULES T-1).
        Measured by benchmarks/vision_read_dice.py (docs/benchmarks.md, 2026-12-01): letting
        the pip reader add dice beside numbered ones made phantoms (a d20's facets read as pip
        1s) and dropped the numbered reader's pip d6 it missed; the numbered reader alone
        reads pip trays it never learned badly (70 % of their dice, 55 phantoms per 100).
        Time: benchmarks/vision_read_time.py.
    :raises InvalidImage: ``image`` is not a uint8 image array (a ``ValueError``).
    :raises ValueError: ``kinds`` names a kind not in KINDS, or none.
    """
    start = time.perf_counter()
    wanted = kinds_wanted(kinds)
    bgr = as_bgr(image)
    if wanted == {PIPS}:
        dice: list[DieReading] = [as_pips(die) for die in read_tray(bgr).dice]
    elif PIPS not in wanted:
        dice = read_numbered(bgr, kinds=wanted).dice
    else:
        numbered: list[DieReading] | None = None
        first = first_pass(bgr) if min(bgr.shape[:2]) >= MIN_SIDE and bgr.max() > 0 else None
        pips_first = None
        # a pip tray already when the letterboxed pass names no other kind sure and either it or
        # the pip reader's first pass is sure: the numbered reader's other passes cost 3–20
        # detector runs a photo, discarded on patterson's and penlington's photos. The pip
        # reader's pass is asked first: the pip tray's reading goes on from it, and when it is
        # sure the letterboxed pass's sureness (both looks at its strongest candidates) is not needed
        if first is None or numbered_tray(read_found(bgr, first.looks.may_read(
                first.found, OTHER_KINDS, NUMBERED_TRAY), first.looks)) or not (
                (pips_first := pip_first_pass(bgr)).sure or first.sure):
            # colours named only if the reading is kept: a pip tray's discards it
            numbered = read_numbered(bgr, first=first, named=False).dice
        if numbered is not None and numbered_tray(numbered):
            dice = reread_pips(_named(numbered, bgr), bgr)
        else:  # a pip tray: the pip reader is the better there (it learned pips alone)
            pips = [as_pips(die) for die in read_tray(bgr, first=pips_first).dice]
            checked = recheck_pips(pips, bgr, first.looks if first is not None else None)
            found = [die for die, pip in zip(checked, pips, strict=True) if die is not pip]
            if not found:
                dice = list(pips)
            else:  # numbered dice the pip reader found: a numbered tray, its dice placed by the
                # numbered reader (benchmarks/vision_read_dice.py), none of those found lost
                numbered = read_numbered(bgr, first=first, named=False).dice if numbered is None else numbered
                dice = reread_pips(_named(numbered, bgr), bgr)
                dice += [die for die in found if not any(_same_die(die, other) for other in dice)]
    dice = [die for die in dice if getattr(die, "kind", PIPS) in wanted]
    note = mark_principal(dice, principal_color)
    height, width = bgr.shape[:2]
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start,
                       principal_note=note)


def numbered_tray(dice: Sequence[DieReading]) -> bool:
    """Whether the numbered reader's ``dice`` make the photo a tray of numbered dice: one of
    another kind than pip d6 at least :data:`NUMBERED_TRAY` sure."""
    return any(getattr(die, "kind", PIPS) != PIPS and die.confidence >= NUMBERED_TRAY for die in dice)


def recheck_pips(pips: list[NumberedReading], image: NDArray[Any], looks: Looks | None = None
                 ) -> list[DieReading]:
    """The pip reader's dice ``pips`` (:func:`as_pips`) of a pip tray, each the numbered classifier
    names a die of another kind than pip d6 at least :data:`NUMBERED_DIE` sure, looking at its
    place (centre and side), replaced by the numbered reader's reading there
    (:func:`vision.numerals.read_found`: that kind, its value or unreadable with the reason),
    with the pip die's box and colour. A die the pip reader is :data:`PIPS_SURE` sure of is not
    looked at; only the places whose upright look may reach the bar are looked at half-turned
    (:meth:`vision.numerals.Looks.may_read`). ``looks``: the photo's, when made. No die is added
    or dropped. RULES T-1: a value made from the pips of several faces (a d20's facets) is never read."""
    if not pips:
        return list(pips)
    looks = looks or Looks(image)
    places = [(die.center[0], die.center[1], _side(die), 1.0) for die in pips]
    doubtful = looks.may_read([place for place, die in zip(places, pips, strict=True)
                               if die.confidence < PIPS_SURE], OTHER_KINDS, NUMBERED_DIE)
    out: list[DieReading] = list(pips)
    if not doubtful:
        return out
    kind_p = dict(zip(doubtful, looks(doubtful)[0], strict=True))
    others = [CLASSES.index(kind) for kind in OTHER_KINDS]
    for i, place in enumerate(places):
        p = kind_p.get(place)
        if p is not None and int(p.argmax()) in others and p.max() >= NUMBERED_DIE:
            die = read_found(image, [place], looks)[0]
            out[i] = replace(die, box=pips[i].box, color=pips[i].color)
    return out


def reread_pips(numbered: list[DieReading], image: NDArray[Any]) -> list[DieReading]:
    """The numbered reader's dice, each it named pip d6 read again by the pip reader's classifier
    at the numbered reader's place (:func:`vision.tray.read_at`: the crop of the die's centre and
    side) as :func:`as_pips`, keeping its colour. Only when the classifier sees no die in one
    (a pip of a near die taken for a die: the box is not a die's) does the whole pip reader run,
    and its die sharing that one's box (each box holding the other's centre; one-to-one, nearest
    centres first) replaces it, as :func:`as_pips`; one it did not find keeps the numbered
    reading. No die is added."""
    places = [(die.center[0], die.center[1], _side(die)) for die in numbered if getattr(die, "kind", PIPS) == PIPS]
    pips = iter(read_at(image, places))
    out = [replace(as_pips(pip), color=die.color) if pip is not None else die
           for die in numbered for pip in [next(pips) if getattr(die, "kind", PIPS) == PIPS else None]]
    unseen = [i for i, die in enumerate(out) if die is numbered[i] and getattr(die, "kind", PIPS) == PIPS]
    if not unseen:
        return out
    found = read_tray(image).dice
    candidates = sorted((_distance(out[i], pip), i, j) for i in unseen
                        for j, pip in enumerate(found) if _same_die(out[i], pip))
    chosen: dict[int, int] = {}
    for _, i, j in candidates:
        if i not in chosen and j not in chosen.values():
            chosen[i] = j
    return [as_pips(found[chosen[i]]) if i in chosen else die for i, die in enumerate(out)]


def _named(dice: list[DieReading], image: NDArray[Any]) -> list[DieReading]:
    """``dice`` (a reading of ``read_numbered(image, named=False)``) with their colours named, as
    ``read_numbered(image)`` names them (:func:`vision.colors.name_dice_colors`)."""
    name_dice_colors(image, dice)
    return dice


def _distance(a: DieReading, b: DieReading) -> float:
    return (a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2


def _same_die(a: DieReading, b: DieReading) -> bool:
    """Each box holds the other's centre (as vision.scoring matches a die to a label)."""
    def holds(box: tuple[int, int, int, int], point: tuple[float, float]) -> bool:
        return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
    return holds(a.box, b.center) and holds(b.box, a.center)


def _side(die: DieReading) -> float:
    """The side of a numbered reader's die: twice its centre's distance to the farthest edge of
    its box (a box is the die's square around its centre, clipped to the photo)."""
    x, y = die.center
    return 2.0 * max(x - die.box[0], die.box[2] - x, y - die.box[1], die.box[3] - y)


def as_pips(die: DieReading) -> NumberedReading:
    """A pip reader's die as a die of kind ``"d6-pips"`` (``face`` None), as every kind is reported."""
    return NumberedReading(value=die.value, sides=SIDES[PIPS], box=die.box, center=die.center, color=die.color,
                           confidence=die.confidence, unreadable=die.unreadable, kind=PIPS, face=None)
