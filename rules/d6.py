"""The D6 test of seed 000 (RULES.md §1): principal die, perfect roll chain, random dice.

Resolution is resumable: :func:`resolve_d6` takes the natural values seen so far
and returns either the final result or the one thing it still needs (the missing
dice of the first throw, or the next extra die of a perfect roll's chain).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import InvalidRoll
from rules.outcome import Needs
from rules.phrase import Phrase

Kind = Literal["D6", "D3", "D2"]
Role = Literal["principal", "secondary", "extra"]

KINDS: tuple[str, ...] = ("D6", "D3", "D2")
FACES = range(1, 7)
#: The most dice of one D6 roll: RULES P-11's bound of a pool, which the page, the
#: presets and the exact odds keep for every roll (no table throws more into one tray).
MAX_DICE = 100
PERFECT_FACE = 6
EXTRA_KIND = "D3"

# What an outcome waits for (``Needs.reason``) and its notes are Phrases: the page words them
# in each phone's language (a note is kept with the roll).
PERFECT_REASON = Phrase("Rolagem Perfeita: roll the principal die again (counts as D3)")  # the seed's name (RULES D6-3)
CHAIN_REASON = Phrase("the extra die showed 6: roll the principal die again (counts as D3)")
PRINCIPAL_REASON = Phrase("no die stands out as the principal die: say which one it is")
#: ``Needs.kind`` of an outcome that waits to be told the principal die (RULES D6-2a): no die is thrown.
PRINCIPAL_KIND = "principal"


def counted_value(natural: int, kind: str) -> int:
    """The value a six-sided die counts for when read as ``kind``.

    # RULES D6-1: D6 counts the face; D3 counts ⌈v/2⌉; D2 counts 1 for 1–3, 2 for 4–6.

    :param natural: the face on top, 1–6.
    :param kind: ``"D6"``, ``"D3"`` or ``"D2"``.
    :returns: 1–6, 1–3 or 1–2.
    :raises InvalidRoll: for a face a six-sided die does not have or an unknown kind.
    """
    _check_kind(kind)
    _check_face(natural)
    if kind == "D3":
        return (natural + 1) // 2
    if kind == "D2":
        return 1 if natural <= 3 else 2
    return natural


@dataclass(frozen=True)
class D6Spec:
    """What was asked: ``count`` six-sided dice read as ``kind``, plus ``modifier``.

    :param count: dice in the first throw, principal included (≥ 1).
    :param kind: how every die of the first throw is read (RULES D6-1).
    :param modifier: added to the total, unless ``random`` (RULES D6-5, D6-6).
    :param random: a random die (dado aleatório): the total is dice only (RULES D6-6).
    :param roller: the player who rolls; recorded, changes no arithmetic (RULES D6-7).
    :param principal_known: ``False`` when no die of the throw stands out as the
        principal one (no die of a distinct colour, no throw order). A lone die is
        the principal die all the same; of several, the outcome waits to be told
        which (RULES D6-2a): the perfect-roll check is never dropped.
    :raises InvalidRoll: for a count below 1 or above :data:`MAX_DICE`, an unknown kind or a
        non-integer modifier.
    """

    count: int
    kind: Kind = "D6"
    modifier: int = 0
    random: bool = False
    roller: str | None = None
    principal_known: bool = True

    def __post_init__(self) -> None:
        if not _is_int(self.count) or self.count < 1:
            raise InvalidRoll(Phrase("a D6 roll needs at least 1 die, not {got}", got=repr(self.count)))
        if self.count > MAX_DICE:
            raise InvalidRoll(Phrase("a D6 roll takes at most {most} dice, not {got}", most=MAX_DICE, got=self.count))
        _check_kind(self.kind)
        if not _is_int(self.modifier):
            raise InvalidRoll(Phrase("the modifier must be a whole number, not {got}", got=repr(self.modifier)))

    @property
    def applied_modifier(self) -> int:
        """The modifier that counts: none on a random roll (RULES D6-6)."""
        return 0 if self.random else self.modifier

    def label(self) -> str:
        """Short label: ``"2D6"``, ``"1D3+2"``, ``"2D6-1"``, ``"random 1D2"`` (RULES D6-1).

        A random roll shows no modifier, since none counts (RULES D6-6).
        """
        dice = f"{self.count}{self.kind}"
        if self.random:
            return f"random {dice}"
        if self.modifier:
            return f"{dice}{self.modifier:+d}"
        return dice

    def to_dict(self) -> dict[str, Any]:
        """``{"system": "d6", "count", "kind", "modifier", "random", "principal_known"}`` (the
        roller is the roll's, not the spec's: it is left out)."""
        return {"system": "d6", "count": self.count, "kind": self.kind, "modifier": self.modifier,
                "random": self.random, "principal_known": self.principal_known}

    @classmethod
    def from_dict(cls, data: dict[str, Any], roller: str | None = None) -> D6Spec:
        """The inverse of :meth:`to_dict` (``"system"`` optional, missing keys take defaults),
        for ``roller``.

        :raises InvalidRoll: for another system, unknown keys, no count or invalid values.
        """
        data = dict(data)
        if data.pop("system", "d6") != "d6":
            raise InvalidRoll("not a D6 spec")
        unknown = sorted(set(data) - {"count", "kind", "modifier", "random", "principal_known"})
        if unknown:
            raise InvalidRoll(f"unknown D6 setting: {', '.join(unknown)}")
        if "count" not in data:
            raise InvalidRoll("a D6 spec needs a count")
        return cls(**data, roller=roller)


@dataclass(frozen=True)
class D6Die:
    """One die of the breakdown: its natural face, the value it counts, its role (RULES D6-2);
    ``None`` while the principal die is not known (RULES D6-2a)."""

    natural: int
    value: int
    role: Role | None

    def to_dict(self) -> dict[str, Any]:
        """``{"natural", "value", "role"}``."""
        return {"natural": self.natural, "value": self.value, "role": self.role}


@dataclass(frozen=True)
class D6Outcome:
    """What a D6 roll means so far.

    :param spec: the roll asked for.
    :param dice: the breakdown, principal first, then secondary, then extra dice.
    :param perfect: the principal die shows a natural 6 (RULES D6-3).
    :param total: the result (RULES D6-5), ``None`` while dice are missing.
    :param needs: what must still be thrown, ``None`` when complete.
    :param note: a sentence (a :class:`~rules.phrase.Phrase`) when the chain was stopped by a bound (RULES T-4).
    """

    spec: D6Spec
    dice: tuple[D6Die, ...]
    perfect: bool
    total: int | None
    needs: Needs | None
    note: str | None = None

    @property
    def complete(self) -> bool:
        """True once no more dice are needed."""
        return self.needs is None

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form used by the CLI, the history and the page.

        :returns: ``{"system": "d6", "label", "complete", "total": int | None,
            "perfect", "needs": Needs dict | None, "dice": [{"natural", "value",
            "role"}], "kind", "count", "modifier" (the one added to the total),
            "modifier_ignored" (dropped by a random roll, RULES D6-6), "random",
            "roller", "principal_known", "note": str | None}``; a die's ``role`` is
            ``None`` while the principal die is not known (RULES D6-2a).
        """
        return {
            "system": "d6",
            "label": self.spec.label(),
            "complete": self.complete,
            "total": self.total,
            "perfect": self.perfect,
            "needs": None if self.needs is None else self.needs.to_dict(),
            "dice": [die.to_dict() for die in self.dice],
            "kind": self.spec.kind,
            "count": self.spec.count,
            "modifier": self.spec.applied_modifier,
            "modifier_ignored": self.spec.modifier - self.spec.applied_modifier,
            "random": self.spec.random,
            "roller": self.spec.roller,
            "principal_known": self.spec.principal_known,
            "note": self.note,
        }


