"""Which dice of one settled tray a waiting step takes, or what is wrong (RULES T-1, T-2, T-3, T-5).

One pure function, :func:`match`, shared by the roll (``device/roll/frames.py``) and the
fight (``device/combat/tray.py``): no threads, no I/O. A step says what it wants as a
:class:`Wanted`: a count of dice (a roll: RULES D6-4, P-3 say how many) or dice by their
sides (a fight step: a d8 and the Destiny d20, RULES DD-1, DD-4, DD-8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from device.tray.problems import Code, Problem, kind_name, leaning
from rules.cocked import DEFAULT as DEFAULT_COCKED
from vision.reading import DieReading, TrayReading

if TYPE_CHECKING:
    from vision.principal import MeasuredColor

#: The readers' kinds a die of these sides may be: a d6 is fine with pips or numerals; a
#: percentile d10 reads tens, not a d10's face.
KINDS_FOR_SIDES: Mapping[int, tuple[str, ...]] = {
    4: ("d4",), 6: ("d6", "d6-pips"), 8: ("d8",), 10: ("d10",), 12: ("d12",), 20: ("d20",)}


@dataclass(frozen=True)
class Wanted:
    """What a waiting step asks of the next settled tray.

    :param reader: which reader reads the frame: ``"pips"`` (pip d6 alone) or ``"numbered"``
        (every kind, so a die of another kind is named): ``vision.read_dice`` narrowed to
        these kinds by default (:data:`device.tray.readers.KINDS`).
    :param sides: the sides of each die asked for, in the step's order (``(8, 20)``), every
        die readable (a fight step); None: a count of dice (a roll).
    :param count: the dice a roll takes (None: any count, a free roll).
    :param kind: the numbered reader's kind of the roll's dice (``"d10"``); dice of other
        kinds are named; None: no kind to check (a pip reading).
    :param moved_only: RULES T-2: with a ``before``, only dice that moved since count.
    :param follow_up: a later throw of the roll: the dice that moved are the throw, when
        they are as many as it takes; else the whole tray is.
    :param as_is: "read now": the tray as it is, nothing need have moved.
    :param label: the roll's preset label, for too many or too few dice.
    :param asks: the end of a problem's English sentence (:attr:`Problem.asks`).
    :param color: the principal die's palette colour handed to the reader (RULES D6-2).
    :param measured: the principal die's colour measured on the table's die (Settings): the
        die of that colour is the principal die (RULES D6-2a), else ``color``'s rule decides;
        None: ``color``'s rule alone.
    :param take: False: the frame is not for this step (it is read the step's way only to
        keep the tray as seen and the latest frame).
    :param photos: whether the step keeps the frame's photo and annotation (JPEGs).
    :param token: handed back with the frame, so the step knows a reading meant for a wait
        that has since moved on.
    :param cocked: the cocked-die policy (RULES T-5, ``rules.cocked.POLICIES``) of a fight
        step (a roll's cocked die is taken, and the roll's walk applies the policy).
    :param voided: the dice of a throw a cocked die voided (T-5 rethrow_set): none of them
        counts again unless it moved.
    :param before: what ``moved_only`` compares with: ``"last"``, the tray as last seen (the
        dispatcher keeps it), or the dice of a tray seen earlier (a roll's first throw: the
        tray when it was armed), or None: nothing.
    """

    reader: Literal["pips", "numbered"] = "pips"
    sides: tuple[int, ...] | None = None
    count: int | None = None
    kind: str | None = None
    moved_only: bool = False
    follow_up: bool = False
    as_is: bool = False
    label: str | None = None
    asks: str = ""
    color: str | None = None
    measured: MeasuredColor | None = None
    take: bool = True
    photos: bool = False
    token: object = None
    before: Literal["last"] | Sequence[DieReading] | None = "last"
    cocked: str = DEFAULT_COCKED
    voided: Sequence[DieReading] = ()


@dataclass(frozen=True)
class Match:
    """What a reading gives a step: the dice taken (in the order asked for by sides, else
    as read), or None and the ``problem``."""

    dice: tuple[DieReading, ...] | None
    problem: Problem | None = None

    @property
    def values(self) -> list[int] | None:
        """The taken dice's faces (a d10's 0 is 10, as the reader gives it)."""
        return None if self.dice is None else [die.value for die in self.dice]  # type: ignore[misc]


def die_kind(die: DieReading) -> str:
    """A read die's kind: the numbered reader's ``kind``, else ``d<sides>`` (a pip d6)."""
    kind = getattr(die, "kind", None)
    if kind is not None:
        return str(kind)
    return "d6-pips" if die.sides == 6 else f"d{die.sides}"


def match(reading: TrayReading, wanted: Wanted, before: Sequence[DieReading] | None) -> Match:
    """Take the dice ``wanted`` from one reading.

    :param reading: the tray as read (``dice``: ``DieReading``, or ``NumberedReading``
        with ``kind``; ``value`` None when unreadable).
    :param before: the tray as it lay before (RULES T-2), or None: nothing to compare with.
    :returns: the dice, or the first problem in this order: no dice at all; nothing moved;
        dice of another kind (and for a fight step more of a kind than asked); for a fight
        step dice missing (T-3); dice of a voided throw that did not move (T-5); for a fight
        step an unreadable die (T-1), a cocked one (thrown again alone, with its step, or
        leaning: its top face to enter, T-5); for a roll too many, too few, or (a later
        throw) not as many moved as it takes. A roll's unreadable die is taken: the roll
        names it and lets the page correct it.
    """
    dice = list(reading.dice)
    if not dice:
        return Match(None, Problem("no dice", asks=wanted.asks))
    new = dice if not wanted.moved_only or before is None else moved(dice, before)
    if not new and not wanted.as_is:
        return Match(None, Problem("not moved", asks=wanted.asks))
    if wanted.sides is not None:
        return _by_sides(dice, wanted)
    if wanted.kind is not None:
        wrong = Counter(kind_name(die_kind(die)) for die in dice if die_kind(die) != wanted.kind)
        if wrong:
            return Match(None, Problem("wrong dice", tuple(wrong.items()), kind=wanted.kind,
                                       asks=f"throw only {wanted.kind}s"))
    still = len(new) - len(moved(new, wanted.voided)) if wanted.voided else 0
    if still:  # read now too: a die of the voided throw that did not move is not thrown
        return Match(None, Problem("unmoved", seen=still, wanted=len(wanted.voided)))
    expected = wanted.count
    if expected is None or (wanted.follow_up and wanted.as_is and len(dice) == expected):
        return Match(tuple(dice))
    if wanted.follow_up:
        if len(new) == expected:
            return Match(tuple(new))
        return Match(None, Problem("moved", seen=len(dice), moved=len(new), wanted=expected))
    if len(dice) != expected:
        code: Code = "too many" if len(dice) > expected else "too few"
        return Match(None, Problem(code, seen=len(dice), wanted=expected, label=wanted.label))
    return Match(tuple(dice))


def _by_sides(dice: list[DieReading], wanted: Wanted) -> Match:
    """A fight step: exactly the dice asked for, every one readable, in the step's order."""
    asked = Counter(wanted.sides)
    accepted = {kind: sides for sides in asked for kind in KINDS_FOR_SIDES.get(sides, (f"d{sides}",))}
    kinds = Counter(die_kind(die) for die in dice)
    seen: Counter[int] = Counter()
    for kind, count in kinds.items():
        if kind in accepted:
            seen[accepted[kind]] += count
    wrong = [(kind_name(kind), count) for kind, count in kinds.items() if kind not in accepted]
    wrong += [(f"d{sides}", seen[sides]) for sides in asked if seen[sides] > asked[sides]]
    if wrong:
        return Match(None, Problem("wrong dice", tuple(wrong), asks=wanted.asks))
    missing = tuple((f"d{sides}", asked[sides] - seen[sides]) for sides in asked if seen[sides] < asked[sides])
    if missing:
        return Match(None, Problem("missing", missing, asks=wanted.asks))
    still = sum(any(_lies_as(die, old) for old in wanted.voided) for die in dice)
    if still:
        return Match(None, Problem("unmoved", (("die", still),)))
    unread = [die for die in dice if die.value is None]
    for die in unread:
        why = die.unreadable or "unreadable"
        if why != "cocked" or wanted.cocked == "rethrow_die":
            return Match(None, Problem("unreadable", ((kind_name(die_kind(die)), 1),), why=why, asks="throw it again"))
    if unread and wanted.cocked == "rethrow_set":
        return Match(None, Problem("void", ((kind_name(die_kind(unread[0])), 1),), why="cocked"))
    by_sides: dict[int, list[DieReading]] = {}
    for die in dice:
        by_sides.setdefault(accepted[die_kind(die)], []).append(die)
    taken = tuple(by_sides[sides].pop(0) for sides in wanted.sides or ())
    if unread:  # accept_leaning: the readers read no leaning die (T-1); the table enters its top face
        return Match(None, leaning([die.value for die in taken], wanted.sides or ()))
    return Match(taken)


