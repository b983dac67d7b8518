"""The virtual roller for the simulator: the only code in ``rules`` that draws numbers.

Each function takes the ``random.Random`` to draw from (never the global one), and
rolls physical dice exactly as the players would: the first throw, then one die
at a time for as long as the outcome asks for more.
"""

from __future__ import annotations

import random as _random

from rules.d6 import D6Outcome, D6Spec, resolve_d6


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
