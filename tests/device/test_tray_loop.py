"""The camera loop: settled frames, read now, a camera that dies and comes back."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from device.cameras import Camera, open_camera
from device.errors import CameraUnavailable, ThrowUnsupported
from device.tray.loop import TrayLoop
from device.tray.settle import SettleDetector
from rules.phrase import Phrase


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class ScriptedCamera(Camera):
    """A tray that shows ``moving`` frames of motion after each throw, then a still tray.

    Full frames carry the number of the preview last shown in pixel [0, 0, 0], so a
    test can tell when a frame was taken.
    """

    can_throw = True

    def __init__(self, moving: int = 3) -> None:
        self.moving = moving
        self.left = 0  # moving frames still to show
        self.rng = np.random.default_rng(0)
        self.previews = 0
        self.captures: list[int] = []  # preview count at each capture
        self.fail: Exception | None = None
        self.closed = 0
        self.locked = False
        self.events: list[str] = []  # "lock", "unlock", "moving" (a preview of dice rolling), "capture"

    def lock_3a(self) -> None:
        assert not self.locked, "locked twice without an unlock"
        self.locked = True
        self.events.append("lock")

    def unlock_3a(self) -> None:
        assert self.locked, "unlocked without a lock"
        self.locked = False
        self.events.append("unlock")

    def throw(self, count: int | None = None) -> None:
        self.left = self.moving

    def capture_preview(self) -> np.ndarray:
        if self.fail:
            raise self.fail
        self.previews += 1
        if self.left:
            self.left -= 1
            self.events.append("moving")
            return self.rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
        return np.full((60, 80, 3), 90, np.uint8)

    def capture(self) -> np.ndarray:
        if self.fail:
            raise self.fail
        self.captures.append(self.previews)
        self.events.append("capture")
        frame = np.zeros((480, 640, 3), np.uint8)
        frame[0, 0, 0] = self.previews
        return frame

    def close(self) -> None:
        self.closed += 1


class Recorder:
    def __init__(self) -> None:
        self.settled: list[tuple[np.ndarray, float]] = []
        self.statuses: list[tuple[str, str | None]] = []
        self.event = threading.Event()

    def on_settled(self, frame, t) -> None:
        self.settled.append((frame, t))
        self.event.set()

    def on_status(self, status, message) -> None:
        self.statuses.append((status, message))


def run(loop: TrayLoop, clock: FakeClock, steps: int) -> list[float]:
    """Turn the loop by hand, advancing the clock by each turn's delay."""
    delays = []
    for _ in range(steps):
        delay = loop.step()
        delays.append(delay)
        clock.t += delay
    return delays


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def rec():
    return Recorder()


def make_loop(cameras, rec, clock, **kw) -> TrayLoop:
    """A loop whose open_camera hands out ``cameras`` in turn (an exception item is raised)."""
    queue = list(cameras)

    def opener():
        item = queue.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    return TrayLoop(opener, rec.on_settled, rec.on_status, clock=clock, interval=0.2, **kw)


def test_a_settled_throw_gives_one_frame_taken_after_settling(rec, clock):
    camera = ScriptedCamera()
    loop = make_loop([camera], rec, clock)
    run(loop, clock, 5)
    assert rec.statuses == [("ok", None)] and rec.settled == []
    loop.throw()
    run(loop, clock, 15)
    assert len(rec.settled) == 1
    frame, t = rec.settled[0]
    assert frame.shape == (480, 640, 3)
    # the frame was taken after the preview that showed the tray settled, at that moment
    settle_preview = camera.captures[0]
    assert frame[0, 0, 0] == settle_preview
    assert settle_preview >= 5 + 3 + 3  # idle previews, moving ones, then 0.4 s still
    assert t == pytest.approx((settle_preview - 1) * 0.2)


def test_read_now_takes_a_frame_at_once_and_the_throw_gives_no_second(rec, clock):
    camera = ScriptedCamera(moving=4)
    loop = make_loop([camera], rec, clock)
    run(loop, clock, 2)
    loop.throw()
    run(loop, clock, 2)  # dice rolling
    loop.read_now()
    run(loop, clock, 1)
    assert len(rec.settled) == 1 and camera.captures == [4]
    run(loop, clock, 10)  # they settle: the same throw, no second frame
    assert len(rec.settled) == 1
    loop.throw()
    run(loop, clock, 10)
    assert len(rec.settled) == 2


def test_exposure_is_locked_on_the_still_tray_and_held_through_each_throw(rec, clock):
    camera = ScriptedCamera()
    loop = make_loop([camera], rec, clock, lock_after=1.0)
    run(loop, clock, 5)  # 0.8 s of a still tray: auto exposure still settling
    assert camera.events == []
    run(loop, clock, 1)  # 1 s still: measured and locked
    assert camera.events == ["lock"]
    for _ in range(3):
        loop.throw()
        run(loop, clock, 12)  # rolls, settles, is read; 1 s still again
    # every throw rolled and was read under settings measured before it, then let go
    assert camera.events == ["lock", "moving", "moving", "moving", "capture", "unlock"] * 3 + ["lock"]
    assert len(rec.settled) == 3


