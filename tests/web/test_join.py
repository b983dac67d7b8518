"""GET /join.svg: a QR code of the address phones open, and the settings page showing it."""

from __future__ import annotations

import io
import re
import socket

import cv2
import numpy as np
import pytest
import segno

from web.join import lan_address


def decode(png: bytes) -> str:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    # The ArUco-based detector: the classic one misses some valid codes (one mask pattern of
    # "http://dicelens.local/" here), which a phone reads fine.
    text, points, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    assert points is not None, "no QR code found"
    return text


def join_url(app, host: str, **config) -> str:
    app.config.update(config)
    response = app.test_client().get("/join.svg", headers={"Host": host})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-store" and "Host" in response.vary
    svg = response.get_data(as_text=True)
    url = re.search(r"<title>(.*?)</title>", svg).group(1)
    # The very code segno draws for that URL, with the options a phone's camera needs...
    expected = io.BytesIO()
    segno.make_qr(url, error="m").save(expected, kind="svg", border=4, light="#fff",
                                        omitsize=True, xmldecl=False, title=url)
    assert svg == expected.getvalue().decode()
    # ...and that code, drawn in pixels, reads back as the URL.
    png = io.BytesIO()
    segno.make_qr(url, error="m").save(png, kind="png", scale=6, border=4)
    assert decode(png.getvalue()) == url
    return url


def test_a_phone_gets_the_address_it_opened(app):
    assert join_url(app, "dicelens.local:8000") == "http://dicelens.local:8000/"
    assert join_url(app, "192.168.1.7:8000") == "http://192.168.1.7:8000/"
    assert join_url(app, "[fe80::1]:8000") == "http://[fe80::1]:8000/"
    assert join_url(app, "dicelens.local") == "http://dicelens.local/"


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_opened_as_localhost_it_shows_the_lan_address(app, host):
    lan = lan_address()
    assert lan is not None and not lan.startswith("127.")
    with socket.socket() as probe:
        probe.bind((lan, 0))  # only an address of this machine can be bound
    assert join_url(app, host, SERVE_HOST="0.0.0.0") == f"http://{lan}:8000/"
    assert join_url(app, host, SERVE_HOST="192.0.2.77") == "http://192.0.2.77:8000/"


def test_served_to_this_machine_only_the_page_says_so(app):
    app.config["SERVE_HOST"] = "127.0.0.1"
    assert join_url(app, "localhost:8000") == "http://localhost:8000/"
    page = app.test_client().get("/settings", headers={"Host": "localhost:8000"}).get_data(as_text=True)
    assert 'id="join-local"' in page and "--host 0.0.0.0" in page


def test_a_configured_address_wins(app):
    assert join_url(app, "localhost:8000", JOIN_URL="http://table.example:8000/") == "http://table.example:8000/"


def test_the_settings_page_shows_the_code_and_the_address(app):
    app.config["SERVE_HOST"] = "0.0.0.0"
    page = app.test_client().get("/settings", headers={"Host": "dicelens.local:8000"}).get_data(as_text=True)
    assert re.search(r'<img id="join-qr" src="/join.svg"[^>]*alt="QR code of http://dicelens.local:8000/"', page)
    assert '<a id="join-url" href="http://dicelens.local:8000/">http://dicelens.local:8000/</a>' in page
    assert 'id="join-local"' not in page
