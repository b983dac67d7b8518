"""Why the camera is away, in the page's language: the device keeps the reason's phrase
(its template and values, ``device.roll.camera.camera_status``), web/messages.py words it;
the device's English stays in ``message`` (the CLI, the logs, /healthz)."""

from __future__ import annotations

import html

import pytest

from device.cameras import open_camera
from device.errors import said
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


#: lang → the file camera of an empty folder, away, as /api/state and the health page word it.
FOLDER_AWAY = {
    "en": ("file camera: no photos (.jpg, .jpeg, .png, .bmp, .webp, .tif, .tiff, the other stills OpenCV reads) "
           "in {path}", "camera unavailable (reconnecting): "),
    "pt_BR": ("câmera de arquivo: nenhuma foto (.jpg, .jpeg, .png, .bmp, .webp, .tif, .tiff, as outras imagens "
              "que o OpenCV lê) em {path}", "câmera indisponível (reconectando): "),
    "es": ("cámara de archivo: no hay fotos (.jpg, .jpeg, .png, .bmp, .webp, .tif, .tiff, las demás imágenes "
           "que lee OpenCV) en {path}", "cámara no disponible (reconectando): "),
}


@pytest.mark.parametrize("lang", FOLDER_AWAY)
def test_the_file_cameras_reason_and_status_are_said_in_the_pages_language(real, tmp_path, lang):
    """The trial's folder whose photos were deleted: opened again, the file camera says why
    in the page's language, on /api/state and on the health page, status word too."""
    controller, client = real
    with pytest.raises(ValueError) as raised:
        open_camera(f"file:{tmp_path}")
    controller.on_status("reconnecting", said(raised.value))
    text, status = FOLDER_AWAY[lang]
    camera = client.get(f"/api/state?lang={lang}").get_json()["camera"]
    assert camera["text"] == text.format(path=tmp_path)
    page = client.get("/healthz", headers={"Accept": "text/html", "Accept-Language": lang.replace("_", "-")})
    assert html.escape(status + text.format(path=tmp_path), quote=False) in page.get_data(as_text=True)


@pytest.mark.parametrize(("name", "data", "english"), [
    ("none", None, "file camera: {path} is neither a folder of photos nor a photo"),
    ("cut.png", b"\x89PNG\r\n\x1a\n", "file camera: {path}: damaged image (the file is cut short)"),
    ("clip.mp4", b"no video", "file camera: {path} is not a readable video"),
])
def test_every_reason_the_file_camera_gives_is_a_phrase(tmp_path, name, data, english):
    path = tmp_path / name
    if data is not None:
        path.write_bytes(data)
    with pytest.raises(ValueError) as raised:
        open_camera(f"file:{path}")
    assert isinstance(said(raised.value), Phrase) and said(raised.value) == english.format(path=path)
