"""The dice a Destiny combat step asks for, found in one tray reading (RULES DD-1, DD-4, DD-8, T-1, T-3, T-5).

A step asks for dice by their sides: ``[8, 20]`` for an attacker's Body d8 and the
Destiny d20, ``[6]`` for a Mind d6 of initiative. :func:`match_dice` takes them from a
reading of the numbered reader (``vision.read_numbered``) only when the tray shows
exactly those dice, every one readable; otherwise it fills nothing and says what is
wrong (a die of another kind, a die missing, an unreadable die), as a problem the
page can put in its own language and as one English sentence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from device.controller import KIND_NAMES, unreadable_phrase
from rules.cocked import DEFAULT

#: The readers' kinds a characteristic or Destiny die of these sides may be:
#: a d6 is fine with pips or numerals; a percentile d10 reads tens, not a d10's face.
KINDS_FOR_SIDES = {4: ("d4",), 6: ("d6", "d6-pips"), 8: ("d8",), 10: ("d10",), 12: ("d12",), 20: ("d20",)}


@dataclass(frozen=True)
class TrayMatch:
    """What a reading gives a step: ``values`` in the order the step asked for its dice
    (a d10's 0 is 10, as the reader gives it), or None and ``problem``: a dict
    ``{"code": "no dice" | "wrong dice" | "missing" | "unmoved" | "unreadable" | "void" |
    "leaning", "dice": [{"name", "count"}] (the dice the sentence names), "why": reason word
    of an unreadable die or None, "phrase": the clause saying why ("it is cocked") or None,
    "text": English sentence}``; a "leaning" problem also has ``"values"`` (the step's
    values, None for each die whose top face is to be entered) and ``"sides"`` (RULES T-5)."""

    values: list[int] | None
    problem: dict | None


def die_kind(die) -> str:
    """A read die's kind: the numbered reader's ``kind``, else ``d<sides>`` (a pip d6)."""
    kind = getattr(die, "kind", None)
    if kind is not None:
        return kind
    return "d6-pips" if die.sides == 6 else f"d{die.sides}"


def kind_name(kind: str) -> str:
    """How a prompt names a kind: "d8", "pip d6", "percentile d10"."""
    return KIND_NAMES.get(kind, kind)


def listing(dice: Sequence[dict]) -> str:
    """ "a d8", "2 d20s", "a d6 and a d20" from ``[{"name", "count"}]``."""
    named = [f"a {d['name']}" if d["count"] == 1 else f"{d['count']} {d['name']}s" for d in dice]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def wanted_text(wanted: Sequence[int]) -> str:
    """ "a d8 and a d20" for ``[8, 20]``."""
    return listing([{"name": f"d{sides}", "count": n} for sides, n in Counter(wanted).items()])


def match_dice(dice: Sequence, wanted: Sequence[int], needs: str, cocked: str = DEFAULT,
               voided: Sequence = ()) -> TrayMatch:
    """Take the dice ``wanted`` (sides, in the step's order) from the dice of one reading.

    :param dice: the reading's dice (``vision.reading.DieReading``, or the numbered
        reader's ``NumberedReading`` with ``kind``), each ``value`` None when unreadable.
    :param wanted: sides of the dice the step asks for, e.g. ``[8, 20]``.
    :param needs: the end of each sentence, e.g. "this attack needs a d8 and a d20".
    :param cocked: the cocked-die policy (RULES T-5, ``rules.cocked.POLICIES``).
    :param voided: the dice of a throw a cocked die voided (``rethrow_set``): none of them
        may lie where it lay, showing what it showed.
    :returns: the values, or the first problem in this order: no dice at all; dice of
        another kind, or more of a kind than asked (named); dice missing (RULES T-3);
        dice of the voided throw that did not move (T-5); an unreadable die, with its
        reason (RULES T-1); a cocked die: thrown again alone (``rethrow_die``), with the
        whole step (``void``), or its top face to enter by hand (``leaning``).
    """
    kinds = Counter(die_kind(die) for die in dice)
    if not dice:
        return TrayMatch(None, _problem("no dice", [], None, f"no dice seen: {needs}"))
    asked = Counter(wanted)
    accepted = {kind: sides for sides in asked for kind in KINDS_FOR_SIDES.get(sides, (f"d{sides}",))}
    seen = Counter()
    for kind, count in kinds.items():
        if kind in accepted:
            seen[accepted[kind]] += count
    wrong = [{"name": kind_name(kind), "count": count} for kind, count in kinds.items() if kind not in accepted]
    wrong += [{"name": f"d{sides}", "count": seen[sides]} for sides in asked if seen[sides] > asked[sides]]
    if wrong:
        verb = "is" if sum(d["count"] for d in wrong) == 1 else "are"
        return TrayMatch(None, _problem("wrong dice", wrong, None, f"{listing(wrong)} {verb} in the tray: {needs}"))
    missing = [{"name": f"d{sides}", "count": asked[sides] - seen[sides]} for sides in asked if seen[sides] < asked[sides]]
    if missing:
        verb = "is" if sum(d["count"] for d in missing) == 1 else "are"
        return TrayMatch(None, _problem("missing", missing, None, f"{listing(missing)} {verb} missing: {needs}"))
    still = sum(any(_lies_as(die, old) for old in voided) for die in dice)
    if still:
        return TrayMatch(None, _problem("unmoved", [{"name": "die", "count": still}], None,
                                        f"{still} of the voided throw's dice did not move: "
                                        "throw all the dice of this step again"))
    unread = [die for die in dice if die.value is None]
    for die in unread:
        why = die.unreadable or "unreadable"
        if why != "cocked" or cocked == "rethrow_die":
            name = kind_name(die_kind(die))
            return TrayMatch(None, _problem("unreadable", [{"name": name, "count": 1}], why,
                                            f"the {name}: {unreadable_phrase(why)} — throw it again"))
    if unread and cocked == "rethrow_set":
        name = kind_name(die_kind(unread[0]))
        return TrayMatch(None, _problem("void", [{"name": name, "count": 1}], "cocked",
                                        f"the {name}: it is cocked — throw all the dice of this step again"))
    by_sides: dict[int, list[int | None]] = {}
    for die in dice:
        by_sides.setdefault(accepted[die_kind(die)], []).append(die.value)
    values = [by_sides[sides].pop(0) for sides in wanted]
    if unread:  # accept_leaning: the readers read no leaning die (T-1); the table enters its top face
        return TrayMatch(None, leaning_problem(values, list(wanted)))
    return TrayMatch(values, None)


def leaning_problem(values: list[int | None], sides: list[int]) -> dict:
    """The problem asking for the top face of the first die of ``values`` that is None."""
    name = f"d{sides[values.index(None)]}"
    return {**_problem("leaning", [{"name": name, "count": 1}], "cocked", f"the {name} leans: enter its top face"),
            "values": values, "sides": sides}


def _lies_as(die, old) -> bool:
    """Whether ``die`` lies where ``old`` lay (within half a die), showing the same face."""
    if die.value != old.value or die_kind(die) != die_kind(old):
        return False
    size = max(old.box[2] - old.box[0], old.box[3] - old.box[1], 1)
    return (die.center[0] - old.center[0]) ** 2 + (die.center[1] - old.center[1]) ** 2 <= (size / 2) ** 2


def _problem(code: str, dice: list[dict], why: str | None, text: str) -> dict:
    return {"code": code, "dice": dice, "why": why, "phrase": why and unreadable_phrase(why), "text": text}