def test_a_throw_read_now_releases_the_lock_and_a_new_camera_starts_on_auto(rec, clock):
    first, second = ScriptedCamera(moving=4), ScriptedCamera()
    loop = make_loop([first, second], rec, clock, lock_after=1.0)
    run(loop, clock, 6)
    loop.throw()
    run(loop, clock, 2)
    loop.read_now()
    run(loop, clock, 1)
    assert first.events == ["lock", "moving", "moving", "capture", "unlock", "moving"]
    first.fail = CameraUnavailable("gone")
    run(loop, clock, 1)  # it fails; the second camera opens at the next turn
    run(loop, clock, 5)  # 0.8 s of its frames: its auto exposure has not settled yet
    assert second.events == []
    run(loop, clock, 1)
    assert second.events == ["lock"]


def test_a_camera_that_dies_is_opened_again_with_growing_pauses(rec, clock):
    first, second = ScriptedCamera(), ScriptedCamera()
    gone = CameraUnavailable("USB camera 0 stopped giving frames (unplugged?)")
    loop = make_loop([first, gone, gone, gone, gone, second], rec, clock,
                     retry_seconds=1.0, retry_max=4.0)
    run(loop, clock, 3)
    first.fail = gone
    delays = run(loop, clock, 6)
    assert delays == [1.0, 2.0, 4.0, 4.0, 4.0, 0.2]  # doubling, capped; then back to work
    assert first.closed == 1
    assert rec.statuses == [("ok", None), ("reconnecting", str(gone)), ("ok", None)]
    second.throw()
    run(loop, clock, 12)
    assert len(rec.settled) == 1  # reading resumed without a restart
    loop.close()
    assert second.closed == 1


def test_while_the_camera_is_gone_read_and_throw_say_so(rec, clock):
    loop = make_loop([CameraUnavailable("the Pi camera could not start: no cameras available")] * 2,
                     rec, clock)
    run(loop, clock, 2)
    assert loop.status == ("no camera", "the Pi camera could not start: no cameras available")
    assert rec.statuses == [loop.status]  # reported once, not at every retry
    assert not loop.can_throw
    with pytest.raises(CameraUnavailable, match="no cameras available"):
        loop.read_now()
    with pytest.raises(CameraUnavailable, match="no cameras available"):
        loop.throw()


def test_any_camera_error_counts_as_a_failure(rec, clock):
    camera = ScriptedCamera()
    loop = make_loop([camera, ScriptedCamera()], rec, clock)
    run(loop, clock, 1)
    camera.fail = OSError("[Errno 19] No such device")
    run(loop, clock, 2)
    assert rec.statuses[1] == ("reconnecting", "[Errno 19] No such device")
    assert rec.statuses[2] == ("ok", None)


def test_a_real_camera_cannot_throw(rec, clock):
    camera = ScriptedCamera()
    camera.can_throw = False
    camera.throw = Camera.throw.__get__(camera)
    loop = make_loop([camera], rec, clock)
    run(loop, clock, 1)
    assert not loop.can_throw
    with pytest.raises(ThrowUnsupported):
        loop.throw()


@pytest.mark.parametrize(("source", "d6", "d10"), [("sim", True, False), ("file", True, True)])
def test_the_simulated_camera_throws_only_d6(rec, clock, source, d6, d10, real_photos):
    name = f"file:{real_photos.folder('real-dice/byler-tray-d6')}" if source == "file" else source
    loop = make_loop([open_camera(name)], rec, clock)
    run(loop, clock, 1)
    assert (loop.can_throw_dice(6), loop.can_throw_dice(10)) == (d6, d10)


def test_a_failing_callback_does_not_stop_the_loop(clock):
    calls = []

    def broken(frame, t):
        calls.append(t)
        raise RuntimeError("bug downstream")

    camera = ScriptedCamera()
    loop = TrayLoop(lambda: camera, broken, clock=clock)
    run(loop, clock, 1)
    for _ in range(2):
        loop.read_now()
        run(loop, clock, 1)
    assert len(calls) == 2


def test_the_thread_reads_the_real_photos_and_stops_cleanly(rec, real_photos):
    camera = open_camera(f"file:{real_photos.folder('real-dice/byler-tray-d6')}", moving_frames=2)
    loop = TrayLoop(lambda: pytest.fail("the camera given is used"), rec.on_settled, rec.on_status,
                    camera=camera, detector=SettleDetector(still_seconds=0.02), interval=0.01)
    with loop:
        assert loop.can_throw
        loop.throw()
        assert rec.event.wait(5)
        rec.event.clear()
        loop.read_now()
        assert rec.event.wait(5)
    frame, _ = rec.settled[0]
    assert frame.shape == (640, 640, 3) and frame.std() > 10  # a photo, not the empty tray
    assert len(rec.settled) == 2
    assert not any(t.name == "tray-loop" for t in threading.enumerate())
    loop.close()  # again: nothing happens


def test_bad_timings_are_refused():
    with pytest.raises(ValueError):
        TrayLoop(ScriptedCamera, print, interval=0)
    with pytest.raises(ValueError):
        TrayLoop(ScriptedCamera, print, retry_seconds=5, retry_max=1)
    with pytest.raises(ValueError):
        TrayLoop(ScriptedCamera, print, lock_after=-1)


def test_why_the_camera_is_away_reaches_the_controller_as_a_phrase(rec, clock):
    """A page words the reason in its language from the phrase's template and values
    (web/messages.py shown_camera); the logs and the CLI keep its English."""
    why = Phrase("USB camera {n} could not be opened (is it plugged in?)", n=0)
    loop = make_loop([CameraUnavailable(why)] * 2, rec, clock)
    run(loop, clock, 2)
    status, message = loop.status
    assert status == "no camera" and message == "USB camera 0 could not be opened (is it plugged in?)"
    assert isinstance(message, Phrase) and message.values == {"n": 0}
