"""The combat session: steps on the encounter, saved after each one, taken up again after a restart."""

from __future__ import annotations

import json
import threading

import pytest

from device.combat import CombatSession, Roster, participant_from_template, roster_from_config
from device.config import ConfigError, config_from_dict
from rules.errors import InvalidRoll, InvalidStep, NotNow


def brann_vs_saqueador(folder) -> CombatSession:
    session = CombatSession(folder)
    session.add_hero("Brann")
    session.add_enemy("Saqueador")
    session.roll_initiative({"Brann": 5, "Saqueador": 4})
    return session


def test_the_seed_attack_step_by_step(tmp_path):
    # RULES §3: Brann d8 7 vs Saqueador d6 4 + 1 armour → hit; damage 5 + 2 = 7.
    session = brann_vs_saqueador(tmp_path)
    state = session.start_attack("Brann", "Saqueador")
    assert state["attack"]["needs"]["reason"] == "Attacker (Brann): roll Body d8 and the Destiny d20"
    assert state["attack"]["needs"]["dice"] == [8, 20]
    state = session.attack_dice([7, 14])
    assert state["attack"]["needs"]["reason"] == "Defender (Saqueador): roll Defence d6 and the Destiny d20"
    state = session.attack_dice([4, 9])
    assert state["attack"]["needs"]["dice"] == [8]
    state = session.attack_dice([5])
    assert state["attack"] is None
    assert state["last_attack"]["hit"] is True and state["last_attack"]["damage"] == 7
    fighters = {p["name"]: p for p in state["encounter"]["participants"]}
    assert fighters["Saqueador"]["pv"] == 1 and fighters["Brann"]["points"]["PC"] == 2


