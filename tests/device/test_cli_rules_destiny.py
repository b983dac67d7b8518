"""``dicelens resolve attack`` / ``resolve initiative`` / ``odds attack`` through a real subprocess (RULES §3)."""

import json

import pytest

from device.cli import main

from .cli_run import dicelens, dicelens_json

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

BRANN = ("resolve", "attack", "--attacker-die", "d8", "--defence-die", "d6", "--armour", "1", "--weapon", "medium")


def test_brann_hits_the_saqueador_for_7():
    result = dicelens_json(*BRANN, "--attack", "7", "--attack-d20", "14", "--defence", "4", "--defence-d20", "9",
                   "--damage", "5")
    assert result["complete"] is True and result["needs"] is None
    assert result["hit"] is True and result["damage"] == 7
    assert result["effects"] == ["hit"]
    assert result["damage_parts"]["weapon_bonus"] == 2
    assert result["points"] == 2 and result["points_name"] == "PC"
    assert result["defence"]["total"] == 5


def test_each_missing_step_comes_back_as_needs():
    attacker = dicelens_json(*BRANN)
    assert attacker["complete"] is False and attacker["hit"] is None and attacker["damage"] is None
    assert attacker["needs"] == {"count": 2, "sides": 8, "kind": "d8+d20", "dice": [8, 20], "who": "attacker",
                                 "reason": "Attacker: roll Body d8 and the Destiny d20"}
    defender = dicelens_json(*BRANN, "--attack", "7", "--attack-d20", "14")
    assert defender["needs"]["reason"] == "Defender: roll Defence d6 and the Destiny d20"
    damage = dicelens_json(*BRANN, "--attack", "7", "--attack-d20", "14", "--defence", "4", "--defence-d20", "9")
    assert damage["hit"] is True and damage["damage"] is None
    assert damage["needs"]["reason"] == "Attacker: hit! roll Body d8 again for damage"


def test_rex_unarmed_with_the_damage_roll_alias():
    result = dicelens_json("resolve", "attack", "--attacker-die", "8", "--defence-die", "6", "--weapon", "unarmed",
                   "--attack", "6", "--attack-d20", "10", "--defence", "4", "--defence-d20", "5",
                   "--damage-roll", "1")
    assert result["damage"] == 1 and "unarmed minimum" in result["effects"]


@pytest.mark.parametrize(("option", "hit", "effects"), [
    ((), True, ["hit"]),
    (("--ties-favour-defender",), False, ["miss", "Defensa Perfecta"]),
])
def test_zara_7_against_7(option, hit, effects):
    result = dicelens_json("resolve", "attack", "--attacker-die", "d8", "--defence-die", "d8", "--shield", "2",
                   "--defender", "hero", "--attack", "7", "--attack-d20", "11", "--defence", "5",
                   "--defence-d20", "20", *option)
    assert result["hit"] is hit and result["effects"] == effects


def test_a_shooting_1_is_an_automatic_miss():
    result = dicelens_json("resolve", "attack", "--attacker-die", "d8", "--defence-die", "d6", "--ranged",
                   "--attack", "8", "--attack-d20", "1")
    assert result["complete"] is True and result["hit"] is False and result["damage"] == 0
    assert result["effects"] == ["miss", "automatic miss"]


def test_initiative_of_the_seed():
    result = dicelens_json("resolve", "initiative", "--enemy", "Rival 1=6", "--enemy", "Rival 2=3", "--hero", "Nara=6")
    assert result["order"] == ["Nara", "Rival 1", "Rival 2"]
    assert [entry["group"] for entry in result["entries"]] == [0, 1, 2]


def test_odds_of_brann_against_the_saqueador():
    result = dicelens_json("odds", "attack", "--attacker-die", "d8", "--defence-die", "d6", "--armour", "1")
    assert result["p_hit"] == pytest.approx(27 / 48)


