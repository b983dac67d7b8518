"""Dice pool resolution: every worked number of RULES.md §2 and each decision P-1 … P-10."""

import json

import pytest

from rules.errors import InvalidRoll
from rules.outcome import Needs
from rules.pool import (
    PoolOptions,
    PoolSpec,
    attribute_mismatch,
    carry_assessment,
    normalise_natural,
    resolve_pool,
)


def roles(outcome):
    return [(die.natural, die.role, die.reroll) for die in outcome.dice]


# RULES §2 worked numbers
@pytest.mark.parametrize(("first", "rerolls", "successes", "outcome", "botch"), [
    ((1, 3, 5, 8), (), 0, "failure", False),      # the 1 cancels the 8: plain failure
    ((1, 3, 5, 10), (10,), 2, "success", False),  # the 10 removes the 1, its reroll scores
    ((1, 1, 4, 9), (), 0, "botch", True),         # one 1 cancels the 9, one is left over
    ((5, 4, 2, 7, 7), (), 2, "success", False),   # superior
    ((1, 1, 10), (3,), 1, "success", False),      # a 10 in the first roll: never a botch
])
def test_worked_numbers(first, rerolls, successes, outcome, botch):
    result = resolve_pool(PoolSpec(len(first)), first, rerolls)
    assert result.complete and result.needs is None
    assert (result.successes, result.outcome, result.botch) == (successes, outcome, botch)


def test_worked_roles_one_three_five_eight():
    result = resolve_pool(PoolSpec(4), [1, 3, 5, 8])
    assert roles(result) == [(1, "canceller", False), (3, "failure", False),
                             (5, "failure", False), (8, "cancelled", False)]
    assert [d.paired_with for d in result.dice] == [3, None, None, 0]


def test_worked_roles_ten_removes_the_one_and_is_rerolled():
    # RULES P-3: the 1 is removed, the 10 stays; the reroll 10 is a success, not rerolled again
    result = resolve_pool(PoolSpec(4), [1, 3, 5, 10], [10])
    assert roles(result) == [(1, "cancelled", False), (3, "failure", False),
                             (5, "failure", False), (10, "ten", False), (10, "success", True)]
    assert [d.paired_with for d in result.dice] == [3, None, None, 0, None]


def test_worked_botch_roles():
    result = resolve_pool(PoolSpec(4), [1, 1, 4, 9])
    assert [d.role for d in result.dice] == ["canceller", "one left over", "failure", "cancelled"]
    assert result.degree_name is None
    assert "botch" in result.summary


def test_superior_degree_and_margin():
    # RULES P-7
    result = resolve_pool(PoolSpec(5), [5, 4, 2, 7, 7])
    assert (result.degree_name, result.margin, result.difficulty_name) == ("Superior", 1, "Padrão")


def test_first_roll_asks_for_one_reroll_die_per_ten():
    result = resolve_pool(PoolSpec(3), [10, 10, 3])
    assert not result.complete
    assert result.needs == Needs(count=2, sides=10, kind="d10", reason="reroll your 10s: 2 more dice")
    assert (result.successes, result.outcome, result.margin, result.degree_name) == (None, None, None, None)
    assert [d.role for d in result.dice] == ["ten", "ten", "failure"]


def test_partial_reroll_asks_for_the_rest():
    # RULES T-3: fewer dice than asked: wait and say what is missing
    result = resolve_pool(PoolSpec(3), [10, 10, 3], [7])
    assert result.needs.count == 1 and result.needs.reason == "reroll your 10s: 1 more die"
    done = resolve_pool(PoolSpec(3), [10, 10, 3], [7, 1])
    assert done.complete and done.successes == 3
    assert roles(done)[-2:] == [(7, "success", True), (1, "failure", True)]  # a reroll 1 cancels nothing


def test_reroll_successes_cannot_be_cancelled_by_first_roll_ones():
    # RULES P-3: one 10 removes one 1; the other 1 cancels the 7, never the reroll's 8
    result = resolve_pool(PoolSpec(4), [1, 1, 7, 10], [8])
    assert result.successes == 2 and not result.botch
    assert [d.role for d in result.dice] == ["cancelled", "canceller", "cancelled", "ten", "success"]


def test_tens_are_never_cancelled_and_each_cancels_one_one():
    result = resolve_pool(PoolSpec(5), [1, 1, 1, 10, 6], [2])
    assert result.successes == 1  # the 10 stays; 2 ones left: one cancels the 6, one is left
    assert [d.role for d in result.dice] == ["cancelled", "canceller", "one left over", "ten", "cancelled", "failure"]
    assert not result.botch  # RULES P-5: a 10 in the first roll means no botch


def test_ones_cancel_the_highest_success_first():
    result = resolve_pool(PoolSpec(4), [6, 1, 9, 8])
    assert [d.role for d in result.dice] == ["success", "canceller", "cancelled", "success"]
    assert result.successes == 2


