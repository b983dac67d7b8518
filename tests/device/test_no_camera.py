"""`dicelens serve` started with no camera (or before it appears), as a subprocess.

It keeps serving: one log line names the cause (not one per retry), the page and
/healthz say the camera is unavailable, presets and dice by hand still make rolls, and a
camera that appears later is picked up without a restart.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

REPO = Path(__file__).resolve().parents[2]

# A picamera2 with exactly the calls device/cameras/picamera.py makes (libcamera beside it). libcamera lists
# no camera until the file $FAKE_CAMERA_READY exists: a camera found late at boot.
FAKE_PICAMERA2 = textwrap.dedent('''
    import os
    import time

    import cv2
    import numpy as np


    def _found():
        return os.path.exists(os.environ["FAKE_CAMERA_READY"])


    class Picamera2:
        @staticmethod
        def global_camera_info():
            return [{"Model": "imx708", "Num": 0}] if _found() else []

        def __init__(self):
            if not _found():
                raise IndexError("list index out of range")  # what picamera2 itself says

        def create_still_configuration(self, main, lores):
            return {"main": {"size": (640, 480), **main}, "lores": dict(lores)}

        def configure(self, config):
            self.config = config

        def start(self):
            self.camera_controls = {"AeEnable": (False, True, None), "AwbEnable": (False, True, None),
                                    "ExposureTime": (75, 11766829, None), "AnalogueGain": (1.0, 16.0, None),
                                    "ColourGains": (0.0, 32.0, None)}  # a camera with a fixed lens

        def set_controls(self, controls):
            assert set(controls) <= set(self.camera_controls), controls

        def capture_request(self, wait, flush):
            time.sleep(0.01)
            return _Request(self.config)

        def stop(self):
            pass

        def close(self):
            pass


    class _Request:
        def __init__(self, config):
            self.config = config

        def get_metadata(self):
            return {"ExposureTime": 10000, "AnalogueGain": 1.5, "ColourGains": (1.6, 2.1)}

        def make_array(self, name):
            width, height = self.config[name]["size"]
            tray = np.full((height, width, 3), 90, np.uint8)
            return cv2.cvtColor(tray, cv2.COLOR_BGR2YUV_I420) if name == "lores" else tray

        def release(self):
            pass
''')


class Serve:
    """``dicelens serve --port 0`` on a temporary data folder, its log lines collected."""

    def __init__(self, tmp_path: Path, camera: str, env: dict | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "device.cli", "serve", "--camera", camera, "--port", "0",
             "--data", str(tmp_path / "data")],
            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})})
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.base = self.wait_for(r"Serving on (http://[\d.]+:\d+)").group(1)

    def _pump(self) -> None:
        for line in self.process.stderr:
            self.lines.put(line)
        self.lines.put("")

    def wait_for(self, pattern: str, timeout: float = 60):
        while True:
            line = self.lines.get(timeout=timeout)
            self.seen.append(line)
            if not line:
                raise AssertionError("serve ended early:\n" + "".join(self.seen))
            if match := re.search(pattern, line):
                return match

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.loads(error.read())

    def stop(self) -> str:
        """SIGTERM; returns the whole log once it has ended cleanly."""
        try:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(timeout=30) == 0
            while (line := self.lines.get(timeout=10)) != "":
                self.seen.append(line)
        finally:
            self.process.kill()
            self.process.wait()
            self.process.stderr.close()
        return "".join(self.seen)


@pytest.mark.parametrize(("camera", "cause"), [
    ("usb:9", "USB camera 9 could not be opened (is it plugged in?)"),
    ("picamera2", "picamera2 is not installed (on the Pi: apt install python3-picamera2, "
                  "and a venv made with --system-site-packages)"),
])
def test_no_camera_keeps_serving_and_says_why_once(tmp_path, camera, cause):
    serve = Serve(tmp_path, camera)
    try:
        status, state = serve.call("/api/state")
        assert status == 200
        camera = state["camera"]
        assert {key: camera[key] for key in ("status", "message", "can_throw", "by_hand")} == \
            {"status": "no camera", "message": cause, "can_throw": False, "by_hand": True}
        assert camera["text"] == cause and camera["reason"]["template"]  # worded per phone (web/messages.py)
        status, health = serve.call("/healthz")
        assert status == 503 and health["reasons"] == [f"camera unavailable (no camera): {cause}"]
        with urllib.request.urlopen(serve.base + "/", timeout=10) as page:
            assert page.status == 200

        status, body = serve.call("/api/throw", {})
        assert status == 409 and "enter the dice by hand" in body["error"]
        status, state = serve.call("/api/arm", {"preset": "2d6", "roller": "Nara"})
        assert status == 200 and state["state"] == "armed"
        status, state = serve.call("/api/dice", {"values": [6, 2]})
        assert status == 200 and state["state"] in ("resolved", "prompting")
        status, rolls = serve.call("/api/rolls")
        [roll] = rolls["rolls"]
        assert roll["roller"] == "Nara" and [d["natural"] for d in roll["dice"]][:2] == [6, 2]
        assert {d["source"] for d in roll["dice"]} == {"hand"}

        time.sleep(3.5)  # the camera loop tries again after 1 s, then 2 s: two more failures
        assert serve.call("/api/state")[1]["camera"]["message"] == cause
    finally:
        log = serve.stop()
    assert log.count(cause) == 1, log  # one line naming the cause, not one per retry
    assert "Traceback" not in log and "[ WARN" not in log and "[ERROR" not in log  # nor OpenCV's own
    assert (tmp_path / "data" / "history.sqlite3").exists()


def test_a_camera_that_appears_later_is_picked_up(tmp_path):
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    (fakes / "picamera2.py").write_text(FAKE_PICAMERA2)
    (fakes / "libcamera.py").write_text("import types\n\ncontrols = types.SimpleNamespace("
                                        "AfModeEnum=types.SimpleNamespace(Manual=0, Auto=1, Continuous=2))\n")
    ready = tmp_path / "camera-ready"
    serve = Serve(tmp_path, "picamera2", env={
        "PYTHONPATH": os.pathsep.join([str(fakes), os.environ.get("PYTHONPATH", "")]),
        "FAKE_CAMERA_READY": str(ready)})
    cause = "no Pi camera found (check the ribbon cable, then restart the Pi: it looks for its camera at boot)"
    try:
        state = serve.call("/api/state")[1]
        assert state["camera"]["status"] == "no camera" and state["camera"]["message"] == cause
        assert serve.call("/healthz")[0] == 503
        status, state = serve.call("/api/arm", {"preset": "2d6"})
        assert status == 200

        ready.touch()  # the camera is there now
        serve.wait_for(r"camera ok", timeout=30)
        deadline = time.monotonic() + 10
        while (answer := serve.call("/healthz"))[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        status, health = answer
        assert status == 200, health
        assert health["camera"]["status"] == "ok" and health["camera"]["last_frame_seconds"] < 10
        state = serve.call("/api/state")[1]
        assert state["camera"]["status"] == "ok" and state["state"] == "armed"
    finally:
        log = serve.stop()
    assert log.count(cause) == 1, log
    assert "Traceback" not in log
