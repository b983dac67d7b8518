"""Destiny combat steps filled from the tray: a fake numbered reader over fake frames, only
throws settled after the step asked (RULES T-2), the wrong, missing and unreadable dice said
(T-1, T-3), corrections by hand, and the controller leaving the frames the fight takes."""

from __future__ import annotations

import json
import time

import pytest

from device.combat import CombatSession
from device.tray.dispatch import TrayDispatcher
from rules.errors import InvalidRoll, InvalidStep

from .controller_fakes import numbered, settle
from .test_serve import call, serving


@pytest.fixture
def fight(tmp_path, reader, clock):
    session = CombatSession(tmp_path / "fight", numbered_reader=reader.numbered, clock=clock)
    session.add_hero("Brann")
    session.add_enemy("Saqueador")
    return session


def started(fight):
    fight.roll_initiative({"Brann": 5, "Saqueador": 4})
    return fight


def throw(fight, reader, clock, *dice):
    """The tray settles a tick later showing ``dice``; whether the fight took the frame."""
    return fight.on_settled(reader.frame(*dice), clock.tick())


def test_the_seed_attack_read_from_the_tray_throw_by_throw(fight, reader, clock):
    # RULES §3: Brann d8 7 vs Saqueador d6 4 + 1 armour → hit; damage 5 + 2 = 7.
    started(fight).start_attack("Brann", "Saqueador")
    state = fight.read_tray("attack")
    assert state["tray"]["waiting"] == {"step": "attack", "throw": "attack", "dice": [8, 20],
                                        "needs": "this attack needs a d8 and a d20"}
    assert throw(fight, reader, clock, numbered(7, "d8"), numbered(14, "d20", x=300))
    state = fight.state()
    assert (state["attack"]["attack"]["natural"], state["attack"]["attack"]["destiny"]) == (7, 14)
    assert state["tray"]["waiting"]["needs"] == "the defence needs a d6 and a d20"
    assert throw(fight, reader, clock, numbered(9, "d20", x=300), numbered(4, "d6-pips"))  # any order
    assert fight.state()["tray"]["waiting"]["needs"] == "the damage needs a d8"
    assert throw(fight, reader, clock, numbered(5, "d8"))
    state = fight.state()
    assert state["attack"] is None and state["tray"]["waiting"] is None
    last = state["last_attack"]
    assert last["hit"] is True and last["damage"] == 7 and last["attack"]["total"] == 7
    assert last["sources"] == {"attack": "camera", "defence": "camera", "damage": "camera"}
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Saqueador"] == 1
    assert reader.used == ["numbered"] * 3
    assert not throw(fight, reader, clock, numbered(3, "d8"))  # nothing waits: the frame is left


def test_only_a_throw_settled_after_the_step_asked_is_used(fight, reader, clock):
    started(fight).start_attack("Brann", "Saqueador")
    early = clock.t
    clock.tick()
    fight.read_tray("attack")
    assert not fight.on_settled(reader.frame(numbered(7, "d8"), numbered(14, "d20", x=300)), early)
    assert fight.state()["attack"]["attack"]["natural"] is None and reader.used == []
    # the attacker's dice tapped by hand: the defender's throw must settle after that, too
    asked = clock.tick()
    clock.tick()
    fight.attack_dice([7, 14])
    assert not fight.on_settled(reader.frame(numbered(4, "d6"), numbered(9, "d20", x=300)), asked + 0.5)
    state = fight.state()
    assert state["attack"]["defence"]["natural"] is None
    assert state["attack"]["sources"] == {"attack": "hand"}
    assert throw(fight, reader, clock, numbered(4, "d6"), numbered(9, "d20", x=300))
    assert fight.state()["attack"]["sources"] == {"attack": "hand", "defence": "camera"}


