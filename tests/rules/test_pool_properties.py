"""Hypothesis properties of the dice pool rules (RULES P-1 … P-8)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.pool import OUTCOMES, ROLES, PoolOptions, PoolSpec, resolve_pool

faces = st.integers(min_value=1, max_value=10)
options = st.builds(PoolOptions, rule_of_ten=st.booleans(), rule_of_one=st.booleans(),
                    target_number=st.integers(min_value=2, max_value=10))


@st.composite
def rolls(draw, house_rules=True):
    """A spec, a first roll, and the full reroll of its 10s."""
    opts = draw(options) if house_rules else PoolOptions()
    first = draw(st.lists(faces, min_size=1, max_size=15))
    spec = PoolSpec(len(first), difficulty=draw(st.integers(1, 6)), options=opts)
    tens = first.count(10) if opts.rule_of_ten else 0
    rerolls = draw(st.lists(faces, min_size=tens, max_size=tens))
    return spec, first, rerolls


def summary(outcome):
    dice = Counter((d.natural, d.role, d.reroll) for d in outcome.dice)
    return outcome.successes, outcome.outcome, outcome.botch, outcome.needs, dice


@given(rolls(), st.randoms(use_true_random=False))
@pytest.mark.slow
def test_order_of_dice_never_matters(roll, rng):
    spec, first, rerolls = roll
    shuffled_first, shuffled_rerolls = list(first), list(rerolls)
    rng.shuffle(shuffled_first)
    rng.shuffle(shuffled_rerolls)
    assert summary(resolve_pool(spec, first, rerolls)) == summary(
        resolve_pool(spec, shuffled_first, shuffled_rerolls))
    assert summary(resolve_pool(spec, first)) == summary(resolve_pool(spec, shuffled_first))


@given(rolls())
@pytest.mark.slow
def test_successes_never_exceed_dice_plus_rerolls(roll):
    spec, first, rerolls = roll
    outcome = resolve_pool(spec, first, rerolls)
    assert outcome.complete
    assert 0 <= outcome.successes <= len(first) + len(rerolls)
    assert outcome.successes == sum(d.role in ("success", "ten") for d in outcome.dice)


@given(rolls(house_rules=False))
@pytest.mark.slow
def test_a_pool_with_a_ten_never_botches(roll):
    spec, first, rerolls = roll
    outcome = resolve_pool(spec, first, rerolls)
    if 10 in first:
        assert not outcome.botch and outcome.successes >= first.count(10)


@given(rolls(house_rules=False))
@pytest.mark.slow
def test_reroll_dice_asked_equal_the_tens_of_the_first_roll(roll):
    spec, first, _ = roll
    outcome = resolve_pool(spec, first)
    tens = first.count(10)
    assert outcome.complete == (tens == 0)
    if tens:
        assert outcome.needs.count == tens and outcome.needs.sides == 10


@given(rolls())
@pytest.mark.slow
def test_botch_means_no_success_and_a_one_left_over(roll):
    # RULES P-5
    spec, first, rerolls = roll
    outcome = resolve_pool(spec, first, rerolls)
    left_over = any(d.role == "one left over" for d in outcome.dice)
    has_ten = spec.options.rule_of_ten and 10 in first
    assert outcome.botch == (outcome.successes == 0 and left_over and not has_ten)
    assert outcome.botch == (outcome.outcome == "botch")


@given(rolls())
@pytest.mark.slow
def test_cancellation_pairs_a_one_with_one_die(roll):
    spec, first, rerolls = roll
    dice = resolve_pool(spec, first, rerolls).dice
    for index, die in enumerate(dice):
        if die.paired_with is not None:
            partner = dice[die.paired_with]
            assert partner.paired_with == index and not die.reroll and not partner.reroll
            assert 1 in (die.natural, partner.natural)
        assert die.role != "canceller" or die.natural == 1


@given(rolls())
@pytest.mark.slow
def test_printed_zero_reads_as_ten(roll):
    spec, first, rerolls = roll
    zeros = [0 if v == 10 else v for v in first]
    assert summary(resolve_pool(spec, zeros, rerolls)) == summary(resolve_pool(spec, first, rerolls))


@given(rolls())
def test_resuming_keeps_the_first_roll(roll):
    spec, first, rerolls = roll
    waiting = resolve_pool(spec, first)
    done = resolve_pool(spec, first, rerolls)
    assert done.dice[:len(first)] == waiting.dice


@given(rolls())
@pytest.mark.slow
def test_a_higher_difficulty_never_helps(roll):
    spec, first, rerolls = roll
    easy = resolve_pool(spec, first, rerolls)
    hard = resolve_pool(PoolSpec(spec.size, spec.difficulty + 1, options=spec.options), first, rerolls)
    assert hard.successes == easy.successes
    assert hard.outcome == "success" or easy.outcome != "success" or easy.margin == 0


@given(rolls(), st.integers(min_value=0, max_value=15))
def test_every_die_has_a_known_role_and_every_outcome_a_known_name(roll, seen):
    spec, first, rerolls = roll
    outcome = resolve_pool(spec, first[:max(seen, 1)], rerolls if seen >= len(first) else [])
    assert all(die.role in ROLES for die in outcome.dice)
    assert outcome.outcome in OUTCOMES if outcome.complete else outcome.outcome is None
