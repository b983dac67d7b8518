"""The roll controller with a real history and rules, and a fake reader (frames → readings)."""

from __future__ import annotations

import threading

import pytest

import rules
from device.controller import Controller, RollStateError
from device.errors import CameraUnavailable, ThrowUnsupported
from device.presets import build_presets
from rules.pool import PoolSpec

from .controller_fakes import die, fakes, settle


def drain(subscription):
    events = []
    while (event := subscription.get(timeout=0)) is not None:
        events.append(event)
    return events


def test_2d6_perfect_roll_that_chains_twice(controller, reader, clock):
    feed = controller.subscribe()
    assert controller.arm("2d6", roller="ana")["state"] == "armed"
    state = settle(controller, clock, reader.frame(die(6, "red", 100, 100, principal=True),
                                                   die(4, "white", 300, 100)))
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    assert "principal die again" in state["prompt"]
    # the white die stays where it was; the red one is thrown again
    state = settle(controller, clock, reader.frame(die(4, "white", 300, 100),
                                                   die(6, "red", 150, 400)))
    assert state["state"] == "prompting" and state["needs"]["count"] == 1
    state = settle(controller, clock, reader.frame(die(4, "white", 300, 100),
                                                   die(2, "red", 420, 260)))
    assert state["state"] == "resolved" and state["prompt"] is None
    roll = state["latest_roll"]
    assert roll["complete"] and roll["finished"] and roll["perfect"]
    assert roll["total"] == 6 + 4 + 3 + 1 and roll["roller"] == "ana"
    assert [(d["natural"], d["role"], d["value"]) for d in roll["dice"]] == [
        (6, "principal", 6), (4, "secondary", 4), (6, "extra", 3), (2, "extra", 1)]
    assert {d["source"] for d in roll["dice"]} == {"camera"}
    assert [r["step"] for r in roll["readings"]] == [0, 1, 2]
    assert controller.roll(roll["id"]) == roll
    assert controller.photo_path(roll["id"]).read_bytes()[:2] == b"\xff\xd8"  # a JPEG
    events = drain(feed)
    states = [e.data["state"] for e in events if e.kind == "state"]
    assert states[:3] == ["armed", "reading", "prompting"] and states[-1] == "resolved"
    roll_events = [e for e in events if e.kind == "roll"]
    assert [e.seq for e in roll_events] == sorted(e.seq for e in roll_events)
    assert roll_events[-1].data["complete"] and roll_events[-1].seq == roll["seq"]
    assert reader.colors == ["red"] * 3


def test_frames_from_before_the_prompt_are_never_used(controller, reader, clock):
    stale_t = clock.t
    controller.arm("1d6")
    controller.on_settled(reader.frame(die(3)), stale_t - 0.5)  # settled before the button
    assert controller.state()["state"] == "armed"
    state = settle(controller, clock, reader.frame(die(6, principal=True)))
    assert state["state"] == "prompting"
    controller.on_settled(reader.frame(die(2, "red", 400, 400)), stale_t)  # before the prompt
    assert controller.state()["state"] == "prompting"
    state = settle(controller, clock, reader.frame(die(5, "red", 400, 400)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 6 + 3


def test_frames_are_ignored_when_idle_or_resolved_but_kept_for_the_colour_picker(controller, reader, clock):
    frame = reader.frame(die(3, "gold"))
    settle(controller, clock, frame)
    assert controller.state()["state"] == "idle"
    image, reading = controller.latest_frame()
    assert image is frame and reading["dice"][0]["color"] == "gold"
    controller.arm("1d6")
    settle(controller, clock, reader.frame(die(4)))
    roll_id = controller.state()["latest_roll"]["id"]
    settle(controller, clock, reader.frame(die(5)))
    assert controller.state()["state"] == "resolved"
    assert controller.state()["latest_roll"]["id"] == roll_id
    assert controller.rolls() == [controller.roll(roll_id)]


def test_one_die_too_many_asks_to_take_it_out(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(5, "red", principal=True),
                                                   die(2, x=300), die(3, x=500)))
    assert state["state"] == "prompting"
    assert state["prompt"] == "3 dice seen, 2D6 takes 2: take 1 die out and throw again"
    state = settle(controller, clock, reader.frame(die(5, "red", principal=True), die(2, x=300)))
    assert state["state"] == "resolved"
    roll = state["latest_roll"]
    assert roll["total"] == 7 and len(roll["readings"]) == 2
    assert roll["readings"][0]["problem"].startswith("3 dice seen")


def test_too_few_dice_and_an_empty_tray_wait_without_guessing(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame())
    assert state["state"] == "armed" and state["prompt"].startswith("no dice seen")
    assert state["latest_roll"] is None
    state = settle(controller, clock, reader.frame(die(5, "red", principal=True)))
    assert state["state"] == "prompting" and "throw all 2 again" in state["prompt"]
    assert state["latest_roll"]["total"] is None and not state["latest_roll"]["complete"]


def test_cocked_die_is_named_and_thrown_again(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(6, "red", principal=True),
                                                   die(None, "white", 300, 100, unreadable="cocked")))
    assert state["state"] == "prompting"
    assert state["prompt"] == "die 2 (white): it is cocked — throw it again or correct it on the page"
    assert state["latest_roll"]["dice"][1]["natural"] is None
    state = settle(controller, clock, reader.frame(die(6, "red", principal=True),
                                                   die(1, "white", 250, 300)))
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    assert [d["natural"] for d in state["latest_roll"]["dice"]] == [6, 1]


