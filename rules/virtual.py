"""The virtual roller for the simulator: the only code in ``rules`` that draws numbers.

Each function takes the ``random.Random`` to draw from (never the global one), and
rolls physical dice exactly as the players would: the first throw, then the dice
the outcome asks for (D6: one extra die at a time; pool: one die per 10).
"""

from __future__ import annotations

import random as _random

from rules.d6 import D6Outcome, D6Spec, resolve_d6
from rules.destiny import AttackOutcome, resolve_attack
from rules.destiny_spec import AttackSpec
from rules.pool import SIDES, PoolOutcome, PoolSpec, resolve_pool


def roll_d6(spec: D6Spec, rng: _random.Random, *, max_links: int | None = None) -> D6Outcome:
    """Roll ``spec`` with six-sided dice drawn from ``rng`` and resolve it.

    # RULES D6-2 (principal first), D6-4 (one extra die per natural 6), T-4 (``max_links``).

    :param spec: the roll to make.
    :param rng: the source of every die; seed it for a repeatable roll.
    :param max_links: passed to :func:`rules.d6.resolve_d6`; ``None`` follows the chain to its end.
    :returns: a complete outcome.
    """
    dice = [rng.randint(1, 6) for _ in range(spec.count)]
    extra: list[int] = []
    outcome = resolve_d6(spec, dice, extra, max_links=max_links)
    while outcome.needs is not None:
        extra.extend(rng.randint(1, 6) for _ in range(outcome.needs.count))
        outcome = resolve_d6(spec, dice, extra, max_links=max_links)
    return outcome


def roll_pool(spec: PoolSpec, rng: _random.Random) -> PoolOutcome:
    """Roll ``spec`` with ten-sided dice drawn from ``rng`` and resolve it.

    # RULES P-3 (one reroll die per 10 of the first roll), P-8 (no dice for a pool of 0 or fewer).

    :param spec: the roll to make.
    :param rng: the source of every die; seed it for a repeatable roll.
    :returns: a complete outcome.
    """
    first = [rng.randint(1, SIDES) for _ in range(max(spec.pool_size, 0))]
    outcome = resolve_pool(spec, first)
    if outcome.needs is not None:
        outcome = resolve_pool(spec, first, [rng.randint(1, SIDES) for _ in range(outcome.needs.count)])
    return outcome


def roll_attack(spec: AttackSpec, rng: _random.Random) -> AttackOutcome:
    """Roll a Destiny Dice attack step by step, each throw the dice ``needs`` asks for.

    # RULES DD-4 (attacker, then defender, each with the Destiny d20), DD-8 (damage on a hit).

    :param spec: the attack to make.
    :param rng: the source of every die; seed it for a repeatable roll.
    :returns: a complete outcome.
    """
    throws: list[list[int]] = []  # attack, defence, damage: one throw per step
    outcome = resolve_attack(spec)
    while outcome.needs is not None:
        throws.append([rng.randint(1, sides) for sides in outcome.needs.dice])
        outcome = resolve_attack(spec, *throws)
    return outcome
