"""A Destiny Dice encounter (RULES §3, DD-1 … DD-11): turns, conditions, wounds, rests, undo, JSON."""

import json

import pytest

from rules.destiny import resolve_attack
from rules.destiny_spec import DestinyOptions
from rules.encounter import Encounter
from rules.errors import InvalidRoll, InvalidStep
from rules.participant import Condition, Participant


def hero(name, **changes):
    sheet = dict(side="hero", body=8, mind=8, soul=6, pv=16, pv_max=16, weapon="medium",
                 energy={"EC": 1, "EM": 1, "EA": 3}, energy_max={"EC": 3, "EM": 3, "EA": 3})
    return Participant(name, **{**sheet, **changes})


def enemy(name, **changes):
    sheet = dict(side="enemy", body=6, mind=6, soul=4, pv=8, pv_max=8, defence=6, armour=1)
    return Participant(name, **{**sheet, **changes})


@pytest.fixture
def fight():
    """Nara and two rivals, the seed's initiative example (RULES DD-1), and Brann who rolls low."""
    encounter = Encounter([enemy("Rival 1"), enemy("Rival 2"), hero("Nara"), hero("Brann")])
    encounter.roll_initiative({"Nara": 6, "Rival 1": 6, "Rival 2": 3, "Brann": 2})
    return encounter


def test_initiative_order_of_the_seed(fight):  # RULES DD-1
    assert fight.order == ["Nara", "Rival 1", "Rival 2", "Brann"]
    assert fight.round == 1 and fight.current == "Nara"


def test_tied_groups_may_be_reordered_but_nobody_leaves_their_group():  # RULES DD-1
    encounter = Encounter([hero("Al"), hero("Bo"), enemy("Orc A"), enemy("Orc B")])
    encounter.roll_initiative({"Al": 5, "Bo": 5, "Orc A": 5, "Orc B": 5})
    assert encounter.initiative_groups() == [["Al", "Bo"], ["Orc A", "Orc B"]]
    assert encounter.current == "Al"
    encounter.reorder(["Bo", "Al", "Orc B", "Orc A"])
    assert encounter.order == ["Bo", "Al", "Orc B", "Orc A"]
    with pytest.raises(InvalidStep, match="not tied"):
        encounter.reorder(["Orc A", "Al", "Bo", "Orc B"])
    with pytest.raises(InvalidStep, match="every participant"):
        encounter.reorder(["Bo", "Al", "Orc B"])
    assert encounter.order == ["Bo", "Al", "Orc B", "Orc A"]


def test_initiative_is_checked_against_the_mind_die():
    encounter = Encounter([hero("Nara"), enemy("Rival")])
    with pytest.raises(InvalidRoll, match="Mind"):
        encounter.roll_initiative({"Nara": 9, "Rival": 2})
    with pytest.raises(InvalidStep, match="missing for Rival"):
        encounter.roll_initiative({"Nara": 3})
    with pytest.raises(InvalidStep, match="one hero and one enemy"):
        Encounter([hero("Nara")]).roll_initiative({"Nara": 3})
    assert not encounter.started and encounter.order == []


def test_turns_walk_the_order_and_rounds_wrap(fight):  # RULES DD-2
    seen = [fight.current]
    for _ in range(4):
        fight.next_turn()
        seen.append((fight.round, fight.current))
    assert seen == ["Nara", (1, "Rival 1"), (1, "Rival 2"), (1, "Brann"), (2, "Nara")]


def test_brann_hits_and_the_attack_is_applied(fight):  # RULES DD-4, DD-8, DD-9
    spec = fight.attack_spec("Nara", "Rival 1")
    assert (spec.attacker_die, spec.defence_die, spec.armour, spec.weapon) == (8, 6, 1, "medium")
    fight.apply_attack(resolve_attack(spec, (7, 14), (4, 9), (5,)))
    assert fight.get("Rival 1").pv == 1
    assert fight.get("Nara").points == {"PC": 2, "PM": 0}
    assert fight.log[-1]["outcome"]["damage"] == 7


def test_defeated_enemies_and_out_of_combat_heroes_are_passed_over(fight):  # RULES DD-9
    fight.damage("Rival 1", 20)
    fight.damage("Brann", 16)
    assert fight.get("Rival 1").status == "defeated" and fight.get("Rival 1").pv == 0
    assert fight.get("Brann").status == "out of combat"
    fight.next_turn()
    assert fight.current == "Rival 2"
    fight.next_turn()
    assert (fight.round, fight.current) == (2, "Nara")
    with pytest.raises(InvalidStep, match="out of combat"):
        fight.attack_spec("Brann", "Rival 2")