def test_no_principal_die_asks_for_a_tap_then_uses_it(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, reader.frame(die(2, x=100), die(6, x=300),
                                                   note="no die of colour red"))
    assert state["state"] == "prompting"
    assert state["prompt"] == "no principal die found (no die of colour red): tap the principal die on the page"
    roll = controller.set_principal(state["latest_roll"]["id"], 1, who="ana")
    assert roll["perfect"] and not roll["complete"]
    assert controller.state()["needs"]["kind"] == "D3"
    assert roll["dice"][1]["role"] == "principal" and roll["dice"][0]["role"] == "secondary"
    assert roll["corrections"][0]["to"] == "principal"
    with pytest.raises(ValueError):
        controller.set_principal(roll["id"], 7)


def test_pool_with_two_tens_rerolled_by_hand(controller, reader, clock):
    state = controller.arm("pool5", roller="bo")
    assert state["prompt"] == "pool 5 · difficulty 1: throw 5 ten-sided dice"
    state = controller.enter_dice([10, 0, 3, 7, 1])  # a printed 0 is 10 (RULES P-1)
    assert state["state"] == "prompting" and state["needs"]["count"] == 2
    assert state["needs"]["sides"] == 10
    with pytest.raises(ValueError):
        controller.enter_dice([10])
    state = controller.enter_dice([10, 6])
    roll = state["latest_roll"]
    expected = rules.resolve(PoolSpec(size=5), [[10, 10, 3, 7, 1], [10, 6]])
    assert state["state"] == "resolved" and roll["result"] == expected.to_dict()
    assert roll["successes"] == expected.successes and roll["outcome"] == expected.outcome
    assert [d["source"] for d in roll["dice"]] == ["hand"] * 7
    assert [d["step"] for d in roll["dice"]] == [0] * 5 + [1, 1]


def test_dice_by_hand_start_again_after_a_finished_roll(controller):
    with pytest.raises(RollStateError):
        controller.enter_dice([3])
    controller.arm("1d3")
    first = controller.enter_dice([5], roller="cy")["latest_roll"]
    assert first["total"] == 3 and first["roller"] == "cy"
    second = controller.enter_dice([2])["latest_roll"]
    assert second["id"] != first["id"] and second["total"] == 1
    with pytest.raises(ValueError):
        controller.enter_dice([7])
    with pytest.raises(ValueError):
        controller.enter_dice([1, 2])


def test_chain_is_bounded_with_a_visible_note(history, reader, clock):
    controller = Controller(build_presets(), history, **fakes(reader),
                            clock=clock, chain_limit=2)
    controller.arm("1d6")
    for value in (6, 6):
        assert controller.enter_dice([value])["state"] == "prompting"
    state = controller.enter_dice([6])
    roll = state["latest_roll"]
    assert state["state"] == "resolved" and roll["complete"] and roll["total"] == 6 + 3 + 3
    assert "chain stopped" in roll["note"]


def test_free_roll_asks_for_the_principal_die_when_none_stands_out(controller, reader, clock):
    # RULES D6-2a: never all secondary; the page asks which die, as for a 2D6
    controller.arm("free")
    state = settle(controller, clock, reader.frame(die(6, x=0), die(6, x=200), die(1, x=400),
                                                   note="no die of colour red"))
    assert state["state"] == "prompting"
    assert state["prompt"] == "no principal die found (no die of colour red): tap the principal die on the page"
    roll = controller.set_principal(state["latest_roll"]["id"], 1)
    assert roll["perfect"] and not roll["complete"] and controller.state()["needs"]["kind"] == "D3"
    controller.arm("free")
    state = settle(controller, clock, reader.frame(die(2, x=0), die(6, "red", 200, principal=True)))
    assert state["state"] == "prompting" and state["latest_roll"]["perfect"]


