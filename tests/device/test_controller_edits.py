"""The roll controller's corrections, settings and history, with a real history and rules and a
fake reader (frames → readings); the rolls themselves are in test_controller.py."""

from __future__ import annotations

import pytest

from device.controller import Controller
from device.errors import RollFinished, RollNeedsDice, RollNotFound
from device.presets import build_presets

from .controller_fakes import die, fakes, settle


def test_correcting_a_cocked_die_on_the_page(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(3, "red", principal=True),
                                                   die(None, "white", 300, 100, unreadable="cocked")))
    pending = state["latest_roll"]
    roll = controller.correct(pending["id"], 1, value=4, who="gm")
    assert roll["complete"] and roll["total"] == 7 and roll["seq"] > pending["seq"]
    assert roll["corrections"][0]["from"] is None and roll["corrections"][0]["to"] == 4
    assert roll["corrections"][0]["who"] == "gm" and roll["corrections"][0]["at"]
    assert roll["dice"][1]["corrected"] and controller.state()["state"] == "resolved"


def test_correction_of_an_old_roll_re_resolves_and_keeps_surplus_dice_aside(controller):
    controller.arm("2d6")
    controller.enter_dice([6, 4])
    chained = controller.enter_dice([2])["latest_roll"]
    controller.arm("1d6")
    controller.enter_dice([3])
    roll = controller.correct(chained["id"], 0, value=5, who="gm")
    assert roll["total"] == 9 and not roll["perfect"] and roll["complete"]
    assert [(d["natural"], d["role"], d["value"], d.get("surplus", False)) for d in roll["dice"]] == [
        (5, "principal", 5, False), (4, "secondary", 4, False), (2, None, None, True)]
    assert "no longer count" in roll["note"]
    assert [r["id"] for r in controller.rolls_since(chained["seq"])][-1] == chained["id"]
    # RULES D6-4: a 6 again takes the extra die kept aside back
    roll = controller.correct(chained["id"], 0, value=6, who="gm")
    assert roll["complete"] and roll["perfect"] and roll["total"] == 6 + 4 + 1 and roll["note"] is None
    assert not any(d.get("surplus") for d in roll["dice"]) and roll["dice"][2]["role"] == "extra"
    with pytest.raises(RollNotFound):
        controller.correct(999, 0, value=1)
    with pytest.raises(ValueError):
        controller.correct(chained["id"], 0, value=9)
    with pytest.raises(ValueError):
        controller.correct(chained["id"], 0)