def test_many_ones_are_the_same_botch():
    # RULES P-5: one leftover 1 or five is the same botch
    assert resolve_pool(PoolSpec(5), [1, 1, 1, 1, 1]).botch
    assert resolve_pool(PoolSpec(2), [1, 4]).outcome == "botch"


def test_ones_that_only_cancel_are_a_plain_failure():
    result = resolve_pool(PoolSpec(4), [1, 1, 7, 9])
    assert (result.successes, result.outcome, result.botch) == (0, "failure", False)


def test_no_ones_no_successes_is_a_failure():
    assert resolve_pool(PoolSpec(3), [2, 3, 5]).outcome == "failure"


@pytest.mark.parametrize("printed_zero", [0, 10])
def test_printed_zero_is_ten(printed_zero):
    # RULES P-1
    result = resolve_pool(PoolSpec(2), [printed_zero, 1], [0])
    assert [d.natural for d in result.dice] == [10, 1, 10]
    assert result.successes == 2
    assert normalise_natural(0) == 10


@pytest.mark.parametrize("value", [-1, 11, 2.5, "3", True, None])
def test_a_face_a_d10_does_not_have_is_refused(value):
    with pytest.raises(InvalidRoll, match="d10 shows"):
        resolve_pool(PoolSpec(2), [value, 3])


def test_missing_dice_of_the_first_roll_are_asked_for():
    # RULES T-3: the roll waits, and never fills the gap
    result = resolve_pool(PoolSpec(5), [10, 7])
    assert result.needs == Needs(count=3, sides=10, kind="d10", reason="first roll incomplete: throw 3 more dice")
    assert (result.complete, result.successes, result.outcome) == (False, None, None)
    assert resolve_pool(PoolSpec(2), [7]).needs.reason == "first roll incomplete: throw 1 more die"
    with pytest.raises(InvalidRoll, match="before the first roll is complete"):
        resolve_pool(PoolSpec(5), [10, 7], [3])


def test_wrong_number_of_dice_is_refused():
    with pytest.raises(InvalidRoll, match="pool of 3 dice needs 3 values in the first roll, got 4"):
        resolve_pool(PoolSpec(3), [1, 2, 3, 4])
    with pytest.raises(InvalidRoll, match="got 0"):
        resolve_pool(PoolSpec(3), [])
    with pytest.raises(InvalidRoll, match="no 10 to reroll"):
        resolve_pool(PoolSpec(2), [1, 2], [5])
    with pytest.raises(InvalidRoll, match="2 reroll dice for 1 ten:"):
        resolve_pool(PoolSpec(2), [10, 2], [5, 6])


@pytest.mark.parametrize(("successes", "difficulty", "outcome", "degree", "margin"), [
    (2, 2, "success", "Superior", 0),
    (2, 3, "failure", None, -1),
    (3, 2, "success", "Notável", 1),
])
def test_difficulty_decides_success(successes, difficulty, outcome, degree, margin):
    # RULES P-6, P-7
    first = [7] * successes + [3]
    result = resolve_pool(PoolSpec(len(first), difficulty=difficulty), first)
    assert (result.outcome, result.degree_name, result.margin) == (outcome, degree, margin)


@pytest.mark.parametrize(("difficulty", "name"), [
    (1, "Padrão"), (2, "Difícil"), (3, "Desafiante"), (4, "Realmente Impossível"), (5, "Lendário"), (7, "Lendário"),
])
def test_difficulty_names(difficulty, name):
    assert resolve_pool(PoolSpec(1, difficulty=difficulty), [3]).difficulty_name == name


@pytest.mark.parametrize(("successes", "name"), [
    (1, "Padrão"), (2, "Superior"), (3, "Notável"), (4, "Surpreendente"), (5, "Fenomenal"), (8, "Fenomenal"),
])
def test_degree_names(successes, name):
    assert resolve_pool(PoolSpec(successes), [8] * successes).degree_name == name


@pytest.mark.parametrize(("size", "penalty", "bonus"), [(2, 2, 0), (3, 5, 1), (0, 0, 0)])
def test_no_dice_left_is_an_automatic_failure(size, penalty, bonus):
    # RULES P-8
    spec = PoolSpec(size, penalty=penalty, bonus=bonus)
    result = resolve_pool(spec, [])
    assert result.complete and not result.botch and result.dice == ()
    assert (result.outcome, result.successes, result.degree_name) == ("automatic failure", 0, None)
    assert "automatic failure" in result.summary and "no dice" in result.summary
    with pytest.raises(InvalidRoll, match="automatic failure"):
        resolve_pool(spec, [7])


