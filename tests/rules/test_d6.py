"""The D6 test (RULES.md §1): worked numbers, resumable resolution, validation."""

import pytest

import rules
from rules.d6 import PERFECT_REASON, PRINCIPAL_KIND, PRINCIPAL_REASON, D6Spec, counted_value, resolve_d6
from rules.errors import InvalidRoll, RulesError
from rules.outcome import Needs


def _breakdown(outcome):
    return [(die.natural, die.value, die.role) for die in outcome.dice]


# RULES §1 worked numbers.


def test_2d6_perfect_roll_with_two_extra_dice_totals_14():
    outcome = resolve_d6(D6Spec(2), [6, 4], [6, 2])
    assert outcome.complete and outcome.needs is None
    assert outcome.total == 14  # 6 + 4 + 3 + 1
    assert outcome.perfect
    assert _breakdown(outcome) == [
        (6, 6, "principal"),
        (4, 4, "secondary"),
        (6, 3, "extra"),
        (2, 1, "extra"),
    ]


def test_2d3_secondary_six_is_not_a_perfect_roll():
    outcome = resolve_d6(D6Spec(2, "D3"), [5, 6])
    assert outcome.complete
    assert outcome.total == 6  # 3 + 3
    assert not outcome.perfect


def test_random_1d2_plus_1_ignores_the_modifier():
    outcome = resolve_d6(D6Spec(1, "D2", modifier=1, random=True), [4])
    assert outcome.total == 2
    assert outcome.to_dict()["modifier"] == 0
    assert outcome.to_dict()["modifier_ignored"] == 1


# RULES D6-1


@pytest.mark.parametrize(
    ("kind", "values"),
    [("D6", [1, 2, 3, 4, 5, 6]), ("D3", [1, 1, 2, 2, 3, 3]), ("D2", [1, 1, 1, 2, 2, 2])],
)
def test_counted_value_per_kind(kind, values):
    assert [counted_value(face, kind) for face in range(1, 7)] == values


def test_modifier_is_added_to_the_total():
    assert resolve_d6(D6Spec(1, "D3", modifier=2), [4]).total == 4  # 1D3+2: 2 + 2
    assert resolve_d6(D6Spec(2, modifier=-1), [1, 1]).total == 1


# RULES D6-3, D6-4: the perfect roll chain, one die at a time.


def test_perfect_roll_asks_for_one_extra_d3():
    outcome = resolve_d6(D6Spec(2), [6, 4])
    assert not outcome.complete
    assert outcome.total is None
    assert outcome.perfect
    assert outcome.needs == Needs(count=1, sides=6, kind="D3", reason=PERFECT_REASON)


def test_each_extra_six_asks_for_one_more():
    outcome = resolve_d6(D6Spec(2), [6, 4], [6])
    assert outcome.needs.count == 1 and outcome.needs.kind == "D3"
    assert "extra die showed 6" in outcome.needs.reason
    outcome = resolve_d6(D6Spec(2), [6, 4], [6, 6, 6, 5])
    assert outcome.complete
    assert outcome.total == 6 + 4 + 3 + 3 + 3 + 3


def test_perfect_roll_in_2d3_counts_the_principal_as_3():
    outcome = resolve_d6(D6Spec(2, "D3"), [6, 1], [1])
    assert outcome.perfect
    assert outcome.total == 3 + 1 + 1


def test_perfect_roll_chain_on_a_random_roll_keeps_its_structure():
    outcome = resolve_d6(D6Spec(1, "D2", modifier=3, random=True), [6], [3])
    assert outcome.perfect
    assert outcome.total == 2 + 2  # D2 of 6, extra D3 of 3, no modifier (RULES D6-6)


def test_a_long_chain_is_followed_without_a_cap():
    extra = [6] * 500 + [1]
    outcome = resolve_d6(D6Spec(1), [6], extra)
    assert outcome.complete
    assert outcome.total == 6 + 500 * 3 + 1
    assert outcome.note is None


# RULES T-4: an explicit, visible bound.


