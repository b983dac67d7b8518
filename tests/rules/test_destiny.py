"""Destiny Dice attacks and initiative (RULES §3, DD-1 … DD-8): the seed's worked numbers and edges."""

from fractions import Fraction

import pytest

import rules
from rules.destiny import damage_parts, resolve_attack
from rules.destiny_spec import AttackSpec, DestinyOptions
from rules.errors import InvalidRoll
from rules.initiative import InitiativeEntry, initiative_order

BRANN = AttackSpec(attacker_die=8, defence_die=6, weapon="medium", armour=1,
                   attacker_name="Brann", defender_name="Saqueador")


# ---------------------------------------------------------------- the seed's worked numbers


def test_initiative_nara_wins_the_tie_against_rival_1():  # RULES DD-1
    order = initiative_order([("Rival 1", "enemy", 6), ("Rival 2", "enemy", 3), ("Nara", "hero", 6)])
    assert [entry.name for entry in order] == ["Nara", "Rival 1", "Rival 2"]
    assert [entry.group for entry in order] == [0, 1, 2]


def test_brann_hits_the_saqueador_for_7():  # RULES DD-4, DD-5, DD-8
    outcome = resolve_attack(BRANN, (7, 14), (4, 9), (5,))
    assert outcome.complete
    assert outcome.attack_total == 7 and outcome.defence_total == 5
    assert outcome.hit is True
    assert outcome.damage == 7
    assert outcome.damage_parts.to_dict() == {"die": 5, "weapon_bonus": 2, "unarmed": 0,
                                              "minimum_applied": False, "extra": 0, "total": 7}
    assert outcome.points == 2 and BRANN.points_name == "PC"
    assert outcome.effects == ("hit",)
    assert outcome.summary == "hit, 7 against 5: Saqueador takes 7 damage (5 + 2); Brann earns 2 PC"


@pytest.mark.parametrize(("die", "damage", "minimum"), [(5, 4, False), (1, 1, True)])
def test_rex_unarmed_damage_is_the_die_minus_1_at_least_1(die, damage, minimum):  # RULES DD-8
    rex = AttackSpec(attacker_die=8, defence_die=6, weapon="unarmed")
    outcome = resolve_attack(rex, (6, 10), (4, 8), (die,))
    assert outcome.hit and outcome.damage == damage
    assert outcome.damage_parts.unarmed == -1
    assert outcome.damage_parts.minimum_applied is minimum
    assert ("unarmed minimum" in outcome.effects) is minimum


def test_zara_7_against_7_is_a_hit_by_dd5():  # RULES DD-5
    zara = AttackSpec(attacker_die=8, defence_die=8, shield=2, defender="hero")
    outcome = resolve_attack(zara, (7, 11), (5, 20))
    assert outcome.defence_total == 7
    assert outcome.hit is True
    assert not outcome.perfect_defence and outcome.offers == ()  # a 20 adds nothing on a hit
    assert outcome.needs.reason == "Attacker: hit! roll Body d8 again for damage"


def test_zara_is_blocked_only_with_ties_favour_defender():  # RULES DD-5 option, DD-6
    zara = AttackSpec(attacker_die=8, defence_die=8, shield=2, defender="hero",
                      options=DestinyOptions(ties_favour_defender=True))
    outcome = resolve_attack(zara, (7, 11), (5, 20))
    assert outcome.complete and outcome.hit is False
    assert outcome.perfect_defence
    assert outcome.effects == ("miss", "Defensa Perfecta")
    assert outcome.offers == ("counter-attack", "reposition")
    assert outcome.damage == 0


