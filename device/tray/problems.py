"""What is wrong with a settled tray for the step waiting on it, as one record (RULES T-1, T-2, T-3, D6-2a).

A :class:`Problem` is data: its ``code`` and the values a sentence needs. The roll and the
fight share it; :meth:`Problem.english` words it for the CLI, the logs and the ``prompt``
field, and ``web/messages.py`` words it again in each phone's language from
:meth:`Problem.to_dict`. The English here is the wording the CLI and the README show:
change it only with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.phrase import Phrase

#: What can be wrong: the tray is empty, nothing moved (T-2), dice of another kind or more of
#: a kind than asked, too many or too few dice, only some of them moved, dice missing (T-3),
#: dice of a throw a cocked die voided that did not move (T-5 rethrow_set), a die unreadable
#: (T-1), a cocked die that voids its throw or leans and asks for its top face (T-5), no
#: principal die (D6-2a), a new throw replaced the dice the page asked about, the reader
#: failed, the rules refused the dice, the roll could not be saved.
Code = Literal["no dice", "not moved", "wrong dice", "too many", "too few", "moved", "missing",
               "unmoved", "unreadable", "void", "leaning", "no principal", "new throw", "no reading",
               "refused", "not saved"]

#: How a sentence names a reader's kind where its code is not its name.
KIND_NAMES = {"d6-pips": "pip d6", "d6": "numbered d6", "d10-percentile": "percentile d10"}

#: Why a die has no value (vision's ``unreadable`` words, or "cocked" from a correction),
#: as a clause of a sentence. web/messages.py translates these clauses: keep them in step.
UNREADABLE_PHRASES = {
    "cocked": "it is cocked",
    "cut off": "it is cut off by the edge of the photo",
    "blurred": "it is blurred",
    "ambiguous pips": "its pips are ambiguous",
    "ambiguous numeral": "its numeral is ambiguous",
    "unreadable": "it cannot be read",
}


def kind_name(kind: str) -> str:
    """How a sentence names a reader's kind: "d8", "pip d6", "percentile d10"."""
    return KIND_NAMES.get(kind, kind)


def unreadable_phrase(why: str | None) -> str:
    """The clause saying why a die cannot be read ("its pips are ambiguous"); a reason not
    in :data:`UNREADABLE_PHRASES` is quoted as vision gives it."""
    return UNREADABLE_PHRASES.get(why or "unreadable", f"it cannot be read ({why})")


def dice_count(count: int, adjective: str = "") -> str:
    """ "1 die", "3 dice", "2 six-sided dice"."""
    return f"{count} {adjective}{'die' if count == 1 else 'dice'}"


def listing(dice: Sequence[tuple[str, int]]) -> str:
    """ "a d8", "2 d20s", "a d6 and a d20" from ``((name, count), ...)``."""
    named = [f"a {name}" if count == 1 else f"{count} {name}s" for name, count in dice]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