def test_a_healed_hero_stands_at_once_and_acts_next_turn(fight):  # RULES DD-9
    fight.damage("Brann", 16)
    fight.heal("Brann", 3)
    assert fight.get("Brann").status == "active" and fight.get("Brann").pv == 3
    assert fight.log[-1]["text"] == "Brann stands and acts on their next turn"
    for _ in range(3):
        fight.next_turn()
    assert fight.current == "Brann"


def test_the_fight_ends_when_every_enemy_is_defeated(fight):
    fight.damage("Rival 1", 8)
    fight.damage("Rival 2", 8)
    assert fight.over
    with pytest.raises(InvalidStep, match="every enemy is defeated"):
        fight.next_turn()


def test_heroes_out_of_combat_wake_with_1_pv_at_the_end_of_the_scene(fight):  # RULES DD-9
    fight.damage("Brann", 99)
    fight.add_condition("Nara", Condition("Ciego"))
    fight.add_condition("Nara", Condition("Derribado"))
    fight.end_scene()
    assert fight.get("Brann").pv == 1
    assert [c.name for c in fight.get("Nara").conditions] == ["Ciego"]
    assert not fight.started and fight.order == [] and fight.current is None


def test_temporary_conditions_end_at_the_start_of_the_bearers_turn(fight):  # RULES DD-11
    fight.add_condition("Rival 1", Condition("Derribado"))
    fight.add_condition("Rival 1", Condition("Asustado", source="Nara"))
    fight.add_condition("Rival 1", Condition("Hechizado"))  # unknown duration: temporary
    assert fight.get("Rival 1").condition("Hechizado").duration == "temporary"
    fight.next_turn()
    assert fight.current == "Rival 1"
    assert [c.name for c in fight.get("Rival 1").conditions] == ["Asustado"]
    assert fight.turn_effects == ["Derribado ends: standing up costs Rival 1's main action this turn",
                                  "Hechizado ends"]
    assert not fight.turn_lost


def test_a_paralysed_fighter_loses_the_turn_and_the_condition_ends(fight):  # RULES DD-11
    fight.add_condition("Rival 1", Condition("Paralizado"))
    fight.next_turn()
    assert fight.current == "Rival 1" and fight.turn_lost
    assert "Paralizado: Rival 1 loses this turn (still rolls defence)" in fight.turn_effects
    assert fight.get("Rival 1").conditions == []
    assert fight.attack_spec("Nara", "Rival 1").defence_die == 6  # still defends


def test_poison_deals_a_fixed_x_at_the_start_of_each_own_turn(fight):  # RULES DD-11
    fight.add_condition("Rival 1", Condition("Envenenado", poison=2))
    fight.next_turn()
    assert fight.get("Rival 1").pv == 6 and fight.turn_effects == ["Envenenado: Rival 1 takes 2 damage"]
    for _ in range(4):
        fight.next_turn()
    assert fight.get("Rival 1").pv == 4  # once per own turn, and it persists


def test_poison_with_a_die_waits_for_the_players_throw(fight):  # RULES DD-11, T-3
    fight.add_condition("Rival 2", Condition("Envenenado", poison_die=4))
    fight.next_turn()
    fight.next_turn()
    assert fight.current == "Rival 2"
    assert fight.needs.to_dict() == {"count": 1, "sides": 4, "kind": "d4",
                                     "reason": "Rival 2 is Envenenado (1d4): roll the d4 for the poison damage"}
    with pytest.raises(InvalidStep, match="roll the d4"):
        fight.next_turn()
    with pytest.raises(InvalidRoll, match="d4"):
        fight.poison_roll(5)
    fight.poison_roll(4)
    assert fight.get("Rival 2").pv == 4 and fight.needs is None


def test_poison_that_drops_a_fighter_ends_their_turn(fight):
    fight.add_condition("Rival 1", Condition("Envenenado", poison=8))
    fight.next_turn()
    assert fight.get("Rival 1").status == "defeated" and fight.turn_lost


