"""A roll's throws as the rules see them: pure functions of a :class:`~device.roll.record.Roll`, no I/O.

:func:`walk` resolves the throws in order (``rules.resolve``) and stops at the first that
cannot be (:func:`throw_problem`: RULES T-1, T-3, T-5, D6-2a); :func:`resolve` writes what
the rules made of them into the roll (each die's role and value, the result, the surplus).
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

import rules
from device.roll.record import Die, Roll
from device.tray.problems import Problem, unreadable_phrase
from rules import cocked as cocked_policy
from rules.d6 import D6Spec
from rules.errors import InvalidRoll
from rules.phrase import Phrase
from rules.pool import PoolSpec

#: How the note of a roll with surplus throws begins (the rest names the die).
SURPLUS_NOTE = "dice after die"


class Walk(NamedTuple):
    """A roll's throws as the rules saw them (:func:`walk`)."""
    spec: Any                     # the D6Spec or PoolSpec the throws were resolved by
    outcome: Any                  # the rules' outcome of the counted throws (needs, complete, to_dict); None before any
    counted: list[list[Die]]      # the dice of each counted throw, in the rules' order
    step: int | None              # the throw to make again (it has the problem), else None
    problem: Problem | None       # why


def walk(roll: Roll, chain_limit: int, cocked: str = cocked_policy.DEFAULT,
         principal_note: str | None = None) -> Walk:
    """Resolve the roll's throws in order, as they were thrown; changes nothing.

    A throw is looked at only while the rules still ask for dice, and only as many
    of its dice as they ask for, so throws and dice a correction or a new principal
    die made surplus (RULES P-3: a 10 corrected to a 4 leaves its reroll die over)
    neither count nor stop the roll. A throw stops the walk when one of its dice
    is unreadable, or (the first throw of a D6 roll) no single die is the principal one (RULES T-1,
    T-3, D6-2), or the rules refuse its dice.
    """
    first = [die for die in roll.dice if die.step == 0]
    principal = next((die for die in first if die.principal), None)
    spec = spec_for(roll, principal is not None, len(first))
    bound = chain_limit if isinstance(spec, D6Spec) else None
    counted: list[list[Die]] = []
    outcome: Any = None
    for step in sorted({die.step for die in roll.dice}) or [0]:
        dice = [die for die in roll.dice if die.step == step]
        if step == 0 and principal is not None and isinstance(spec, D6Spec) and spec.principal_known:
            dice = [principal] + [die for die in dice if die is not principal]  # rules: principal first
        if outcome is not None:  # a throw's dice beyond what the rules ask for (fewer 10s now) are surplus
            dice = dice[:outcome.needs.count]
        problem = throw_problem(roll.system, step, dice, principal_note, cocked)
        if problem is None:
            try:
                later = rules.resolve(spec, [[cast(int, die.natural) for die in throw]  # all read: no problem
                                             for throw in (*counted, dice)], max_links=bound)
            except InvalidRoll as exc:  # dice the rules refuse: say so, keep waiting
                why = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)  # its Phrase
                problem = Problem("refused", why=why, asks="throw again, or correct it on the page")
        if problem is not None:
            return Walk(spec, outcome, counted, step, problem)
        outcome = later
        counted.append(dice)
        if outcome.complete:
            break
    return Walk(spec, outcome, counted, None, None)


