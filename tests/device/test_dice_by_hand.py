"""A die nothing read is by hand, not corrected, in the roll's record as the history keeps it
(device/roll/record.py corrects_reading): one a correction added (tapped in where the reader
missed it, entered for a past roll), even once marked the principal die; one entered by hand
whose face a correction then changed is corrected."""

from __future__ import annotations

from .controller_fakes import die, photo, settle


def test_dice_a_past_rolls_correction_adds_are_by_hand_and_its_entered_die_corrected(controller, history):
    controller.arm("2d6")
    controller.enter_dice([6, 3])
    first = controller.enter_dice([2])["latest_roll"]    # RULES D6-4: a perfect roll's extra die, by hand
    controller.arm("2d6")
    controller.enter_dice([2, 3])
    roll = controller.correct(first["id"], 2, value=6, more=[4])  # the extra die a 6: the next one given
    assert [(d["natural"], d["source"], d["corrected"]) for d in roll["dice"]] == [
        (6, "hand", False), (3, "hand", False), (6, "hand", True), (4, "hand", False)]
    assert history.roll(first["id"])["dice"] == roll["dice"]


def test_a_die_tapped_in_stays_by_hand_when_marked_the_principal_die(controller, reader, clock, history):
    controller.arm("free")
    before = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                             die(2, "white", 300, 100)))["latest_roll"]
    controller.add_die(before["id"], 450.0, 300.0, 5)
    roll = controller.set_principal(before["id"], 2)         # RULES D6-2: a role, not a face
    assert [(d["source"], d["principal"], d["corrected"]) for d in roll["dice"]] == [
        ("camera", False, False), ("camera", False, False), ("hand", True, False)]
    roll = controller.correct(before["id"], 0, value=4)      # a reading corrected
    assert [d["corrected"] for d in history.roll(before["id"])["dice"]] == [True, False, False]