def test_a_defenders_destiny_1_costs_1_on_a_hit_only_with_the_option():  # RULES DD-8 option, DD-6
    brann = AttackSpec(attacker_die=8, defence_die=6, armour=1, weapon="medium")
    seed = resolve_attack(brann, (7, 12), (4, 1), (5,))
    assert seed.hit and seed.damage == 7 and not seed.defensive_slip and "Fallo Defensivo" not in seed.effects
    option = AttackSpec.from_dict({**brann.to_dict(), "options": {"defensive_fumble_on_hit": True}})
    outcome = resolve_attack(option, (7, 12), (4, 1), (5,))
    assert outcome.hit and outcome.defensive_slip and outcome.damage == 5 + 2 + 1
    assert outcome.effects == ("hit", "Fallo Defensivo")
    assert outcome.summary.startswith("hit, 7 against 5: the defender takes 8 damage (5 + 2 + 1 Fallo Defensivo)")
    assert resolve_attack(option, (3, 12), (4, 1)).damage == 1  # a miss: the seed's reading, unchanged
    assert option.to_dict()["options"] == {"ties_favour_defender": False, "defensive_fumble_on_hit": True}


def test_kaspar_shoots_with_mind_and_earns_pm():  # the seed's contemporary example
    kaspar = AttackSpec(attacker_die=8, defence_die=6, ranged=True, weapon="medium")
    outcome = resolve_attack(kaspar, (6, 9), (5, 3), (4,))
    assert outcome.hit and outcome.damage == 6
    assert kaspar.characteristic == "Mind" and kaspar.points_name == "PM"


# ---------------------------------------------------------------- steps and what they need (RULES T-3)


def test_each_step_says_who_rolls_what():
    steps = [((), (), ()), ((7,), (), ()), ((7, 14), (), ()), ((7, 14), (4,), ()), ((7, 14), (4, 9), ())]
    needs = [resolve_attack(BRANN, *step).needs for step in steps]
    assert [n.reason for n in needs] == [
        "Attacker (Brann): roll Body d8 and the Destiny d20",
        "Attacker (Brann): roll the Destiny d20",
        "Defender (Saqueador): roll Defence d6 and the Destiny d20",
        "Defender (Saqueador): roll the Destiny d20",
        "Attacker (Brann): hit! roll Body d8 again for damage",
    ]
    assert [n.dice for n in needs] == [(8, 20), (20,), (6, 20), (20,), (8,)]
    assert [n.count for n in needs] == [2, 1, 2, 1, 1]
    assert [n.who for n in needs] == ["attacker", "attacker", "defender", "defender", "attacker"]
    assert needs[0].to_dict() == {"count": 2, "sides": 8, "kind": "d8+d20",
                                  "reason": "Attacker (Brann): roll Body d8 and the Destiny d20",
                                  "dice": [8, 20], "who": "attacker"}


def test_a_missing_side_is_never_filled_with_0():  # RULES T-3
    waiting = resolve_attack(BRANN, (1, 14))
    assert waiting.hit is None and waiting.damage is None and waiting.defence_total is None
    assert waiting.to_dict()["defence"]["natural"] is None
    partial = resolve_attack(BRANN, (7, 14), (4,))
    assert partial.hit is None and partial.defence_total == 5  # the die is known, its d20 is not


def test_a_hero_defends_with_body():
    spec = AttackSpec(attacker_die=6, defence_die=10, defender="hero", defender_name="Nara")
    assert resolve_attack(spec, (3, 3)).needs.reason == "Defender (Nara): roll Body d10 and the Destiny d20"


def test_fallo_defensivo_costs_1_even_when_the_defence_wins():  # RULES DD-6
    outcome = resolve_attack(BRANN, (2, 14), (4, 1))
    assert outcome.complete and outcome.hit is False
    assert outcome.defensive_slip and outcome.damage == 1
    assert outcome.effects == ("miss", "Fallo Defensivo")
    assert outcome.points == 0
    assert "Fallo Defensivo, Saqueador still takes 1 damage" in outcome.summary


def test_a_defence_destiny_1_adds_nothing_on_a_hit():  # RULES DD-6
    outcome = resolve_attack(BRANN, (7, 14), (2, 1), (3,))
    assert outcome.hit and not outcome.defensive_slip and outcome.damage == 5


