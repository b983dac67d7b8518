"""The one dispatcher of settled frames: the fight first, then the roll; stale frames passed
on; the tray as last seen kept across both (RULES T-2); a bad frame said to the one waiting."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.combat import CombatSession
from device.tray.dispatch import TrayDispatcher
from tests.device.controller_fakes import die, numbered, settle


@pytest.fixture
def fight(tmp_path, reader, clock):
    session = CombatSession(tmp_path / "fight", numbered_reader=reader.numbered, clock=clock)
    session.add_hero("Brann")
    return session


@pytest.fixture
def tray(controller, fight):
    dispatcher = TrayDispatcher([fight, controller], controller.readers, controller.annotate)
    controller.use_tray(dispatcher)
    return dispatcher


def test_a_frame_settled_before_the_fight_asked_goes_to_the_roll(tray, controller, fight, reader, clock):
    controller.arm("1d6")
    armed = clock.t
    clock.tick()
    fight.read_tray("initiative", "Brann")
    assert tray.on_settled(reader.frame(die(4, "red", principal=True)), armed + 0.5)
    assert controller.state()["state"] == "resolved" and fight.state()["tray"]["initiative"] == {}
    assert not tray.on_settled(reader.frame(die(2)), armed + 0.6)  # nobody waits for it: read, not taken
    assert fight.state()["tray"]["waiting"] is not None and tray.seen()[0].value == 2


def test_the_roll_compares_with_the_tray_as_the_fight_last_saw_it(tray, controller, fight, reader, clock):
    controller.arm("2d6")
    state = settle(tray, clock, reader.frame(die(6, "red", 100, 100, principal=True),
                                             die(4, "white", 300, 100)), controller)
    assert state["needs"]["kind"] == "D3"  # the principal die again
    fight.read_tray("initiative", "Brann")
    # the fight's throw knocks the white die aside: the fight takes the frame
    settle(tray, clock, reader.frame(numbered(4, "d6-pips", "white", 500, 300),
                                     numbered(5, "d6", "blue", 100, 400)), controller)
    assert fight.state()["tray"]["initiative"] == {} and fight.state()["tray"]["problem"]["code"] == "wrong dice"
    fight.cancel_tray()
    # the white die lies where the fight's frame saw it: only the red one was thrown
    state = settle(tray, clock, reader.frame(die(4, "white", 500, 300), die(2, "red", 420, 260)), controller)
    assert state["state"] == "resolved"
    assert [(d["natural"], d["role"]) for d in state["latest_roll"]["dice"]] == [
        (6, "principal"), (4, "secondary"), (2, "extra")]


def test_a_frame_that_cannot_be_read_is_said_to_the_one_waiting(controller, fight, clock):
    def broken(image, color):
        raise ValueError("not an image")
    tray = TrayDispatcher([fight, controller], {"pips": broken, "numbered": broken}, controller.annotate)
    controller.use_tray(tray)
    assert not tray.on_settled(np.zeros((4, 4, 3), np.uint8), clock.tick())  # nobody waits: nothing
    controller.arm("2d6")
    assert tray.on_settled(np.zeros((4, 4, 3), np.uint8), clock.tick())
    state = controller.state()
    assert state["state"] == "armed" and state["problem"]["code"] == "no reading"
    assert state["prompt"] == "could not read the tray (not an image): 2D6: throw 2 six-sided dice"
    assert tray.latest_frame_jpeg() is None


def test_the_latest_frame_whoever_took_it_comes_as_a_jpeg_no_longer_than_asked(tray, fight, reader, clock):
    fight.read_tray("initiative", "Brann")
    frame = reader.frame(numbered(5, "d6"))
    assert tray.on_settled(cv2.resize(frame, (640, 480), interpolation=cv2.INTER_NEAREST), clock.tick())
    jpeg, about = tray.latest_frame_jpeg(max_side=320)
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (240, 320)
    assert (about["width"], about["height"]) == (640, 480) and about["reading"]["dice"][0]["value"] == 5
