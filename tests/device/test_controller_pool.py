"""The pool preset read from the tray: its d10s by the numbered reader (fakes), the reroll
of the 10s read from the next throw, dice of another kind named; one real photo."""

from __future__ import annotations

import cv2
import pytest

import rules
from device.controller import Controller
from device.history import History
from device.presets import build_presets
from rules.pool import PoolSpec

from .controller_fakes import Clock, annotate, die, numbered, settle


def pool(*values, kinds=None, y=100):
    """d10s in a row, 100 px apart; ``kinds`` replaces some: {position: kind}."""
    kinds = kinds or {}
    return [numbered(v, kinds.get(i, "d10"), x=100 * i, y=y) for i, v in enumerate(values)]


def test_pool_read_from_the_tray_with_its_10s_rerolled_from_the_next_throw(controller, reader, clock):
    state = controller.arm("pool5", roller="bo")
    assert state["state"] == "armed"
    first = pool(10, 10, 3, 7, 1)
    first[0].principal = True  # vision marks a die of a lone colour: a pool has no principal die
    state = settle(controller, clock, reader.frame(*first))
    assert state["state"] == "prompting" and state["needs"] == {
        "count": 2, "sides": 10, "kind": "d10", "reason": "reroll your 10s: 2 more dice"}
    assert state["prompt"] == "reroll your 10s: 2 more dice"
    # the 3, 7 and 1 lie where they lay; the two 10s are thrown again and land elsewhere
    state = settle(controller, clock, reader.frame(*first[2:], numbered(9, x=600, y=300),
                                                   numbered(6, x=700, y=300)))
    roll = state["latest_roll"]
    expected = rules.resolve(PoolSpec(size=5), [[10, 10, 3, 7, 1], [9, 6]])
    assert state["state"] == "resolved" and roll["result"] == expected.to_dict()
    assert roll["successes"] == expected.successes and roll["roller"] == "bo"
    assert [d["natural"] for d in roll["dice"]] == [10, 10, 3, 7, 1, 9, 6]
    assert [d["step"] for d in roll["dice"]] == [0] * 5 + [1, 1]
    assert {d["source"] for d in roll["dice"]} == {"camera"}
    assert not any(d["principal"] for d in roll["dice"])
    assert reader.used == ["numbered", "numbered"] and len(roll["readings"]) == 2


def test_six_sided_presets_keep_the_pip_reader(controller, reader, clock):
    controller.arm("1d6")
    assert settle(controller, clock, reader.frame(die(4, "red")))["latest_roll"]["total"] == 4
    controller.arm("pool5")
    settle(controller, clock, reader.frame(*pool(2, 3, 4, 5, 6)))
    controller.arm("2d6")
    settle(controller, clock, reader.frame(die(4, "red", principal=True), die(2, x=300)))
    assert reader.used == ["pips", "numbered", "pips"]


@pytest.mark.parametrize("kinds, prompt", [
    ({4: "d8"}, "a d8 is in the tray: throw only d10s"),
    ({3: "d8", 4: "d6-pips"}, "a d8 and a pip d6 are in the tray: throw only d10s"),
    ({0: "d6-pips", 4: "d6-pips"}, "2 pip d6s are in the tray: throw only d10s"),
    ({4: "d10-percentile"}, "a percentile d10 is in the tray: throw only d10s"),
    ({1: "d12", 2: "d20", 3: "d6"}, "a d12, a d20 and a numbered d6 are in the tray: throw only d10s"),
])
def test_a_die_of_another_kind_is_named_and_the_throw_is_not_used(controller, reader, clock, kinds, prompt):
    controller.arm("pool5")
    state = settle(controller, clock, reader.frame(*pool(2, 3, 4, 5, 6, kinds=kinds)))
    roll = state["latest_roll"]
    assert state["state"] == "prompting" and state["prompt"] == prompt
    assert roll["dice"] == [] and roll["readings"][-1]["problem"] == prompt and roll["photo"]
    # the stray die is swapped for a d10 and the pool thrown again
    state = settle(controller, clock, reader.frame(*pool(2, 3, 4, 5, 6, y=300)))
    roll = state["latest_roll"]
    assert state["state"] == "resolved" and [d["natural"] for d in roll["dice"]] == [2, 3, 4, 5, 6]
    assert roll["result"] == rules.resolve(PoolSpec(size=5), [[2, 3, 4, 5, 6]]).to_dict()


