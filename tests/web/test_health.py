"""GET /healthz over the real controller and history (SQLite): 200 when fit, 503 with the reasons."""

from __future__ import annotations

import shutil

import pytest

from web import create_app


@pytest.fixture
def real(real_controller, clock):
    """A controller whose camera loop says ok and got a frame 0.5 s ago."""
    frame = {"at": clock.t - 0.5}
    controller = real_controller(camera={"read_now": lambda: None, "last_frame_at": lambda: frame["at"]})
    controller.frame = frame
    return controller


def client_for(controller, **config):
    return create_app(controller, {"TESTING": True, "SECRET_KEY": "t", **config}).test_client()


def test_healthy_answers_200_with_the_figures(real, tmp_path):
    response = client_for(real).get("/healthz")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert body["healthy"] is True and body["reasons"] == []
    assert body["camera"] == {"status": "ok", "message": None, "last_frame_seconds": 0.5}
    free = shutil.disk_usage(tmp_path / "data").free
    assert body["disk"]["error"] is None and abs(body["disk"]["free_bytes"] - free) < 64 * 2**20
    assert body["database"] == {"ok": True, "error": None}


@pytest.mark.parametrize(("status", "message"), [
    ("no camera", "USB camera 9 could not be opened (is it plugged in?)"),
    ("reconnecting", "the Pi camera gave no frame: timeout"),
])
def test_no_camera_is_503_naming_the_cause(real, status, message):
    real.on_status(status, message)
    response = client_for(real).get("/healthz")
    assert response.status_code == 503
    body = response.get_json()
    assert body["healthy"] is False
    assert body["reasons"] == [f"camera unavailable ({status}): {message}"]


def test_a_camera_loop_that_stops_delivering_frames_is_503(real, clock):
    client = client_for(real)
    clock.t += 9  # the last frame is now 9.5 s old: within the default 10 s
    assert client.get("/healthz").status_code == 200
    clock.t += 5
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["reasons"] == [
        "the camera's last frame is 14 s old (more than 10 s): the camera loop is stuck"]
    assert client_for(real, HEALTH_FRAME_SECONDS=30).get("/healthz").status_code == 200
    real.frame["at"] = clock.t  # the loop delivers again
    assert client.get("/healthz").status_code == 200


def test_a_camera_that_never_gave_a_frame_is_503(real_controller):
    controller = real_controller(camera={"last_frame_at": lambda: None})
    response = client_for(controller).get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["reasons"] == ["the camera has given no frame yet"]


def test_too_little_free_disk_is_503(real, tmp_path):
    free_mb = shutil.disk_usage(tmp_path).free / 2**20
    response = client_for(real, HEALTH_MIN_FREE_MB=free_mb * 2).get("/healthz")
    assert response.status_code == 503
    [reason] = response.get_json()["reasons"]
    assert reason.startswith("only ") and f"(less than {free_mb * 2:g} MB)" in reason
    assert client_for(real, HEALTH_MIN_FREE_MB=1).get("/healthz").status_code == 200


def test_thresholds_come_from_the_environment_too(real, monkeypatch, tmp_path):
    monkeypatch.setenv("DICE_HEALTH_MIN_FREE_MB", str(shutil.disk_usage(tmp_path).free / 2**20 * 2))
    assert client_for(real).get("/healthz").status_code == 503


def test_a_data_folder_gone_is_503(real, history):
    shutil.rmtree(history.folder)
    body = client_for(real).get("/healthz").get_json()
    assert body["disk"]["free_bytes"] is None
    assert body["reasons"][0].startswith("the data folder cannot be measured: ")


def test_a_closed_database_is_503(real, history):
    history.close()
    response = client_for(real).get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["database"] == {"ok": False, "error": "the history database is closed"}
    assert response.get_json()["reasons"] == ["the history database is closed"]


def test_several_problems_are_all_named(real, history):
    real.on_status("no camera", "picamera2 is not installed")
    history.close()
    reasons = client_for(real, HEALTH_MIN_FREE_MB=10**12).get("/healthz").get_json()["reasons"]
    assert [reason.split(" ")[0] for reason in reasons] == ["camera", "only", "the"]


def test_the_settings_page_links_to_it(real):
    page = client_for(real).get("/settings").get_data(as_text=True)
    assert 'href="/healthz"' in page