@pytest.mark.parametrize(("args", "message"), [
    (("resolve", "attack", "--attacker-die", "d7", "--defence-die", "d6"),
     "argument --attacker-die: must be a d4, d6, d8, d10 or d12, not d7"),
    (("resolve", "attack", "--attacker-die", "D20", "--defence-die", "d6"), "must be a d4, d6, d8, d10 or d12, not D20"),
    (("resolve", "attack", "--attacker-die", "7", "--defence-die", "d6"), "d10 or d12, not 7"),
    (("odds", "attack", "--attacker-die", "d8", "--defence-die", "d3"),
     "argument --defence-die: must be a d4, d6, d8, d10 or d12, not d3"),
    ((*BRANN, "--attack", "5", "--attack-d20", "+21"), "argument --attack-d20: must be 1 to 20, not +21"),
    ((*BRANN, "--armour", "-01"), "argument --armour: must be 0 or more, not -01"),
    (("resolve", "initiative", "--hero", "Nara=013"), "Nara's initiative must be 1 to 12 (a Mind die), not 013"),
    (("resolve", "attack", "--attacker-die", "x", "--defence-die", "d6"), "not a die such as d8"),
    (("resolve", "attack", "--defence-die", "d6"), "--attacker-die"),
    ((*BRANN, "--attack", "9", "--attack-d20", "3"), "shows 1 to 8, not 9"),
    ((*BRANN, "--attack-d20", "3"), "without --attack"),
    (("resolve", "attack", "--attacker-die", "d6", "--defence-die", "d6", "--weapon", "heavy"), "at least d8"),
    (("resolve", "initiative", "--hero", "Nara"), "not NAME=VALUE"),
    ((*BRANN, "--attack", "5", "--attack-d20", "21"), "argument --attack-d20: must be 1 to 20, not 21"),
    ((*BRANN, "--armour", "-1"), "argument --armour: must be 0 or more, not -1"),
    (("odds", "attack", "--attacker-die", "d8", "--defence-die", "d6", "--shield", "-1"),
     "argument --shield: must be 0 or more, not -1"),
    (("resolve", "initiative", "--hero", "Nara=0"), "argument --hero: Nara's initiative must be 1 to 12 (a Mind die), not 0"),
    (("resolve", "initiative", "--hero", "Ana=13"), "argument --hero: Ana's initiative must be 1 to 12 (a Mind die), not 13"),
    (("resolve", "initiative",), "at least one --hero"),
    (("resolve", "initiative", "--hero", "Nara=2", "--enemy", "Nara=3"), "dicelens: Nara appears twice in the initiative"),
    (("resolve", "initiative", "--hero", "Na\nra=2"), "argument --hero: 'Na\\nra' is not a name"),
])
def test_bad_input_is_exit_2_with_one_line(args, message, capsys):
    # In process, to keep the suite fast; the subprocess case below checks the same path end to end.
    assert main(list(args)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_bad_input_through_a_real_process():
    done = dicelens(*BRANN, "--attack", "9", "--attack-d20", "3")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "dicelens: the attacker's Body die is a d8: it shows 1 to 8, not 9\n"


@pytest.mark.parametrize(("args", "effects", "note"), [
    # a ranged attack whose Destiny d20 shows 1 misses, whatever the defender threw (RULES DD-7)
    (("--ranged", "--attack", "5", "--attack-d20", "1", "--defence", "3", "--defence-d20", "5"),
     ["miss", "automatic miss"], "the defender's throw not counted: a Destiny 1 when shooting is an automatic miss"),
    (("--ranged", "--attack", "5", "--attack-d20", "1", "--defence", "3", "--defence-d20", "5", "--damage", "4"),
     ["miss", "automatic miss"], "the defender's throw and --damage not counted"),
    # the damage die thrown together with the attack, and the attack missed (RULES DD-8)
    (("--attack", "2", "--attack-d20", "3", "--defence", "6", "--defence-d20", "4", "--damage", "3"),
     ["miss"], "--damage not counted: the attack missed"),
])
def test_dice_a_miss_leaves_unused_are_a_game_result_not_an_error(args, effects, note):
    done = dicelens("resolve", "attack", "--attacker-die", "d8", "--defence-die", "d6", *args)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["complete"], result["hit"], result["damage"], result["effects"]) == (True, False, 0, effects)
    assert result["needs"] is None and result["damage_parts"] is None
    assert len(done.stderr.splitlines()) == 1 and note in done.stderr


def test_names_read_as_written_through_a_real_process():
    done = dicelens("resolve", "initiative", "--hero", "Nara=2", "--enemy", "Nara=3")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "dicelens: Nara appears twice in the initiative\n"


@pytest.mark.parametrize(("option", "damage", "effects"), [
    ((), 7, ["hit"]),
    (("--defensive-fumble-on-hit",), 8, ["hit", "Fallo Defensivo"]),  # RULES DD-8 option
])
def test_a_defenders_destiny_1_on_a_hit(option, damage, effects):
    result = dicelens_json("resolve", "attack", "--attacker-die", "d8", "--defence-die", "d6", "--armour", "1",
                           "--weapon", "medium", "--attack", "7", "--attack-d20", "12", "--defence", "4",
                           "--defence-d20", "1", "--damage", "5", *option)
    assert result["damage"] == damage and result["effects"] == effects
    odds = dicelens_json("odds", "attack", "--attacker-die", "d8", "--defence-die", "d6", *option)
    assert odds["p_defensive_slip"] > 0.02 if option else odds["p_defensive_slip"] < 0.02
