"""Dice pool rules (RULES.md §2, seed 004): ten-sided dice, successes, rule of one,
rule of ten with its reroll, botch, difficulty and degree.

Resolution is resumable: :func:`resolve_pool` takes the first roll and the rerolls
seen so far and answers either the final result or the dice it still needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.errors import InvalidRoll
from rules.outcome import Needs
from rules.phrase import Phrase

# RULES P-6: difficulty is the number of net successes needed.
DIFFICULTY_NAMES = {1: "Padrão", 2: "Difícil", 3: "Desafiante", 4: "Realmente Impossível", 5: "Lendário"}
# RULES P-7: degree of success by net successes, 5 or more is Fenomenal.
DEGREE_NAMES = {1: "Padrão", 2: "Superior", 3: "Notável", 4: "Surpreendente", 5: "Fenomenal"}
# RULES P-9: a skill rolled with another attribute of its group, or of another group.
MISMATCH_DIFFICULTY = {None: 0, "same_group": 1, "other_group": 2}
# RULES P-9, with the seed's slip fixed: the social three are their own group.
ATTRIBUTE_GROUPS = {
    "Força": "physical", "Destreza": "physical", "Vigor": "physical",
    "Percepção": "mental", "Inteligência": "mental", "Raciocínio": "mental",
    "Aparência": "social", "Manipulação": "social", "Carisma": "social",
}

SIDES = 10
#: RULES P-11: the most dice a pool holds after bonuses and penalties.
MAX_POOL = 100
ROLES = ("success", "failure", "ten", "cancelled", "canceller", "one left over")
OUTCOMES = ("success", "failure", "botch", "automatic failure")


def _check_int(name: str, value: object, lowest: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
        raise InvalidRoll(Phrase("{name} must be a whole number of at least {lowest}, not {got}",
                                 name=name, lowest=lowest, got=repr(value)))


@dataclass(frozen=True)
class PoolOptions:
    """House rules a table may choose; the defaults are the seed's rules.

    :param rule_of_ten: RULES P-3; off, a 10 is a plain success (a 1 may cancel it, no reroll).
    :param rule_of_one: RULES P-4/P-5; off, a 1 cancels nothing, and a roll with no success
        and at least one 1 is still a botch (RULES P-5b).
    :param target_number: lowest face that is a success, 2–10 (RULES P-2 says 6).
    :raises InvalidRoll: for a target number outside 2–10 or a non-boolean switch.
    """

    rule_of_ten: bool = True
    rule_of_one: bool = True
    target_number: int = 6

    def __post_init__(self) -> None:
        for name in ("rule_of_ten", "rule_of_one"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRoll(f"{name} must be true or false, not {getattr(self, name)!r}")
        _check_int("target_number", self.target_number, 2)
        if self.target_number > SIDES:
            raise InvalidRoll(f"target_number must be 2 to 10, not {self.target_number}")

    def to_dict(self) -> dict[str, Any]:
        """``{"rule_of_ten", "rule_of_one", "target_number"}``."""
        return {"rule_of_ten": self.rule_of_ten, "rule_of_one": self.rule_of_one,
                "target_number": self.target_number}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PoolOptions:
        """The inverse of :meth:`to_dict` (missing keys take defaults).

        :raises InvalidRoll: for unknown keys or invalid values.
        """
        unknown = sorted(set(data) - {"rule_of_ten", "rule_of_one", "target_number"})
        if unknown:
            raise InvalidRoll(f"unknown pool options: {', '.join(unknown)}")
        return cls(**data)


@dataclass(frozen=True)
class PoolSpec:
    """What was asked: a dice pool roll.

    :param size: dice of the pool before penalties and bonus (attribute + skill).
    :param difficulty: net successes needed, at least 1 (RULES P-6), before the mismatch.
    :param penalty: dice the narrator removes (RULES P-8).
    :param bonus: dice added, e.g. carried from an assessment (RULES P-8, P-10).
    :param mismatch: ``None``, ``"same_group"`` (+1 difficulty) or ``"other_group"`` (+2) (RULES P-9).
    :param options: house rules, :class:`PoolOptions`.
    :raises InvalidRoll: for a negative count, a difficulty below 1, an unknown mismatch, or a
        pool of more than :data:`MAX_POOL` dice after bonus and penalty (RULES P-11).
    """

    size: int
    difficulty: int = 1
    penalty: int = 0
    bonus: int = 0
    mismatch: str | None = None
    options: PoolOptions = field(default_factory=PoolOptions)

    def __post_init__(self) -> None:
        _check_int("size", self.size, 0)
        _check_int("difficulty", self.difficulty, 1)
        _check_int("penalty", self.penalty, 0)
        _check_int("bonus", self.bonus, 0)
        if self.mismatch not in MISMATCH_DIFFICULTY:
            raise InvalidRoll(Phrase("mismatch must be same_group or other_group, not {got}", got=repr(self.mismatch)))
        if not isinstance(self.options, PoolOptions):
            raise InvalidRoll("options must be PoolOptions")
        if self.pool_size > MAX_POOL:  # RULES P-11: refused before any die is counted
            raise InvalidRoll(Phrase("a pool holds at most {most} dice after bonus and penalty, not {got}",
                                     most=MAX_POOL, got=self.pool_size))

    @property
    def pool_size(self) -> int:
        """Dice actually rolled: size + bonus − penalty; 0 or less is an automatic failure (RULES P-8)."""
        return self.size + self.bonus - self.penalty

    @property
    def effective_difficulty(self) -> int:
        """Difficulty with the attribute-group mismatch added (RULES P-9)."""
        return self.difficulty + MISMATCH_DIFFICULTY[self.mismatch]

    def label(self) -> str:
        """Short label: ``"pool 5 · difficulty 2"``, house rules named after it (``"target 8"``).
        A pool left with no dice is ``"pool 0"`` (RULES P-8: no dice are rolled), never a negative count."""
        parts = [f"pool {max(self.pool_size, 0)}", f"difficulty {self.effective_difficulty}"]
        if self.options.target_number != PoolOptions.target_number:
            parts.append(f"target {self.options.target_number}")
        parts += [f"no rule of {name}" for name, on in
                  (("ten", self.options.rule_of_ten), ("one", self.options.rule_of_one)) if not on]
        return " · ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """``{"system": "pool", "size", "difficulty", "penalty", "bonus", "mismatch", "options"}``."""
        return {"system": "pool", "size": self.size, "difficulty": self.difficulty,
                "penalty": self.penalty, "bonus": self.bonus, "mismatch": self.mismatch,
                "options": self.options.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PoolSpec:
        """The inverse of :meth:`to_dict` (``"system"`` optional, missing keys take defaults).

        :raises InvalidRoll: for unknown keys or invalid values.
        """
        data = dict(data)
        if data.pop("system", "pool") != "pool":
            raise InvalidRoll("not a pool spec")
        options = data.pop("options", None) or {}
        if not isinstance(options, dict):
            raise InvalidRoll(f"pool options must be a mapping, not {options!r}")
        known = {"size", "difficulty", "penalty", "bonus", "mismatch"}
        unknown = sorted(set(data) - known) + sorted(set(options) - {"rule_of_ten", "rule_of_one", "target_number"})
        if unknown:
            raise InvalidRoll(f"unknown pool setting: {', '.join(unknown)}")
        if "size" not in data:
            raise InvalidRoll("a pool spec needs a size")
        return cls(**data, options=PoolOptions(**options))


@dataclass(frozen=True)
class PoolDie:
    """One die of the breakdown.

    :param natural: face value 1–10 (a printed 0 is 10).
    :param role: one of :data:`ROLES`.
    :param reroll: True for a die of the reroll of the 10s (RULES P-3).
    :param paired_with: index (in the outcome's dice) of the die this one cancelled or
        was cancelled by, else None.
    """

    natural: int
    role: str
    reroll: bool = False
    paired_with: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"natural", "role", "reroll", "paired_with"}``."""
        return {"natural": self.natural, "role": self.role, "reroll": self.reroll,
                "paired_with": self.paired_with}


@dataclass(frozen=True)
class PoolOutcome:
    """What a dice pool roll means, or what it still needs.

    :param spec: the roll asked for.
    :param dice: first roll in the order given, then the reroll dice.
    :param needs: more dice to throw (the reroll of the 10s), None once complete.
    :param successes: net successes, None while incomplete.
    :param botch: RULES P-5 falha crítica.
    """

    spec: PoolSpec
    dice: tuple[PoolDie, ...]
    needs: Needs | None
    successes: int | None
    botch: bool

    @property
    def complete(self) -> bool:
        return self.needs is None

    @property
    def automatic_failure(self) -> bool:
        """RULES P-8: no dice left after penalties."""
        return self.spec.pool_size <= 0

    @property
    def difficulty(self) -> int:
        return self.spec.effective_difficulty

    @property
    def outcome(self) -> str | None:
        """``"success"``, ``"failure"``, ``"botch"``, ``"automatic failure"``; None while incomplete."""
        if not self.complete:
            return None
        if self.automatic_failure:
            return "automatic failure"
        if self.botch:
            return "botch"
        if self.successes is None:  # only while incomplete
            return None
        return "success" if self.successes >= self.difficulty else "failure"

    @property
    def margin(self) -> int | None:
        """Net successes minus difficulty (RULES P-7); negative when short; None while incomplete."""
        return None if self.successes is None else self.successes - self.difficulty

    @property
    def difficulty_name(self) -> str:
        """RULES P-6 name; a difficulty above 5 keeps the top name, Lendário."""
        return DIFFICULTY_NAMES[min(self.difficulty, 5)]

    @property
    def degree_name(self) -> str | None:
        """RULES P-7 name of a successful roll by its net successes, else None."""
        if self.outcome != "success" or self.successes is None:
            return None
        return DEGREE_NAMES[min(self.successes, 5)]

    @property
    def summary(self) -> str:
        """One plain English sentence for the players."""
        if self.needs is not None:  # not complete
            return self.needs.reason
        if self.automatic_failure:
            return f"automatic failure: no dice left after penalties (pool of {self.spec.pool_size}), nothing is rolled"
        noun = "success" if self.successes == 1 else "successes"
        head = f"{self.successes} {noun} against difficulty {self.difficulty} ({self.difficulty_name})"
        if self.outcome == "success":
            return f"{head}: success, {self.degree_name}, margin {self.margin}"
        if self.botch:
            return f"{head}: botch (Falha Crítica), a 1 is left over"
        return f"{head}: failure"

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (see CONTRACTS.md, pool)."""
        return {
            "system": "pool",
            "complete": self.complete,
            "successes": self.successes,
            "outcome": self.outcome,
            "botch": self.botch,
            "needs": None if self.needs is None else self.needs.to_dict(),
            "dice": [die.to_dict() for die in self.dice],
            "pool_size": self.spec.pool_size,
            "difficulty": self.difficulty,
            "difficulty_name": self.difficulty_name,
            "degree_name": self.degree_name,
            "margin": self.margin,
            "summary": self.summary,
            "spec": self.spec.to_dict(),
        }


def normalise_natural(value: object) -> int:
    """A d10's natural value; a printed 0 is 10 (RULES P-1).

    :param value: 0–10, as read or typed.
    :returns: 1–10.
    :raises InvalidRoll: for anything but a whole number 0–10.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SIDES:
        raise InvalidRoll(f"a d10 shows 1 to 10 (or 0 for 10), not {value!r}")
    return value or SIDES


def _reroll_needs(missing: int) -> Needs:
    reason = Phrase.ngettext("reroll your 10s: {n} more die", "reroll your 10s: {n} more dice", missing,
                             n=missing)  # a Phrase: the page words it
    return Needs(count=missing, sides=SIDES, kind="d10", reason=reason)


def _missing_needs(missing: int) -> Needs:
    reason = Phrase.ngettext("first roll incomplete: throw {n} more die", "first roll incomplete: throw {n} more dice",
                             missing, n=missing)
    return Needs(count=missing, sides=SIDES, kind="d10", reason=reason)


def resolve_pool(spec: PoolSpec, first: Sequence[int], rerolls: Sequence[int] = ()) -> PoolOutcome:
    """Resolve a dice pool roll from the natural values seen so far.

    # RULES P-1 (0 is 10), P-2 (success at the target number), P-3 (each 10 cancels
    # one 1 and is rolled again once; reroll successes add, a reroll 1 cancels
    # nothing), P-4 (each 1 left cancels one first-roll success that is not a 10,
    # the highest first), P-5 (botch), P-6/P-7 (difficulty, degree), P-8 (a pool of
    # 0 or fewer is an automatic failure, no dice), P-9 (mismatch), T-3 (wait).

    :param spec: the roll asked for.
    :param first: natural values of the first roll, 0–10 (0 means 10), one per die of
        ``spec.pool_size``; empty for an automatic failure. Fewer is not an error: the
        outcome waits and its ``needs`` says how many dice are missing (RULES T-3).
    :param rerolls: natural values of the reroll of the 10s seen so far.
    :returns: a complete outcome, or one whose ``needs`` asks for the missing dice of
        the first roll, or for the reroll dice still missing.
    :raises InvalidRoll: for a bad face, no dice or too many in the first roll, reroll
        dice before the first roll is complete, or more reroll dice than 10s.
    """
    pool = spec.pool_size
    if pool <= 0:
        if len(first) or len(rerolls):
            raise InvalidRoll(Phrase("a pool of {pool} dice is an automatic failure: no dice are rolled", pool=pool))
        return PoolOutcome(spec, (), None, 0, False)
    # RULES P-11: the counts are checked before any die is looked at.
    if not len(first) or len(first) > pool:
        raise InvalidRoll(Phrase.ngettext("a pool of {pool} die needs {pool} value in the first roll, got {n}",
                                          "a pool of {pool} dice needs {pool} values in the first roll, got {n}",
                                          pool, pool=pool, n=len(first)))
    if len(rerolls) > pool:
        raise InvalidRoll(Phrase.ngettext("{n} reroll die for a pool of {pool}: one reroll die per 10",
                                          "{n} reroll dice for a pool of {pool}: one reroll die per 10",
                                          len(rerolls), n=len(rerolls), pool=pool))
    first = [normalise_natural(v) for v in first]
    rerolls = [normalise_natural(v) for v in rerolls]
    missing = pool - len(first)
    if missing and rerolls:
        raise InvalidRoll(Phrase.ngettext(
            "reroll dice given before the first roll is complete ({missing} die still missing)",
            "reroll dice given before the first roll is complete ({missing} dice still missing)",
            missing, missing=missing))

    options = spec.options
    target = options.target_number
    roles = ["success" if v >= target else "failure" for v in first]
    paired: list[int | None] = [None] * pool
    tens = [i for i, v in enumerate(first) if v == SIDES] if options.rule_of_ten else []
    any_one = 1 in first
    ones = [i for i, v in enumerate(first) if v == 1] if options.rule_of_one else []
    ten_set = set(tens)
    cancellable = sorted((i for i, v in enumerate(first) if v >= target and i not in ten_set),
                         key=lambda i: (-first[i], i))

    def pair(a: int, role_a: str, b: int, role_b: str) -> None:
        roles[a], roles[b] = role_a, role_b
        paired[a], paired[b] = b, a

    for i in tens:
        roles[i] = "ten"
    for ten, one in zip(tens, ones, strict=False):  # RULES P-3: the 1 is removed, the 10 stays
        pair(ten, "ten", one, "cancelled")
    ones_left = ones[len(tens):]
    for one, success in zip(ones_left, cancellable, strict=False):  # RULES P-4
        pair(one, "canceller", success, "cancelled")
    for one in ones_left[len(cancellable):]:
        roles[one] = "one left over"
    first_successes = len(tens) + max(0, len(cancellable) - len(ones_left))
    # RULES P-5; P-5b: without the rule of one, no success and any 1 is a botch
    botch = first_successes == 0 and (len(ones_left) > len(cancellable) if options.rule_of_one else any_one)
    if botch and not options.rule_of_one:
        roles = ["one left over" if v == 1 else role for v, role in zip(first, roles, strict=True)]

    if len(rerolls) > len(tens):
        if not tens:
            raise InvalidRoll(Phrase("no 10 to reroll in the first roll"))
        tens_text = Phrase.ngettext("{n} ten", "{n} tens", len(tens), n=len(tens))
        raise InvalidRoll(Phrase.ngettext("{n} reroll die for {tens}: one reroll die per 10",
                                          "{n} reroll dice for {tens}: one reroll die per 10",
                                          len(rerolls), n=len(rerolls), tens=tens_text))
    dice = [PoolDie(v, r, False, p) for v, r, p in zip(first, roles, paired, strict=False)]  # paired: the whole pool
    if missing:  # RULES T-3: wait for the rest of the first roll
        return PoolOutcome(spec, tuple(dice), _missing_needs(missing), None, False)
    dice += [PoolDie(v, "success" if v >= target else "failure", True) for v in rerolls]
    if len(rerolls) < len(tens):
        return PoolOutcome(spec, tuple(dice), _reroll_needs(len(tens) - len(rerolls)), None, False)

    successes = first_successes + sum(v >= target for v in rerolls)
    return PoolOutcome(spec, tuple(dice), None, successes, botch)


def attribute_mismatch(attribute: str, skill_attribute: str) -> str | None:
    """The mismatch of rolling a skill with another attribute than its own (RULES P-9).

    :param attribute: the attribute rolled, a name of :data:`ATTRIBUTE_GROUPS`.
    :param skill_attribute: the attribute the skill belongs with.
    :returns: None (same attribute), ``"same_group"`` or ``"other_group"``.
    :raises InvalidRoll: for a name not in :data:`ATTRIBUTE_GROUPS`.
    """
    for name in (attribute, skill_attribute):
        if name not in ATTRIBUTE_GROUPS:
            raise InvalidRoll(f"unknown attribute {name!r}; one of {', '.join(ATTRIBUTE_GROUPS)}")
    if attribute == skill_attribute:
        return None
    same = ATTRIBUTE_GROUPS[attribute] == ATTRIBUTE_GROUPS[skill_attribute]
    return "same_group" if same else "other_group"


def carry_assessment(spec: PoolSpec, successes: int, as_dice: bool) -> PoolSpec:
    """Apply an assessment roll's successes to the next action (RULES P-10).

    :param spec: the next action's roll.
    :param successes: net successes of the Perception + skill roll.
    :param as_dice: True adds them as bonus dice; False lowers the difficulty by
        them, never below 1 (one success is always needed).
    :returns: a new spec.
    :raises InvalidRoll: for negative successes.
    """
    _check_int("successes", successes, 0)
    if as_dice:
        return replace(spec, bonus=spec.bonus + successes)
    return replace(spec, difficulty=max(1, spec.difficulty - successes))