def moved(dice: Sequence[DieReading], before: Sequence[DieReading]) -> list[DieReading]:
    """The dice of a reading that were not in the one before (RULES T-2: the same face and
    colour at the same place, within half a die, was not thrown)."""
    left = list(before)
    new = []
    for die in dice:
        same = next((old for old in left if _same_die(die, old)), None)
        if same is None:
            new.append(die)
        else:
            left.remove(same)
    return new


def _lies_as(die: DieReading, old: DieReading) -> bool:
    """Whether ``die`` lies where ``old`` lay (within half a die), showing the same face."""
    if die.value != old.value or die_kind(die) != die_kind(old):
        return False
    size = max(old.box[2] - old.box[0], old.box[3] - old.box[1], 1)
    return (die.center[0] - old.center[0]) ** 2 + (die.center[1] - old.center[1]) ** 2 <= (size / 2) ** 2


def _same_die(a: DieReading, b: DieReading) -> bool:
    if a.value != b.value or a.color != b.color or not a.box or not b.box:
        return False
    ax, ay = (a.box[0] + a.box[2]) / 2, (a.box[1] + a.box[3]) / 2
    bx, by = (b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2
    size = max(a.box[2] - a.box[0], a.box[3] - a.box[1], 1)
    return (ax - bx) ** 2 + (ay - by) ** 2 <= (size / 2) ** 2
