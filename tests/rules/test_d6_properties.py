"""Hypothesis properties of the D6 test (RULES.md §1)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.d6 import KINDS, D6Spec, counted_value, resolve_d6

faces = st.integers(min_value=1, max_value=6)
kinds = st.sampled_from(KINDS)
modifiers = st.integers(min_value=-10, max_value=10)
# The machine is shared: a slow example is not a failure.
relaxed = settings(deadline=None)


@st.composite
def first_throws(draw):
    """A spec and a full first throw for it."""
    count = draw(st.integers(min_value=1, max_value=8))
    spec = D6Spec(count, draw(kinds), draw(modifiers), random=draw(st.booleans()))
    return spec, draw(st.lists(faces, min_size=count, max_size=count))


def _finish(spec, dice, stream):
    """Feed extra dice from ``stream`` (then 1s) one at a time, as the companion asks."""
    extra = []
    outcome = resolve_d6(spec, dice, extra)
    while not outcome.complete:
        assert outcome.needs.count == 1 and outcome.needs.kind == "D3" and outcome.needs.sides == 6
        extra.append(stream[len(extra)] if len(extra) < len(stream) else 1)
        outcome = resolve_d6(spec, dice, extra)
    return outcome, extra


@relaxed
@given(faces)
def test_d3_is_half_the_face_rounded_up(face):
    # RULES D6-1
    assert counted_value(face, "D3") == math.ceil(face / 2)


@relaxed
@given(first_throws(), st.lists(faces, max_size=12))
def test_every_d3_die_counts_half_its_face(throw, stream):
    spec, dice = throw
    outcome, _ = _finish(spec, dice, stream)
    for die in outcome.dice:
        if die.role == "extra" or spec.kind == "D3":
            assert die.value == math.ceil(die.natural / 2)


@relaxed
@given(first_throws(), st.lists(faces, max_size=12), modifiers)
@pytest.mark.slow
def test_a_random_roll_ignores_its_modifier(throw, stream, modifier):
    # RULES D6-6
    spec, dice = throw
    with_modifier = D6Spec(spec.count, spec.kind, modifier, random=True)
    without = D6Spec(spec.count, spec.kind, 0, random=True)
    assert _finish(with_modifier, dice, stream)[0].total == _finish(without, dice, stream)[0].total


@relaxed
@given(first_throws())
def test_perfect_exactly_when_the_principal_shows_a_natural_6(throw):
    # RULES D6-3: whatever the kind, the modifier or the other dice.
    spec, dice = throw
    outcome = resolve_d6(spec, dice)
    assert outcome.perfect == (dice[0] == 6)
    assert outcome.complete == (dice[0] != 6)


@relaxed
@given(first_throws(), st.lists(faces, max_size=12))
def test_the_chain_asks_one_die_per_natural_6(throw, stream):
    # RULES D6-4: the principal's 6 and every extra 6 each ask for one more die.
    spec, dice = throw
    outcome, extra = _finish(spec, dice, stream)
    assert len(extra) == [dice[0], *extra].count(6)
    assert [die.role for die in outcome.dice].count("extra") == len(extra)


@relaxed
@given(first_throws(), st.lists(faces, max_size=12))
def test_total_is_the_counted_dice_plus_the_modifier_that_applies(throw, stream):
    # RULES D6-5
    spec, dice = throw
    outcome, _ = _finish(spec, dice, stream)
    modifier = 0 if spec.random else spec.modifier
    assert outcome.total == sum(die.value for die in outcome.dice) + modifier


@relaxed
@given(first_throws(), st.randoms(use_true_random=False))
def test_order_of_secondary_dice_does_not_matter(throw, rng):
    spec, dice = throw
    secondary = dice[1:]
    rng.shuffle(secondary)
    extra = [1] if dice[0] == 6 else []
    assert resolve_d6(spec, [dice[0], *secondary], extra).total == resolve_d6(spec, dice, extra).total


@relaxed
@given(first_throws(), st.integers(min_value=1, max_value=8))
def test_missing_dice_are_waited_for_never_filled(throw, shown):
    # RULES T-3
    spec, dice = throw
    shown = min(shown, len(dice))
    outcome = resolve_d6(spec, dice[:shown])
    if shown < spec.count:
        assert outcome.total is None
        assert outcome.needs.count == spec.count - shown and outcome.needs.kind == spec.kind
        assert len(outcome.dice) == shown