@pytest.mark.parametrize(("condition", "message"), [
    ({"name": "Envenenado"}, "needs its X"),
    ({"name": "Envenenado", "poison": 1, "poison_die": 4}, "one of them"),
    ({"name": "Derribado", "poison": 1}, "only Envenenado"),
    ({"name": "Ciego", "duration": "forever"}, "temporary or persistent"),
])
def test_invalid_conditions(condition, message):
    with pytest.raises(InvalidStep, match=message):
        Condition(**condition)


def test_help_is_carried_to_the_allys_next_roll_and_spent(fight):  # RULES DD-2
    fight.help("Brann", "Nara", 2)
    spec = fight.attack_spec("Nara", "Rival 1")
    assert spec.attack_bonus == 2
    fight.apply_attack(resolve_attack(spec, (2, 14), (5, 9)))
    assert fight.get("Nara").help_bonus == 0
    fight.help("Brann", "Nara")
    assert fight.use_help("Nara") == 1 and fight.get("Nara").help_bonus == 0
    with pytest.raises(InvalidStep, match="clever description"):
        fight.help("Brann", "Nara", 3)


def test_help_to_the_defender_counts_on_the_defence_roll(fight):
    fight.help("Rival 2", "Rival 1")
    spec = fight.attack_spec("Nara", "Rival 1")
    assert spec.defence_bonus == 1
    outcome = resolve_attack(spec, (7, 14), (5, 9))  # 7 against 5 + 1 + 1
    assert outcome.hit and outcome.needs is not None


def test_fallo_defensivo_costs_the_defender_1_pv(fight):  # RULES DD-6
    spec = fight.attack_spec("Nara", "Rival 1")
    fight.apply_attack(resolve_attack(spec, (1, 14), (6, 1)))
    assert fight.get("Rival 1").pv == 7 and fight.get("Nara").points == {"PC": 0, "PM": 0}


def test_ties_favour_defender_is_an_encounter_option():  # RULES DD-5
    zara = hero("Zara", shield=2)
    android = enemy("Androide", body=8)
    encounter = Encounter([zara, android], DestinyOptions(ties_favour_defender=True))
    spec = encounter.attack_spec("Androide", "Zara")
    assert resolve_attack(spec, (7, 11), (5, 20)).perfect_defence


def test_an_incomplete_attack_cannot_be_applied(fight):
    spec = fight.attack_spec("Nara", "Rival 1")
    with pytest.raises(InvalidStep, match="complete"):
        fight.apply_attack(resolve_attack(spec, (7, 14)))


def test_short_rest_takes_the_players_d4(fight):  # RULES DD-10, the seed's Brann example
    fight.damage("Brann", 8)
    fight.short_rest("Brann", 3)
    brann = fight.get("Brann")
    assert brann.pv == 11
    assert brann.energy == {"EC": 2, "EM": 2, "EA": 3}  # +1 each, not above the maximum
    fight.short_rest("Brann", 4)
    fight.short_rest("Brann", 4)
    assert brann.pv == 16  # not above the maximum
    with pytest.raises(InvalidRoll, match="d4"):
        fight.short_rest("Brann", 5)


def test_long_rest_restores_everything_and_ends_persistent_conditions(fight):  # RULES DD-10, DD-11
    fight.damage("Nara", 10)
    fight.add_condition("Nara", Condition("Envenenado", poison=1))
    fight.long_rest("Nara")
    nara = fight.get("Nara")
    assert nara.pv == 16 and nara.energy == nara.energy_max and nara.conditions == []


def test_a_reinforcement_joins_after_those_tied_with_it(fight):  # RULES DD-1
    fight.add(enemy("Rival 3"), initiative=3)
    fight.add(hero("Kaspar"), initiative=3)
    assert fight.order == ["Nara", "Rival 1", "Kaspar", "Rival 2", "Rival 3", "Brann"]
    with pytest.raises(InvalidStep, match="needs an initiative"):
        fight.add(enemy("Rival 4"))
    assert "Rival 4" not in [p.name for p in fight.participants]


def test_undo_the_last_step_once(fight):
    before = fight.state()
    fight.damage("Nara", 5)
    fight.undo()
    assert fight.state() == before
    with pytest.raises(InvalidStep, match="nothing to undo"):
        fight.undo()


def test_a_failed_step_changes_nothing_and_keeps_the_undo(fight):
    fight.damage("Nara", 5)
    before = fight.to_dict()
    with pytest.raises(InvalidStep):
        fight.help("Nara", "Nobody")
    assert fight.to_dict() == before