def test_a_die_of_another_kind_thrown_for_the_reroll_is_named(controller, reader, clock):
    controller.arm("pool5")
    first = pool(10, 3, 7, 1, 2)
    settle(controller, clock, reader.frame(*first))
    state = settle(controller, clock, reader.frame(*first[1:], numbered(5, "d8", x=600, y=300)))
    assert state["state"] == "prompting" and state["prompt"] == "a d8 is in the tray: throw only d10s"
    assert state["needs"]["count"] == 1
    state = settle(controller, clock, reader.frame(*first[1:], numbered(5, x=600, y=400)))
    roll = state["latest_roll"]
    assert state["state"] == "resolved" and [d["natural"] for d in roll["dice"]] == [10, 3, 7, 1, 2, 5]
    assert roll["result"] == rules.resolve(PoolSpec(size=5), [[10, 3, 7, 1, 2], [5]]).to_dict()


def test_an_unreadable_d10_is_named_then_corrected_on_the_page(controller, reader, clock):
    controller.arm("pool5")
    dice = pool(8, 3, None, 1, 2)
    dice[2].unreadable = "ambiguous numeral"
    state = settle(controller, clock, reader.frame(*dice))
    assert state["state"] == "prompting" and state["prompt"] == (
        "die 3 (blue): its numeral is ambiguous — throw it again or correct it on the page")
    roll = controller.correct(state["latest_roll"]["id"], 2, value=0, who="bo")  # a printed 0 is 10
    assert roll["dice"][2]["natural"] == 10 and controller.state()["needs"]["count"] == 1


@pytest.mark.slow
def test_the_real_numbered_reader_names_the_d8s_and_d6s_among_the_d10s(tmp_path, real_photos):
    """A held-out photo (tools/numerals_data.py) of 4 d10s, 2 d8s, 2 numbered and 2 pip d6s:
    what is reliable today is the kind (d10 or not), not the numerals."""
    source, name = "real-polyhedral/banachowicz-mixed-d10", "20211121_173743.jpg"
    labels = real_photos.labels(source)[name]
    clock = Clock()
    with History(tmp_path) as history:
        controller = Controller(build_presets(), history, annotate=annotate, clock=clock)
        controller.arm("pool5")
        state = settle(controller, clock, cv2.imread(str(real_photos.photo(source, name))))
    roll = state["latest_roll"]
    assert state["state"] == "prompting" and roll["dice"] == []
    listing, _, wanted = state["prompt"].partition(" are in the tray: ")
    assert wanted == "throw only d10s"
    named = {item.split(" ", 1)[1].removesuffix("s") for item in listing.replace(" and ", ", ").split(", ")}
    assert named and named <= {"d8", "pip d6", "numbered d6"}, state["prompt"]
    read = roll["readings"][0]["dice"]
    for seen in read:  # each die read lies in a labelled die of its kind (d10 or not)
        x0, y0, x1, y1 = seen["box"]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        label = next(d for d in labels["dice"] if d["box"][0] <= cx <= d["box"][2] and d["box"][1] <= cy <= d["box"][3])
        assert (seen["kind"] == "d10") == (label["kind"] == "d10"), (seen, label)
    assert sum(seen["kind"] == "d10" for seen in read) >= 3


def test_a_reroll_a_correction_made_surplus_counts_again_when_the_10_is_back(controller):
    controller.arm("pool5")
    controller.enter_dice([10, 1, 7, 3, 8])
    roll = controller.enter_dice([9])["latest_roll"]            # the 10's reroll: a success
    assert roll["successes"] == 4                               # RULES P-3: 10, 7, 8 and the reroll's 9
    roll = controller.correct(roll["id"], 0, value=9)           # it was a 9: no reroll, the 1 cancels one
    assert roll["complete"] and roll["successes"] == 2 and roll["dice"][5].get("surplus") and controller.state()["state"] == "resolved"
    roll = controller.correct(roll["id"], 0, value=0)           # a 10 after all (0 is 10): its reroll is back
    assert roll["complete"] and roll["successes"] == 4 and not roll["dice"][5].get("surplus")
    assert roll["dice"][5]["natural"] == 9


