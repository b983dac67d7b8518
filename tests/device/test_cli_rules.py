"""``dicelens resolve d6`` / ``dicelens odds d6`` through a real subprocess."""

import json

import pytest

from .cli_run import dicelens, dicelens_json

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


def test_resolve_perfect_roll_with_extra_dice():
    result = dicelens_json("resolve", "d6", "--kind", "D6", "--dice", "6,4", "--extra", "6,2")
    assert result["complete"] is True
    assert result["total"] == 14
    assert result["perfect"] is True
    assert result["needs"] is None
    assert result["dice"] == [
        {"natural": 6, "value": 6, "role": "principal"},
        {"natural": 4, "value": 4, "role": "secondary"},
        {"natural": 6, "value": 3, "role": "extra"},
        {"natural": 2, "value": 1, "role": "extra"},
    ]


def test_resolve_perfect_roll_without_extra_dice_needs_one():
    result = dicelens_json("resolve", "d6", "--kind", "D6", "--dice", "6,4")
    assert result["complete"] is False
    assert result["total"] is None
    assert result["needs"]["count"] == 1
    assert result["needs"]["kind"] == "D3"
    assert "Rolagem Perfeita" in result["needs"]["reason"]


def test_resolve_random_roll_with_modifier_and_roller():
    result = dicelens_json("resolve", "d6", "--kind", "D2", "--dice", "4", "--modifier", "1", "--random", "--roller", "Ana")
    assert result["total"] == 2
    assert result["random"] is True
    assert result["roller"] == "Ana"


def test_resolve_with_count_waits_for_missing_dice():
    result = dicelens_json("resolve", "d6", "--kind", "D3", "--dice", "5", "--count", "3")
    assert result["complete"] is False
    assert result["needs"] == {"count": 2, "sides": 6, "kind": "D3", "reason": "2 dice still missing"}


def test_resolve_without_principal_asks_which_die_it_is():
    # RULES D6-2a: never all secondary; the JSON waits, and one line says how to answer
    done = dicelens("resolve", "d6", "--dice", "6,6", "--no-principal")
    assert done.returncode == 0
    assert done.stderr == "dicelens: give the principal die first in --dice, without --no-principal\n"
    result = json.loads(done.stdout)
    assert result["complete"] is False and result["total"] is None
    assert result["needs"] == {"count": 0, "sides": 6, "kind": "principal",
                               "reason": "no die stands out as the principal die: say which one it is"}
    lone = dicelens_json("resolve", "d6", "--dice", "6", "--no-principal")  # a lone die is the principal
    assert lone["perfect"] is True and lone["needs"]["kind"] == "D3"


def test_resolve_negative_modifier_and_max_links():
    result = dicelens_json("resolve", "d6", "--dice", "6", "--extra", "6", "--max-links", "1", "--modifier", "-2")
    assert result["complete"] is True
    assert result["total"] == 6 + 3 - 2
    assert "chain stopped" in result["note"]


def test_odds_2d6():
    result = dicelens_json("odds", "d6", "--kind", "D6", "--count", "2")
    assert result["mean"] == 7.4
    assert result["p_perfect"] == pytest.approx(1 / 6)
    assert result["distribution"]["2"] == pytest.approx(1 / 36)
    assert sum(result["distribution"].values()) == pytest.approx(1, abs=1e-12)
    assert result["truncated"] < 1e-12