def test_free_roll_of_a_lone_six_is_perfect_read_or_typed(controller, reader, clock):
    # RULES D6-2a: a lone die is the principal die; dice typed in: the first one typed
    controller.arm("free")
    state = settle(controller, clock, reader.frame(die(6, x=0)))
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    assert state["latest_roll"]["perfect"] and state["latest_roll"]["dice"][0]["role"] == "principal"
    controller.arm("free")
    state = controller.enter_dice([6])
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3" and state["latest_roll"]["perfect"]
    controller.arm("free")
    state = controller.enter_dice([6, 3])
    assert state["needs"]["kind"] == "D3" and state["latest_roll"]["dice"][0]["role"] == "principal"
    state = controller.enter_dice([4])
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 6 + 3 + 2


def test_arming_again_abandons_the_roll_in_progress(controller, reader, clock):
    controller.arm("2d6")
    pending = settle(controller, clock, reader.frame(die(2, x=0), die(3, x=200)))["latest_roll"]
    controller.arm("1d6")
    abandoned = controller.roll(pending["id"])
    assert abandoned["finished"] and not abandoned["complete"]
    assert abandoned["note"].startswith("abandoned")
    assert controller.state()["state"] == "armed" and controller.state()["preset"] == "1d6"


def test_unknown_preset_and_throw_without_a_throwing_camera(controller):
    with pytest.raises(KeyError):
        controller.arm("7d7")
    with pytest.raises(ThrowUnsupported):
        controller.throw()
    with pytest.raises(CameraUnavailable):
        controller.read_now()
    thrown = []
    controller.attach_camera(throw=thrown.append, read_now=lambda: None, can_throw=True)
    controller.on_status("ok")
    with pytest.raises(RollStateError, match="no roll armed"):
        controller.throw()  # dice thrown with no roll armed would count for nothing
    assert thrown == [] and controller.state()["state"] == "idle"
    controller.arm("2d6")
    controller.throw()
    assert thrown == [2] and controller.state()["state"] == "waiting"
    assert controller.state()["camera"] == {"status": "ok", "message": None, "reason": None, "can_throw": True,
                                            "by_hand": False}
    controller.arm("pool5")
    controller.throw()  # the pool's d10s
    controller.arm("1d6")
    controller.enter_dice([6])
    controller.throw()  # the extra die: one die
    controller.enter_dice([1])
    controller.throw()  # after the result: 1d6 again
    assert thrown == [2, 5, 1, 1] and controller.state()["state"] == "waiting"


def test_camera_status_is_published_once_per_change(controller):
    feed = controller.subscribe()
    controller.on_status("reconnecting", "camera unplugged; retrying in 2 s")
    controller.on_status("reconnecting", "camera unplugged; retrying in 2 s")
    controller.on_status("ok")
    cameras = [e.data["status"] for e in drain(feed) if e.kind == "camera"]
    assert cameras == ["reconnecting", "ok"]
    feed.close()


def test_a_slow_subscriber_loses_its_oldest_events_only(history, reader, clock):
    controller = Controller(build_presets(), history, **fakes(reader),
                            clock=clock, queue_size=3)
    slow = controller.subscribe()
    for name in ("1d6", "2d6", "1d3", "1d2", "free"):
        controller.arm(name)
    presets = [e.data["preset"] for e in drain(slow)]
    assert presets == ["1d3", "1d2", "free"]


