"""The Pi camera adapter, against a fake of exactly the picamera2 calls it makes."""

from __future__ import annotations

import sys
import types

import cv2
import numpy as np
import pytest

from device.cameras import open_camera
from device.errors import CameraUnavailable

MAIN = (640, 480)
LORES = (320, 240)


class FakeRequest:
    """A completed request: picamera2's CompletedRequest.make_array / release."""

    def __init__(self, camera: FakePicamera2, scene: int, timestamp: int) -> None:
        self.camera, self.scene, self.timestamp = camera, scene, timestamp
        self.metadata = camera.frame_metadata()
        self.released = False

    def get_metadata(self) -> dict:
        assert not self.released, "a request's metadata is gone once released"
        return dict(self.metadata)

    def make_array(self, name: str) -> np.ndarray:
        assert not self.released, "a request's buffers are gone once released"
        config = self.camera.config[name]
        width, height = config["size"]
        bgr = np.full((height, width, 3), (self.scene, 100, 200), np.uint8)
        if name == "lores":
            assert config["format"] == "YUV420"
            return cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)  # (height * 3 / 2, width)
        assert config["format"] == "RGB888"  # picamera2's RGB888 is B, G, R in memory
        return bgr

    def release(self) -> None:
        self.released = True


class FakeJob:
    """What picamera2's asynchronous calls (``wait=False``) return, for ``Picamera2.wait``."""

    def __init__(self, result) -> None:
        self.result = result


class FakePicamera2:
    """Picamera2 as the adapter uses it. Completed requests queue up like libcamera's:
    ``flush=True`` skips those exposed before the call, as picamera2 documents.

    Controls as libcamera applies them: with AeEnable / AwbEnable on, a frame's
    ExposureTime, AnalogueGain and ColourGains follow the scene; set values hold
    once they are off. A motorised lens (Camera Module 3, ``AfMode`` among the
    camera's controls) moves to ``subject`` dioptres in an autofocus cycle, and
    in continuous mode with every frame.
    """

    instances: list[FakePicamera2] = []
    lens = True  # a motorised lens

    @staticmethod
    def global_camera_info() -> list[dict]:
        return [{"Model": "imx708", "Location": 2, "Rotation": 180, "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a", "Num": 0}]

    def __init__(self) -> None:
        self.instances.append(self)
        self.calls: list[str] = []
        self.scene = 10  # what the sensor sees now
        self.clock = 0  # nanoseconds
        self.queued: list[FakeRequest] = []  # frames exposed earlier, not yet fetched
        self.requests: list[FakeRequest] = []
        self.fail_start: Exception | None = None
        self.fail_request: Exception | None = None
        self.camera_controls = {"ExposureTime": (75, 11766829, None), "AnalogueGain": (1.0, 16.0, None),
                                "ColourGains": (0.0, 32.0, None), "AeEnable": (False, True, None),
                                "AwbEnable": (False, True, None), "AfMode": (0, 2, 0),
                                "LensPosition": (0.0, 15.0, 1.0)}
        self.controls = {"AeEnable": True, "AwbEnable": True, "AfMode": AfModeEnum.Manual, "LensPosition": 1.0}
        self.subject = 2.5  # dioptres: a tray 40 cm away
        self.set: list[dict] = []
        if not self.lens:
            del self.camera_controls["AfMode"], self.camera_controls["LensPosition"]

    def frame_metadata(self) -> dict:
        c = self.controls
        if "AfMode" in self.camera_controls and c["AfMode"] == AfModeEnum.Continuous:
            c["LensPosition"] = self.subject
        metadata = {
            "ExposureTime": 8000 + 50 * self.scene if c["AeEnable"] else c["ExposureTime"],
            "AnalogueGain": 1.0 + self.scene / 100 if c["AeEnable"] else c["AnalogueGain"],
            "ColourGains": (1.5 + self.scene / 1000, 2.2) if c["AwbEnable"] else c["ColourGains"],
            "SensorTimestamp": self.clock,
        }
        if "AfMode" in self.camera_controls:
            metadata["LensPosition"] = c["LensPosition"]
        return metadata

    def set_controls(self, controls: dict) -> None:
        self.calls.append("set_controls")
        unknown = set(controls) - set(self.camera_controls)
        if unknown:  # picamera2's own words
            raise RuntimeError(f"Control {unknown.pop()} is not advertised by libcamera")
        self.set.append(dict(controls))
        self.controls.update(controls)

    def autofocus_cycle(self, wait: bool | None = None) -> FakeJob:
        self.calls.append("autofocus_cycle")
        assert "AfMode" in self.camera_controls, "no lens to focus"
        assert wait is False, "asked without waiting; the adapter waits with a timeout"
        self.controls["AfMode"] = AfModeEnum.Auto
        self.controls["LensPosition"] = self.subject
        return FakeJob(True)

    def wait(self, job: FakeJob, timeout: float | None = None):
        self.calls.append("wait")
        assert timeout is not None and 0 < timeout <= 10, "a bounded wait"
        if self.fail_request:
            raise self.fail_request
        return job.result

    def create_still_configuration(self, main: dict, lores: dict) -> dict:
        self.calls.append("create_still_configuration")
        return {"main": {"size": main.get("size", MAIN), **main}, "lores": dict(lores)}

    def configure(self, config: dict) -> None:
        self.calls.append("configure")
        self.config = config

    def start(self) -> None:
        self.calls.append("start")
        if self.fail_start:
            raise self.fail_start

    def expose(self, scene: int) -> None:
        """The sensor finishes a frame that waits in the queue."""
        self.clock += 33_000_000
        self.queued.append(FakeRequest(self, scene, self.clock))

    def capture_request(self, wait: float, flush: bool) -> FakeRequest:
        self.calls.append(f"capture_request(flush={flush})")
        assert 0 < wait <= 10, "a bounded wait, so a dead camera cannot hang the loop"
        if self.fail_request:
            raise self.fail_request
        now = self.clock
        if flush:
            self.queued = [r for r in self.queued if r.timestamp > now]
        if not self.queued:
            self.expose(self.scene)
        request = self.queued.pop(0)
        self.requests.append(request)
        return request

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


