"""The virtual pool roller and the generic rules entry points for a pool."""

import random
from collections import Counter

import pytest

import rules
from rules.errors import InvalidRoll
from rules.pool import PoolOptions, PoolSpec
from rules.pool_odds import pool_odds
from rules.virtual import roll_pool


def test_roll_is_complete_repeatable_and_rerolls_every_ten():
    spec = PoolSpec(30)
    first, again = roll_pool(spec, random.Random(7)), roll_pool(spec, random.Random(7))
    assert first.complete and first.to_dict() == again.to_dict()
    tens = sum(1 for d in first.dice if d.natural == 10 and not d.reroll)
    assert sum(d.reroll for d in first.dice) == tens > 0


@pytest.mark.slow
def test_seeded_monte_carlo_matches_the_exact_odds():
    spec = PoolSpec(3, difficulty=2)
    rng = random.Random(2026)
    rolls = 20_000
    outcomes = Counter(roll_pool(spec, rng).outcome for _ in range(rolls))
    odds = pool_odds(spec)
    # 5 standard errors: a wrong reading of the rules moves these by far more
    for outcome, p in (("success", odds.success), ("botch", odds.botch)):
        sigma = (float(p) * (1 - float(p)) / rolls) ** 0.5
        assert abs(outcomes[outcome] / rolls - float(p)) < 5 * sigma


def test_automatic_failure_rolls_no_dice():
    outcome = roll_pool(PoolSpec(1, penalty=2), random.Random(1))
    assert outcome.outcome == "automatic failure" and outcome.dice == ()


def test_global_random_state_is_untouched():
    random.seed(5)
    expected = random.random()
    random.seed(5)
    roll_pool(PoolSpec(10), random.Random(3))
    assert random.random() == expected


def test_generic_resolve_takes_the_rerolls_as_later_throws():
    spec = PoolSpec(4)
    waiting = rules.resolve(spec, [[1, 3, 5, 10]])
    assert waiting.needs.count == 1
    assert rules.resolve(spec, [[1, 3, 5, 10], [10]]).successes == 2
    both = rules.resolve(PoolSpec(3), [[10, 10, 3], [7], [1]])  # the camera saw one die, then the other
    assert both.complete and both.successes == 3
    with pytest.raises(InvalidRoll):
        rules.resolve(spec, [[1, 3, 5, 8], [4]])


def test_generic_odds_and_describe():
    spec = PoolSpec(2, options=PoolOptions())
    assert rules.odds(spec)["p_success"] == 0.67
    assert rules.describe(PoolSpec(5, difficulty=2)) == "pool 5 · difficulty 2"
