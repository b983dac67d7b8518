"""The teaching round (device/teach_round.py, issue 17 item 2) through the real controller:
each throw read without rules and held, a die's value fixed, the throw confirmed as examples
of the data folder, and back to the preset armed before."""

from __future__ import annotations

import sqlite3

import pytest

from device import teach_round
from device.adapting import Refitter
from device.controller import Controller
from device.errors import CameraUnavailable, SaveFailed
from device.examples import Examples
from device.presets import build_presets
from tests.device.controller_fakes import die, fakes, numbered
from tests.device.test_examples_from_page import FitSpy


@pytest.fixture
def ctl(history, reader, clock):
    controller = Controller(build_presets(), history, clock=clock, **fakes(reader))
    controller.on_status("ok")  # the camera a round reads
    return controller


def test_a_throw_is_held_fixed_confirmed_and_its_dice_become_examples(ctl, reader, clock, history):
    ctl.arm("2d6", "Nara")
    assert ctl.start_teaching()["on"] is True
    ctl.on_settled(reader.frame(die(3, x=2, y=2, size=20), numbered(7, "d10", x=30, y=10, size=20)), clock.tick())
    state = ctl.teaching()
    assert [(d["kind"], d["read"], d["value"], d["fixed"]) for d in state["dice"]] == \
        [("d6-pips", 3, 3, False), ("d10", 7, 7, False)]
    assert all(d["crop"].startswith("data:image/png;base64,") for d in state["dice"])
    assert reader.used == ["numbered"]                       # every kind's reader, no rules
    assert ctl.state()["state"] == "armed" and history.rolls() == []   # the roll saw nothing

    ctl.on_settled(reader.frame(die(5, x=2, y=2, size=20)), clock.tick())   # one held: not taken,
    assert [d["read"] for d in ctl.teaching()["dice"]] == [3, 7]
    assert ctl.state()["state"] == "armed" and history.rolls() == []         # by the roll neither
    fixed = ctl.fix_taught_die(1, 0)                         # the d10 showed 0: 10 (RULES P-1)
    assert [(d["value"], d["fixed"]) for d in fixed["dice"]] == [(3, False), (10, True)]
    state = ctl.confirm_taught_throw(who="Nara")
    assert state["dice"] == []
    assert state["examples"] == {"d10": {"10": 1}, "d6-pips": {"3": 1}}
    assert state["lacking"] == {"d10": [1, 2, 3, 4, 5, 6, 7, 8, 9], "d6-pips": [1, 2, 4, 5, 6]}
    with Examples.beside(history) as examples:
        taught = examples.export()
    assert [(e["kind"], e["value"], e["origin"], e["who"]) for e in taught] == \
        [("d6-pips", 3, "teaching round", "Nara"), ("d10", 10, "teaching round", "Nara")]
    assert (history.folder / taught[0]["photo"]).is_file()


def test_leaving_returns_to_the_preset_armed_before_and_only_a_later_throw_is_its(ctl, reader, clock, history):
    ctl.arm("2d6")
    ctl.start_teaching()
    settled = clock.tick()                                   # a throw that settled during the round,
    clock.tick()
    ctl.stop_teaching()                                      # handed on after it ended
    assert ctl.teaching()["on"] is False
    ctl.on_settled(reader.frame(die(2, "red", x=2, y=2, size=20, principal=True), die(4, x=30, y=2, size=20)), settled)
    assert ctl.state()["state"] == "armed" and ctl.state()["preset"] == "2d6"
    ctl.on_settled(reader.frame(die(2, "red", x=2, y=2, size=20, principal=True), die(4, x=30, y=2, size=20)), clock.tick())
    assert ctl.state()["state"] == "resolved" and [r["total"] for r in history.rolls()] == [6]


def test_a_throw_with_a_die_unread_waits_for_its_value(ctl, reader, clock):
    ctl.start_teaching()
    ctl.on_settled(reader.frame(die(None, unreadable="blurred", x=2, y=2, size=20)), clock.tick())
    with pytest.raises(ValueError, match="die 1 has no value"):
        ctl.confirm_taught_throw()
    with pytest.raises(ValueError, match="a pip d6 shows 1 to 6"):
        ctl.fix_taught_die(0, 7)
    with pytest.raises(LookupError):
        ctl.fix_taught_die(1, 3)
    ctl.fix_taught_die(0, 6)
    assert ctl.confirm_taught_throw()["examples"] == {"d6-pips": {"6": 1}}


def test_skipping_drops_the_throw_and_the_next_is_read(ctl, reader, clock):
    ctl.start_teaching()
    ctl.on_settled(reader.frame(die(1, x=2, y=2, size=20)), clock.tick())
    assert ctl.skip_taught_throw()["dice"] == []
    ctl.on_settled(reader.frame(die(2, x=2, y=2, size=20)), clock.tick())
    assert [d["read"] for d in ctl.teaching()["dice"]] == [2]
    ctl.stop_teaching()                                      # leaving drops it: nothing to confirm
    with pytest.raises(LookupError):
        ctl.confirm_taught_throw()