def test_threads_arming_reading_and_entering_at_once(controller, reader, clock):
    frames = [reader.frame(die(v % 6 + 1, "red", principal=True)) for v in range(40)]
    errors = []

    def camera():
        for frame in frames:
            controller.on_settled(frame, clock.tick(0.01))

    def buttons():
        for n in range(40):
            try:
                controller.arm("1d6" if n % 2 else "1d3")
            except Exception as exc:  # noqa: BLE001 - the test reports any
                errors.append(exc)

    def page():
        for n in range(40):
            try:
                controller.enter_dice([n % 5 + 1])
                controller.state()
            except RollStateError:
                pass
            except Exception as exc:  # noqa: BLE001
                errors.append(exc)

    threads = [threading.Thread(target=f) for f in (camera, buttons, page)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for roll in controller.rolls(limit=500):
        assert roll["complete"] or roll["note"] or roll["finished"] is None


def test_a_bump_of_the_tray_is_not_a_throw_but_read_now_reads_it(controller, reader, clock):
    controller.arm("1d6")
    settle(controller, clock, reader.frame(die(4, "red", 100, 100)))
    first = controller.state()["latest_roll"]
    controller.arm("1d6")  # the button is on the tray: pressing it shakes the dice a little
    state = settle(controller, clock, reader.frame(die(4, "red", 104, 98)))
    assert state["state"] == "armed" and state["latest_roll"]["id"] == first["id"]
    assert state["prompt"] == "no die has moved since the last reading: 1D6: throw 1 six-sided die"
    controller.attach_camera(read_now=lambda: None)
    controller.read_now()  # "read the tray as it is"
    state = settle(controller, clock, reader.frame(die(4, "red", 104, 98)))
    assert state["state"] == "resolved" and state["latest_roll"]["id"] != first["id"]


def test_an_extra_die_must_come_from_a_new_throw(controller, reader, clock):
    controller.arm("1d6")
    settle(controller, clock, reader.frame(die(6, "red", 100, 100)))
    state = settle(controller, clock, reader.frame(die(6, "red", 100, 100)))  # not thrown again
    assert state["state"] == "prompting" and state["prompt"].startswith("no die has moved")
    assert state["needs"]["kind"] == "D3"
    state = settle(controller, clock, reader.frame(die(2, "red", 300, 300)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 6 + 1


def test_a_camera_throwing_only_d6_offers_no_throw_for_d10s_and_says_why(controller):
    thrown = []  # as the simulated camera, which draws pip d6 only
    controller.attach_camera(throw=thrown.append, read_now=lambda: None, can_throw=True,
                             can_throw_dice=lambda sides: sides == 6)
    controller.on_status("ok")
    camera = controller.arm("pool5")["camera"]
    assert camera["can_throw"] is False and camera["by_hand"] is True  # the page asks for them by hand
    with pytest.raises(ThrowUnsupported, match="cannot throw d10s: enter them by hand on the page"):
        controller.throw()
    assert thrown == [] and controller.state()["state"] == "armed"
    camera = controller.arm("2d6")["camera"]
    assert camera["can_throw"] is True and camera["by_hand"] is False
    controller.throw()
    assert thrown == [2]


def test_a_throw_the_camera_cannot_make_is_refused_and_nothing_waits(history, reader, clock):
    presets = build_presets([{"name": "9d6", "system": "d6", "count": 9}])
    controller = Controller(presets, history, **fakes(reader), clock=clock)

    def sim_throw(count):  # as the sim camera: 1 to 8 dice per throw
        if count is not None and not 1 <= count <= 8:
            raise ValueError(f"sim camera: dice per throw must be 1 to 8, got {count}")

    controller.attach_camera(throw=sim_throw, read_now=lambda: None, can_throw=True)
    controller.on_status("ok")
    armed = controller.arm("9d6")
    with pytest.raises(ThrowUnsupported, match="1 to 8, got 9"):
        controller.throw()
    after = controller.state()
    assert (after["state"], after["prompt"]) == (armed["state"], armed["prompt"]) == ("armed", "9D6: throw 9 six-sided dice")
    controller.enter_dice([1, 2, 3, 4, 5, 6, 1, 2, 3])  # by hand still works
    assert controller.state()["state"] in ("resolved", "prompting")


@pytest.mark.parametrize("why, clause", [
    ("ambiguous pips", "its pips are ambiguous"),
    ("cut off", "it is cut off by the edge of the photo"),
    ("blurred", "it is blurred"),
    (None, "it cannot be read"),
    ("glare", "it cannot be read (glare)"),
])
def test_an_unreadable_die_is_named_in_a_sentence(controller, reader, clock, why, clause):
    controller.arm("2d6")
    unread = die(None, "black", 200, unreadable=why)
    state = settle(controller, clock, reader.frame(die(3, "red", 0, principal=True), unread))
    assert state["prompt"] == f"die 2 (black): {clause} — throw it again or correct it on the page"


def test_no_die_of_a_free_roll_is_secondary_until_the_principal_die_is_known(controller, reader, clock):
    # trial fault 9: while the page asked for the principal die, every die was "secondary"
    controller.arm("free")
    state = settle(controller, clock, reader.frame(die(2, x=100), die(6, x=300), die(3, x=500),
                                                   note="no die of colour red"))
    assert state["state"] == "prompting" and state["problem"]["code"] == "no principal"
    assert [d["role"] for d in state["latest_roll"]["dice"]] == [None, None, None]
    roll = controller.set_principal(state["latest_roll"]["id"], 2, who="ana")
    assert [d["role"] for d in roll["dice"]] == ["secondary", "secondary", "principal"]