def test_penalty_and_bonus_change_the_dice_rolled():
    # RULES P-8, P-10: 5 dice − 1 penalty + 2 bonus = 6 dice
    spec = PoolSpec(5, penalty=1, bonus=2)
    assert spec.pool_size == 6
    assert resolve_pool(spec, [7, 7, 3, 3, 3, 3]).successes == 2
    assert resolve_pool(spec, [7, 7, 3, 3, 3]).needs.count == 1


@pytest.mark.parametrize(("mismatch", "difficulty"), [(None, 2), ("same_group", 3), ("other_group", 4)])
def test_mismatch_adds_difficulty(mismatch, difficulty):
    # RULES P-9
    result = resolve_pool(PoolSpec(3, difficulty=2, mismatch=mismatch), [7, 8, 9])
    assert result.difficulty == difficulty
    assert result.outcome == ("success" if difficulty <= 3 else "failure")


@pytest.mark.parametrize(("attribute", "skill_attribute", "mismatch"), [
    ("Força", "Força", None),
    ("Força", "Destreza", "same_group"),
    ("Aparência", "Carisma", "same_group"),  # the seed's slip: social is its own group
    ("Carisma", "Raciocínio", "other_group"),
    ("Vigor", "Manipulação", "other_group"),
])
def test_attribute_groups(attribute, skill_attribute, mismatch):
    assert attribute_mismatch(attribute, skill_attribute) == mismatch


def test_unknown_attribute_is_refused():
    with pytest.raises(InvalidRoll, match="unknown attribute"):
        attribute_mismatch("Sorte", "Força")


def test_assessment_is_carried_as_dice_or_difficulty():
    # RULES P-10: the seed's pupil: 5, 4, 2, 7, 7 → 2 successes → +2 dice or −2 difficulty
    assessment = resolve_pool(PoolSpec(5), [5, 4, 2, 7, 7]).successes
    dodge = PoolSpec(3, difficulty=3)
    assert carry_assessment(dodge, assessment, as_dice=True).pool_size == 5
    assert carry_assessment(dodge, assessment, as_dice=False).difficulty == 1
    assert carry_assessment(PoolSpec(3, difficulty=2), 4, as_dice=False).difficulty == 1


def test_rule_of_ten_off_makes_ten_a_plain_success():
    spec = PoolSpec(2, options=PoolOptions(rule_of_ten=False))
    result = resolve_pool(spec, [1, 10])
    assert result.complete and result.needs is None
    assert (result.successes, result.outcome) == (0, "failure")
    assert [d.role for d in result.dice] == ["canceller", "cancelled"]
    assert resolve_pool(spec, [1, 0]).outcome == "failure"  # a printed 0 too
    with pytest.raises(InvalidRoll, match="no 10 to reroll"):
        resolve_pool(spec, [1, 10], [7])
    assert resolve_pool(PoolSpec(3, options=PoolOptions(rule_of_ten=False)), [1, 1, 10]).botch


def test_rule_of_one_off_cancels_nothing_but_still_botches():
    spec = PoolSpec(4, options=PoolOptions(rule_of_one=False))
    result = resolve_pool(spec, [1, 1, 4, 9])
    assert (result.successes, result.outcome, result.botch) == (1, "success", False)
    assert [d.role for d in result.dice] == ["failure", "failure", "failure", "success"]
    # RULES P-5b: botch only on no success and at least one 1
    botch = resolve_pool(spec, [1, 1, 1, 1])
    assert botch.outcome == "botch" and {d.role for d in botch.dice} == {"one left over"}
    assert resolve_pool(spec, [1, 2, 3, 5]).botch
    assert resolve_pool(spec, [2, 3, 4, 5]).outcome == "failure"


def test_target_number_option():
    spec = PoolSpec(4, options=PoolOptions(target_number=8))
    result = resolve_pool(spec, [6, 7, 8, 10], [8])
    assert result.successes == 3
    assert [d.role for d in result.dice] == ["failure", "failure", "success", "ten", "success"]


@pytest.mark.parametrize("options", [
    {"target_number": 1}, {"target_number": 11}, {"rule_of_ten": "no"}, {"rule_of_one": 0},
])
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidRoll):
        PoolOptions(**options)


@pytest.mark.parametrize("spec", [
    {"size": -1}, {"size": 3, "difficulty": 0}, {"size": 3, "penalty": -1}, {"size": 3, "bonus": -2},
    {"size": 3, "mismatch": "social"}, {"size": 2.0}, {"size": 3, "options": {}},
])
def test_bad_specs_are_refused(spec):
    with pytest.raises(InvalidRoll):
        PoolSpec(**spec)