def resolve_d6(
    spec: D6Spec,
    dice: Sequence[int],
    extra: Sequence[int] = (),
    *,
    max_links: int | None = None,
) -> D6Outcome:
    """Resolve a D6 roll from the natural values seen so far.

    # RULES D6-1 … D6-7, T-3, T-4.

    :param spec: the roll asked for.
    :param dice: natural values 1–6 of the first throw, the principal die first
        (RULES D6-2). Fewer than ``spec.count`` is not an error: the outcome waits
        and its ``needs`` says how many dice are missing (RULES T-3).
    :param extra: natural values of the extra dice, in the order thrown (RULES D6-4).
    :param max_links: optional bound on the extra dice (RULES T-4). ``None`` (the
        default) follows the chain wherever the dice lead. With a bound, a chain
        whose extra die number ``max_links`` is still a 6 ends there: the outcome
        is complete, that 6 counts 3 like any extra die, and ``note`` says the
        chain was stopped. More extra dice than the bound is an error.
    :returns: a complete outcome, or an incomplete one whose ``needs`` asks for
        the missing dice of the first throw, for one extra die (read as D3), or,
        when ``spec.principal_known`` is false and the throw has several dice, to
        be told which is the principal die (``count`` 0, ``kind`` :data:`PRINCIPAL_KIND`,
        RULES D6-2a).
    :raises InvalidRoll: no dice, a face outside 1–6, more dice than ``spec.count``,
        extra dice that no perfect roll asked for (or before the principal die is
        known), or more than ``max_links``.
    """
    dice = tuple(dice)
    extra = tuple(extra)
    if max_links is not None and (not _is_int(max_links) or max_links < 1):
        raise InvalidRoll(f"the bound on extra dice must be at least 1, not {max_links!r}")
    if not dice:
        raise InvalidRoll(Phrase.ngettext("no dice given: a {label} roll needs {n} die",
                                          "no dice given: a {label} roll needs {n} dice",
                                          spec.count, label=spec.label(), n=spec.count))
    for natural in dice + extra:
        _check_face(natural)
    if len(dice) > spec.count:
        raise InvalidRoll(Phrase.ngettext("{n} die given for a {label} roll", "{n} dice given for a {label} roll",
                                          len(dice), n=len(dice), label=spec.label()))

    missing = spec.count - len(dice)
    # RULES D6-2a: a lone die is the principal die; of several, the players say which.
    if not spec.principal_known and spec.count > 1:
        if extra:
            raise InvalidRoll(Phrase("extra dice given before the principal die is known"))
        breakdown = [D6Die(n, counted_value(n, spec.kind), None) for n in dice]
        needs = (Needs(count=missing, sides=6, kind=spec.kind, reason=_still_missing(missing)) if missing
                 else Needs(count=0, sides=6, kind=PRINCIPAL_KIND, reason=PRINCIPAL_REASON))
        return D6Outcome(spec, tuple(breakdown), False, None, needs)

    # RULES D6-2: the first value is the principal die.
    roles: list[Role] = ["principal" if i == 0 else "secondary" for i in range(len(dice))]
    breakdown = [D6Die(n, counted_value(n, spec.kind), role) for n, role in zip(dice, roles, strict=True)]
    # RULES D6-3: judged on the principal's natural face, whatever the kind.
    perfect = dice[0] == PERFECT_FACE

    if missing:
        if extra:
            raise InvalidRoll(Phrase("extra dice given before the first throw is complete ({missing})",
                                     missing=_still_missing(missing)))
        reason = _still_missing(missing)
        needs = Needs(count=missing, sides=6, kind=spec.kind, reason=reason)
        return D6Outcome(spec, tuple(breakdown), perfect, None, needs)

    # RULES D6-4: one extra D3 per natural 6, starting with the principal's.
    chain_open = perfect
    for position, natural in enumerate(extra, start=1):
        if not chain_open:
            raise InvalidRoll(_unasked_extra(position))
        if max_links is not None and position > max_links:
            raise InvalidRoll(Phrase.ngettext("{n} extra die given, more than the bound of {most}",
                                              "{n} extra dice given, more than the bound of {most}",
                                              len(extra), n=len(extra), most=max_links))
        breakdown.append(D6Die(natural, counted_value(natural, EXTRA_KIND), "extra"))
        chain_open = natural == PERFECT_FACE

    note = None
    if chain_open and max_links is not None and len(extra) == max_links:
        note = Phrase.ngettext("chain stopped after {n} extra die: the last 6 counts 3 and asks for no more",
                               "chain stopped after {n} extra dice: the last 6 counts 3 and asks for no more",
                               max_links, n=max_links)
        chain_open = False
    if chain_open:
        reason = CHAIN_REASON if extra else PERFECT_REASON
        needs = Needs(count=1, sides=6, kind=EXTRA_KIND, reason=reason)
        return D6Outcome(spec, tuple(breakdown), perfect, None, needs)

    # RULES D6-5, D6-6: dice as read plus the modifier, none on a random roll.
    total = sum(die.value for die in breakdown) + spec.applied_modifier
    return D6Outcome(spec, tuple(breakdown), perfect, total, None, note)


def _unasked_extra(position: int) -> Phrase:
    if position == 1:
        return Phrase("extra dice given but there is no perfect roll (the principal die is not a 6)")
    return Phrase("extra die {n} given but extra die {before} is not a 6, so the chain had ended",
                  n=position, before=position - 1)


def _still_missing(count: int) -> Phrase:
    return Phrase.ngettext("{n} die still missing", "{n} dice still missing", count, n=count)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_face(natural: object) -> None:
    if not _is_int(natural) or natural not in FACES:
        raise InvalidRoll(f"{natural!r} is not a face of a six-sided die (1-6)")


def _check_kind(kind: object) -> None:
    if kind not in KINDS:
        raise InvalidRoll(Phrase("unknown kind {got}: a six-sided die is read as D6, D3 or D2", got=repr(kind)))
