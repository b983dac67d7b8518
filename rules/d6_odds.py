"""Exact odds of a D6 roll (RULES.md §1), perfect-roll chain included, with icepool.

The chain of extra dice (RULES D6-4) has no fixed length, so the distribution of
the total has endless support. It is computed with the chain cut after
:data:`CHAIN_DEPTH` extra dice: only the rolls whose principal and all of those
extra dice show 6 are approximated, a probability of ``6 ** -(CHAIN_DEPTH + 2)``
(below 1e-13), reported as ``"truncated"``. The mean and P(perfect) are exact
closed forms, not read off the cut distribution.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from rules.d6 import EXTRA_KIND, FACES, PERFECT_FACE, D6Spec, counted_value

CHAIN_DEPTH = 15
TRUNCATED = Fraction(1, 6 ** (CHAIN_DEPTH + 2))

# The extra dice of one perfect roll, as counted (RULES D6-4). A chain of n sixes
# ending on a face v in 1–5 has natural sum 6n + v, and v is never a multiple of 6,
# so the sum tells n and v apart. At the cut, the last 6 counts 3 and stops.
_CHAIN = icepool.d6.explode([PERFECT_FACE], depth=CHAIN_DEPTH).map(
    lambda natural_sum: 3 * (natural_sum // 6) + (natural_sum % 6 + 1) // 2
)
# Expected value of the chain: E = E[D3] + P(6) · E, so E = 2 / (5/6) = 12/5.
_CHAIN_MEAN = Fraction(sum(counted_value(v, EXTRA_KIND) for v in FACES), 6) / (1 - Fraction(1, 6))
_P_PERFECT = Fraction(1, 6)


def total_die(spec: D6Spec) -> icepool.Die:
    """The distribution of the total of ``spec`` as an icepool Die (chain cut as above).

    # RULES D6-1 (faces), D6-3/D6-4 (perfect roll, extra D3 chain), D6-5 (total),
    # D6-6 (a random roll adds no modifier). Every roll has its principal die (D6-2a:
    # the players say which when none stands out), so ``principal_known`` changes nothing.
    """
    face = icepool.d6.map(lambda natural: counted_value(natural, spec.kind))
    principal = icepool.d6.map(
        lambda natural: counted_value(natural, spec.kind) + (_CHAIN if natural == PERFECT_FACE else 0)
    )
    return principal + (spec.count - 1) @ face + spec.applied_modifier


def mean(spec: D6Spec) -> Fraction:
    """The exact expected total (RULES D6-5): e.g. ``2D6`` → 37/5 = 7.4."""
    face_mean = Fraction(sum(counted_value(v, spec.kind) for v in FACES), 6)
    return spec.count * face_mean + _P_PERFECT * _CHAIN_MEAN + spec.applied_modifier


def p_perfect(spec: D6Spec) -> Fraction:
    """The exact chance of a perfect roll: 1/6 whatever the count (RULES D6-3, D6-2a)."""
    return _P_PERFECT


def odds_d6(spec: D6Spec) -> dict[str, Any]:
    """Exact odds of ``spec`` as JSON-able data for the page and the CLI.

    A spec holds at most :data:`rules.d6.MAX_DICE` dice: icepool sums dice recursively
    (1000 dice exceed its recursion limit); 100 dice take about 0.1 s (benchmarks/rules_d6.py).

    :returns: ``{"system": "d6", "label", "count", "kind", "modifier", "random",
        "principal_known", "mean": float, "p_perfect": float,
        "distribution": {total (str): probability (float)} in ascending total,
        "chain_depth": int, "truncated": float}``. ``truncated`` is the
        probability of the rolls approximated by cutting the chain.
    """
    die = total_die(spec)
    return {
        "system": "d6",
        "label": spec.label(),
        "count": spec.count,
        "kind": spec.kind,
        "modifier": spec.applied_modifier,
        "random": spec.random,
        "principal_known": spec.principal_known,
        "mean": float(mean(spec)),
        "p_perfect": float(p_perfect(spec)),
        "distribution": {str(total): float(die.probability(total)) for total in die.outcomes()},
        "chain_depth": CHAIN_DEPTH,
        "truncated": float(TRUNCATED),
    }
