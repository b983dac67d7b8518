"""Exact odds of the D6 test (RULES.md §1), checked against the resolver itself."""

from collections import defaultdict
from fractions import Fraction

import pytest

import rules
from rules.d6 import D6Spec, resolve_d6
from rules.d6_odds import CHAIN_DEPTH, TRUNCATED, mean, odds_d6, p_perfect, total_die
from rules.errors import InvalidRoll


def test_expected_total_of_2d6_is_exactly_7_4():
    # RULES §1: 7 + 1/6 × 1.2 × 2
    assert mean(D6Spec(2)) == Fraction(37, 5)
    assert odds_d6(D6Spec(2))["mean"] == 7.4


def test_cut_distribution_mean_is_within_the_truncation():
    die = total_die(D6Spec(2))
    assert die.probability(2) == Fraction(1, 36)
    assert abs(die.mean() - Fraction(37, 5)) < Fraction(1, 10**12)


def test_truncation_is_stated_and_below_1e_12():
    data = odds_d6(D6Spec(3, "D3"))
    assert data["truncated"] == float(TRUNCATED) < 1e-12
    assert data["chain_depth"] == CHAIN_DEPTH
    assert sum(data["distribution"].values()) == pytest.approx(1, abs=1e-12)


def test_1d6_distribution_by_hand():
    die = total_die(D6Spec(1))
    sixth = Fraction(1, 6)
    for total in range(1, 6):
        assert die.probability(total) == sixth
    assert die.probability(6) == 0  # a principal 6 always brings at least one extra die
    assert die.probability(7) == sixth * Fraction(2, 6)  # extra die 1 or 2
    assert die.probability(9) == sixth * Fraction(1, 6)  # extra 5; an extra 6 adds at least 3 + 1
    assert die.probability(10) == sixth * (sixth * Fraction(2, 6))  # extra 6 then 1 or 2


def _exact_by_resolver(spec, depth):
    """Enumerate every throw the resolver asks for, down to ``depth`` extra dice."""
    found = defaultdict(Fraction)

    def walk(dice, extra, probability):
        outcome = resolve_d6(spec, dice, extra)
        if outcome.complete:
            found[outcome.total] += probability
        elif len(extra) < depth:
            for face in range(1, 7):
                if len(dice) < spec.count:
                    walk(dice + [face], extra, probability / 6)
                else:
                    walk(dice, extra + [face], probability / 6)

    for face in range(1, 7):
        walk([face], [], Fraction(1, 6))
    return found


@pytest.mark.parametrize(
    "spec",
    [D6Spec(1), D6Spec(2), D6Spec(2, "D3", modifier=1), D6Spec(3, "D2"), D6Spec(2, modifier=4, random=True)],
    ids=lambda spec: spec.label(),
)
def test_distribution_matches_the_resolver(spec):
    depth = 6
    by_resolver = _exact_by_resolver(spec, depth)
    left_out = Fraction(1, 6 ** (depth + 1))  # principal and `depth` extra dice all 6
    die = total_die(spec)
    assert 1 - sum(by_resolver.values()) == left_out
    for total in set(die.outcomes()) | set(by_resolver):
        assert abs(die.probability(total) - by_resolver[total]) <= left_out


def test_p_perfect_is_one_in_six_whatever_the_count():
    # RULES D6-3
    for count in (1, 2, 5):
        assert p_perfect(D6Spec(count, "D2")) == Fraction(1, 6)
    assert odds_d6(D6Spec(4))["p_perfect"] == pytest.approx(1 / 6)


def test_a_roll_whose_principal_die_is_asked_for_has_the_same_odds():
    # RULES D6-2a: the players say which die is the principal one; the check is never dropped
    unknown, known = odds_d6(D6Spec(2, principal_known=False)), odds_d6(D6Spec(2))
    assert unknown["p_perfect"] == pytest.approx(1 / 6) and unknown["mean"] == pytest.approx(7.4)
    assert unknown["distribution"] == known["distribution"]


def test_random_roll_odds_ignore_the_modifier():
    # RULES D6-6
    assert odds_d6(D6Spec(2, modifier=3, random=True))["distribution"] == odds_d6(D6Spec(2))["distribution"]
    assert mean(D6Spec(1, "D2", modifier=1, random=True)) == Fraction(3, 2) + Fraction(2, 5)


def test_modifier_shifts_the_distribution():
    plain = odds_d6(D6Spec(1, "D3"))["distribution"]
    shifted = odds_d6(D6Spec(1, "D3", modifier=-2))["distribution"]
    assert shifted == {str(int(total) - 2): p for total, p in plain.items()}


def test_odds_json_shape():
    data = rules.odds(D6Spec(2, "D3", roller="Ana"))
    assert data["system"] == "d6" and data["label"] == "2D3"
    totals = [int(total) for total in data["distribution"]]
    assert totals == sorted(totals)
    assert all(isinstance(p, float) for p in data["distribution"].values())


def test_odds_refuse_more_than_100_dice():
    with pytest.raises(InvalidRoll, match="at most 100 dice"):
        odds_d6(D6Spec(101))