def test_a_save_that_fails_keeps_the_throw_and_the_examples_as_they_were(ctl, reader, clock, monkeypatch):
    import device.examples

    def full_disk(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    ctl.start_teaching()
    ctl.on_settled(reader.frame(die(4, x=2, y=2, size=20)), clock.tick())
    monkeypatch.setattr(device.examples, "add_throw", full_disk)
    with pytest.raises(SaveFailed, match="database or disk is full"):
        ctl.confirm_taught_throw()
    state = ctl.teaching()
    assert [d["value"] for d in state["dice"]] == [4] and state["examples"] == {}
    monkeypatch.undo()
    assert ctl.confirm_taught_throw()["examples"] == {"d6-pips": {"4": 1}}


def test_nothing_is_taught_before_the_round_starts(ctl, reader, clock):
    ctl.on_settled(reader.frame(die(1, x=2, y=2, size=20)), clock.tick())
    assert ctl.teaching() == {"on": False, "dice": [], "examples": {}, "lacking": {}, "can_throw": False, "why_not": None}
    with pytest.raises(LookupError):
        ctl.confirm_taught_throw()


def test_a_round_whose_page_stopped_asking_ends_by_itself(ctl, reader, clock, history):
    ctl.arm("2d6")
    ctl.start_teaching()
    clock.tick(59)
    ctl.teaching()                                           # the page asks: still on
    clock.tick(59)
    ctl.on_settled(reader.frame(die(1, x=2, y=2, size=20)), clock.t)
    assert [d["read"] for d in ctl.teaching()["dice"]] == [1]
    ctl.skip_taught_throw()
    clock.tick(61)                                           # nobody asked for a minute: the page is gone
    ctl.on_settled(reader.frame(die(2, "red", x=2, y=2, size=20, principal=True), die(4, x=30, y=2, size=20)),
                   clock.tick())
    assert ctl.teaching()["on"] is False
    assert [r["total"] for r in history.rolls()] == [6]     # the roll took the throw


def test_a_confirmed_throw_refits_the_reader_in_the_background(ctl, reader, clock, history):
    spy = FitSpy()
    ctl._refitter = refitter = Refitter(history.folder, ctl._examples, quiet_seconds=3600, fit=spy)
    ctl.start_teaching()
    ctl.on_settled(reader.frame(die(3, x=2, y=2, size=20), die(5, x=30, y=2, size=20)), clock.tick())
    ctl.confirm_taught_throw()
    assert refitter.settle(timeout=120)
    assert spy.fits == [2]  # the throw's two dice, fitted once
    refitter.close()


def test_the_state_says_the_round_is_on_and_each_change_is_an_event(ctl, reader, clock):
    """The live page words the round from the state (``teaching``), sent as a state event when
    the round starts, stops, and ends by itself (its page gone)."""
    ctl.arm("2d6")
    assert ctl.state()["teaching"] is False
    events = ctl.subscribe()

    def states() -> list[bool]:
        seen = []
        while (event := events.get(timeout=0)) is not None:
            if event.kind == "state":
                seen.append(event.data["teaching"])
        return seen

    ctl.start_teaching()
    assert ctl.state()["teaching"] is True and states() == [True]
    ctl.stop_teaching()
    assert ctl.state()["teaching"] is False and states() == [False]
    ctl.start_teaching()
    clock.tick(61)                                           # nobody asked for a minute
    ctl.on_settled(reader.frame(die(2, "red", x=2, y=2, size=20, principal=True), die(4, x=30, y=2, size=20)),
                   clock.tick())
    assert states()[:2] == [True, False] and ctl.state()["teaching"] is False


def test_a_round_whose_page_is_gone_ends_a_minute_later_though_no_throw_comes(ctl, clock):
    # no page and no throw: reading the state says the round is off once a minute has passed,
    # and the live pages are told
    ctl.arm("2d6")
    ctl.start_teaching()
    events = ctl.subscribe()
    clock.tick(59)
    assert ctl.state()["teaching"] is True                   # the live page's state keeps no round alive
    clock.tick(2)
    assert ctl.state()["teaching"] is False
    event = events.get(timeout=0)
    assert event is not None and event.kind == "state" and event.data["teaching"] is False
    assert ctl.teaching()["on"] is False                     # a teach page back later finds it off


def test_the_watcher_ends_a_round_nobody_asks_about(ctl, clock, monkeypatch):
    monkeypatch.setattr(teach_round, "WATCH_SECONDS", 0.01)
    ctl.start_teaching()
    events = ctl.subscribe()
    clock.tick(61)                                           # nobody asks: no state read, no throw
    event = events.get(timeout=5)
    assert event is not None and event.kind == "state" and event.data["teaching"] is False
    ctl.close()
    assert not ctl.teaching_round._watcher.is_alive()


def test_no_round_starts_while_no_camera_reads_the_tray(ctl):
    """Trial fault 13: a round learns from the camera's throws; with none it would wait for ever."""
    ctl.on_status("no camera", "USB camera 5 could not be opened")
    assert ctl.teaching()["why_not"] == teach_round.NO_CAMERA_TO_TEACH
    with pytest.raises(CameraUnavailable):
        ctl.start_teaching()
    assert ctl.teaching()["on"] is False
