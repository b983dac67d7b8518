"""RULES T-5: the cocked-die policy on a roll's tray reads (throw that die again, throw the
whole set again, or enter a leaning die's top face by hand); never a value from two faces (T-1)."""

from __future__ import annotations

import pytest

from device.config import ConfigError, config_from_dict
from device.controller import Controller
from device.presets import build_presets

from .controller_fakes import die, fakes, settle

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
    assert roll["dice"][1]["source"] == "hand" and roll["dice"][1]["corrected"]
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