def test_odds_with_modifier_shifts_the_distribution():
    result = dicelens_json("odds", "d6", "--kind", "D3", "--count", "1", "--modifier", "2")
    assert result["mean"] == pytest.approx(2 + 2 + 0.4)
    assert min(int(total) for total in result["distribution"]) == 3


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["resolve", "d6", "--dice", "7,4"], "argument --dice: 7 is not a face"),
        (["resolve", "d6", "--dice", "6", "--extra", "9"], "argument --extra: 9 is not a face"),
        (["resolve", "d6", "--dice", "6", "--max-links", "0"], "argument --max-links: must be 1 or more, not 0"),
        (["resolve", "d6", "--dice", "6", "--count", "0"], "argument --count: must be 1 or more, not 0"),
        (["resolve", "d6", "--dice", "0"], "0 is not a face"),
        (["resolve", "d6", "--dice", ""], "no dice given"),
        (["resolve", "d6"], "--dice"),
        (["resolve", "d6", "--kind", "D7", "--dice", "3"], "D7"),
        (["resolve", "d6", "--dice", "six"], "'six' is not a whole number"),
        # ASCII digits only: int() reads "1_0" as 10 and "\u0663" (Arabic-Indic three) as 3
        (["resolve", "pool", "--dice", "1_0"], "argument --dice: '1_0' is not a whole number"),
        (["resolve", "pool", "--dice", "\u0663"], "argument --dice: '\u0663' is not a whole number"),
        (["resolve", "d6", "--dice", "\uff16"], "argument --dice: '\uff16' is not a whole number"),
        (["resolve", "d6", "--dice", "6", "--modifier", "1_0"], "argument --modifier: '1_0' is not a whole number"),
        (["resolve", "pool", "--dice", "3", "--difficulty", "\u0662"], "argument --difficulty: '\u0662' is not"),
        (["resolve", "attack", "--attacker-die", "d\u0668", "--defence-die", "d6"], "is not a die such as d8"),
        (["resolve", "initiative", "--hero", "Nara=\u0666"], "'\u0666' is not a whole number"),
        # an option given twice that conflicts is refused, not the last one winning
        (["resolve", "pool", "--dice", "1,10", "--rule-of-ten", "--no-rule-of-ten"],
         "argument --no-rule-of-ten: conflicts with --rule-of-ten given before it: give one"),
        (["resolve", "pool", "--dice", "1", "--difficulty", "2", "--difficulty", "3"],
         "argument --difficulty: conflicts with --difficulty given before it"),
        (["resolve", "d6", "--dice", "6", "--dice", "3"], "argument --dice: conflicts with --dice given before it"),
        (["odds", "d6", "--count", "2", "--kind", "D3", "--kind", "D2"], "argument --kind: conflicts with --kind"),
        (["resolve", "d6", "--dice", "3", "--modifier", "x"], "'x' is not a whole number"),
        (["resolve", "d6", "--dice", "3,4", "--extra", "2"], "no perfect roll"),
        (["resolve", "d6", "--dice", "1,2,3", "--count", "2"], "3 dice given"),
        (["resolve"], "dicelens: resolve needs a system: d6, pool, attack or initiative"),
        (["odds"], "dicelens: odds needs a system: d6, pool or attack"),
        (["resolve", "dice"], "argument SYSTEM: invalid choice: 'dice' (choose from 'd6', 'pool', 'attack', 'initiative')"),
        (["resolve", "d6", "--kind", "d7", "--dice", "3"],
         "argument --kind: invalid choice: 'D7' (choose from 'D6', 'D3', 'D2')"),
        (["resolve", "pool", "--dice", "3", "--mismatch", "x"],
         "argument --mismatch: invalid choice: 'x' (choose from 'same_group', 'other_group')"),
        (["resolve", "attack", "--attacker-die", "d8", "--defence-die", "d6", "--defender", "ally"],
         "argument --defender: invalid choice: 'ally' (choose from 'hero', 'enemy')"),
        (["resolve", "pool", "--dice"], "argument --dice: expected one argument"),
        (["odds", "d6", "--count", "0"], "argument --count: must be 1 or more, not 0"),
        (["odds", "d6", "--count", "1000"], "a D6 roll takes at most 100 dice, not 1000"),
        (["resolve", "d6", "--dice", "3", "--roller", "A\x01"],
         "argument --roller: 'A\\x01' is not a name: 1 to 40 printable characters"),
        (["resolve", "initiative", "--hero", "N" * 41 + "=3"], "is not a name: 1 to 40 printable characters"),
    ],
)
def test_bad_input_exits_2_with_one_plain_line(args, names):
    done = dicelens(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    # argparse quotes the choices it lists on Python 3.11, not on 3.13
    assert names in lines[0] or names.replace("', '", ", ").replace("from '", "from ").replace("')", ")") in lines[0]
    assert "Traceback" not in done.stderr


def test_choices_are_not_case_sensitive():
    assert dicelens_json("resolve", "d6", "--kind", "d3", "--dice", "5")["kind"] == "D3"
    assert dicelens_json("resolve", "pool", "--dice", "7", "--mismatch", "same-group")["spec"]["mismatch"] == "same_group"


def test_an_option_given_twice_with_one_value_is_no_conflict():
    result = dicelens_json("resolve", "pool", "--dice", "1,10", "--reroll", "3", "--rule-of-ten", "--rule-of-ten")
    assert result["successes"] == 1 and result["spec"]["options"]["rule_of_ten"] is True
    assert dicelens_json("resolve", "initiative", "--hero", "Nara=6", "--hero", "Zara=3")["order"] == ["Nara", "Zara"]
