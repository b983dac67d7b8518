"""Exact pool odds (RULES P-3 … P-8) against brute force, icepool and RULES.md figures."""

from fractions import Fraction
from itertools import product

import icepool
import pytest

from rules.errors import InvalidRoll
from rules.pool import PoolOptions, PoolSpec, resolve_pool
from rules.pool_odds import pool_odds

FACES = range(1, 11)


def enumerate_pool(spec):
    """Every first roll and every reroll of its 10s, each resolved by resolve_pool."""
    successes, botch = {}, Fraction(0)
    for first in product(FACES, repeat=spec.pool_size):
        outcome = resolve_pool(spec, first)
        rerolls = product(FACES, repeat=outcome.needs.count) if outcome.needs else [()]
        weight = Fraction(1, 10 ** spec.pool_size)
        if outcome.needs:
            weight /= 10 ** outcome.needs.count
        for reroll in rerolls:
            final = resolve_pool(spec, first, reroll)
            assert final.complete
            successes[final.successes] = successes.get(final.successes, 0) + weight
            botch += weight * final.botch
    return successes, botch


def as_dict(odds):
    return {k: p for k, p in enumerate(odds.successes) if p}


@pytest.mark.parametrize(("dice", "success", "botch"), [
    (1, "0.5", "0.1"),
    (2, "0.67", "0.09"),
    (3, "0.767", "0.073"),
    (4, "0.8303", "0.0577"),
])
def test_rules_md_figures_exactly(dice, success, botch):
    # RULES §2 worked numbers: chance of at least one success and of a botch
    odds = pool_odds(PoolSpec(dice))
    assert odds.success == Fraction(success)
    assert odds.botch == Fraction(botch)


OPTION_SETS = [
    PoolOptions(),
    PoolOptions(rule_of_ten=False),
    PoolOptions(rule_of_one=False),
    PoolOptions(rule_of_ten=False, rule_of_one=False),
    PoolOptions(target_number=8),
    PoolOptions(target_number=2),
    PoolOptions(target_number=10),
    PoolOptions(rule_of_ten=False, target_number=10),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=repr)
@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.slow
def test_odds_match_brute_force(dice, options):
    spec = PoolSpec(dice, options=options)
    successes, botch = enumerate_pool(spec)
    odds = pool_odds(spec)
    assert as_dict(odds) == successes
    assert odds.botch == botch


@pytest.mark.slow
def test_four_dice_match_brute_force():
    spec = PoolSpec(4, difficulty=2)
    successes, botch = enumerate_pool(spec)
    odds = pool_odds(spec)
    assert as_dict(odds) == successes
    assert odds.botch == botch
    assert odds.success == sum(p for k, p in successes.items() if k >= 2)


def icepool_pool(dice, target):
    """The seed's reading written independently with icepool: a die per kind of face."""
    kinds = icepool.Die({icepool.Vector((1, 0, 0)): 1, icepool.Vector((0, 0, 0)): target - 2,
                         icepool.Vector((0, 1, 0)): 10 - target, icepool.Vector((0, 0, 1)): 1})
    reroll = icepool.Die({1: 11 - target, 0: target - 1})

    def resolve(ones, hits, tens):
        left = max(0, ones - tens)
        net = tens + max(0, hits - left)
        botch = net == 0 and left > hits  # a 1 is left after cancelling
        return (tens @ reroll + net).map(lambda s: (s, botch))

    return (dice @ kinds).map(lambda v: resolve(*v))


@pytest.mark.parametrize(("dice", "target"), [(5, 6), (8, 6), (6, 7), (7, 9)])
@pytest.mark.slow
def test_odds_match_icepool(dice, target):
    expected = icepool_pool(dice, target)
    total = expected.denominator()
    odds = pool_odds(PoolSpec(dice, options=PoolOptions(target_number=target)))
    for k, p in enumerate(odds.successes):
        assert p == Fraction(sum(w for (s, _), w in expected.items() if s == k), total)
    assert odds.botch == Fraction(sum(w for (_, b), w in expected.items() if b), total)


@pytest.mark.parametrize("dice", [1, 7, 30])
def test_distribution_sums_to_one(dice):
    odds = pool_odds(PoolSpec(dice))
    assert sum(odds.successes) == 1
    assert odds.successes[-1] > 0
    assert len(odds.successes) == 2 * dice + 1  # every die a 10, every reroll a success
    assert odds.success + odds.botch <= 1


def test_difficulty_mismatch_and_dice_change_the_chance():
    base = pool_odds(PoolSpec(5, difficulty=2))
    assert pool_odds(PoolSpec(5, difficulty=1, mismatch="same_group")).success == base.success
    assert pool_odds(PoolSpec(5, mismatch="other_group")).success == base.at_least(3)
    assert pool_odds(PoolSpec(4, difficulty=2, bonus=2, penalty=1)).successes == base.successes


def test_automatic_failure_has_no_chance_and_no_botch():
    # RULES P-8
    odds = pool_odds(PoolSpec(2, penalty=4))
    assert (odds.success, odds.botch, odds.successes) == (0, 0, (1,))
    data = odds.to_dict()
    assert data["automatic_failure"] is True
    assert (data["p_success"], data["p_failure"], data["p_botch"]) == (0.0, 1.0, 0.0)


def test_house_rules_move_the_odds_the_way_a_table_expects():
    seed = pool_odds(PoolSpec(3))
    no_ones = pool_odds(PoolSpec(3, options=PoolOptions(rule_of_one=False)))
    no_tens = pool_odds(PoolSpec(3, options=PoolOptions(rule_of_ten=False)))
    harder = pool_odds(PoolSpec(3, options=PoolOptions(target_number=8)))
    assert no_ones.success == 1 - Fraction(1, 2) ** 3
    assert no_ones.botch == Fraction(5, 10) ** 3 - Fraction(4, 10) ** 3  # RULES P-5b: no success, a 1
    assert no_tens.success < seed.success and no_tens.botch > seed.botch
    assert harder.success < seed.success
    assert no_tens.mean < seed.mean


def test_to_dict_is_json_ready():
    data = pool_odds(PoolSpec(2)).to_dict()
    assert data["p_success"] == 0.67 and data["p_botch"] == 0.09
    assert data["p_failure"] == pytest.approx(0.24)
    assert data["successes"][0] == pytest.approx(0.33)
    assert data["p_at_least"][1] == 0.67 and data["p_at_least"][0] == 1.0
    assert data["mean_successes"] == pytest.approx(1.02)
    assert data["spec"]["size"] == 2 and data["pool_size"] == 2 and data["difficulty"] == 1


def test_too_big_a_pool_is_refused():
    with pytest.raises(InvalidRoll, match="at most 100 dice"):  # RULES P-11, before any odds
        pool_odds(PoolSpec(101))