AfModeEnum = types.SimpleNamespace(Manual=0, Auto=1, Continuous=2)  # libcamera.controls.AfModeEnum


@pytest.fixture
def picamera2(monkeypatch):
    FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    monkeypatch.setitem(sys.modules, "libcamera", types.SimpleNamespace(
        controls=types.SimpleNamespace(AfModeEnum=AfModeEnum)))
    return FakePicamera2


def test_full_and_preview_frames_in_bgr(picamera2):
    with open_camera("picamera2", size=MAIN, preview_size=LORES) as camera:
        fake = picamera2.instances[0]
        assert fake.calls == ["create_still_configuration", "configure", "start"]
        frame = camera.capture()
        assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
        assert tuple(frame[0, 0]) == (10, 100, 200)
        preview = camera.capture_preview()
        assert preview.shape == (240, 320, 3)
        assert np.abs(preview[5, 5].astype(int) - (10, 100, 200)).max() <= 3  # YUV round trip
        assert all(r.released for r in fake.requests)


def test_a_capture_never_returns_a_frame_exposed_before_it(picamera2):
    camera = open_camera("picamera2")
    fake = picamera2.instances[0]
    fake.expose(scene=10)  # dice still rolling in these frames...
    fake.expose(scene=20)
    fake.scene = 30  # ...the dice have settled
    assert camera.capture()[0, 0, 0] == 30
    assert fake.calls[-1] == "capture_request(flush=True)"
    camera.close()


def test_previews_take_the_next_frame_without_waiting(picamera2):
    camera = open_camera("picamera2")
    fake = picamera2.instances[0]
    fake.expose(scene=40)
    assert abs(int(camera.capture_preview()[0, 0, 0]) - 40) <= 3
    assert fake.calls[-1] == "capture_request(flush=False)"
    camera.close()