def test_a_destiny_1_when_shooting_is_an_automatic_miss():  # RULES DD-7
    spec = AttackSpec(attacker_die=8, defence_die=4, ranged=True, weapon="light")
    outcome = resolve_attack(spec, (8, 1))
    assert outcome.complete and outcome.hit is False and outcome.automatic_miss
    assert outcome.effects == ("miss", "automatic miss")
    assert outcome.damage == 0
    assert "ammunition or jammed" in outcome.summary
    # the defender threw anyway (tables throw together): still a complete automatic miss
    thrown = resolve_attack(spec, (8, 1), (4, 1), (5,))
    assert thrown.complete and thrown.hit is False and thrown.effects == ("miss", "automatic miss")
    assert thrown.damage == 0 and thrown.damage_parts is None and thrown.defence == (4, 1)


def test_a_damage_die_thrown_with_a_miss_is_not_used():  # RULES DD-8: damage only on a hit
    outcome = resolve_attack(BRANN, (2, 14), (6, 9), (5,))
    assert outcome.complete and outcome.hit is False and outcome.damage == 0 and outcome.damage_parts is None


def test_a_destiny_1_in_melee_is_no_miss():
    outcome = resolve_attack(BRANN, (8, 1), (1, 5), (1,))
    assert outcome.hit and not outcome.automatic_miss


def test_bonuses_add_to_each_side():  # RULES DD-2 help, DD-4 armour and shield
    spec = AttackSpec(attacker_die=6, defence_die=6, attack_bonus=2, armour=1, shield=1, defence_bonus=1)
    outcome = resolve_attack(spec, (4, 5), (3, 5))
    assert (outcome.attack_total, outcome.defence_total) == (6, 6)
    assert outcome.hit is True
    assert spec.label() == "melee attack Body d6+2 vs Defence d6+3"


@pytest.mark.parametrize(("weapon", "bonus"), [("light", 1), ("medium", 2), ("heavy", 3), (None, 0)])
def test_weapon_damage_bonus(weapon, bonus):  # RULES DD-8
    spec = AttackSpec(attacker_die=8, defence_die=6, weapon=weapon, damage_bonus=1)
    assert damage_parts(spec, 4).total == 4 + bonus + 1


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"attacker_die": 20, "defence_die": 6}, "attacker's die must be a d4, d6, d8, d10 or d12"),
    ({"attacker_die": 8, "defence_die": 3}, "defender's die must be a d4"),
    ({"attacker_die": 6, "defence_die": 6, "weapon": "heavy"}, "heavy weapon needs a Body die of at least d8"),
    ({"attacker_die": 4, "defence_die": 6, "weapon": "medium", "ranged": True}, "needs a Mind die of at least d6"),
    ({"attacker_die": 8, "defence_die": 6, "weapon": "unarmed", "ranged": True}, "unarmed attack is melee"),
    ({"attacker_die": 8, "defence_die": 6, "weapon": "sword"}, "unknown weapon"),
    ({"attacker_die": 8, "defence_die": 6, "armour": -1}, "armour must be"),
    ({"attacker_die": 8, "defence_die": 6, "defender": "ally"}, "hero or an enemy"),
])
def test_invalid_specs(kwargs, message):
    with pytest.raises(InvalidRoll, match=message):
        AttackSpec(**kwargs)


@pytest.mark.parametrize(("throws", "message"), [
    (((9, 14),), r"Body die is a d8: it shows 1 to 8, not 9"),
    (((7, 21),), r"Destiny die is a d20: it shows 1 to 20, not 21"),
    (((7, 0),), r"not 0"),
    (((7, 14, 3),), r"throws 2 dice"),
    (((7, 14), (7, 9)), r"Defence die is a d6"),
    (((7,), (4, 9)), r"before the attacker's throw is complete"),
    (((7, 14), (4,), (5,)), r"before the defender's throw is complete"),
    (((7, 14), (4, 9), (5, 5)), r"damage is one die"),
    (((7, 14), (4, 9), (9,)), r"damage die is a d8"),
])
def test_invalid_throws(throws, message):
    with pytest.raises(InvalidRoll, match=message):
        resolve_attack(BRANN, *throws)


