"""A player who follows Settings' health link or mistypes an address reads a page in the
page's language, never raw English JSON nor Werkzeug's "Not Found" (trial fault 15); the
JSON stays at /healthz for machines (curl, systemd, Accept: application/json)."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from device.cameras.replay import PhotoFolderCamera
from device.errors import said
from web import create_app

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
#: language → the health page's heading, its words for a camera not found, the 404 page's words.
WORDS = {"en": ("Health check", "camera unavailable", "Not found (404)", "Go to the live page"),
         "pt-BR": ("Verificação de saúde", "câmera indisponível", "Não encontrado (404)", "Ir para a página ao vivo"),
         "es": ("Comprobación de estado", "cámara no disponible", "No encontrado (404)", "Ir a la página en vivo")}


@pytest.fixture
def client(real_controller):
    return create_app(real_controller(), {"TESTING": True, "SECRET_KEY": "t"}).test_client()


@pytest.mark.parametrize("lang", WORDS)
def test_the_health_link_opens_a_page_in_the_pages_language(client, lang):
    heading, camera, _, _ = WORDS[lang]
    answer = client.get("/healthz", headers={"Accept": BROWSER, "Accept-Language": lang})
    assert answer.status_code == 503 and answer.mimetype == "text/html"  # no camera attached
    page = answer.get_data(as_text=True)
    assert f">{heading}</h1>" in page and camera in page


#: language → the health page's words for a data folder gone (its free space unknown, its rolls
#: unsaved), a file camera whose folder is gone, a closed history database.
DEVICE_WORDS = {"en": ("the data folder cannot be measured", "is not writable: rolls and photos cannot be saved",
                       "file camera: the folder", "the history database is closed"),
                "pt-BR": ("não é possível medir a pasta de dados", "rolagens e fotos não podem ser salvas",
                          "câmera de arquivo: a pasta", "o banco de dados do histórico está fechado"),
                "es": ("no se puede medir la carpeta de datos", "las tiradas y las fotos no se pueden guardar",
                       "cámara de archivo: la carpeta", "la base de datos del historial está cerrada")}


@pytest.mark.parametrize("lang", DEVICE_WORDS)
def test_the_devices_own_reasons_are_worded_in_the_pages_language(real_controller, history, tmp_path, lang):
    gone = tmp_path / "photos-gone"
    gone.mkdir()
    cv2.imwrite(str(gone / "tray.png"), np.full((48, 64, 3), 90, np.uint8))
    camera = PhotoFolderCamera(gone, moving_frames=1)
    shutil.rmtree(gone)
    with pytest.raises(ValueError) as failure:
        camera.throw()
    controller = real_controller()
    controller.on_status("reconnecting", said(failure.value))
    client = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()

    def health_page() -> str:
        return client.get("/healthz", headers={"Accept": BROWSER, "Accept-Language": lang}).get_data(as_text=True)

    history.close()
    closed = health_page()
    shutil.rmtree(history.folder)
    page = health_page()
    unmeasured, unwritable, camera_gone, database = DEVICE_WORDS[lang]
    assert database in closed and camera_gone in closed
    assert unmeasured in page and unwritable in page


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_machines_still_get_the_json(client, accept):
    answer = client.get("/healthz", headers={"Accept": accept} if accept else {})
    assert answer.status_code == 503 and answer.is_json
    assert answer.get_json()["reasons"][0].startswith("camera unavailable")  # English, for logs and monitors


@pytest.mark.parametrize("lang", WORDS)
def test_an_unknown_address_is_a_404_page_in_the_pages_language_with_a_way_home(client, lang):
    _, _, title, home = WORDS[lang]
    answer = client.get("/no-such-page", headers={"Accept": BROWSER, "Accept-Language": lang})
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert title in page and f'href="/">{home}</a>' in page and "Werkzeug" not in page


def test_the_api_still_answers_json(client):
    answer = client.get("/api/no-such-thing", headers={"Accept": BROWSER})
    assert answer.status_code == 404 and answer.get_json() == {"error": "not found"}
