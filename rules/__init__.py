"""The rules dicelens resolves (../shared/RULES.md): pure Python, no I/O.

One generic entry point per question, dispatching on the type of the spec:
:func:`resolve` (dice seen so far → outcome), :func:`odds` (exact odds) and
:func:`describe` (a short label).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.d6 import D6Outcome, D6Spec, resolve_d6
from rules.d6_odds import odds_d6
from rules.destiny import AttackOutcome, resolve_attack
from rules.destiny_odds import attack_odds
from rules.destiny_spec import AttackSpec
from rules.errors import InvalidRoll
from rules.pool import PoolOutcome, PoolSpec, resolve_pool
from rules.pool_odds import pool_odds

Spec = D6Spec | PoolSpec | AttackSpec
Outcome = D6Outcome | PoolOutcome | AttackOutcome


def resolve(spec: Spec, throws: Sequence[Sequence[int]], *, max_links: int | None = None) -> Outcome:
    """Resolve ``spec`` from the natural values of each throw so far.

    :param spec: what was asked (:class:`rules.d6.D6Spec`, :class:`rules.pool.PoolSpec`,
        :class:`rules.destiny.AttackSpec`).
    :param throws: ``throws[0]`` is the first throw (D6: principal die first, then
        the secondary dice); each later throw is the one asked for by the
        previous outcome's ``needs`` (D6: one extra die each, RULES D6-4; pool: the
        rerolls of the 10s, RULES P-3, all later throws taken together; attack:
        the attacker's characteristic die and d20, then the defender's defence
        die and d20, then the damage die, RULES DD-4 … DD-8).
    :param max_links: optional bound on a chain of extra dice (RULES T-4); see
        :func:`rules.d6.resolve_d6`.
    :returns: an outcome with ``complete``, ``needs`` and ``to_dict()``.
    :raises InvalidRoll: for values the roll cannot have (no throw, a bad face...).
    :raises TypeError: for a spec of no known system.
    """
    if not throws:
        raise InvalidRoll("no throw given: a roll needs at least its first throw")
    first, *later = (tuple(throw) for throw in throws)
    if isinstance(spec, D6Spec):
        for number, throw in enumerate(later, start=2):
            if len(throw) != 1:
                raise InvalidRoll(f"throw {number} has {len(throw)} dice: each extra die is thrown alone")
        return resolve_d6(spec, first, [throw[0] for throw in later], max_links=max_links)
    if isinstance(spec, PoolSpec):  # rerolls end by the dice: no bound needed (RULES T-4)
        return resolve_pool(spec, first, [value for throw in later for value in throw])
    if isinstance(spec, AttackSpec):
        if len(later) > 2:
            raise InvalidRoll(f"{len(throws)} throws for an attack: it takes at most 3 (attack, defence, damage)")
        return resolve_attack(spec, first, *later)
    raise TypeError(f"no rules system for {type(spec).__name__}")


def odds(spec: Spec) -> dict[str, Any]:
    """Exact odds of ``spec``, JSON-able (D6: :func:`rules.d6_odds.odds_d6`;
    pool: :meth:`rules.pool_odds.PoolOdds.to_dict`; attack: :func:`rules.destiny_odds.attack_odds`).

    :raises TypeError: for a spec of no known system.
    """
    if isinstance(spec, D6Spec):
        return odds_d6(spec)
    if isinstance(spec, PoolSpec):
        return pool_odds(spec).to_dict()
    if isinstance(spec, AttackSpec):
        return attack_odds(spec)
    raise TypeError(f"no rules system for {type(spec).__name__}")


def describe(spec: Spec) -> str:
    """A short label for the page: ``"2D6"``, ``"1D3+1"``, ``"random 1D2"``, ``"pool 5 · difficulty 2"``,
    ``"melee attack Body d8 vs Defence d6+1"``.

    :raises TypeError: for a spec of no known system.
    """
    if isinstance(spec, (D6Spec, PoolSpec, AttackSpec)):
        return spec.label()
    raise TypeError(f"no rules system for {type(spec).__name__}")