@pytest.mark.parametrize("dice, code, prompt", [
    ([numbered(3, "d6"), numbered(14, "d20", x=300)], "wrong dice",
     "a numbered d6 is in the tray: this attack needs a d8 and a d20"),
    ([numbered(3, "d6-pips"), numbered(7, "d8", x=200), numbered(14, "d20", x=300)], "wrong dice",
     "a pip d6 is in the tray: this attack needs a d8 and a d20"),
    ([numbered(7, "d8"), numbered(14, "d20", x=200), numbered(2, "d20", x=300)], "wrong dice",
     "2 d20s are in the tray: this attack needs a d8 and a d20"),
    ([numbered(7, "d8")], "missing", "a d20 is missing: this attack needs a d8 and a d20"),
    ([], "no dice", "no dice seen: this attack needs a d8 and a d20"),
    ([numbered(7, "d8"), numbered(None, "d20", x=300, unreadable="cocked")], "unreadable",
     "the d20: it is cocked — throw it again"),
    ([numbered(None, "d8", unreadable="ambiguous numeral"), numbered(14, "d20", x=300)], "unreadable",
     "the d8: its numeral is ambiguous — throw it again"),
])
@pytest.mark.slow
def test_a_throw_that_is_not_the_dice_asked_for_fills_nothing_and_says_why(fight, reader, clock,
                                                                           dice, code, prompt):
    started(fight).start_attack("Brann", "Saqueador")
    fight.read_tray("attack")
    undo_before = fight.state()["can_undo"]
    assert throw(fight, reader, clock, *dice)
    state = fight.state()
    assert state["tray"]["problem"]["code"] == code and state["tray"]["problem"]["text"] == prompt
    assert state["attack"]["attack"]["natural"] is None and state["tray"]["waiting"]["step"] == "attack"
    assert state["can_undo"] == undo_before
    # the dice thrown again, right this time
    assert throw(fight, reader, clock, numbered(7, "d8"), numbered(14, "d20", x=300))
    state = fight.state()
    assert state["tray"]["problem"] is None and state["attack"]["attack"]["natural"] == 7


def test_a_reader_that_fails_is_said_and_the_step_waits_on(fight, reader, clock):
    def broken(image, color):
        raise ValueError("not an image")
    session = CombatSession(fight.path.parent, numbered_reader=broken, clock=clock)
    started(session).start_attack("Brann", "Saqueador")
    session.read_tray("attack")
    assert session.on_settled(reader.frame(), clock.tick())
    problem = session.state()["tray"]["problem"]
    assert problem["code"] == "no reading" and problem["text"] == "could not read the tray (not an image): throw again"


def test_initiative_read_die_by_die_and_not_a_step_to_undo(fight, reader, clock):
    before = fight.state()
    with pytest.raises(KeyError):
        fight.read_tray("initiative", "Nara")
    state = fight.read_tray("initiative", "Brann")
    assert state["tray"]["waiting"] == {"step": "initiative", "name": "Brann", "dice": [6],
                                        "needs": "Brann's initiative needs a d6"}
    assert throw(fight, reader, clock, numbered(7, "d8"))
    assert fight.state()["tray"]["problem"]["text"] == "a d8 is in the tray: Brann's initiative needs a d6"
    assert throw(fight, reader, clock, numbered(5, "d6-pips"))
    state = fight.state()
    assert state["tray"] == {"waiting": None, "problem": None, "initiative": {"Brann": 5}, "tapped": {}}
    assert state["can_undo"] == before["can_undo"] and state["encounter"] == before["encounter"]
    fight.read_tray("initiative", "Saqueador")
    assert throw(fight, reader, clock, numbered(4, "d6"))
    assert fight.state()["tray"]["initiative"] == {"Brann": 5, "Saqueador": 4}
    # the page sends the values (a read one may be changed by hand first); the fight starts
    state = fight.roll_initiative({"Brann": 5, "Saqueador": 2})
    assert state["encounter"]["order"] == ["Brann", "Saqueador"] and state["tray"]["initiative"] == {}
    with pytest.raises(InvalidStep, match="started"):
        fight.read_tray("initiative", "Brann")