def test_one_long_lived_camera_closed_once(picamera2):
    camera = open_camera("picamera2")
    for _ in range(5):
        camera.capture_preview()
    camera.capture()
    camera.close()
    camera.close()
    assert len(picamera2.instances) == 1
    assert picamera2.instances[0].calls[-2:] == ["stop", "close"]
    assert picamera2.instances[0].calls.count("close") == 1
    with pytest.raises(CameraUnavailable, match="closed"):
        camera.capture()


@pytest.mark.parametrize(("call", "message", "after"), [
    ("capture_preview", "Pi camera gave no frame: timed out", "capture_preview"),
    ("lock_3a", "Pi camera could not lock its exposure: TimeoutError", "unlock_3a"),
])
def test_a_camera_whose_request_times_out_is_unavailable(picamera2, call, message, after):
    """A request timing out while previewing or locking its exposure; once closed, ``after`` says so."""
    camera = open_camera("picamera2")
    picamera2.instances[0].fail_request = TimeoutError("timed out")
    with pytest.raises(CameraUnavailable, match=message):
        getattr(camera, call)()
    camera.close()
    with pytest.raises(CameraUnavailable, match="closed"):
        getattr(camera, after)()


def test_a_camera_that_cannot_start_is_unavailable_and_released(picamera2, monkeypatch):
    def failing():
        fake = FakePicamera2()
        fake.fail_start = RuntimeError("Camera __init__ sequence did not complete.")
        return fake

    failing.global_camera_info = FakePicamera2.global_camera_info

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=failing))
    with pytest.raises(CameraUnavailable, match="could not start: Camera __init__"):
        open_camera("picamera2")
    assert picamera2.instances[0].calls[-1] == "close"


def test_without_picamera2_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 raises ImportError
    with pytest.raises(CameraUnavailable, match="apt install python3-picamera2"):
        open_camera("picamera2")


def test_lock_holds_the_exposure_colour_and_focus_measured_after_one_autofocus_cycle(picamera2):
    camera = open_camera("picamera2")
    fake = picamera2.instances[0]
    fake.scene = 40  # the still tray, as the camera sees it when the roll is armed
    camera.lock_3a()
    assert fake.calls[-4:] == ["autofocus_cycle", "wait", "capture_request(flush=True)", "set_controls"]
    assert fake.set[-1] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 10000,
                            "AnalogueGain": 1.4, "ColourGains": (1.54, 2.2),
                            "AfMode": AfModeEnum.Manual, "LensPosition": 2.5}
    assert all(r.released for r in fake.requests)
    fake.scene, fake.subject = 90, 7.0  # a hand over the tray, the dice rolling
    for _ in range(3):
        camera.capture_preview()
    camera.capture()
    held = fake.requests[-1].metadata
    assert (held["ExposureTime"], held["AnalogueGain"], held["ColourGains"], held["LensPosition"]) \
        == (10000, 1.4, (1.54, 2.2), 2.5)
    camera.unlock_3a()
    assert fake.set[-1] == {"AeEnable": True, "AwbEnable": True, "AfMode": AfModeEnum.Continuous}
    camera.capture()
    assert fake.requests[-1].metadata["ExposureTime"] == 12500  # auto again
    camera.close()


def test_a_camera_without_a_motorised_lens_locks_exposure_and_colour_only(picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "lens", False)  # Camera Module 2, the HQ camera
    camera = open_camera("picamera2")
    fake = picamera2.instances[0]
    camera.lock_3a()
    assert "autofocus_cycle" not in fake.calls
    assert fake.set[-1] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8500,
                            "AnalogueGain": 1.1, "ColourGains": (1.51, 2.2)}
    camera.unlock_3a()
    assert fake.set[-1] == {"AeEnable": True, "AwbEnable": True}
    camera.close()
