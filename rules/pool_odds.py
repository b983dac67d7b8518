"""Exact odds of a dice pool roll (RULES P-2 … P-8), the reroll of the 10s included.

A dynamic programme over counts, not over dice: only how many dice of a first roll
are 1s, cancellable successes, 10s and plain failures matters, and then how many of
the rerolled 10s succeed. Weights are whole numbers over 10^(2 × pool), so every
figure is an exact fraction. icepool gives the same figures but needs seconds for a
pool of 30 (see benchmarks/pool_odds.py); this takes milliseconds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from rules.pool import SIDES, PoolSpec


@dataclass(frozen=True)
class PoolOdds:
    """Exact odds of one pool roll.

    :param spec: the roll.
    :param successes: P(net successes = k) for k = 0 … len − 1 (a botch counts as 0).
    :param botch: P(botch), RULES P-5.
    """

    spec: PoolSpec
    successes: tuple[Fraction, ...]
    botch: Fraction

    def at_least(self, k: int) -> Fraction:
        """P(net successes ≥ k)."""
        return sum(self.successes[max(k, 0):], Fraction(0))

    @property
    def success(self) -> Fraction:
        """P(success): net successes ≥ the difficulty with its mismatch; 0 for an automatic failure."""
        if self.spec.pool_size <= 0:
            return Fraction(0)
        return self.at_least(self.spec.effective_difficulty)

    @property
    def mean(self) -> Fraction:
        """Expected net successes."""
        return sum((k * p for k, p in enumerate(self.successes)), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """JSON for the page: probabilities as floats in [0, 1].

        ``{"system": "pool", "pool_size", "difficulty", "automatic_failure", "p_success",
        "p_failure", "p_botch", "mean_successes", "successes": [P(k)], "p_at_least": [P(≥k)],
        "spec"}``; ``p_failure`` excludes botches.
        """
        return {
            "system": "pool",
            "pool_size": self.spec.pool_size,
            "difficulty": self.spec.effective_difficulty,
            "automatic_failure": self.spec.pool_size <= 0,
            "p_success": float(self.success),
            "p_failure": float(1 - self.success - self.botch),
            "p_botch": float(self.botch),
            "mean_successes": float(self.mean),
            "successes": [float(p) for p in self.successes],
            "p_at_least": [float(self.at_least(k)) for k in range(len(self.successes))],
            "spec": self.spec.to_dict(),
        }


def pool_odds(spec: PoolSpec) -> PoolOdds:
    """Exact odds of a pool roll under the spec's house rules.

    # RULES P-3 (rerolls), P-4, P-5, P-8; the same reading as :func:`rules.pool.resolve_pool`.

    :param spec: the roll; its options choose the rule of ten, the rule of one and the
        target number.
    :returns: the distribution of net successes and the chance of a botch.
    Odds grow as pool³; RULES P-11 bounds a pool (:data:`rules.pool.MAX_POOL`) when
    its spec is made, so every spec given here takes milliseconds.
    """
    n = spec.pool_size
    if n <= 0:  # RULES P-8: automatic failure, no dice, no botch
        return PoolOdds(spec, (Fraction(1),), Fraction(0))

    options = spec.options
    target = options.target_number
    # Faces of each kind on one d10: 1s, 10s, cancellable successes, plain failures.
    # A 1 is its own kind even without the rule of one: it still makes a botch (RULES P-5b).
    ten_faces = 1 if options.rule_of_ten else 0
    success_faces = SIDES - target + 1 - ten_faces
    failure_faces = SIDES - 1 - ten_faces - success_faces
    reroll_hit, reroll_miss = SIDES - target + 1, target - 1

    # First roll: weight of (10s, net successes before the reroll, botch).
    first: dict[tuple[int, int, bool], int] = defaultdict(int)
    for tens in range(n * ten_faces + 1):
        ways_tens = comb(n, tens)
        for ones in range(n - tens + 1):
            ways_ones = ways_tens * comb(n - tens, ones)
            rest = n - tens - ones
            for hits in range(rest + 1):
                weight = ways_ones * comb(rest, hits) * success_faces**hits * failure_faces**(rest - hits)
                if not weight:
                    continue
                if options.rule_of_one:
                    ones_left = max(0, ones - tens)  # RULES P-3: each 10 removes one 1
                    net = tens + max(0, hits - ones_left)  # RULES P-4
                    botch = net == 0 and ones_left > hits  # RULES P-5
                else:  # RULES P-5b: 1s cancel nothing; no success and a 1 is a botch
                    net = tens + hits
                    botch = net == 0 and ones > 0
                first[tens, net, botch] += weight

    # Reroll of the 10s (RULES P-3), scaled so every weight is over 10^(2n).
    counts = [0] * (2 * n + 1)
    botch_count = 0
    for (tens, net, botch), weight in first.items():
        scale = weight * SIDES ** (n - tens)
        if botch:
            botch_count += scale * SIDES**tens
        for hits in range(tens + 1):
            counts[net + hits] += scale * comb(tens, hits) * reroll_hit**hits * reroll_miss**(tens - hits)
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    total = SIDES ** (2 * n)
    return PoolOdds(spec, tuple(Fraction(c, total) for c in counts), Fraction(botch_count, total))