def test_a_die_read_is_corrected_by_hand_before_and_after_the_attack_resolves(fight, reader, clock):
    started(fight).start_attack("Brann", "Saqueador")
    fight.read_tray("attack")
    throw(fight, reader, clock, numbered(1, "d8"), numbered(14, "d20", x=300))  # a 7 misread as 1
    state = fight.correct_attack("attack", 0, 7)
    assert state["attack"]["attack"]["total"] == 7 and state["attack"]["sources"] == {"attack": "corrected"}
    throw(fight, reader, clock, numbered(4, "d6"), numbered(9, "d20", x=300))
    throw(fight, reader, clock, numbered(5, "d8"))
    state = fight.state()
    assert state["last_attack"]["damage"] == 7 and state["last_attack_correctable"]
    # after it resolved: the defender's d6 was a 6 (7 against 6 + 1 armour: still a hit, RULES DD-5)
    state = fight.correct_attack("defence", 0, 6)
    assert state["last_attack"]["hit"] is True and state["last_attack"]["defence"]["total"] == 7
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Saqueador"] == 1  # once, not twice
    state = fight.correct_attack("attack", 0, 3)   # and the attacker's d8 a 3: a miss, the damage taken back
    assert state["last_attack"]["hit"] is False and state["last_attack"]["defence"]["natural"] == 6
    assert state["last_attack"]["sources"] == {"attack": "corrected", "defence": "corrected", "damage": "camera"}
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Saqueador"] == 8
    state = fight.undo()  # takes back that correction only: the hit stands, the damage applied again
    assert state["attack"] is None and state["last_attack"]["hit"] is True
    assert state["last_attack"]["defence"]["natural"] == 6 and state["last_attack"]["attack"]["natural"] == 7
    assert {p["name"]: p["pv"] for p in state["encounter"]["participants"]}["Saqueador"] == 1
    assert state["last_attack_correctable"]
    assert not fight.heal("Saqueador", 1)["last_attack_correctable"]   # another step: too old now
    with pytest.raises(InvalidStep, match="only the attack being resolved"):
        fight.correct_attack("attack", 0, 7)
    with pytest.raises(InvalidStep, match="a throw is attack, defence or damage"):
        fight.correct_attack("destiny", 0, 7)


def test_undo_of_a_throw_read_waits_for_it_again(fight, reader, clock):
    started(fight).start_attack("Brann", "Saqueador")
    fight.read_tray("attack")
    throw(fight, reader, clock, numbered(7, "d8"), numbered(14, "d20", x=300))
    state = fight.undo()
    assert state["attack"]["attack"]["natural"] is None and state["tray"]["waiting"]["dice"] == [8, 20]
    assert throw(fight, reader, clock, numbered(6, "d8"), numbered(2, "d20", x=300))
    assert fight.state()["attack"]["attack"]["natural"] == 6
    fight.cancel_attack()
    assert fight.state()["tray"]["waiting"] is None


def test_the_wait_is_in_the_file_and_taken_up_after_a_restart_with_fresh_frames_only(fight, reader, clock):
    started(fight).start_attack("Brann", "Saqueador")
    fight.read_tray("attack")
    saved = json.loads(fight.path.read_text())
    assert saved["tray"]["waiting"] == {"step": "attack"}
    before_restart = clock.t
    clock.tick()
    restarted = CombatSession(fight.path.parent, numbered_reader=reader.numbered, clock=clock)
    assert restarted.state()["tray"]["waiting"]["dice"] == [8, 20]
    assert not restarted.on_settled(reader.frame(numbered(7, "d8"), numbered(14, "d20")), before_restart)
    assert throw(restarted, reader, clock, numbered(7, "d8"), numbered(14, "d20", x=300))
    assert restarted.state()["attack"]["attack"]["natural"] == 7
    restarted.cancel_tray()
    assert CombatSession(fight.path.parent, clock=clock).state()["tray"]["waiting"] is None


def test_the_controller_leaves_the_frames_a_waiting_fight_takes(controller, fight, reader, clock):
    tray = TrayDispatcher([fight, controller], controller.readers, controller.annotate)
    controller.use_tray(tray)
    controller.arm("pool5")
    started(fight).start_attack("Brann", "Saqueador")
    fight.read_tray("attack")
    state = settle(tray, clock, reader.frame(numbered(7, "d8"), numbered(14, "d20", x=300)), controller)
    assert state["state"] == "armed" and state["latest_roll"] is None
    assert fight.state()["attack"]["attack"]["natural"] == 7
    fight.cancel_tray()
    pool = [numbered(v, x=100 * i, y=400) for i, v in enumerate((2, 3, 4, 5, 6))]
    state = settle(tray, clock, reader.frame(*pool), controller)
    assert state["state"] == "resolved" and fight.state()["attack"]["defence"]["natural"] is None