def two_tens_rerolled(controller):
    """pool5 by hand: 10, 10, 2, 3, 4, then the two 10s rerolled 5, 6 (RULES P-3: 3 successes)."""
    controller.arm("pool5")
    controller.enter_dice([10, 10, 2, 3, 4])
    roll = controller.enter_dice([5, 6])["latest_roll"]
    assert roll["complete"] and roll["successes"] == 3
    return roll


def counted(roll):
    """(natural, surplus) of the reroll dice."""
    return [(d["natural"], bool(d.get("surplus"))) for d in roll["dice"] if d["step"] > 0]


@pytest.mark.parametrize("past", [False, True], ids=["current roll", "past roll"])
def test_one_of_two_10s_corrected_keeps_the_extra_reroll_die_aside_and_back(controller, past):
    roll = two_tens_rerolled(controller)
    if past:
        controller.arm("pool5")
        controller.enter_dice([2, 3, 4, 5, 6])
    roll = controller.correct(roll["id"], 0, value=4)           # one 10 left: one reroll die counts
    assert roll["complete"] and roll["successes"] == 1          # the 10; the reroll's 5 is no success
    assert counted(roll) == [(5, False), (6, True)]
    surplus = roll["dice"][6]
    assert surplus["role"] is None and surplus["value"] is None
    assert controller.state()["state"] == "resolved" and controller.state()["needs"] is None
    roll = controller.correct(roll["id"], 0, value=10)          # a 10 after all: the 6 counts again
    assert roll["complete"] and roll["successes"] == 3 and counted(roll) == [(5, False), (6, False)]
    assert controller.roll(roll["id"])["successes"] == 3


def test_a_10_added_to_the_current_roll_takes_the_surplus_die_then_asks_for_one(controller):
    roll = two_tens_rerolled(controller)
    roll = controller.correct(roll["id"], 0, value=4)           # the 6 kept aside
    assert roll["complete"] and controller.state()["state"] == "resolved"
    roll = controller.correct(roll["id"], 2, value=10)          # two 10s again: the 6 counts again
    assert roll["complete"] and roll["successes"] == 3 and counted(roll) == [(5, False), (6, False)]
    roll = controller.correct(roll["id"], 3, value=10)          # three 10s, two reroll dice
    state = controller.state()
    assert not roll["complete"] and state["state"] == "prompting" and state["needs"]["count"] == 1
    with pytest.raises(ValueError, match="1 die needed here, got 2"):
        controller.enter_dice([7, 8])
    roll = controller.enter_dice([7])["latest_roll"]            # as many as needs says
    assert roll["complete"] and roll["successes"] == 5 and controller.state()["state"] == "resolved"


def test_a_reroll_throw_with_a_cocked_die_is_thrown_again_with_as_many_dice_as_needs_says(controller):
    roll = two_tens_rerolled(controller)
    roll = controller.correct(roll["id"], 5, cocked=True)       # the reroll's 5 was cocked
    roll = controller.correct(roll["id"], 0, value=4)           # one 10 left: one reroll die, still cocked
    state = controller.state()
    assert state["state"] == "prompting" and state["needs"]["count"] == 1 and "cocked" in state["prompt"]
    roll = controller.enter_dice([7])["latest_roll"]
    assert roll["complete"] and roll["successes"] == 2 and counted(roll) == [(7, False)]


def test_a_10_added_to_a_past_roll_takes_the_surplus_die_then_is_refused(controller):
    roll = two_tens_rerolled(controller)
    controller.arm("pool5")
    controller.enter_dice([2, 3, 4, 5, 6])
    controller.correct(roll["id"], 0, value=4)
    roll = controller.correct(roll["id"], 2, value=10)
    assert roll["complete"] and roll["successes"] == 3 and counted(roll) == [(5, False), (6, False)]
    with pytest.raises(ValueError, match="would leave it waiting"):
        controller.correct(roll["id"], 3, value=10)
    assert controller.roll(roll["id"])["successes"] == 3