@dataclass(frozen=True)
class Problem:
    """What stops a settled tray (or a throw) from filling the step that waits for it.

    :param code: one of :data:`Code`.
    :param dice: the dice the sentence names, ``((name, count), ...)``: the wrong or missing
        kinds, or the one unreadable die of a fight step (names as :func:`kind_name`).
    :param die: the unreadable die's number on the page (1 the first), for a roll.
    :param why: vision's reason word of an unreadable die ("cocked"), vision's note why no
        principal die was marked, or an error's text (a failed reader, the rules' refusal,
        a failed save's cause).
    :param color: the unreadable die's colour (None for a die entered by hand).
    :param seen: dice in the tray; ``moved``: of them, dice that moved (RULES T-2);
        ``wanted``: dice the step takes.
    :param label: the roll's preset label ("2D6"), for too many or too few dice.
    :param kind: the only kind a roll takes ("d10"), for dice of another kind.
    :param asks: the end of the English sentence: what the step asks for ("throw only
        d10s", "this attack needs a d8 and a d20", the roll's prompt).
    :param then: for a refused frame (no dice, nothing moved, no reading) of a roll, the
        problem the roll still asks to fix, if any.
    :param values: a fight step's values with None for each die whose top face is to be
        entered (``leaning``, RULES T-5); ``sides``: the step's sides, in that order.
    """

    code: Code
    dice: tuple[tuple[str, int], ...] = ()
    die: int | None = None
    why: str | None = None
    color: str | None = None
    seen: int | None = None
    moved: int | None = None
    wanted: int | None = None
    label: str | None = None
    kind: str | None = None
    asks: str = field(default="", compare=False)
    then: Problem | None = None
    values: tuple[int | None, ...] | None = None
    sides: tuple[int, ...] | None = None

    def english(self) -> str:
        """The sentence the CLI, the logs and the state's ``prompt`` show."""
        verb = "is" if sum(count for _, count in self.dice) == 1 else "are"
        seen, moved, wanted = self.seen or 0, self.moved or 0, self.wanted or 0
        match self.code:
            case "no dice":
                return f"no dice seen: {self.asks}"
            case "not moved":
                return f"no die has moved since the last reading: {self.asks}"
            case "wrong dice":
                return f"{listing(self.dice)} {verb} in the tray: {self.asks}"
            case "missing":
                return f"{listing(self.dice)} {verb} missing: {self.asks}"
            case "unmoved":
                if self.die is None and self.dice:  # a fight step
                    return (f"{self.dice[0][1]} of the voided throw's dice did not move: "
                            "throw all the dice of this step again")
                return f"{dice_count(seen)} of the voided throw did not move: throw all {wanted} again"
            case "void":
                if self.die is None:
                    return f"the {self.dice[0][0]}: it is cocked — throw all the dice of this step again"
                return (f"die {self.die}{self._colour()}: it is cocked — "
                        f"throw all {dice_count(seen)} of this throw again")
            case "leaning":
                if self.die is None:
                    return f"the {self.dice[0][0]} leans: enter its top face"
                return f"die {self.die}{self._colour()} leans: enter its top face"
            case "new throw":
                return f"a new throw was read: {self.asks}"
            case "moved":
                return (f"{dice_count(seen)} seen, {moved} of them moved; {dice_count(wanted)} needed: "
                        f"throw only {'that die' if wanted == 1 else 'those dice'} (or clear the tray first)")
            case "too many":
                return (f"{dice_count(seen)} seen, {self.label} takes {wanted}: take "
                        f"{dice_count(seen - wanted)} out and throw again")
            case "too few":
                return f"{dice_count(seen)} seen, {self.label} takes {wanted}: throw all {wanted} again"
            case "unreadable":
                if self.die is None:
                    return f"the {self.dice[0][0]}: {unreadable_phrase(self.why)} — {self.asks}"
                return f"die {self.die}{self._colour()}: {unreadable_phrase(self.why)} — {self.asks}"
            case "no principal":
                why = f" ({self.why})" if self.why else ""
                return f"no principal die found{why}: tap the principal die on the page"
            case "no reading":
                return f"could not read the tray ({self.why}): {self.asks}"
            case "refused":
                return f"{self.why}: {self.asks}"
            case "not saved":
                return f"{self.asks} — then throw again"
        raise ValueError(f"no problem code {self.code!r}")

    def _colour(self) -> str:
        return f" ({self.color})" if self.color else ""  # none: a die entered by hand

    def to_dict(self) -> dict[str, Any]:
        """The problem as the state carries it: every field (``dice`` as ``[{"name",
        "count"}]``, ``then`` as its dict or None), plus ``phrase``, the clause of an
        unreadable, voiding or leaning die ("it is cocked", else None), and ``text``,
        :meth:`english`, and ``reason``, ``why`` as :meth:`Phrase.to_dict` when it is a
        Phrase (the rules' refusal, for the page to word), else None."""
        return {"code": self.code, "dice": [{"name": name, "count": count} for name, count in self.dice],
                "die": self.die, "why": self.why, "color": self.color, "seen": self.seen,
                "moved": self.moved, "wanted": self.wanted, "label": self.label, "kind": self.kind,
                "phrase": unreadable_phrase(self.why) if self.code in ("unreadable", "void", "leaning") else None,
                "values": None if self.values is None else list(self.values),
                "sides": None if self.sides is None else list(self.sides),
                "text": self.english(), "then": None if self.then is None else self.then.to_dict(),
                "reason": self.why.to_dict() if isinstance(self.why, Phrase) else None}


def leaning(values: Sequence[int | None], sides: Sequence[int]) -> Problem:
    """RULES T-5 accept_leaning: a fight step's problem asking for the top face of the first
    die of ``values`` that is None (``sides``: the step's, in its order)."""
    return Problem("leaning", ((f"d{sides[list(values).index(None)]}", 1),), why="cocked",
                   values=tuple(values), sides=tuple(sides))
