"""``dicelens resolve d6`` / ``dicelens odds d6`` through a real subprocess."""


import pytest

from .cli_run import dicelens, dicelens_json


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
    assert "perfect roll" in result["needs"]["reason"]


def test_resolve_random_roll_with_modifier_and_roller():
    result = dicelens_json("resolve", "d6", "--kind", "D2", "--dice", "4", "--modifier", "1", "--random", "--roller", "Ana")
    assert result["total"] == 2
    assert result["random"] is True
    assert result["roller"] == "Ana"


def test_resolve_with_count_waits_for_missing_dice():
    result = dicelens_json("resolve", "d6", "--kind", "D3", "--dice", "5", "--count", "3")
    assert result["complete"] is False
    assert result["needs"] == {"count": 2, "sides": 6, "kind": "D3", "reason": "2 dice still missing"}


def test_resolve_without_principal():
    result = dicelens_json("resolve", "d6", "--dice", "6,6", "--no-principal")
    assert result["total"] == 12 and result["perfect"] is False


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
        (["odds", "d6", "--count", "1000"], "up to 100 dice"),
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
