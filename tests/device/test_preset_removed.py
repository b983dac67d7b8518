"""A preset removed or replaced in Settings is armed no more (trial fault 5: after "Restore the
default rolls" a removed preset stayed armed, threw rolls and was armed again after each).
A roll of it under way ends as abandoned, as arming another preset mid-roll does; a finished
one keeps its result."""

from __future__ import annotations

import pytest

LONG = {"name": "longone", "system": "d6", "count": 2, "label": "Long one"}


@pytest.fixture
def with_long(controller):
    controller.update_settings(presets=controller.presets() + [LONG])
    controller.arm("longone", "Ana")
    return controller


def test_restoring_the_default_rolls_disarms_a_removed_preset_and_abandons_its_roll(with_long):
    waiting = with_long.enter_dice([6, 4])["latest_roll"]      # RULES D6-4: a perfect roll asks for a D3
    assert not waiting["complete"] and with_long.state()["state"] != "idle"
    with_long.update_settings(presets=None)
    state = with_long.state()
    assert (state["state"], state["preset"], state["label"], state["roller"], state["needs"]) == \
        ("idle", None, None, None, None)
    roll = with_long.roll(waiting["id"])
    assert roll["finished"] and not roll["complete"]
    assert roll["note"].startswith("abandoned") and "Long one was removed from the rolls" in roll["note"]
    with pytest.raises(RuntimeError):  # nothing is armed: dice by hand wait for a roll
        with_long.enter_dice([3])


def test_a_finished_roll_of_a_removed_preset_keeps_its_result(with_long):
    done = with_long.enter_dice([3, 4])["latest_roll"]
    with_long.update_settings(presets=None)
    assert with_long.state()["preset"] is None
    roll = with_long.roll(done["id"])
    assert (roll["total"], roll["complete"], roll.get("note")) == (7, True, None)


def test_a_preset_replaced_under_its_name_is_disarmed_and_one_left_as_it_was_stays_armed(with_long):
    presets = with_long.presets()
    with_long.update_settings(presets=presets)  # what the page sends back unchanged
    assert with_long.state()["preset"] == "longone"
    with_long.update_settings(presets=[p if p["name"] != "longone" else {**LONG, "count": 3} for p in presets])
    assert with_long.state()["preset"] is None