def test_to_dict_is_stable_json():
    result = resolve_pool(PoolSpec(4, difficulty=2, penalty=1, bonus=1), [1, 3, 5, 10], [10])
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {
        "system": "pool", "complete": True, "successes": 2, "outcome": "success", "botch": False,
        "needs": None,
        "dice": [
            {"natural": 1, "role": "cancelled", "reroll": False, "paired_with": 3},
            {"natural": 3, "role": "failure", "reroll": False, "paired_with": None},
            {"natural": 5, "role": "failure", "reroll": False, "paired_with": None},
            {"natural": 10, "role": "ten", "reroll": False, "paired_with": 0},
            {"natural": 10, "role": "success", "reroll": True, "paired_with": None},
        ],
        "pool_size": 4, "difficulty": 2, "difficulty_name": "Difícil", "degree_name": "Superior",
        "margin": 0, "summary": "2 successes against difficulty 2 (Difícil): success, Superior, margin 0",
        "spec": {"system": "pool", "size": 4, "difficulty": 2, "penalty": 1, "bonus": 1, "mismatch": None,
                 "options": {"rule_of_ten": True, "rule_of_one": True, "target_number": 6}},
    }


def test_needs_to_dict():
    data = resolve_pool(PoolSpec(3), [10, 10, 3]).to_dict()
    assert data["needs"] == {"count": 2, "sides": 10, "kind": "d10", "reason": "reroll your 10s: 2 more dice"}
    assert data["complete"] is False and data["summary"] == "reroll your 10s: 2 more dice"


def test_spec_round_trips_through_dict():
    spec = PoolSpec(6, difficulty=3, penalty=1, bonus=2, mismatch="other_group",
                    options=PoolOptions(rule_of_one=False, target_number=7))
    assert PoolSpec.from_dict(spec.to_dict()) == spec
    assert PoolSpec.from_dict({"size": 4}) == PoolSpec(4)
    with pytest.raises(InvalidRoll, match="unknown pool setting: colour"):
        PoolSpec.from_dict({"size": 4, "colour": "red"})
    with pytest.raises(InvalidRoll, match="needs a size"):
        PoolSpec.from_dict({"difficulty": 2})
    with pytest.raises(InvalidRoll, match="options must be a mapping"):
        PoolSpec.from_dict({"size": 2, "options": "house"})
    with pytest.raises(InvalidRoll, match="unknown pool setting: explode"):
        PoolSpec.from_dict({"size": 2, "options": {"explode": True}})
    with pytest.raises(InvalidRoll, match="not a pool"):
        PoolSpec.from_dict({"system": "d6", "size": 2})


@pytest.mark.parametrize(("spec", "label"), [
    (PoolSpec(5, difficulty=2), "pool 5 · difficulty 2"),
    (PoolSpec(5, penalty=1, mismatch="other_group"), "pool 4 · difficulty 3"),
    (PoolSpec(3, options=PoolOptions(target_number=8, rule_of_one=False)), "pool 3 · difficulty 1 · target 8 · no rule of one"),
    (PoolSpec(3, options=PoolOptions(rule_of_ten=False)), "pool 3 · difficulty 1 · no rule of ten"),
])
def test_label(spec, label):
    assert spec.label() == label


@pytest.mark.parametrize(("size", "bonus", "penalty"), [(101, 0, 0), (10**11, 0, 0), (95, 6, 0), (200, 0, 99)])
def test_a_pool_of_more_than_100_dice_is_refused(size, bonus, penalty):
    # RULES P-11: at most 100 dice after bonuses and penalties, refused when the spec is made
    with pytest.raises(InvalidRoll, match=f"at most 100 dice after bonus and penalty, not {size + bonus - penalty}"):
        PoolSpec(size, bonus=bonus, penalty=penalty)


def test_a_pool_of_100_dice_after_penalty_is_rolled():
    spec = PoolSpec(150, penalty=50)
    assert resolve_pool(spec, [7] * 100).successes == 100


def test_more_values_than_the_pool_are_refused_before_they_are_read():
    # RULES P-11: the count is checked first, so a bad face among too many is not what is named
    with pytest.raises(InvalidRoll, match="needs 3 values in the first roll, got 5"):
        resolve_pool(PoolSpec(3), [1, 2, 3, 4, "x"])
    with pytest.raises(InvalidRoll, match="4 reroll dice for a pool of 3"):
        resolve_pool(PoolSpec(3), [10, 10, 10], [1, 2, 3, "x"])


@pytest.mark.parametrize("options", [PoolOptions(), PoolOptions(rule_of_ten=False, rule_of_one=False, target_number=8)])
def test_pool_options_come_back_from_their_dict(options):
    assert PoolOptions.from_dict(options.to_dict()) == options
    assert PoolOptions.from_dict({}) == PoolOptions()


def test_pool_options_from_a_dict_with_an_unknown_key_are_refused():
    with pytest.raises(InvalidRoll, match="unknown pool options: rule_of_two"):
        PoolOptions.from_dict({"rule_of_two": True})