def test_an_initiative_tapped_is_shared_kept_across_a_restart_and_the_later_of_tap_and_read_wins(fight, reader,
                                                                                                    clock, tmp_path):
    before = fight.state()
    state = fight.tap_initiative("Saqueador", 3)
    assert state["tray"]["tapped"] == {"Saqueador": 3} and state["can_undo"] == before["can_undo"]  # no step
    fight.read_tray("initiative", "Saqueador")
    assert throw(fight, reader, clock, numbered(4, "d6"))
    tray = fight.state()["tray"]
    assert (tray["initiative"], tray["tapped"]) == ({"Saqueador": 4}, {})  # the read replaced the tap
    fight.tap_initiative("Saqueador", 2)
    fight.tap_initiative("Brann", 6)
    tray = fight.state()["tray"]
    assert (tray["initiative"], tray["tapped"]) == ({}, {"Saqueador": 2, "Brann": 6})  # and a tap the read
    again = CombatSession(tmp_path / "fight", numbered_reader=reader.numbered, clock=clock)  # a restart
    assert again.state()["tray"]["tapped"] == {"Saqueador": 2, "Brann": 6}
    with pytest.raises(InvalidRoll, match="Brann's initiative"):
        again.tap_initiative("Brann", 7)
    with pytest.raises(KeyError):
        again.tap_initiative("Nara", 2)
    again.tap_initiative("Brann", None)
    assert again.state()["tray"]["tapped"] == {"Saqueador": 2}
    again.remove("Saqueador")
    assert again.state()["tray"]["tapped"] == {}


@pytest.mark.parametrize("tray", [[1, 2], {"waiting": "attack", "initiative": [5]},
                                  {"waiting": {"step": "initiative", "name": "Nobody"}, "initiative": {"Brann": "5"}}])
def test_a_broken_tray_part_of_the_file_is_dropped_and_the_fight_kept(fight, clock, tray):
    started(fight).start_attack("Brann", "Saqueador")
    saved = json.loads(fight.path.read_text())
    fight.path.write_text(json.dumps({**saved, "tray": tray}))
    state = CombatSession(fight.path.parent, clock=clock).state()
    assert state["tray"] == {"waiting": None, "problem": None, "initiative": {}, "tapped": {}}
    assert state["attack"]["needs"]["dice"] == [8, 20]


@pytest.mark.slow
def test_dicelens_serve_hands_a_settled_throw_to_the_waiting_fight_not_to_the_armed_roll(tmp_path):
    # The real wiring (device/serve.py): simulated camera, tray loop, controller, combat
    # session and vision.read_numbered. The simulated camera throws pip d6s, so the attack
    # names them and fills nothing, and the armed 2D6 does not take the frame.
    with serving(tmp_path) as base:
        call(base + "/api/combat/heroes", {"sheet": "Brann"})
        call(base + "/api/combat/enemies", {"sheet": "Saqueador"})
        call(base + "/api/combat/initiative", {"values": {"Brann": 5, "Saqueador": 4}})
        call(base + "/api/combat/attack", {"attacker": "Brann", "defender": "Saqueador"})
        call(base + "/api/arm", {"preset": "2d6"})
        status, state = call(base + "/api/combat/tray", {"step": "attack"})
        assert status == 200 and state["tray"]["waiting"]["dice"] == [8, 20]
        call(base + "/api/throw", {})
        for _ in range(120):
            time.sleep(0.5)
            state = call(base + "/api/combat")[1]
            if state["tray"]["problem"] is not None:
                break
        else:
            raise AssertionError("the settled throw never reached the fight")
        assert state["tray"]["problem"]["code"] in ("wrong dice", "missing", "no dice")
        assert state["attack"]["attack"]["natural"] is None
        assert call(base + "/api/state")[1]["latest_roll"] is None
