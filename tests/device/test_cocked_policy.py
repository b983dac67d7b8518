"""RULES T-5: the cocked-die policy on a roll's and a fight's tray reads (throw that die again, throw the
whole set again, or enter a leaning die's top face by hand); never a value from two faces (T-1)."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from device.config import ConfigError, config_from_dict
from device.controller import Controller
from device.presets import build_presets
from rules.errors import InvalidStep

from .controller_fakes import die, fakes, numbered, settle

COCKED = {"unreadable": "cocked"}


def test_the_default_throws_the_cocked_die_again_and_the_others_stay(controller, reader, clock):
    assert controller.settings()["cocked_dice"] == "rethrow_die"
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(None, "white", 300, **COCKED)))
    assert state["prompt"] == "die 2 (white): it is cocked — throw it again or correct it on the page"
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(4, "white", 250, 300)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 7


def test_rethrow_set_voids_the_throw_and_counts_no_die_of_it_that_did_not_move(controller, reader, clock):
    controller.update_settings(cocked_dice="rethrow_set")
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(None, "white", 300, **COCKED)))
    assert state["state"] == "prompting"
    assert state["prompt"] == "die 2 (white): it is cocked — throw all 2 dice of this throw again"
    # only the cocked die was thrown again: the red 3 lies where it lay, so the throw is not made again
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(4, "white", 250, 300)))
    assert state["state"] == "prompting" and state["latest_roll"]["total"] is None
    assert state["prompt"] == "1 die of the voided throw did not move: throw all 2 again"
    controller.attach_camera(read_now=lambda: None)
    controller.read_now()  # "read now" does not count it either
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(5, "white", 250, 300)))
    assert state["prompt"] == "1 die of the voided throw did not move: throw all 2 again"
    state = settle(controller, clock, reader.frame(die(2, "red", 420, 260, principal=True), die(5, "white", 100, 300)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 7
    assert [d["natural"] for d in state["latest_roll"]["dice"]] == [2, 5]


def test_rethrow_set_on_a_later_step_reads_that_step_afresh(controller, reader, clock):
    controller.update_settings(cocked_dice="rethrow_set")
    controller.arm("2d6")
    settle(controller, clock, reader.frame(die(6, "red", principal=True), die(4, "white", 300)))  # perfect: a D3
    state = settle(controller, clock, reader.frame(die(4, "white", 300), die(None, "red", 150, 400, **COCKED)))
    assert state["prompt"] == "die 3 (red): it is cocked — throw all 1 die of this throw again"
    state = settle(controller, clock, reader.frame(die(4, "white", 300), die(None, "red", 150, 400, **COCKED)))
    assert state["prompt"] == "1 die of the voided throw did not move: throw all 1 again"
    state = settle(controller, clock, reader.frame(die(4, "white", 300), die(2, "red", 420, 260)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 6 + 4 + 1


def test_accept_leaning_asks_for_the_top_face_and_keeps_it_as_entered_by_hand(controller, reader, clock):
    controller.update_settings(cocked_dice="accept_leaning")
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(None, "white", 300, **COCKED)))
    assert state["state"] == "prompting" and state["prompt"] == "die 2 (white) leans: enter its top face"
    pending = state["latest_roll"]
    assert pending["dice"][1]["natural"] is None  # the reader reads no value from a leaning die (T-1)
    roll = controller.correct(pending["id"], 1, value=5, who="gm")
    assert roll["complete"] and roll["total"] == 8 and controller.state()["state"] == "resolved"
    assert roll["dice"][1]["source"] == "hand" and not roll["dice"][1]["corrected"]  # no face was read to correct
    assert roll["corrections"][0]["to"] == 5 and roll["corrections"][0]["who"] == "gm" and roll["corrections"][0]["at"]


def test_the_policy_follows_a_change_on_the_waiting_roll_and_is_kept(controller, history, reader, clock):
    controller.arm("2d6")
    settle(controller, clock, reader.frame(die(3, "red", principal=True), die(None, "white", 300, **COCKED)))
    assert controller.update_settings(cocked_dice="accept_leaning")["cocked_dice"] == "accept_leaning"
    assert controller.state()["prompt"] == "die 2 (white) leans: enter its top face"
    again = Controller(build_presets(), history, **fakes(reader), clock=clock)  # a restart
    assert again.settings()["cocked_dice"] == "accept_leaning"
    with pytest.raises(ValueError, match="cocked_dice must be one of rethrow_die, rethrow_set, accept_leaning"):
        controller.update_settings(cocked_dice="lean")
    assert controller.settings()["cocked_dice"] == "accept_leaning"


def test_the_config_key_and_its_default(history, reader, clock):
    assert config_from_dict({}).cocked_dice == "rethrow_die"
    config = config_from_dict({"cocked_dice": "rethrow_set"})
    controller = Controller(build_presets(), history, **fakes(reader), clock=clock, cocked_dice=config.cocked_dice)
    assert controller.settings()["cocked_dice"] == "rethrow_set"
    with pytest.raises(ConfigError, match="cocked_dice must be one of rethrow_die, rethrow_set, accept_leaning"):
        config_from_dict({"cocked_dice": "tilt"})


# --- a fight's tray steps (device/combat/ through device/tray/) -------------------------

def _fight(tmp_path, reader, clock, policy):
    session = CombatSession(tmp_path / "fight", numbered_reader=reader.numbered, clock=clock,
                            cocked_dice=lambda: policy)
    session.add_hero("Brann")
    session.add_enemy("Saqueador")
    session.roll_initiative({"Brann": 5, "Saqueador": 4})
    session.start_attack("Brann", "Saqueador")
    session.read_tray("attack")
    return session


def _throw(fight, reader, clock, *dice):
    assert fight.on_settled(reader.frame(*dice), clock.tick())
    return fight.state()


def test_a_fight_step_with_a_cocked_die_under_each_policy(tmp_path, reader, clock):
    d8, cocked_d20 = numbered(7, "d8"), numbered(None, "d20", x=300, **COCKED)
    fight = _fight(tmp_path / "die", reader, clock, "rethrow_die")
    assert _throw(fight, reader, clock, d8, cocked_d20)["tray"]["problem"]["text"] == "the d20: it is cocked — throw it again"
    state = _throw(fight, reader, clock, d8, numbered(14, "d20", x=200, y=300))  # the d8 stays: it counts
    assert (state["attack"]["attack"]["natural"], state["attack"]["attack"]["destiny"]) == (7, 14)

    fight = _fight(tmp_path / "set", reader, clock, "rethrow_set")
    problem = _throw(fight, reader, clock, d8, cocked_d20)["tray"]["problem"]
    assert problem["code"] == "void" and problem["text"] == "the d20: it is cocked — throw all the dice of this step again"
    problem = _throw(fight, reader, clock, d8, numbered(14, "d20", x=200, y=300))["tray"]["problem"]
    assert problem["code"] == "unmoved"
    assert problem["text"] == "1 of the voided throw's dice did not move: throw all the dice of this step again"
    assert fight.state()["attack"]["attack"]["natural"] is None
    state = _throw(fight, reader, clock, numbered(7, "d8", x=400, y=300), numbered(14, "d20", x=200, y=300))
    assert state["tray"]["problem"] is None and state["attack"]["attack"]["natural"] == 7

    fight = _fight(tmp_path / "lean", reader, clock, "accept_leaning")
    problem = _throw(fight, reader, clock, d8, cocked_d20)["tray"]["problem"]
    assert problem["code"] == "leaning" and problem["text"] == "the d20 leans: enter its top face"
    assert problem["values"] == [7, None] and fight.state()["attack"]["attack"]["natural"] is None
    with pytest.raises(InvalidStep, match="a d20 shows 1 to 20"):
        fight.enter_top_face(21)
    state = fight.enter_top_face(14)
    assert (state["attack"]["attack"]["natural"], state["attack"]["attack"]["destiny"]) == (7, 14)
    assert state["attack"]["sources"] == {"attack": "corrected"} and state["tray"]["problem"] is None
    with pytest.raises(InvalidStep, match="no die of the tray leans"):
        fight.enter_top_face(3)


def test_an_initiative_die_that_leans_is_entered_by_hand(tmp_path, reader, clock):
    fight = CombatSession(tmp_path, numbered_reader=reader.numbered, clock=clock, cocked_dice=lambda: "accept_leaning")
    fight.add_hero("Brann")
    fight.read_tray("initiative", "Brann")
    assert _throw(fight, reader, clock, numbered(None, "d6", **COCKED))["tray"]["problem"]["code"] == "leaning"
    assert fight.enter_top_face(4)["tray"] == {"waiting": None, "problem": None, "initiative": {"Brann": 4}, "tapped": {}}


@pytest.mark.slow
def test_read_says_a_leaning_die_is_not_read_and_the_table_enters_its_top_face():
    from .cli_run import dicelens

    shown = " ".join(dicelens("read", "--help").stdout.split())
    assert 'has value null and unreadable "cocked"' in shown
    assert "cannot tell a die leaning on the wall with a plain top face from one cocked on another die" in shown
    assert 'cocked_dice = "accept_leaning" in the config (RULES T-5), the page asks the table for that die\'s top face' in shown


def test_rethrow_set_chosen_while_a_cocked_die_waits_voids_that_throw(controller, reader, clock):
    controller.arm("2d6")
    settle(controller, clock, reader.frame(die(3, "red", principal=True), die(None, "white", 300, **COCKED)))
    controller.update_settings(cocked_dice="rethrow_set")
    assert controller.state()["prompt"] == "die 2 (white): it is cocked — throw all 2 dice of this throw again"
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(4, "white", 250, 300)))
    assert state["prompt"] == "1 die of the voided throw did not move: throw all 2 again"
    controller.update_settings(cocked_dice="rethrow_die")  # back: the red die that lies there counts again
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True), die(5, "white", 100, 300)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 8