def test_max_links_stops_the_chain_with_a_note():
    outcome = resolve_d6(D6Spec(1), [6], [6, 6], max_links=2)
    assert outcome.complete
    assert outcome.total == 6 + 3 + 3
    assert "chain stopped after 2 extra dice" in outcome.note
    assert outcome.to_dict()["note"] == outcome.note


def test_max_links_not_reached_leaves_no_note():
    outcome = resolve_d6(D6Spec(1), [6], [6, 2], max_links=2)
    assert outcome.complete and outcome.note is None
    assert not resolve_d6(D6Spec(1), [6], [6], max_links=2).complete


def test_more_extra_dice_than_max_links_is_an_error():
    with pytest.raises(InvalidRoll, match="more than the bound of 1"):
        resolve_d6(D6Spec(1), [6], [6, 6], max_links=1)


@pytest.mark.parametrize("bound", [0, -3, 1.5, True])
def test_max_links_must_be_a_positive_whole_number(bound):
    with pytest.raises(InvalidRoll, match="bound on extra dice"):
        resolve_d6(D6Spec(1), [6], max_links=bound)


# RULES T-3: missing dice are waited for, never filled in.


def test_fewer_dice_than_count_waits_for_the_rest():
    outcome = resolve_d6(D6Spec(3, "D3"), [2])
    assert not outcome.complete
    assert outcome.total is None
    assert outcome.needs == Needs(count=2, sides=6, kind="D3", reason="2 dice still missing")
    assert _breakdown(outcome) == [(2, 1, "principal")]


def test_missing_dice_come_before_the_chain():
    outcome = resolve_d6(D6Spec(2), [6])
    assert outcome.perfect
    assert outcome.needs.count == 1 and outcome.needs.kind == "D6"
    assert outcome.needs.reason == "1 die still missing"


# RULES D6-2a: when no die stands out, the roll asks which is the principal die.


def test_without_a_principal_the_roll_asks_which_die_it_is():
    outcome = resolve_d6(D6Spec(3, principal_known=False, modifier=1), [6, 6, 2])
    assert not outcome.complete and outcome.total is None and not outcome.perfect
    assert outcome.needs == Needs(count=0, sides=6, kind=PRINCIPAL_KIND, reason=PRINCIPAL_REASON)
    assert [die.role for die in outcome.dice] == [None, None, None]
    assert outcome.to_dict()["dice"][0] == {"natural": 6, "value": 6, "role": None}
    # the missing dice come first (RULES T-3)
    assert resolve_d6(D6Spec(3, principal_known=False), [6, 2]).needs.reason == "1 die still missing"
    with pytest.raises(InvalidRoll, match="before the principal die is known"):
        resolve_d6(D6Spec(2, principal_known=False), [6, 2], [3])


def test_a_lone_die_is_the_principal_die_and_a_six_is_perfect():
    outcome = resolve_d6(D6Spec(1, principal_known=False), [6])
    assert outcome.perfect and outcome.dice[0].role == "principal"
    assert outcome.needs.kind == "D3" and outcome.needs.reason == PERFECT_REASON
    assert resolve_d6(D6Spec(1, principal_known=False), [6], [2]).total == 6 + 1


# RULES D6-7


def test_roller_is_recorded_and_changes_nothing():
    named = resolve_d6(D6Spec(2, roller="Ana"), [3, 5])
    assert named.to_dict()["roller"] == "Ana"
    assert named.total == resolve_d6(D6Spec(2), [3, 5]).total


# Validation: one plain sentence, an InvalidRoll that is also a ValueError.


