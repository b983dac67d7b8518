"""Camera names, the file camera (photos and video) and the USB webcam."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cameras import open_camera, parse_camera_name
from device.errors import CameraUnavailable, ThrowUnsupported
from device.tray.settle import SettleDetector


@pytest.fixture
def byler(real_photos) -> Path:
    """A folder of real tray photos."""
    return real_photos.folder("real-dice/byler-tray-d6")


class FakeClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def settle_times(camera, detector: SettleDetector, start: float, frames: int, fps: float = 5.0) -> list[float]:
    """Pull ``frames`` previews at ``fps`` into the detector; times it reported a settled tray."""
    times = []
    for i in range(frames):
        t = start + i / fps
        if detector.update(camera.capture_preview(), t):
            times.append(t)
    return times


@pytest.mark.parametrize(("name", "parsed"), [
    ("picamera2", ("picamera2", None)),
    ("usb:0", ("usb", 0)),
    ("usb:12", ("usb", 12)),
    ("file:../photos/tray", ("file", "../photos/tray")),
    ("file:C:/x:y", ("file", "C:/x:y")),
    ("sim", ("sim", None)),
])
def test_camera_names(name, parsed):
    assert parse_camera_name(name) == parsed


@pytest.mark.parametrize("name", ["webcam", "usb", "usb:", "usb:-1", "usb:x", "file:", "sim:3", ""])
def test_bad_camera_names_list_the_forms(name):
    with pytest.raises(ValueError, match=r"usb:N|picamera2"):
        parse_camera_name(name)


def test_unknown_options_are_named():
    with pytest.raises(ValueError, match=r"unknown option\(s\) auto_throw \(it takes: size\)"):
        open_camera("usb:0", auto_throw=5)


def test_the_real_photos_replay_one_throw_at_a_time(byler):
    photos = sorted(byler.glob("*.jpg"))
    with open_camera(f"file:{byler}", auto_throw=None) as camera:
        assert camera.can_throw
        empty = camera.capture()
        assert empty.shape == (640, 640, 3) and (empty == empty[0, 0]).all()  # an empty tray at first
        detector = SettleDetector()
        assert settle_times(camera, detector, 0.0, 10) == []  # nothing thrown, nothing settles
        for n, photo in enumerate(photos[:3]):
            camera.throw()
            settled = settle_times(camera, detector, 10.0 * (n + 1), 12)
            assert len(settled) == 1  # the throw moves, then settles once
            assert camera.photo == photo
            assert np.array_equal(camera.capture(), cv2.imread(str(photo)))


def test_a_read_during_the_throw_gets_a_moving_frame(tmp_path, byler):
    shutil.copy(next(byler.glob("*.jpg")), tmp_path / "a.jpg")
    camera = open_camera(f"file:{tmp_path}")
    camera.throw()
    camera.capture_preview()
    photo = cv2.imread(str(tmp_path / "a.jpg"))
    assert not np.array_equal(camera.capture(), photo)  # blurred, half way
    for _ in range(4):
        camera.capture_preview()
    assert np.array_equal(camera.capture(), photo)
    camera.close()
    camera.close()


def test_after_the_last_photo_it_starts_again_and_skips_unreadable_ones(tmp_path, caplog, byler):
    first, second = sorted(byler.glob("*.jpg"))[:2]
    shutil.copy(first, tmp_path / "1.jpg")
    (tmp_path / "2.jpg").write_bytes(b"not a photo")
    shutil.copy(second, tmp_path / "3.JPG")
    (tmp_path / "notes.txt").write_text("ignored")
    camera = open_camera(f"file:{tmp_path}", moving_frames=1)
    shown = []
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            camera.throw()
            camera.capture_preview()
            camera.capture_preview()
            shown.append(camera.photo.name)
    assert shown == ["1.jpg", "3.JPG", "1.jpg"]
    assert "skipping" in caplog.text and "2.jpg" in caplog.text


def test_photos_of_every_orientation_and_proportion_are_shown_undistorted(tmp_path, real_photos):
    """A folder mixing portrait and landscape photos (and a square one): each throw shows
    its photo as it is, settles once, and its dice read as in the photo itself."""
    source = real_photos.folder("real-polyhedral/banachowicz-mixed-d10")
    portrait, landscape = source / "20211121_171337.jpg", source / "20211121_172348.jpg"  # 360×640, 640×360
    shutil.copy(portrait, tmp_path / "1.jpg")
    shutil.copy(landscape, tmp_path / "2.jpg")
    square = cv2.imread(str(portrait))[100:460]  # 360×360: another proportion again
    cv2.imwrite(str(tmp_path / "3.png"), square)
    camera = open_camera(f"file:{tmp_path}", auto_throw=None)
    detector = SettleDetector()
    for n, photo in enumerate(sorted(tmp_path.iterdir())):
        camera.throw()
        assert len(settle_times(camera, detector, 10.0 * (n + 1), 12)) == 1  # moves, then settles once
        assert camera.photo == photo
        assert np.array_equal(camera.capture(), cv2.imread(str(photo)))


def test_a_landscape_photo_after_a_portrait_one_reads_its_dice(tmp_path, real_photos):
    """The trial's photo: squashed into the first photo's portrait frame it read no dice."""
    from vision import read_dice

    source = real_photos.folder("real-polyhedral/banachowicz-mixed-d10")
    shutil.copy(source / "20211121_171337.jpg", tmp_path / "1.jpg")
    shutil.copy(source / "20211121_172348.jpg", tmp_path / "2.jpg")
    camera = open_camera(f"file:{tmp_path}", moving_frames=1)
    for _ in range(2):
        camera.throw()
        camera.capture_preview()
        camera.capture_preview()
    seen = sorted((die.kind, die.value) for die in read_dice(camera.capture()).dice)
    assert len(seen) >= 8
    assert seen == sorted((die.kind, die.value) for die in read_dice(cv2.imread(str(tmp_path / "2.jpg"))).dice)


def test_the_motion_into_a_photo_of_another_size_keeps_the_tray_before_in_proportion():
    from device.cameras.replay import letterboxed

    tall = np.zeros((200, 100, 3), np.uint8)
    tall[50:150, :] = 255  # a white square in the middle of a black portrait frame
    wide = letterboxed(tall, (400, 100))
    assert wide.shape == (100, 400, 3)
    white = np.argwhere(wide.min(axis=2) > 200)
    rows, cols = np.ptp(white[:, 0]) + 1, np.ptp(white[:, 1]) + 1
    assert (rows, cols) == (50, 50)  # the square, half size, still square


def test_one_photo_file_is_a_camera_too(byler):
    photo = next(byler.glob("*.jpg"))
    camera = open_camera(f"file:{photo}", moving_frames=2)
    camera.throw()
    for _ in range(3):
        camera.capture_preview()
    assert np.array_equal(camera.capture(), cv2.imread(str(photo)))


def test_auto_throw_every_n_seconds(byler):
    clock = FakeClock()
    camera = open_camera(f"file:{byler}", auto_throw=5.0, clock=clock, moving_frames=2)
    camera.capture_preview()
    assert camera.throws == 1  # the first throw at once
    for _ in range(10):
        clock.t += 0.4
        camera.capture_preview()
    assert camera.throws == 1
    clock.t += 1.0
    camera.capture_preview()
    assert camera.throws == 2
    clock.t += 3.0
    camera.throw()  # a throw asked for puts the next automatic one N seconds later
    clock.t += 4.0
    camera.capture_preview()
    assert camera.throws == 3
    clock.t += 1.0
    camera.capture_preview()
    assert camera.throws == 4


@pytest.mark.parametrize(("path", "message"), [
    ("no/such/folder", "neither a folder of photos nor a photo"),
    ("EMPTY", "no photos"),
])
def test_a_path_without_photos_is_refused(tmp_path, path, message):
    if path == "EMPTY":
        path = str(tmp_path)
    with pytest.raises(ValueError, match=message):
        open_camera(f"file:{path}")


def test_bad_replay_options_are_refused(byler):
    with pytest.raises(ValueError, match="auto_throw"):
        open_camera(f"file:{byler}", auto_throw=0)
    with pytest.raises(ValueError, match="moving_frames"):
        open_camera(f"file:{byler}", moving_frames=0)


def write_video(path: Path, frames: int, fps: float = 10.0) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    for i in range(frames):
        writer.write(np.full((48, 64, 3), i * 10, np.uint8))
    writer.release()


def test_a_video_plays_in_real_time_and_loops(tmp_path):
    write_video(tmp_path / "tray.avi", frames=20)
    clock = FakeClock(0.0)
    with open_camera(f"file:{tmp_path / 'tray.avi'}", clock=clock) as camera:
        assert not camera.can_throw
        with pytest.raises(ThrowUnsupported, match="is a video: its throws are the ones recorded"):
            camera.throw()
        levels = []
        for t in (0.0, 0.05, 0.5, 1.0, 1.95, 2.0, 2.35):
            clock.t = t
            levels.append(round(float(camera.capture().mean()) / 10))
        # frame i has grey level 10·i at 10 frames per second; at 2 s it starts again
        assert levels == [0, 0, 5, 10, 19, 0, 3]
        assert camera.capture_preview().shape == (48, 64, 3)


def test_a_file_that_is_no_video_is_refused(tmp_path):
    (tmp_path / "tray.mp4").write_bytes(b"nothing")
    with pytest.raises(ValueError, match="not a readable video"):
        open_camera(f"file:{tmp_path / 'tray.mp4'}")


class FakeVideoCapture:
    """cv2.VideoCapture(N) for a webcam that holds four frames queued."""

    opened = True
    frames_left = 100

    def __init__(self, index: int) -> None:
        self.index = index
        self.scene = 0
        self.queue = [1, 2, 3, 4]  # stale frames taken before the call
        self.settings: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def grab(self) -> bool:
        if self.queue:
            self.queue.pop(0)
        return True

    def read(self):
        if FakeVideoCapture.frames_left <= 0:
            return False, None
        FakeVideoCapture.frames_left -= 1
        level = self.queue.pop(0) if self.queue else self.scene
        return True, np.full((480, 640, 3), level, np.uint8)

    def release(self) -> None:
        self.released = True


@pytest.fixture
def webcam(monkeypatch):
    made = []

    def factory(index):
        made.append(FakeVideoCapture(index))
        return made[-1]

    FakeVideoCapture.opened, FakeVideoCapture.frames_left = True, 100
    monkeypatch.setattr(cv2, "VideoCapture", factory)
    return made


def test_a_webcam_capture_skips_its_queued_frames(webcam):
    with open_camera("usb:1", size=(640, 480)) as camera:
        fake = webcam[0]
        assert fake.index == 1 and fake.settings[cv2.CAP_PROP_FRAME_WIDTH] == 640
        assert camera.capture_preview().shape == (240, 320, 3)
        fake.scene = 9
        assert camera.capture()[0, 0, 0] == 9  # not a frame queued while dice moved
    assert fake.released


def test_a_webcam_that_stops_is_unavailable(webcam):
    camera = open_camera("usb:0")
    FakeVideoCapture.frames_left = 0
    with pytest.raises(CameraUnavailable, match="USB camera 0 stopped giving frames"):
        camera.capture_preview()
    camera.close()
    with pytest.raises(CameraUnavailable, match="closed"):
        camera.capture()
    with pytest.raises(ThrowUnsupported, match="USB camera 0 cannot throw"):
        camera.throw()


def test_a_missing_webcam_is_unavailable(webcam):
    FakeVideoCapture.opened = False
    with pytest.raises(CameraUnavailable, match="USB camera 3 could not be opened"):
        open_camera("usb:3")
    assert webcam[0].released


def test_a_webcam_holds_exposure_colour_and_focus_while_locked(webcam):
    with open_camera("usb:0") as camera:
        fake = webcam[0]
        camera.lock_3a()
        # V4L2_EXPOSURE_MANUAL; auto white balance and autofocus off: the values reached are held
        assert {p: fake.settings[p] for p in (cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_AUTO_WB,
                                             cv2.CAP_PROP_AUTOFOCUS)} == {
            cv2.CAP_PROP_AUTO_EXPOSURE: 1, cv2.CAP_PROP_AUTO_WB: 0, cv2.CAP_PROP_AUTOFOCUS: 0}
        camera.unlock_3a()
        assert {p: fake.settings[p] for p in (cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_AUTO_WB,
                                             cv2.CAP_PROP_AUTOFOCUS)} == {
            cv2.CAP_PROP_AUTO_EXPOSURE: 3, cv2.CAP_PROP_AUTO_WB: 1, cv2.CAP_PROP_AUTOFOCUS: 1}
    with pytest.raises(CameraUnavailable, match="closed"):
        camera.lock_3a()