def test_json_round_trip_keeps_the_undo(fight):
    fight.next_turn()
    saved = json.loads(json.dumps(fight.to_dict()))
    resumed = Encounter.from_dict(saved)
    assert resumed.to_dict() == fight.to_dict()
    resumed.undo()
    assert resumed.current == "Nara"


@pytest.mark.parametrize("change", [
    lambda d: d.update(version=99),
    lambda d: d.update(current="Nobody"),
    lambda d: d["participants"][0].update(pv=99),
    lambda d: d["participants"][0].update(colour="red"),
    lambda d: d.pop("order"),
])
def test_a_broken_save_is_refused_in_one_sentence(fight, change):
    data = fight.to_dict()
    change(data)
    with pytest.raises(InvalidStep):
        Encounter.from_dict(data)


@pytest.mark.parametrize(("changes", "message"), [
    ({"side": "enemy"}, "bestiary Defence die"),
    ({"defence": 6}, "defends with Body"),
    ({"pv": 20}, "more than the maximum"),
    ({"body": 7}, "Body die must be a d4"),
    ({"body": 6, "weapon": "heavy"}, "at least d8"),
    ({"energy": {"EC": 1}}, "EC, EM and EA"),
])
def test_invalid_participants(changes, message):
    with pytest.raises(ValueError, match=message):
        hero("X", **changes)


def test_energy_is_spent_and_a_short_rest_gives_1_of_each_back(fight):  # RULES DD-10
    fight.spend_energy("Nara", "EA", 2)
    assert fight.get("Nara").energy == {"EC": 1, "EM": 1, "EA": 1}
    with pytest.raises(InvalidStep, match="has 1 EC, not 2"):
        fight.spend_energy("Nara", "EC", 2)
    with pytest.raises(InvalidStep, match="EC, EM or EA"):
        fight.spend_energy("Nara", "PV")
    fight.short_rest("Nara", 1)
    assert fight.get("Nara").energy == {"EC": 2, "EM": 2, "EA": 2}


def test_the_narrator_may_modify_an_attack(fight):  # RULES DD-11 Ciego
    fight.help("Brann", "Nara")
    assert fight.attack_spec("Nara", "Rival 1", attack_modifier=-2).attack_bonus == -1


def test_messages_name_people_as_written(fight):
    # a name reads as the players wrote it, not as a Python repr
    with pytest.raises(InvalidStep, match="^there is already a participant called Nara$"):
        fight.add(hero("Nara"))


def test_a_disarmed_attacker_attacks_unarmed_until_it_ends(fight):  # RULES DD-11, DD-8
    fight.add_condition("Nara", Condition("Desarmado"))
    spec = fight.attack_spec("Nara", "Rival 1")
    assert spec.weapon == "unarmed" and spec.weapon_bonus == 0
    hit = resolve_attack(spec, (7, 10), (2, 5), (5,))
    assert hit.damage == 4  # the Body die − 1, no medium +2
    fight.cure("Nara", "Desarmado")
    assert fight.attack_spec("Nara", "Rival 1").weapon == "medium"


def test_a_disarmed_archer_cannot_shoot():  # RULES DD-11: the weapon is on the ground
    archer = hero("Ana", weapon="light", ranged=True)
    encounter = Encounter([archer, enemy("Orc")])
    encounter.roll_initiative({"Ana": 5, "Orc": 2})
    encounter.add_condition("Ana", Condition("Desarmado"))
    spec = encounter.attack_spec("Ana", "Orc")
    assert (spec.ranged, spec.weapon, spec.characteristic) == (False, "unarmed", "Body")
    with pytest.raises(InvalidStep, match="Ana is Desarmado: no weapon to shoot with, only an unarmed attack"):
        encounter.attack_spec("Ana", "Orc", ranged=True)


def test_the_end_of_desarmado_says_taking_the_weapon_back_costs_the_main_action(fight):  # RULES DD-11
    fight.add_condition("Rival 1", Condition("Desarmado"))
    fight.next_turn()
    assert fight.current == "Rival 1" and fight.get("Rival 1").condition("Desarmado") is None
    assert fight.turn_effects == ["Desarmado ends: taking the weapon back costs Rival 1's main action this turn"]
    fight.add_condition("Nara", Condition("Desarmado"))
    fight.cure("Nara", "Desarmado")
    assert fight.log[-1]["text"] == "taking the weapon back costs Nara's next main action"