def test_a_missing_die_is_asked_for_never_filled(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.start_attack("Brann", "Saqueador")
    with pytest.raises(InvalidStep, match="2 dice, not 1"):
        session.attack_dice([7])
    with pytest.raises(InvalidRoll, match="d8"):
        session.attack_dice([9, 14])
    assert session.state()["attack"]["attack"]["natural"] is None


def test_enemies_from_the_bestiary_are_numbered(tmp_path):
    session = CombatSession(tmp_path)
    state = session.add_enemy("Saqueador", 3)
    assert [p["name"] for p in state["encounter"]["participants"]] == ["Saqueador", "Saqueador 2", "Saqueador 3"]
    saqueador = state["encounter"]["participants"][0]
    assert (saqueador["defence"], saqueador["armour"], saqueador["pv"]) == (6, 1, saqueador["pv_max"])
    with pytest.raises(KeyError, match="Dragon"):
        session.add_enemy("Dragon")


def test_a_step_that_fails_changes_nothing_on_disk_or_in_memory(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    saved = (tmp_path / "combat.json").read_text()
    before = session.state()
    with pytest.raises(InvalidStep):
        session.help("Brann", "Brann")
    assert session.state() == before
    assert (tmp_path / "combat.json").read_text() == saved


def test_undo_takes_back_the_last_throw_once(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.start_attack("Brann", "Saqueador")
    session.attack_dice([7, 14])
    state = session.undo()
    assert state["attack"]["attack"]["natural"] is None and not state["can_undo"]
    with pytest.raises(InvalidStep, match="nothing to undo"):
        session.undo()


def test_a_fight_resumes_after_a_restart_mid_attack(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.start_attack("Brann", "Saqueador")
    session.attack_dice([7, 14])
    seq = session.state()["seq"]
    del session                                   # the power goes off
    resumed = CombatSession(tmp_path)
    state = resumed.state()
    assert state["seq"] == seq and state["can_undo"]
    assert state["encounter"]["current"] == "Brann" and state["encounter"]["round"] == 1
    assert state["attack"]["needs"]["who"] == "defender"
    resumed.attack_dice([4, 9])
    state = resumed.attack_dice([5])
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Saqueador"] == 1
    assert CombatSession(tmp_path).state()["encounter"] == state["encounter"]


def test_the_file_is_replaced_whole_never_left_half_written(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.next_turn()
    document = json.loads((tmp_path / "combat.json").read_text())
    assert document["encounter"]["current"] == "Saqueador" and document["seq"] == session.state()["seq"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["combat.json"]  # no temp file left behind


def test_an_unreadable_file_is_kept_aside_and_a_new_fight_starts(tmp_path):
    (tmp_path / "combat.json").write_text('{"version": 1, "encounter": ')
    session = CombatSession(tmp_path)
    assert session.state()["encounter"]["participants"] == []
    kept = [p.name for p in tmp_path.iterdir() if p.name.startswith("combat.json.broken-")]
    assert len(kept) == 1


def test_poison_at_the_start_of_the_turn_then_rests(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.add_condition("Saqueador", {"name": "Envenenado", "poison_die": 4})
    state = session.next_turn()
    assert state["encounter"]["needs"]["sides"] == 4
    with pytest.raises(InvalidStep, match="roll the d4"):
        session.next_turn()
    state = session.poison_roll(3)
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Saqueador"] == 5
    session.damage("Brann", 8)
    state = session.short_rest("Brann", 3)  # RULES DD-10: Brann 8 of 16, d4 3 → 11
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Brann"] == 11


def test_heroes_saved_on_the_page_come_back_after_a_restart(tmp_path):
    session = CombatSession(tmp_path)
    session.save_hero({"name": "Ilse", "body": 6, "mind": 10, "soul": 8, "pv": 10, "weapon": "light",
                       "ranged": True})
    assert [h["name"] for h in CombatSession(tmp_path).heroes()][-1] == "Ilse"
    state = CombatSession(tmp_path).add_hero("Ilse")
    assert state["encounter"]["participants"][0]["mind"] == 10


def test_every_step_is_published_to_each_open_page(tmp_path):
    session = CombatSession(tmp_path)
    first, second = session.subscribe(), session.subscribe()
    session.add_hero("Nara")
    for subscription in (first, second):
        event = subscription.get(timeout=1)
        assert event.kind == "combat" and event.seq == 1
        assert event.data["encounter"]["participants"][0]["name"] == "Nara"
    first.close()
    second.close()


def test_steps_from_many_threads_are_each_taken_and_saved_once(tmp_path):
    session = CombatSession(tmp_path)
    threads = [threading.Thread(target=session.add_enemy, args=("Rival",)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    names = CombatSession(tmp_path).names()
    assert len(names) == len(set(names)) == 8


def test_roster_from_the_config_and_its_errors():
    roster = roster_from_config({"bestiary": [{"name": "Lobo", "body": 6, "mind": 4, "soul": 4, "defence": 6,
                                               "pv": 5}], "ties_favour_defender": True})
    assert [s["name"] for s in roster.bestiary] == ["Lobo"] and roster.heroes == Roster().heroes
    assert roster.options.ties_favour_defender and not roster.options.defensive_fumble_on_hit
    assert roster_from_config({"defensive_fumble_on_hit": True}).options.defensive_fumble_on_hit  # RULES DD-8
    with pytest.raises(ValueError, match="combat.defensive_fumble_on_hit must be true or false"):
        roster_from_config({"defensive_fumble_on_hit": "yes"})
    assert config_from_dict({}).combat == Roster()
    with pytest.raises(ConfigError, match="combat.bestiary entry 1: .*Defence die"):
        config_from_dict({"combat": {"bestiary": [{"name": "Lobo", "body": 6, "mind": 4, "soul": 4, "pv": 5}]}})
    with pytest.raises(ConfigError, match="combat.heroes entry 1: unknown key 'colour'"):
        config_from_dict({"combat": {"heroes": [{"name": "A", "colour": "red"}]}})
    with pytest.raises(ConfigError, match="combat.dragons is not a key"):
        config_from_dict({"combat": {"dragons": []}})


def test_a_sheet_makes_a_fighter_at_full_health():
    rex = participant_from_template({"name": "Rex", "body": 8, "mind": 6, "soul": 4, "pv": 14, "weapon": "unarmed",
                                     "energy": {"EC": 2, "EM": 1, "EA": 1}}, "hero")
    assert (rex.pv, rex.pv_max, rex.energy, rex.energy_max["EC"]) == (14, 14, {"EC": 2, "EM": 1, "EA": 1}, 2)
    with pytest.raises(InvalidStep, match="d4, d6, d8"):
        participant_from_template({"name": "X", "body": 7, "mind": 6, "soul": 4, "pv": 3}, "hero")


@pytest.mark.slow
def test_phones_get_the_newest_log_entries_the_file_keeps_them_all(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    for _ in range(101):  # one log entry per turn
        session.next_turn()
    state = session.state()
    assert state["log_size"] > 100 and len(state["encounter"]["log"]) == 100
    assert state["encounter"]["log"][-1]["text"] == f"round {state['encounter']['round']}: Saqueador's turn"
    saved = json.loads((tmp_path / "combat.json").read_text())
    assert len(saved["encounter"]["log"]) == state["log_size"]


def test_the_scene_ends_heroes_wake_and_the_defeated_leave(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.add_enemy("Rival", initiatives=[1])
    session.damage("Saqueador", 8)
    session.damage("Brann", 16)
    state = session.end_scene()
    fighters = {p["name"]: p for p in state["encounter"]["participants"]}
    assert sorted(fighters) == ["Brann", "Rival"] and fighters["Brann"]["pv"] == 1
    assert state["encounter"]["round"] == 0 and fighters["Rival"]["initiative"] is None


def seed_attack_resolved(folder) -> CombatSession:
    """RULES §3: Brann d8 7 vs Saqueador d6 4 + 1 armour → hit; damage 5 + 2 = 7 (Saqueador at 1 PV)."""
    session = brann_vs_saqueador(folder)
    session.start_attack("Brann", "Saqueador")
    for throw in ([7, 14], [4, 9], [5]):
        session.attack_dice(throw)
    return session


def pv(state, name):
    return {p["name"]: p["pv"] for p in state["encounter"]["participants"]}[name]


def test_undo_after_a_correction_of_the_last_attack_goes_back_to_just_before_the_correction(tmp_path):
    session = seed_attack_resolved(tmp_path)
    before = session.state()
    state = session.correct_attack("damage", 0, 1)   # the damage die was a 1: 1 + 2 = 3
    assert state["last_attack"]["damage"] == 3 and pv(state, "Saqueador") == 5
    state = session.undo()
    assert state["attack"] is None and state["last_attack"] == before["last_attack"]
    assert state["encounter"] == before["encounter"] and pv(state, "Saqueador") == 1
    assert state["last_attack_correctable"] and not state["can_undo"]
    # the same after a restart, and the attack can be corrected again (the right face this time)
    state = CombatSession(tmp_path).correct_attack("damage", 0, 3)
    assert state["last_attack"]["damage"] == 5 and pv(state, "Saqueador") == 3


def test_a_correction_to_the_value_already_shown_is_refused_and_changes_nothing(tmp_path):
    session = seed_attack_resolved(tmp_path)
    before = session.state()
    with pytest.raises(InvalidStep, match="die 1 of the damage throw already shows 5: nothing to correct"):
        session.correct_attack("damage", 0, 5)
    assert session.state() == before and CombatSession(tmp_path).state() == before
    session.next_turn()  # RULES DD-2: the Saqueador attacks on its own turn
    session.start_attack("Saqueador", "Brann")
    session.attack_dice([3, 11])
    during = session.state()
    with pytest.raises(InvalidStep, match="already shows 3"):
        session.correct_attack("attack", 0, 3)
    assert session.state() == during


def test_undo_after_corrections_during_and_after_an_attack_takes_back_only_the_correction(tmp_path):
    session = brann_vs_saqueador(tmp_path)
    session.start_attack("Brann", "Saqueador")
    session.attack_dice([1, 14])
    state = session.correct_attack("attack", 0, 7)       # during: the attack under way
    assert state["attack"]["attack"]["natural"] == 7
    state = session.undo()
    assert state["attack"]["attack"]["natural"] == 1 and state["attack"]["needs"]["dice"] == [6, 20]
    session.correct_attack("attack", 0, 7)
    session.attack_dice([4, 9])
    session.attack_dice([5])
    state = session.correct_attack("attack", 0, 3)       # after: a miss now, the damage taken back
    assert state["last_attack"]["hit"] is False and pv(state, "Saqueador") == 8
    state = session.correct_attack("attack", 0, 8)       # a second correction: a hit again
    assert state["last_attack"]["damage"] == 7 and pv(state, "Saqueador") == 1
    state = session.undo()                               # back to the miss, not further
    assert state["last_attack"]["hit"] is False and pv(state, "Saqueador") == 8 and state["attack"] is None


def test_the_fights_house_rules_change_and_stay_for_a_new_fight(tmp_path):  # RULES DD-5, DD-8 options
    session = CombatSession(tmp_path)
    assert session.state()["options"] == {"ties_favour_defender": False, "defensive_fumble_on_hit": False}
    session.set_options(defensive_fumble_on_hit=True)
    session.new_fight()
    assert session.state()["options"]["defensive_fumble_on_hit"] is True
    session.add_hero("Brann")
    session.add_enemy("Saqueador")
    session.roll_initiative({"Brann": 5, "Saqueador": 2})
    session.start_attack("Brann", "Saqueador")
    with pytest.raises(InvalidStep, match="finish or cancel the attack before changing the house rules"):
        session.set_options(ties_favour_defender=True)
    session.cancel_attack()
    with pytest.raises(InvalidRoll, match="ties_favour_defender must be true or false"):
        session.set_options(ties_favour_defender="yes")


def test_a_fighter_attacks_only_on_their_own_turn(tmp_path):
    # RULES DD-1, DD-2: the initiative's order is the order of the turns
    session = brann_vs_saqueador(tmp_path)
    before = session.state()
    with pytest.raises(NotNow, match="it is Brann's turn: Saqueador attacks on their own turn"):
        session.start_attack("Saqueador", "Brann")
    assert session.state() == before
    session.next_turn()
    assert session.start_attack("Saqueador", "Brann")["attack"]["spec"]["attacker_name"] == "Saqueador"


def test_a_defensa_perfecta_lets_the_defender_counter_attack_at_once(tmp_path):
    # RULES DD-6: 20 on the defender's Destiny die and the defence wins: a free counter-attack
    session = brann_vs_saqueador(tmp_path)
    session.start_attack("Brann", "Saqueador")
    session.attack_dice([1, 2])
    session.attack_dice([6, 20])
    assert session.state()["last_attack"]["offers"] == ["counter-attack", "reposition"]
    assert session.start_attack("Saqueador", "Brann")["attack"]["spec"]["attacker_name"] == "Saqueador"
    session.cancel_attack()
    session.next_turn()
    session.next_turn()  # Brann's turn again: the moment of the counter-attack has passed
    with pytest.raises(NotNow, match="it is Brann's turn"):
        session.start_attack("Saqueador", "Brann")