@pytest.mark.parametrize(
    ("spec", "dice", "extra", "message"),
    [
        (D6Spec(2), [7, 1], (), "7 is not a face of a six-sided die"),
        (D6Spec(2), [0, 1], (), "0 is not a face of a six-sided die"),
        (D6Spec(1), [6], [7], "7 is not a face of a six-sided die"),
        (D6Spec(1), ["3"], (), "'3' is not a face"),
        (D6Spec(2), [], (), "no dice given: a 2D6 roll needs 2 dice"),
        (D6Spec(2), [1, 2, 3], (), "3 dice given for a 2D6 roll"),
        (D6Spec(2), [5, 4], [2], "no perfect roll"),
        (D6Spec(2), [6, 4], [3, 2], "extra die 2 given but extra die 1 is not a 6"),
        (D6Spec(3), [6, 4], [2], "before the first throw is complete"),
    ],
)
def test_invalid_rolls(spec, dice, extra, message):
    with pytest.raises(InvalidRoll, match=message) as caught:
        resolve_d6(spec, dice, extra)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, RulesError)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"count": 0}, "at least 1 die"),
        ({"count": 2, "kind": "D4"}, "unknown kind 'D4'"),
        ({"count": 2, "modifier": 1.5}, "modifier must be a whole number"),
    ],
)
def test_invalid_specs(kwargs, message):
    with pytest.raises(InvalidRoll, match=message):
        D6Spec(**kwargs)


# The generic entry point of rules/__init__.py.


def test_generic_resolve_takes_one_extra_die_per_later_throw():
    outcome = rules.resolve(D6Spec(2), [[6, 4], [6], [2]])
    assert outcome.to_dict() == resolve_d6(D6Spec(2), [6, 4], [6, 2]).to_dict()
    assert not rules.resolve(D6Spec(2), [[6, 4], [6]]).complete


def test_generic_resolve_passes_the_bound():
    assert rules.resolve(D6Spec(1), [[6], [6]], max_links=1).note is not None


@pytest.mark.parametrize(
    ("throws", "message"),
    [([], "no throw given"), ([[6, 4], [6, 2]], "throw 2 has 2 dice"), ([[6], []], "throw 2 has 0 dice")],
)
def test_generic_resolve_rejects_malformed_throws(throws, message):
    with pytest.raises(InvalidRoll, match=message):
        rules.resolve(D6Spec(2), throws)


@pytest.mark.parametrize(
    ("spec", "label"),
    [
        (D6Spec(2), "2D6"),
        (D6Spec(1, "D3", modifier=1), "1D3+1"),
        (D6Spec(2, "D6", modifier=-1), "2D6-1"),
        (D6Spec(1, "D2", modifier=1, random=True), "random 1D2"),
    ],
)
def test_describe(spec, label):
    assert rules.describe(spec) == label


def test_unknown_spec_type_is_a_type_error():
    with pytest.raises(TypeError, match="no rules system for str"):
        rules.describe("2D6")


def test_to_dict_has_the_stable_keys():
    data = resolve_d6(D6Spec(2, roller="Bo"), [6, 4], [6, 2]).to_dict()
    assert data["system"] == "d6"
    assert {"complete", "total", "perfect", "needs", "dice", "modifier", "kind", "random", "roller"} <= set(data)
    assert data["dice"][0] == {"natural": 6, "value": 6, "role": "principal"}


def test_a_d6_roll_of_more_than_100_dice_is_refused():
    # the bound RULES P-11 sets a pool, kept by the page, the presets and the odds
    assert resolve_d6(D6Spec(100), [3] * 100).total == 300
    with pytest.raises(InvalidRoll, match="a D6 roll takes at most 100 dice, not 101"):
        D6Spec(101)


@pytest.mark.parametrize("spec", [D6Spec(2), D6Spec(1, kind="D3", modifier=2), D6Spec(1, kind="D2", random=True),
                                  D6Spec(3, principal_known=False)])
def test_a_d6_spec_comes_back_from_its_dict(spec):
    data = spec.to_dict()
    assert data["system"] == "d6" and "roller" not in data
    assert D6Spec.from_dict(data) == spec
    assert D6Spec.from_dict(data, roller="ana") == D6Spec(**{**vars(spec), "roller": "ana"})


@pytest.mark.parametrize(("data", "words"), [
    ({"system": "pool", "count": 2}, "not a D6 spec"),
    ({"count": 2, "dice": 3}, "unknown D6 setting: dice"),
    ({"kind": "D6"}, "needs a count"),
    ({"count": 0}, "at least 1 die"),
])
def test_a_bad_d6_spec_dict_is_refused_in_words(data, words):
    with pytest.raises(InvalidRoll, match=words):
        D6Spec.from_dict(data)
