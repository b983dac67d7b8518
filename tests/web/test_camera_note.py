"""Why the camera is away, in the page's language: the device keeps the reason's phrase
(its template and values, ``device.roll.camera.camera_status``), web/messages.py words it;
the device's English stays in ``message`` (the CLI, the logs, /healthz)."""

from __future__ import annotations

import pytest

from rules.phrase import Phrase
from web import create_app

from .test_events import Stream

USB = Phrase("USB camera {n} could not be opened (is it plugged in?)", n=1)
#: locale → USB's words on that page.
WORDED = {"en": "USB camera 1 could not be opened (is it plugged in?)",
          "pt_BR": "não foi possível abrir a câmera USB 1 (está conectada?)",
          "es": "no se pudo abrir la cámara USB 1 (¿está conectada?)"}


@pytest.fixture
def real(real_controller):
    controller = real_controller()
    return controller, create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.05}).test_client()


@pytest.mark.parametrize("lang", WORDED)
def test_the_camera_note_is_said_in_the_pages_language(real, lang):
    controller, client = real
    controller.on_status("reconnecting", USB)
    camera = client.get(f"/api/state?lang={lang}").get_json()["camera"]
    assert camera["text"] == WORDED[lang]
    assert camera["message"] == WORDED["en"] and camera["reason"] == {"template": USB.template, "values": {"n": 1}}


@pytest.mark.parametrize(("lang", "worded"), [("en", "no camera attached"), ("pt_BR", "nenhuma câmera conectada"),
                                              ("es", "no hay ninguna cámara conectada")])
def test_a_companion_without_a_camera_says_so_in_the_pages_language(real, lang, worded):
    _, client = real
    assert client.get(f"/api/state?lang={lang}").get_json()["camera"]["text"] == worded


def test_a_reason_the_page_has_no_words_for_comes_in_the_devices_english_and_ok_has_none(real):
    controller, client = real
    controller.on_status("no camera", "the file camera /srv/photos is closed")
    assert client.get("/api/state?lang=es").get_json()["camera"]["text"] == "the file camera /srv/photos is closed"
    controller.on_status("ok")
    assert client.get("/api/state?lang=es").get_json()["camera"]["text"] is None


def test_the_camera_event_is_said_in_the_phones_language(real):
    controller, client = real
    stream = Stream(client, "/api/events?lang=pt_BR")
    try:
        stream.next()  # retry
        assert stream.next_event()["event"] == "state"
        controller.on_status("reconnecting", USB)
        events = [stream.next_event() for _ in range(2)]  # the camera's, and the state it changed
        camera = next(event["data"] for event in events if event["event"] == "camera")
        assert camera["text"] == WORDED["pt_BR"]
    finally:
        stream.close()
