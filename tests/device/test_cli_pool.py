"""``dicelens resolve pool`` / ``dicelens odds pool`` through a real subprocess."""


import pytest

from .cli_run import dicelens, dicelens_json

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


def test_ten_cancels_the_one_and_its_reroll_scores():
    result = dicelens_json("resolve", "pool", "--dice", "1,3,5,10", "--reroll", "10")
    assert (result["complete"], result["successes"], result["outcome"], result["botch"]) == (True, 2, "success", False)
    assert result["needs"] is None
    assert [(d["natural"], d["role"], d["reroll"]) for d in result["dice"]] == [
        (1, "cancelled", False), (3, "failure", False), (5, "failure", False), (10, "ten", False), (10, "success", True)]
    assert result["degree_name"] == "Superior" and result["margin"] == 1


def test_botch():
    result = dicelens_json("resolve", "pool", "--dice", "1,1,4,9")
    assert result["botch"] is True and result["outcome"] == "botch" and result["successes"] == 0


def test_tens_ask_for_a_reroll():
    result = dicelens_json("resolve", "pool", "--dice", "10,10,3")
    assert result["complete"] is False
    assert result["needs"]["count"] == 2 and result["needs"]["sides"] == 10
    assert result["needs"]["reason"] == "reroll your 10s: 2 more dice"
    assert result["successes"] is None and result["outcome"] is None


def test_printed_zero_is_a_ten():
    assert dicelens_json("resolve", "pool", "--dice", "0,0,3", "--reroll", "0,1")["successes"] == 3


def test_difficulty_penalty_and_mismatch():
    result = dicelens_json("resolve", "pool", "--dice", "7,8,9", "--size", "5", "--penalty", "2",
                   "--difficulty", "2", "--mismatch", "same_group")
    assert (result["pool_size"], result["difficulty"], result["difficulty_name"]) == (3, 3, "Desafiante")
    assert (result["outcome"], result["degree_name"], result["margin"]) == ("success", "Notável", 0)


def test_missing_dice_wait():
    result = dicelens_json("resolve", "pool", "--dice", "7,8", "--size", "4")
    assert result["complete"] is False and result["needs"]["count"] == 2


def test_penalty_to_nothing_is_an_automatic_failure():
    result = dicelens_json("resolve", "pool", "--size", "2", "--penalty", "4")
    assert (result["complete"], result["outcome"], result["botch"], result["dice"]) == (
        True, "automatic failure", False, [])


def test_house_rule_flags():
    off = dicelens_json("resolve", "pool", "--dice", "1,1,4,9", "--no-rule-of-one")
    assert (off["successes"], off["botch"]) == (1, False)
    plain_ten = dicelens_json("resolve", "pool", "--dice", "1,10", "--no-rule-of-ten")
    assert plain_ten["complete"] is True and plain_ten["successes"] == 0
    strict = dicelens_json("resolve", "pool", "--dice", "6,7,8", "--target-number", "8")
    assert strict["successes"] == 1 and strict["spec"]["options"]["target_number"] == 8


def test_odds():
    odds = dicelens_json("odds", "pool", "--dice", "2")
    assert (odds["p_success"], odds["p_botch"]) == (0.67, 0.09)
    hard = dicelens_json("odds", "pool", "--dice", "4", "--difficulty", "2")
    assert hard["difficulty"] == 2 and hard["p_success"] == hard["p_at_least"][2] < 0.8303
    # RULES P-5b: without the rule of one, no success and a 1 is still a botch: 0.5³ − 0.4³
    assert dicelens_json("odds", "pool", "--dice", "3", "--no-rule-of-one")["p_botch"] == 0.061


@pytest.mark.parametrize(("args", "message"), [
    (("resolve", "pool", "--dice", "1,x"), "'x' is not a whole number"),
    (("resolve", "pool", "--dice", "11,3"), "argument --dice: a d10 shows 1 to 10"),
    (("resolve", "pool", "--dice", "1,2", "--reroll", "3"), "no 10 to reroll"),
    (("resolve", "pool", "--dice", "1,2,3", "--size", "2"), "--dice gives 3 dice, more than the pool of 2 (--size 2)"),
    (("resolve", "pool", "--dice", "3", "--mismatch", "social"), "invalid choice"),
    (("resolve", "pool", "--dice", "3", "--difficulty", "0"), "argument --difficulty: must be 1 or more, not 0"),
    (("resolve", "pool", "--dice", "3", "--target-number", "11"), "argument --target-number: must be 2 to 10, not 11"),
    # each message names the option the user gave, not another one (a negative penalty once blamed --bonus)
    (("resolve", "pool", "--dice", "3", "--penalty", "-5"), "argument --penalty: must be 0 or more, not -5"),
    (("resolve", "pool", "--dice", "3", "--bonus", "-1"), "argument --bonus: must be 0 or more, not -1"),
    (("resolve", "pool", "--dice", "3", "--size", "-1"), "argument --size: must be 0 or more, not -1"),
    (("resolve", "pool", "--dice", "3", "--bonus", "5"), "--bonus 5 adds more dice than the 1 in --dice"),
    (("resolve", "pool", "--dice", "10", "--reroll", "12"), "argument --reroll: a d10 shows 1 to 10"),
    (("resolve", "pool", "--dice", "4", "--size", "2", "--penalty", "3"),
     "--size 2 - --penalty 3 leaves no dice: an automatic failure"),
    (("odds", "pool", "--dice", "-1"), "argument --dice: must be 0 or more, not -1"),
    (("odds", "pool", "--dice", "3", "--penalty", "-1"), "argument --penalty: must be 0 or more"),
    (("resolve", "pool"), "give --dice"),
    (("odds", "pool", "--dice", "500"), "a pool holds at most 100 dice after bonus and penalty, not 500"),
    (("odds", "pool"), "--dice"),
    # RULES P-11: every size is refused before anything is allocated (a MemoryError once)
    (("resolve", "pool", "--size", "100000000000", "--dice", "1"),
     "a pool holds at most 100 dice after bonus and penalty, not 100000000000"),
    (("resolve", "pool", "--size", "1000000000", "--dice", "1"), "after bonus and penalty, not 1000000000"),
    (("resolve", "pool", "--dice", ",".join(["10"] * 40000)), "after bonus and penalty, not 40000"),
    (("resolve", "pool", "--size", "90", "--bonus", "11", "--dice", "1"), "after bonus and penalty, not 101"),
    (("resolve", "d6", "--dice", "6", "--count", "100000000000"), "a D6 roll takes at most 100 dice"),
    (("resolve", "d6", "--dice", ",".join(["3"] * 101)), "a D6 roll takes at most 100 dice, not 101"),
])
def test_bad_input_exits_2_with_one_line(args, message):
    done = dicelens(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0]