def test_initiative_rejects_bad_entries():
    # names as the players write them, not Python reprs ("'Nara''s initiative")
    with pytest.raises(InvalidRoll, match="^Nara appears twice in the initiative$"):
        initiative_order([("Nara", "hero", 3), ("Nara", "enemy", 2)])
    with pytest.raises(InvalidRoll, match="^Nara's initiative must be a whole number of at least 1, not 0$"):
        initiative_order([("Nara", "hero", 0)])
    with pytest.raises(InvalidRoll, match="^O'Brien is a hero or an enemy, not 'ally'$"):
        initiative_order([("O'Brien", "ally", 3)])


def test_initiative_tie_groups_keep_the_given_order():  # RULES DD-1
    order = initiative_order([("Orc A", "enemy", 4), ("Bo", "hero", 4), ("Orc B", "enemy", 4), ("Al", "hero", 4),
                              ("Cy", "hero", 9)])
    assert order == (InitiativeEntry("Cy", "hero", 9, 0), InitiativeEntry("Bo", "hero", 4, 1),
                     InitiativeEntry("Al", "hero", 4, 1), InitiativeEntry("Orc A", "enemy", 4, 2),
                     InitiativeEntry("Orc B", "enemy", 4, 2))


# ---------------------------------------------------------------- generic entry points and JSON


def test_generic_resolve_describe_and_odds():
    outcome = rules.resolve(BRANN, [[7, 14], [4, 9], [5]])
    assert outcome.damage == 7
    assert rules.describe(BRANN) == "melee attack Body d8 vs Defence d6+1"
    with pytest.raises(InvalidRoll, match="at most 3"):
        rules.resolve(BRANN, [[7, 14], [4, 9], [5], [1]])
    odds = rules.odds(BRANN)
    assert odds["p_hit"] == float(Fraction(27, 48))  # d8 ≥ d6 + 1: 7+6+5+4+3+2 of 48
    assert odds["p_perfect_defence"] == odds["p_defensive_slip"] == float(Fraction(21, 48) / 20)
    assert odds["damage_on_hit"] == {str(d): 1 / 8 for d in range(3, 11)}


def test_odds_of_shooting_count_the_jam():
    spec = AttackSpec(attacker_die=4, defence_die=4, ranged=True)
    odds = rules.odds(spec)
    assert odds["p_automatic_miss"] == 0.05
    assert odds["p_hit"] == pytest.approx(0.95 * 10 / 16)


def test_to_dict_is_stable_json():
    data = resolve_attack(BRANN, (7, 14), (4, 9), (5,)).to_dict()
    assert list(data) == ["system", "label", "complete", "hit", "damage", "effects", "offers", "needs",
                          "attack", "defence", "damage_parts", "points", "points_name", "summary", "spec"]
    assert data["attack"] == {"die": 8, "characteristic": "Body", "natural": 7, "bonus": 0, "total": 7,
                              "destiny": 14}
    assert data["defence"] == {"die": 6, "natural": 4, "armour": 1, "shield": 0, "bonus": 0, "total": 5,
                               "destiny": 9}
    assert AttackSpec.from_dict(data["spec"]) == BRANN


def test_from_dict_rejects_unknown_keys():
    with pytest.raises(InvalidRoll, match="unknown attack setting: colour"):
        AttackSpec.from_dict({"attacker_die": 8, "defence_die": 6, "colour": "red"})
    with pytest.raises(InvalidRoll, match="needs defence_die"):
        AttackSpec.from_dict({"attacker_die": 8})
