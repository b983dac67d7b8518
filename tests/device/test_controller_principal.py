"""After a change of principal die or a correction, every die's ``principal`` flag and
``role`` agree and the roll is resolved as if it had been thrown that way (RULES D6-2..D6-4)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.controller import Controller
from device.history import History
from device.presets import build_presets

from .controller_fakes import Clock, FakeReader, die, fakes, settle

COCKED = None


@contextmanager
def playing(folder):
    """A controller with a real history in ``folder`` and a fake reader; yields (controller, settle)
    with ``settle(*dice)`` handing it a settled frame of those dice and returning the state."""
    reader, clock = FakeReader(), Clock()
    with History(folder) as history:
        controller = Controller(build_presets(), history, **fakes(reader), clock=clock)

        def settle(*dice):
            controller.on_settled(reader.frame(*dice), clock.tick())
            return controller.state()
        yield controller, settle


def assert_roles_agree(roll):
    """RULES D6-2: the die flagged principal is the one whose role is principal, and no other."""
    for d in roll["dice"]:
        assert d["principal"] == (d["role"] == "principal"), roll["dice"]
    if roll["complete"]:
        assert sum(d["role"] == "principal" for d in roll["dice"]) == 1


def counted(roll):
    """What the rules made of the dice: (natural, role, value) of each counted one (surplus
    throws kept aside left out), in any order, and the totals."""
    return (sorted((d["natural"], d["role"], d["value"]) for d in roll["dice"] if not d.get("surplus")),
            roll["total"], roll["perfect"], roll["complete"])


def by_hand(tmp_path, first, *extras):
    """The same 2D6 entered by hand, principal die first, from the start."""
    with playing(tmp_path / "by-hand") as (controller, _):
        controller.arm("2d6")
        state = controller.enter_dice(list(first))
        for extra in extras:
            state = controller.enter_dice([extra])
        return state["latest_roll"]


def test_new_principal_on_a_perfect_roll_whose_extra_die_is_cocked(tmp_path):
    """The reported fault: red 6 was taken as principal, its extra die landed cocked; the
    player taps the white 4 as principal: no perfect roll, the cocked extra no longer counts."""
    with playing(tmp_path / "table") as (controller, settle):
        controller.arm("2d6")
        settle(die(6, "red", 100, 100, principal=True), die(4, "white", 300, 100))
        state = settle(die(4, "white", 300, 100),
                       die(COCKED, "red", 150, 400, unreadable="cocked"))
        assert state["prompt"].startswith("die 3 (red): it is cocked")
        roll = controller.set_principal(state["latest_roll"]["id"], 1, who="ana")
        assert_roles_agree(roll)
        assert [(d["principal"], d["role"]) for d in roll["dice"]] == [(False, "secondary"), (True, "principal"),
                                                                       (False, None)]
        assert counted(roll) == counted(by_hand(tmp_path, (4, 6))) and roll["total"] == 10
        assert roll["note"] == ("dice after die 2 no longer count after the correction (kept, they count "
                                "again if a correction asks for dice)")
        assert roll["dice"][2]["surplus"] and roll["dice"][2]["role"] is None
        assert controller.state()["state"] == "resolved" and controller.state()["prompt"] is None
        assert counted(controller.roll(roll["id"])) == counted(roll)


def test_new_principal_on_a_cocked_die_waits_for_its_face_then_resolves(tmp_path):
    with playing(tmp_path / "table") as (controller, settle):
        controller.arm("2d6")
        state = settle(die(3, "red", 100, 100, principal=True),
                       die(COCKED, "white", 300, 100, unreadable="cocked"))
        roll = controller.set_principal(state["latest_roll"]["id"], 1)
        assert_roles_agree(roll)
        assert [d["role"] for d in roll["dice"]] == ["secondary", "principal"]
        assert not roll["complete"] and roll["total"] is None
        assert controller.state()["prompt"].startswith("die 2 (white): it is cocked")
        roll = controller.correct(roll["id"], 1, value=6)
        assert_roles_agree(roll)
        assert counted(roll) == counted(by_hand(tmp_path, (6, 3)))
        assert controller.state()["needs"]["kind"] == "D3"


def test_new_principal_on_a_finished_roll_of_the_history(tmp_path):
    with playing(tmp_path / "table") as (controller, settle):
        controller.arm("2d6")
        settle(die(6, "red", 100, 100, principal=True), die(4, "white", 300, 100))
        old = settle(die(4, "white", 300, 100), die(2, "red", 150, 400))["latest_roll"]
        assert old["complete"] and old["total"] == 6 + 4 + 1
        controller.arm("1d6")
        settle(die(5, "red", 400, 400, principal=True))
        roll = controller.set_principal(old["id"], 1)
        assert_roles_agree(roll)
        assert counted(roll) == counted(by_hand(tmp_path, (4, 6)))
        back = controller.set_principal(old["id"], 0)
        assert_roles_agree(back)
        assert counted(back) == counted(old) and back["note"] is None  # its extra die, kept aside, counts again


def test_correcting_the_principal_die_makes_a_cocked_extra_die_surplus(tmp_path):
    with playing(tmp_path / "table") as (controller, settle):
        controller.arm("2d6")
        settle(die(6, "red", 100, 100, principal=True), die(4, "white", 300, 100))
        state = settle(die(4, "white", 300, 100),
                       die(COCKED, "red", 150, 400, unreadable="cocked"))
        roll = controller.correct(state["latest_roll"]["id"], 0, value=3)
        assert_roles_agree(roll)
        assert counted(roll) == counted(by_hand(tmp_path, (3, 4))) and roll["total"] == 7
        assert controller.state()["state"] == "resolved"


def test_a_die_corrected_to_cocked_keeps_no_stale_value(tmp_path):
    with playing(tmp_path / "table") as (controller, settle):
        controller.arm("2d6")
        roll = settle(die(3, "red", 100, 100, principal=True),
                      die(4, "white", 300, 100))["latest_roll"]
        roll = controller.correct(roll["id"], 0, cocked=True)
        assert_roles_agree(roll)
        assert [(d["role"], d["value"]) for d in roll["dice"]] == [("principal", None), ("secondary", None)]
        assert roll["total"] is None and not roll["complete"]


FACES = st.one_of(st.integers(1, 6), st.none())


@settings(max_examples=40, deadline=None)
@given(first=st.tuples(FACES, FACES), extras=st.lists(FACES, max_size=3),
       edits=st.lists(st.one_of(st.tuples(st.just("principal"), st.integers(0, 1)),
                                st.tuples(st.just("correct"), st.integers(0, 4), FACES)),
                      min_size=1, max_size=4))
@pytest.mark.slow
def test_any_edits_leave_roles_agreeing_and_the_rules_result(tmp_path_factory, first, extras, edits):
    """Whatever was thrown (cocked dice included) and edited, the roll is the one the same
    faces give entered by hand with the principal die first."""
    with playing(tmp_path_factory.mktemp("edits")) as (controller, _):
        play_and_edit(controller, tmp_path_factory, first, extras, edits)


def play_and_edit(controller, tmp_path_factory, first, extras, edits):
    controller.arm("2d6")
    roll = controller.enter_dice([v or 1 for v in first])
    roll_id = roll["latest_roll"]["id"]
    for i, value in enumerate(first):
        if value is None:
            controller.correct(roll_id, i, cocked=True)
    for value in extras:
        if controller.state()["state"] != "prompting" or controller.state()["needs"] is None:
            break
        if value is None:
            controller.enter_dice([1])
            controller.correct(roll_id, len(controller.roll(roll_id)["dice"]) - 1, cocked=True)
            break
        controller.enter_dice([value])
    for edit in edits:
        dice = controller.roll(roll_id)["dice"]
        if edit[0] == "principal" and dice[edit[1]]["principal"] or edit[0] == "correct" and edit[1] < len(dice) and (
                dice[edit[1]]["natural"] == edit[2] and (edit[2] is not None or dice[edit[1]]["unreadable"] == "cocked")):
            with pytest.raises(ValueError, match="already"):  # no change: refused, not recorded
                (controller.set_principal(roll_id, edit[1]) if edit[0] == "principal"
                 else controller.correct(roll_id, edit[1], value=edit[2], cocked=edit[2] is None))
            continue
        if edit[0] == "principal":
            roll = controller.set_principal(roll_id, edit[1])
        elif edit[1] < len(dice):
            value = edit[2]
            roll = (controller.correct(roll_id, edit[1], cocked=True) if value is None
                    else controller.correct(roll_id, edit[1], value=value))
        else:
            continue
        assert_roles_agree(roll)
        if roll["complete"]:
            principal = next(d for d in roll["dice"] if d["role"] == "principal")
            secondary = [d for d in roll["dice"] if d["role"] == "secondary"]
            extra = [d["natural"] for d in roll["dice"] if d["role"] == "extra" and not d.get("surplus")]
            again = by_hand(tmp_path_factory.mktemp("again"),
                            [principal["natural"]] + [d["natural"] for d in secondary], *extra)
            assert counted(again) == counted(roll)


def test_a_throw_while_the_tap_is_asked_for_says_it_replaced_the_dice(controller, reader, clock):
    # (issue 19 trial) a new throw during "which die is the principal?" is not read silently
    controller.arm("free")
    state = settle(controller, clock, reader.frame(die(2, x=100), die(6, x=300)))
    assert state["prompt"].startswith("no principal die found")
    state = settle(controller, clock, reader.frame(die(4, x=150, y=300), die(5, x=400, y=300)))
    assert state["state"] == "prompting"
    assert state["prompt"] == "a new throw was read: no principal die found: tap the principal die on the page"
    assert [d["natural"] for d in state["latest_roll"]["dice"]] == [4, 5]