def resolve(roll: Roll, chain_limit: int, cocked: str = cocked_policy.DEFAULT,
            principal_note: str | None = None) -> Walk:
    """Walk the roll's throws (:func:`walk`) and write what the rules made of them into
    it: each die's role and value, the result, and which throws are surplus.

    Dice the rules have not counted (the throw with a problem, and after it) get
    their role from their place alone (RULES D6-2: principal, secondary, extra;
    none in a pool) and no value, so the ``principal`` flag and the role always agree.
    Throws or dice a correction made surplus (the rules had enough before them) are kept
    with ``surplus`` set, no role and no value: they count again, in order, as
    soon as a later correction has the rules ask for dice again (RULES D6-4: a
    principal die corrected 6 → 3 → 6 takes its extra die back).
    """
    walked = walk(roll, chain_limit, cocked, principal_note)
    used = [die for throw in walked.counted for die in throw]
    counted = {id(die) for die in used}
    if roll.note and roll.note.startswith(SURPLUS_NOTE):
        roll.note = None
    surplus = walked.problem is None and len(used) < len(roll.dice)
    if surplus:
        last = max(die.index for die in used) if used else -1
        roll.note = Phrase("dice after die {n} no longer count after the correction (kept, "
                              "they count again if a correction asks for dice)", n=last + 1)
    result = walked.outcome.to_dict() if walked.outcome is not None else {"dice": []}
    for die, ruled in zip(used, result["dice"], strict=False):
        die.role = ruled["role"]
        die.value = ruled.get("value", ruled["natural"])
        die.surplus = False
    # A first throw's die is secondary only beside a known principal die (RULES D6-2): while the
    # page asks which one it is (a free roll, a replay), no die of it has a role yet.
    principal_known = any(die.principal for die in roll.dice if die.step == 0)
    for die in roll.dice:
        if id(die) not in counted:
            die.value = None
            die.role = (None if roll.system == "pool" or surplus else "principal" if die.principal
                        else ("secondary" if principal_known else None) if die.step == 0 else "extra")
            if surplus:
                die.surplus = True
            else:
                die.surplus = False
    roll.spec = walked.spec.to_dict()
    if walked.problem is not None:
        roll.complete, roll.result, roll.total, roll.successes, roll.outcome = False, None, None, None, None
        roll.perfect = roll.botch = False
        return walked
    if result.get("note"):
        roll.note = result["note"]
    roll.result, roll.complete, roll.total = result, walked.outcome.complete, result.get("total")
    roll.successes, roll.outcome = result.get("successes"), result.get("outcome")
    roll.perfect, roll.botch = bool(result.get("perfect")), bool(result.get("botch"))
    return walked


def problem_phrase(problem: Problem) -> Phrase:
    """A roll's throw problem (:func:`walk`) as a :class:`Phrase`, for a refusal that names it
    (web/messages.py words it in the phone's language): the rules' refusal of its dice
    (their Phrase, RULES T-3), an unreadable die (T-1); any other as its English."""
    if problem.code == "refused":
        return Phrase("{why}: throw again, or correct it on the page", why=problem.why)
    if problem.code == "unreadable" and problem.die is not None:
        return Phrase("die {n}: {why} — throw it again or correct it on the page",
                      n=problem.die, why=Phrase(unreadable_phrase(problem.why)))
    return Phrase("{problem}", problem=problem.english())


def spec_for(roll: Roll, principal_found: bool, first_count: int) -> D6Spec | PoolSpec:
    """The spec a roll's throws are resolved by: its stored one; a free roll's D6 rules once
    its principal die is known (RULES D6-2a)."""
    stored = roll.spec
    if roll.system == "pool":
        return PoolSpec.from_dict(stored)
    if roll.system == "free":  # RULES D6-2a: the D6 rules, once the principal die is known
        return D6Spec(count=max(first_count, 1), principal_known=principal_found,
                      roller=roll.roller)
    # the stored principal_known is the preset's, always True: a D6 preset's principal die is its first
    return D6Spec.from_dict({**stored, "principal_known": True}, roller=roll.roller)


def throw_problem(system: str, step: int, dice: list[Die], principal_note: str | None = None,
                  cocked: str = cocked_policy.DEFAULT) -> Problem | None:
    """What stops one throw of a roll from being resolved, or None (RULES T-1, T-3, D6-2a): an
    unreadable die, or in the first throw of a D6 or free roll of several dice no single
    principal die. ``system`` is the roll's ("d6", "free", "pool"), ``step`` the throw's
    number (0 the first), ``dice`` its dice, ``principal_note`` vision's reason why no
    principal die was marked, ``cocked`` the cocked-die policy (RULES T-5): a cocked die is
    thrown again, voids its throw, or leans and asks for its top face by hand."""
    for die in dice:
        if die.natural is None:
            why = die.unreadable or "unreadable"
            n, colour = die.index + 1, die.color  # no colour: a die entered by hand
            if why == "cocked" and cocked == "accept_leaning":
                return Problem("leaning", die=n, color=colour, why=why)
            if why == "cocked" and cocked == "rethrow_set":
                return Problem("void", die=n, color=colour, why=why, seen=len(dice))
            return Problem("unreadable", die=n, color=colour, why=why, asks="throw it again or correct it on the page")
    # RULES D6-2a: a free roll too asks which die is the principal one, never drops the check
    if step == 0 and system in ("d6", "free") and len(dice) > 1 and sum(die.principal for die in dice) != 1:
        return Problem("no principal", why=principal_note)
    return None