def test_correcting_the_latest_roll_to_a_six_asks_for_the_extra_die(controller, reader, clock):
    controller.arm("1d6")
    roll = settle(controller, clock, reader.frame(die(5, "red")))["latest_roll"]
    assert roll["complete"]
    roll = controller.correct(roll["id"], 0, value=6)
    state = controller.state()
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    state = settle(controller, clock, reader.frame(die(6, "red", 200, 300), die(1, "red", 400, 50)))
    assert state["state"] == "prompting"  # two dice moved, one asked for: no guess
    state = settle(controller, clock, reader.frame(die(3, "red", 200, 300)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 6 + 2


def test_settings_are_checked_and_kept(history, reader, clock, tmp_path):
    controller = Controller(build_presets(), history, **fakes(reader), clock=clock)
    assert controller.settings()["principal_color"] == "red"
    with pytest.raises(ValueError):
        controller.update_settings(principal_color="mauve")
    with pytest.raises(ValueError):
        controller.update_settings(volume=11)
    with pytest.raises(ValueError):
        controller.update_settings(presets=[{"name": "x", "system": "d6", "count": 0}])
    presets = controller.presets()[:2] + [{"name": "3d6+1", "system": "d6", "count": 3, "modifier": 1}]
    controller.update_settings(principal_color="gold", presets=presets, pin="hash")
    again = Controller(build_presets(), history, **fakes(reader), clock=clock)
    assert again.settings()["principal_color"] == "gold" and again.settings()["pin"] == "hash"
    assert [p["name"] for p in again.presets()] == ["free", "1d6", "3d6+1"]
    assert again.presets()[2]["label"] == "3D6+1"
    again.arm("3d6+1")
    settle(again, clock, reader.frame(die(1, "gold", 0, principal=True), die(2, x=200), die(3, x=400)))
    assert again.state()["latest_roll"]["total"] == 7 and reader.colors[-1] == "gold"
    again.update_settings(presets=None)
    assert len(again.presets()) == 7
    before = again.presets()
    assert again.update_settings(presets=before)["presets"] == before  # what the page sends back


def test_clear_history(controller):
    controller.arm("1d6")
    controller.enter_dice([4])
    controller.clear_history()
    assert controller.rolls() == [] and controller.state()["latest_roll"] is None


def test_a_correction_that_would_leave_a_past_roll_waiting_for_dice_is_refused(controller):
    controller.arm("2d6")
    old = controller.enter_dice([3, 6])["latest_roll"]
    controller.arm("1d6")
    controller.enter_dice([2])
    refused = f"roll {old['id']} is finished and can take no more dice"
    with pytest.raises(RollNeedsDice, match=refused):   # a perfect roll needs its extra die
        controller.correct(old["id"], 0, value=6)
    with pytest.raises(RollFinished, match=refused):    # a cocked die a throw: not a value, a state
        controller.correct(old["id"], 0, cocked=True)
    with pytest.raises(ValueError, match=refused + r".*Rolagem Perfeita"):
        controller.set_principal(old["id"], 1)   # the 6 as principal die: a perfect roll too
    assert controller.roll(old["id"]) == old   # nothing saved
    assert controller.correct(old["id"], 0, value=5)["total"] == 11   # a change that completes it is taken


def test_the_current_roll_keeps_its_extra_die_through_a_correction_6_3_6(controller):
    controller.arm("2d6")
    controller.enter_dice([6, 4])
    roll = controller.enter_dice([5])["latest_roll"]
    assert roll["total"] == 6 + 4 + 3
    roll = controller.correct(roll["id"], 0, value=3)
    assert roll["complete"] and roll["total"] == 7 and controller.state()["state"] == "resolved"
    roll = controller.correct(roll["id"], 0, value=6)
    assert roll["complete"] and roll["total"] == 6 + 4 + 3 and [d["role"] for d in roll["dice"]] == [
        "principal", "secondary", "extra"]
    assert controller.state()["state"] == "resolved" and controller.state()["needs"] is None


def test_no_op_corrections_are_refused_and_not_recorded(controller):
    controller.arm("2d6")
    roll = controller.enter_dice([3, 4])["latest_roll"]
    with pytest.raises(ValueError, match="die 1 is already the principal die"):
        controller.set_principal(roll["id"], 0)
    with pytest.raises(ValueError, match="die 2 already shows 4"):
        controller.correct(roll["id"], 1, value=4)
    controller.correct(roll["id"], 1, cocked=True)
    # a die entered by hand has no colour: the prompt names none (it said "die 2 (no colour)")
    assert controller.state()["prompt"] == "die 2: it is cocked — throw it again or correct it on the page"
    with pytest.raises(ValueError, match="die 2 already shows cocked"):
        controller.correct(roll["id"], 1, cocked=True)
    assert [c["to"] for c in controller.roll(roll["id"])["corrections"]] == ["cocked"]


def test_face_errors_name_the_faces_the_dice_show(controller):
    controller.arm("pool5")
    with pytest.raises(ValueError, match=r"each die must show 0 to 10 \(0 is 10\)"):
        controller.enter_dice([11, 1, 1, 1, 1])
    roll = controller.enter_dice([0, 1, 2, 3, 4])["latest_roll"]
    with pytest.raises(ValueError, match=r"a die of this roll shows 0 to 10 \(0 is 10\)"):
        controller.correct(roll["id"], 1, value=11)


def test_house_rules_set_on_the_page_apply_to_every_pool_preset_and_are_kept(controller, history, reader, clock):
    # RULES P-5b: the config's house rules until the settings page changes them
    settings = controller.update_settings(house_rules={"rule_of_ten": False})
    assert settings["house_rules"] == {"rule_of_ten": False, "rule_of_one": True, "target_number": 6}
    pool = next(p for p in controller.presets() if p["name"] == "pool5")
    assert pool["spec"]["options"]["rule_of_ten"] is False and pool["label"].endswith("no rule of ten")
    controller.arm("pool5")
    assert controller.enter_dice([10, 10, 3, 4, 5])["state"] == "resolved"  # no reroll of the 10s
    again = Controller(build_presets(), history, **fakes(reader), clock=clock)  # a restart
    assert again.settings()["house_rules"]["rule_of_ten"] is False
    with pytest.raises(ValueError, match="target_number must be 2 to 10"):
        controller.update_settings(house_rules={"target_number": 11})
    with pytest.raises(ValueError, match="house_rules takes"):
        controller.update_settings(house_rules={"rule_of_two": True})
