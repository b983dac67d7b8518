"""The controller end to end behind the real tray loop, settle detector and cameras.

The loop is turned by hand (``TrayLoop.step``) on a test clock, so nothing
waits on real time. Readings come from what each tray is known to hold (the
synthetic renderer's truth, the dataset's labels): these tests are about the
controller, the loop and the cameras working together; vision is measured on
its own (tests/vision, benchmarks/).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cameras.replay import PhotoFolderCamera, ReplayCamera
from device.controller import Controller
from device.errors import CameraUnavailable
from device.history import History
from device.presets import build_presets
from device.tray.loop import TrayLoop
from device.tray.settle import SettleDetector
from vision.numerals import NumberedReading
from vision.reading import DieReading, TrayReading
from vision.synthetic import render_tray

from .controller_fakes import Clock, annotate

SIZE = (320, 320)


def key(image: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(image).tobytes()).hexdigest()


class KnownTrays:
    """A reader that answers with what each tray is known to hold: ``{image hash: dice}``;
    :meth:`numbered` answers as the numbered reader (the sim's dice are pip d6s)."""

    def __init__(self):
        self.trays: dict[str, list[dict]] = {}
        self.read = 0

    def add(self, image: np.ndarray, dice: list[dict]) -> None:
        self.trays[key(image)] = dice

    def __call__(self, image: np.ndarray, principal_color: str | None) -> TrayReading:
        self.read += 1
        dice = self.trays.get(key(image), [])
        colors = [d["color"] for d in dice]
        readings = [DieReading(value=d["value"], sides=6, box=tuple(d["box"]),
                               center=((d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2),
                               color=d["color"], confidence=1.0,
                               unreadable=None if d["value"] else "cocked",
                               principal=d["color"] == principal_color and colors.count(d["color"]) == 1)
                    for d in dice]
        return TrayReading(dice=readings, size=(image.shape[1], image.shape[0]))

    def numbered(self, image: np.ndarray, principal_color: str | None) -> TrayReading:
        reading = self(image, principal_color)
        reading.dice = [NumberedReading(**vars(die), kind="d6-pips") for die in reading.dice]
        return reading


class ScriptedTray(ReplayCamera):
    """A simulated camera whose throws show the dice the test scripts (values, colours)."""

    def __init__(self, throws: list[tuple[list[int], list[str]]], known: KnownTrays, **options):
        self.script = list(throws)
        self.known = known
        self.asked: list[int | None] = []
        self.closed = False
        super().__init__(moving_frames=3, **options)

    def _empty_tray(self) -> np.ndarray:
        return render_tray(0, count=0, size=SIZE)[0]

    def _next_tray(self, count: int | None) -> np.ndarray:
        self.asked.append(count)
        values, colors = self.script.pop(0)
        image, truth = render_tray(len(self.asked), values=values, colors=colors, size=SIZE)
        self.known.add(image, truth)
        return image

    def close(self) -> None:
        self.closed = True


class Rig:
    """Controller, history, tray loop and camera, turned by hand on one clock."""

    def __init__(self, tmp_path: Path, open_camera, known: KnownTrays):
        self.clock = Clock()
        self.history = History(tmp_path / "data")
        self.controller = Controller(build_presets(), self.history, reader=known,
                                     numbered_reader=known.numbered, annotate=annotate, clock=self.clock)
        self.loop = TrayLoop(open_camera, self.controller.on_settled, self.controller.on_status,
                             detector=SettleDetector(0.4), interval=0.2, clock=self.clock)
        self.controller.attach_camera(throw=self.loop.throw, read_now=self.loop.read_now,
                                      can_throw=lambda: self.loop.can_throw)
        self.turn()

    def turn(self, times: int = 1) -> None:
        for _ in range(times):
            self.loop.step()
            self.clock.tick(0.2)

    def throw_and_wait(self, until: tuple[str, ...] = ("prompting", "resolved")) -> dict:
        self.controller.throw()
        for _ in range(50):
            self.turn()
            state = self.controller.state()
            if state["state"] in until:
                return state
        raise AssertionError(f"no result: {self.controller.state()}")

    def close(self) -> None:
        self.loop.close()
        self.history.close()


@pytest.fixture
def known():
    return KnownTrays()


@pytest.fixture
def scripted(tmp_path, known):
    def make(throws):
        camera = ScriptedTray(throws, known)
        rig = Rig(tmp_path, lambda: camera, known)
        rig.camera = camera
        return rig
    rigs = []
    yield lambda throws: rigs.append(make(throws)) or rigs[-1]
    for rig in rigs:
        rig.close()


def test_sim_2d6_perfect_roll_that_chains_twice(scripted):
    rig = scripted([([6, 4], ["red", "white"]), ([6], ["red"]), ([2], ["red"])])
    rig.controller.arm("2d6", roller="ana")
    state = rig.throw_and_wait()
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    state = rig.throw_and_wait()
    assert state["state"] == "prompting" and "extra die showed 6" in state["prompt"]
    state = rig.throw_and_wait()
    assert state["state"] == "resolved"
    roll = state["latest_roll"]
    assert roll["total"] == 6 + 4 + 3 + 1 and roll["perfect"] and roll["roller"] == "ana"
    assert [d["role"] for d in roll["dice"]] == ["principal", "secondary", "extra", "extra"]
    assert rig.camera.asked == [2, 1, 1]  # the page's Throw asks for the dice the roll wants
    assert rig.history.roll(roll["id"]) == roll and len(roll["readings"]) == 3
    # the tray stays still: no second result for the same throw, and none unasked
    rig.turn(10)
    assert rig.controller.state()["latest_roll"]["seq"] == roll["seq"]


def test_sim_tray_with_one_die_too_many(scripted):
    rig = scripted([([3, 5, 2], ["red", "white", "blue"]), ([3, 5], ["red", "white"])])
    rig.controller.arm("2d6")
    state = rig.throw_and_wait()
    assert state["state"] == "prompting" and state["needs"] is None
    assert state["prompt"] == "3 dice seen, 2D6 takes 2: take 1 die out and throw again"
    state = rig.throw_and_wait(until=("resolved",))
    assert state["latest_roll"]["total"] == 8 and len(state["latest_roll"]["readings"]) == 2


def test_sim_cocked_die_is_thrown_again(scripted, known):
    rig = scripted([([4, 2], ["red", "white"]), ([4, 3], ["red", "white"])])
    rig.controller.arm("2d6")
    rig.controller.throw()
    rig.turn(4)
    # the white die landed on an edge: the reader reports it without a value
    for dice in known.trays.values():
        for die in dice:
            if die["color"] == "white":
                die["value"] = None
    rig.turn(10)
    state = rig.controller.state()
    assert state["state"] == "prompting" and "it is cocked — throw it again" in state["prompt"]
    state = rig.throw_and_wait(until=("resolved",))
    assert state["latest_roll"]["total"] == 7


def test_pool_whose_two_tens_are_rerolled_by_hand(scripted):
    rig = scripted([([6, 6], ["red", "white"])])
    rig.controller.arm("pool5", roller="bo")
    rig.loop.throw()  # someone throws six-siders meanwhile: not the pool's dice
    rig.turn(10)
    state = rig.controller.state()
    assert state["state"] == "prompting" and state["prompt"] == "2 pip d6s are in the tray: throw only d10s"
    state = rig.controller.enter_dice([10, 10, 4, 1, 8])
    assert state["state"] == "prompting" and state["needs"] == {
        "count": 2, "sides": 10, "kind": "d10", "reason": "reroll your 10s: 2 more dice"}
    state = rig.controller.enter_dice([10, 2])
    roll = state["latest_roll"]
    assert state["state"] == "resolved" and roll["complete"] and not roll["botch"]
    assert [d["reroll"] for d in roll["result"]["dice"]] == [False] * 5 + [True, True]
    assert roll["successes"] == roll["result"]["successes"] and roll["roller"] == "bo"


def test_camera_that_dies_mid_evening_and_comes_back(tmp_path, known):
    cameras = []
    unplugged = False

    class Flaky(ScriptedTray):
        def capture_preview(self):
            if unplugged:
                raise CameraUnavailable("camera unplugged")
            return super().capture_preview()

    def open_camera():
        if unplugged:
            raise CameraUnavailable("no camera on usb:0")
        cameras.append(Flaky([([3], ["red"]), ([5], ["red"])], known))
        return cameras[-1]

    rig = Rig(tmp_path, open_camera, known)
    try:
        feed = rig.controller.subscribe()
        rig.controller.arm("1d6")
        assert rig.throw_and_wait()["latest_roll"]["total"] == 3
        unplugged = True
        rig.turn(3)
        state = rig.controller.state()
        assert state["camera"]["status"] == "reconnecting" and state["camera"]["can_throw"] is False
        assert cameras[0].closed
        # the evening goes on: dice by hand while the camera is away
        rig.controller.arm("1d6")
        with pytest.raises(CameraUnavailable):
            rig.controller.throw()
        assert rig.controller.enter_dice([4])["latest_roll"]["total"] == 4
        unplugged = False
        rig.turn(2)
        assert rig.controller.state()["camera"]["status"] == "ok" and len(cameras) == 2
        rig.controller.arm("1d6")
        assert rig.throw_and_wait()["latest_roll"]["total"] == 3  # the new camera's first throw
        statuses = []
        while (event := feed.get(timeout=0)) is not None:
            if event.kind == "camera":
                statuses.append(event.data["status"])
        changes = [s for n, s in enumerate(statuses) if n == 0 or statuses[n - 1] != s]
        assert changes == ["reconnecting", "ok"]  # (the message changed once in between)
    finally:
        rig.close()


@pytest.fixture
def photo_folder(tmp_path, known, real_photos):
    """Real tray photos (byler-tray-d6) in throw order, with their labels known to the reader."""
    source = "real-dice/byler-tray-d6"
    labels = {name: image["dice"] for name, image in real_photos.labels(source).items()}
    folder = tmp_path / "photos"
    folder.mkdir()
    for order, name in enumerate(["IMG_20191209_100605.jpg",    # red 3, black 4, black 4
                                  "IMG_20191209_100538.jpg",    # black 1, red 6
                                  "IMG_20191208_112623.jpg"]):  # red 5
        shutil.copy(real_photos.photo(source, name), folder / f"{order}.jpg")
        known.add(cv2.imread(str(folder / f"{order}.jpg"), cv2.IMREAD_COLOR), labels[name])
    return folder


def test_file_camera_real_photos_one_throw_at_a_time(tmp_path, photo_folder, known):
    rig = Rig(tmp_path, lambda: PhotoFolderCamera(photo_folder, moving_frames=3), known)
    try:
        rig.controller.arm("2d6")
        state = rig.throw_and_wait()
        assert state["prompt"] == "3 dice seen, 2D6 takes 2: take 1 die out and throw again"
        state = rig.throw_and_wait()
        assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
        state = rig.throw_and_wait()
        roll = state["latest_roll"]
        assert state["state"] == "resolved" and roll["total"] == 6 + 1 + 3
        assert [(d["natural"], d["color"], d["role"]) for d in roll["dice"]] == [
            (1, "black", "secondary"), (6, "red", "principal"), (5, "red", "extra")]
        assert rig.controller.photo_path(roll["id"]).stat().st_size > 1000
    finally:
        rig.close()


def test_sim_cocked_die_under_rethrow_set_throws_the_whole_set_again(scripted, known):  # RULES T-5
    rig = scripted([([4, 2], ["red", "white"]), ([5, 3], ["red", "white"])])
    rig.controller.update_settings(cocked_dice="rethrow_set")
    rig.controller.arm("2d6")
    rig.controller.throw()
    rig.turn(4)
    for dice in known.trays.values():  # the white die landed on an edge
        for die in dice:
            if die["color"] == "white":
                die["value"] = None
    rig.turn(10)
    state = rig.controller.state()
    assert state["prompt"] == "die 2 (white): it is cocked — throw all 2 dice of this throw again"
    state = rig.throw_and_wait(until=("resolved",))
    assert state["latest_roll"]["total"] == 8 and rig.camera.asked == [2, 2]
